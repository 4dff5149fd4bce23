/**
 * The `SqlJobQueue` tests that only make sense on SQL, run on every SQL engine in the same suite as the contract
 * (see `SqlJobQueue.*.test.ts`).
 */
import { assert, type Vitest } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Effect, Fiber } from "effect"
import * as Database from "../../src/Database.js"
import * as SqlJobQueue from "../../src/SqlJobQueue.js"
import type { Services } from "./contract.js"
import { QueueHarness } from "./harness.js"

/** Adds the SQL-only tests to a contract suite on a SQL engine. */
export const sqlOnly = (it: Vitest.MethodsNonLive<Services | Database.Notifications>) => {
  // Notifications arrive asynchronously on a connection of their own, possibly before the job they announce is
  // visible: one that arrives while nobody waits must not be lost.
  it.effect("a notification on the jobs channel while nobody waits is remembered: the next wait returns at once", () =>
    Effect.gen(function* () {
      yield* QueueHarness.use((harness) => harness.clear)
      const queue = yield* Ports.JobQueue
      const notifications = yield* Database.Notifications
      yield* queue.awaitWork(50)
      yield* notifications.notify(SqlJobQueue.defaultChannel, "")
      yield* Effect.sleep(200)
      const again = Date.now()
      yield* queue.awaitWork(20_000)
      assert.isTrue(Date.now() - again < 1_000)
    })
  )

  // A worker waiting for work when a job it ran is scheduled for a retry: the retry runs after its backoff, not
  // after the poll interval (the wait was sized before the retry existed).
  it.effect("a retry scheduled while a waiter waits wakes it: the job is claimable again after its backoff", () =>
    Effect.gen(function* () {
      const harness = yield* QueueHarness
      yield* harness.clear
      const queue = yield* Ports.JobQueue
      yield* harness.insertJobs({ batch: 41, count: 1 })
      yield* queue.awaitWork(50)
      const lease = yield* queue.claim("w1", 30_000)
      assert.isDefined(lease)
      const started = Date.now()
      const waiting = yield* Effect.forkChild(
        Effect.gen(function* () {
          // What the worker loop does: wait, try to claim, wait again.
          while (true) {
            yield* queue.awaitWork(20_000)
            const claimed = yield* queue.claim("w2", 30_000)
            if (claimed !== undefined) return claimed
          }
        })
      )
      yield* Effect.sleep(100)
      yield* queue.retry(lease!, "transient", 300)
      const retaken = yield* Fiber.join(waiting)
      const waited = Date.now() - started
      assert.strictEqual(retaken.jobId, lease!.jobId)
      assert.isTrue(waited >= 350 && waited < 5_000, `claimed again after ${waited} ms`)
    })
  )
}
