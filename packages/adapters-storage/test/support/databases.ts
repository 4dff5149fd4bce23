/**
 * Database layers for tests: an in-memory PGlite, started from the run's dumped cluster (`pgliteTemplates.ts`), and
 * PostgreSQL in a database of its own, created for the run and dropped at the end, so concurrent runs never collide.
 */
import * as Fs from "node:fs"
import * as PgClient from "@effect/sql-pg/PgClient"
import { it } from "@effect/vitest"
import type { Errors } from "@legible/core"
import { Config, Effect, Layer, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import type * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import { inject } from "vitest"
import * as Database from "../../src/Database.js"
import { migrations } from "../../src/internal/migrations.js"
import * as PgliteClient from "../../src/internal/pgliteClient.js"

const SqlClientTag = SqlClient.SqlClient

/** The server the PostgreSQL tests use; override with `LEGIBLE_TEST_POSTGRES_URL` (its database is the admin one). */
export const postgresUrl = Config.String("LEGIBLE_TEST_POSTGRES_URL").pipe(
  Config.withDefault("postgres://postgres@127.0.0.1:5432/postgres")
)

/** The run's dumped cluster, empty or migrated (`pgliteTemplates.ts`), to start an in-memory PGlite from. */
export const pgliteTemplate = (which: "empty" | "migrated"): Blob =>
  new Blob([Fs.readFileSync(inject(which === "empty" ? "pgliteEmpty" : "pgliteMigrated"))])

/** `PgliteClient.layer` over an in-memory PGlite of its own, started from the run's empty cluster. */
export const pgliteClient = (
  options: Omit<PgliteClient.PgliteClientConfig, "dataDir" | "loadDataDir"> = {}
): Layer.Layer<PgliteClient.PgliteClient | SqlClient.SqlClient, SqlError> =>
  Layer.unwrap(Effect.sync(() => PgliteClient.layer({ ...options, loadDataDir: pgliteTemplate("empty") })))

/** A migrated in-memory PGlite of its own, started from the run's migrated cluster. */
export const pglite: Layer.Layer<SqlClient.SqlClient | Database.Notifications, Errors.StorageError> = Layer.unwrap(
  Effect.sync(() => Database.layer({ engine: "pglite", loadDataDir: pgliteTemplate("migrated") }))
)

const withAdmin = (url: string, statement: string) =>
  Effect.scoped(
    Effect.flatMap(
      PgClient.make({ url: Redacted.make(url), maxConnections: 1 }),
      (sql) => sql.unsafe(statement).unprepared
    )
  ).pipe(Effect.provide(Reactivity.layer))

/** Makes a database name unique to this run: tests in parallel processes each get their own. */
const freshName = (): string => `legible_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`

const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/** A fresh PostgreSQL database that has not been migrated, with its URL: for migration and bench setups. */
export const freshPostgresUrl: Effect.Effect<Redacted.Redacted, SqlError | Config.ConfigError, Scope.Scope> =
  Effect.gen(function* () {
    const url = yield* postgresUrl
    const name = freshName()
    yield* Effect.acquireRelease(withAdmin(url, `CREATE DATABASE ${name}`), () =>
      Effect.ignore(withAdmin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    )
    return Redacted.make(withDatabase(url, name))
  })

/**
 * A fresh, migrated PostgreSQL database (`legible_test_<random>`), dropped when the layer is released.
 * `maxConnections` stays small: several engineers' suites share one server.
 */
export const postgresWith = (
  options: { readonly maxConnections?: number } = {}
): Layer.Layer<SqlClient.SqlClient | Database.Notifications, Errors.StorageError | SqlError | Config.ConfigError> =>
  Layer.unwrap(
    Effect.map(freshPostgresUrl, (url) =>
      Database.layer({ engine: "postgres", url, maxConnections: options.maxConnections ?? 8 })
    )
  )

/** A fresh, migrated PostgreSQL database with the default pool. */
export const postgres = postgresWith()

/** The names of the migrations from `first` (a name, without its id) to the last, as `Database.migrate` reports them. */
export const migrationsFrom = (first: string): ReadonlyArray<string> => {
  const names = Object.keys(migrations).map((key) => key.replace(/^\d+_/, ""))
  return names.slice(names.indexOf(first))
}

/**
 * Runs `scenario` on an unmigrated database of each engine (a fresh PostgreSQL database, then an in-memory PGlite),
 * one test each: for migration tests, which bring the schema to the state they start from themselves.
 */
export const onUnmigratedEngines = <E>(
  name: string,
  scenario: Effect.Effect<void, E, SqlClient.SqlClient>,
  timeout = 60_000
) => {
  it.effect(
    `${name} (PostgreSQL)`,
    () =>
      Effect.gen(function* () {
        const url = yield* freshPostgresUrl
        const sql = yield* PgClient.make({ url, maxConnections: 1 })
        yield* Effect.provideService(scenario, SqlClientTag, sql)
      }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)),
    timeout
  )
  it.effect(
    `${name} (PGlite)`,
    () =>
      Effect.gen(function* () {
        const sql = yield* PgliteClient.make({ loadDataDir: pgliteTemplate("empty") })
        yield* Effect.provideService(scenario, SqlClientTag, sql)
      }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)),
    timeout
  )
}
