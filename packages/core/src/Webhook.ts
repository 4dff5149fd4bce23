import { createHmac, getRandomValues } from "node:crypto"
import { Context, type Effect, Schema, type Stream } from "effect"
import type { ClientId } from "./Directory.js"
import type { InvalidRequest, LeaseLost, StorageError } from "./Errors.js"
import type { Status } from "./Extraction.js"
import type { Timestamp } from "./Timestamp.js"

/** The events an endpoint may subscribe to. */
export const EventType = Schema.Literals(["extraction.completed", "extraction.failed", "extraction.status_changed"])
export type EventType = typeof EventType.Type

/** Every event type, the subscription of an endpoint created without `events`. */
export const EVENT_TYPES: ReadonlyArray<EventType> = EventType.literals

/** What an event says of its extraction: thin, the client reads the result with its API key. */
export interface EventData {
  readonly extraction_id: string
  readonly status: Status
  readonly previous_status: Status
  readonly skill_name: string
  readonly habilidad_id: string
  readonly origin_name: string
  readonly last_modification: Timestamp
}

/** One event of the outbox: `id` is the `webhook-id` of every attempt to deliver it. */
export interface Event {
  readonly id: string
  readonly type: EventType
  readonly timestamp: Timestamp
  readonly clientId: ClientId
  /** Caused by a test key's extraction: sent only to endpoints registered for the sandbox. */
  readonly sandbox: boolean
  readonly data: EventData
}

/** The JSON body of an event, the same bytes on every attempt: `{type, timestamp, data}`. */
export const body = (event: Event): string =>
  JSON.stringify({
    type: event.type,
    timestamp: event.timestamp,
    data: {
      extraction_id: event.data.extraction_id,
      status: event.data.status,
      previous_status: event.data.previous_status,
      skill_name: event.data.skill_name,
      habilidad_id: event.data.habilidad_id,
      origin_name: event.data.origin_name,
      last_modification: event.data.last_modification
    }
  })

/** The type of the event a status change causes, or none (the queue's own `en cola` ↔ `procesando` moves). */
export const eventTypeOf = (previous: Status, status: Status): EventType | undefined => {
  if (previous === status) return undefined
  if (status === "error") return "extraction.failed"
  if (status === "completado" && previous === "procesando") return "extraction.completed"
  if (status === "completado" || status === "incompleto") return "extraction.status_changed"
  return undefined
}

/** The prefix of every signing secret (Standard Webhooks). */
export const SECRET_PREFIX = "whsec_"
/** Random bytes in a secret: 32 (the standard asks for 24 to 64). */
export const SECRET_BYTES = 32

/** Returns `size` random bytes. */
export type RandomBytes = (size: number) => Uint8Array

const cryptoRandom: RandomBytes = (size) => getRandomValues(new Uint8Array(size))

/** A new signing secret: `whsec_` + base64 of 32 bytes from a CSPRNG. */
export const generateSecret = (random: RandomBytes = cryptoRandom): string =>
  `${SECRET_PREFIX}${Buffer.from(random(SECRET_BYTES)).toString("base64")}`

/** `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` with one secret (Standard Webhooks). */
export const sign = (secret: string, id: string, timestampSeconds: number, payload: string): string => {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64")
  return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${payload}`).digest("base64")}`
}

/** The headers of one delivery attempt; during a rotation every given secret signs (space-separated). */
export const headers = (
  secrets: ReadonlyArray<string>,
  id: string,
  timestampSeconds: number,
  payload: string
): Record<string, string> => ({
  "content-type": "application/json",
  "webhook-id": id,
  "webhook-timestamp": String(timestampSeconds),
  "webhook-signature": secrets.map((secret) => sign(secret, id, timestampSeconds, payload)).join(" ")
})

const SECOND = 1_000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

/** The Standard Webhooks retry schedule: the waits after the 1st, 2nd, … failed attempt (10 attempts in all). */
export const STANDARD_SCHEDULE_MS: ReadonlyArray<number> = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR
]

/** A `Retry-After` is honoured up to this: a receiver cannot park an event for longer than the schedule's longest wait. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR

/**
 * The wait before the next attempt after `attempt` (1-based) failed attempts, or `undefined` when the schedule is
 * used up. The scheduled wait gets ±20 % jitter (`random` in [0, 1)); a `Retry-After` (429/503) lengthens it.
 */
