import { Schema } from "effect"
import {
  DetailedExtraction,
  Extraction,
  type ExtractionRecord,
  type ExtractionResult,
  isFinal,
  type Summary,
  toCodeFound,
  toDetailed,
  toExtraction,
  toSummary
} from "./Extraction.js"
import { type DetailedField, type FieldOf, sortFields, toPlain } from "./Field.js"
import type { SkillField } from "./Skill.js"

/** Which read: the plain one (spec 2.3) or the detailed one with the OCR words (spec 2.7). */
export type View = "plain" | "detailed"

/**
 * A finished result serialized once, ready to send: for each read, the JSON members after the record's own
 * (`"fields":[…],"usage":{…}` and, for the detailed read, the words and the rest), without the braces. The plain
 * read's text carries no word, so a plain read never fetches them.
 */
export interface Serialized {
  readonly plain: string
  readonly detailed: string
}

const plainMembers = Schema.Struct({ fields: Extraction.fields.fields, usage: Extraction.fields.usage })
const detailedMembers = Schema.Struct({
  fields: DetailedExtraction.fields.fields,
  usage: DetailedExtraction.fields.usage,
  words: DetailedExtraction.fields.words,
  full_text: DetailedExtraction.fields.full_text,
  num_pages: DetailedExtraction.fields.num_pages,
  degraded_pages: DetailedExtraction.fields.degraded_pages,
  codes: DetailedExtraction.fields.codes
})
const encodePlain = Schema.encodeSync(plainMembers)
const encodeDetailed = Schema.encodeSync(detailedMembers)

// The members of an encoded object, without its braces (`{}` gives the empty string).
const members = (value: unknown): string => JSON.stringify(value).slice(1, -1)

type Dictionary = { readonly [name: string]: unknown }

const isDictionary = (item: unknown): item is Dictionary =>
  typeof item === "object" && item !== null && !Array.isArray(item) && !("literal" in item) && !("matching" in item)

// A dictionary's keys in the order of the skill's sub-fields (by `order`), any others after them as they came.
const reorder = (item: Dictionary, subs: ReadonlyArray<SkillField>): Dictionary => {
  const out: Record<string, unknown> = {}
  for (const sub of [...subs].sort((a, b) => a.order - b.order)) if (sub.name in item) out[sub.name] = item[sub.name]
  for (const [name, value] of Object.entries(item)) if (!(name in out)) out[name] = value
  return out
}

/**
 * Puts the sub-field keys of every object-list item in the skill's order (`descripcion, cantidad, precio,
 * importe`), at every depth. Results read back from JSONB come with their keys by length; a result as processing
 * assembled it is already in this order.
 */
export const inSkillOrder = <V, C>(
  fields: ReadonlyArray<FieldOf<V, C>>,
  skill: ReadonlyArray<SkillField>
): Array<FieldOf<V, C>> =>
  fields.map((field) => {
    const setting = skill.find((s) => s.name === field.name)
    const value = field.value
    if (setting?.fields === undefined || !Array.isArray(value)) return field
    if (!setting.isList) return { ...field, value: inSkillOrder(value as ReadonlyArray<FieldOf<V, C>>, setting.fields) }
    const subs = setting.fields
    return { ...field, value: value.map((item: unknown) => (isDictionary(item) ? reorder(item, subs) : item)) }
  }) as Array<FieldOf<V, C>>

/**
 * Serializes a result for both reads, with the plain and detailed reads' schemas (their member order and no
 * member beyond them), fields sorted by `order` (spec 4.5). Pass the skill's fields to put object-list items in the
 * skill's order when the result does not already have it (one read back from JSONB).
 */
