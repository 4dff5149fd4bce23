/**
 * The `SqlJobQueue` tests that only make sense on SQL, run on every SQL engine in the same suite as the contract
 * (see `SqlJobQueue.*.test.ts`).
 */
import { assert, type Vitest } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Effect } from "effect"
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
}
