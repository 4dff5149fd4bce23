/**
 * An `effect/sql` client over PGlite (PostgreSQL compiled to WASM, in process): one session shared by every
 * fiber, so one permit serializes statements and a transaction keeps the permit until its scope closes.
 * Queries and DML run as prepared statements kept per distinct text (`pgliteStatements.ts`); declared reads may be
 * answered from memory while no other statement has run (`readCache.ts`): every statement goes through this client.
 */

import * as PgClient from "@effect/sql-pg/PgClient"
import * as PgTypes from "@effect/sql-pg/PgTypes"
import { PGlite, type QueryOptions, type Results } from "@electric-sql/pglite"
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { Config, Context, Effect, Layer, Queue, Semaphore, Stream } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type { Connection } from "effect/sql/SqlConnection"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import * as Statements from "./pgliteStatements.js"
import * as ReadCache from "./readCache.js"
import { fromPgliteError } from "./sqlState.js"

/** A PGlite-backed `SqlClient` with PGlite's own `LISTEN`/`NOTIFY`. */
export interface PgliteClient extends SqlClient.SqlClient {
  /** The underlying instance, for tools that need it directly (statements must still go through the client). */
  readonly pglite: PGlite
  /** Subscribes to a channel; the queue receives each payload until the scope closes. */
  readonly listen: (channel: string) => Effect.Effect<Queue.Dequeue<string>, SqlError, Scope.Scope>
  /** Sends a notification (delivered at commit when called inside a transaction). */
  readonly notify: (channel: string, payload: string) => Effect.Effect<void, SqlError>
  /** The cache of declared reads (a pass-through one when `readCache` is off). */
  readonly reads: ReadCache.Cache
}

/** The service tag for `PgliteClient`. */
export const PgliteClient = Context.Service<PgliteClient>("@legible/adapters-storage/PgliteClient")

/** Where the database lives: a directory on disk, or memory when `dataDir` is absent. */
export interface PgliteClientConfig {
  readonly dataDir?: string | undefined
  /**
   * A cluster to start from, as another instance's `dumpDataDir` wrote it (its schema and rows), instead of a new
   * empty one: skips `initdb`, the most of PGlite's start (≈1.5 s from a dump against ≈9 s, two busy cores).
   */
  readonly loadDataDir?: Blob | undefined
  /** How many prepared statements to keep; 0 runs every statement through PGlite's `query`. */
  readonly statements?: number | undefined
  /** Whether declared reads may be answered from memory (default true). */
  readonly readCache?: boolean | undefined
}

/** How many prepared statements a session keeps by default (the stores have fewer distinct statements). */
export const STATEMENT_CACHE_SIZE = 256

/** The default limits of the read cache: plain reads weigh ~2 KB, a detailed one of a dense page ~90 KB. */
export const READ_CACHE_LIMITS = { maxEntries: 1024, maxChars: 8_000_000, maxAgeMillis: 60_000 } as const

const INT8 = 20

/**
 * Parse values the way `@effect/sql-pg` does, so stores see the same JS types on both engines: PGlite already
 * gives `Date` for timestamptz, parsed jsonb, `Uint8Array` for bytea and booleans; only int8 differs (number).
 */
const parsers = { [INT8]: (value: string) => BigInt(value) }

/** `@effect/sql-pg` typed parameters (e.g. `sql.json`) carry an OID; PGlite takes plain values and text json. */
const toPgliteParam = (value: unknown): unknown => {
  if (PgTypes.isParameter(value)) {
    if (value.value === null || value.value === undefined) return null
    return value.oid === PgTypes.OID.jsonb || value.oid === PgTypes.OID.json ? JSON.stringify(value.value) : value.value
  }
  return typeof value === "bigint" ? value.toString() : value
}

const toParams = (params: ReadonlyArray<unknown>): Array<unknown> => params.map(toPgliteParam)

