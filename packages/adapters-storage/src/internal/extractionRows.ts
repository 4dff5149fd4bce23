import { type Extraction, ListQuery, type Ports, type StoredResult, type Timestamp, Uuid } from "@legible/core"
import type { SqlClient } from "effect/sql/SqlClient"
import type { Fragment } from "effect/sql/Statement"
import { toNumber, ts } from "./sql.js"

/** An `extractions` row as read by `recordColumns`. */
export interface ExtractionRow {
  readonly id: string
  readonly client_id: string
  readonly sandbox: boolean
  readonly skill_id: string
  readonly skill_slug: string
  readonly skill_name: string
  readonly skill_version: number
  readonly origin_name: string
  readonly mime_type: string
  readonly size_bytes: bigint | number
  readonly model: string
  readonly mode: Extraction.Mode
  readonly status: Extraction.Status
  readonly error_message: string | null
  readonly created_at: Timestamp.Timestamp
  readonly last_modification: Timestamp.Timestamp
  readonly last_user_id: string
  readonly last_user_name: string
  readonly last_user_email: string
  readonly archived: boolean
  readonly attempts: number
  readonly result: Extraction.ExtractionResult | null
}

// Every column but the result, each qualified with `prefix` (a table alias and a dot, or nothing).
const baseColumns = (prefix: string): Array<string> => [
  ...[
    "id",
    "client_id",
    "sandbox",
    "skill_id",
    "skill_slug",
    "skill_name",
    "skill_version",
    "origin_name",
    "mime_type",
    "size_bytes",
    "model",
    "mode",
    "status",
    "error_message"
  ].map((column) => `${prefix}${column}`),
  ts(`${prefix}created_at`, "created_at"),
  ts(`${prefix}last_modification`, "last_modification"),
  ...["last_user_id", "last_user_name", "last_user_email", "archived", "attempts"].map((column) => `${prefix}${column}`)
]

/** Every column of a record, for single reads and writes that return the row. */
export const recordColumns = [...baseColumns(""), "result"].join(", ")

/**
 * List items leave the result out: a list never shows it, and a page of 500 results with their OCR words would
 * weigh megabytes. Items come back with `result: null`.
 */
export const listColumns = [...baseColumns(""), "NULL::jsonb AS result"].join(", ")

/**
 * The columns of a read of extraction `e` that sends the view's stored text (`stored`): the result itself only for
 * a row that has no stored text (written before results were stored ready to send). With `asBytes`, the text comes
 * as its UTF-8 bytes (`bytea`): on PostgreSQL's binary protocol the driver hands them over with one copy, where the
 * text would be decoded into a string, measured again for `content-length` and encoded back to bytes on the socket
 * (MEASUREMENTS.md, round 2).
 */
export const readColumns = (view: StoredResult.View, asBytes: boolean): string =>
  [
    ...baseColumns("e."),
    asBytes ? `convert_to(e.${storedColumn[view]}, 'UTF8') AS stored` : `e.${storedColumn[view]} AS stored`,
    `CASE WHEN e.${storedColumn[view]} IS NULL THEN e.result END AS result`
  ].join(", ")

/**
 * `readColumns` (as bytes) for a reader that holds the view's stored text of `e` as it was at `last_modification =
 * $1` (every write of a result sets it): `stored` is sent only when the row's `last_modification` differs, and
 * `has_stored` says whether the row has stored text at all. `CASE` evaluates one branch, so a text that is not sent is
 * not read from TOAST either.
 */
export const keptReadColumns = (view: StoredResult.View): readonly [string, string] => [
  `${baseColumns("e.").join(", ")}, CASE WHEN e.last_modification = `,
  `::timestamptz THEN NULL ELSE convert_to(e.${storedColumn[view]}, 'UTF8') END AS stored,
    e.${storedColumn[view]} IS NOT NULL AS has_stored,
    CASE WHEN e.${storedColumn[view]} IS NULL THEN e.result END AS result`
]

/**
 * A list item of spec 4.3 (core `Extraction.toSummary`: the same members in the same order, timestamps as `ts`
 * renders them) as JSON text built in the database for the row `alias`. `row_to_json` writes no space and escapes
 * strings as `JSON.stringify` does (the quote, the backslash and control characters; the rest as is).
 */
export const summaryJson = (alias: string): string =>
  `(SELECT row_to_json(s)::text FROM (SELECT ${[
    `${alias}.id`,
    `${alias}.origin_name`,
    ts(`${alias}.created_at`, "extraction_date"),
    ts(`${alias}.last_modification`, "last_modification"),
    `${alias}.last_user_id`,
    `${alias}.last_user_name`,
    `${alias}.last_user_email`,
    `${alias}.status`,
    `${alias}.skill_name`,
    `${alias}.skill_id AS habilidad_id`
  ].join(", ")}) s)`

