/**
 * How SQL failures become `StorageError` reasons (503 for `Unavailable` at the edge, 500 for the rest), on a real
 * PostgreSQL: a session ended by the server (what every session gets when PostgreSQL stops or restarts,
 * SQLSTATE 57P01) is the database being unavailable, not an internal error.
 */

import * as PgClient from "@effect/sql-pg/PgClient"
import { assert, describe, it } from "@effect/vitest"
import { Cause, Effect, Fiber, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { ConnectionError, SqlError, UnknownError } from "effect/sql/SqlError"
import { fromSqlError, mapSqlError } from "../src/internal/errors.js"
import { postgresUrl } from "./support/databases.js"

const withState = (code: string) =>
  new SqlError({
    reason: new UnknownError({
      cause: Object.assign(new Error(`server error ${code}`), { code }),
      message: `server error ${code}`,
      operation: "query"
    })
  })

describe("fromSqlError", () => {
  it("a server shutting down, starting up or out of connections is Unavailable; other unknown states are not", () => {
    for (const code of ["57P01", "57P02", "57P03", "53300"]) {
      assert.strictEqual(fromSqlError("op")(withState(code)).reason, "Unavailable", code)
    }
    for (const code of ["22P02", "XX000"]) assert.strictEqual(fromSqlError("op")(withState(code)).reason, "Unknown")
  })

  it.effect("mapSqlError also maps the SqlError defects of a failed ROLLBACK and keeps every other reason", () =>
    Effect.gen(function* () {
      const lost = new SqlError({
        reason: new ConnectionError({
          cause: new Error("read ECONNRESET"),
          message: "Socket error",
          operation: "query"
        })
      })
      // What effect/sql leaves when a statement and then its ROLLBACK fail on a dead socket: a failure and a defect.
      const both = yield* mapSqlError("op")(Effect.failCause(Cause.combine(Cause.fail(lost), Cause.die(lost)))).pipe(
        Effect.sandbox,
        Effect.flip
      )
      assert.strictEqual(both.reasons.length, 1)
      const only = both.reasons[0]!
      assert.isTrue(Cause.isFailReason(only) && only.error.reason === "Unavailable")
      // A ROLLBACK defect alone (the failure already mapped elsewhere) is the outage too.
      const died = yield* mapSqlError("op")(Effect.die(lost)).pipe(Effect.flip)
      assert.strictEqual(died.reason, "Unavailable")
      // A defect that is not SQL stays a defect; another failure stays itself.
      const bug = yield* mapSqlError("op")(Effect.die(new Error("bug"))).pipe(Effect.sandbox, Effect.flip)
      assert.isTrue(bug.reasons.every(Cause.isDieReason))
      const other = yield* mapSqlError("op")(Effect.fail({ _tag: "InvalidRequest" as const })).pipe(Effect.flip)
      assert.strictEqual(other._tag, "InvalidRequest")
    })
  )

  it.effect(
    "a connection the server refuses with an error (too many connections, 53300) is Unavailable (real PostgreSQL)",
    () =>
      Effect.gen(function* () {
        const admin = yield* PgClient.make({ url: Redacted.make(yield* postgresUrl), maxConnections: 1 })
        // Superusers are exempt from connection limits: a role of its own with a limit of 0 is refused at start-up
        // with an ErrorResponse, as every connection is while the server starts up or shuts down (57P03).
        const role = `legible_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`
        yield* Effect.acquireRelease(admin.unsafe(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`).unprepared, () =>
          Effect.ignore(admin.unsafe(`DROP ROLE IF EXISTS ${role}`).unprepared)
        )
        const url = new URL(yield* postgresUrl)
        url.username = role
        const error = yield* Effect.scoped(
          Effect.flatMap(PgClient.make({ url: Redacted.make(url.toString()), maxConnections: 1 }), (sql) =>
            mapSqlError("connect")(sql`SELECT 1`)
          )
        ).pipe(
          Effect.flip,
          Effect.map((e) => (e._tag === "SqlError" ? fromSqlError("connect")(e) : e))
        )
        assert.strictEqual(error.reason, "Unavailable", error.message)
      }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
  )

  it.effect("a session the server terminates in the middle of a query is Unavailable (real PostgreSQL)", () =>
    Effect.gen(function* () {
      const url = Redacted.make(yield* postgresUrl)
      const victim = yield* PgClient.make({ url, maxConnections: 1 })
      const admin = yield* PgClient.make({ url, maxConnections: 1 })
      const [row] = yield* victim<{ pid: number }>`SELECT pg_backend_pid() AS pid`
      const sleeping = yield* Effect.forkChild(mapSqlError("sleep")(victim`SELECT pg_sleep(30)`).pipe(Effect.flip), {
        startImmediately: true
      })
      // Terminate once the victim is inside its query.
      yield* admin`SELECT 1 FROM pg_stat_activity WHERE pid = ${row!.pid} AND query LIKE '%pg_sleep%'`.pipe(
        Effect.flatMap((rows) => (rows.length === 1 ? Effect.void : Effect.fail("not yet"))),
        Effect.retry({ times: 200, schedule: undefined }),
        Effect.orDie
      )
      yield* admin`SELECT pg_terminate_backend(${row!.pid})`
      const error = yield* Fiber.join(sleeping)
      assert.strictEqual(error.reason, "Unavailable", error.message)
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
  )
})
