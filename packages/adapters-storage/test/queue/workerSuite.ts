/**
 * The core `Worker` loop against `SqlJobQueue`, in process, on every engine (see `Worker.*.test.ts`): what each
 * outcome leaves in the `jobs` and `extractions` rows.
 */
import { assert, layer } from "@effect/vitest"
import { Ports, type Retry, Worker } from "@legible/core"
import { Fixtures, TestIds } from "@legible/testkit"
import { Effect, Layer, Ref, type Scope } from "effect"
import type { SqlClient } from "effect/sql"
import type * as Database from "../../src/Database.js"
import * as SqlJobQueue from "../../src/SqlJobQueue.js"
import * as SqlStorage from "../../src/SqlStorage.js"
import { result } from "./harness.js"
import { clear, insertJobs, readJob } from "./support.js"

const retry: Retry.RetryPolicy = { maxAttempts: 3, baseMs: 50, capMs: 200 }

const base = { workerId: "w1", concurrency: 2, leaseMs: 3_000, pollMs: 50, retry, random: () => 0.5 } as const

/** Polls `check` every 25 ms until it holds, for at most `timeoutMs`. */
const eventually = <R>(check: Effect.Effect<boolean, unknown, R>, timeoutMs = 10_000) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (yield* check) return
      yield* Effect.sleep(25)
    }
    return yield* Effect.die(new Error(`condition not met within ${timeoutMs} ms`))
  })

const statusIs = (jobId: string, status: string) => readJob(jobId).pipe(Effect.map((row) => row.status === status))

