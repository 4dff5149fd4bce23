/** The `WebhookStore` port over SQL: endpoints by client, their secrets, the delivery log and redelivery. */
import { type Timestamp, Uuid, Webhook } from "@legible/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mapSqlError } from "./errors.js"
import { ts } from "./sql.js"
import { CHANNEL } from "./webhookSchema.js"

interface EndpointRow {
  readonly id: string
  readonly client_id: string
  readonly sandbox: boolean
  readonly url: string
  readonly events: ReadonlyArray<Webhook.EventType> | string
  readonly description: string
  readonly enabled: boolean
  readonly disabled_reason: string | null
  readonly created_at: Timestamp.Timestamp
  readonly updated_at: Timestamp.Timestamp
}

const endpointColumns = [
  "id",
  "client_id",
  "sandbox",
  "url",
  "events",
  "description",
  "enabled",
  "disabled_reason",
  ts("created_at", "created_at"),
  ts("updated_at", "updated_at")
].join(", ")

/** jsonb comes back parsed from both engines; a string is parsed here in case a client leaves it as text. */
export const eventsOf = (value: ReadonlyArray<Webhook.EventType> | string): ReadonlyArray<Webhook.EventType> =>
  typeof value === "string" ? (JSON.parse(value) as ReadonlyArray<Webhook.EventType>) : value

