import { Cause, Deferred, Effect, Exit, Fiber, FiberSet, Ref, Schema, Semaphore } from "effect"
import type { ExtractionResult } from "./Extraction.js"
import { JobQueue, type Lease } from "./Ports.js"
import * as Retry from "./Retry.js"

/** Why a job's attempt failed: `permanent` failures (a bad file, a provider's 400) are never retried. */
export class JobFailure extends Schema.TaggedError<JobFailure>()("JobFailure", {
  permanent: Schema.Boolean,
  message: Schema.String
}) {}

/** Processes one claimed job. Must be idempotent: delivery is at least once. */
export type JobHandler<R> = (lease: Lease) => Effect.Effect<ExtractionResult, JobFailure, R>

/** Options of a worker. */
export interface WorkerOptions<R> {
  readonly workerId: string
  readonly handler: JobHandler<R>
  /** Jobs processed at once. */
  readonly concurrency: number
  /** How long a claim holds a job without a heartbeat; heartbeats run every third of it. */
  readonly leaseMs: number
  /** Longest wait between polls when no notification arrives. */
  readonly pollMs: number
  readonly retry: Retry.RetryPolicy
  /** How often lapsed jobs with no attempts left are ended in `error`. */
  readonly reapEveryMs?: number
  readonly random?: () => number
}

/** A running worker. */
export interface RunningWorker {
  /** Stops claiming, waits up to `graceMs` for jobs in flight, then interrupts and releases the rest. */
  readonly stop: (graceMs: number) => Effect.Effect<void>
  /** Jobs in flight now. */
  readonly inFlight: Effect.Effect<number>
}

const describe = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error.message : String(error)
}

/**
 * Starts a worker in the current scope: it claims jobs while it has capacity, heartbeats each lease, and
 * completes, retries (exponential backoff, full jitter) or fails each job, every write fenced by the lease.
 * Closing the scope stops it at once (in-flight jobs released); `stop` is the graceful path.
 */
export const start = Effect.fn("Worker.start")(function* <R>(options: WorkerOptions<R>) {
  const queue = yield* JobQueue
  const random = options.random ?? Math.random
  const permits = yield* Semaphore.make(options.concurrency)
  const running = yield* FiberSet.make<void, never>()
  const stopping = yield* Ref.make(false)
  const stopped = yield* Deferred.make<void>()

  const settle = (lease: Lease, exit: Exit.Exit<ExtractionResult, JobFailure>) => {
    if (Exit.isSuccess(exit)) return queue.complete(lease, exit.value)
    const failure = Cause.findErrorOption(exit.cause)
    if (failure._tag === "Some" && failure.value.permanent) return queue.fail(lease, failure.value.message)
    const message = failure._tag === "Some" ? failure.value.message : `worker failure: ${describe(exit.cause)}`
    return Retry.canRetry(options.retry, lease.attempt)
      ? queue.retry(lease, message, Retry.backoff(options.retry, lease.attempt, random))
      : queue.fail(lease, `${message} (gave up after ${lease.attempt} attempts)`)
  }

  const process = (lease: Lease) =>
    Effect.gen(function* () {
      const handler = yield* Effect.forkChild(options.handler(lease), { startImmediately: true })
      const heartbeat = yield* Effect.forkChild(
        Effect.sleep(Math.max(1, Math.floor(options.leaseMs / 3))).pipe(
          Effect.andThen(queue.heartbeat(lease, options.leaseMs)),
          Effect.catchTag("StorageError", (e) => Effect.logWarning("heartbeat failed", e.message)),
          Effect.forever,
          Effect.catchTag("LeaseLost", () =>
            Effect.logWarning("lease lost; abandoning job", lease.jobId).pipe(Effect.andThen(Fiber.interrupt(handler)))
          )
        )
      )
      const exit = yield* Fiber.await(handler)
      yield* Fiber.interrupt(heartbeat)
      if (Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause)) {
        // Interrupted by a lost lease (nothing to write) or by a stop (give the job back).
        if (yield* Ref.get(stopping)) yield* queue.release(lease)
        return
      }
      yield* settle(lease, exit)
    }).pipe(
      Effect.onInterrupt(() => queue.release(lease).pipe(Effect.ignore)),
      Effect.catchTag("LeaseLost", () => Effect.logWarning("lease lost before the result was written", lease.jobId)),
      Effect.catchTag("StorageError", (e) =>
        Effect.logError("could not record the job's outcome; it will run again after its lease", e.message)
      ),
      Effect.annotateLogs({ jobId: lease.jobId, extractionId: lease.extractionId, attempt: lease.attempt })
    )

  const loop = Effect.gen(function* () {
    while (!(yield* Ref.get(stopping))) {
      yield* Semaphore.take(permits, 1)
      if (yield* Ref.get(stopping)) {
        yield* Semaphore.release(permits, 1)
        break
      }
      const lease = yield* queue
        .claim(options.workerId, options.leaseMs)
        .pipe(
          Effect.catchTag("StorageError", (e) =>
            Effect.logWarning("claim failed; retrying", e.message).pipe(Effect.as(undefined))
          )
        )
      if (lease === undefined) {
        yield* Semaphore.release(permits, 1)
        yield* Effect.raceFirst(
          queue.awaitWork(options.pollMs).pipe(Effect.catchTag("StorageError", () => Effect.sleep(options.pollMs))),
          Deferred.await(stopped)
        )
        continue
      }
      yield* FiberSet.run(running)(process(lease).pipe(Effect.ensuring(Semaphore.release(permits, 1))))
    }
  })

  const reaper = queue.reap().pipe(
    Effect.catchTag("StorageError", (e) => Effect.logWarning("reap failed", e.message).pipe(Effect.as(0))),
    Effect.andThen(Effect.sleep(options.reapEveryMs ?? options.leaseMs)),
    Effect.forever
  )

  const loopFiber = yield* Effect.forkScoped(loop)
  const reaperFiber = yield* Effect.forkScoped(reaper)

  const stop = (graceMs: number) =>
    Effect.gen(function* () {
      yield* Ref.set(stopping, true)
      yield* Deferred.succeed(stopped, undefined)
      yield* Fiber.interrupt(reaperFiber)
      yield* Fiber.await(loopFiber)
      const drained = yield* FiberSet.awaitEmpty(running).pipe(Effect.timeoutOption(graceMs))
      if (drained._tag === "None") yield* FiberSet.clear(running)
    })

  return { stop, inFlight: FiberSet.size(running) } satisfies RunningWorker
})
