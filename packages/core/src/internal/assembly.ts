/**
 * Assembly: the skill, the extractor's literals, grounding, typed parsing and catalog results → the detailed
 * `fields` of spec 2.4/2.5/2.7, every skill field present, sorted by `order` at every depth. Pure.
 *
 * Decisions where the spec is silent:
 * - A simple field not found is `{literal: "", parsed: null, word_ids: [], id, type}` (one shape for consumers);
 *   a list not found is `[]`; an object not found has all its sub-fields, each not found.
 * - Value ids are paths: `total`, `direccion.calle`, `telefonos[1]`, `lineas[2].importe` (0-based), unique within
 *   the extraction (a clash between odd field names gets a `#n` suffix).
 * - Extractor output of the wrong shape never fails: numbers and booleans become their text, other shapes of a simple
 *   field count as not found; a scalar given for a list is a one-item list; list items that carry nothing are dropped.
 * - Catalog matching runs for every catalog field: at any depth of objects, each item of a `catalog` list, and a
 *   catalog sub-field of each item of an object list (invoice lines matched to a product catalog). Those carry the
 *   catalog value of spec 2.5.4 where spec 2.5.3 shows a simple value: "catalog fields keep the shape of 2.5"
 *   (spec 2.7), and a consumer needs `catalog_values`. An object inside a list item, and a catalog field inside such
 *   an object, are given as a `string` value of what was read (key columns joined by spaces).
 * - Dates are day-first unless the field's description, or else the skill's instructions, say month-first
 *   (`MM/DD`, `month first`, `mes/día`); where neither says, the document's own dates decide (`Values.dateOrderOf`:
 *   a 13–31 in first or second place, or how it writes month names), so an extractor returns dates as printed.
 */
import type { ExtractedFields } from "../Extractor.js"
import {
  type CatalogValue,
  type DetailedField,
  type DetailedSimpleValue,
  type SimpleType,
  sortFields
} from "../Field.js"
import type { Skill, SkillField } from "../Skill.js"
import * as Grounding from "./grounding.js"
import * as Values from "./values.js"

/** A catalog field's search: where it is, its settings, and what was read for each of its key columns. */
export interface CatalogRequest {
  readonly path: string
  readonly field: SkillField
  readonly extracted: Readonly<Record<string, string>>
}

/** What assembly needs. */
export interface AssemblyInput {
  readonly skill: Pick<Skill, "fields" | "instructions">
  readonly values: ExtractedFields
  /** The read document's words, indexed once (`Grounding.index`). */
  readonly words: Grounding.WordIndex
  /** Catalog results by request path (`catalogRequests`); a missing path is `not_found`. */
  readonly catalog: ReadonlyMap<string, CatalogValue>
  readonly grounding?: Grounding.GroundingOptions | undefined
}

type Dict = { readonly [name: string]: unknown }

const isDict = (v: unknown): v is Dict => typeof v === "object" && v !== null && !Array.isArray(v)

/** A simple literal from whatever the extractor gave: text as is, numbers and booleans as text, anything else none. */
export const literalOf = (v: unknown): string | null => {
  if (typeof v === "string") return v.trim().length === 0 ? null : v.trim()
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : null
  if (typeof v === "boolean" || typeof v === "bigint") return String(v)
  return null
}

const byOrder = (fields: ReadonlyArray<SkillField>): ReadonlyArray<SkillField> =>
  fields
    .map((f, i) => ({ f, i }))
    .sort((a, b) => a.f.order - b.f.order || a.i - b.i)
    .map(({ f }) => f)

/** What was read for each key column of a catalog field (a bare text counts for the first key column). */
const extractedKeys = (field: SkillField, v: unknown): Record<string, string> => {
  const columns = field.catalog?.keyColumns ?? []
  const out: Record<string, string> = {}
  if (isDict(v)) {
    for (const column of columns) {
      const literal = literalOf(v[column])
      if (literal !== null) out[column] = literal
    }
    return out
  }
  const literal = literalOf(v)
  const first = columns[0]
  if (literal !== null && first !== undefined) out[first] = literal
  return out
}

/** A list field's items: an array as is, a single value as a one-item list, nothing as none. */
const itemsOf = (v: unknown): ReadonlyArray<unknown> =>
  Array.isArray(v) ? v : v === null || v === undefined ? [] : [v]

/** The text of a value that a list item can only carry as a string (an object, or a catalog field inside one). */
const flatText = (field: SkillField, v: unknown): string | null => {
  if (field.type === "catalog") {
    const keys = Object.values(extractedKeys(field, v))
    return keys.length === 0 ? null : keys.join(" ")
  }
  if (field.type === "object" && isDict(v)) {
    const parts = byOrder(field.fields ?? []).flatMap((sub) => {
      const text = flatText(sub, v[sub.name])
      return text === null ? [] : [text]
    })
    return parts.length === 0 ? null : parts.join(" ")
  }
  return literalOf(v)
}