export const retryDelay = (
  schedule: ReadonlyArray<number>,
  attempt: number,
  random: () => number,
  retryAfterMs?: number | undefined
): number | undefined => {
  const base = schedule[attempt - 1]
  if (base === undefined) return undefined
  const jittered = Math.round(base * (0.8 + 0.4 * random()))
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS))
}

/** What a receiver answered to one attempt: its status (and `Retry-After`), or why no answer came. */
export type Response =
  | { readonly _tag: "Answered"; readonly status: number; readonly retryAfterMs?: number | undefined }
  | { readonly _tag: "NoAnswer"; readonly error: string }

/** What happens to a delivery after an attempt. */
export type Next =
  | { readonly _tag: "Delivered" }
  | { readonly _tag: "Retry"; readonly delayMs: number }
  /** No more attempts; `disable` (a reason) also disables the endpoint. */
  | { readonly _tag: "Failed"; readonly disable: string | null }

/** The policy that decides what follows an attempt. */
export interface DeliveryPolicy {
  readonly schedule: ReadonlyArray<number>
  /** An endpoint failing for this long (no success since its first failure) is disabled. */
  readonly disableAfterMs: number
}

/**
 * Decides what follows attempt number `attempt` of a delivery: 2xx delivered; 410 disables the endpoint; an endpoint
 * failing since `failingSinceMs` for `disableAfterMs` or more is disabled; otherwise a retry on the schedule, until it
 * is used up.
 */
export const decide = (
  policy: DeliveryPolicy,
  response: Response,
  attempt: number,
  failingSinceMs: number | null,
  nowMs: number,
  random: () => number
): Next => {
  if (response._tag === "Answered" && response.status >= 200 && response.status < 300) return { _tag: "Delivered" }
  if (response._tag === "Answered" && response.status === 410) {
    return { _tag: "Failed", disable: "the receiver answered 410 Gone" }
  }
  const since = failingSinceMs ?? nowMs
  if (nowMs - since >= policy.disableAfterMs) {
    return {
      _tag: "Failed",
      disable: `every attempt failed for ${Math.round((nowMs - since) / 1000)} s (limit ${Math.round(policy.disableAfterMs / 1000)} s)`
    }
  }
  const retryAfter =
    response._tag === "Answered" && (response.status === 429 || response.status === 503)
      ? response.retryAfterMs
      : undefined
  const delayMs = retryDelay(policy.schedule, attempt, random, retryAfter)
  return delayMs === undefined ? { _tag: "Failed", disable: null } : { _tag: "Retry", delayMs }
}

/** A webhook endpoint of a client. */
export interface Endpoint {
  readonly id: string
  readonly clientId: ClientId
  /** Receives the events of test-key extractions instead of live ones. */
  readonly sandbox: boolean
  readonly url: string
  readonly events: ReadonlyArray<EventType>
  readonly description: string
  readonly enabled: boolean
  /** Why it was disabled automatically (410, failing too long); null when enabled or disabled by the client. */
  readonly disabledReason: string | null
  readonly createdAt: Timestamp
  readonly updatedAt: Timestamp
}

/** A change to an endpoint; absent members stay. */
export interface EndpointPatch {
  readonly url?: string | undefined
  readonly events?: ReadonlyArray<EventType> | undefined
  readonly description?: string | undefined
  readonly enabled?: boolean | undefined
}

/** One attempt to deliver an event, as the delivery log shows it. */
export interface Attempt {
  readonly id: string
  readonly eventId: string
  readonly eventType: EventType
  readonly extractionId: string
  readonly attempt: number
  /** The receiver's status; null when it did not answer (timeout, refused, blocked address). */
  readonly statusCode: number | null
  readonly latencyMs: number
  readonly error: string | null
  /** `delivered`, `retrying` (another attempt is scheduled), `failed`, or `disabled` (the endpoint was disabled). */
  readonly outcome: "delivered" | "retrying" | "failed" | "disabled"
  readonly at: Timestamp
}

