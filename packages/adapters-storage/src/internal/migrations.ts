import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as CatalogKeys from "./catalogKeys.js"
import * as StoredResults from "./storedResults.js"
import * as WebhookSchema from "./webhookSchema.js"

/**
 * The one SQL schema, for PostgreSQL and PGlite alike. Timestamps are `timestamptz` (microseconds);
 * ids are UUIDs except client and user ids, which come from the identity provider.
 */
const initial = `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE clients (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id text PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients (id),
  name text NOT NULL,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('user', 'global_admin')),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients (id),
  user_id text NOT NULL REFERENCES users (id),
  nombre text NOT NULL,
  tipo text NOT NULL CHECK (tipo IN ('live', 'test')),
  key_hash text NOT NULL,
  key_preview text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_hash_idx ON api_keys (key_hash);
CREATE INDEX api_keys_client_idx ON api_keys (client_id, created_at DESC) WHERE revoked_at IS NULL;

CREATE TABLE skills (
  id uuid PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients (id),
  slug text COLLATE "C" NOT NULL,
  name text NOT NULL,
  version integer NOT NULL,
  instructions text NOT NULL,
  fields jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  deleted_at timestamptz
);
CREATE UNIQUE INDEX skills_slug_idx ON skills (client_id, slug) WHERE deleted_at IS NULL;

CREATE TABLE skill_versions (
  skill_id uuid NOT NULL REFERENCES skills (id) ON DELETE CASCADE,
  version integer NOT NULL,
  name text NOT NULL,
  instructions text NOT NULL,
  fields jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (skill_id, version)
);

CREATE TABLE catalogs (
  id uuid PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients (id),
  name text NOT NULL,
  columns jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX catalogs_client_idx ON catalogs (client_id);

CREATE TABLE catalog_records (
  catalog_id uuid NOT NULL REFERENCES catalogs (id) ON DELETE CASCADE,
  id uuid NOT NULL,
  "values" jsonb NOT NULL,
  PRIMARY KEY (catalog_id, id)
);

CREATE TABLE quotas (
  client_id text PRIMARY KEY REFERENCES clients (id),
  quota_limit integer CHECK (quota_limit IS NULL OR quota_limit >= 0),
  period text NOT NULL CHECK (period IN ('month', 'day')),
  period_start timestamptz NOT NULL,
  used integer NOT NULL DEFAULT 0 CHECK (used >= 0)
);

CREATE TABLE extractions (
  id uuid PRIMARY KEY,
  client_id text NOT NULL REFERENCES clients (id),
  sandbox boolean NOT NULL,
  skill_id uuid NOT NULL,
  skill_slug text COLLATE "C" NOT NULL,
  skill_name text NOT NULL,
  skill_version integer NOT NULL,
  origin_name text COLLATE "C" NOT NULL,
  origin_name_folded text COLLATE "C" NOT NULL,
  mime_type text NOT NULL,
  size_bytes bigint NOT NULL,
  model text NOT NULL,
  mode text NOT NULL,
  status text COLLATE "C" NOT NULL CHECK (status IN ('en cola', 'procesando', 'completado', 'incompleto', 'error')),
  error_message text,
  created_at timestamptz NOT NULL,
  last_modification timestamptz NOT NULL,
  last_user_id text NOT NULL,
  last_user_name text NOT NULL,
  last_user_email text NOT NULL,
  archived boolean NOT NULL DEFAULT false,
  attempts integer NOT NULL DEFAULT 0,
  result jsonb,
  document_location text NOT NULL
);
-- One index per list shape (spec 4.3), each led by the scope (client_id, sandbox) and ending with the id
-- tiebreaker, so a page is an ordered index range that stops after LIMIT entries. archived is INCLUDEd rather
-- than keyed: the default list filters it out and include_archived keeps it, and both read the same range.
-- The creation-order index also INCLUDEs origin_name_folded: search is a filter applied inside an index-only
-- scan of the scope (measured on 1M rows, 20k per scope: ~5 ms, where a pg_trgm GIN index took 12-18 ms and
-- led the planner astray). Sorted text columns are COLLATE "C" (code point order): both engines and the
-- in-memory store agree.
CREATE INDEX extractions_created_idx ON extractions (client_id, sandbox, created_at, id)
  INCLUDE (archived, origin_name_folded);
CREATE INDEX extractions_status_idx ON extractions (client_id, sandbox, status, created_at, id) INCLUDE (archived);
CREATE INDEX extractions_skill_idx ON extractions (client_id, sandbox, skill_id, created_at, id) INCLUDE (archived);
CREATE INDEX extractions_slug_idx ON extractions (client_id, sandbox, skill_slug, created_at, id) INCLUDE (archived);
CREATE INDEX extractions_name_idx ON extractions (client_id, sandbox, origin_name, id) INCLUDE (archived);

CREATE TABLE documents (
  extraction_id uuid PRIMARY KEY REFERENCES extractions (id) ON DELETE CASCADE,
  content bytea NOT NULL
);

CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  extraction_id uuid NOT NULL UNIQUE REFERENCES extractions (id) ON DELETE CASCADE,
  state text NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL CHECK (max_attempts >= 1),
  run_at timestamptz NOT NULL,
  locked_by text,
  lease_token uuid,
  lease_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX jobs_due_idx ON jobs (run_at, created_at) WHERE state = 'queued';
CREATE INDEX jobs_lease_idx ON jobs (lease_until) WHERE state = 'running';
`

