/**
 * The worker loop against the in-memory queue of the testkit, on the `TestClock`: outcomes, backoff, attempt
 * limits, heartbeats, lost leases and graceful stops, all deterministic. The same loop runs against the SQL queue
 * (in process and in child processes) in `adapters-storage/test/queue`.
 */
import { assert, describe, it } from "@effect/vitest"
import { Errors, type Extraction, Ports, Retry, Worker } from "@legible/core"
import { Fixtures, Memory, TestIds } from "@legible/testkit"
import { Clock, Effect, Layer, Logger, Ref, References } from "effect"
import { TestClock } from "effect/testing"

const policy: Retry.RetryPolicy = { maxAttempts: 4, baseMs: 1_000, capMs: 3_000 }

const options = {
  workerId: "w1",
  concurrency: 2,
  leaseMs: 3_000,
  pollMs: 100,
  retry: policy,
  random: () => 0.5
} as const

/** Submits `count` extractions (ids from a fixed sequence) with their jobs; returns their ids. */
const submit = (count: number, maxAttempts = 4) =>
  Effect.gen(function* () {
    yield* (yield* Ports.Directory).upsertClient(Fixtures.client)
    const store = yield* Ports.ExtractionStore
    const ids = Array.from({ length: count }, (_, i) => TestIds.uuid(0xa000 + i))
    for (const id of ids) {
      yield* store.submit({ record: Fixtures.extraction({ id }), document: Fixtures.DOCUMENT, maxAttempts })
    }
    return ids
  })

const stateOf = Effect.gen(function* () {
  const state = yield* Memory.MemoryState
  const extraction = (id: string): Extraction.ExtractionRecord => {
    const record = state.extractions.get(id)
    if (record === undefined) throw new Error(`no extraction ${id}`)
    return record
  }
  const job = (extractionId: string): Memory.Job => {
    const found = [...state.jobs.values()].find((j) => j.extractionId === extractionId)
    if (found === undefined) throw new Error(`no job for ${extractionId}`)
    return found
  }
  return { extraction, job }
})

const memory = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, Memory.layer)

/** A log line as the worker wrote it: level, message and annotations. */
interface Line {
  readonly level: string
  readonly message: unknown
  readonly annotations: Readonly<Record<string, unknown>>
}

/** Runs `effect` with every log line collected into `lines`. */
const collectingLogs = (lines: Array<Line>) =>
  Logger.layer([
    Logger.make(({ logLevel, message, fiber }) => {
      lines.push({
        level: logLevel,
        message: Array.isArray(message) ? message[0] : message,
        annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
      })
    })
  ])

/** Lets forked fibers run, then moves the clock on. */
const advance = (ms: number) => TestClock.adjust(ms)

