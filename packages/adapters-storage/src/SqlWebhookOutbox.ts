/**
 * The `WebhookOutbox` port over SQL (PostgreSQL or PGlite): deliveries claimed with `FOR UPDATE SKIP LOCKED` by any
 * number of dispatchers, each later write fenced by the claim's token, wake-ups by LISTEN on the outbox's channel,
 * and the stream of events for embedders.
 */

import type { Timestamp } from "@legible/core"
import { Errors, type Extraction, Webhook } from "@legible/core"
import { Deferred, Duration, Effect, Layer, Option, Ref, Stream } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "./Database.js"
import { fromSqlError } from "./internal/errors.js"
import { keepListening } from "./internal/listening.js"
import { toNumber, ts } from "./internal/sql.js"
import { CHANNEL } from "./internal/webhookSchema.js"

/** Options of the SQL outbox. */
export interface Options {
  /** Wait before listening again after the listening connection failed. */
  readonly relistenMs?: number | undefined
  /** How often the event stream looks for new events when no notification arrives. */
  readonly streamPollMs?: number | undefined
  /**
   * How long the event stream keeps looking back for events committed out of `seq` order (a transaction that took
   * its `seq` before another one committed first). Every event-writing transaction is one short statement.
   */
  readonly streamLookbackMs?: number | undefined
}

/** The channel the outbox trigger notifies at commit. */
export const channel = CHANNEL

const storageError = fromSqlError("SqlWebhookOutbox")

interface EventColumns {
  readonly event_id: string
  readonly type: Webhook.EventType
  readonly client_id: string
  readonly sandbox: boolean
  readonly extraction_id: string
  readonly status: Extraction.Status
  readonly previous_status: Extraction.Status
  readonly skill_name: string
  readonly skill_id: string
  readonly origin_name: string
  readonly last_modification: Timestamp.Timestamp
  readonly created_at: Timestamp.Timestamp
}

const eventColumns = [
  "e.id::text AS event_id",
  "e.type",
  "e.client_id",
  "e.sandbox",
  "e.extraction_id::text AS extraction_id",
  "e.status",
  "e.previous_status",
  "e.skill_name",
  "e.skill_id::text AS skill_id",
  "e.origin_name",
  ts("e.last_modification", "last_modification"),
  ts("e.created_at", "created_at")
].join(", ")

const toEvent = (row: EventColumns): Webhook.Event => ({
  id: row.event_id,
  type: row.type,
  timestamp: row.created_at,
  clientId: row.client_id,
  sandbox: row.sandbox,
  data: {
    extraction_id: row.extraction_id,
    status: row.status,
    previous_status: row.previous_status,
    skill_name: row.skill_name,
    habilidad_id: row.skill_id,
    origin_name: row.origin_name,
    last_modification: row.last_modification
  }
})

interface ClaimedRow extends EventColumns {
  readonly id: string
  readonly token: string
  readonly endpoint_id: string
  readonly attempts: number
  readonly url: string
  readonly secret: string
  readonly previous_secret: string | null
  readonly failing_since_ms: number | null
}

const outcomeOf = (next: Webhook.Next): Webhook.Attempt["outcome"] =>
  next._tag === "Delivered"
    ? "delivered"
    : next._tag === "Retry"
      ? "retrying"
      : next.disable === null
        ? "failed"
        : "disabled"

// Waiters never block for less than this: a due delivery another dispatcher is claiming right now is skipped by
// SKIP LOCKED, and without a floor the waiter would spin until that claim commits.
const MIN_WAIT_MS = 20
// The event stream forgets the oldest gaps beyond this many (a burst of rolled-back transactions).
const MAX_GAPS = 10_000

