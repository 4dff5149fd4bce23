/**
 * The webhook tables (migration `6_webhooks`) and the trigger that is the outbox: every status change of an
 * extraction that is an event writes the event and one pending delivery per subscribed endpoint in the same
 * transaction as the change, whichever statement made it (the queue's completion, failure or reaping, a PATCH).
 */
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The channel notified (at commit) when events are written; dispatchers and event streams listen on it. */
export const CHANNEL = "legible_webhooks"

// Events of the queue's own moves (`en cola` ↔ `procesando`) are not written; the rules are core's
// `Webhook.eventTypeOf`, kept the same here (a test compares them on every pair of statuses).
const trigger = `
CREATE FUNCTION legible_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  kind text;
  event uuid := gen_random_uuid();
BEGIN
  IF NEW.status = 'error' THEN
    kind := 'extraction.failed';
  ELSIF NEW.status = 'completado' AND OLD.status = 'procesando' THEN
    kind := 'extraction.completed';
  ELSIF NEW.status IN ('completado', 'incompleto') THEN
    kind := 'extraction.status_changed';
  ELSE
    RETURN NULL;
  END IF;
  INSERT INTO webhook_events (id, client_id, sandbox, type, extraction_id, status, previous_status, skill_name,
    skill_id, origin_name, last_modification, created_at)
  VALUES (event, NEW.client_id, NEW.sandbox, kind, NEW.id, NEW.status, OLD.status, NEW.skill_name, NEW.skill_id,
    NEW.origin_name, NEW.last_modification, clock_timestamp());
  INSERT INTO webhook_deliveries (id, endpoint_id, event_id, state, attempts, next_attempt_at, created_at, updated_at)
  SELECT gen_random_uuid(), w.id, event, 'pending', 0, now(), now(), now()
  FROM webhook_endpoints w
  WHERE w.client_id = NEW.client_id AND w.sandbox = NEW.sandbox AND w.enabled AND w.events ? kind;
  PERFORM pg_notify('${CHANNEL}', '');
  RETURN NULL;
END
$fn$`

const statements = [
  `CREATE TABLE webhook_endpoints (
    id uuid PRIMARY KEY,
    client_id text NOT NULL REFERENCES clients (id),
    sandbox boolean NOT NULL,
    url text NOT NULL,
    events jsonb NOT NULL,
    description text NOT NULL,
    secret text NOT NULL,
    previous_secret text,
    previous_secret_until timestamptz,
    enabled boolean NOT NULL,
    disabled_reason text,
    failing_since timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL
  )`,
  "CREATE INDEX webhook_endpoints_client_idx ON webhook_endpoints (client_id, created_at)",
  // `seq` orders the event stream; `id` is the `webhook-id` of every attempt.
  `CREATE TABLE webhook_events (
    id uuid PRIMARY KEY,
    seq bigserial NOT NULL,
    client_id text NOT NULL,
    sandbox boolean NOT NULL,
    type text NOT NULL,
    extraction_id uuid NOT NULL,
    status text NOT NULL,
    previous_status text NOT NULL,
    skill_name text NOT NULL,
    skill_id uuid NOT NULL,
    origin_name text NOT NULL,
    last_modification timestamptz NOT NULL,
    created_at timestamptz NOT NULL
  )`,
  "CREATE UNIQUE INDEX webhook_events_seq_idx ON webhook_events (seq)",
  "CREATE INDEX webhook_events_created_idx ON webhook_events (created_at)",
  `CREATE TABLE webhook_deliveries (
    id uuid PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    state text NOT NULL CHECK (state IN ('pending', 'running', 'delivered', 'failed')),
    attempts integer NOT NULL,
    next_attempt_at timestamptz NOT NULL,
    locked_by text,
    lease_token uuid,
    lease_until timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    UNIQUE (endpoint_id, event_id)
  )`,
  "CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending'",
  "CREATE INDEX webhook_deliveries_lease_idx ON webhook_deliveries (lease_until) WHERE state = 'running'",
  "CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)",
  `CREATE TABLE webhook_attempts (
    id uuid PRIMARY KEY,
    endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    attempt integer NOT NULL,
    status_code integer,
    latency_ms integer NOT NULL,
    error text,
    outcome text NOT NULL CHECK (outcome IN ('delivered', 'retrying', 'failed', 'disabled')),
    created_at timestamptz NOT NULL
  )`,
  "CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, created_at DESC)",
  "CREATE INDEX webhook_attempts_event_idx ON webhook_attempts (event_id)",
  trigger,
  `CREATE TRIGGER extractions_webhook_events AFTER UPDATE OF status ON extractions
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION legible_webhook_event()`
]

/** Migration `6_webhooks`: the tables and the outbox trigger. */
export const migration = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  for (const statement of statements) yield* sql.unsafe(statement).unprepared
})
