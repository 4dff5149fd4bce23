import * as PgTypes from "@effect/sql-pg/PgTypes"
import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Exit, Queue } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import * as Database from "../src/Database.js"
import { migrations } from "../src/internal/migrations.js"
import * as PgliteClient from "../src/internal/pgliteClient.js"
import * as Statements from "../src/internal/pgliteStatements.js"
import { pgliteClient, pgliteTemplate } from "./support/databases.js"

describe("PgliteClient", () => {
  layer(pgliteClient())((it) => {
    it.effect("parses the column types the way @effect/sql-pg does", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{
          ts: Date
          j: unknown
          pj: unknown
          b: Uint8Array
          big: bigint
          bo: boolean
          i: number
        }>`SELECT '2024-01-02T03:04:05.123456Z'::timestamptz AS ts, ${JSON.stringify({ a: [1, "x"] })}::jsonb AS j,
             ${PgTypes.jsonb({ k: 1 })} AS pj,
             ${new Uint8Array([1, 2, 255])}::bytea AS b, ${12345678901n}::bigint AS big, true AS bo, 3::int AS i`
        const row = rows[0]
        assert.isDefined(row)
        assert.instanceOf(row.ts, Date)
        assert.strictEqual(row.ts.toISOString(), "2024-01-02T03:04:05.123Z")
        assert.deepStrictEqual(row.j, { a: [1, "x"] })
        assert.deepStrictEqual(row.pj, { k: 1 })
        assert.deepStrictEqual(Array.from(row.b), [1, 2, 255])
        assert.strictEqual(row.big, 12345678901n)
        assert.strictEqual(row.bo, true)
        assert.strictEqual(row.i, 3)
      })
    )

    it.effect("runs multi-statement SQL unprepared and has pg_trgm", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe("CREATE EXTENSION IF NOT EXISTS pg_trgm; CREATE TABLE t (n int); INSERT INTO t VALUES (1)")
          .unprepared
        const rows = yield* sql<{ s: number }>`SELECT similarity('abc', 'abd') > 0 AS s, n FROM t`
        assert.strictEqual(rows.length, 1)
      })
    )

    it.effect("a transaction holds the session: concurrent statements wait, failures roll back", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE tx (n int)`
        const failed = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              yield* sql`INSERT INTO tx VALUES (1)`
              return yield* Effect.fail("boom" as const)
            })
          )
          .pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(failed))
        // Twenty transactions each read-then-write; serialized, none loses an update.
        yield* sql`INSERT INTO tx VALUES (0)`
        yield* Effect.forEach(
          Array.from({ length: 20 }, (_, i) => i),
          () =>
            sql.withTransaction(
              Effect.gen(function* () {
                const [row] = yield* sql<{ n: number }>`SELECT n FROM tx`
                yield* Effect.yieldNow
                yield* sql`UPDATE tx SET n = ${(row?.n ?? 0) + 1}`
              })
            ),
          { concurrency: "unbounded", discard: true }
        )
        const rows = yield* sql<{ n: number }>`SELECT n FROM tx`
        assert.deepStrictEqual(rows, [{ n: 20 }])
      })
    )

    it.effect("maps SQL errors to SqlError reasons", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE u (k text PRIMARY KEY)`
        yield* sql`INSERT INTO u VALUES ('a')`
        const error = yield* Effect.flip(sql`INSERT INTO u VALUES ('a')`)
        assert.strictEqual(error.reason._tag, "UniqueViolation")
        const syntax = yield* Effect.flip(sql`SELEC 1`)
        assert.strictEqual(syntax.reason._tag, "SqlSyntaxError")
      })
    )

    it.effect("delivers notifications, inside a transaction only at commit", () =>
      Effect.gen(function* () {
        const client = yield* PgliteClient.PgliteClient
        const queue = yield* client.listen("legible_test")
        yield* client.notify("legible_test", "one")
        assert.strictEqual(yield* Queue.take(queue), "one")
        yield* client.withTransaction(
          Effect.gen(function* () {
            yield* client.notify("legible_test", "two")
            assert.strictEqual(yield* Queue.size(queue), 0)
          })
        )
        assert.strictEqual(yield* Queue.take(queue), "two")
      }).pipe(Effect.scoped)
    )
  })

  layer(pgliteClient({ statements: 2 }))((it) => {
    it.effect("kept statements: a table's change is seen, evictions and failures leave the session sound", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE ks (a int PRIMARY KEY)`
        yield* sql`INSERT INTO ks VALUES (1)`
        assert.deepStrictEqual(yield* sql`SELECT * FROM ks`, [{ a: 1 }])
        // The same text, planned before the table changed, now gives the new columns (through either protocol).
        yield* sql`ALTER TABLE ks ADD COLUMN b text DEFAULT 'x'`
        assert.deepStrictEqual(yield* sql`SELECT * FROM ks`, [{ a: 1, b: "x" }])
        yield* sql.unsafe("ALTER TABLE ks ADD COLUMN c int DEFAULT 7; ALTER TABLE ks DROP COLUMN b").unprepared
        assert.deepStrictEqual(yield* sql`SELECT * FROM ks`, [{ a: 1, c: 7 }])
        // Five statements through a cache of two, twice over: each answers its own.
        for (let round = 0; round < 2; round++) {
          for (let n = 0; n < 5; n++) {
            const rows = yield* sql.unsafe<{ n: number; t: string }>(`SELECT ${n}::int AS n, $1::text AS t`, [
              `r${round}`
            ])
            assert.deepStrictEqual(rows, [{ n, t: `r${round}` }])
          }
        }
        // A kept statement that fails fails the same way each time, and the session goes on.
        for (let i = 0; i < 2; i++) {
          const error = yield* Effect.flip(sql`INSERT INTO ks (a) VALUES (${1})`)
          assert.strictEqual(error.reason._tag, "UniqueViolation")
        }
        const failed = yield* sql
          .withTransaction(Effect.andThen(sql`INSERT INTO ks (a) VALUES (${2})`, sql`INSERT INTO ks (a) VALUES (${1})`))
          .pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(failed))
        assert.deepStrictEqual(yield* sql`SELECT a FROM ks ORDER BY a`, [{ a: 1 }], "the transaction rolled back")
        yield* sql`INSERT INTO ks (a) VALUES (${2})`
        assert.deepStrictEqual(yield* sql`SELECT a FROM ks ORDER BY a`, [{ a: 1 }, { a: 2 }])
      })
    )
  })

  it("keeps queries and DML (a union in parentheses too); DDL and the rest drop what is kept, transactions do not", () => {
    for (const text of [
      "SELECT 1",
      "  with x AS (SELECT 1) SELECT * FROM x",
      "(SELECT 1) UNION (SELECT 2)",
      "\n UPDATE t SET a = 1"
    ]) {
      assert.isTrue(Statements.cacheable(text), text)
    }
    for (const text of [
      "CREATE TABLE t (a int)",
      "ALTER TABLE t ADD b int",
      "LOCK TABLE t",
      "SET search_path = x",
      "BEGIN"
    ]) {
      assert.isFalse(Statements.cacheable(text), text)
    }
    for (const text of ["BEGIN", "COMMIT", "ROLLBACK TO SAVEPOINT s", "SAVEPOINT s", "RELEASE SAVEPOINT s"]) {
      assert.isTrue(Statements.transactionControl(text), text)
    }
    assert.isFalse(Statements.transactionControl("DROP TABLE t"))
  })
})

describe("PGlite started from a dumped cluster", () => {
  it.effect("has the dump's schema and rows, and each one started from it is a database of its own", () =>
    Effect.gen(function* () {
      const source = yield* PgliteClient.make({ loadDataDir: pgliteTemplate("empty") })
      yield* source.unsafe("CREATE TABLE kept (n int PRIMARY KEY, s text NOT NULL); INSERT INTO kept VALUES (1, 'uno')")
        .unprepared
      yield* source`INSERT INTO kept VALUES (2, 'dos')`
      const dumped = yield* Effect.promise(() => source.pglite.dumpDataDir("none"))
      const first = yield* PgliteClient.make({ loadDataDir: dumped })
      const second = yield* PgliteClient.make({ loadDataDir: dumped })
      const rows = (sql: SqlClient.SqlClient) => sql<{ n: number; s: string }>`SELECT n, s FROM kept ORDER BY n`
      assert.deepStrictEqual(yield* rows(first), [
        { n: 1, s: "uno" },
        { n: 2, s: "dos" }
      ])
      const columns = yield* first<{ column_name: string; is_nullable: string }>`
        SELECT column_name, is_nullable FROM information_schema.columns WHERE table_name = 'kept' ORDER BY column_name`
      assert.deepStrictEqual(columns, [
        { column_name: "n", is_nullable: "NO" },
        { column_name: "s", is_nullable: "NO" }
      ])
      yield* first`INSERT INTO kept VALUES (3, 'tres')`
      yield* Effect.flip(second`INSERT INTO kept VALUES (1, 'otra vez')`)
      assert.deepStrictEqual((yield* rows(second)).length, 2)
      assert.deepStrictEqual((yield* rows(first)).length, 3)
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
  )

  it.effect("the run's migrated cluster has every migration, with none left to run", () =>
    Effect.gen(function* () {
      const sql = yield* PgliteClient.make({ loadDataDir: pgliteTemplate("migrated") })
      const recorded = yield* sql<{ migration_id: number }>`
        SELECT migration_id FROM ${sql(Database.migrationsTable)} ORDER BY migration_id`
      assert.deepStrictEqual(
        recorded.map((row) => Number(row.migration_id)),
        Object.keys(migrations).map((name) => Number.parseInt(name, 10))
      )
      assert.deepStrictEqual(yield* Effect.provideService(Database.migrate, SqlClient.SqlClient, sql), [])
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
  )
})
