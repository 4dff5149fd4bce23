/**
 * The `ExtractionStore` and `DocumentStore` ports over SQL. Every read and write is scoped by client and
 * sandbox; a submission writes the row, its document and its job in one transaction and then wakes workers.
 */
import { Errors, type Extraction, ListQuery, Lru, Ports, type StoredResult, type Timestamp, Uuid } from "@legible/core"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type KeyedRow, keyedColumns, keyedFrom, toAuthenticated } from "./apiKeyStore.js"
import * as DocumentFiles from "./documentFiles.js"
import { mapSqlError } from "./errors.js"
import {
  type ExtractionRow,
  keptReadColumns,
  listColumns,
  listOrder,
  listWhere,
  readColumns,
  recordColumns,
  summaryJson,
  toRecord
} from "./extractionRows.js"
import { completeIn } from "./idempotencyStore.js"
import { ReadCache } from "./readCache.js"
import { toNumber } from "./sql.js"

/** Where documents go and which channel announces new jobs. */
export interface Options {
  /** Store documents as files in this directory instead of the `documents` table. */
  readonly documents?: { readonly directory: string } | undefined
  /** The channel notified (at commit) after each submission; the job queue listens on it. */
  readonly jobsChannel?: string | undefined
  /**
   * Read the stored results as UTF-8 bytes rather than text (`readColumns`): for PostgreSQL, whose driver returns
   * `bytea` undecoded. Not for PGlite, which returns `bytea` as hex text to parse.
   */
  readonly storedAsBytes?: boolean | undefined
}

/** The bytes of stored texts a PostgreSQL store keeps in process for reads (`readAs`): about 700 dense pages. */
export const KEPT_BYTES = 64 * 1024 * 1024
// What an entry costs beyond its bytes (its key, version and the map's slot), counted against `KEPT_BYTES`.
const KEPT_OVERHEAD = 256

interface KeptText {
  readonly version: Timestamp.Timestamp
  readonly bytes: Uint8Array
}

/** The default channel for new jobs; the SQL job queue listens on the same one. */
export const defaultJobsChannel = "legible_jobs"

const IN_DATABASE = "db"
const FILE_PREFIX = "file:"

const finalStatuses: ReadonlyArray<Extraction.Status> = ["completado", "incompleto", "error"]

/** Both services this module provides. */
export type Services = Ports.ExtractionStore | Ports.DocumentStore