/** Builds the outbox on the current `SqlClient`; every time comes from the database clock. */
export const make = Effect.fnUntraced(function* (options: Options = {}) {
  const sql = (yield* SqlClient.SqlClient).withoutTransforms()
  const event = sql.literal(eventColumns)

  const claim = (workerId: string, leaseMs: number, limit: number) =>
    sql<ClaimedRow>`
      WITH picked AS (
        SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE w.enabled AND ((d.state = 'pending' AND d.next_attempt_at <= now())
          OR (d.state = 'running' AND d.lease_until < now()))
        ORDER BY d.next_attempt_at
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_deliveries d SET state = 'running', attempts = d.attempts + 1, locked_by = ${workerId},
          lease_token = gen_random_uuid(),
          lease_until = now() + ${Math.round(leaseMs)}::integer * interval '1 millisecond', updated_at = now()
        FROM picked WHERE d.id = picked.id
        RETURNING d.id, d.endpoint_id, d.event_id, d.lease_token, d.attempts
      )
      SELECT c.id::text AS id, c.lease_token::text AS token, c.endpoint_id::text AS endpoint_id, c.attempts,
        w.url, w.secret, CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END AS previous_secret,
        (extract(epoch FROM w.failing_since) * 1000)::float8 AS failing_since_ms, ${event}
      FROM claimed c JOIN webhook_endpoints w ON w.id = c.endpoint_id JOIN webhook_events e ON e.id = c.event_id
    `.pipe(
      Effect.mapError(storageError),
      Effect.map((rows) =>
        rows.map(
          (row): Webhook.Delivery => ({
            id: row.id,
            token: row.token,
            endpointId: row.endpoint_id,
            url: row.url,
            secrets: row.previous_secret === null ? [row.secret] : [row.secret, row.previous_secret],
            event: toEvent(row),
            attempt: row.attempts,
            failingSinceMs: row.failing_since_ms === null ? null : Number(row.failing_since_ms)
          })
        )
      ),
      Effect.withSpan("SqlWebhookOutbox.claim")
    )

  // One statement: the fenced delivery update, its attempt in the log, and the endpoint's failure streak (cleared by
  // a success, started by a failure) or its disabling commit together.
  const settle = (delivery: Webhook.Delivery, attempt: Webhook.AttemptRecord, next: Webhook.Next) => {
    const state = next._tag === "Delivered" ? "delivered" : next._tag === "Retry" ? "pending" : "failed"
    const delayMs = next._tag === "Retry" ? Math.max(0, Math.round(next.delayMs)) : 0
    const disable = next._tag === "Failed" ? next.disable : null
    const delivered = next._tag === "Delivered"
    return sql`
      WITH d AS (
        UPDATE webhook_deliveries SET state = ${state},
          next_attempt_at = now() + ${delayMs}::integer * interval '1 millisecond',
          locked_by = NULL, lease_token = NULL, lease_until = NULL, updated_at = now()
        WHERE id = ${delivery.id} AND lease_token = ${delivery.token} AND state = 'running'
        RETURNING endpoint_id, event_id
      ), a AS (
        INSERT INTO webhook_attempts (id, endpoint_id, event_id, attempt, status_code, latency_ms, error, outcome,
          created_at)
        SELECT gen_random_uuid(), d.endpoint_id, d.event_id, ${delivery.attempt}, ${attempt.statusCode},
          ${Math.max(0, Math.round(attempt.latencyMs))}, ${attempt.error}, ${outcomeOf(next)}, now()
        FROM d
        RETURNING 1
      ), w AS (
        UPDATE webhook_endpoints w SET
          failing_since = CASE WHEN ${delivered} THEN NULL ELSE coalesce(w.failing_since, now()) END,
          enabled = CASE WHEN ${disable}::text IS NULL THEN w.enabled ELSE false END,
          disabled_reason = coalesce(${disable}::text, w.disabled_reason)
        FROM d WHERE w.id = d.endpoint_id
        RETURNING 1
      )
      SELECT 1 AS settled FROM d
    `.pipe(
      Effect.mapError(storageError),
      Effect.flatMap((rows) =>
        rows.length === 0 ? Effect.fail(new Errors.LeaseLost({ jobId: delivery.id })) : Effect.void
      ),
      Effect.withSpan("SqlWebhookOutbox.settle")
    )
  }

  const prune = (before: Timestamp.Timestamp) =>
    sql<{ n: bigint | number }>`
      WITH old AS (
        DELETE FROM webhook_events e
        WHERE e.created_at < ${before}::timestamptz AND NOT EXISTS (
          SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.state IN ('pending', 'running'))
        RETURNING 1
      )
      SELECT count(*) AS n FROM old
    `.pipe(
      Effect.mapError(storageError),
      Effect.map((rows) => toNumber(rows[0]?.n ?? 0)),
      Effect.withSpan("SqlWebhookOutbox.prune")
    )

  // Milliseconds until a delivery falls due without a notification (a retry, or a lapsed lease).
  const nextDueMs = sql<{ ms: number | null }>`
    SELECT (extract(epoch FROM least(
      (SELECT min(next_attempt_at) FROM webhook_deliveries WHERE state = 'pending'),
      (SELECT min(lease_until) FROM webhook_deliveries WHERE state = 'running')
    ) - now()) * 1000)::float8 AS ms
  `.pipe(
    Effect.mapError(storageError),
    Effect.map((rows) => (rows[0]?.ms === null || rows[0]?.ms === undefined ? null : Number(rows[0].ms)))
  )

  // Wake-ups, as in `SqlJobQueue`: `pending` remembers a notification that arrived while nobody waited.
  const wake = yield* Ref.make({ pending: false, waiters: Deferred.makeUnsafe<void>() })
  const signal = Ref.modify(wake, (s) => [s.waiters, { pending: true, waiters: Deferred.makeUnsafe<void>() }]).pipe(
    Effect.flatMap((waiters) => Deferred.succeed(waiters, undefined))
  )
  const waitForSignal = (waitMs: number) =>
    Effect.gen(function* () {
      const waiters = yield* Ref.modify(wake, (s) =>
        s.pending ? [undefined, { ...s, pending: false }] : [s.waiters, s]
      )
      if (waiters === undefined) return
      yield* Deferred.await(waiters).pipe(Effect.timeoutOption(Duration.millis(Math.max(MIN_WAIT_MS, waitMs))))
      yield* Ref.update(wake, (s) => ({ ...s, pending: false }))
    })

  const awaitWork = (timeoutMs: number) =>
    Effect.flatMap(nextDueMs, (due) => waitForSignal(Math.min(timeoutMs, due ?? timeoutMs))).pipe(
      Effect.withSpan("SqlWebhookOutbox.awaitWork")
    )

  const notifications = yield* Effect.serviceOption(Database.Notifications)
  if (Option.isSome(notifications)) {
    yield* keepListening(notifications.value.listen, CHANNEL, options.relistenMs ?? 1_000, signal, "SqlWebhookOutbox")
  }

  // The stream reads by `seq` from the end of the table at its start. A transaction may commit after one with a
  // higher `seq`: the numbers skipped over are remembered as gaps and looked for again on each poll, until they
  // are found or older than the lookback (a rolled-back transaction leaves a gap that never fills).
  const streamPollMs = options.streamPollMs ?? 500
  const lookbackMs = options.streamLookbackMs ?? 30_000
  const events: Stream.Stream<Webhook.Event, Errors.StorageError> = Stream.unwrap(
    Effect.gen(function* () {
      const start = yield* sql<{ seq: bigint | number | null }>`SELECT max(seq) AS seq FROM webhook_events`.pipe(
        Effect.mapError(storageError)
      )
      let high = BigInt(start[0]?.seq ?? 0)
      const gaps = new Map<bigint, number>()
      const poll = Effect.gen(function* () {
        const nowMs = Date.now()
        for (const [seq, since] of gaps) if (nowMs - since > lookbackMs || gaps.size > MAX_GAPS) gaps.delete(seq)
        const missing = [...gaps.keys()].map(String)
        const rows = yield* sql<EventColumns & { seq: bigint | number }>`
          SELECT e.seq, ${event} FROM webhook_events e
          WHERE e.seq > ${high.toString()}::bigint ${missing.length > 0 ? sql`OR ${sql.in("e.seq", missing)}` : sql``}
          ORDER BY e.seq LIMIT 1000
        `.pipe(Effect.mapError(storageError))
        const fresh: Array<Webhook.Event> = []
        for (const row of rows) {
          const seq = BigInt(row.seq)
          if (seq <= high) {
            if (!gaps.delete(seq)) continue
          } else {
            for (let skipped = high + 1n; skipped < seq; skipped++) gaps.set(skipped, nowMs)
            high = seq
          }
          fresh.push(toEvent(row))
        }
        if (fresh.length === 0) yield* waitForSignal(streamPollMs)
        return fresh
      })
      return Stream.fromEffectRepeat(poll).pipe(Stream.flattenIterable)
    })
  )

  return Webhook.WebhookOutbox.of({ claim, settle, awaitWork, prune, events })
})

/** The outbox as a layer over the application's `SqlClient` (and `Database.Notifications` when provided). */
export const layer = (options: Options = {}): Layer.Layer<Webhook.WebhookOutbox, never, SqlClient.SqlClient> =>
  Layer.effect(Webhook.WebhookOutbox, make(options))
