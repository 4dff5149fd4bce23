import { assert, describe, layer } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/Database.js"
import * as SqlJobQueue from "../../src/SqlJobQueue.js"
import { postgres } from "../support/databases.js"
import { contract } from "./contract.js"
import { sqlOnly } from "./sqlOnly.js"
import { clear, insertJobs, queueOn } from "./support.js"

describe("SqlJobQueue", () => {
  contract("on PostgreSQL", queueOn(postgres), sqlOnly)

  // PGlite is one session, so a lock held by another session only exists on PostgreSQL.
  layer(SqlJobQueue.layer({ relistenMs: 100 }).pipe(Layer.provideMerge(postgres)), {
    timeout: 120_000,
    excludeTestServices: true
  })("on PostgreSQL, with another session", (it) => {
    it.effect("claim skips a job another session holds locked, without waiting for it", () =>
      Effect.gen(function* () {
        yield* clear
        const [first, second] = yield* insertJobs({ batch: 200, count: 2 })
        const sql = yield* SqlClient.SqlClient
        const queue = yield* Ports.JobQueue
        const other = yield* sql.reserve
        yield* other.executeRaw("BEGIN", [])
        yield* other.executeRaw("SELECT id FROM jobs WHERE id = $1 FOR UPDATE", [first?.jobId])
        const started = Date.now()
        const lease = yield* queue.claim("w1", 30_000)
        assert.isTrue(Date.now() - started < 1_000)
        assert.strictEqual(lease?.jobId, second?.jobId)
        assert.isUndefined(yield* queue.claim("w1", 30_000))
        yield* other.executeRaw("ROLLBACK", [])
        const next = yield* queue.claim("w1", 30_000)
        assert.strictEqual(next?.jobId, first?.jobId)
      }).pipe(Effect.scoped)
    )

    it.effect("a lost listening connection is re-opened: notifications wake awaitWork again", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const queue = yield* Ports.JobQueue
        const notifications = yield* Database.Notifications
        const listeners = sql<{ pid: number }>`
          SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'LISTEN%'`
        const [listener] = yield* listeners
        assert.isDefined(listener, "the queue listens on its own connection")
        yield* sql`SELECT pg_terminate_backend(${listener?.pid ?? 0}::integer)`
        yield* Effect.sleep(1_000)
        const [again] = yield* listeners
        assert.isDefined(again, "listening again after the connection was lost")
        assert.notStrictEqual(again?.pid, listener?.pid)
        yield* queue.awaitWork(50)
        const started = Date.now()
        const waiting = yield* Effect.forkChild(queue.awaitWork(20_000))
        yield* Effect.sleep(100)
        yield* notifications.notify(SqlJobQueue.defaultChannel, "")
        yield* Fiber.join(waiting)
        assert.isTrue(Date.now() - started < 5_000)
      })
    )
  })
})
