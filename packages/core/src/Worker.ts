import { Cause, Clock, Deferred, Effect, Exit, Fiber, FiberSet, Ref, Schema, Semaphore } from "effect"
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

/** Options of a worker; those left out take `defaults`. */
export interface WorkerOptions<R> {
  readonly workerId: string
  readonly handler: JobHandler<R>
  /** Jobs processed at once. */
  readonly concurrency?: number | undefined
  /** How long a claim holds a job without a heartbeat; heartbeats run every third of it. */
  readonly leaseMs?: number | undefined
  /** Longest wait between polls when no notification arrives. */
  readonly pollMs?: number | undefined
  /** Backoff of transient failures; attempts are capped by the smaller of its `maxAttempts` and the job's. */
  readonly retry?: Partial<Retry.RetryPolicy> | undefined
  /** How often lapsed jobs with no attempts left are ended in `error`. Default: every lease. */
  readonly reapEveryMs?: number | undefined
  readonly random?: (() => number) | undefined
}

/** The jobs a worker may process at once: 1 to 256. */
export const Concurrency = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 256 }))

/** The defaults of `WorkerOptions`. */
export const defaults = {
  concurrency: 2,
  leaseMs: 60_000,
  pollMs: 5_000,
  retry: Retry.defaultPolicy
} as const

/** A running worker. */
export interface RunningWorker {
  /** Stops claiming, waits up to `graceMs` for jobs in flight, then interrupts and releases the rest. */
  readonly stop: (graceMs: number) => Effect.Effect<void>
  /** Jobs in flight now. */
  readonly inFlight: Effect.Effect<number>
}

// Every retry and every final failure is logged (the runJob span annotates the job, extraction and attempt); the
// message is the JobFailure's, which names the stage and reason and never holds document bytes or secrets.
const logFailure = (what: string, reason: "permanent" | "attempts exhausted" | "transient", message: string) =>
  (reason === "transient" ? Effect.logWarning(what) : Effect.logError(what)).pipe(
    Effect.annotateLogs({ reason, message })
  )

const describe = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Error ? error.message : String(error)
}

/**
 * Starts a worker in the current scope: it claims jobs while it has capacity, heartbeats each lease, and
 * completes, retries (exponential backoff, full jitter) or fails each job, every write fenced by the lease.
 * Closing the scope stops it at once (in-flight jobs released); `stop` is the graceful path.
 */
