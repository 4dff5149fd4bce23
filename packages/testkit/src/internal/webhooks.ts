import { type Extraction, Webhook } from "@legible/core"
import { Effect } from "effect"
import { internalId, type State } from "./state.js"

/**
 * Writes the event a status change causes (the SQL outbox trigger's rules, `Webhook.eventTypeOf`) with a pending
 * delivery per subscribed, enabled endpoint of the extraction's client and sandbox. Called in the same synchronous
 * step as the change itself.
 */
export const recordEvent = (
  state: State,
  before: Extraction.ExtractionRecord,
  after: Extraction.ExtractionRecord
): void => {
  const type = Webhook.eventTypeOf(before.status, after.status)
  if (type === undefined) return
  const event: Webhook.Event = {
    id: internalId(state, "c"),
    type,
    timestamp: after.lastModification,
    clientId: after.clientId,
    sandbox: after.sandbox,
    data: {
      extraction_id: after.id,
      status: after.status,
      previous_status: before.status,
      skill_name: after.skillName,
      habilidad_id: after.skillId,
      origin_name: after.originName,
      last_modification: after.lastModification
    }
  }
  state.webhookEvents.push(event)
  for (const { endpoint } of state.webhooks.values()) {
    if (
      endpoint.clientId === event.clientId &&
      endpoint.sandbox === event.sandbox &&
      endpoint.enabled &&
      endpoint.events.includes(type)
    ) {
      state.webhookDeliveries.push({ endpointId: endpoint.id, eventId: event.id, state: "pending", attempts: 0 })
    }
  }
}

const owned = (state: State, clientId: string, id: string) => {
  const entry = state.webhooks.get(id)
  return entry !== undefined && entry.endpoint.clientId === clientId ? entry : undefined
}

/** The in-memory `WebhookStore`. */
export const make = (state: State): Webhook.WebhookStore["Service"] =>
  Webhook.WebhookStore.of({
    insert: (endpoint, secret, limit) =>
      Effect.sync(() => {
        const owned = [...state.webhooks.values()].filter((entry) => entry.endpoint.clientId === endpoint.clientId)
        if (owned.length >= limit) return false
        state.webhooks.set(endpoint.id, { endpoint, secret, previousSecret: null, previousUntil: null })
        return true
      }),
    list: (clientId) =>
      Effect.sync(() =>
        [...state.webhooks.values()]
          .map((entry) => entry.endpoint)
          .filter((endpoint) => endpoint.clientId === clientId)
          .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
      ),
    get: (clientId, id) => Effect.sync(() => owned(state, clientId, id)?.endpoint),
    update: (clientId, id, patch, now) =>
      Effect.sync(() => {
        const entry = owned(state, clientId, id)
        if (entry === undefined) return undefined
        const e = entry.endpoint
        entry.endpoint = {
          ...e,
          url: patch.url ?? e.url,
          events: patch.events ?? e.events,
          description: patch.description ?? e.description,
          enabled: patch.enabled ?? e.enabled,
          disabledReason: patch.enabled === undefined ? e.disabledReason : null,
          updatedAt: now
        }
        return entry.endpoint
      }),
    remove: (clientId, id) =>
      Effect.sync(() => {
        if (owned(state, clientId, id) === undefined) return false
        state.webhooks.delete(id)
        for (let i = state.webhookDeliveries.length - 1; i >= 0; i--) {
          if (state.webhookDeliveries[i]!.endpointId === id) state.webhookDeliveries.splice(i, 1)
        }
        return true
      }),
    rotate: (clientId, id, secret, previousUntil) =>
      Effect.sync(() => {
        const entry = owned(state, clientId, id)
        if (entry === undefined) return false
        entry.previousSecret = entry.secret
        entry.previousUntil = previousUntil
        entry.secret = secret
        return true
      }),
    attempts: (clientId, id, limit) =>
      Effect.sync(() =>
        owned(state, clientId, id) === undefined
          ? undefined
          : state.webhookAttempts
              .filter((a) => a.endpointId === id)
              .reverse()
              .slice(0, limit)
      ),
    redeliver: (clientId, id, eventId) =>
      Effect.sync(() => {
        const entry = owned(state, clientId, id)
        if (entry === undefined) return "endpoint" as const
        const event = state.webhookEvents.find(
          (e) => e.id === eventId && e.clientId === clientId && e.sandbox === entry.endpoint.sandbox
        )
        if (event === undefined) return "event" as const
        const delivery = state.webhookDeliveries.find((d) => d.endpointId === id && d.eventId === eventId)
        if (delivery === undefined) {
          state.webhookDeliveries.push({ endpointId: id, eventId, state: "pending", attempts: 0 })
        } else {
          delivery.state = "pending"
          delivery.attempts = 0
        }
        return "scheduled" as const
      })
  })
