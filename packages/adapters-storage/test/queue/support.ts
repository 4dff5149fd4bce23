/**
 * Rows for the queue tests, written with plain SQL (the clients row first: foreign key). Ids are fixed: batch `b`,
 * job `i` → `00000000-0000-4000-8bbb-iiiiiiiiiiii` for the extraction and `…-9bbb-…` for its job.
 */
import type { Extraction } from "@legible/core"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"

/** The client every queue fixture belongs to. */
export const clientId = "queue-tests"

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0")

/** The extraction id of job `index` of batch `batch`. */
export const extractionId = (batch: number, index: number): string =>
  `00000000-0000-4000-8${hex(batch, 3)}-${hex(index, 12)}`

/** The job id of job `index` of batch `batch`. */
export const jobId = (batch: number, index: number): string => `00000000-0000-4000-9${hex(batch, 3)}-${hex(index, 12)}`

/** What a batch of jobs looks like. */
export interface JobsSpec {
  readonly batch: number
  readonly count: number
  readonly maxAttempts?: number
  /** `run_at` of the first job, relative to the database clock; later jobs follow 1 ms apart. */
  readonly runAtOffsetMs?: number
}

/** The `ids` of a batch, in claim order. */
export const idsOf = (spec: JobsSpec) =>
  Array.from({ length: spec.count }, (_, i) => ({
    jobId: jobId(spec.batch, i),
    extractionId: extractionId(spec.batch, i)
  }))

/** Inserts `count` queued jobs with their extractions (`en cola`), as `ExtractionStore.submit` leaves them. */
export const insertJobs = Effect.fnUntraced(function* (spec: JobsSpec) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO clients (id, name) VALUES (${clientId}, 'Queue tests') ON CONFLICT (id) DO NOTHING`
  yield* sql`
    INSERT INTO extractions (id, client_id, sandbox, skill_id, skill_slug, skill_name, skill_version, origin_name,
      origin_name_folded, mime_type, size_bytes, model, mode, status, created_at, last_modification, last_user_id,
      last_user_name, last_user_email, document_location)
    SELECT ('00000000-0000-4000-8' || ${hex(spec.batch, 3)} || '-' || lpad(to_hex(g), 12, '0'))::uuid,
      ${clientId}, false, '00000000-0000-4000-8fff-000000000000'::uuid, 'invoice', 'Invoice', 1,
      'doc-' || g || '.pdf', 'doc-' || g || '.pdf', 'application/pdf', 1000, 'local', 'ocr_only', 'en cola',
      now(), now(), 'user-1', 'User One', 'one@example.com', 'db'
    FROM generate_series(0, ${spec.count - 1}::integer) AS g
  `
  yield* sql`
    INSERT INTO jobs (id, extraction_id, state, attempts, max_attempts, run_at, created_at, updated_at)
    SELECT ('00000000-0000-4000-9' || ${hex(spec.batch, 3)} || '-' || lpad(to_hex(g), 12, '0'))::uuid,
      ('00000000-0000-4000-8' || ${hex(spec.batch, 3)} || '-' || lpad(to_hex(g), 12, '0'))::uuid,
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

/** A small, valid result to complete jobs with. */
export const result = (label: string): Extraction.ExtractionResult => ({
  fields: [],
  usage: { tokens_consumidos: 3, prompt_tokens: 1, response_tokens: 2, duration: 0.5, model: "local" },
  words: {},
  fullText: label,
  numPages: 1
})