export const start = Effect.fn("Worker.start")(function* <R>(given: WorkerOptions<R>) {
  const options = {
    ...given,
    concurrency: given.concurrency ?? defaults.concurrency,
    leaseMs: given.leaseMs ?? defaults.leaseMs,
    pollMs: given.pollMs ?? defaults.pollMs,
    retry: { ...defaults.retry, ...given.retry }
  }
  // A programming error, not a runtime failure: with 0 permits the worker would never claim anything.
  if (!Schema.is(Concurrency)(options.concurrency) || !Schema.is(Retry.MaxAttempts)(options.retry.maxAttempts)) {
    return yield* Effect.die(
      new RangeError(`Worker.start: concurrency ${options.concurrency} or maxAttempts out of range`)
    )
  }
  const queue = yield* JobQueue
  const random = options.random ?? Math.random
  const permits = yield* Semaphore.make(options.concurrency)
  const running = yield* FiberSet.make<void, never>()
  const stopping = yield* Ref.make(false)
  const stopped = yield* Deferred.make<void>()
  const heartbeatEveryMs = Math.max(1, Math.floor(options.leaseMs / 3))

  const settle = (lease: Lease, exit: Exit.Exit<ExtractionResult, JobFailure>) => {
    if (Exit.isSuccess(exit)) return queue.complete(lease, exit.value)
    const failure = Cause.findErrorOption(exit.cause)
    if (failure._tag === "Some" && failure.value.permanent) {
      return queue
        .fail(lease, failure.value.message)
        .pipe(Effect.andThen(logFailure("extraction failed", "permanent", failure.value.message)))
    }
    const message = failure._tag === "Some" ? failure.value.message : `worker failure: ${describe(exit.cause)}`
    // The job's own limit is the one the queue's claim and reaper enforce; never retry past it.
    const policy = { ...options.retry, maxAttempts: Math.min(options.retry.maxAttempts, lease.maxAttempts) }
    if (!Retry.canRetry(policy, lease.attempt)) {
      return queue
        .fail(lease, `${message} (gave up after ${lease.attempt} attempts)`)
        .pipe(Effect.andThen(logFailure("extraction failed", "attempts exhausted", message)))
    }
    const delayMs = Retry.backoff(policy, lease.attempt, random)
    return queue
      .retry(lease, message, delayMs)
      .pipe(
        Effect.andThen(
          logFailure("extraction attempt failed; retrying", "transient", message).pipe(
            Effect.annotateLogs({ retryInMs: delayMs })
          )
        )
      )
  }

  // Extends the lease every third of it. On `LeaseLost`, or when no heartbeat got through for a whole lease
  // (the database is unreachable, so another worker may take the job once it is back), the attempt is abandoned.
  const keepLease = (lease: Lease, abandon: Effect.Effect<void>) =>
    Effect.gen(function* () {
      let extendedAt = yield* Clock.currentTimeMillis
      while (true) {
        yield* Effect.sleep(heartbeatEveryMs)
        const beat = yield* Effect.result(queue.heartbeat(lease, options.leaseMs))
        const now = yield* Clock.currentTimeMillis
        if (beat._tag === "Success") {
          extendedAt = now
          continue
        }
        if (beat.failure._tag === "LeaseLost") {
          yield* Effect.logWarning("lease lost; abandoning the job")
          return yield* abandon
        }
        yield* Effect.logWarning("heartbeat failed", beat.failure.message)
        if (now - extendedAt >= options.leaseMs) {
          yield* Effect.logWarning("no heartbeat got through for a whole lease; abandoning the job")
          return yield* abandon
        }
      }
    })

  const runJob = (lease: Lease) =>
    Effect.gen(function* () {
      const abandoned = yield* Ref.make(false)
      const handler = yield* Effect.forkChild(options.handler(lease), { startImmediately: true })
      const heartbeat = yield* Effect.forkChild(
        keepLease(lease, Ref.set(abandoned, true).pipe(Effect.andThen(Fiber.interrupt(handler))))
      )
      const exit = yield* Fiber.await(handler).pipe(
        // Stopped from outside (a stop past its grace, or the scope closing): stop the handler first, then give
        // the job back so another worker takes it now rather than after the lease.
        Effect.onInterrupt(() =>
          Fiber.interrupt(heartbeat).pipe(
            Effect.andThen(Fiber.interrupt(handler)),
            Effect.andThen(queue.release(lease)),
            Effect.catchCause((cause) => Effect.logWarning("could not release the job", cause))
          )
        )
      )
      yield* Fiber.interrupt(heartbeat)
      // The lease is gone: whatever we write would be refused, and another worker owns the job.
      if (yield* Ref.get(abandoned)) return
      // One short statement; interrupting it could leave the outcome unknown and cost the job an attempt.
      yield* Effect.uninterruptible(settle(lease, exit))
    }).pipe(
      Effect.catchTag("LeaseLost", () => Effect.logWarning("lease lost before the result was written")),
      Effect.catchTag("StorageError", (e) =>
        Effect.logError("could not record the job's outcome; it will run again after its lease", e.message)
      ),
      Effect.catchDefect((defect) =>
        Effect.logError("processing the job died; it will run again after its lease", defect)
      ),
      Effect.annotateLogs({ jobId: lease.jobId, extractionId: lease.extractionId, attempt: lease.attempt })
    )

  // Claiming and registering the job happen uninterruptibly: a claim whose lease nobody tracks would sit
  // unprocessed until the lease lapses, and cost the job an attempt.
  const claimOne = Effect.uninterruptible(
    Effect.gen(function* () {
      const lease = yield* queue.claim(options.workerId, options.leaseMs).pipe(
        Effect.catchTag("StorageError", (e) =>
          Effect.logWarning("claim failed; retrying", e.message).pipe(Effect.as(undefined))
        ),
        // A defect here would end the loop and leave a live process that never claims again.
        Effect.catchDefect((defect) => Effect.logError("claim died; retrying", defect).pipe(Effect.as(undefined)))
      )
      if (lease === undefined) {
        yield* Semaphore.release(permits, 1)
        return false
      }
      yield* FiberSet.run(running)(runJob(lease).pipe(Effect.ensuring(Semaphore.release(permits, 1))))
      return true
    })
  )

  const loop = Effect.gen(function* () {
    while (!(yield* Ref.get(stopping))) {
      yield* Semaphore.take(permits, 1)
      if (yield* Ref.get(stopping)) break
      if (yield* claimOne) continue
      yield* Effect.raceFirst(
        queue.awaitWork(options.pollMs).pipe(
          Effect.catchTag("StorageError", () => Effect.sleep(options.pollMs)),
          Effect.catchDefect((defect) =>
            Effect.logError("awaitWork died", defect).pipe(Effect.andThen(Effect.sleep(options.pollMs)))
          )
        ),
        Deferred.await(stopped)
      )
    }
  })

  const reaper = queue.reap().pipe(
    Effect.flatMap((ids) =>
      Effect.forEach(ids, (extractionId) =>
        logFailure("extraction failed", "attempts exhausted", "its worker stopped or crashed on every attempt").pipe(
          Effect.annotateLogs({ extractionId })
        )
      )
    ),
    Effect.catchTag("StorageError", (e) => Effect.logWarning("reap failed", e.message)),
    Effect.catchDefect((defect) => Effect.logError("reap died", defect)),
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
      // The loop may be waiting for a free permit or for work: both are safe to interrupt (a claim in progress
      // finishes first), so no new job is claimed from here on.
      yield* Fiber.interrupt(loopFiber)
      const drained = yield* FiberSet.awaitEmpty(running).pipe(Effect.timeoutOption(graceMs))
      if (drained._tag === "None") yield* FiberSet.clear(running)
    }).pipe(Effect.withSpan("Worker.stop"))

  return { stop, inFlight: FiberSet.size(running) } satisfies RunningWorker
})