/** The port to endpoints and their delivery log. Every method is scoped by client: another client's ids are missing. */
export class WebhookStore extends Context.Service<
  WebhookStore,
  {
    /**
     * Inserts the endpoint unless its client already has `limit` endpoints (`false` then). The count and the insert
     * are one step: concurrent registrations never take a client past `limit`.
     */
    insert(endpoint: Endpoint, secret: string, limit: number): Effect.Effect<boolean, StorageError>
    list(clientId: ClientId): Effect.Effect<ReadonlyArray<Endpoint>, StorageError>
    get(clientId: ClientId, id: string): Effect.Effect<Endpoint | undefined, StorageError>
    /** Applies the patch; enabling clears the failure streak and the disabled reason. */
    update(
      clientId: ClientId,
      id: string,
      patch: EndpointPatch,
      now: Timestamp
    ): Effect.Effect<Endpoint | undefined, StorageError>
    /** Deletes the endpoint and its pending deliveries; `false` when missing. */
    remove(clientId: ClientId, id: string): Effect.Effect<boolean, StorageError>
    /** Makes `secret` the signing secret; the old one keeps signing too until `previousUntil`. */
    rotate(
      clientId: ClientId,
      id: string,
      secret: string,
      previousUntil: Timestamp
    ): Effect.Effect<boolean, StorageError>
    /** The endpoint's latest attempts, newest first; `undefined` when the endpoint is missing. */
    attempts(
      clientId: ClientId,
      id: string,
      limit: number
    ): Effect.Effect<ReadonlyArray<Attempt> | undefined, StorageError>
    /**
     * Schedules the event again for the endpoint, now, with a fresh set of attempts (same `webhook-id`):
     * `endpoint` or `event` when that one is missing (or the event was never sent to this endpoint).
     */
    redeliver(
      clientId: ClientId,
      id: string,
      eventId: string
    ): Effect.Effect<"scheduled" | "endpoint" | "event", StorageError>
  }
>()("@legible/core/WebhookStore") {}

/** A claimed delivery: one event for one endpoint, held by one dispatcher until its lease lapses. */
export interface Delivery {
  readonly id: string
  readonly token: string
  readonly endpointId: string
  readonly url: string
  /** The current secret first, then the previous one while a rotation overlaps. */
  readonly secrets: ReadonlyArray<string>
  readonly event: Event
  /** This attempt's number, from 1. */
  readonly attempt: number
  /** Epoch milliseconds of the endpoint's first failure since its last success; null when it is not failing. */
  readonly failingSinceMs: number | null
}

/** What an attempt gave, for the log. */
export interface AttemptRecord {
  readonly statusCode: number | null
  readonly latencyMs: number
  readonly error: string | null
}

/**
 * The dispatcher's port to the outbox. Claims are single statements (SKIP LOCKED); every later write is fenced by
 * the claim's token, so a dispatcher whose lease lapsed changes nothing (`LeaseLost`).
 */
export class WebhookOutbox extends Context.Service<
  WebhookOutbox,
  {
    /** Claims up to `limit` due deliveries of enabled endpoints (or ones whose lease lapsed). */
    claim(workerId: string, leaseMs: number, limit: number): Effect.Effect<ReadonlyArray<Delivery>, StorageError>
    /** Logs the attempt and applies `next` to the delivery and its endpoint, in one transaction. */
    settle(delivery: Delivery, attempt: AttemptRecord, next: Next): Effect.Effect<void, StorageError | LeaseLost>
    /** Completes when a delivery may be due (a notification, or `timeoutMs` passing). */
    awaitWork(timeoutMs: number): Effect.Effect<void, StorageError>
    /** Deletes events, deliveries and attempts older than `before` that are settled; returns the events deleted. */
    prune(before: Timestamp): Effect.Effect<number, StorageError>
    /** Every event written from now on (at least once, in commit order as nearly as the database allows). */
    events: Stream.Stream<Event, StorageError>
  }
>()("@legible/core/WebhookOutbox") {}

/** What the transport sends: the signed request of one attempt. */
export interface Request {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/**
 * The port that reaches receivers. `check` refuses a URL that may not be registered (scheme, or a host resolving to
 * a loopback, private, link-local, unique-local or metadata address); `send` checks again, connects to the checked
 * address, follows no redirect and never fails: every problem is a `NoAnswer`.
 */
export class WebhookTransport extends Context.Service<
  WebhookTransport,
  {
    check(url: string): Effect.Effect<void, InvalidRequest>
    send(request: Request): Effect.Effect<Response>
  }
>()("@legible/core/WebhookTransport") {}
