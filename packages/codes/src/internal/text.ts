import { type Problem, type ProblemKind, RAW_LIMIT } from "./schema.js"

/** Collects the problems of one payload as it is read. */
export class Problems {
  readonly list: Array<Problem> = []
  add(kind: ProblemKind, detail: string, member: string | null = null): void {
    this.list.push({ kind, member, detail })
  }
}

export const rawOf = (text: string): string => (text.length > RAW_LIMIT ? text.slice(0, RAW_LIMIT) : text)

const base64Alphabet = /^[A-Za-z0-9+/_-]*={0,2}$/

/** Standard or URL-safe base64, padded or not, to UTF-8 text; null (with a problem) when it is not. */
export const base64Text = (input: string, problems: Problems, member: string): string | null => {
  const compact = input.replace(/\s+/g, "")
  if (compact.length === 0) {
    problems.add("missing_member", "empty base64", member)
    return null
  }
  if (!base64Alphabet.test(compact) || compact.replace(/=+$/, "").length % 4 === 1) {
    problems.add("bad_encoding", "not base64", member)
    return null
  }
  const bytes = Buffer.from(compact.replace(/-/g, "+").replace(/_/g, "/"), "base64")
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes)
  } catch {
    problems.add("bad_encoding", "base64 of bytes that are not UTF-8", member)
    return null
  }
}

/** A JSON object's members; `raw` keeps each member's source text (numbers as written). */
export interface JsonMembers {
  readonly values: ReadonlyMap<string, unknown>
  readonly raw: ReadonlyMap<string, string>
}

// One complete `"name": value` member whose value is a scalar and is followed by `,` or `}`: a member cut by
// truncation (`"codAut":7307`) has no such end and is not taken.
const memberPattern =
  /"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)\s*(?=[,}])/g

const scanMembers = (text: string): Map<string, string> => {
  const raw = new Map<string, string>()
  for (const match of text.matchAll(memberPattern)) {
    const [, name, value] = match
    if (name !== undefined && value !== undefined && !raw.has(name)) raw.set(name, value)
  }
  return raw
}

/**
 * A JSON object read leniently: a well-formed object gives all its members; a damaged one (cut short by a reader
 * or a printer) gives its complete scalar members and a problem, so what the code still says is not lost.
 */
export const jsonMembers = (text: string, problems: Problems): JsonMembers | null => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    const raw = scanMembers(text)
    const trimmed = text.trimEnd()
    problems.add(
      trimmed.startsWith("{") && !trimmed.endsWith("}") ? "truncated" : "bad_json",
      raw.size > 0 ? `invalid JSON; ${raw.size} complete members kept` : "invalid JSON"
    )
    if (raw.size === 0) return null
    const values = new Map<string, unknown>()
    for (const [name, value] of raw) values.set(name, JSON.parse(value))
    return { values, raw }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    problems.add("bad_json", "JSON that is not an object")
    return null
  }
  return { values: new Map(Object.entries(parsed)), raw: scanMembers(text) }
}

const decimalPattern = /^[+-]?\d+(?:\.\d+)?$/

/** A plain decimal with a dot (`1234.5`), as codes write amounts; null otherwise. */
export const decimal = (text: string): number | null => {
  const trimmed = text.trim()
  return decimalPattern.test(trimmed) ? Number(trimmed) : null
}

/** `YYYY-MM-DD` when year, month and day form a real calendar date. */
export const isoDate = (year: number, month: number, day: number): string | null => {
  if (!Number.isInteger(year) || year < 1900 || year > 2199) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null
  return date.toISOString().slice(0, 10)
}

/** Dates as codes write them: `2023-02-14`, `20230214`, `14-02-2023`, `14/02/2023`, `2023-02-14T10:00:00`. */
export const parseDate = (text: string): string | null => {
  const value = text.trim()
  let match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value)
  if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]))
  match = /^(\d{4})(\d{2})(\d{2})$/.exec(value)
  if (match) return isoDate(Number(match[1]), Number(match[2]), Number(match[3]))
  match = /^(\d{2})[-/.](\d{2})[-/.](\d{4})$/.exec(value)
  if (match) return isoDate(Number(match[3]), Number(match[2]), Number(match[1]))
  return null
}

/** The query parameters of a URL with lower-cased names (first value wins); null when the text is not a URL. */
export const urlOf = (text: string): URL | null => {
  if (!/^https?:\/\//i.test(text)) return null
  try {
    return new URL(text)
  } catch {
    return null
  }
}

export const paramsOf = (search: string): Map<string, string> => {
  const params = new Map<string, string>()
  for (const part of search.replace(/^\?/, "").split("&")) {
    if (part === "") continue
    const at = part.indexOf("=")
    const name = at < 0 ? part : part.slice(0, at)
    const value = at < 0 ? "" : part.slice(at + 1)
    const key = safeDecode(name).toLowerCase()
    if (!params.has(key)) params.set(key, safeDecode(value.replace(/\+/g, " ")))
  }
  return params
}

const safeDecode = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** ISO 7064 mod 97-10 check of an IBAN (already without spaces, upper case). */
export const ibanIsValid = (iban: string): boolean => {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(iban)) return false
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const char of rearranged) {
    const digits = /\d/.test(char) ? char : String(char.charCodeAt(0) - 55)
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder === 1
}