/** Where each view's text is stored (migration `8_stored_results`). */
export const storedColumn = { plain: "result_plain", detailed: "result_detailed" } as const

/** The stored row as core's record. */
export const toRecord = (row: ExtractionRow): Extraction.ExtractionRecord => ({
  id: row.id,
  clientId: row.client_id,
  skillId: row.skill_id,
  skillSlug: row.skill_slug,
  skillName: row.skill_name,
  skillVersion: row.skill_version,
  originName: row.origin_name,
  mimeType: row.mime_type,
  sizeBytes: toNumber(row.size_bytes),
  sandbox: row.sandbox,
  model: row.model,
  mode: row.mode,
  status: row.status,
  errorMessage: row.error_message,
  createdAt: row.created_at,
  lastModification: row.last_modification,
  lastUser: { id: row.last_user_id, name: row.last_user_name, email: row.last_user_email },
  archived: row.archived,
  attempts: row.attempts,
  result: row.result
})

/** `LIKE` pattern text matching `search` literally: `\`, `%` and `_` are escaped (with `ESCAPE '\'`). */
export const likeLiteral = (search: string): string => ListQuery.fold(search).replace(/[\\%_]/g, "\\$&")

const dayStart = (day: string): string => `${day}T00:00:00+00:00`

const nextDayStart = (day: string): string => {
  const [year, month, date] = day.split("-").map(Number)
  const next = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + 1))
  return `${next.toISOString().slice(0, 10)}T00:00:00+00:00`
}

/** The scope of a list as SQL conditions: a client and sandbox given, or those of an API key row `k` of the query. */
export const scopeWhere = (sql: SqlClient, scope: Ports.Scope | "key"): ReadonlyArray<Fragment> =>
  scope === "key"
    ? [sql`client_id = k.client_id`, sql`sandbox = (k.tipo = 'test')`]
    : [sql`client_id = ${scope.clientId}`, sql`sandbox = ${scope.sandbox}`]

/** The WHERE clause of a list: the scope, then each filter of spec 4.3 that is present. */
export const listWhere = (sql: SqlClient, scope: Ports.Scope | "key", filter: ListQuery.ExtractionFilter): Fragment => {
  const clauses: Array<Fragment> = [...scopeWhere(sql, scope)]
  if (!filter.includeArchived) clauses.push(sql`NOT archived`)
  if (filter.statuses !== undefined) {
    clauses.push(filter.statuses.length === 0 ? sql`FALSE` : sql.in("status", filter.statuses))
  }
  if (filter.skillId !== undefined) {
    // A non-UUID can match nothing; comparing it to a uuid column would be a SQL error instead.
    clauses.push(Uuid.isUuid(filter.skillId) ? sql`skill_id = ${filter.skillId.toLowerCase()}::uuid` : sql`FALSE`)
  }
  if (filter.skillSlug !== undefined) clauses.push(sql`skill_slug = ${filter.skillSlug}`)
  // Inclusive UTC days: from the start day's midnight up to (not including) the midnight after the end day.
  if (filter.startDate !== undefined) clauses.push(sql`created_at >= ${dayStart(filter.startDate)}::timestamptz`)
  if (filter.endDate !== undefined) clauses.push(sql`created_at < ${nextDayStart(filter.endDate)}::timestamptz`)
  if (filter.search !== undefined && filter.search.length > 0) {
    clauses.push(sql`origin_name_folded LIKE '%' || ${likeLiteral(filter.search)} || '%' ESCAPE '\\'`)
  }
  return sql.and(clauses)
}

/** The ORDER BY of a list, every key in the requested direction, ending with the `id` tiebreaker. */
export const listOrder = (sql: SqlClient, filter: ListQuery.ExtractionFilter): Fragment => {
  const direction = filter.sortOrder === "asc" ? "ASC" : "DESC"
  const keys: Record<ListQuery.SortBy, ReadonlyArray<string>> = {
    fecha_creacion: ["created_at", "id"],
    status: ["status", "created_at", "id"],
    origin_name: ["origin_name", "id"]
  }
  // Qualified: a bare `created_at` would name the formatted text column of the SELECT list, and sorting by it
  // could not use the index (`MEASUREMENTS.md`).
  return sql.literal(keys[filter.sortBy].map((key) => `extractions.${key} ${direction}`).join(", "))
}
