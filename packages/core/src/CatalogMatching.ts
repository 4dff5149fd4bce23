/**
 * The `CatalogMatcher` over the `CatalogStore`: prepares what was read, asks the store for candidates (indexed exact
 * lookups for `exacta` and identifiers; one-edit identifiers or trigram candidates for `aproximada`), and decides in
 * core (`CatalogMatch`). Every search goes to the store; only catalog names are remembered, in a bounded cache.
 */
import { Effect, Layer } from "effect"
import type { CatalogRecord } from "./Catalog.js"
import * as CatalogMatch from "./CatalogMatch.js"
import type { ClientId } from "./Directory.js"
import type { StorageError } from "./Errors.js"
import type { CatalogValue } from "./Field.js"
import { CatalogMatcher, CatalogStore } from "./Ports.js"
import type { CatalogFieldConfig, SkillField } from "./Skill.js"

/** Catalog names the matcher remembers (a few hundred bytes each). */
const NAME_CACHE = 1_000

/** Builds the matcher over the `CatalogStore` in context. */
export const make: Effect.Effect<CatalogMatcher["Service"], never, CatalogStore> = Effect.gen(function* () {
  const store = yield* CatalogStore

  // Catalog names by client and catalog, for `catalog_info`, in a bounded cache (oldest out first): an exact hit
  // then costs one round trip, not two side by side.
  const names = new Map<string, string>()
  const remember = (key: string, name: string | undefined) => {
    names.delete(key)
    if (name === undefined) return
    names.set(key, name)
    if (names.size > NAME_CACHE) {
      const oldest = names.keys().next()
      if (oldest.done !== true) names.delete(oldest.value)
    }
  }

  /**
   * The records equal to what was read in one column: by folded identifier when it reads as one (the common case
   * for tax ids), else — or when that finds nothing — by normalized key; one search either way (`orKey`).
   */
  const exactCandidates = Effect.fnUntraced(function* (
    clientId: ClientId,
    catalogId: string,
    query: CatalogMatch.ColumnQuery
  ) {
    const limit = CatalogMatch.EXACT_CANDIDATES
    if (query.identifier !== undefined) {
      return yield* store.search(clientId, catalogId, {
        _tag: "Identifier",
        column: query.column,
        identifier: query.identifier.folded,
        orKey: query.text.key === "" ? undefined : query.text.key,
        limit
      })
    }
    if (query.text.key === "") return []
    return yield* store.search(clientId, catalogId, { _tag: "Key", column: query.column, key: query.text.key, limit })
  })

  /**
   * Candidates of one column for `aproximada`. An identifier reading: its exact hits, or else its one-edit ones, or
   * else trigram candidates. A text reading: trigram candidates at once, in one search — records equal to the
   * reading have similarity 1 and come first, so an exact lookup before it would only add a round trip.
   */
  const approximateCandidates = Effect.fnUntraced(function* (
    clientId: ClientId,
    config: CatalogFieldConfig,
    query: CatalogMatch.ColumnQuery
  ) {
    const identifier = query.identifier
    if (identifier !== undefined) {
      const exact = yield* exactCandidates(clientId, config.catalogId, query)
      if (exact.length > 0) return exact
      if (identifier.folded.length >= CatalogMatch.ONE_EDIT_MIN_LENGTH) {
        const near = yield* store.search(clientId, config.catalogId, {
          _tag: "NearIdentifier",
          column: query.column,
          identifier: identifier.folded,
          limit: CatalogMatch.EXACT_CANDIDATES
        })
        if (near.length > 0) return near
      }
    }
    if (query.text.key === "") return []
    // Also for an identifier with no identifier hit: the column may hold text (a name read as a code).
    return yield* store.search(clientId, config.catalogId, {
      _tag: "Similar",
      column: query.column,
      text: query.text.key,
      minSimilarity: CatalogMatch.retrievalFloor(config.threshold),
      limit: CatalogMatch.CANDIDATES
    })
  })

  const match = Effect.fn("CatalogMatcher.match")(function* (
    clientId: ClientId,
    field: SkillField,
    extracted: Readonly<Record<string, string>>
  ): Effect.fn.Return<CatalogValue, StorageError> {
    const config = field.catalog
    if (config === undefined) return yield* Effect.die(new Error(`field ${field.name} is not a catalog field`))
    const queries = CatalogMatch.prepare(config.keyColumns, extracted)
    const columns = [...config.keyColumns, ...config.outputColumns]
    // The decision, and whether any search returned a record (which proves the catalog is still the client's).
    const decide = Effect.gen(function* () {
      const [first] = queries
      if (first === undefined) return { decision: { record: undefined, score: 0 }, seen: false }
      if (config.method === "exacta") {
        // Every key column read must be equal: the first one's hits hold every possible match.
        const candidates = yield* exactCandidates(clientId, config.catalogId, first)
        return { decision: CatalogMatch.decideExact(queries, candidates, columns), seen: candidates.length > 0 }
      }
      // One key column (the usual case) searches in this fiber; several search side by side.
      const candidates =
        queries.length === 1
          ? yield* approximateCandidates(clientId, config, first)
          : unique(
              (yield* Effect.forEach(queries, (query) => approximateCandidates(clientId, config, query), {
                concurrency: "unbounded"
              })).flat()
            )
      return {
        decision: CatalogMatch.decideApproximate(queries, candidates, columns, config.threshold),
        seen: candidates.length > 0
      }
    })
    const key = `${clientId}\u0000${config.catalogId}`
    const known = names.get(key)
    if (known !== undefined) {
      // Searches return records of the client's own catalogs only: any candidate proves the catalog is still theirs,
      // and its remembered name stands (one round trip, found or not). No candidate at all: read it again.
      const { decision, seen } = yield* decide
      if (seen) return CatalogMatch.catalogValue({ id: config.catalogId, name: known }, config, extracted, decision)
      const catalog = yield* store.get(clientId, config.catalogId)
      remember(key, catalog?.name)
      const name = catalog?.name ?? ""
      return CatalogMatch.catalogValue({ id: config.catalogId, name }, config, extracted, decision)
    }
    // The catalog (for its name) is read alongside the searches, which check the client themselves.
    const [catalog, { decision }] = yield* Effect.all([store.get(clientId, config.catalogId), decide], {
      concurrency: "unbounded"
    })
    remember(key, catalog?.name)
    const info = { id: config.catalogId, name: catalog?.name ?? "" }
    return CatalogMatch.catalogValue(
      info,
      config,
      extracted,
      catalog === undefined ? { record: undefined, score: 0 } : decision
    )
  })

  return CatalogMatcher.of({ match })
})

const unique = (records: ReadonlyArray<CatalogRecord>): ReadonlyArray<CatalogRecord> => [
  ...new Map(records.map((record) => [record.id, record])).values()
]

/** Provides `CatalogMatcher` over the `CatalogStore` in context. */
export const layer: Layer.Layer<CatalogMatcher, never, CatalogStore> = Layer.effect(CatalogMatcher, make)
