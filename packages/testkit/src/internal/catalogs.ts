import { type Catalog, CatalogMatch, Errors, Ports, Uuid } from "@legible/core"
import { Effect } from "effect"
import { conflict, type State } from "./state.js"

const owned = (state: State, clientId: string, id: string) => {
  const catalog = state.catalogs.get(id)
  return catalog !== undefined && catalog.clientId === clientId ? catalog : undefined
}

const byId = (a: Catalog.CatalogRecord, b: Catalog.CatalogRecord) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)

/** Ranks by a score (best first, then id), keeping those at or above `floor`. */
const ranked = (
  records: ReadonlyArray<Catalog.CatalogRecord>,
  scoreOf: (record: Catalog.CatalogRecord) => number | undefined,
  floor: number
): Array<Catalog.CatalogRecord> =>
  records
    .flatMap((record) => {
      const score = scoreOf(record)
      return score !== undefined && score >= floor ? [{ record, score }] : []
    })
    .sort((a, b) => b.score - a.score || byId(a.record, b.record))
    .map(({ record }) => record)

/**
 * Answers a `CatalogQuery` by scanning the catalog's records, normalizing each value as the SQL store does on upsert
 * (the in-memory store is for tests: no index).
 */
const search = (records: ReadonlyArray<Catalog.CatalogRecord>, query: CatalogMatch.CatalogQuery) => {
  const indexed = (record: Catalog.CatalogRecord) => {
    const value = record.values[query.column]
    return value === undefined ? undefined : CatalogMatch.indexedValue(value)
  }
  switch (query._tag) {
    case "Key":
      return records.filter((r) => indexed(r)?.key === query.key).sort(byId)
    case "Identifier": {
      const hits = records.filter((r) => indexed(r)?.identifier === query.identifier)
      const orKey = query.orKey
      if (hits.length > 0 || orKey === undefined) return hits.sort(byId)
      return records.filter((r) => indexed(r)?.key === orKey).sort(byId)
    }
    case "NearIdentifier": {
      const wanted = query.identifier.toLowerCase()
      return ranked(
        records,
        (r) => {
          const identifier = indexed(r)?.identifier
          return identifier === undefined ||
            identifier === query.identifier ||
            !CatalogMatch.withinOneEdit(identifier, query.identifier)
            ? undefined
            : CatalogMatch.similarity(identifier.toLowerCase(), wanted)
        },
        0
      )
    }
    case "Similar":
      return ranked(
        records,
        (r) => {
          const key = indexed(r)?.key
          const score = key === undefined ? 0 : CatalogMatch.similarity(key, query.text)
          // Records sharing no trigram are never candidates (as with `pg_trgm`'s index).
          return score > 0 ? score : undefined
        },
        query.minSimilarity
      )
  }
}

/** The in-memory `CatalogStore`: catalogs scoped by client; records upserted by id, unknown columns refused. */
export const make = (state: State): Ports.CatalogStore["Service"] =>
  Ports.CatalogStore.of({
    create: (catalog) =>
      Effect.suspend(() => {
        if (state.catalogs.has(catalog.id)) return Effect.fail(conflict(`catalog ${catalog.id} already exists`))
        if (!state.clients.has(catalog.clientId)) {
          return Effect.fail(conflict(`catalog ${catalog.id} references unknown client ${catalog.clientId}`))
        }
        state.catalogs.set(catalog.id, { ...catalog })
        state.catalogRecords.set(catalog.id, new Map())
        return Effect.void
      }),
    get: (clientId, id) => Effect.sync(() => owned(state, clientId, id)),
    list: (clientId) =>
      Effect.sync(() =>
        [...state.catalogs.values()]
          .filter((c) => c.clientId === clientId)
          .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
      ),
    remove: (clientId, id) =>
      Effect.sync(() => {
        if (owned(state, clientId, id) === undefined) return false
        state.catalogs.delete(id)
        state.catalogRecords.delete(id)
        return true
      }),
    upsertRecords: (clientId, catalogId, records) =>
      Effect.suspend(() => {
        const catalog = owned(state, clientId, catalogId)
        if (catalog === undefined) {
          return Effect.fail(new Errors.InvalidRequest({ message: `catalog ${catalogId} does not exist` }))
        }
        const badId = records.find((r) => !Uuid.isUuid(r.id))
        if (badId !== undefined) {
          return Effect.fail(new Errors.InvalidRequest({ message: `record id ${badId.id} is not a UUID` }))
        }
        const columns = new Set(catalog.columns)
        for (const record of records) {
          const unknown = Object.keys(record.values).filter((c) => !columns.has(c))
          if (unknown.length > 0) {
            return Effect.fail(
              new Errors.InvalidRequest({
                message: `record ${record.id} has values of unknown columns: ${unknown.join(", ")}`
              })
            )
          }
        }
        const stored = state.catalogRecords.get(catalogId)!
        for (const record of records) stored.set(record.id, { id: record.id, values: { ...record.values } })
        return Effect.succeed(records.length)
      }),
    getRecord: (clientId, catalogId, recordId) =>
      Effect.sync(() =>
        owned(state, clientId, catalogId) === undefined ? undefined : state.catalogRecords.get(catalogId)?.get(recordId)
      ),
    countRecords: (clientId, catalogId) =>
      Effect.sync(() =>
        owned(state, clientId, catalogId) === undefined ? 0 : (state.catalogRecords.get(catalogId)?.size ?? 0)
      ),
    search: (clientId, catalogId, query) =>
      Effect.sync(() => {
        if (owned(state, clientId, catalogId) === undefined) return []
        const records = [...(state.catalogRecords.get(catalogId)?.values() ?? [])]
        return search(records, query).slice(0, Math.max(0, query.limit))
      })
  })
