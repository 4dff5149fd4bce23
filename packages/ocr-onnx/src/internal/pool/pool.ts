/**
 * A pool of worker threads that run one task at a time each, under limits:
 * - time: a task fails with `TimeLimit` when a page (the time between two `progress()` reports) or the whole task
 *   runs too long; the pool then asks the task to stop and, after `cancelGraceMs`, terminates the thread anyway
 *   (a stuck WASM loop cannot stop itself; see `thread.ts` `stop` for why a busy thread is not terminated at once);
 * - memory: V8's `resourceLimits` bound each thread's JS heap (the thread dies with `ERR_WORKER_OUT_OF_MEMORY`).
 *   WASM memory (mupdf) and onnxruntime's native allocations are outside those limits and only grow, so each
 *   report carries `process.memoryUsage()` and the thread is recycled after its task when its own footprint
 *   (`heapTotal + external`, which counts WASM memories) or the process RSS (which is where native arenas show,
 *   shared by all threads) is over its threshold, or when it has done `pagesPerWorker` pages;
 * - failures: a thread that crashes, exits, throws or is terminated is replaced; the task fails with `WorkerFailed`.
 * Tasks wait in a bounded queue (callers suspend when it is full). Closing the pool's scope fails the tasks not yet
 * started, lets running ones finish for `closeGraceMs`, then terminates every thread.
 */
import type { ResourceLimits, Transferable } from "node:worker_threads"
import { Clock, Deferred, Effect, Fiber, FiberSet, Option, Queue, type Scope } from "effect"
import { PoolError } from "./error.js"
import { endsTask, spawn, stop, type Thread } from "./thread.js"

export { PoolError }

/** How the pool runs its threads (every field is required here; the reader's options carry the defaults). */
export interface Options {
  /** The worker script (JavaScript that calls `serve`). */
  readonly script: URL
  /** Passed to every thread as `workerData`. */
  readonly workerData: unknown
  readonly size: number
  /** Tasks that may wait for a thread before callers suspend. */
  readonly queueCapacity: number
  readonly pageTimeLimitMs: number
  readonly taskTimeLimitMs: number
  /** How long a new thread may take to load its modules. */
  readonly startupTimeLimitMs: number
  readonly pagesPerWorker: number
  /** Recycle a thread whose own memory (JS heap + external, WASM included) reached this. */
  readonly workerMemoryMb: number
  /** Recycle a thread that finishes a task while the process RSS is over this. */
  readonly rssLimitMb: number
  readonly resourceLimits: ResourceLimits
  /** How long closing waits for running tasks before stopping their threads. */
  readonly closeGraceMs: number
  /** How long a thread asked to stop its task may take before it is terminated busy. */
  readonly cancelGraceMs: number
  /**
   * How much longer a thread that did not stop within `cancelGraceMs` is waited for before it is terminated busy:
   * terminating inside a native call aborts the process (see `thread.ts` `stop`), and one inference call on a
   * large page can outlast the first grace on a loaded machine. Default `DEFAULT_BUSY_GRACE_MS`.
   */
  readonly busyGraceMs?: number | undefined
}

/** The default `busyGraceMs`: 60 s, far beyond one inference call, and still an end for a task stuck for good. */
export const DEFAULT_BUSY_GRACE_MS = 60_000

/** Counters, for logs and tests. */
export interface Stats {
  readonly size: number
  readonly spawned: number
  readonly exited: number
  /** Threads ended because of pages or memory (planned). */
  readonly recycled: number
  /** Threads ended because they failed to start, failed, timed out or their caller gave up. */
  readonly replaced: number
  /** Threads terminated while still running a task (they did not stop within `cancelGraceMs`). */
  readonly forced: number
  /** Slots running a task or still stopping or recycling the thread after one. */
  readonly busy: number
  readonly maxBusy: number
  /** Threads still being stopped in the background after their task ended without them (a time limit, a cancel). */
  readonly retiring: number
  readonly queued: number
  /** Tasks that produced a result. */
  readonly completed: number
}

/** A running pool. */
export interface Pool {
  /** Runs a task on the next free thread; `transfer` lists buffers of `input` to move rather than copy. */
  readonly run: (input: unknown, transfer?: ReadonlyArray<Transferable>) => Effect.Effect<unknown, PoolError>
  readonly stats: Effect.Effect<Stats>
}

interface Job {
  readonly id: number
  readonly input: unknown
  readonly transfer: ReadonlyArray<Transferable> | undefined
  readonly result: Deferred.Deferred<unknown, PoolError>
  /** Completed when the caller stopped waiting (interrupted). */
  readonly cancelled: Deferred.Deferred<void>
}

/** How a task on a thread ended, and whether the thread can take another. */
type Outcome =
  | { readonly _tag: "Done"; readonly output: unknown }
  | { readonly _tag: "Broken"; readonly error: PoolError }
  | { readonly _tag: "Cancelled" }

