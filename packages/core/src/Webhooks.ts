import { Effect, Schema } from "effect"
import type { ClientId } from "./Directory.js"
import { InvalidRequest } from "./Errors.js"
import { IdGenerator } from "./IdGenerator.js"
import * as Timestamp from "./Timestamp.js"
import { isUuid } from "./Uuid.js"
import {
  type Endpoint,
  type EndpointPatch,
  EVENT_TYPES,
  type EventType,
  generateSecret,
  WebhookStore,
  WebhookTransport
} from "./Webhook.js"

/** Longest accepted endpoint URL, in characters. */
export const MAX_URL = 2_048
/** Longest accepted description, in characters. */
export const MAX_DESCRIPTION = 500
/** Most endpoints one client may register (live and sandbox together). */
export const MAX_ENDPOINTS = 50
/** Attempts the delivery log shows at most. */
export const MAX_ATTEMPTS_LISTED = 100
/** How long the old secret keeps signing after a rotation by default: 24 hours. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000

/** No endpoint with this id belongs to the caller's client. */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {
  id: Schema.String
}) {}

/** The event was never sent to this endpoint (or is too old to be kept). */
export class WebhookEventNotFound extends Schema.TaggedError<WebhookEventNotFound>()("WebhookEventNotFound", {
  id: Schema.String
}) {}

/** What a client registers. */
export interface Registration {
  readonly url: string
  readonly events?: ReadonlyArray<EventType> | undefined
  readonly description?: string | undefined
  readonly sandbox?: boolean | undefined
}

/** A new endpoint with its secret, shown once. */
export interface Created {
  readonly endpoint: Endpoint
  readonly secret: string
}

const checkEvents = (events: ReadonlyArray<EventType> | undefined) =>
  events !== undefined && events.length === 0
    ? Effect.fail(new InvalidRequest({ message: "events must name at least one event type (or be left out)" }))
    : Effect.succeed(events === undefined ? EVENT_TYPES : [...new Set(events)])

const checkDescription = (description: string | undefined) =>
  description !== undefined && description.length > MAX_DESCRIPTION
    ? Effect.fail(new InvalidRequest({ message: `description must be at most ${MAX_DESCRIPTION} characters` }))
    : Effect.void

// The shape first (no network for a URL that is wrong on its face), then the transport's scheme and address checks.
const checkUrl = Effect.fnUntraced(function* (url: string) {
  if (url.length > MAX_URL) return yield* new InvalidRequest({ message: `url must be at most ${MAX_URL} characters` })
  yield* (yield* WebhookTransport).check(url)
})

const known = (id: string) => (isUuid(id) ? Effect.succeed(id.toLowerCase()) : Effect.fail(new WebhookNotFound({ id })))

const found = <A>(id: string) =>
  Effect.flatMap((a: A | undefined) => (a === undefined ? Effect.fail(new WebhookNotFound({ id })) : Effect.succeed(a)))

/** Registers an endpoint (all event types unless `events` names some); its secret is returned here only. */
export const create = Effect.fn("Webhooks.create")(function* (clientId: ClientId, registration: Registration) {
  const events = yield* checkEvents(registration.events)
  yield* checkDescription(registration.description)
  yield* checkUrl(registration.url)
  const now = yield* Timestamp.now
  const endpoint: Endpoint = {
    id: (yield* IdGenerator).uuid(),
    clientId,
    sandbox: registration.sandbox ?? false,
    url: registration.url,
    events,
    description: registration.description ?? "",
    enabled: true,
    disabledReason: null,
    createdAt: now,
    updatedAt: now
  }
  const secret = generateSecret()
  if (!(yield* (yield* WebhookStore).insert(endpoint, secret, MAX_ENDPOINTS))) {
    return yield* new InvalidRequest({ message: `a client may register at most ${MAX_ENDPOINTS} endpoints` })
  }
  return { endpoint, secret } satisfies Created
})

/** The client's endpoints, oldest first, without secrets. */
export const list = Effect.fn("Webhooks.list")(function* (clientId: ClientId) {
  return yield* (yield* WebhookStore).list(clientId)
})

/** Changes the URL (checked again), the events, the description or `enabled`. */
export const update = Effect.fn("Webhooks.update")(function* (clientId: ClientId, id: string, patch: EndpointPatch) {
  const endpointId = yield* known(id)
  if (patch.events !== undefined) yield* checkEvents(patch.events)
  yield* checkDescription(patch.description)
  const store = yield* WebhookStore
  yield* store.get(clientId, endpointId).pipe(found(id))
  if (patch.url !== undefined) yield* checkUrl(patch.url)
  const events = patch.events === undefined ? undefined : [...new Set(patch.events)]
  return yield* store.update(clientId, endpointId, { ...patch, events }, yield* Timestamp.now).pipe(found<Endpoint>(id))
})

/** Deletes the endpoint; its pending deliveries go with it. */
export const remove = Effect.fn("Webhooks.remove")(function* (clientId: ClientId, id: string) {
  const removed = yield* (yield* WebhookStore).remove(clientId, yield* known(id))
  if (!removed) return yield* new WebhookNotFound({ id })
})

/** A new secret, returned once; the old one keeps signing (both signatures sent) for `overlapMs`. */
export const rotate = Effect.fn("Webhooks.rotate")(function* (clientId: ClientId, id: string, overlapMs: number) {
  const secret = generateSecret()
  const until = Timestamp.fromMillis(Timestamp.toMillis(yield* Timestamp.now) + overlapMs)
  const rotated = yield* (yield* WebhookStore).rotate(clientId, yield* known(id), secret, until)
  if (!rotated) return yield* new WebhookNotFound({ id })
  return { secret, previousValidUntil: until }
})

/** The endpoint's latest delivery attempts, newest first. */
export const attempts = Effect.fn("Webhooks.attempts")(function* (clientId: ClientId, id: string, limit: number) {
  const bounded = Math.max(1, Math.min(MAX_ATTEMPTS_LISTED, Math.trunc(limit)))
  return yield* (yield* WebhookStore).attempts(clientId, yield* known(id), bounded).pipe(found(id))
})

/** Sends an event to the endpoint again, now, with the same `webhook-id`. */
export const redeliver = Effect.fn("Webhooks.redeliver")(function* (clientId: ClientId, id: string, eventId: string) {
  const endpointId = yield* known(id)
  if (!isUuid(eventId)) return yield* new WebhookEventNotFound({ id: eventId })
  const outcome = yield* (yield* WebhookStore).redeliver(clientId, endpointId, eventId.toLowerCase())
  if (outcome === "endpoint") return yield* new WebhookNotFound({ id })
  if (outcome === "event") return yield* new WebhookEventNotFound({ id: eventId })
})
