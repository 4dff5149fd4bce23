/**
 * The `JobQueue` contract, run against every adapter: `SqlJobQueue` on PGlite and PostgreSQL
 * (`SqlJobQueue.*.test.ts`) and the in-memory queue of `@legible/testkit` (`JobQueue.memory.test.ts`). Jobs are
 * arranged and inspected through a `QueueHarness`. Times come from the engine's clock (the database clock, or
 * Effect's `Clock` in memory) and test services are excluded (the live clock), so leases are made to lapse with
 * `lapse` rather than by waiting.
 */
import { assert, layer, type Vitest } from "@effect/vitest"
import { Errors, Ports } from "@legible/core"
import { Effect, Fiber, type Layer } from "effect"
import { type JobsSpec, QueueHarness, result } from "./harness.js"

const leaseMs = 30_000

const expectLeaseLost = <A>(effect: Effect.Effect<A, Errors.StorageError | Errors.LeaseLost>) =>
  Effect.gen(function* () {
    const error = yield* Effect.flip(effect)
    assert.instanceOf(error, Errors.LeaseLost)
  })

const mustClaim = (workerId: string, lease = leaseMs) =>
  Effect.gen(function* () {
    const queue = yield* Ports.JobQueue
    const claimed = yield* queue.claim(workerId, lease)
    if (claimed === undefined) return yield* Effect.die(new Error("expected a job to claim"))
    return claimed
  })

const clear = QueueHarness.use((harness) => harness.clear)
const insertJobs = (spec: JobsSpec) => QueueHarness.use((harness) => harness.insertJobs(spec))
const readJob = (jobId: string) => QueueHarness.use((harness) => harness.readJob(jobId))
const lapse = (jobId: string) => QueueHarness.use((harness) => harness.lapse(jobId))
const makeDue = (jobId: string) => QueueHarness.use((harness) => harness.makeDue(jobId))
const notify = QueueHarness.use((harness) => harness.notify)

/** The services every contract test uses. */
export type Services = Ports.JobQueue | QueueHarness

/**
 * Runs the contract on `queue`: one queue (and database) for the whole suite, emptied before each test.
 * `engineSpecific` adds the tests of one engine to the same suite, on the same layer.
 */
