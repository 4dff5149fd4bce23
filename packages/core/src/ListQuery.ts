import { Result } from "effect"
import { InvalidRequest } from "./Errors.js"
import { type Status, statuses } from "./Extraction.js"
import { isUuid } from "./Uuid.js"

/** Default number of items of a list when `limit` is absent. */
export const DEFAULT_LIMIT = 50
/** Largest accepted `limit`. */
export const MAX_LIMIT = 500
/**
 * Longest `search` string that can match, in characters: the longest file name (`Extractions.MAX_FILE_NAME`), so any
 * stored name can be searched in full. A longer string, or one with a NUL (which no stored name holds), is still a
 * literal search: it matches nothing, and the list answers 200 with no items without asking the store.
 */
export const MAX_SEARCH = 255

/** Sort keys of spec 4.3. */
export type SortBy = "fecha_creacion" | "status" | "origin_name"

/** A validated list query (spec 4.3). Dates are UTC days, both ends inclusive. */
export interface ExtractionFilter {
  readonly statuses?: ReadonlyArray<Status>
  readonly skillId?: string
  readonly skillSlug?: string
  /** `YYYY-MM-DD`, inclusive, from 00:00 UTC. */
  readonly startDate?: string
  /** `YYYY-MM-DD`, inclusive, up to the end of that day in UTC. */
  readonly endDate?: string
  /** Case- and accent-insensitive substring of the file name; `%` and `_` match themselves. */
  readonly search?: string
  /** The search can match no stored name (longer than any, or with a NUL): the list is empty. */
  readonly matchesNothing?: true
  readonly limit: number
  /** Items to skip before the first returned one (an extension of the spec, default 0). */
  readonly offset: number
  readonly sortBy: SortBy
  readonly sortOrder: "asc" | "desc"
  readonly includeArchived: boolean
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/
const INTEGER = /^\d{1,9}$/

const isCalendarDay = (s: string): boolean => {
  const m = DAY.exec(s)
  if (m === null) return false
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // `Date.UTC` would read years 0–99 as 1900–1999; `setUTCFullYear` takes the year as given.
  const date = new Date(0)
  date.setUTCFullYear(y, mo - 1, d)
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d && y >= 1
}

/** The query string as received: each parameter once, or repeated. */
export type RawQuery = Readonly<Record<string, string | ReadonlyArray<string> | undefined>>

/** The parameters of the list (spec 4.3, plus `offset` and `include_archived`); any other is ignored. */
export const PARAMETERS = [
  "status",
  "habilidad_id",
  "habilidad_slug",
  "start_date",
  "end_date",
  "search",
  "limit",
  "offset",
  "sort_by",
  "sort_order",
  "include_archived"
] as const

const KNOWN: ReadonlySet<string> = new Set(PARAMETERS)

/**
 * Parses and validates the list query of spec 4.3. Unknown parameters are ignored (clients add cache
 * busters); a parameter given twice, or any invalid value, is a 400-class `InvalidRequest` that says which.
 */
export const parse = (raw: RawQuery): Result.Result<ExtractionFilter, InvalidRequest> => {
  const bad = (message: string) => Result.fail(new InvalidRequest({ message }))
  const params: Record<string, string> = {}
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined || !KNOWN.has(key)) continue
    if (typeof value !== "string") {
      if (value.length !== 1) return bad(`query parameter '${key}' was given more than once`)
      params[key] = value[0] as string
    } else params[key] = value
  }
  const filter: {
    -readonly [K in keyof ExtractionFilter]: ExtractionFilter[K]
  } = {
    limit: DEFAULT_LIMIT,
    offset: 0,
    sortBy: "fecha_creacion",
    sortOrder: "desc",
    includeArchived: false
  }
  const { status, habilidad_id, habilidad_slug, start_date, end_date, search, limit, offset, sort_by, sort_order } =
    params
  if (status !== undefined) {
    const wanted = status.split(",").map((s) => s.trim())
    const unknown = wanted.filter((s) => !(statuses as ReadonlyArray<string>).includes(s))
    if (unknown.length > 0 || wanted.length === 0) {
      return bad(`status must be a comma-separated list of: ${statuses.join(", ")}`)
    }
    filter.statuses = [...new Set(wanted as Array<Status>)]
  }
  if (habilidad_id !== undefined) {
    if (!isUuid(habilidad_id)) return bad("habilidad_id must be a UUID")
    filter.skillId = habilidad_id.toLowerCase()
  }
  if (habilidad_slug !== undefined) {
    if (habilidad_slug.length === 0 || habilidad_slug.length > 100)
      return bad("habilidad_slug must be 1 to 100 characters")
    filter.skillSlug = habilidad_slug
  }
  for (const [name, value] of [
    ["start_date", start_date],
    ["end_date", end_date]
  ] as const) {
    if (value !== undefined && !isCalendarDay(value)) return bad(`${name} must be a calendar date YYYY-MM-DD`)
  }
  if (start_date !== undefined) filter.startDate = start_date
  if (end_date !== undefined) filter.endDate = end_date
  if (start_date !== undefined && end_date !== undefined && start_date > end_date) {
    return bad("start_date must not be after end_date")
  }
  if (search !== undefined) {
    if (search.length > MAX_SEARCH || search.includes("\u0000")) filter.matchesNothing = true
    else if (search.length > 0) filter.search = search
  }
  if (limit !== undefined) {
    if (!INTEGER.test(limit) || Number(limit) < 1 || Number(limit) > MAX_LIMIT) {
      return bad(`limit must be an integer from 1 to ${MAX_LIMIT}`)
    }
    filter.limit = Number(limit)
  }
  if (offset !== undefined) {
    if (!INTEGER.test(offset)) return bad("offset must be a non-negative integer")
    filter.offset = Number(offset)
  }
  if (sort_by !== undefined) {
    if (sort_by !== "fecha_creacion" && sort_by !== "status" && sort_by !== "origin_name") {
      return bad("sort_by must be one of: fecha_creacion, status, origin_name")
    }
    filter.sortBy = sort_by
  }
  if (sort_order !== undefined) {
    if (sort_order !== "asc" && sort_order !== "desc") return bad("sort_order must be 'asc' or 'desc'")
    filter.sortOrder = sort_order
  }
  const archived = params.include_archived
  if (archived !== undefined) {
    if (archived !== "true" && archived !== "false") return bad("include_archived must be 'true' or 'false'")
    filter.includeArchived = archived === "true"
  }
  return Result.succeed(filter)
}

/** Folds case and strips accents the way every store's `search` does: NFD, drop combining marks, lower case. */
export const fold = (s: string): string =>
  s
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