/** The literal of a value in a list item: what was read, as text. */
const literalFor = (field: SkillField, v: unknown): string | null =>
  field.type === "object" || field.type === "catalog" ? flatText(field, v) : literalOf(v)

/** The items of an object list that are kept (those carrying something), each with its sub-fields' literals. */
const objectItems = (subs: ReadonlyArray<SkillField>, v: unknown) =>
  itemsOf(v).flatMap((item) => {
    if (!isDict(item)) return []
    const literals = new Map(subs.map((sub) => [sub.name, literalFor(sub, item[sub.name])]))
    return [...literals.values()].every((l) => l === null) ? [] : [{ item, literals }]
  })

/** The items of a simple (or catalog) list that are kept, with their literals. */
const simpleItems = (field: SkillField, v: unknown) =>
  itemsOf(v).flatMap((item) => {
    const literal = literalFor(field, item)
    return literal === null ? [] : [{ item, literal }]
  })

/**
 * Every catalog search the extraction needs: catalog fields at any depth of objects, each kept item of a catalog
 * list (`codigos[1]`), and catalog sub-fields of each kept item of an object list (`lineas[2].producto`). Item
 * indexes count kept items, as the assembled list does.
 */
export const catalogRequests = (
  fields: ReadonlyArray<SkillField>,
  values: ExtractedFields
): ReadonlyArray<CatalogRequest> => {
  const requests: Array<CatalogRequest> = []
  const walk = (level: ReadonlyArray<SkillField>, container: unknown, prefix: string) => {
    for (const field of level) {
      const v = isDict(container) ? container[field.name] : undefined
      const path = `${prefix}${field.name}`
      if (field.isList && field.type === "catalog") {
        for (const [n, { item }] of simpleItems(field, v).entries()) {
          requests.push({ path: `${path}[${n}]`, field, extracted: extractedKeys(field, item) })
        }
      } else if (field.isList && field.type === "object") {
        const subs = byOrder(field.fields ?? [])
        for (const [n, { item }] of objectItems(subs, v).entries()) {
          for (const sub of subs) {
            if (sub.type !== "catalog" || sub.isList) continue
            requests.push({
              path: `${path}[${n}].${sub.name}`,
              field: sub,
              extracted: extractedKeys(sub, item[sub.name])
            })
          }
        }
      } else if (field.isList) continue
      else if (field.type === "catalog") requests.push({ path, field, extracted: extractedKeys(field, v) })
      else if (field.type === "object") walk(field.fields ?? [], v, `${path}.`)
    }
  }
  walk(fields, values, "")
  return requests
}

/** A `not_found` catalog value for a field whose search result is missing. */
const notFound = (field: SkillField, extracted: Readonly<Record<string, string>>): CatalogValue => ({
  type: "catalog",
  matching: {
    status: "not_found",
    method: field.catalog?.method ?? "exacta",
    score: 0,
    threshold_used: field.catalog?.method === "aproximada" ? field.catalog.threshold : null,
    extracted_values: extracted,
    key_columns: field.catalog?.keyColumns ?? []
  },
  catalog_values: {},
  catalog_info: { id: field.catalog?.catalogId ?? "", name: "", output_columns: field.catalog?.outputColumns ?? [] }
})

const MONTH_FIRST = /\b(?:mm\s*[/.-]\s*dd|month[\s-]first|mes\s*[/-]\s*d[ií]a)\b/i
const DAY_FIRST = /\b(?:dd\s*[/.-]\s*mm|day[\s-]first|d[ií]a\s*[/-]\s*mes)\b/i

/** The date order a text asks for, if any. */
const dateOrderIn = (text: string): Values.DateOrder | undefined =>
  MONTH_FIRST.test(text) ? "mdy" : DAY_FIRST.test(text) ? "dmy" : undefined

