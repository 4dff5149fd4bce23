/**
 * In-process trigram indexes of large catalog columns, in a cache bounded by bytes and keyed by the catalog's
 * records version. `pg_trgm`'s GIN scan costs grow with the catalog (measured on PostgreSQL 15: ~8–17 ms at 100k
 * records and ~50–60 ms at 1M for one approximate search), where counting shared trigrams over in-process postings
 * stays around 1 ms at 100k and ~10 ms at 1M; so catalogs from `minRecords` up are searched in process, smaller
 * ones (and any the cache cannot hold) with `pg_trgm` in SQL. An index is built from `catalog_keys` page by page,
 * then filled in chunks with yields in between, so the event loop is never held for long; concurrent searches of
 * the same catalog version share one build.
 */
import { CatalogMatch } from "@legible/core"
import { Deferred, Effect, Exit } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** When a catalog column is indexed in process, and how much the cache may hold. */
export interface IndexOptions {
  /** Catalogs with fewer records are searched in SQL. `Infinity`: always SQL. */
  readonly minRecords: number
  /** The most bytes all cached indexes may hold together; a catalog whose index would not fit is searched in SQL. */
  readonly cacheBytes: number
}

/** Defaults: in process from 5,000 records, up to 256 MiB of indexes (about two 1M-record columns). */
export const defaultOptions: IndexOptions = { minRecords: 5_000, cacheBytes: 256 * 1024 * 1024 }

/** Bytes per record of an index, measured (postings, counts, id, scratch): to skip what the cache cannot hold. */
const BYTES_PER_RECORD = 140

/** Rows per page when reading a column to index it. */
const PAGE = 20_000

/** Records filled per chunk before yielding to other fibers. */
const CHUNK = 50_000

/** A cached index and the records version it was built at. */
export interface Entry {
  readonly version: number
  readonly index: CatalogMatch.TrigramIndex
}

/** The cache of one store: `get` returns the index of a catalog column at a version, or `undefined` (use SQL). */
export interface IndexCache {
  readonly get: (
    catalogId: string,
    column: string,
    version: number,
    records: number
  ) => Effect.Effect<CatalogMatch.TrigramIndex | undefined, SqlError>
  /** The cached index of a catalog column and the version it was built at, whatever the current version. */
  readonly peek: (catalogId: string, column: string) => Entry | undefined
  /** Bytes the cached indexes hold. */
  readonly bytes: () => number
}

/** Makes an empty cache reading from `sql`. */
export const make = (sql: SqlClient.SqlClient, options: IndexOptions): IndexCache => {
  // Map order is recency order: a hit moves its entry to the end, eviction takes from the front.
  const entries = new Map<string, Entry>()
  const building = new Map<string, Deferred.Deferred<CatalogMatch.TrigramIndex | undefined>>()
  let total = 0

  const store = (key: string, entry: Entry) => {
    const previous = entries.get(key)
    if (previous !== undefined) {
      entries.delete(key)
      total -= previous.index.bytes
    }
    for (const [oldest, old] of entries) {
      if (total + entry.index.bytes <= options.cacheBytes) break
      entries.delete(oldest)
      total -= old.index.bytes
    }
    if (total + entry.index.bytes <= options.cacheBytes) {
      entries.set(key, entry)
      total += entry.index.bytes
    }
  }

  const build = (catalogId: string, column: string) =>
    Effect.gen(function* () {
      const builder = new CatalogMatch.TrigramIndexBuilder()
      let after = "00000000-0000-0000-0000-000000000000"
      while (true) {
        const rows = yield* sql<{ record_id: string; norm: string }>`
          SELECT record_id, norm FROM catalog_keys
          WHERE catalog_id = ${catalogId} AND record_id > ${after} AND column_name = ${column}
          ORDER BY record_id LIMIT ${PAGE}`
        for (const row of rows) builder.add(row.record_id, row.norm)
        const last = rows.at(-1)
        if (last === undefined || rows.length < PAGE) break
        after = last.record_id
      }
      const steps = builder.build(CHUNK)
      while (true) {
        const step = steps.next()
        if (step.done === true) return step.value
        yield* Effect.yieldNow
      }
    })

  const get = (catalogId: string, column: string, version: number, records: number) =>
    Effect.gen(function* () {
      if (records < options.minRecords || records * BYTES_PER_RECORD > options.cacheBytes) return undefined
      const key = `${catalogId}/${column}`
      const entry = entries.get(key)
      if (entry !== undefined && entry.version === version) {
        entries.delete(key)
        entries.set(key, entry)
        return entry.index
      }
      const buildKey = `${key}@${version}`
      const pending = building.get(buildKey)
      if (pending !== undefined) return yield* Deferred.await(pending)
      const done = Deferred.makeUnsafe<CatalogMatch.TrigramIndex | undefined>()
      building.set(buildKey, done)
      return yield* build(catalogId, column).pipe(
        Effect.tap((index) => Effect.sync(() => store(key, { version, index }))),
        // Waiters get the index, or `undefined` (search in SQL) when this build failed or was interrupted.
        Effect.onExit((exit) =>
          Effect.andThen(
            Effect.sync(() => building.delete(buildKey)),
            Deferred.succeed(done, Exit.isSuccess(exit) ? exit.value : undefined)
          )
        )
      )
    })

  const peek = (catalogId: string, column: string) => {
    const key = `${catalogId}/${column}`
    const entry = entries.get(key)
    if (entry !== undefined) {
      entries.delete(key)
      entries.set(key, entry)
    }
    return entry
  }

  return { get, peek, bytes: () => total }
}
