import { Errors, Extraction, Ports, StoredResult } from "@legible/core"
import { Deferred, Duration, Effect, Layer, Option, Ref, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import * as Database from "./Database.js"
import { fromSqlError } from "./internal/errors.js"
import { keepListening, type Listen as ListenOn } from "./internal/listening.js"

/** Options of the SQL job queue. */
export interface Options {
  /** The channel `ExtractionStore.submit` notifies after inserting a job. */
  readonly channel?: string
  /** Wait before listening again after the listening connection failed. */
  readonly relistenMs?: number
  /** Where wake-ups come from; by default `Database.Notifications` when provided, else `awaitWork` only polls. */
  readonly listen?: Listen
}

/** The channel submissions notify by default. */
export const defaultChannel = "legible_jobs"

/** Opens a listener on a channel; its queue fails when the connection is lost. */
export type Listen = ListenOn

const ClaimedRow = Schema.Struct({
  id: Schema.String,
  extraction_id: Schema.String,
  lease_token: Schema.String,
  attempts: Schema.Number,
  max_attempts: Schema.Number
})

const DueRow = Schema.Struct({ ms: Schema.NullOr(Schema.Number) })

const storageError = fromSqlError("SqlJobQueue")

const corrupt = (error: unknown): Errors.StorageError =>
  new Errors.StorageError({ reason: "Corrupt", message: `SqlJobQueue: unexpected row: ${String(error)}`, cause: error })

// Woken waiters never block for less than this: a due job that another worker is claiming right now is skipped
// by `SKIP LOCKED`, and without a floor the waiter would spin until that claim commits.
const minWaitMs = 20

/**
 * Builds the queue on the current `SqlClient` (PostgreSQL or PGlite). Every write after the claim is fenced by
 * the lease token; every time comes from the database clock. `awaitWork` wakes on a notification (one listening
 * connection, re-opened after a failure), when the next retry or lapsed lease falls due, or at its timeout.
 */
export const make = Effect.fnUntraced(function* (options: Options = {}) {
  // Column names are ours, whatever name transforms the application configured on its client.
  const sql = (yield* SqlClient.SqlClient).withoutTransforms()
  const channel = options.channel ?? defaultChannel
  const decodeClaimed = Schema.decodeUnknownEffect(Schema.Array(ClaimedRow))
  const decodeDue = Schema.decodeUnknownEffect(Schema.Array(DueRow))

  const lost = (lease: Ports.Lease) => new Errors.LeaseLost({ jobId: lease.jobId })
  const fenced = (lease: Ports.Lease) => (rows: ReadonlyArray<unknown>) =>
    rows.length === 0 ? Effect.fail(lost(lease)) : Effect.void

  // The two kinds of claimable job are picked by separate index scans (`jobs_due_idx`, `jobs_lease_idx`), each
  // `LIMIT 1`, then the older one wins: one `WHERE (queued …) OR (lapsed …)` scan would bitmap-OR both indexes
  // and sort the whole backlog on every claim (an order of magnitude slower with a backlog, `MEASUREMENTS.md`).
  // The loser stays locked only until this statement ends.
  const claim = (workerId: string, leaseMs: number) =>
    sql`
      WITH queued AS (
        SELECT id, run_at, created_at FROM jobs
        WHERE state = 'queued' AND run_at <= now()
        ORDER BY run_at, created_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      ), lapsed AS (
        SELECT id, run_at, created_at FROM jobs
        WHERE state = 'running' AND lease_until < now() AND attempts < max_attempts
        ORDER BY run_at, created_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      ), picked AS (
        SELECT id FROM (SELECT * FROM queued UNION ALL SELECT * FROM lapsed) due
        ORDER BY run_at, created_at
        LIMIT 1
      ), job AS (
        UPDATE jobs SET
          state = 'running',
          attempts = attempts + 1,
          locked_by = ${workerId},
          lease_token = gen_random_uuid(),
          lease_until = now() + ${Math.round(leaseMs)}::integer * interval '1 millisecond',
          updated_at = now()
        FROM picked
        WHERE jobs.id = picked.id
        RETURNING jobs.id, jobs.extraction_id, jobs.lease_token, jobs.attempts, jobs.max_attempts
      ), extraction AS (
        UPDATE extractions e SET status = 'procesando', attempts = job.attempts, last_modification = now()
        FROM job WHERE e.id = job.extraction_id
        RETURNING e.id
      )
      SELECT id::text, extraction_id::text, lease_token::text, attempts, max_attempts FROM job
    `.pipe(
      Effect.mapError(storageError),
      Effect.flatMap((rows) => decodeClaimed(rows).pipe(Effect.mapError(corrupt))),
      Effect.map((rows): Ports.Lease | undefined => {
        const row = rows[0]
        return row === undefined
          ? undefined
          : {
              jobId: row.id,
              extractionId: row.extraction_id,
              workerId,
              token: row.lease_token,
              attempt: row.attempts,
              maxAttempts: row.max_attempts
            }
      }),
      Effect.withSpan("SqlJobQueue.claim")
    )

  const heartbeat = (lease: Ports.Lease, leaseMs: number) =>
    sql`
      UPDATE jobs SET lease_until = now() + ${Math.round(leaseMs)}::integer * interval '1 millisecond',
        updated_at = now()
      WHERE id = ${lease.jobId} AND lease_token = ${lease.token} AND state = 'running'
      RETURNING id
    `.pipe(Effect.mapError(storageError), Effect.flatMap(fenced(lease)), Effect.withSpan("SqlJobQueue.heartbeat"))

  // Each outcome is one statement: the job's fenced update (its lease given up) and its extraction's update commit
  // together; no row back means the lease was lost.
  const settle = (span: string, lease: Ports.Lease, job: Fragment, extraction: Fragment) =>
    sql`
      WITH job AS (
        UPDATE jobs SET ${job}, locked_by = NULL, lease_token = NULL, lease_until = NULL, updated_at = now()
        WHERE id = ${lease.jobId} AND lease_token = ${lease.token} AND state = 'running'
        RETURNING extraction_id, attempts
      )
      UPDATE extractions e SET ${extraction}, attempts = job.attempts, last_modification = now()
      FROM job WHERE e.id = job.extraction_id
      RETURNING e.id
    `.pipe(Effect.mapError(storageError), Effect.flatMap(fenced(lease)), Effect.withSpan(span))

  const complete = (lease: Ports.Lease, outcome: Extraction.ExtractionResult) => {
    const { status, errorMessage, result } = Extraction.settled(outcome)
    // Serialized once, here, for both reads: they send this text as it is (`StoredResult`), with the object-list
    // items in the skill's order that JSONB does not keep.
    const stored = StoredResult.serialize(result)
    return settle(
      "SqlJobQueue.complete",
      lease,
      sql`state = 'done', last_error = NULL`,
      sql`status = ${status}, result = ${JSON.stringify(result)}::jsonb, error_message = ${errorMessage},
        result_plain = ${stored.plain}, result_detailed = ${stored.detailed}`
    )
  }

  const retry = (lease: Ports.Lease, message: string, delayMs: number) =>
    settle(
      "SqlJobQueue.retry",
      lease,
      sql`state = 'queued', run_at = now() + ${Math.max(0, Math.round(delayMs))}::integer * interval '1 millisecond',
        last_error = ${message}`,
      sql`status = 'en cola'`
    )

  const fail = (lease: Ports.Lease, message: string) =>
    settle(
      "SqlJobQueue.fail",
      lease,
      sql`state = 'failed', last_error = ${message}`,
      sql`status = 'error', error_message = ${message}`
    )

  // The attempt is given back (`attempts - 1`): a graceful stop must not push a job towards its limit.
  const release = (lease: Ports.Lease) =>
    settle(
      "SqlJobQueue.release",
      lease,
      sql`state = 'queued', run_at = now(), attempts = greatest(attempts - 1, 0)`,
      sql`status = 'en cola'`
    )

  // A lapsed lease with no attempts left means every attempt died with its worker (a crash, an OOM kill, a
  // parser that takes the process down): nothing will ever finish it, so it ends here.
  const reap = () =>
    sql`
      WITH job AS (
        UPDATE jobs SET state = 'failed', locked_by = NULL, lease_token = NULL, lease_until = NULL,
          last_error = 'processing was interrupted ' || attempts || ' times (the worker stopped or crashed '
            || 'before finishing); giving up',
          updated_at = now()
        WHERE id IN (
          SELECT id FROM jobs
          WHERE state = 'running' AND lease_until < now() AND attempts >= max_attempts
          FOR UPDATE SKIP LOCKED
        )
        RETURNING extraction_id, attempts, last_error
      )
      UPDATE extractions e SET status = 'error', error_message = job.last_error, attempts = job.attempts,
        last_modification = now()
      FROM job WHERE e.id = job.extraction_id
      RETURNING e.id
    `.pipe(
      Effect.mapError(storageError),
      Effect.map((rows) => rows.map((row) => String(row.id))),
      Effect.withSpan("SqlJobQueue.reap")
    )

  // Milliseconds until the next job becomes claimable without a notification: a retry's `run_at`, or a lease
  // that lapses (its worker died). `null` when nothing is pending.
  const nextDueMs = sql`
    SELECT (extract(epoch FROM least(
      (SELECT min(run_at) FROM jobs WHERE state = 'queued'),
      (SELECT min(lease_until) FROM jobs WHERE state = 'running' AND attempts < max_attempts)
    ) - now()) * 1000)::float8 AS ms
  `.pipe(
    Effect.mapError(storageError),
    Effect.flatMap((rows) => decodeDue(rows).pipe(Effect.mapError(corrupt))),
    Effect.map((rows) => rows[0]?.ms ?? null)
  )

  // Wake-ups: `pending` remembers a notification that arrived while nobody waited, so a worker that found no
  // job just before a submission does not sleep through it.
  const wake = yield* Ref.make({ pending: false, waiters: Deferred.makeUnsafe<void>() })
  const signal = Ref.modify(wake, (state) => [
    state.waiters,
    { pending: true, waiters: Deferred.makeUnsafe<void>() }
  ]).pipe(Effect.flatMap((waiters) => Deferred.succeed(waiters, undefined)))

  const awaitWork = (timeoutMs: number) =>
    Effect.gen(function* () {
      const waiters = yield* Ref.modify(wake, (state) =>
        state.pending ? [undefined, { ...state, pending: false }] : [state.waiters, state]
      )
      if (waiters === undefined) return
      const due = yield* nextDueMs
      const waitMs = Math.max(minWaitMs, Math.min(timeoutMs, due ?? timeoutMs))
      yield* Deferred.await(waiters).pipe(Effect.timeoutOption(Duration.millis(waitMs)))
      yield* Ref.update(wake, (state) => ({ ...state, pending: false }))
    }).pipe(Effect.withSpan("SqlJobQueue.awaitWork"))

  const listen: Listen | undefined =
    options.listen ??
    Option.match(yield* Effect.serviceOption(Database.Notifications), {
      onNone: () => undefined,
      onSome: (notifications) => notifications.listen
    })

  if (listen !== undefined) {
    // One listening connection per queue, kept for the queue's lifetime: a failure never reaches a worker.
    yield* keepListening(listen, channel, options.relistenMs ?? 1_000, signal, "SqlJobQueue")
  }

  // A retry's `run_at` is news to this process's waiters, which sized their wait before it existed (with no job
  // due, as long as the poll interval): wake them to size it again, so the retry runs after its backoff rather
  // than at the next poll. Not a notification: a later wait is sized with the retry in view, and must not return
  // before it is due.
  const wakeWaiters = Ref.modify(wake, (state) => [
    state.waiters,
    { ...state, waiters: Deferred.makeUnsafe<void>() }
  ]).pipe(Effect.flatMap((waiters) => Deferred.succeed(waiters, undefined)))
  const retryAndWake = (lease: Ports.Lease, message: string, delayMs: number) =>
    Effect.tap(retry(lease, message, delayMs), () => wakeWaiters)

  return Ports.JobQueue.of({ claim, heartbeat, complete, retry: retryAndWake, fail, release, reap, awaitWork })
})

/** The job queue as a layer over the application's `SqlClient`. */
export const layer = (options: Options = {}): Layer.Layer<Ports.JobQueue, never, SqlClient.SqlClient> =>
  Layer.effect(Ports.JobQueue, make(options))