describe("Worker", () => {
  it.effect("a handler that succeeds ends completado with the stored result, after one attempt", () =>
    memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1)
        const calls = yield* Ref.make(0)
        yield* Worker.start({
          ...options,
          handler: () => Ref.update(calls, (n) => n + 1).pipe(Effect.as(Fixtures.invoiceResult()))
        })
        yield* advance(10)
        const { extraction, job } = yield* stateOf
        assert.strictEqual(extraction(id ?? "").status, "completado")
        assert.deepStrictEqual(extraction(id ?? "").result, Fixtures.invoiceResult())
        assert.strictEqual(job(id ?? "").state, "done")
        assert.strictEqual(job(id ?? "").attempts, 1)
        assert.strictEqual(yield* Ref.get(calls), 1)
      })
    )
  )

  it.effect("a permanent failure ends in error after one attempt, with its message", () =>
    memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1)
        const calls = yield* Ref.make(0)
        yield* Worker.start({
          ...options,
          handler: () =>
            Ref.update(calls, (n) => n + 1).pipe(
              Effect.andThen(new Worker.JobFailure({ permanent: true, message: "the PDF is encrypted" }))
            )
        })
        yield* advance(60_000)
        const { extraction, job } = yield* stateOf
        assert.strictEqual(extraction(id ?? "").status, "error")
        assert.strictEqual(extraction(id ?? "").errorMessage, "the PDF is encrypted")
        assert.strictEqual(job(id ?? "").state, "failed")
        assert.strictEqual(yield* Ref.get(calls), 1)
      })
    )
  )

  it.effect("transient failures retry with full-jitter exponential backoff, then end in error", () =>
    memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1)
        const startedAt = yield* Ref.make<ReadonlyArray<number>>([])
        yield* Worker.start({
          ...options,
          handler: () =>
            Clock.currentTimeMillis.pipe(
              Effect.flatMap((now) => Ref.update(startedAt, (times) => [...times, now])),
              Effect.andThen(new Worker.JobFailure({ permanent: false, message: "provider answered 529" }))
            )
        })
        for (let i = 0; i < 100; i++) yield* advance(100)
        const times = yield* Ref.get(startedAt)
        assert.strictEqual(times.length, 4)
        // random() = 0.5: half of min(cap, base · 2^(attempt-1)) → 500, 1000, 1500 (capped at 3000 / 2).
        const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0))
        const expected = [500, 1_000, 1_500]
        gaps.forEach((gap, i) => {
          const want = expected[i] ?? 0
          assert.isTrue(gap >= want && gap <= want + options.pollMs, `gap ${i}: ${gap} ms, expected ~${want} ms`)
        })
        const { extraction, job } = yield* stateOf
        assert.strictEqual(extraction(id ?? "").status, "error")
        assert.strictEqual(extraction(id ?? "").errorMessage, "provider answered 529 (gave up after 4 attempts)")
        assert.strictEqual(job(id ?? "").attempts, 4)
        assert.strictEqual(job(id ?? "").state, "failed")
      })
    )
  )

  it.effect("logs every retry and every final failure with the extraction, attempt, reason and message", () => {
    const lines: Array<Line> = []
    return memory(
      Effect.gen(function* () {
        const [, refused] = yield* submit(2, 2)
        yield* Worker.start({
          ...options,
          handler: (lease) =>
            new Worker.JobFailure(
              lease.extractionId === refused
                ? { permanent: true, message: "the document could not be read (Encrypted): it has a password" }
                : { permanent: false, message: "field extraction failed (RateLimited): 429" }
            )
        })
        for (let i = 0; i < 50; i++) yield* advance(100)
      })
    ).pipe(
      Effect.provide(collectingLogs(lines)),
      Effect.andThen(
        Effect.sync(() => {
          const about = (id: string) => lines.filter((line) => line.annotations.extractionId === id)
          const [retried, refused] = [TestIds.uuid(0xa000), TestIds.uuid(0xa001)]
          assert.deepStrictEqual(
            about(retried).map((l) => [l.level, l.message, l.annotations.attempt, l.annotations.reason]),
            [
              ["Warn", "extraction attempt failed; retrying", 1, "transient"],
              ["Error", "extraction failed", 2, "attempts exhausted"]
            ]
          )
          assert.strictEqual(about(retried)[0]?.annotations.message, "field extraction failed (RateLimited): 429")
          assert.strictEqual(about(retried)[0]?.annotations.retryInMs, 500)
          assert.deepStrictEqual(
            about(refused).map((l) => [
              l.level,
              l.message,
              l.annotations.attempt,
              l.annotations.reason,
              l.annotations.message
            ]),
            [
              [
                "Error",
                "extraction failed",
                1,
                "permanent",
                "the document could not be read (Encrypted): it has a password"
              ]
            ]
          )
        })
      )
    )
  })

  it.effect("logs an extraction the reaper ends because its worker died on every attempt", () => {
    const lines: Array<Line> = []
    return memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1, 1)
        // A worker that claimed the job's only attempt and died: its lease lapses with nobody to finish it.
        yield* (yield* Ports.JobQueue).claim("crashed", options.leaseMs)
        yield* advance(options.leaseMs + 1)
        yield* Worker.start({ ...options, handler: () => Effect.succeed(Fixtures.invoiceResult()) })
        yield* advance(10)
        assert.strictEqual((yield* stateOf).extraction(id ?? "").status, "error")
      })
    ).pipe(
      Effect.provide(collectingLogs(lines)),
      Effect.andThen(
        Effect.sync(() => {
          const reaped = lines.filter((line) => line.annotations.extractionId === TestIds.uuid(0xa000))
          assert.deepStrictEqual(
            reaped.map((l) => [l.level, l.message, l.annotations.reason]),
            [["Error", "extraction failed", "attempts exhausted"]]
          )
        })
      )
    )
  })

  it.effect("the job's own max_attempts caps retries when it is below the policy's", () =>
    memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1, 2)
        const calls = yield* Ref.make(0)
        yield* Worker.start({
          ...options,
          handler: () =>
            Ref.update(calls, (n) => n + 1).pipe(
              Effect.andThen(new Worker.JobFailure({ permanent: false, message: "timeout" }))
            )
        })
        for (let i = 0; i < 100; i++) yield* advance(100)
        const { extraction, job } = yield* stateOf
        assert.strictEqual(yield* Ref.get(calls), 2)
        assert.strictEqual(job(id ?? "").attempts, 2)
        assert.strictEqual(extraction(id ?? "").errorMessage, "timeout (gave up after 2 attempts)")
      })
    )
  )

  it.effect("a defect in the handler is retried as a worker failure", () =>
    memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1, 2)
        yield* Worker.start({ ...options, handler: () => Effect.die(new Error("parser crashed")) })
        for (let i = 0; i < 100; i++) yield* advance(100)
        const { extraction } = yield* stateOf
        assert.strictEqual(extraction(id ?? "").status, "error")
        assert.strictEqual(
          extraction(id ?? "").errorMessage,
          "worker failure: parser crashed (gave up after 2 attempts)"
        )
      })
    )
  )

  it.effect("heartbeats keep a long job's lease: a second worker never takes it", () =>
    memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1)
        const runs = yield* Ref.make<ReadonlyArray<string>>([])
        const handler = (lease: Ports.Lease) =>
          Ref.update(runs, (r) => [...r, lease.workerId]).pipe(
            Effect.andThen(Effect.sleep(10_000)),
            Effect.as(Fixtures.invoiceResult())
          )
        yield* Worker.start({ ...options, workerId: "w1", handler })
        yield* advance(10)
        yield* Worker.start({ ...options, workerId: "w2", handler })
        for (let i = 0; i < 120; i++) yield* advance(100)
        const { extraction, job } = yield* stateOf
        assert.deepStrictEqual(yield* Ref.get(runs), ["w1"])
        assert.strictEqual(extraction(id ?? "").status, "completado")
        assert.strictEqual(job(id ?? "").attempts, 1)
      })
    )
  )

  it.effect("a lost lease interrupts the handler and nothing is written", () =>
    memory(
      Effect.gen(function* () {
        const [id] = yield* submit(1)
        const interrupted = yield* Ref.make(false)
        yield* Worker.start({
          ...options,
          handler: () =>
            Effect.sleep(60_000).pipe(
              Effect.as(Fixtures.invoiceResult()),
              Effect.onInterrupt(() => Ref.set(interrupted, true))
            )
        })
        yield* advance(10)
        const { extraction, job } = yield* stateOf
        // Another worker took the job over (its lease lapsed while this one was paused).
        job(id ?? "").token = "00000000-0000-4000-b000-ffffffffffff"
        job(id ?? "").leaseUntil = (yield* Clock.currentTimeMillis) + 60_000
        yield* advance(options.leaseMs)
        assert.isTrue(yield* Ref.get(interrupted))
        assert.strictEqual(job(id ?? "").state, "running")
        assert.strictEqual(job(id ?? "").token, "00000000-0000-4000-b000-ffffffffffff")
        assert.strictEqual(extraction(id ?? "").status, "procesando")
      })
    )
  )

  it.effect("a job whose heartbeats all fail for a whole lease is abandoned", () =>
    Effect.gen(function* () {
      const state = Memory.makeState()
      const base = Memory.makeJobQueue(state)
      const failing = Ports.JobQueue.of({
        ...base,
        heartbeat: () => Effect.fail(new Errors.StorageError({ reason: "Unavailable", message: "connection refused" }))
      })
      const layer = Layer.succeedContext(Memory.context(state)).pipe(
        Layer.merge(Layer.succeed(Ports.JobQueue, failing))
      )
      yield* Effect.gen(function* () {
        const [id] = yield* submit(1)
        const interrupted = yield* Ref.make(false)
        yield* Worker.start({
          ...options,
          handler: () =>
            Effect.sleep(60_000).pipe(
              Effect.as(Fixtures.invoiceResult()),
              Effect.onInterrupt(() => Ref.set(interrupted, true))
            )
        })
        yield* advance(10)
        yield* advance(options.leaseMs - 100)
        assert.isFalse(yield* Ref.get(interrupted))
        yield* advance(1_100)
        assert.isTrue(yield* Ref.get(interrupted))
        const { extraction } = yield* stateOf
        assert.strictEqual(extraction(id ?? "").status, "procesando")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("the loop survives a claim that dies: the job is still processed", () =>
    Effect.gen(function* () {
      const state = Memory.makeState()
      const base = Memory.makeJobQueue(state)
      let claims = 0
      const flaky = Ports.JobQueue.of({
        ...base,
        claim: (workerId, leaseMs) =>
          ++claims === 1 ? Effect.die(new Error("driver bug")) : base.claim(workerId, leaseMs)
      })
      const layer = Layer.succeedContext(Memory.context(state)).pipe(Layer.merge(Layer.succeed(Ports.JobQueue, flaky)))
      yield* Effect.gen(function* () {
        const [id] = yield* submit(1)
        yield* Worker.start({ ...options, handler: () => Effect.succeed(Fixtures.invoiceResult()) })
        for (let i = 0; i < 10; i++) yield* advance(100)
        const { extraction } = yield* stateOf
        assert.isTrue(claims > 1)
        assert.strictEqual(extraction(id ?? "").status, "completado")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("stop: no new claims; in-flight jobs finish within the grace period", () =>
    memory(
      Effect.gen(function* () {
        const ids = yield* submit(3)
        const worker = yield* Worker.start({
          ...options,
          concurrency: 1,
          handler: () => Effect.sleep(1_000).pipe(Effect.as(Fixtures.invoiceResult()))
        })
        yield* advance(10)
        assert.strictEqual(yield* worker.inFlight, 1)
        const stopping = yield* Effect.forkChild(worker.stop(5_000))
        yield* advance(1_000)
        yield* advance(5_000)
        assert.isTrue(stopping.pollUnsafe() !== undefined, "stop returned")
        const { extraction, job } = yield* stateOf
        assert.deepStrictEqual(
          ids.map((id) => extraction(id).status),
          ["completado", "en cola", "en cola"]
        )
        assert.deepStrictEqual(
          ids.map((id) => job(id).attempts),
          [1, 0, 0]
        )
      })
    )
  )

  it.effect("stop: jobs still running after the grace period are interrupted and released, attempt not counted", () =>
    memory(
      Effect.gen(function* () {
        const ids = yield* submit(2)
        const worker = yield* Worker.start({
          ...options,
          handler: () => Effect.sleep(60_000).pipe(Effect.as(Fixtures.invoiceResult()))
        })
        yield* advance(10)
        assert.strictEqual(yield* worker.inFlight, 2)
        const stopping = yield* Effect.forkChild(worker.stop(500))
        yield* advance(600)
        assert.isTrue(stopping.pollUnsafe() !== undefined, "stop returned")
        assert.strictEqual(yield* worker.inFlight, 0)
        const { extraction, job } = yield* stateOf
        for (const id of ids) {
          assert.strictEqual(job(id).state, "queued")
          assert.strictEqual(job(id).attempts, 0)
          assert.strictEqual(extraction(id).status, "en cola")
        }
      })
    )
  )
})

describe("Retry.backoff", () => {
  it("is uniform below min(cap, base · 2^(attempt-1))", () => {
    assert.strictEqual(
      Retry.backoff(policy, 1, () => 0.999),
      999
    )
    assert.strictEqual(
      Retry.backoff(policy, 2, () => 0.999),
      1_998
    )
    assert.strictEqual(
      Retry.backoff(policy, 3, () => 0.999),
      2_997
    )
    assert.strictEqual(
      Retry.backoff(policy, 30, () => 0.999),
      2_997
    )
    assert.strictEqual(
      Retry.backoff(policy, 5, () => 0),
      0
    )
    assert.isTrue(Retry.canRetry(policy, 3))
    assert.isFalse(Retry.canRetry(policy, 4))
  })
})