const MB = 1024 * 1024

/** Starts a pool whose threads and slot fibers belong to the current scope. */
export const make = (options: Options): Effect.Effect<Pool, never, Scope.Scope> =>
  Effect.gen(function* () {
    const queue = yield* Queue.bounded<Job>(options.queueCapacity)
    const pending = new Set<Job>()
    const counters = {
      spawned: 0,
      exited: 0,
      recycled: 0,
      replaced: 0,
      forced: 0,
      busy: 0,
      maxBusy: 0,
      completed: 0
    }
    let nextId = 0
    let closed = false
    /** Threads being stopped in the background; closing waits for them, then interrupts (terminates) the rest. */
    const retiring = yield* FiberSet.make<void>()

    const closedError = () => new PoolError({ reason: "Closed", message: "the document reader's pool is closed" })

    const start = Effect.gen(function* () {
      const thread = yield* spawn(options, () => {
        counters.exited++
      })
      counters.spawned++
      const first = yield* Queue.take(thread.events).pipe(Effect.timeoutOption(options.startupTimeLimitMs))
      if (Option.isSome(first) && first.value._tag === "Ready") return thread
      yield* thread.terminate
      counters.replaced++
      const detail = Option.isNone(first)
        ? `it did not say ready within ${options.startupTimeLimitMs} ms`
        : first.value._tag === "Error"
          ? first.value.message
          : first.value._tag === "Exit"
            ? `it exited with code ${first.value.code}`
            : `it sent ${first.value._tag} before Ready`
      return yield* new PoolError({ reason: "WorkerFailed", message: `a worker thread failed to start: ${detail}` })
    })

    /** Sends the job and follows the thread's events until the job ends or a time limit passes. */
    const runOn = (thread: Thread, job: Job) =>
      Effect.gen(function* () {
        const cancel = new SharedArrayBuffer(4)
        yield* Effect.try({
          try: () => thread.post({ _tag: "Run", id: job.id, input: job.input, cancel }, job.transfer),
          catch: (error) => new PoolError({ reason: "WorkerFailed", message: `the task cannot be sent: ${error}` })
        })
        thread.running = new Int32Array(cancel)
        const started = yield* Clock.currentTimeMillis
        let pageStarted = started
        let pages = 0
        while (true) {
          const now = yield* Clock.currentTimeMillis
          const taskLeft = options.taskTimeLimitMs - (now - started)
          const pageLeft = options.pageTimeLimitMs - (now - pageStarted)
          const event = yield* Queue.take(thread.events).pipe(
            Effect.timeoutOption(Math.max(0, Math.min(taskLeft, pageLeft)))
          )
          if (Option.isNone(event)) {
            const message =
              taskLeft <= pageLeft
                ? `the document took longer than the document time limit (${options.taskTimeLimitMs} ms)`
                : `page ${pages + 1} took longer than the page time limit (${options.pageTimeLimitMs} ms)`
            return broken("TimeLimit", message)
          }
          const e = event.value
          if (endsTask(e)) thread.running = undefined
          switch (e._tag) {
            case "Ready":
              continue
            case "Progress":
              thread.pages += e.pages
              pages += e.pages
              thread.memory = e.memory
              pageStarted = yield* Clock.currentTimeMillis
              continue
            case "Done":
              thread.memory = e.memory
              return { _tag: "Done", output: e.output } satisfies Outcome
            case "Failed":
              return broken("WorkerFailed", `the worker thread threw: ${firstLine(e.message)}`)
            case "Error":
              return broken("WorkerFailed", `the worker thread crashed: ${e.message}`)
            case "Exit":
              return broken("WorkerFailed", `the worker thread exited with code ${e.code}`)
          }
        }
      })

    const recycleReason = (thread: Thread): string | undefined => {
      if (thread.pages >= options.pagesPerWorker) return `${thread.pages} pages done`
      const memory = thread.memory
      if (memory === undefined) return undefined
      const own = (memory.heapTotal + memory.external) / MB
      if (own >= options.workerMemoryMb) return `own memory ${Math.round(own)} MB`
      if (memory.rss / MB >= options.rssLimitMb) return `process RSS ${Math.round(memory.rss / MB)} MB`
      return undefined
    }

    /** One slot: takes jobs and runs them on its thread, replacing the thread when needed. */
    const slot = Effect.gen(function* () {
      let thread: Thread | undefined
      const retire = Effect.suspend(() => {
        const current = thread
        thread = undefined
        if (current === undefined) return Effect.void
        const ending = Effect.flatMap(
          // Closing keeps its own bound (`closeGraceMs`, then `cancelGraceMs`): the process is ending anyway.
          stop(current, options.cancelGraceMs, closed ? 0 : (options.busyGraceMs ?? DEFAULT_BUSY_GRACE_MS)),
          (forced) =>
            Effect.sync(() => {
              if (forced) counters.forced++
            })
        ).pipe(Effect.onInterrupt(() => current.terminate))
        // A thread still inside its task (a time limit, a cancelled caller) may take up to the busy grace to come
        // back from a native call: it ends in the background, and this slot takes the next job on a new thread at
        // once, so the queue never waits for it (for a while the pool holds one thread more than its size).
        if (current.running !== undefined && !closed) return FiberSet.run(retiring, ending).pipe(Effect.asVoid)
        return ending
      })
      /** Runs a job, answers its caller, then keeps, recycles or replaces the thread. */
      const handle = (job: Job) =>
        Effect.gen(function* () {
          const outcome = yield* Effect.gen(function* () {
            thread ??= yield* start
            const cancelled: Outcome = { _tag: "Cancelled" }
            return yield* Effect.raceFirst(runOn(thread, job), Deferred.await(job.cancelled).pipe(Effect.as(cancelled)))
          }).pipe(
            Effect.catch((error) => Effect.succeed<Outcome>({ _tag: "Broken", error })),
            // A bug here must fail this job, not end the slot (its callers would wait for ever).
            Effect.catchDefect((defect) =>
              Effect.succeed<Outcome>({
                _tag: "Broken",
                error: new PoolError({ reason: "WorkerFailed", message: `the pool failed: ${String(defect)}` })
              })
            ),
            Effect.onInterrupt(() => Deferred.fail(job.result, closedError()))
          )
          // The caller is answered first; stopping or recycling the thread happens while the slot stays busy.
          if (outcome._tag === "Done") {
            counters.completed++
            yield* Deferred.succeed(job.result, outcome.output)
            const reason = thread === undefined ? undefined : recycleReason(thread)
            if (reason !== undefined) {
              counters.recycled++
              yield* Effect.logDebug(`recycling worker thread ${thread?.threadId}: ${reason}`)
              yield* retire
            }
            return
          }
          if (outcome._tag === "Broken") {
            yield* Deferred.fail(job.result, outcome.error)
            yield* Effect.logWarning(
              `replacing worker thread ${thread?.threadId ?? "(none)"}: ${outcome.error.message}`
            )
          }
          if (thread !== undefined) {
            counters.replaced++
            yield* retire
          }
        })
      const serveOne = Effect.gen(function* () {
        const job = yield* Queue.take(queue)
        pending.delete(job)
        if (Deferred.isDoneUnsafe(job.cancelled)) return
        counters.busy++
        counters.maxBusy = Math.max(counters.maxBusy, counters.busy)
        yield* handle(job).pipe(Effect.ensuring(Effect.sync(() => counters.busy--)))
      })
      return yield* Effect.forever(serveOne).pipe(Effect.ensuring(retire))
    })

    const slots = yield* Effect.forEach(Array.from({ length: options.size }), () => Effect.forkDetach(slot))

    yield* Effect.addFinalizer(() =>
      Effect.gen(function* () {
        closed = true
        yield* Queue.shutdown(queue)
        for (const job of pending) yield* Deferred.fail(job.result, closedError())
        pending.clear()
        // Slots finishing a task find the queue shut down and end, terminating their threads.
        yield* Fiber.awaitAll(slots).pipe(Effect.timeoutOption(options.closeGraceMs))
        yield* Fiber.interruptAll(slots)
        yield* FiberSet.awaitEmpty(retiring).pipe(Effect.timeoutOption(options.cancelGraceMs))
      })
    )

    const run = (input: unknown, transfer?: ReadonlyArray<Transferable>): Effect.Effect<unknown, PoolError> =>
      Effect.suspend(() => {
        if (closed) return Effect.fail(closedError())
        const job: Job = {
          id: nextId++,
          input,
          transfer,
          result: Deferred.makeUnsafe<unknown, PoolError>(),
          cancelled: Deferred.makeUnsafe<void>()
        }
        pending.add(job)
        return Queue.offer(queue, job).pipe(
          Effect.flatMap((offered) => (offered ? Deferred.await(job.result) : Effect.fail(closedError()))),
          Effect.onInterrupt(() =>
            Effect.sync(() => pending.delete(job)).pipe(Effect.andThen(Deferred.succeed(job.cancelled, undefined)))
          )
        )
      })

    const stats = Effect.map(
      FiberSet.size(retiring),
      (busyRetiring): Stats => ({ size: options.size, ...counters, retiring: busyRetiring, queued: pending.size })
    )

    return { run, stats } satisfies Pool
  })

const broken = (reason: "TimeLimit" | "WorkerFailed", message: string): Outcome => ({
  _tag: "Broken",
  error: new PoolError({ reason, message })
})

// A thrown error's stack is for the logs; the task's message keeps the first line.
const firstLine = (text: string) => text.split("\n", 1)[0] ?? text