/** Builds the SQL `ExtractionStore` and `DocumentStore` over the `SqlClient` in context. */
export const make = (options: Options = {}): Effect.Effect<Context.Context<Services>, never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // The API's hot reads (`readAs`, `listAs`) may be answered from memory where the engine allows it (PGlite, whose
    // every statement goes through this process): exactly as fresh as the database (`readCache.ts`).
    const reads = yield* ReadCache
    const directory = options.documents?.directory
    const channel = options.jobsChannel ?? defaultJobsChannel
    const record = sql.literal(recordColumns)
    const listed = sql.literal(listColumns)

    const insertAll = (submission: Ports.Submission, location: string) => {
      const r = submission.record
      return sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`
          INSERT INTO extractions (id, client_id, sandbox, skill_id, skill_slug, skill_name, skill_version,
            origin_name, origin_name_folded, mime_type, size_bytes, model, mode, status, error_message, created_at,
            last_modification, last_user_id, last_user_name, last_user_email, archived, attempts, result,
            document_location)
          VALUES (${r.id}, ${r.clientId}, ${r.sandbox}, ${r.skillId}, ${r.skillSlug}, ${r.skillName},
            ${r.skillVersion}, ${r.originName}, ${ListQuery.fold(r.originName)}, ${r.mimeType}, ${r.sizeBytes},
            ${r.model}, ${r.mode}, ${r.status}, ${r.errorMessage}, ${r.createdAt}::timestamptz,
            ${r.lastModification}::timestamptz, ${r.lastUser.id}, ${r.lastUser.name}, ${r.lastUser.email},
            ${r.archived}, ${r.attempts}, ${r.result === null ? null : JSON.stringify(r.result)}::jsonb,
            ${location})`
          if (location === IN_DATABASE) {
            yield* sql`INSERT INTO documents (extraction_id, content) VALUES (${r.id}, ${submission.document})`
          }
          yield* sql`
          INSERT INTO jobs (id, extraction_id, state, attempts, max_attempts, run_at, created_at, updated_at)
          VALUES (gen_random_uuid(), ${r.id}, 'queued', 0, ${submission.maxAttempts}, now(), now(), now())`
          if (submission.idempotency !== undefined) yield* completeIn(sql, submission.idempotency, r.id)
          // Sent by the database at commit, and only if the transaction commits: idle workers wake for this job.
          yield* sql`SELECT pg_notify(${channel}, ${r.id})`
        })
      )
    }

    const submit = Effect.fn("ExtractionStore.submit")(function* (submission: Ports.Submission) {
      const id = submission.record.id
      if (directory === undefined) {
        return yield* insertAll(submission, IN_DATABASE).pipe(mapSqlError("ExtractionStore.submit"))
      }
      // The id names the file: refuse anything but a UUID so no path can be smuggled in.
      if (!Uuid.isUuid(id)) {
        return yield* new Errors.StorageError({ reason: "Unknown", message: `ExtractionStore.submit: bad id ${id}` })
      }
      // The file is durable before the row that points at it commits; if the transaction fails it goes away.
      yield* DocumentFiles.write(directory, id, submission.document)
      yield* insertAll(submission, `${FILE_PREFIX}${id}`).pipe(
        mapSqlError("ExtractionStore.submit"),
        Effect.onError(() => Effect.ignore(DocumentFiles.remove(directory, id)))
      )
    })

    const get = Effect.fn("ExtractionStore.get")(function* (scope: Ports.Scope, id: string) {
      if (!Uuid.isUuid(id)) return undefined
      const rows = yield* sql<ExtractionRow>`
        SELECT ${record} FROM extractions
        WHERE id = ${id} AND client_id = ${scope.clientId} AND sandbox = ${scope.sandbox}`.pipe(
        mapSqlError("ExtractionStore.get")
      )
      const row = rows[0]
      return row === undefined ? undefined : toRecord(row)
    })

    // The key, its user and the row in one statement: one round trip and one plan instead of three (the key
    // lookup, the row, and `last_used`, now throttled in process; MEASUREMENTS.md). The row is joined in the key's
    // scope, so another client's or sandbox's row is never read.
    const asBytes = options.storedAsBytes === true
    const readViews = {
      plain: sql.literal(readColumns("plain", asBytes)),
      detailed: sql.literal(readColumns("detailed", asBytes))
    }
    const keyed = sql.literal(keyedColumns)
    const keyedJoin = sql.literal(keyedFrom)
    // With bytes (PostgreSQL), the stored texts last read are kept in this process by view and extraction, with the
    // row's `last_modification`: a read names the version it holds and the database sends the text only if the row's
    // differs. The key, its scope and the row are still read by every request; what is saved is reading the text
    // from TOAST and carrying it over the socket (89 KB for a dense page; MEASUREMENTS.md). Other processes' writes
    // change `last_modification`, so a kept text is never sent for a row that changed.
    const kept = asBytes ? Lru.make<KeptText>(KEPT_BYTES, (text) => text.bytes.byteLength + KEPT_OVERHEAD) : undefined
    const keptViews = {
      plain: keptReadColumns("plain").map((part) => sql.literal(part)),
      detailed: keptReadColumns("detailed").map((part) => sql.literal(part))
    }
    const readAs = Effect.fn("ExtractionStore.readAs")(function* (
      keyHash: string,
      id: string,
      view: StoredResult.View
    ) {
      // An id that is not a UUID names nothing (and must not reach the uuid column); the key is still checked.
      const target = Uuid.isUuid(id) ? sql`e.id = ${id}` : sql`false`
      const keptKey = `${view}/${id}`
      const held = kept?.get(keptKey)
      const [before, after] = keptViews[view]
      const columns = held === undefined ? readViews[view] : sql`${before}${held.version}${after}`
      const rows = yield* reads
        .read(sql<
          KeyedRow & ExtractionRow & { readonly stored: string | Uint8Array | null; readonly has_stored?: boolean }
        >`
        SELECT ${keyed}, ${columns}
        FROM ${keyedJoin}
        LEFT JOIN extractions e ON ${target} AND e.client_id = k.client_id AND e.sandbox = (k.tipo = 'test')
        WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL`)
        .pipe(mapSqlError("ExtractionStore.readAs"))
      const row = rows[0]
      if (row === undefined) return undefined
      const key = toAuthenticated(row, keyHash)
      if (row.id === null) return { key, found: undefined }
      let stored = row.stored
      if (held !== undefined && stored === null && row.has_stored === true) stored = held.bytes
      else if (kept !== undefined && stored instanceof Uint8Array) {
        kept.set(keptKey, { version: row.last_modification, bytes: stored })
      }
      return { key, found: { record: toRecord(row), stored } }
    })

    // Key, page and count in one statement: the count and the page are laterals of the key's row, so the scope
    // comes from the key, and a key with no match still gives its row (count 0, no item). The page comes as the
    // list's JSON items, built by the database (`summaryJson`), as bytes where stored results are: one value to
    // decode instead of twenty columns of each row, and no object to build and serialize (MEASUREMENTS.md, round 2).
    const summaries = sql.literal(
      asBytes
        ? `convert_to(string_agg(${summaryJson("e")}, ',' ORDER BY e.position), 'UTF8')`
        : `string_agg(${summaryJson("e")}, ',' ORDER BY e.position)`
    )
    const listAs = Effect.fn("ExtractionStore.listAs")(function* (keyHash: string, filter: ListQuery.ExtractionFilter) {
      const where = listWhere(sql, "key", filter)
      const order = listOrder(sql, filter)
      const rows = yield* reads
        .read(sql<KeyedRow & { readonly total: bigint; readonly summaries: string | Uint8Array | null }>`
        SELECT ${keyed}, c.total, p.summaries
        FROM ${keyedJoin}
        CROSS JOIN LATERAL (SELECT count(*) AS total FROM extractions WHERE ${where}) c
        CROSS JOIN LATERAL (
          SELECT ${summaries} AS summaries FROM (
            SELECT extractions.*, row_number() OVER (ORDER BY ${order}) AS position FROM extractions WHERE id IN (
              SELECT extractions.id FROM extractions WHERE ${where}
              ORDER BY ${order} LIMIT ${filter.limit} OFFSET ${filter.offset}
            )
          ) e
        ) p
        WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL`)
        .pipe(mapSqlError("ExtractionStore.listAs"))
      const first = rows[0]
      if (first === undefined) return undefined
      return {
        key: toAuthenticated(first, keyHash),
        found: { summaries: first.summaries ?? "", count: toNumber(first.total) }
      }
    })

    // The worker holds the job's lease, not a caller's scope: it reads the row by id alone.
    const getForProcessing = Effect.fn("ExtractionStore.getForProcessing")(function* (id: string) {
      if (!Uuid.isUuid(id)) return undefined
      const rows = yield* sql<ExtractionRow>`SELECT ${record} FROM extractions WHERE id = ${id}`.pipe(
        mapSqlError("ExtractionStore.getForProcessing")
      )
      const row = rows[0]
      return row === undefined ? undefined : toRecord(row)
    })

    // Two statements, run side by side on PostgreSQL: the page stops after LIMIT matching index entries, the
    // count reads every match (index-only where the filters allow).
    const list = Effect.fn("ExtractionStore.list")(function* (scope: Ports.Scope, filter: ListQuery.ExtractionFilter) {
      const where = listWhere(sql, scope, filter)
      const order = listOrder(sql, filter)
      const [rows, counted] = yield* Effect.all(
        [
          // Deferred join: the page's ids come from an index-only scan (filters such as search are checked on
          // index entries, not heap rows), then only those rows are read.
          sql<ExtractionRow>`
            SELECT ${listed} FROM extractions WHERE id IN (
              SELECT extractions.id FROM extractions WHERE ${where}
              ORDER BY ${order} LIMIT ${filter.limit} OFFSET ${filter.offset}
            )
            ORDER BY ${order}`,
          sql<{ n: bigint }>`SELECT count(*) AS n FROM extractions WHERE ${where}`
        ],
        { concurrency: 2 }
      ).pipe(mapSqlError("ExtractionStore.list"))
      return { items: rows.map(toRecord), count: toNumber(counted[0]?.n ?? 0) }
    })

    // Compare-and-set on the status; the acting user's name and email come from the directory.
    const switchStatus = Effect.fn("ExtractionStore.switchStatus")(function* (
      scope: Ports.Scope,
      id: string,
      expected: Extraction.Status,
      change: Extraction.StatusChange
    ) {
      if (!Uuid.isUuid(id)) return undefined
      const rows = yield* sql<ExtractionRow>`
        UPDATE extractions SET status = ${change.status}, error_message = ${change.errorMessage},
          last_modification = ${change.lastModification}::timestamptz, last_user_id = ${change.lastUserId},
          last_user_name = coalesce((SELECT name FROM users
            WHERE client_id = ${change.lastUserClientId} AND id = ${change.lastUserId}), ''),
          last_user_email = coalesce((SELECT email FROM users
            WHERE client_id = ${change.lastUserClientId} AND id = ${change.lastUserId}), '')
        WHERE id = ${id} AND client_id = ${scope.clientId} AND sandbox = ${scope.sandbox}
          AND status = ${expected}
        RETURNING ${record}`.pipe(mapSqlError("ExtractionStore.switchStatus"))
      const row = rows[0]
      return row === undefined ? undefined : toRecord(row)
    })

    const setArchived = Effect.fn("ExtractionStore.setArchived")(function* (
      scope: Ports.Scope,
      id: string,
      archived: boolean,
      now: Timestamp.Timestamp
    ) {
      if (!Uuid.isUuid(id)) return undefined
      const rows = yield* sql<ExtractionRow>`
        UPDATE extractions SET archived = ${archived}, last_modification = ${now}::timestamptz
        WHERE id = ${id} AND client_id = ${scope.clientId} AND sandbox = ${scope.sandbox}
        RETURNING ${record}`.pipe(mapSqlError("ExtractionStore.setArchived"))
      const row = rows[0]
      return row === undefined ? undefined : toRecord(row)
    })

    const archiveBefore = Effect.fn("ExtractionStore.archiveBefore")(function* (before: Timestamp.Timestamp) {
      const rows = yield* sql<{ n: bigint }>`
        WITH archived AS (
          UPDATE extractions SET archived = true
          WHERE NOT archived AND created_at < ${before}::timestamptz AND ${sql.in("status", finalStatuses)}
          RETURNING 1
        )
        SELECT count(*) AS n FROM archived`.pipe(mapSqlError("ExtractionStore.archiveBefore"))
      return toNumber(rows[0]?.n ?? 0)
    })

    const getDocument = Effect.fn("DocumentStore.get")(function* (scope: Ports.Scope, extractionId: string) {
      if (!Uuid.isUuid(extractionId)) return undefined
      const rows = yield* sql<{
        origin_name: string
        mime_type: string
        document_location: string
        content: Uint8Array | null
      }>`
        SELECT e.origin_name, e.mime_type, e.document_location, d.content
        FROM extractions e LEFT JOIN documents d ON d.extraction_id = e.id
        WHERE e.id = ${extractionId} AND e.client_id = ${scope.clientId} AND e.sandbox = ${scope.sandbox}`.pipe(
        mapSqlError("DocumentStore.get")
      )
      const row = rows[0]
      if (row === undefined) return undefined
      const found = { fileName: row.origin_name, mimeType: row.mime_type }
      if (row.document_location === IN_DATABASE) {
        return row.content === null ? undefined : { ...found, bytes: row.content }
      }
      if (!row.document_location.startsWith(FILE_PREFIX) || directory === undefined) {
        return yield* new Errors.StorageError({
          reason: "Unknown",
          message: `DocumentStore.get: document at ${row.document_location} but no documents directory configured`
        })
      }
      const bytes = yield* DocumentFiles.read(directory, row.document_location.slice(FILE_PREFIX.length))
      return bytes === undefined ? undefined : { ...found, bytes }
    })

    return Context.make(
      Ports.ExtractionStore,
      Ports.ExtractionStore.of({
        submit,
        get,
        readAs,
        listAs,
        getForProcessing,
        list,
        switchStatus,
        setArchived,
        archiveBefore
      })
    ).pipe(Context.add(Ports.DocumentStore, Ports.DocumentStore.of({ get: getDocument })))
  })

/** Provides `ExtractionStore` and `DocumentStore` over the `SqlClient` in context. */
export const layer = (options: Options = {}): Layer.Layer<Services, never, SqlClient.SqlClient> =>
  Layer.effectContext(make(options))
