import { describe, expect, it } from "@effect/vitest"
import { Duration, Effect, Exit, Fiber, Option, Schedule, Schema, Scope } from "effect"
import { beforeAll } from "vitest"
import * as Pool from "../../src/internal/pool/pool.js"
import { buildDist } from "./build.js"
import type { Task } from "./fixtures/worker.js"

beforeAll(buildDist)

const script = new URL("./fixtures/worker.ts", import.meta.url)

// Generous limits, so that a loaded machine does not fail the tests; the time-limit tests use `tight`.
const settings: Pool.Options = {
  script,
  workerData: null,
  size: 1,
  queueCapacity: 8,
  pageTimeLimitMs: 10_000,
  taskTimeLimitMs: 20_000,
  startupTimeLimitMs: 30_000,
  pagesPerWorker: 1_000,
  workerMemoryMb: 10_000,
  rssLimitMb: 1_000_000,
  resourceLimits: { maxOldGenerationSizeMb: 64 },
  closeGraceMs: 3_000,
  cancelGraceMs: 1_000,
  busyGraceMs: 500
}

const tight: Pool.Options = { ...settings, pageTimeLimitMs: 800, taskTimeLimitMs: 2_000 }

const Answer = Schema.Struct({
  threadId: Schema.Int,
  value: Schema.String,
  started: Schema.Finite,
  ended: Schema.Finite
})

const run = (pool: Pool.Pool, task: typeof Task.Type) =>
  pool.run(task).pipe(Effect.flatMap(Schema.decodeUnknownEffect(Answer)), Effect.orDie)

const failure = (pool: Pool.Pool, task: typeof Task.Type) => Effect.flip(pool.run(task))

const echo = (value: string, sleepMs = 0) => ({ _tag: "Echo", value, sleepMs }) as const

/** The stats once every slot is idle (callers are answered before a thread is stopped or recycled). */
const settled = (pool: Pool.Pool) =>
  pool.stats.pipe(
    Effect.repeat({ until: (stats) => stats.busy === 0 && stats.retiring === 0, schedule: Schedule.spaced(20) }),
    Effect.timeout(10_000),
    Effect.orDie
  )

