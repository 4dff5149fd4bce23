import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer, Queue, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../src/Database.js"
import { freshPostgresUrl, pgliteTemplate, postgres } from "./support/databases.js"

const tablesOf = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`
  return rows.map((row) => row.name)
})

const expectedTables = [
  "api_keys",
  "catalog_keys",
  "catalog_records",
  "catalogs",
  "clients",
  "documents",
  "extractions",
  "idempotency_keys",
  "jobs",
  Database.migrationsTable,
  "quotas",
  "skill_versions",
  "skills",
  "users",
  "webhook_attempts",
  "webhook_deliveries",
  "webhook_endpoints",
  "webhook_events"
]

const suite = (name: string, database: Layer.Layer<SqlClient.SqlClient | Database.Notifications, unknown>) =>
  layer(database)(name, (it) => {
    it.effect("runs the migrations: every table exists, pg_trgm loaded", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* tablesOf, expectedTables)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ extname: string }>`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`
        assert.strictEqual(rows.length, 1)
      })
    )

    it.effect("migrating again is a no-op", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* Database.migrate, [])
      })
    )

    it.effect("a database that recorded a later migration without an earlier one is refused, naming it", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const table = sql(Database.migrationsTable)
        const [row] = yield* sql<{ migration_id: number; name: string; created_at: Date }>`
          DELETE FROM ${table} WHERE migration_id = 7 RETURNING migration_id, name, created_at`
        const refused = yield* Effect.flip(Database.migrate)
        yield* sql`INSERT INTO ${table} ${sql.insert({ ...row })}`
        assert.strictEqual(refused._tag, "MigrationError")
        assert.include(refused.message, "not 7_idempotency;")
        assert.deepStrictEqual(yield* Database.migrate, [], "whole again")
        assert.deepStrictEqual(Database.skipped([1, 2, 3, 5]), ["4_catalog_keys_own_abbreviations"])
        assert.deepStrictEqual(Database.skipped([]), [])
      })
    )

    it.effect("notifications reach listeners; inside a transaction only after commit", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const notifications = yield* Database.Notifications
        const queue = yield* notifications.listen("legible_db_test")
        yield* notifications.notify("legible_db_test", "a")
        assert.strictEqual(yield* Queue.take(queue), "a")
        yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* notifications.notify("legible_db_test", "b")
            // A real wait (the test clock is virtual): long enough for an early notification to arrive.
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 30)))
            assert.strictEqual(yield* Queue.size(queue), 0)
          })
        )
        assert.strictEqual(yield* Queue.take(queue), "b")
      }).pipe(Effect.scoped)
    )
  })

describe("Database", () => {
  // From the run's empty cluster, not the migrated one the other PGlite tests start from: the layer migrates it.
  suite(
    "PGlite (memory)",
    Layer.unwrap(Effect.sync(() => Database.layer({ engine: "pglite", loadDataDir: pgliteTemplate("empty") })))
  )
  suite("PostgreSQL (fresh database)", postgres)

  it.effect(
    "a file-backed PGlite keeps its data across reopenings and migrates once",
    () =>
      Effect.gen(function* () {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "legible-pglite-"))
        // The first open fills the new directory from the run's empty cluster (no `initdb`) and migrates it.
        const first = Database.layer({ engine: "pglite", dataDir, loadDataDir: pgliteTemplate("empty") })
        const open = Database.layer({ engine: "pglite", dataDir })
        yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql`INSERT INTO clients (id, name) VALUES ('persisted', 'Sigue aquí')`
        }).pipe(Effect.provide(first))
        const rows = yield* Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          assert.deepStrictEqual(yield* Database.migrate, [], "already migrated")
          return yield* sql<{ name: string }>`SELECT name FROM clients WHERE id = 'persisted'`
        }).pipe(Effect.provide(open))
        assert.deepStrictEqual(rows, [{ name: "Sigue aquí" }])
        fs.rmSync(dataDir, { recursive: true, force: true })
      }),
    120_000
  )

  it.effect("an unreachable PostgreSQL fails to open as StorageError Unavailable", () =>
    Effect.gen(function* () {
      const url = Redacted.make("postgres://postgres@127.0.0.1:1/nowhere")
      const error = yield* Effect.flip(Layer.build(Database.layer({ engine: "postgres", url })))
      assert.strictEqual(error._tag, "StorageError")
      assert.strictEqual(error.reason, "Unavailable")
    }).pipe(Effect.scoped)
  )

  it.effect(
    "two PostgreSQL layers migrating the same database at once both succeed",
    () =>
      Effect.gen(function* () {
        const url = yield* freshPostgresUrl
        const open = Layer.build(Database.layer({ engine: "postgres", url, maxConnections: 2 }))
        yield* Effect.all([open, open], { concurrency: 2 })
      }).pipe(Effect.scoped),
    60_000
  )
})
