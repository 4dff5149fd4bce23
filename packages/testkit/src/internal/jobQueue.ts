import { Errors, Extraction, Ports, Timestamp } from "@legible/core"
import { Clock, Effect } from "effect"
import { internalId, type Job, notify, type State } from "./state.js"
import { recordEvent } from "./webhooks.js"

const isClaimable = (job: Job, now: number): boolean =>
  (job.state === "queued" && job.runAt <= now) ||
  (job.state === "running" && job.leaseUntil !== null && job.leaseUntil < now && job.attempts < job.maxAttempts)

/**
 * When the next job becomes claimable without a notification: the earliest `run_at` of a queued job, or the moment
 * a lease with attempts left lapses (the first millisecond after `lease_until`).
 */
const nextDue = (state: State): number | undefined => {
  let due: number | undefined
  for (const job of state.jobs.values()) {
    const at =
      job.state === "queued"
        ? job.runAt
        : job.state === "running" && job.leaseUntil !== null && job.attempts < job.maxAttempts
          ? job.leaseUntil + 1
          : undefined
    if (at !== undefined && (due === undefined || at < due)) due = at
  }
  return due
}

/** Oldest due first: by `run_at`, then by insertion (the SQL `ORDER BY run_at, created_at`). */
const oldestFirst = (a: Job, b: Job): number => a.runAt - b.runAt || a.seq - b.seq

const updateExtraction = (
  state: State,
  id: string,
  change: (record: Extraction.ExtractionRecord) => Extraction.ExtractionRecord
): void => {
  const record = state.extractions.get(id)
  if (record === undefined) return
  const changed = change(record)
  state.extractions.set(id, changed)
  recordEvent(state, record, changed)
}

/** The job a lease still holds, or `LeaseLost` once another claim, a reap or an earlier outcome replaced it. */
const held = (state: State, lease: Ports.Lease): Effect.Effect<Job, Errors.LeaseLost> => {
  const job = state.jobs.get(lease.jobId)
  return job !== undefined && job.state === "running" && job.token === lease.token
    ? Effect.succeed(job)
    : Effect.fail(new Errors.LeaseLost({ jobId: lease.jobId }))
}

/** Ends a job's run: the job takes `next` without its lock, its extraction `change`, the job's attempts and `at`. */
const settle = (
  state: State,
  job: Job,
  next: Job["state"],
  at: Timestamp.Timestamp,
  change: Partial<Extraction.ExtractionRecord>
): void => {
  job.state = next
  job.lockedBy = null
  job.token = null
  job.leaseUntil = null
  updateExtraction(state, job.extractionId, (r) => ({ ...r, ...change, attempts: job.attempts, lastModification: at }))
}

/** A job that ends in `error` with `message`. */
const failed = (state: State, job: Job, message: string, at: Timestamp.Timestamp): void => {
  job.lastError = message
  settle(state, job, "failed", at, { status: "error", errorMessage: message })
}

/** A fenced write: runs `apply` on the held job at the current time, in one synchronous step. */
const fenced = (
  state: State,
  lease: Ports.Lease,
  apply: (job: Job, now: number, at: Timestamp.Timestamp) => void
): Effect.Effect<void, Errors.LeaseLost> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.flatMap(Timestamp.now, (at) =>
      Effect.suspend(() => Effect.map(held(state, lease), (job) => apply(job, now, at)))
    )
  )

/**
 * The in-memory `JobQueue`: claims take the oldest due job (or a lapsed lease with attempts left) under a fresh
 * fencing token; every later write checks the token. Time comes from Effect's `Clock`, so `TestClock` drives leases,
 * retry delays and `awaitWork` timeouts.
 */
export const make = (state: State): Ports.JobQueue["Service"] =>
  Ports.JobQueue.of({
    claim: (workerId, leaseMs) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.sync((): Ports.Lease | undefined => {
          const job = [...state.jobs.values()].filter((j) => isClaimable(j, now)).sort(oldestFirst)[0]
          if (job === undefined) return undefined
          job.state = "running"
          job.attempts++
          job.lockedBy = workerId
          job.token = internalId(state, "b")
          job.leaseUntil = now + leaseMs
          const attempts = job.attempts
          const lastModification = Timestamp.fromMillis(now)
          updateExtraction(state, job.extractionId, (r) => ({ ...r, status: "procesando", attempts, lastModification }))
          return {
            jobId: job.id,
            extractionId: job.extractionId,
            workerId,
            token: job.token,
            attempt: job.attempts,
            maxAttempts: job.maxAttempts
          }
        })
      ),
    heartbeat: (lease, leaseMs) =>
      fenced(state, lease, (job, now) => {
        job.leaseUntil = now + leaseMs
      }),
    complete: (lease, result) =>
      fenced(state, lease, (job, _now, at) => {
        job.lastError = null
        settle(state, job, "done", at, Extraction.settled(result))
      }),
    retry: (lease, message, delayMs) =>
      fenced(state, lease, (job, now, at) => {
        job.runAt = now + Math.max(0, Math.round(delayMs))
        job.lastError = message
        settle(state, job, "queued", at, { status: "en cola" })
        notify(state)
      }),
    fail: (lease, message) => fenced(state, lease, (job, _now, at) => failed(state, job, message, at)),
    release: (lease) =>
      fenced(state, lease, (job, now, at) => {
        job.attempts = Math.max(0, job.attempts - 1)
        job.runAt = now
        settle(state, job, "queued", at, { status: "en cola" })
        notify(state)
      }),
    reap: () =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.flatMap(Timestamp.now, (at) =>
          Effect.sync(() => {
            const reaped: Array<string> = []
            for (const job of state.jobs.values()) {
              if (job.state !== "running" || job.leaseUntil === null || job.leaseUntil >= now) continue
              if (job.attempts < job.maxAttempts) continue
              failed(
                state,
                job,
                `processing was interrupted ${job.attempts} times (the worker stopped or crashed before finishing); ` +
                  "giving up",
                at
              )
              reaped.push(job.extractionId)
            }
            return reaped
          })
        )
      ),
    awaitWork: (timeoutMs) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const due = nextDue(state)
        const waitMs = Math.min(timeoutMs, due === undefined ? timeoutMs : due - now)
        return waitMs <= 0
          ? Effect.void
          : Effect.raceFirst(
              Effect.callback<void>((resume) => {
                const wake = () => resume(Effect.void)
                state.waiters.add(wake)
                return Effect.sync(() => state.waiters.delete(wake))
              }),
              Effect.sleep(waitMs)
            )
      })
  })