const toEndpoint = (row: EndpointRow): Webhook.Endpoint => ({
  id: row.id,
  clientId: row.client_id,
  sandbox: row.sandbox,
  url: row.url,
  events: eventsOf(row.events),
  description: row.description,
  enabled: row.enabled,
  disabledReason: row.disabled_reason,
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

interface AttemptRow {
  readonly id: string
  readonly event_id: string
  readonly type: Webhook.EventType
  readonly extraction_id: string
  readonly attempt: number
  readonly status_code: number | null
  readonly latency_ms: number
  readonly error: string | null
  readonly outcome: Webhook.Attempt["outcome"]
  readonly created_at: Timestamp.Timestamp
}

const toAttempt = (row: AttemptRow): Webhook.Attempt => ({
  id: row.id,
  eventId: row.event_id,
  eventType: row.type,
  extractionId: row.extraction_id,
  attempt: row.attempt,
  statusCode: row.status_code,
  latencyMs: row.latency_ms,
  error: row.error,
  outcome: row.outcome,
  at: row.created_at
})

/** Builds the SQL `WebhookStore` over the `SqlClient` in context. */
export const make: Effect.Effect<Webhook.WebhookStore["Service"], never, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = (yield* SqlClient.SqlClient).withoutTransforms()
    const columns = sql.literal(endpointColumns)

    // The client's registrations are serialized by a transaction lock on the client, and the count is taken by the
    // INSERT's own statement, after the lock: its snapshot sees every registration committed before it.
    const insert = Effect.fn("WebhookStore.insert")(function* (
      endpoint: Webhook.Endpoint,
      secret: string,
      limit: number
    ) {
      const inserted = yield* sql
        .withTransaction(
          Effect.gen(function* () {
            yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`webhook_endpoints/${endpoint.clientId}`}))`
            return yield* sql<{ readonly id: string }>`
          INSERT INTO webhook_endpoints (id, client_id, sandbox, url, events, description, secret, enabled, created_at,
            updated_at)
          SELECT ${endpoint.id}, ${endpoint.clientId}, ${endpoint.sandbox}, ${endpoint.url},
            ${JSON.stringify(endpoint.events)}::jsonb, ${endpoint.description}, ${secret}, ${endpoint.enabled},
            ${endpoint.createdAt}::timestamptz, ${endpoint.updatedAt}::timestamptz
          WHERE (SELECT count(*) FROM webhook_endpoints WHERE client_id = ${endpoint.clientId}) < ${limit}
          RETURNING id`
          })
        )
        .pipe(mapSqlError("WebhookStore.insert"))
      return inserted.length > 0
    })

    const list = Effect.fn("WebhookStore.list")(function* (clientId: string) {
      const rows = yield* sql<EndpointRow>`
      SELECT ${columns} FROM webhook_endpoints WHERE client_id = ${clientId} ORDER BY created_at, id`.pipe(
        mapSqlError("WebhookStore.list")
      )
      return rows.map(toEndpoint)
    })

    const get = Effect.fn("WebhookStore.get")(function* (clientId: string, id: string) {
      if (!Uuid.isUuid(id)) return undefined
      const rows = yield* sql<EndpointRow>`
      SELECT ${columns} FROM webhook_endpoints WHERE id = ${id} AND client_id = ${clientId}`.pipe(
        mapSqlError("WebhookStore.get")
      )
      return rows[0] === undefined ? undefined : toEndpoint(rows[0])
    })

    // Enabling clears the failure streak and the automatic reason; disabling by hand leaves no reason.
    const update = Effect.fn("WebhookStore.update")(function* (
      clientId: string,
      id: string,
      patch: Webhook.EndpointPatch,
      now: Timestamp.Timestamp
    ) {
      if (!Uuid.isUuid(id)) return undefined
      const enabled = patch.enabled ?? null
      const rows = yield* sql<EndpointRow>`
      UPDATE webhook_endpoints SET
        url = coalesce(${patch.url ?? null}, url),
        events = coalesce(${patch.events === undefined ? null : JSON.stringify(patch.events)}::jsonb, events),
        description = coalesce(${patch.description ?? null}, description),
        enabled = coalesce(${enabled}::boolean, enabled),
        disabled_reason = CASE WHEN ${enabled}::boolean IS NULL THEN disabled_reason ELSE NULL END,
        failing_since = CASE WHEN ${enabled}::boolean THEN NULL ELSE failing_since END,
        updated_at = ${now}::timestamptz
      WHERE id = ${id} AND client_id = ${clientId}
      RETURNING ${columns}`.pipe(mapSqlError("WebhookStore.update"))
      if (enabled === true) yield* sql`SELECT pg_notify(${CHANNEL}, '')`.pipe(mapSqlError("WebhookStore.update"))
      return rows[0] === undefined ? undefined : toEndpoint(rows[0])
    })

    const remove = Effect.fn("WebhookStore.remove")(function* (clientId: string, id: string) {
      if (!Uuid.isUuid(id)) return false
      const rows = yield* sql`
      DELETE FROM webhook_endpoints WHERE id = ${id} AND client_id = ${clientId} RETURNING id`.pipe(
        mapSqlError("WebhookStore.remove")
      )
      return rows.length > 0
    })

    const rotate = Effect.fn("WebhookStore.rotate")(function* (
      clientId: string,
      id: string,
      secret: string,
      previousUntil: Timestamp.Timestamp
    ) {
      if (!Uuid.isUuid(id)) return false
      const rows = yield* sql`
      UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ${previousUntil}::timestamptz,
        secret = ${secret}, updated_at = now()
      WHERE id = ${id} AND client_id = ${clientId} RETURNING id`.pipe(mapSqlError("WebhookStore.rotate"))
      return rows.length > 0
    })

    const attempts = Effect.fn("WebhookStore.attempts")(function* (clientId: string, id: string, limit: number) {
      if (!Uuid.isUuid(id)) return undefined
      const owned = yield* sql`SELECT 1 FROM webhook_endpoints WHERE id = ${id} AND client_id = ${clientId}`.pipe(
        mapSqlError("WebhookStore.attempts")
      )
      if (owned.length === 0) return undefined
      const rows = yield* sql<AttemptRow>`
      SELECT a.id, a.event_id, e.type, e.extraction_id, a.attempt, a.status_code, a.latency_ms, a.error, a.outcome,
        ${sql.literal(ts("a.created_at", "created_at"))}
      FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
      WHERE a.endpoint_id = ${id}
      ORDER BY a.created_at DESC, a.seq DESC
      LIMIT ${limit}`.pipe(mapSqlError("WebhookStore.attempts"))
      return rows.map(toAttempt)
    })

    // A fresh set of attempts for an event the endpoint was sent (or that is kept and matches its scope): the same
    // delivery row, so the `webhook-id` stays the event's.
    const redeliver = Effect.fn("WebhookStore.redeliver")(function* (clientId: string, id: string, eventId: string) {
      if (!Uuid.isUuid(id)) return "endpoint" as const
      const owned = yield* sql<{ sandbox: boolean }>`
      SELECT sandbox FROM webhook_endpoints WHERE id = ${id} AND client_id = ${clientId}`.pipe(
        mapSqlError("WebhookStore.redeliver")
      )
      const endpoint = owned[0]
      if (endpoint === undefined) return "endpoint" as const
      if (!Uuid.isUuid(eventId)) return "event" as const
      const rows = yield* sql`
      INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, created_at,
        updated_at)
      SELECT gen_random_uuid(), ${id}, e.id, 'pending', 0, now(), now(), now()
      FROM webhook_events e
      WHERE e.id = ${eventId} AND e.client_id = ${clientId} AND e.sandbox = ${endpoint.sandbox}
      ON CONFLICT (endpoint_id, event_id) DO UPDATE SET state = 'pending', attempts = 0, next_attempt_at = now(),
        locked_by = NULL, lease_token = NULL, lease_until = NULL, updated_at = now()
      RETURNING id`.pipe(mapSqlError("WebhookStore.redeliver"))
      if (rows.length === 0) return "event" as const
      yield* sql`SELECT pg_notify(${CHANNEL}, '')`.pipe(mapSqlError("WebhookStore.redeliver"))
      return "scheduled" as const
    })

    return Webhook.WebhookStore.of({ insert, list, get, update, remove, rotate, attempts, redeliver })
  }
)

/** Provides the `WebhookStore` over the `SqlClient` in context. */
export const layer: Layer.Layer<Webhook.WebhookStore, never, SqlClient.SqlClient> = Layer.effect(
  Webhook.WebhookStore,
  make
)