// The tests are independent (a pool each) and mostly wait on timers and thread start-up: run them together.
describe.concurrent("pool", () => {
  it.live("runs as many tasks at once as it has threads", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make({ ...settings, size: 2 })
      const answers = yield* Effect.forEach(
        Array.from({ length: 6 }, (_, i) => echo(`task ${i}`, 300)),
        (task) => run(pool, task),
        { concurrency: "unbounded" }
      )
      expect(answers.map((answer) => answer.value)).toEqual(Array.from({ length: 6 }, (_, i) => `task ${i}`))
      expect(new Set(answers.map((answer) => answer.threadId)).size).toBe(2)
      // The most tasks running at one instant: at some task's start, those started and not yet ended.
      const overlapping = Math.max(
        ...answers.map((a) => answers.filter((b) => b.started <= a.started && a.started < b.ended).length)
      )
      expect(overlapping).toBe(2)
      const stats = yield* pool.stats
      expect(stats.maxBusy).toBe(2)
      expect(stats.spawned).toBe(2)
    })
  )

  const failures: ReadonlyArray<readonly [string, typeof Task.Type, "TimeLimit" | "WorkerFailed", RegExp]> = [
    ["a task that throws", { _tag: "Throw" }, "WorkerFailed", /threw: Error: the task failed on purpose/],
    ["process.exit in the worker", { _tag: "Exit" }, "WorkerFailed", /exited with code 3/],
    ["an uncaught asynchronous error", { _tag: "ThrowLater" }, "WorkerFailed", /crashed: an asynchronous failure/],
    ["an infinite loop", { _tag: "Loop" }, "TimeLimit", /page 1 took longer than the page time limit/],
    ["a JS heap blow-up", { _tag: "Heap" }, "WorkerFailed", /ERR_WORKER_OUT_OF_MEMORY/]
  ]
  for (const [name, task, reason, message] of failures) {
    it.live(`replaces the thread after ${name}, and the next task succeeds`, () =>
      Effect.gen(function* () {
        const pool = yield* Pool.make(reason === "TimeLimit" ? tight : settings)
        const before = yield* run(pool, echo("before"))
        const error = yield* failure(pool, task)
        expect(error.reason).toBe(reason)
        expect(error.message).toMatch(message)
        const after = yield* run(pool, echo("after"))
        expect(after.value).toBe("after")
        expect(after.threadId).not.toBe(before.threadId)
        expect(yield* settled(pool)).toMatchObject({ spawned: 2, replaced: 1, exited: 1, completed: 2 })
      })
    )
  }

  it.live("limits each page and the whole task; a progress report restarts the page limit", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make(tight)
      // 4 pages of 0.3 s: 1.2 s in all, each page under the 0.8 s page limit.
      expect((yield* run(pool, { _tag: "Pages", pages: 4, sleepMs: 300 })).value).toBe("4 pages")
      const slowPage = yield* failure(pool, { _tag: "Pages", pages: 1, sleepMs: 1_500 })
      expect(slowPage.reason).toBe("TimeLimit")
      expect(slowPage.message).toMatch(/page 1 took longer than the page time limit \(800 ms\)/)
      // 6 pages of 0.4 s: each page is within its limit, the task (2 s) is not.
      const slowTask = yield* failure(pool, { _tag: "Pages", pages: 6, sleepMs: 400 })
      expect(slowTask.reason).toBe("TimeLimit")
      expect(slowTask.message).toMatch(/the document took longer than the document time limit \(2000 ms\)/)
      expect((yield* run(pool, echo("still serving"))).value).toBe("still serving")
    })
  )

  it.live("a thread inside a blocking (native) call past the grace is waited for, not terminated busy", () =>
    Effect.gen(function* () {
      // The page limit (0.8 s) passes during the first 2.5 s step; the cancel grace (1 s) ends inside it too. The
      // busy grace lets the step return, the task sees its cancel flag and ends: the thread is never cut mid-call.
      const pool = yield* Pool.make({ ...tight, busyGraceMs: 5_000 })
      yield* run(pool, echo("the thread is up"))
      const [elapsed, error] = yield* Effect.timed(failure(pool, { _tag: "Blocking", steps: 3, stepMs: 2_500 }))
      expect(error.reason).toBe("TimeLimit")
      expect(Duration.toMillis(elapsed)).toBeLessThan(tight.pageTimeLimitMs + tight.cancelGraceMs)
      expect(yield* settled(pool)).toMatchObject({ replaced: 1, forced: 0 })
      expect((yield* run(pool, echo("after"))).value).toBe("after")
    })
  )

  it.live("a thread stuck in a long native call does not hold the queue: the next task runs on a new thread", () =>
    Effect.gen(function* () {
      // One 9 s blocking step: the caller has its TimeLimit at 0.8 s; the thread is waited for in the background
      // (busy grace 12 s), and the next task starts a new thread at once instead of queueing behind the call.
      const pool = yield* Pool.make({ ...tight, taskTimeLimitMs: 20_000, busyGraceMs: 12_000 })
      const first = yield* run(pool, echo("the thread is up"))
      const error = yield* failure(pool, { _tag: "Blocking", steps: 1, stepMs: 9_000 })
      expect(error.reason).toBe("TimeLimit")
      const [elapsed, next] = yield* Effect.timed(run(pool, echo("after")))
      expect(next.value).toBe("after")
      expect(next.threadId).not.toBe(first.threadId)
      expect(Duration.toMillis(elapsed)).toBeLessThan(6_000)
      expect((yield* pool.stats).retiring).toBe(1)
      expect(yield* settled(pool)).toMatchObject({ replaced: 1, forced: 0, retiring: 0 })
    })
  )

  it.live("asks a task over its time limit to stop, and terminates the thread once it has", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make(tight)
      const cooperative = yield* failure(pool, { _tag: "Cooperative" })
      expect(cooperative.reason).toBe("TimeLimit")
      expect(yield* settled(pool)).toMatchObject({ replaced: 1, forced: 0 })
      // A thread that cannot stop (a stuck loop) is terminated busy once the grace has passed; its caller has its
      // answer at the time limit, without waiting for that.
      yield* run(pool, echo("a fresh thread is up"))
      const [elapsed, stuck] = yield* Effect.timed(failure(pool, { _tag: "Loop" }))
      expect(stuck.reason).toBe("TimeLimit")
      expect(Duration.toMillis(elapsed)).toBeLessThan(tight.pageTimeLimitMs + tight.cancelGraceMs)
      expect(yield* settled(pool)).toMatchObject({ replaced: 2, forced: 1 })
      expect((yield* run(pool, echo("after"))).value).toBe("after")
    })
  )

  it.live("recycles a thread after the configured number of pages", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make({ ...settings, pagesPerWorker: 5 })
      const first = yield* run(pool, { _tag: "Pages", pages: 3, sleepMs: 0 })
      const second = yield* run(pool, { _tag: "Pages", pages: 3, sleepMs: 0 })
      const third = yield* run(pool, { _tag: "Pages", pages: 3, sleepMs: 0 })
      expect(second.threadId).toBe(first.threadId)
      expect(third.threadId).not.toBe(first.threadId)
      expect(yield* settled(pool)).toMatchObject({ recycled: 1, replaced: 0, spawned: 2 })
    })
  )

  it.live("recycles a thread whose memory outside the JS heap grew over the threshold", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make({ ...settings, workerMemoryMb: 200 })
      const small = yield* run(pool, { _tag: "External", mb: 20 })
      const large = yield* run(pool, { _tag: "External", mb: 250 })
      const next = yield* run(pool, echo("fresh"))
      expect(large.threadId).toBe(small.threadId)
      expect(next.threadId).not.toBe(large.threadId)
      expect(yield* settled(pool)).toMatchObject({ recycled: 1, replaced: 0 })
    })
  )

  it.live("terminates the thread of a caller that stopped waiting", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make(settings)
      expect(yield* pool.run({ _tag: "Loop" }).pipe(Effect.timeoutOption(300))).toEqual(Option.none())
      // Before the 10 s page limit: the spinning thread was terminated (after the 1 s grace), not left to run.
      const [elapsed, answer] = yield* Effect.timed(run(pool, echo("next")))
      expect(answer.value).toBe("next")
      expect(Duration.toMillis(elapsed)).toBeLessThan(settings.pageTimeLimitMs)
      expect(yield* settled(pool)).toMatchObject({ replaced: 1, exited: 1 })
    })
  )

  it.live("queues tasks in a bounded queue without losing any", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make({ ...settings, queueCapacity: 1 })
      const answers = yield* Effect.forEach(
        Array.from({ length: 5 }, (_, i) => echo(`q${i}`, 50)),
        (task) => run(pool, task),
        { concurrency: "unbounded" }
      )
      expect(answers.map((answer) => answer.value).sort()).toEqual(["q0", "q1", "q2", "q3", "q4"])
    })
  )

  it.live("fails a task that cannot be sent to a thread, and the next task succeeds", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make(settings)
      const error = yield* Effect.flip(pool.run({ _tag: "Echo", value: () => "a function", sleepMs: 0 }))
      expect(error.reason).toBe("WorkerFailed")
      expect(error.message).toMatch(/the task cannot be sent: DataCloneError/)
      expect((yield* run(pool, echo("next"))).value).toBe("next")
      expect(yield* settled(pool)).toMatchObject({ forced: 0 })
    })
  )

  it.live("fails to start with a clear message when the script is broken", () =>
    Effect.gen(function* () {
      const pool = yield* Pool.make({ ...settings, script: new URL("./fixtures/missing.js", import.meta.url) })
      const error = yield* failure(pool, echo("x"))
      expect(error.reason).toBe("WorkerFailed")
      expect(error.message).toMatch(/a worker thread failed to start: .*missing\.js/)
    })
  )

  it.live("closing fails queued tasks, lets the running one finish and terminates every thread", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const pool = yield* Pool.make({ ...settings, size: 2 }).pipe(Scope.provide(scope))
      yield* run(pool, echo("warm"))
      const running = yield* Effect.forkChild(run(pool, echo("running", 800)))
      const blocker = yield* Effect.forkChild(run(pool, echo("blocker", 800)))
      yield* Effect.sleep(200)
      const queued = yield* Effect.forkChild(Effect.exit(pool.run(echo("queued"))))
      yield* Effect.sleep(100)
      yield* Scope.close(scope, Exit.void)
      expect((yield* Fiber.join(running)).value).toBe("running")
      expect((yield* Fiber.join(blocker)).value).toBe("blocker")
      const queuedExit = yield* Fiber.join(queued)
      expect(Exit.isFailure(queuedExit) && String(queuedExit.cause)).toMatch(/pool is closed/)
      const stats = yield* pool.stats
      expect(stats.spawned).toBe(2)
      expect(stats.exited).toBe(stats.spawned)
      expect((yield* failure(pool, echo("late"))).reason).toBe("Closed")
    })
  )
})
