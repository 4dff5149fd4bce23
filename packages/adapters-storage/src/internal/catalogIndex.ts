/**
 * In-process trigram indexes of large catalog columns, in a cache bounded by bytes and keyed by the catalog's
 * records version: `pg_trgm`'s GIN scan grows with the catalog where counting shared trigrams in process stays an
 * order of magnitude cheaper (`MEASUREMENTS.md`), so catalogs from `minRecords` up are searched in process, smaller
 * ones (and any the cache cannot hold) with `pg_trgm` in SQL. An index is built off the event loop: `catalog_keys`
 * is read page by page (each page aggregated by SQL into two strings, so this thread handles two values, not 20,000
 * rows) and sent to a worker thread, which builds the typed arrays and transfers them back without a copy (see
 * `catalogIndexWorker.ts`). Concurrent searches of the same catalog version share one build; a build that fails in
 * its worker is not retried at that version (searches use SQL).
 */
import { Worker } from "node:worker_threads"
import { Data, Deferred, Effect, Exit } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { type FromWorker, type RowsMessage, UUID_LENGTH } from "./catalogIndexWorker.js"
import { fromParts, type TrigramIndex, type TrigramIndexParts } from "./trigramIndex.js"

/** When a catalog column is indexed in process, and how much the cache may hold. */
export interface IndexOptions {
  /** Catalogs with fewer records are searched in SQL. `Infinity`: always SQL. */
  readonly minRecords: number
  /** The most bytes all cached indexes may hold together; a catalog whose index would not fit is searched in SQL. */
  readonly cacheBytes: number
}

/** Defaults: in process from 5,000 records, up to 256 MiB of indexes (about two 1M-record columns). */
export const defaultOptions: IndexOptions = { minRecords: 5_000, cacheBytes: 256 * 1024 * 1024 }

/** Bytes per record of an index (postings, counts, id, scratch; `MEASUREMENTS.md`): to skip what the cache cannot hold. */
const BYTES_PER_RECORD = 140

/** Failed builds remembered (so a broken worker is not started again on every search). */
const FAILED_KEPT = 1_000

/** Rows per page when reading a column to index it. */
const PAGE = 20_000

/**
 * The worker script: `dist/internal/catalogIndexWorker.js`. From the sources (tests run TypeScript), that is the
 * built copy two folders up; from `dist` it sits next to this file. Worker threads need JavaScript either way.
 */
const workerScript = new URL(
  import.meta.url.endsWith(".ts") ? "../../dist/internal/catalogIndexWorker.js" : "./catalogIndexWorker.js",
  import.meta.url
)

/** A worker thread could not build an index (its script missing, a thread that died, rows that did not pair up). */
export class IndexBuildFailed extends Data.TaggedError("IndexBuildFailed")<{ readonly message: string }> {}

/**
 * Builds an index in a worker thread from the pages `feed` sends (`send` posts one page; it never blocks), and
 * returns it once the worker has transferred the arrays back. The thread ends with the build, however it ends.
 */
export const buildInWorker = <E, R>(
  feed: (send: (page: RowsMessage) => void) => Effect.Effect<void, E, R>
): Effect.Effect<TrigramIndex, E | IndexBuildFailed, R> =>
  Effect.acquireUseRelease(
    Effect.try({
      try: () => {
        // Flags of the parent (a test runner's loaders, --inspect) do not apply to the worker script.
        const worker = new Worker(workerScript, { execArgv: [] })
        const result = Deferred.makeUnsafe<TrigramIndexParts, IndexBuildFailed>()
        const failWith = (message: string) => Deferred.doneUnsafe(result, Exit.fail(new IndexBuildFailed({ message })))
        worker.on("message", (message: FromWorker) => {
          if (message._tag === "Built") Deferred.doneUnsafe(result, Exit.succeed(message.parts))
          else failWith(message.message)
        })
        worker.on("error", (error: Error) => failWith(`the index worker failed: ${error.message}`))
        worker.on("exit", (code) => failWith(`the index worker exited (code ${code}) before its index was built`))
        return { worker, result }
      },
      catch: (error) => new IndexBuildFailed({ message: `an index worker could not be started: ${String(error)}` })
    }),
    ({ worker, result }) =>
      Effect.gen(function* () {
        yield* feed((page) => worker.postMessage(page))
        worker.postMessage({ _tag: "Build" })
        return fromParts(yield* Deferred.await(result))
      }),
    ({ worker }) => Effect.promise(() => worker.terminate())
  )

/** A cached index and the records version it was built at. */
export interface Entry {
  readonly version: number
  readonly index: TrigramIndex
}

/** The cache of one store: `get` returns the index of a catalog column at a version, or `undefined` (use SQL). */
export interface IndexCache {
  readonly get: (
    catalogId: string,
    column: string,
    version: number,
    records: number
  ) => Effect.Effect<TrigramIndex | undefined, SqlError>
  /** The cached index of a catalog column and the version it was built at, whatever the current version. */
  readonly peek: (catalogId: string, column: string) => Entry | undefined
  /** Bytes the cached indexes hold. */
  readonly bytes: () => number
}

/** Makes an empty cache reading from `sql`. */
export const make = (sql: SqlClient.SqlClient, options: IndexOptions): IndexCache => {
  // Map order is recency order: a hit moves its entry to the end, eviction takes from the front.
  const entries = new Map<string, Entry>()
  const building = new Map<string, Deferred.Deferred<TrigramIndex | undefined>>()
  // Column versions whose build failed in its worker (bounded: the latest ones only), searched in SQL.
  const failed = new Set<string>()
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

  /** Reads the column page by page in record id order, each page as two aggregated strings, into a worker. */
  const build = (catalogId: string, column: string) =>
    buildInWorker((send) =>
      Effect.gen(function* () {
        let after = "00000000-0000-0000-0000-000000000000"
        while (true) {
          const [page] = yield* sql<{ ids: string | null; keys: string | null; n: bigint | number }>`
            SELECT string_agg(record_id::text, '' ORDER BY record_id) AS ids,
              string_agg(norm, chr(10) ORDER BY record_id) AS keys, count(*) AS n
            FROM (
              SELECT record_id, norm FROM catalog_keys
              WHERE catalog_id = ${catalogId} AND record_id > ${after} AND column_name = ${column}
              ORDER BY record_id LIMIT ${PAGE}
            ) t`
          if (page === undefined || page.ids === null) return
          send({ _tag: "Rows", ids: page.ids, keys: page.keys ?? "" })
          if (Number(page.n) < PAGE) return
          after = page.ids.slice(-UUID_LENGTH)
        }
      })
    )

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
      if (failed.has(buildKey)) return undefined
      const pending = building.get(buildKey)
      if (pending !== undefined) return yield* Deferred.await(pending)
      const done = Deferred.makeUnsafe<TrigramIndex | undefined>()
      building.set(buildKey, done)
      return yield* build(catalogId, column).pipe(
        Effect.tap((index) => Effect.sync(() => store(key, { version, index }))),
        Effect.catchTag("IndexBuildFailed", (error) =>
          Effect.as(
            Effect.andThen(
              Effect.sync(() => {
                failed.add(buildKey)
                if (failed.size > FAILED_KEPT) failed.delete(failed.values().next().value ?? buildKey)
              }),
              Effect.logWarning("catalog index build failed: searching in SQL", {
                catalogId,
                column,
                version,
                error: error.message
              })
            ),
            undefined
          )
        ),
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