/** Runs the worker suite on `database`. */
export const workerSuite = (
  name: string,
  database: Layer.Layer<SqlClient.SqlClient | Database.Notifications, unknown>
) =>
  layer(Layer.mergeAll(SqlJobQueue.layer(), SqlStorage.layer()).pipe(Layer.provideMerge(database)), {
    timeout: 120_000,
    excludeTestServices: true
  })(name, (it) => {
    const start = <R>(options: Partial<Worker.WorkerOptions<R>> & Pick<Worker.WorkerOptions<R>, "handler">) =>
      Worker.start({ ...base, ...options })

    it.effect("a handler that succeeds: completado with the stored result, one attempt", () =>
      Effect.gen(function* () {
        yield* clear
        const [ids] = yield* insertJobs({ batch: 100, count: 1 })
        const jobId = ids?.jobId ?? ""
        yield* start({ handler: (lease) => Effect.succeed(result(`done by ${lease.workerId}`)) })
        yield* eventually(statusIs(jobId, "completado"))
        const row = yield* readJob(jobId)
        assert.strictEqual(row.state, "done")
        assert.strictEqual(row.attempts, 1)
        assert.deepStrictEqual(JSON.parse(row.result ?? "null"), result("done by w1"))
      }).pipe(Effect.scoped)
    )

    it.effect("end to end: a submission wakes an idle worker at once; the store reads back the result", () =>
      Effect.gen(function* () {
        yield* clear
        yield* (yield* Ports.Directory).upsertClient(Fixtures.client)
        const store = yield* Ports.ExtractionStore
        // Polling alone would take 30 s: only the submission's NOTIFY can wake the worker in time.
        yield* start({ pollMs: 30_000, handler: () => Effect.succeed(Fixtures.invoiceResult()) })
        yield* Effect.sleep(200)
        const id = TestIds.uuid(0x5000)
        const submitted = Date.now()
        yield* store.submit({ record: Fixtures.extraction({ id }), document: Fixtures.DOCUMENT, maxAttempts: 3 })
        const scope = { clientId: Fixtures.client.id, sandbox: false }
        yield* eventually(store.get(scope, id).pipe(Effect.map((r) => r?.status === "completado")), 5_000)
        const latency = Date.now() - submitted
        assert.isTrue(latency < 5_000, `completed ${latency} ms after submission`)
        const record = yield* store.get(scope, id)
        assert.deepStrictEqual(record?.result, Fixtures.invoiceResult())
        assert.strictEqual(record?.attempts, 1)
        assert.isNull(record?.errorMessage ?? null)
      }).pipe(Effect.scoped)
    )

    it.effect("a permanent failure: error after one attempt, with a clear error_message", () =>
      Effect.gen(function* () {
        yield* clear
        const [ids] = yield* insertJobs({ batch: 101, count: 1 })
        const jobId = ids?.jobId ?? ""
        const calls = yield* Ref.make(0)
        yield* start({
          handler: () =>
            Ref.update(calls, (n) => n + 1).pipe(
              Effect.andThen(new Worker.JobFailure({ permanent: true, message: "unsupported file: text/html" }))
            )
        })
        yield* eventually(statusIs(jobId, "error"))
        const row = yield* readJob(jobId)
        assert.strictEqual(row.state, "failed")
        assert.strictEqual(row.attempts, 1)
        assert.strictEqual(row.error_message, "unsupported file: text/html")
        yield* Effect.sleep(200)
        assert.strictEqual(yield* Ref.get(calls), 1)
      }).pipe(Effect.scoped)
    )

    it.effect("transient failures: retried with backoff up to max_attempts, then error", () =>
      Effect.gen(function* () {
        yield* clear
        const [ids] = yield* insertJobs({ batch: 102, count: 1, maxAttempts: 3 })
        const jobId = ids?.jobId ?? ""
        const starts = yield* Ref.make<ReadonlyArray<number>>([])
        yield* start({
          handler: () =>
            Ref.update(starts, (s) => [...s, Date.now()]).pipe(
              Effect.andThen(new Worker.JobFailure({ permanent: false, message: "provider answered 503" }))
            )
        })
        yield* eventually(statusIs(jobId, "error"))
        const row = yield* readJob(jobId)
        assert.strictEqual(row.attempts, 3)
        assert.strictEqual(row.ext_attempts, 3)
        assert.strictEqual(row.error_message, "provider answered 503 (gave up after 3 attempts)")
        const times = yield* Ref.get(starts)
        assert.strictEqual(times.length, 3)
        // random() = 0.5: the retries wait at least 25 ms and 50 ms (database clock, so allow a little skew).
        assert.isTrue((times[1] ?? 0) - (times[0] ?? 0) >= 20)
        assert.isTrue((times[2] ?? 0) - (times[1] ?? 0) >= 45)
      }).pipe(Effect.scoped)
    )

    it.effect("two workers, 60 jobs: each handled once and completado", () =>
      Effect.gen(function* () {
        yield* clear
        const ids = yield* insertJobs({ batch: 103, count: 60 })
        const runs = yield* Ref.make<ReadonlyArray<string>>([])
        const handler = (lease: Ports.Lease) =>
          Ref.update(runs, (r) => [...r, lease.jobId]).pipe(
            Effect.andThen(Effect.sleep(5)),
            Effect.as(result(lease.jobId))
          )
        yield* start({ workerId: "a", concurrency: 3, handler })
        yield* start({ workerId: "b", concurrency: 3, handler })
        yield* eventually(
          Effect.forEach(ids, (id) => statusIs(id.jobId, "completado")).pipe(Effect.map((done) => done.every(Boolean)))
        )
        const handled = yield* Ref.get(runs)
        assert.strictEqual(handled.length, 60)
        assert.strictEqual(new Set(handled).size, 60)
      }).pipe(Effect.scoped)
    )

    it.effect("graceful stop: the in-flight job finishes, no new claims", () =>
      Effect.gen(function* () {
        yield* clear
        const ids = yield* insertJobs({ batch: 104, count: 3 })
        const worker = yield* start({
          concurrency: 1,
          handler: (lease) => Effect.sleep(300).pipe(Effect.as(result(lease.jobId)))
        })
        yield* eventually(worker.inFlight.pipe(Effect.map((n) => n === 1)))
        yield* worker.stop(5_000)
        const rows = yield* Effect.forEach(ids, (id) => readJob(id.jobId))
        assert.deepStrictEqual(
          rows.map((row) => [row.status, row.attempts]),
          [
            ["completado", 1],
            ["en cola", 0],
            ["en cola", 0]
          ]
        )
      }).pipe(Effect.scoped)
    )

    it.effect("stop past the grace period: the in-flight jobs are released, the attempt not counted", () =>
      Effect.gen(function* () {
        yield* clear
        const ids = yield* insertJobs({ batch: 105, count: 2 })
        const worker = yield* start({ handler: () => Effect.never })
        yield* eventually(worker.inFlight.pipe(Effect.map((n) => n === 2)))
        const started = Date.now()
        yield* worker.stop(200)
        assert.isTrue(Date.now() - started < 2_000)
        for (const id of ids) {
          const row = yield* readJob(id.jobId)
          assert.strictEqual(row.state, "queued")
          assert.strictEqual(row.attempts, 0)
          assert.strictEqual(row.status, "en cola")
          assert.isTrue(row.run_in_ms <= 0)
        }
      }).pipe(Effect.scoped)
    )

    it.effect(
      "closing the worker's scope releases its jobs at once",
      () =>
        Effect.gen(function* () {
          yield* clear
          const [ids] = yield* insertJobs({ batch: 106, count: 1 })
          const jobId = ids?.jobId ?? ""
          yield* Effect.scoped(
            Effect.gen(function* () {
              yield* start({ handler: () => Effect.never })
              yield* eventually(statusIs(jobId, "procesando"))
            })
          )
          const row = yield* readJob(jobId)
          assert.strictEqual(row.state, "queued")
          assert.strictEqual(row.status, "en cola")
        }) satisfies Effect.Effect<void, unknown, Scope.Scope | Ports.JobQueue | SqlClient.SqlClient>
    )
  })
