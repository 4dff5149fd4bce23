/**
 * The `JobQueue` harness on SQL (PostgreSQL or PGlite): rows written and read with plain SQL (the clients row
 * first: foreign key), times relative to the database clock. The SQL-only suites (`workerSuite.ts`,
 * `processes.test.ts`) use these helpers directly.
 */
import type { Ports } from "@legible/core"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/Database.js"
import * as SqlJobQueue from "../../src/SqlJobQueue.js"
import { batchHex, clientId, idsOf, type JobsSpec, QueueHarness } from "./harness.js"

/** Inserts `count` queued jobs with their extractions (`en cola`), as `ExtractionStore.submit` leaves them. */
export const insertJobs = Effect.fnUntraced(function* (spec: JobsSpec) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO clients (id, name) VALUES (${clientId}, 'Queue tests') ON CONFLICT (id) DO NOTHING`
  yield* sql`
    INSERT INTO extractions (id, client_id, sandbox, skill_id, skill_slug, skill_name, skill_version, origin_name,
      origin_name_folded, mime_type, size_bytes, model, mode, status, created_at, last_modification, last_user_id,
      last_user_name, last_user_email, document_location)
    SELECT ('00000000-0000-4000-8' || ${batchHex(spec.batch)} || '-' || lpad(to_hex(g), 12, '0'))::uuid,
      ${clientId}, false, '00000000-0000-4000-8fff-000000000000'::uuid, 'invoice', 'Invoice', 1,
      'doc-' || g || '.pdf', 'doc-' || g || '.pdf', 'application/pdf', 1000, 'local', 'ocr_only', 'en cola',
      now(), now(), 'user-1', 'User One', 'one@example.com', 'db'
    FROM generate_series(0, ${spec.count - 1}::integer) AS g
  `
  yield* sql`
    INSERT INTO jobs (id, extraction_id, state, attempts, max_attempts, run_at, created_at, updated_at)
    SELECT ('00000000-0000-4000-9' || ${batchHex(spec.batch)} || '-' || lpad(to_hex(g), 12, '0'))::uuid,
      ('00000000-0000-4000-8' || ${batchHex(spec.batch)} || '-' || lpad(to_hex(g), 12, '0'))::uuid,
      'queued', 0, ${spec.maxAttempts ?? 3}::integer,
      now() + (${spec.runAtOffsetMs ?? -60_000}::integer + g) * interval '1 millisecond', now(), now()
    FROM generate_series(0, ${spec.count - 1}::integer) AS g
  `
  return idsOf(spec)
})

const JobRow = Schema.Struct({
  state: Schema.String,
  attempts: Schema.Number,
  max_attempts: Schema.Number,
  locked_by: Schema.NullOr(Schema.String),
  lease_token: Schema.NullOr(Schema.String),
  last_error: Schema.NullOr(Schema.String),
  run_in_ms: Schema.Number,
  lease_in_ms: Schema.NullOr(Schema.Number),
  updated_at: Schema.String,
  status: Schema.String,
  ext_attempts: Schema.Number,
  error_message: Schema.NullOr(Schema.String),
  result: Schema.NullOr(Schema.String),
  last_modification: Schema.String
})

/** A job and its extraction as stored, with times relative to the database clock. */
export type JobRow = typeof JobRow.Type

/** Reads a job and its extraction. */
export const readJob = Effect.fnUntraced(function* (id: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`
    SELECT j.state, j.attempts, j.max_attempts, j.locked_by, j.lease_token::text, j.last_error,
      (extract(epoch FROM j.run_at - now()) * 1000)::float8 AS run_in_ms,
      (extract(epoch FROM j.lease_until - now()) * 1000)::float8 AS lease_in_ms,
      j.updated_at::text, e.status, e.attempts AS ext_attempts, e.error_message, e.result::text,
      e.last_modification::text
    FROM jobs j JOIN extractions e ON e.id = j.extraction_id
    WHERE j.id = ${id}
  `
  const [row] = yield* Schema.decodeUnknownEffect(Schema.Array(JobRow))(rows)
  if (row === undefined) return yield* Effect.die(new Error(`no job ${id}`))
  return row
})

/** Makes a running job's lease lapse now, as if its worker had stopped for a whole lease. */
export const lapse = Effect.fnUntraced(function* (id: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE jobs SET lease_until = now() - interval '1 millisecond' WHERE id = ${id}`
})

/** Makes a queued job due now. */
export const makeDue = Effect.fnUntraced(function* (id: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE jobs SET run_at = now() - interval '1 millisecond' WHERE id = ${id}`
})

/** Deletes every job and extraction, so each test starts from an empty queue. */
export const clear = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM extractions`
})

/** The harness over the current `SqlClient`, announcing work on the jobs channel of `Database.Notifications`. */
export const harness: Layer.Layer<QueueHarness, never, SqlClient.SqlClient | Database.Notifications> = Layer.effect(
  QueueHarness,
  Effect.gen(function* () {
    const context = yield* Effect.context<SqlClient.SqlClient | Database.Notifications>()
    const notifications = yield* Database.Notifications
    return QueueHarness.of({
      clear: Effect.provideContext(clear, context),
      insertJobs: (spec) => Effect.provideContext(insertJobs(spec), context),
      readJob: (id) =>
        Effect.provideContext(readJob(id), context).pipe(
          Effect.map(({ result, ...row }) => ({ ...row, result: result === null ? null : JSON.parse(result) }))
        ),
      lapse: (id) => Effect.provideContext(lapse(id), context),
      makeDue: (id) => Effect.provideContext(makeDue(id), context),
      notify: notifications.notify(SqlJobQueue.defaultChannel, "")
    })
  })
)

/** `SqlJobQueue` and its harness on `database` (which stays provided: the SQL-only tests use it too). */
export const queueOn = <E>(
  database: Layer.Layer<SqlClient.SqlClient | Database.Notifications, E>,
  options: SqlJobQueue.Options = {}
): Layer.Layer<Ports.JobQueue | QueueHarness | SqlClient.SqlClient | Database.Notifications, E> =>
  Layer.mergeAll(SqlJobQueue.layer(options), harness).pipe(Layer.provideMerge(database))
