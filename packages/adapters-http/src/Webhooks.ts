/**
 * The webhook endpoints (an extension, JWT): register, list, change, delete, rotate the signing secret, read the
 * delivery log and redeliver an event. Deliveries are signed per Standard Webhooks.
 */
import { Timestamp, Webhook, Webhooks } from "@legible/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as Errors from "./Errors.js"
import { extension } from "./Extensions.js"
import { text } from "./internal/schemas.js"
import { JwtAuth } from "./Security.js"

const Events = Schema.Array(Webhook.EventType).annotate({
  description:
    "Event types to receive: `extraction.completed` (processing ended `completado`), `extraction.failed` (ended in " +
    "`error`), `extraction.status_changed` (a `PATCH …/status`, or processing ending `incompleto`). Default: all."
})

const Url = text(
  "The receiver, `https://` (plain `http://` only where the server allows it). A host that resolves to a " +
    "loopback, private, link-local, unique-local or metadata address is refused, at registration and at every delivery."
)

/** The body of an endpoint registration. */
export const CreateWebhookBody = Schema.Struct({
  url: Url,
  events: Schema.optionalKey(Events),
  description: Schema.optionalKey(text(`What the endpoint is for (at most ${Webhooks.MAX_DESCRIPTION} characters).`)),
  sandbox: Schema.optionalKey(
    Schema.Boolean.annotate({
      description: "Receive the events of test-key (sandbox) extractions instead of live ones. Default `false`."
    })
  )
}).annotate({
  examples: [{ url: "https://example.com/hooks/legible", events: ["extraction.completed", "extraction.failed"] }]
})

/** The body of an endpoint change: every member optional. */
export const UpdateWebhookBody = Schema.Struct({
  url: Schema.optionalKey(Url),
  events: Schema.optionalKey(Events),
  description: Schema.optionalKey(text("What the endpoint is for.")),
  enabled: Schema.optionalKey(
    Schema.Boolean.annotate({
      description: "`false` stops deliveries (pending ones wait); `true` resumes them and clears `disabled_reason`."
    })
  )
}).annotate({ examples: [{ enabled: true }] })

/** An endpoint as listed: never its secret. */
export const WebhookResponse = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  events: Schema.Array(Webhook.EventType),
  description: Schema.String,
  sandbox: Schema.Boolean,
  enabled: Schema.Boolean,
  disabled_reason: Schema.NullOr(Schema.String).annotate({
    description: "Why the server disabled the endpoint (a 410 Gone, or failing for too long); null otherwise."
  }),
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp
})

/** A new endpoint: the one response that shows its secret. */
export const CreatedWebhookResponse = Schema.Struct({
  ...WebhookResponse.fields,
  secret: Schema.String.annotate({
    description: "The signing secret, `whsec_` + base64 of 32 random bytes. Shown only here: store it now."
  })
})

/** One delivery attempt in the log. */
export const DeliveryAttempt = Schema.Struct({
  id: Schema.String,
  event_id: Schema.String.annotate({ description: "The event's id: the `webhook-id` header of every attempt." }),
  event_type: Webhook.EventType,
  extraction_id: Schema.String,
  attempt: Schema.Int,
  status_code: Schema.NullOr(Schema.Int).annotate({ description: "The receiver's status; null when none came." }),
  latency_ms: Schema.Int,
  error: Schema.NullOr(Schema.String).annotate({ description: "Why no answer came (timeout, refused, blocked)." }),
  outcome: Schema.Literals(["delivered", "retrying", "failed", "disabled"]).annotate({
    description: "`disabled`: this attempt disabled the endpoint (410 Gone, or failing for too long)."
  }),
  created_at: Timestamp.Timestamp
})

const WebhookId = {
  webhook_id: Schema.String.annotate({ description: "The endpoint's `id` (from its registration or the list)." })
}

/** The webhook endpoints (JWT). */
export class WebhooksApi extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.post("create", "/api/webhooks", {
      payload: CreateWebhookBody,
      success: CreatedWebhookResponse.pipe(HttpApiSchema.status(201))
    }),
    HttpApiEndpoint.get("list", "/api/webhooks", {
      success: Schema.Struct({ webhooks: Schema.Array(WebhookResponse) })
    }),
    HttpApiEndpoint.patch("update", "/api/webhooks/:webhook_id", {
      params: WebhookId,
      payload: UpdateWebhookBody,
      success: WebhookResponse,
      error: Errors.NotFound
    }),
    HttpApiEndpoint.delete("remove", "/api/webhooks/:webhook_id", {
      params: WebhookId,
      success: Schema.Struct({ message: Schema.String }),
      error: Errors.NotFound
    }),
    HttpApiEndpoint.post("rotateSecret", "/api/webhooks/:webhook_id/rotate-secret", {
      params: WebhookId,
      success: Schema.Struct({
        secret: Schema.String.annotate({ description: "The new signing secret, shown only here." }),
        previous_secret_expires_at: Timestamp.Timestamp.annotate({
          description: "Until then every delivery carries two signatures, one per secret (space-separated)."
        })
      }),
      error: Errors.NotFound
    }),
    HttpApiEndpoint.get("deliveries", "/api/webhooks/:webhook_id/deliveries", {
      params: WebhookId,
      query: {
        limit: Schema.optionalKey(text(`Attempts to return, 1 to ${Webhooks.MAX_ATTEMPTS_LISTED}; default 50.`))
      },
      success: Schema.Struct({ deliveries: Schema.Array(DeliveryAttempt) }),
      error: Errors.NotFound
    }),
    HttpApiEndpoint.post("redeliver", "/api/webhooks/:webhook_id/deliveries/:event_id/redeliver", {
      params: {
        ...WebhookId,
        event_id: Schema.String.annotate({ description: "The event's id (`event_id` in the delivery log)." })
      },
      success: Schema.Struct({ message: Schema.String }).pipe(HttpApiSchema.status(202)),
      error: Errors.NotFound
    })
  )
  .middleware(JwtAuth)
  .pipe(
    extension(
      "Webhooks",
      "Push instead of polling: each endpoint of the client receives `extraction.completed`, `extraction.failed` and " +
        "`extraction.status_changed` events as a thin JSON body `{type, timestamp, data: {extraction_id, status, " +
        "previous_status, skill_name, habilidad_id, origin_name, last_modification}}` (read the result with an API " +
        "key), signed per Standard Webhooks: headers `webhook-id` (the same on every attempt of one event: dedupe on " +
        'it), `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. ' +
        "Delivery is at least once: any non-2xx answer, timeout (15 s) or connection error is retried after about 5 s, " +
        "5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (with jitter; `Retry-After` honoured on 429/503); redirects " +
        "are not followed; `410 Gone` disables the endpoint, and so does failing for 5 days. Test-key extractions go " +
        "only to endpoints registered with `sandbox: true`."
    )
  ) {}