export const serialize = (result: ExtractionResult, skill?: ReadonlyArray<SkillField>): Serialized => {
  const sorted: ReadonlyArray<DetailedField> = sortFields(result.fields) as Array<DetailedField>
  const fields = skill === undefined ? sorted : inSkillOrder(sorted, skill)
  return {
    plain: members(encodePlain({ fields: toPlain(fields), usage: result.usage })),
    detailed: members(
      encodeDetailed({
        fields,
        usage: result.usage,
        words: result.words,
        full_text: result.fullText,
        num_pages: result.numPages,
        ...(result.degradedPages !== undefined && result.degradedPages.length > 0
          ? { degraded_pages: result.degradedPages }
          : {}),
        ...(result.codes !== undefined && result.codes.length > 0 ? { codes: result.codes.map(toCodeFound) } : {})
      })
    )
  }
}

/** Whether a read shows the result of an extraction in `status` (spec 2.3: not while queued, processing, or in error). */
export const showsResult = (status: ExtractionRecord["status"]): boolean => isFinal(status) && status !== "error"

/** A read's body: JSON text, or its UTF-8 bytes when the stored members came as bytes. */
export type Body = string | Uint8Array

/** A body as text (the bytes decoded), for whoever needs to read it rather than send it. */
export const bodyText = (body: Body): string => (typeof body === "string" ? body : new TextDecoder().decode(body))

const utf8 = new TextEncoder()
const COMMA = 0x2c
const CLOSE = 0x7d

// `{head members},stored}` as bytes: the record's object without its closing brace, a comma, the stored members,
// the brace. The stored bytes are copied once, never decoded.
const joinBytes = (head: string, stored: Uint8Array): Uint8Array => {
  const open = utf8.encode(head)
  const out = new Uint8Array(open.length + 1 + stored.length)
  out.set(open)
  out[open.length - 1] = COMMA
  out.set(stored, open.length)
  out[out.length - 1] = CLOSE
  return out
}

/**
 * A read's body: the record's members (their values are plain strings, so `JSON.stringify` gives what the schema
 * would), then the stored members of the view when the status shows them, as text or, when they were stored and
 * read as bytes, as bytes (the same JSON's UTF-8). A record without stored members (written before results were
 * stored ready to send) goes through the schema as before.
 */
export const render = (record: ExtractionRecord, stored: string | Uint8Array | null, view: View): Body => {
  if (stored === null) {
    return view === "plain"
      ? JSON.stringify(Schema.encodeSync(Extraction)(toExtraction(record)))
      : JSON.stringify(Schema.encodeSync(DetailedExtraction)(toDetailed(record)))
  }
  const head = JSON.stringify(toExtraction({ ...record, result: null }))
  if (!showsResult(record.status) || stored.length === 0) return head
  return typeof stored === "string" ? `${head.slice(0, -1)},${stored}}` : joinBytes(head, stored)
}

/**
 * A page of the list as a keyed read gives it (`ExtractionStore.listAs`): the records, or their summaries already
 * as JSON (`summaries`: the list items of spec 4.3, in order, joined by commas without the brackets; text or its
 * UTF-8 bytes), built by the store so the records never cross into the process.
 */
export type ListedPage =
  | { readonly items: ReadonlyArray<ExtractionRecord>; readonly count: number }
  | { readonly summaries: string | Uint8Array; readonly count: number }

const LIST_OPEN = '{"extractions":['

/**
 * The list response (spec 4.3): `{"extractions":[…],"count":n}`. Records are summarized here (their members are
 * plain strings, so `JSON.stringify` gives what the schema would); summaries a store built as JSON go in as they
 * came, bytes staying bytes.
 */
export const renderList = (page: ListedPage): Body => {
  if ("items" in page) {
    return JSON.stringify({ extractions: page.items.map((item): Summary => toSummary(item)), count: page.count })
  }
  const close = `],"count":${page.count}}`
  if (typeof page.summaries === "string") return `${LIST_OPEN}${page.summaries}${close}`
  const open = utf8.encode(LIST_OPEN)
  const end = utf8.encode(close)
  const out = new Uint8Array(open.length + page.summaries.length + end.length)
  out.set(open)
  out.set(page.summaries, open.length)
  out.set(end, open.length + page.summaries.length)
  return out
}