/** Typed parameters keep their OID (so `PgTypes.jsonb(x)` is jsonb, not text); others are inferred by the server. */
const paramTypes = (params: ReadonlyArray<unknown>): Array<number> | undefined =>
  params.some(PgTypes.isParameter) ? params.map((value) => (PgTypes.isParameter(value) ? value.oid : 0)) : undefined

const queryOptions = (params: ReadonlyArray<unknown>, rowMode: "object" | "array"): QueryOptions => {
  const types = paramTypes(params)
  return types === undefined ? { rowMode, parsers } : { rowMode, parsers, paramTypes: types }
}

const makeConnection = (
  db: PGlite,
  statements: Statements.Statements | undefined,
  reads: ReadCache.Cache
): Connection => {
  // Queries and DML run as kept prepared statements; anything else through PGlite's `query`, and unless it is
  // transaction control it may change what a kept statement means (DDL), so the kept ones are dropped first.
  const run = <A>(sql: string, params: ReadonlyArray<unknown>, rowMode: "object" | "array") => {
    if (statements === undefined) return db.query<A>(sql, toParams(params), queryOptions(params, rowMode))
    if (Statements.cacheable(sql)) {
      return db.runExclusive(() => statements.run(sql, toParams(params), paramTypes(params), rowMode)) as Promise<
        Results<A>
      >
    }
    if (!Statements.transactionControl(sql)) statements.invalidate()
    return db.query<A>(sql, toParams(params), queryOptions(params, rowMode))
  }
  // Every statement but a declared read makes the kept reads stale, before it starts (under the permit).
  const counted = <A>(effect: Effect.Effect<A, SqlError>) =>
    Effect.flatMap(Effect.service(ReadCache.DeclaredRead), (declared) => {
      if (!declared) reads.changed()
      return effect
    })
  const query = <A>(sql: string, params: ReadonlyArray<unknown>, rowMode: "object" | "array") =>
    counted(
      Effect.tryPromise({
        try: () => run<A>(sql, params, rowMode),
        catch: (cause) => fromPgliteError(cause, "execute")
      })
    )
  // `exec` uses the simple protocol: the only way to run several statements (migrations) in one call.
  const exec = (sql: string) =>
    counted(
      Effect.tryPromise({
        try: () => {
          if (!Statements.transactionControl(sql)) statements?.invalidate()
          return db.exec(sql, { parsers })
        },
        catch: (cause) => fromPgliteError(cause, "executeUnprepared")
      })
    )
  const rows = (sql: string, params: ReadonlyArray<unknown>) =>
    Effect.map(query<object>(sql, params, "object"), (result) => result.rows)
  const unprepared = (sql: string, params: ReadonlyArray<unknown>): Effect.Effect<ReadonlyArray<object>, SqlError> =>
    params.length > 0
      ? rows(sql, params)
      : Effect.map(exec(sql), (results: Array<Results>) => results.at(-1)?.rows ?? [])
  return {
    execute: (sql, params, transformRows) =>
      transformRows ? Effect.map(rows(sql, params), transformRows) : rows(sql, params),
    executeRaw: (sql, params) => query(sql, params, "object"),
    executeValues: (sql, params) => Effect.map(query<Array<unknown>>(sql, params, "array"), (result) => result.rows),
    executeValuesUnprepared: (sql, params) =>
      Effect.map(query<Array<unknown>>(sql, params, "array"), (result) => result.rows),
    executeUnprepared: (sql, params, transformRows) =>
      transformRows ? Effect.map(unprepared(sql, params), transformRows) : unprepared(sql, params),
    // PGlite has no cursors over its API; a stream is the whole result, which is fine in process.
    executeStream: (sql, params, transformRows) =>
      Stream.fromIterableEffect(transformRows ? Effect.map(rows(sql, params), transformRows) : rows(sql, params))
  }
}

