/**
 * A migrated `SqlClient` for either engine: PostgreSQL (a pool over `@effect/sql-pg`) or embedded PGlite, plus
 * `Notifications` (LISTEN/NOTIFY) that work the same on both.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Errors } from "@legible/core"
import { type Config, Context, Effect, Layer, Queue, type Redacted, Schema } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { fromSqlError } from "./internal/errors.js"
import { migrations } from "./internal/migrations.js"
import * as PgliteClient from "./internal/pgliteClient.js"
import * as ReadCache from "./internal/readCache.js"

/** The PostgreSQL pool size when none is given. */
export const DEFAULT_MAX_CONNECTIONS = 10
/** A PostgreSQL pool size: 2 (the job queue's listener holds one) to 1000. */
export const MaxConnections = Schema.Int.check(Schema.isBetween({ minimum: 2, maximum: 1000 }))

/** Which engine to open: a PostgreSQL server by URL, or PGlite in a directory (in memory without one). */
export type DatabaseOptions =
  | {
      readonly engine: "postgres"
      readonly url: Redacted.Redacted
      /** Pool size (`MaxConnections`); listeners hold one connection each. Default `DEFAULT_MAX_CONNECTIONS`. */
      readonly maxConnections?: number | undefined
    }
  | {
      readonly engine: "pglite"
      readonly dataDir?: string | undefined
      /** A cluster to start from, as PGlite's `dumpDataDir` wrote it, instead of an empty one (`PgliteClient`). */
      readonly loadDataDir?: Blob | undefined
    }

/** LISTEN/NOTIFY on the open database, whatever the engine. */
export class Notifications extends Context.Service<
  Notifications,
  {
    /** Subscribes (confirmed before this returns); the queue gets each payload until the scope closes. */
    listen(channel: string): Effect.Effect<Queue.Dequeue<string, SqlError>, SqlError, Scope.Scope>
    /** Notifies; inside a transaction the notification is sent at commit. */
    notify(channel: string, payload: string): Effect.Effect<void, SqlError>
  }
>()("@legible/adapters-storage/Database/Notifications") {}

/** The table where the migrator records which migrations ran. */
export const migrationsTable = "legible_migrations"

const runPending = Migrator.make({})({ loader: Migrator.fromRecord(migrations), table: migrationsTable })

/** The ids of `migrations` that are below the highest recorded one but not recorded themselves. */
export const skipped = (recorded: ReadonlyArray<number>): ReadonlyArray<string> => {
  const highest = Math.max(0, ...recorded)
  return Object.keys(migrations).filter((name) => {
    const id = Number.parseInt(name, 10)
    return id < highest && !recorded.includes(id)
  })
}

/**
 * Runs the pending migrations (PostgreSQL locks the migrations table, so concurrent starts are safe). The migrator
 * runs only ids above the highest recorded, so a database that recorded a later migration without an earlier one
 * (made by a branch's build) is refused with the names it lacks instead of being served with a schema half there.
 */
export const migrate: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError,
  SqlClient.SqlClient
> = Effect.gen(function* () {
  const ran = yield* runPending
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly migration_id: number }>`SELECT migration_id FROM ${sql(migrationsTable)}`
  const missing = skipped(rows.map((row) => Number(row.migration_id)))
  if (missing.length > 0) {
    return yield* new Migrator.MigrationError({
      kind: "BadState",
      message: `the database recorded later migrations but not ${missing.join(", ")}; migrate a copy made before them or start from an empty database`
    })
  }
  return ran
})

const toStorageError = (error: Migrator.MigrationError | SqlError | Config.ConfigError): Errors.StorageError =>
  error._tag === "SqlError"
    ? fromSqlError("Database.open")(error)
    : new Errors.StorageError({ reason: "Unknown", message: `Database.open: ${error.message}`, cause: error })

const pgNotifications = (client: PgClient.PgClient): Notifications["Service"] => ({
  listen: (channel) =>
    Effect.gen(function* () {
      const source = yield* client.listen(channel)
      const queue = yield* Effect.acquireRelease(Queue.unbounded<string, SqlError>(), Queue.shutdown)
      // Forward payloads; a lost connection fails the queue with its SqlError so the listener can resubscribe.
      const forward = Effect.forever(
        Effect.flatMap(Queue.take(source), (notification) => Queue.offer(queue, notification.payload))
      ).pipe(Effect.catchCause((cause) => Queue.failCause(queue, cause)))
      yield* Effect.forkScoped(forward)
      return queue
    }),
  // Through the client, not `PgClient.notify` (which takes its own connection): inside a transaction the
  // notification must go out with the commit, as it does on PGlite.
  notify: (channel, payload) => Effect.asVoid(client`SELECT pg_notify(${channel}, ${payload})`)
})

const pgliteNotifications = (client: PgliteClient.PgliteClient): Notifications["Service"] => ({
  listen: client.listen,
  notify: client.notify
})

const open = (
  options: DatabaseOptions
): Effect.Effect<
  Context.Context<SqlClient.SqlClient | Notifications>,
  SqlError,
  Scope.Scope | Reactivity.Reactivity
> =>
  options.engine === "postgres"
    ? Effect.map(
        PgClient.make({ url: options.url, maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS }),
        (client) => Context.make(SqlClient.SqlClient, client).pipe(Context.add(Notifications, pgNotifications(client)))
      )
    : Effect.map(PgliteClient.make({ dataDir: options.dataDir, loadDataDir: options.loadDataDir }), (client) =>
        Context.make(SqlClient.SqlClient, client).pipe(
          Context.add(Notifications, pgliteNotifications(client)),
          // Every statement goes through this process's client: declared reads may be answered from memory.
          Context.add(ReadCache.ReadCache, client.reads)
        )
      )

/** Opens the database, runs the migrations, and provides `SqlClient` and `Notifications`. */
export const layer = (
  options: DatabaseOptions
): Layer.Layer<SqlClient.SqlClient | Notifications, Errors.StorageError> =>
  Layer.effectContext(
    Effect.gen(function* () {
      const context = yield* open(options)
      yield* Effect.provideContext(migrate, context)
      return context
    }).pipe(Effect.mapError(toStorageError))
  ).pipe(Layer.provide(Reactivity.layer))

/** Like `layer`, with the options read from `Config` (the URL stays redacted). */
export const layerConfig = (
  config: Config.Config<DatabaseOptions>
): Layer.Layer<SqlClient.SqlClient | Notifications, Errors.StorageError> =>
  Layer.unwrap(Effect.map(Effect.mapError(config, toStorageError), layer))
