import { assert, describe, it } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())

/** A fresh world at the fixed instant with the two clients stored. */
const setup = Effect.gen(function* () {
  yield* TestTime.setFixedNow
  const directory = yield* Ports.Directory
  yield* directory.upsertClient(Fixtures.client)
  yield* directory.upsertUser(Fixtures.user())
  return {
    store: yield* Ports.ExtractionStore,
    queue: yield* Ports.JobQueue
  }
})

const submit = (id: string, maxAttempts = 3) =>
  Ports.ExtractionStore.use((store) =>
    store.submit({ record: Fixtures.extraction({ id }), document: Fixtures.DOCUMENT, maxAttempts })
  )

const statusOf = (id: string) =>
  Ports.ExtractionStore.use((store) => Effect.map(store.get(Fixtures.caller(), id), (r) => r?.status))

describe("Memory JobQueue", () => {
  it.effect("a submission is claimable at once; the claim sets the extraction procesando and holds the job", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      const lease = yield* queue.claim("worker-a", 30_000)
      assert.isDefined(lease)
      assert.strictEqual(lease?.extractionId, TestIds.uuid(1))
      assert.strictEqual(lease?.attempt, 1)
      assert.strictEqual(lease?.maxAttempts, 3)
      assert.strictEqual(yield* statusOf(TestIds.uuid(1)), "procesando")
      assert.isUndefined(yield* queue.claim("worker-b", 30_000))
    }).pipe(Effect.provide(world))
  )

  it.effect("claims the oldest due job first", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(2))
      yield* TestClock.adjust(1)
      yield* submit(TestIds.uuid(1))
      assert.strictEqual((yield* queue.claim("w", 1000))?.extractionId, TestIds.uuid(2))
      assert.strictEqual((yield* queue.claim("w", 1000))?.extractionId, TestIds.uuid(1))
    }).pipe(Effect.provide(world))
  )

  it.effect("a lapsed lease is claimed again with a new token; the stale holder's writes fail with LeaseLost", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      const stale = (yield* queue.claim("worker-a", 1_000))!
      yield* TestClock.adjust(1_000)
      assert.isUndefined(yield* queue.claim("worker-b", 1_000), "a lease is held up to its last millisecond")
      yield* TestClock.adjust(1)
      const fresh = (yield* queue.claim("worker-b", 1_000))!
      assert.strictEqual(fresh.jobId, stale.jobId)
      assert.strictEqual(fresh.attempt, 2)
      assert.notStrictEqual(fresh.token, stale.token)
      for (const write of [
        queue.heartbeat(stale, 1_000),
        queue.complete(stale, Fixtures.invoiceResult()),
        queue.retry(stale, "boom", 0),
        queue.fail(stale, "boom"),
        queue.release(stale)
      ]) {
        const error = yield* Effect.flip(write)
        assert.strictEqual(error._tag, "LeaseLost")
      }
      yield* queue.complete(fresh, Fixtures.invoiceResult())
      const record = yield* (yield* Ports.ExtractionStore).get(Fixtures.caller(), TestIds.uuid(1))
      assert.strictEqual(record?.status, "completado")
      assert.deepStrictEqual(record?.result, Fixtures.invoiceResult())
      assert.strictEqual(record?.attempts, 2)
      assert.strictEqual((yield* Effect.flip(queue.complete(fresh, Fixtures.invoiceResult())))._tag, "LeaseLost")
    }).pipe(Effect.provide(world))
  )

  it.effect("a heartbeat extends the lease", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      const lease = (yield* queue.claim("worker-a", 1_000))!
      yield* TestClock.adjust(900)
      yield* queue.heartbeat(lease, 1_000)
      yield* TestClock.adjust(900)
      assert.isUndefined(yield* queue.claim("worker-b", 1_000))
      yield* TestClock.adjust(101)
      assert.isDefined(yield* queue.claim("worker-b", 1_000))
    }).pipe(Effect.provide(world))
  )

  it.effect("retry puts the extraction back en cola and the job is due after the delay", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      const lease = (yield* queue.claim("w", 1_000))!
      yield* queue.retry(lease, "provider timeout", 5_000)
      assert.strictEqual(yield* statusOf(TestIds.uuid(1)), "en cola")
      yield* TestClock.adjust(4_999)
      assert.isUndefined(yield* queue.claim("w", 1_000))
      yield* TestClock.adjust(1)
      assert.strictEqual((yield* queue.claim("w", 1_000))?.attempt, 2)
    }).pipe(Effect.provide(world))
  )

  it.effect("fail ends the job: the extraction is error with the message, and nothing is claimable", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      const lease = (yield* queue.claim("w", 1_000))!
      yield* queue.fail(lease, "el documento está vacío")
      const record = yield* (yield* Ports.ExtractionStore).get(Fixtures.caller(), TestIds.uuid(1))
      assert.strictEqual(record?.status, "error")
      assert.strictEqual(record?.errorMessage, "el documento está vacío")
      yield* TestClock.adjust(10_000)
      assert.isUndefined(yield* queue.claim("w", 1_000))
    }).pipe(Effect.provide(world))
  )

  it.effect("release gives the job back due now without counting the attempt", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1), 1)
      const lease = (yield* queue.claim("w", 1_000))!
      yield* queue.release(lease)
      assert.strictEqual(yield* statusOf(TestIds.uuid(1)), "en cola")
      const again = yield* queue.claim("w", 1_000)
      assert.strictEqual(again?.attempt, 1)
    }).pipe(Effect.provide(world))
  )

  it.effect("a lapsed lease with no attempts left is not claimed but reaped into error, once", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1), 1)
      yield* submit(TestIds.uuid(2), 2)
      yield* queue.claim("w", 1_000)
      yield* queue.claim("w", 1_000)
      assert.deepStrictEqual(yield* queue.reap(), [], "leases still held")
      yield* TestClock.adjust(1_001)
      assert.deepStrictEqual(yield* queue.reap(), [TestIds.uuid(1)])
      const reaped = yield* (yield* Ports.ExtractionStore).get(Fixtures.caller(), TestIds.uuid(1))
      assert.strictEqual(reaped?.status, "error")
      assert.isString(reaped?.errorMessage)
      assert.deepStrictEqual(yield* queue.reap(), [])
      const retried = yield* queue.claim("w", 1_000)
      assert.strictEqual(retried?.extractionId, TestIds.uuid(2), "the job with an attempt left is claimed again")
    }).pipe(Effect.provide(world))
  )

  it.effect("awaitWork wakes on a submission, before its timeout", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      const waiting = yield* Effect.forkChild(queue.awaitWork(60_000))
      yield* Effect.yieldNow
      assert.isUndefined(waiting.pollUnsafe())
      yield* submit(TestIds.uuid(1))
      yield* Fiber.join(waiting)
    }).pipe(Effect.provide(world))
  )

  it.effect("awaitWork wakes on a retry", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      const lease = (yield* queue.claim("w", 1_000))!
      const waiting = yield* Effect.forkChild(queue.awaitWork(60_000))
      yield* Effect.yieldNow
      assert.isUndefined(waiting.pollUnsafe())
      yield* queue.retry(lease, "again", 10)
      yield* Fiber.join(waiting)
    }).pipe(Effect.provide(world))
  )

  it.effect("awaitWork without work completes when its timeout passes on the TestClock", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      const waiting = yield* Effect.forkChild(queue.awaitWork(5_000))
      yield* TestClock.adjust(4_999)
      assert.isUndefined(waiting.pollUnsafe())
      yield* TestClock.adjust(1)
      yield* Fiber.join(waiting)
    }).pipe(Effect.provide(world))
  )

  it.effect("awaitWork wakes when a retried job becomes due, without a notification", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      const lease = (yield* queue.claim("w", 1_000))!
      yield* queue.retry(lease, "again", 5_000)
      const waiting = yield* Effect.forkChild(queue.awaitWork(60_000))
      yield* TestClock.adjust(4_999)
      assert.isUndefined(waiting.pollUnsafe())
      yield* TestClock.adjust(1)
      yield* Fiber.join(waiting)
      assert.isDefined(yield* queue.claim("w", 1_000))
    }).pipe(Effect.provide(world))
  )

  it.effect("awaitWork wakes when a lease lapses with attempts left", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      yield* queue.claim("w", 1_000)
      const waiting = yield* Effect.forkChild(queue.awaitWork(60_000))
      yield* TestClock.adjust(1_000)
      assert.isUndefined(waiting.pollUnsafe())
      yield* TestClock.adjust(1)
      yield* Fiber.join(waiting)
      assert.strictEqual((yield* queue.claim("w2", 1_000))?.attempt, 2)
    }).pipe(Effect.provide(world))
  )

  it.effect("awaitWork returns at once when a job is already due", () =>
    Effect.gen(function* () {
      const { queue } = yield* setup
      yield* submit(TestIds.uuid(1))
      yield* queue.awaitWork(60_000)
    }).pipe(Effect.provide(world))
  )
})