/**
 * Runs a script one statement at a time: `@effect/sql-pg` speaks only the extended protocol, which takes a
 * single statement per query. Scripts here never put `;` at the end of a line except to end a statement.
 */
const runScript = (sql: SqlClient.SqlClient, script: string) =>
  Effect.forEach(
    script
      .split(/;\s*\n/)
      .map((statement) => statement.trim())
      .filter((statement) => statement.length > 0),
    (statement) => sql.unsafe(statement).unprepared,
    { discard: true }
  )

/**
 * Catalog search: `btree_gin` (so the trigram GIN index is led by the search space), a records version (keys the
 * in-process index cache) and count per catalog, and `catalog_keys`, the normalized columns written on upsert.
 * `space` is md5(catalog id || '/' || column): each catalog column is its own search space, so every search index
 * is entered by one column of one catalog. The key index INCLUDEs the record id (index-only exact lookups); the
 * identifier indexes serve exact lookups and, forwards and reversed, the prefix/suffix ranges of one-edit lookups.
 */
const catalogSearch = `
CREATE EXTENSION IF NOT EXISTS btree_gin;

ALTER TABLE catalogs ADD COLUMN records_version bigint NOT NULL DEFAULT 0;
ALTER TABLE catalogs ADD COLUMN record_count bigint NOT NULL DEFAULT 0;
UPDATE catalogs c SET record_count = (SELECT count(*) FROM catalog_records r WHERE r.catalog_id = c.id);

CREATE TABLE catalog_keys (
  catalog_id uuid NOT NULL,
  record_id uuid NOT NULL,
  column_name text NOT NULL,
  space uuid NOT NULL,
  norm text COLLATE "C" NOT NULL,
  legal text COLLATE "C" NOT NULL,
  ident text COLLATE "C",
  PRIMARY KEY (catalog_id, record_id, column_name),
  FOREIGN KEY (catalog_id, record_id) REFERENCES catalog_records (catalog_id, id) ON DELETE CASCADE
);
CREATE INDEX catalog_keys_norm_idx ON catalog_keys (space, norm) INCLUDE (record_id);
CREATE INDEX catalog_keys_ident_idx ON catalog_keys (space, ident) INCLUDE (record_id) WHERE ident IS NOT NULL;
CREATE INDEX catalog_keys_ident_reversed_idx ON catalog_keys (space, reverse(ident)) WHERE ident IS NOT NULL;
CREATE INDEX catalog_keys_trgm_idx ON catalog_keys USING gin (space, norm gin_trgm_ops);
`

/**
 * Users are per client: the identity provider's `sub` is unique only within its client, so two clients (or one
 * multi-tenant provider) may issue the same one. Keyed by `id` alone, client B's "ana" creating a key rewrote
 * client A's "ana" row, and A's keys then authenticated with B's name, email and role. The key becomes
 * (client_id, id) and a key references its user within its own client. A key whose user row was already taken
 * over by another client gets back a row of its own, as a plain `user` with no name or email (the next token of
 * that user fills them in): the row it pointed at says nothing trustworthy about its own client's user.
 */
