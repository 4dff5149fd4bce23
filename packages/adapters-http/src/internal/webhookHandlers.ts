/** The handlers of the webhook endpoints (JWT): thin calls of core's `Webhooks` use cases for the token's client. */
import type { Ports, Webhook } from "@legible/core"
import { Webhooks } from "@legible/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.js"
import * as Errors from "../Errors.js"
import { recordUser } from "./extensionHandlers.js"
import { runner } from "./handling.js"

/** The settings of the webhook handlers. */
export interface Options {
  /** How long the previous secret keeps signing after a rotation. */
  readonly rotationOverlapMs: number
}

const view = (endpoint: Webhook.Endpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  description: endpoint.description,
  sandbox: endpoint.sandbox,
  enabled: endpoint.enabled,
  disabled_reason: endpoint.disabledReason,
  created_at: endpoint.createdAt,
  updated_at: endpoint.updatedAt
})

const attemptView = (attempt: Webhook.Attempt) => ({
  id: attempt.id,
  event_id: attempt.eventId,
  event_type: attempt.eventType,
  extraction_id: attempt.extractionId,
  attempt: attempt.attempt,
  status_code: attempt.statusCode,
  latency_ms: attempt.latencyMs,
  error: attempt.error,
  outcome: attempt.outcome,
  created_at: attempt.at
})

const LIMIT = /^[1-9]\d{0,2}$/

// Another client's endpoint is as missing as one that never existed: the same 404 body.
const notFound = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.catchTags({
      WebhookNotFound: () => Effect.fail(new Errors.NotFound({ error: "webhook endpoint not found" })),
      WebhookEventNotFound: () => Effect.fail(new Errors.NotFound({ error: "event not found for this endpoint" }))
    })
  )

/** The webhook endpoints. */
export const webhooks = (options: Options) =>
  HttpApiBuilder.group(
    Api,
    "webhooks",
    Effect.fn(function* (handlers) {
      const { asUser } = yield* runner<Webhook.WebhookStore | Webhook.WebhookTransport | Ports.Directory>()
      return handlers.handleAll({
        create: ({ payload }) =>
          asUser((user) => Effect.andThen(recordUser(user), Webhooks.create(user.clientId, payload))).pipe(
            Effect.map(({ endpoint, secret }) => ({ ...view(endpoint), secret }))
          ),
        list: () =>
          asUser((user) => Webhooks.list(user.clientId)).pipe(Effect.map((all) => ({ webhooks: all.map(view) }))),
        update: ({ params, payload }) =>
          asUser((user) => notFound(Webhooks.update(user.clientId, params.webhook_id, payload))).pipe(Effect.map(view)),
        remove: ({ params }) =>
          asUser((user) => notFound(Webhooks.remove(user.clientId, params.webhook_id))).pipe(
            Effect.as({ message: "webhook endpoint deleted" })
          ),
        rotateSecret: ({ params }) =>
          asUser((user) => notFound(Webhooks.rotate(user.clientId, params.webhook_id, options.rotationOverlapMs))).pipe(
            Effect.map(({ secret, previousValidUntil }) => ({
              secret,
              previous_secret_expires_at: previousValidUntil
            }))
          ),
        deliveries: ({ params, query }) => {
          const limit = query.limit === undefined ? 50 : LIMIT.test(query.limit) ? Number(query.limit) : Number.NaN
          if (!(limit <= Webhooks.MAX_ATTEMPTS_LISTED)) {
            return Effect.fail(
              new Errors.BadRequest({ error: `limit must be an integer from 1 to ${Webhooks.MAX_ATTEMPTS_LISTED}` })
            )
          }
          return asUser((user) => notFound(Webhooks.attempts(user.clientId, params.webhook_id, limit))).pipe(
            Effect.map((attempts) => ({ deliveries: attempts.map(attemptView) }))
          )
        },
        redeliver: ({ params }) =>
          asUser((user) => notFound(Webhooks.redeliver(user.clientId, params.webhook_id, params.event_id))).pipe(
            Effect.as({ message: "redelivery scheduled" })
          )
      })
    })
  )