export const contract = <R>(
  name: string,
  queue: Layer.Layer<R | Services, unknown>,
  engineSpecific?: (it: Vitest.MethodsNonLive<R | Services>) => void
) =>
  layer(queue, { timeout: 120_000, excludeTestServices: true })(name, (it) => {
    it.effect("claim: nothing due → undefined; future jobs wait", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        assert.isUndefined(yield* queue.claim("w1", leaseMs))
        yield* insertJobs({ batch: 1, count: 1, runAtOffsetMs: 60_000 })
        assert.isUndefined(yield* queue.claim("w1", leaseMs))
      })
    )

    it.effect("claim: oldest run_at first, sets running/procesando, counts the attempt, leases on the db clock", () =>
      Effect.gen(function* () {
        yield* clear
        const ids = yield* insertJobs({ batch: 2, count: 3 })
        const first = yield* mustClaim("w1")
        const second = yield* mustClaim("w2")
        const third = yield* mustClaim("w1")
        assert.deepStrictEqual(
          [first.jobId, second.jobId, third.jobId],
          ids.map((id) => id.jobId)
        )
        assert.strictEqual(first.extractionId, ids[0]?.extractionId)
        assert.strictEqual(first.attempt, 1)
        assert.strictEqual(first.maxAttempts, 3)
        assert.strictEqual(second.workerId, "w2")
        assert.notStrictEqual(first.token, second.token)
        const row = yield* readJob(first.jobId)
        assert.strictEqual(row.state, "running")
        assert.strictEqual(row.locked_by, "w1")
        assert.strictEqual(row.lease_token, first.token)
        assert.strictEqual(row.attempts, 1)
        assert.strictEqual(row.status, "procesando")
        assert.strictEqual(row.ext_attempts, 1)
        assert.isTrue(row.lease_in_ms !== null && row.lease_in_ms > leaseMs - 5_000 && row.lease_in_ms <= leaseMs)
        const queue = yield* Ports.JobQueue
        assert.isUndefined(yield* queue.claim("w3", leaseMs))
      })
    )

    it.effect("claim: concurrent claims never return the same job (SKIP LOCKED)", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* insertJobs({ batch: 3, count: 40 })
        const claims = yield* Effect.all(
          Array.from({ length: 60 }, (_, i) => queue.claim(`w${i % 6}`, leaseMs)),
          { concurrency: "unbounded" }
        )
        const leases = claims.filter((lease) => lease !== undefined)
        assert.strictEqual(leases.length, 40)
        assert.strictEqual(new Set(leases.map((lease) => lease.jobId)).size, 40)
        for (const lease of leases) assert.strictEqual(lease.attempt, 1)
      })
    )

    it.effect("heartbeat extends the lease; a wrong token is LeaseLost", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* insertJobs({ batch: 4, count: 1 })
        const lease = yield* mustClaim("w1", 2_000)
        const before = yield* readJob(lease.jobId)
        assert.isTrue(before.lease_in_ms !== null && before.lease_in_ms <= 2_000)
        yield* queue.heartbeat(lease, 60_000)
        const after = yield* readJob(lease.jobId)
        assert.isTrue(after.lease_in_ms !== null && after.lease_in_ms > 55_000 && after.lease_in_ms <= 60_000)
        yield* expectLeaseLost(queue.heartbeat({ ...lease, token: "00000000-0000-4000-8000-000000000000" }, 60_000))
      })
    )

    it.effect(
      "fence: after the lease lapsed and another worker claimed, every write of the stale worker is refused",
      () =>
        Effect.gen(function* () {
          yield* clear
          const queue = yield* Ports.JobQueue
          yield* insertJobs({ batch: 5, count: 1 })
          const stale = yield* mustClaim("stale")
          yield* lapse(stale.jobId)
          const fresh = yield* mustClaim("fresh")
          assert.strictEqual(fresh.jobId, stale.jobId)
          assert.strictEqual(fresh.attempt, 2)
          const snapshot = yield* readJob(stale.jobId)
          assert.strictEqual(snapshot.status, "procesando")
          assert.strictEqual(snapshot.ext_attempts, 2)
          yield* expectLeaseLost(queue.heartbeat(stale, leaseMs))
          yield* expectLeaseLost(queue.complete(stale, result("stale")))
          yield* expectLeaseLost(queue.retry(stale, "stale retry", 0))
          yield* expectLeaseLost(queue.fail(stale, "stale failure"))
          yield* expectLeaseLost(queue.release(stale))
          const unchanged = yield* readJob(stale.jobId)
          assert.deepStrictEqual(
            { ...unchanged, run_in_ms: 0, lease_in_ms: 0 },
            { ...snapshot, run_in_ms: 0, lease_in_ms: 0 }
          )
          yield* queue.complete(fresh, result("fresh"))
          const done = yield* readJob(fresh.jobId)
          assert.strictEqual(done.state, "done")
          assert.strictEqual(done.status, "completado")
          assert.deepStrictEqual(done.result, result("fresh"))
          // An outcome ends the lease: the holder cannot write twice either.
          yield* expectLeaseLost(queue.complete(fresh, result("again")))
        })
    )

    it.effect("complete stores the result, sets completado, clears error_message and last_error, ends the job", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* insertJobs({ batch: 6, count: 1 })
        const first = yield* mustClaim("w1")
        yield* queue.retry(first, "provider timed out", 0)
        const lease = yield* mustClaim("w1")
        // The reader's degraded pages travel in the result (JSONB): no column, and older results simply lack them.
        const degraded = { ...result("hello"), degradedPages: [{ page: 3, reason: "an image left out" }] }
        yield* queue.complete(lease, degraded)
        const row = yield* readJob(lease.jobId)
        assert.strictEqual(row.state, "done")
        assert.isNull(row.last_error)
        assert.isNull(row.lease_token)
        assert.isNull(row.locked_by)
        assert.strictEqual(row.attempts, 2)
        assert.strictEqual(row.status, "completado")
        assert.strictEqual(row.ext_attempts, 2)
        assert.isNull(row.error_message)
        assert.deepStrictEqual(row.result, degraded)
      })
    )

    it.effect("complete of a result that needs review sets incompleto with the message, kept out of the result", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* insertJobs({ batch: 7, count: 1 })
        const lease = yield* mustClaim("w1")
        const message = "total: 125,40 ≠ lines 120,40 + iva 5,00; cuit: CUIT check digit fails"
        yield* queue.complete(lease, { ...result("review"), needsReview: message })
        const row = yield* readJob(lease.jobId)
        assert.strictEqual(row.state, "done")
        assert.strictEqual(row.status, "incompleto")
        assert.strictEqual(row.error_message, message)
        assert.deepStrictEqual(row.result, result("review"))
      })
    )

    it.effect("retry puts the job back with run_at in the future and the extraction en cola", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* insertJobs({ batch: 7, count: 1 })
        const lease = yield* mustClaim("w1")
        yield* queue.retry(lease, "provider answered 529", 45_000)
        const row = yield* readJob(lease.jobId)
        assert.strictEqual(row.state, "queued")
        assert.isTrue(row.run_in_ms > 40_000 && row.run_in_ms <= 45_000)
        assert.strictEqual(row.last_error, "provider answered 529")
        assert.isNull(row.lease_token)
        assert.strictEqual(row.status, "en cola")
        assert.isNull(row.error_message)
        assert.isUndefined(yield* queue.claim("w1", leaseMs))
        yield* makeDue(lease.jobId)
        const again = yield* mustClaim("w2")
        assert.strictEqual(again.jobId, lease.jobId)
        assert.strictEqual(again.attempt, 2)
      })
    )

    it.effect("fail ends the job and sets the extraction error with the message", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* insertJobs({ batch: 8, count: 1 })
        const lease = yield* mustClaim("w1")
        yield* queue.fail(lease, "the PDF is encrypted")
        const row = yield* readJob(lease.jobId)
        assert.strictEqual(row.state, "failed")
        assert.strictEqual(row.last_error, "the PDF is encrypted")
        assert.strictEqual(row.status, "error")
        assert.strictEqual(row.error_message, "the PDF is encrypted")
        assert.isNull(row.result)
        assert.isUndefined(yield* queue.claim("w1", leaseMs))
      })
    )

    it.effect("release gives the job back due now without counting the attempt", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* insertJobs({ batch: 9, count: 1 })
        const lease = yield* mustClaim("w1")
        yield* queue.release(lease)
        const row = yield* readJob(lease.jobId)
        assert.strictEqual(row.state, "queued")
        assert.strictEqual(row.attempts, 0)
        assert.isTrue(row.run_in_ms <= 0)
        assert.isNull(row.lease_token)
        assert.strictEqual(row.status, "en cola")
        assert.strictEqual(row.ext_attempts, 0)
        const again = yield* mustClaim("w2")
        assert.strictEqual(again.jobId, lease.jobId)
        assert.strictEqual(again.attempt, 1)
      })
    )

    it.effect(
      "reap ends lapsed jobs with no attempts left in error; lapsed jobs with attempts left are reclaimed",
      () =>
        Effect.gen(function* () {
          yield* clear
          const queue = yield* Ports.JobQueue
          const [last, spare] = yield* insertJobs({ batch: 10, count: 2, maxAttempts: 1 })
          // Due after both (an explicit offset: the two inserts may fall within the same millisecond).
          yield* insertJobs({ batch: 11, count: 1, maxAttempts: 2, runAtOffsetMs: -30_000 })
          const a = yield* mustClaim("crashing")
          const b = yield* mustClaim("crashing")
          const c = yield* mustClaim("crashing")
          assert.strictEqual(a.jobId, last?.jobId)
          assert.strictEqual(b.jobId, spare?.jobId)
          yield* lapse(a.jobId)
          yield* lapse(c.jobId)
          // `b` is on its last attempt too, but within its lease: not reaped.
          assert.deepStrictEqual(yield* queue.reap(), [a.extractionId])
          const reaped = yield* readJob(a.jobId)
          assert.strictEqual(reaped.state, "failed")
          assert.strictEqual(reaped.status, "error")
          assert.match(reaped.error_message ?? "", /interrupted 1 times/)
          assert.strictEqual(reaped.ext_attempts, 1)
          assert.strictEqual((yield* readJob(b.jobId)).status, "procesando")
          // `c` had a second attempt: a claim takes it instead of the reaper.
          const retaken = yield* mustClaim("healthy")
          assert.strictEqual(retaken.jobId, c.jobId)
          assert.strictEqual(retaken.attempt, 2)
          assert.deepStrictEqual(yield* queue.reap(), [])
          yield* lapse(c.jobId)
          assert.isUndefined(yield* queue.claim("healthy", leaseMs))
          assert.deepStrictEqual(yield* queue.reap(), [c.extractionId])
          assert.match((yield* readJob(c.jobId)).error_message ?? "", /interrupted 2 times/)
        })
    )

    it.effect("awaitWork returns on a notification, on a retry coming due, or after the timeout", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        // Drain any wake-up left over from earlier tests.
        yield* queue.awaitWork(50)
        const started = Date.now()
        yield* queue.awaitWork(300)
        const idle = Date.now() - started
        assert.isTrue(idle >= 250 && idle < 3_000, `timeout wait took ${idle} ms`)

        yield* insertJobs({ batch: 12, count: 1 })
        const lease = yield* mustClaim("w1")
        yield* queue.retry(lease, "transient", 400)
        const beforeDue = Date.now()
        yield* queue.awaitWork(20_000)
        const untilDue = Date.now() - beforeDue
        assert.isTrue(untilDue >= 300 && untilDue < 5_000, `woke ${untilDue} ms before the retry was due`)
        yield* mustClaim("w1")
      })
    )

    it.effect("awaitWork wakes up when work is announced while it waits", () =>
      Effect.gen(function* () {
        yield* clear
        const queue = yield* Ports.JobQueue
        yield* queue.awaitWork(50)
        const started = Date.now()
        const waiting = yield* Effect.forkChild(queue.awaitWork(20_000))
        yield* Effect.sleep(100)
        yield* notify
        yield* Fiber.join(waiting)
        const waited = Date.now() - started
        assert.isTrue(waited < 5_000, `woke after ${waited} ms`)
      })
    )

    engineSpecific?.(it)
  })
