/** The list's filters (spec 4.3) and the query string they make. */
import type { Status } from "./types.js"

/** Rows per page of the list. */
export const PAGE_SIZE = 20

export interface Query {
  readonly status: ReadonlyArray<Status>
  readonly skill: string
  readonly start: string
  readonly end: string
  readonly search: string
  readonly sortBy: "fecha_creacion" | "status" | "origin_name"
  readonly sortOrder: "asc" | "desc"
  readonly archived: boolean
  readonly offset: number
}

export const initialQuery: Query = {
  status: [],
  skill: "",
  start: "",
  end: "",
  search: "",
  sortBy: "fecha_creacion",
  sortOrder: "desc",
  archived: false,
  offset: 0
}

/** The list endpoint's path for a query: only the filters that are set. */
export const listPath = (q: Query): string => {
  const params = new URLSearchParams()
  if (q.status.length > 0) params.set("status", q.status.join(","))
  if (q.skill.trim() !== "") params.set("habilidad_slug", q.skill.trim())
  if (q.start !== "") params.set("start_date", q.start)
  if (q.end !== "") params.set("end_date", q.end)
  if (q.search !== "") params.set("search", q.search)
  params.set("sort_by", q.sortBy)
  params.set("sort_order", q.sortOrder)
  if (q.archived) params.set("include_archived", "true")
  params.set("limit", String(PAGE_SIZE))
  if (q.offset > 0) params.set("offset", String(q.offset))
  return `/v1/extractions?${params.toString()}`
}