/** Builds the detailed fields of an extraction, sorted by `order` at every depth. */
export const assemble = (input: AssemblyInput): Array<DetailedField> => {
  const { words } = input
  const options = input.grounding ?? Grounding.defaultOptions
  const text = words.words.map((w) => w.text).join(" ")
  const skillOrder = dateOrderIn(input.skill.instructions) ?? Values.dateOrderOf(text) ?? "dmy"
  const decimalSeparator = Values.decimalSeparatorOf(text)
  const ids = new Set<string>()

  const uniqueId = (path: string): string => {
    let id = path
    for (let n = 2; ids.has(id); n++) id = `${path}#${n}`
    ids.add(id)
    return id
  }

  const labelsOf = (field: SkillField): ReadonlyArray<string> => [field.name, ...field.aliases]

  const simple = (
    field: SkillField,
    type: SimpleType,
    literal: string | null,
    path: string,
    hint: Grounding.Hint
  ): DetailedSimpleValue => {
    const id = uniqueId(path)
    if (literal === null) return { literal: "", parsed: null, word_ids: [], id, type }
    const dateOrder = dateOrderIn(field.description) ?? skillOrder
    return {
      literal,
      parsed: Values.parse(
        type,
        literal,
        decimalSeparator === undefined ? { dateOrder } : { dateOrder, decimalSeparator }
      ),
      word_ids: Grounding.ground(words, literal, hint, options),
      id,
      type
    }
  }

  const simpleType = (field: SkillField): SimpleType =>
    field.type === "object" || field.type === "catalog" ? "string" : field.type

  /** The catalog result at `path`, or `not_found` with what was read. */
  const catalogAt = (field: SkillField, v: unknown, path: string): CatalogValue =>
    input.catalog.get(path) ?? notFound(field, extractedKeys(field, v))

  const listOfObjects = (
    field: SkillField,
    v: unknown,
    path: string
  ): Array<{ [name: string]: DetailedSimpleValue | CatalogValue }> => {
    const subs = byOrder(field.fields ?? [])
    const used = new Set<string>()
    const out: Array<{ [name: string]: DetailedSimpleValue | CatalogValue }> = []
    for (const { item, literals } of objectItems(subs, v)) {
      const at = `${path}[${out.length}]`
      // The most distinctive value of the row (the longest) is grounded first; the others are looked for on its row.
      const anchor = subs
        .filter((sub) => literals.get(sub.name) !== null)
        .reduce<SkillField | undefined>((best, sub) => {
          const length = Grounding.key(literals.get(sub.name) ?? "").length
          return best === undefined || length > Grounding.key(literals.get(best.name) ?? "").length ? sub : best
        }, undefined)
      const grounded = new Map<string, DetailedSimpleValue>()
      const ground = (sub: SkillField, near: ReadonlyArray<string> | undefined) => {
        const value = simple(sub, simpleType(sub), literals.get(sub.name) ?? null, `${at}.${sub.name}`, {
          labels: labelsOf(sub),
          near,
          exclude: used
        })
        grounded.set(sub.name, value)
      }
      if (anchor !== undefined) ground(anchor, undefined)
      const near = anchor === undefined ? undefined : grounded.get(anchor.name)?.word_ids
      for (const sub of subs) if (sub !== anchor) ground(sub, near !== undefined && near.length > 0 ? near : undefined)
      for (const value of grounded.values()) for (const id of value.word_ids) used.add(id)
      // A catalog sub-field is grounded like the others (its words place the row) but carries its catalog value.
      const dict: { [name: string]: DetailedSimpleValue | CatalogValue } = {}
      for (const sub of subs) {
        const value = grounded.get(sub.name)
        if (value === undefined) continue
        dict[sub.name] =
          sub.type === "catalog" && !sub.isList ? catalogAt(sub, item[sub.name], `${at}.${sub.name}`) : value
      }
      out.push(dict)
    }
    return out
  }

  const listOfSimple = (field: SkillField, v: unknown, path: string): Array<DetailedSimpleValue | CatalogValue> => {
    const used = new Set<string>()
    const out: Array<DetailedSimpleValue | CatalogValue> = []
    for (const { item, literal } of simpleItems(field, v)) {
      const at = `${path}[${out.length}]`
      if (field.type === "catalog") {
        out.push(catalogAt(field, item, at))
        continue
      }
      const value = simple(field, simpleType(field), literal, at, { labels: labelsOf(field), exclude: used })
      for (const id of value.word_ids) used.add(id)
      out.push(value)
    }
    return out
  }

  const build = (level: ReadonlyArray<SkillField>, container: unknown, prefix: string): Array<DetailedField> =>
    byOrder(level).map((field): DetailedField => {
      const v = isDict(container) ? container[field.name] : undefined
      const path = `${prefix}${field.name}`
      const base = { name: field.name, order: field.order, type: field.type }
      if (field.isList) {
        return {
          ...base,
          value: field.type === "object" ? listOfObjects(field, v, path) : listOfSimple(field, v, path)
        }
      }
      if (field.type === "object") return { ...base, value: build(field.fields ?? [], v, `${path}.`) }
      if (field.type === "catalog") return { ...base, value: catalogAt(field, v, path) }
      return { ...base, value: simple(field, field.type, literalOf(v), path, { labels: labelsOf(field) }) }
    })

  return sortFields(build(input.skill.fields, input.values, ""))
}