const usersPerClient = `
ALTER TABLE api_keys DROP CONSTRAINT api_keys_user_id_fkey;
ALTER TABLE users DROP CONSTRAINT users_pkey;
ALTER TABLE users ADD CONSTRAINT users_pkey PRIMARY KEY (client_id, id);
INSERT INTO users (id, client_id, name, email, role)
  SELECT DISTINCT k.user_id, k.client_id, '', '', 'user' FROM api_keys k
  WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.client_id = k.client_id AND u.id = k.user_id);
ALTER TABLE api_keys ADD CONSTRAINT api_keys_user_fkey
  FOREIGN KEY (client_id, user_id) REFERENCES users (client_id, id);
`

/** A skill's review setting (an extension): null for the skills stored before it, which never review. */
const skillReview = `
ALTER TABLE skills ADD COLUMN review jsonb;
ALTER TABLE skill_versions ADD COLUMN review jsonb;
`

/**
 * `Idempotency-Key`s of submissions: one row per (client, sandbox, key), claimed by a unique insert so concurrent
 * requests on any number of api processes agree on one winner; `extraction_id` is set in the submission's own
 * transaction. Rows past `expires_at` count as absent and are swept.
 */
const idempotency = `
CREATE TABLE idempotency_keys (
  client_id text NOT NULL,
  sandbox boolean NOT NULL,
  key text COLLATE "C" NOT NULL,
  fingerprint text NOT NULL,
  token text NOT NULL,
  extraction_id uuid,
  claimed_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (client_id, sandbox, key)
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);
`

/**
 * Results stored ready to send (issue 22): each read's members serialized once at the end of processing, the plain
 * read's apart from the words. Results stored before are serialized here, with their object-list items put back in
 * their skill version's order (JSONB kept them by key length).
 */
const storedResults = `
ALTER TABLE extractions ADD COLUMN result_plain text;
ALTER TABLE extractions ADD COLUMN result_detailed text;
`

/**
 * The detailed read's stored text (89 KB for a page of 454 words) compressed with lz4 instead of pglz where the
 * server has it (PostgreSQL built with lz4; PGlite has only pglz and keeps it): a detailed read detoasts it on every
 * request, and lz4 decompresses faster (MEASUREMENTS.md, round 2). Values written from now on use it; those already
 * stored stay pglz until rewritten (both decompress transparently).
 */
const resultCompression = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [setting] = yield* sql<{ readonly lz4: boolean }>`
    SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`
  if (setting?.lz4 === true) {
    yield* sql`ALTER TABLE extractions ALTER COLUMN result_detailed SET COMPRESSION lz4`.unprepared
  }
})

/**
 * The delivery log's order: two attempts settled within the clock's resolution (a millisecond on PGlite) had the same
 * `created_at`, so "the latest attempt" was either. A sequence numbers attempts as they are written.
 */
const attemptOrder = `
ALTER TABLE webhook_attempts ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY;
DROP INDEX webhook_attempts_endpoint_idx;
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, created_at DESC, seq DESC);
`

/** A migration that runs `text` (`runScript`), then `after` (a backfill) with the same client. */
const script = <E = never, R = never>(
  text: string,
  after?: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, E, R>
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* runScript(sql, text)
    if (after !== undefined) yield* after(sql)
  })

/** Migrations by `<id>_<name>`, run once each in id order by both engines. */
export const migrations = {
  "1_initial": script(initial),
  "2_catalog_search": script(catalogSearch, CatalogKeys.backfill),
  "3_users_per_client": script(usersPerClient),
  "4_catalog_keys_own_abbreviations": Effect.flatMap(SqlClient.SqlClient, CatalogKeys.rewriteProtoKeys),
  "5_skill_review": script(skillReview),
  "6_webhooks": WebhookSchema.migration,
  "7_idempotency": script(idempotency),
  "8_stored_results": script(storedResults, StoredResults.backfill),
  "9_result_compression": resultCompression,
  "10_attempt_order": script(attemptOrder)
} as const
