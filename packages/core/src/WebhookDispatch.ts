import { Clock, Duration, Effect, Random } from "effect"
import * as Timestamp from "./Timestamp.js"
import {
  body,
  type Delivery,
  type DeliveryPolicy,
  decide,
  headers,
  type Next,
  type Response,
  STANDARD_SCHEDULE_MS,
  WebhookOutbox,
  WebhookTransport
} from "./Webhook.js"

/** Options of a dispatcher; those left out take `defaults`. */
export interface Options {
  readonly workerId: string
  /** Deliveries in flight at once (one claiming loop each). */
  readonly concurrency?: number | undefined
  /** How long a claim holds a delivery: longer than the transport's timeout, so a live attempt keeps its claim. */
  readonly leaseMs?: number | undefined
  /** Longest wait between claims when no notification arrives. */
  readonly pollMs?: number | undefined
  /** The waits after each failed attempt. */
  readonly schedule?: ReadonlyArray<number> | undefined
  /** An endpoint failing (no success) for this long is disabled. */
  readonly disableAfterMs?: number | undefined
  /** Settled events, deliveries and attempts older than this are deleted. */
  readonly retentionMs?: number | undefined
}

/** The defaults of `Options`. */
export const defaults = {
  concurrency: 8,
  leaseMs: 60_000,
  // Notifications wake the loops at once and a retry's due time bounds each wait: the poll is only a safety net,
  // and each of the `concurrency` loops asks the database twice per poll when idle.
  pollMs: 5_000,
  schedule: STANDARD_SCHEDULE_MS,
  // Five days, as Svix: longer than the whole schedule (≈ 3.7 days), so one event's retries never disable alone.
  disableAfterMs: 5 * 24 * 60 * 60 * 1000,
  retentionMs: 30 * 24 * 60 * 60 * 1000
} as const

const PRUNE_EVERY = Duration.hours(1)
const BACKOFF_ON_STORAGE_FAILURE = Duration.seconds(1)

const recordOf = (response: Response, latencyMs: number) =>
  response._tag === "Answered"
    ? { statusCode: response.status, latencyMs, error: null }
    : { statusCode: null, latencyMs, error: response.error }

const logNext = (delivery: Delivery, next: Next) => {
  const annotations = { endpoint_id: delivery.endpointId, event_id: delivery.event.id, attempt: delivery.attempt }
  if (next._tag === "Failed" && next.disable !== null) {
    return Effect.logWarning("webhook endpoint disabled").pipe(
      Effect.annotateLogs({ ...annotations, reason: next.disable })
    )
  }
  if (next._tag === "Failed") return Effect.logWarning("webhook delivery failed").pipe(Effect.annotateLogs(annotations))
  return Effect.void
}

/**
 * Starts a dispatcher in the current scope: `concurrency` loops, each claiming one due delivery (SKIP LOCKED),
 * signing and sending it, and settling it (delivered, retried on the schedule, or failed, the endpoint disabled
 * after a 410 or when it has failed for `disableAfterMs`). Storage failures are logged and retried; at least once.
 */
export const start = Effect.fn("WebhookDispatch.start")(function* (given: Options) {
  const options = {
    workerId: given.workerId,
    concurrency: given.concurrency ?? defaults.concurrency,
    leaseMs: given.leaseMs ?? defaults.leaseMs,
    pollMs: given.pollMs ?? defaults.pollMs,
    schedule: given.schedule ?? defaults.schedule,
    disableAfterMs: given.disableAfterMs ?? defaults.disableAfterMs,
    retentionMs: given.retentionMs ?? defaults.retentionMs
  }
  const outbox = yield* WebhookOutbox
  const transport = yield* WebhookTransport
  const policy: DeliveryPolicy = { schedule: options.schedule, disableAfterMs: options.disableAfterMs }

  const deliver = (delivery: Delivery) =>
    Effect.gen(function* () {
      const payload = body(delivery.event)
      const startedMs = yield* Clock.currentTimeMillis
      const request = {
        url: delivery.url,
        headers: headers(delivery.secrets, delivery.event.id, Math.floor(startedMs / 1000), payload),
        body: payload
      }
      const response = yield* transport.send(request)
      const nowMs = yield* Clock.currentTimeMillis
      const random = yield* Random.next
      const next = decide(policy, response, delivery.attempt, delivery.failingSinceMs, nowMs, () => random)
      yield* outbox.settle(delivery, recordOf(response, nowMs - startedMs), next)
      yield* logNext(delivery, next)
    }).pipe(
      Effect.catchTag("LeaseLost", () =>
        Effect.logWarning("webhook delivery lease lost").pipe(Effect.annotateLogs({ event_id: delivery.event.id }))
      ),
      Effect.withSpan("WebhookDispatch.deliver")
    )

  const loop = Effect.gen(function* () {
    const [delivery] = yield* outbox.claim(options.workerId, options.leaseMs, 1)
    if (delivery === undefined) yield* outbox.awaitWork(options.pollMs)
    else yield* deliver(delivery)
  }).pipe(
    Effect.catchTag("StorageError", (error) =>
      Effect.logWarning("webhook dispatcher: storage failure; retrying").pipe(
        Effect.annotateLogs({ reason: error.reason, error: error.message }),
        Effect.andThen(Effect.sleep(BACKOFF_ON_STORAGE_FAILURE))
      )
    ),
    Effect.forever
  )

  const prune = Effect.gen(function* () {
    const now = Timestamp.toMillis(yield* Timestamp.now)
    yield* outbox.prune(Timestamp.fromMillis(now - options.retentionMs))
  }).pipe(
    Effect.catchTag("StorageError", (error) =>
      Effect.logWarning("webhook prune failed").pipe(Effect.annotateLogs({ error: error.message }))
    ),
    Effect.andThen(Effect.sleep(PRUNE_EVERY)),
    Effect.forever
  )

  for (let i = 0; i < options.concurrency; i++) yield* Effect.forkScoped(loop)
  yield* Effect.forkScoped(prune)
})