/** Like PostgreSQL, PGlite answers `COMMIT` of an aborted transaction with `ROLLBACK` instead of an error. */
const commit = (conn: Connection): Effect.Effect<void, SqlError> =>
  Effect.flatMap(conn.executeRaw("COMMIT", []), (result) =>
    typeof result === "object" && result !== null && "command" in result && result.command === "ROLLBACK"
      ? Effect.fail(
          new SqlError({
            reason: new UnknownError({
              cause: new Error("COMMIT rolled back an aborted transaction"),
              message: "PgliteClient: COMMIT rolled back an aborted transaction",
              operation: "commit"
            })
          })
        )
      : Effect.void
  )

/** Opens PGlite (with `pg_trgm` and `btree_gin`) for the lifetime of the scope and builds the client over it. */
export const make = Effect.fnUntraced(function* (
  options: PgliteClientConfig
): Effect.fn.Return<PgliteClient, SqlError, Scope.Scope | Reactivity.Reactivity> {
  const semaphore = yield* Semaphore.make(1)
  const db = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () =>
        PGlite.create({
          extensions: { pg_trgm, btree_gin },
          ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
          ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir })
        }),
      catch: (cause) => fromPgliteError(cause, "connect")
    }),
    // Close only once no statement holds the session.
    (db) => semaphore.withPermit(Effect.promise(() => db.close()).pipe(Effect.ignore))
  )
  const capacity = options.statements ?? STATEMENT_CACHE_SIZE
  const reads = ReadCache.make(
    options.readCache === false
      ? { maxEntries: 0, maxChars: 0, maxAgeMillis: 0, inTransaction: () => true }
      : { ...READ_CACHE_LIMITS, inTransaction: () => db.isInTransaction() }
  )
  const connection = makeConnection(
    db,
    capacity > 0 ? Statements.make(db, { ...db.parsers, ...parsers }, capacity) : undefined,
    reads
  )
  const acquirers = SqlClient.makeSqliteAcquirers({ connection: Effect.succeed(connection), semaphore })
  const client = yield* SqlClient.make({
    acquirer: acquirers.acquirer,
    borrower: acquirers.borrower,
    transactionAcquirer: acquirers.transactionAcquirer,
    compiler: PgClient.makeCompiler(),
    driver: "pglite",
    commit,
    releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
    spanAttributes: [
      ["db.system.name", "postgresql"],
      ["db.namespace", options.dataDir ?? "memory"]
    ]
  })

  const listen = (channel: string): Effect.Effect<Queue.Dequeue<string>, SqlError, Scope.Scope> =>
    Effect.gen(function* () {
      const queue = yield* Effect.acquireRelease(Queue.unbounded<string>(), Queue.shutdown)
      // LISTEN runs on the one session: under the permit, so it never lands inside another fiber's transaction.
      const unlisten = yield* semaphore.withPermit(
        Effect.tryPromise({
          try: () => db.listen(channel, (payload) => Queue.offerUnsafe(queue, payload)),
          catch: (cause) => fromPgliteError(cause, "listen")
        })
      )
      yield* Effect.addFinalizer(() =>
        semaphore.withPermit(Effect.promise(() => (db.closed ? Promise.resolve() : unlisten()))).pipe(Effect.ignore)
      )
      return queue
    })

  const notify = (channel: string, payload: string): Effect.Effect<void, SqlError> =>
    Effect.asVoid(client`SELECT pg_notify(${channel}, ${payload})`)

  return Object.assign(client, { pglite: db, listen, notify, reads })
})

/** Provides `PgliteClient` and `SqlClient` from a fixed configuration. */
export const layer = (options: PgliteClientConfig = {}): Layer.Layer<PgliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.effectContext(
    Effect.map(make(options), (client) =>
      Context.make(PgliteClient, client).pipe(
        Context.add(SqlClient.SqlClient, client),
        Context.add(ReadCache.ReadCache, client.reads)
      )
    )
  ).pipe(Layer.provide(Reactivity.layer))

/** Provides `PgliteClient` and `SqlClient` from `Config` values. */
export const layerConfig = (
  config: Config.Wrap<PgliteClientConfig>
): Layer.Layer<PgliteClient | SqlClient.SqlClient, Config.ConfigError | SqlError> =>
  Layer.unwrap(Effect.map(Config.unwrap(config), layer))
