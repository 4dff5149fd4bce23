/**
 * What a model returned, checked against the skill: every value a string or null at the right nesting. Wrong or
 * missing values are reported as problems (the text of the one repair round) and left empty, never guessed; keys
 * outside the skill are dropped, so nothing but the skill's fields can come out of a model's answer.
 *
 * A field-by-field walk rather than a `Schema` decode: the result must keep every valid field when others are
 * wrong, and the problems must name the exact path for the repair message.
 */
import type { Extractor, Skill } from "@legible/core"
import * as SkillSchema from "./skillSchema.js"

/** One thing wrong with an answer: the top-level field it concerns, its path and what is wrong. */
export interface Problem {
  readonly field: string
  readonly path: string
  readonly message: string
}

/** An answer as checked: the values kept (wrong parts emptied) and the problems found. */
export interface Checked {
  readonly values: Extractor.ExtractedFields
  readonly problems: ReadonlyArray<Problem>
}

type Value = Extractor.ExtractedValue
type Dict = { readonly [name: string]: Value }

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const kind = (u: unknown): string =>
  u === null ? "null" : Array.isArray(u) ? "an array" : typeof u === "object" ? "an object" : `a ${typeof u}`

const text = (u: string): string | null => {
  const trimmed = u.trim()
  return trimmed === "" ? null : trimmed
}

const isEmpty = (v: Value | undefined): boolean =>
  v === null ||
  v === undefined ||
  (Array.isArray(v) && v.length === 0) ||
  (isRecord(v) && Object.values(v).every((inner) => isEmpty(inner as Value)))

class Walk {
  readonly problems: Array<Problem> = []
  constructor(readonly top: string) {}

  problem(path: string, message: string): void {
    this.problems.push({ field: this.top, path, message })
  }

  simple(u: unknown, path: string): string | null {
    if (u === null) return null
    if (typeof u === "string") return text(u)
    this.problem(path, `expected a string (the text as printed) or null, got ${kind(u)}`)
    return null
  }

  /** Reads each name under its schema property key (see `SkillSchema.propertyKeys`), keeps it under its name. */
  dict(names: ReadonlyArray<string>, u: unknown, path: string, each: (name: string, v: unknown, p: string) => Value) {
    const out: Record<string, Value> = {}
    if (u !== null && !isRecord(u)) this.problem(path, `expected an object, got ${kind(u)}`)
    const source = isRecord(u) ? u : undefined
    const keys = SkillSchema.propertyKeys(names)
    names.forEach((name, i) => {
      const key = keys[i] ?? name
      const p = `${path}.${key}`
      if (source !== undefined && !(key in source)) this.problem(p, "missing (use null when the document lacks it)")
      out[name] = each(name, source?.[key] ?? null, p)
    })
    return out
  }

  fields(fields: ReadonlyArray<Skill.SkillField>, u: unknown, path: string): Dict {
    const byName = new Map(fields.map((f) => [f.name, f]))
    return this.dict(
      fields.map((f) => f.name),
      u,
      path,
      (name, v, p) => {
        const field = byName.get(name)
        return field === undefined ? null : this.one(field, v, p)
      }
    )
  }

  catalog(field: Skill.SkillField, u: unknown, path: string): Dict | null {
    const columns = this.dict(field.catalog?.keyColumns ?? [], u, path, (_, v, p) => this.simple(v, p))
    return isEmpty(columns) ? null : columns
  }

  item(field: Skill.SkillField, u: unknown, path: string): string | Dict | null {
    if (field.type === "object") {
      const dict = this.fields(field.fields ?? [], u, path)
      return isEmpty(dict) ? null : dict
    }
    if (field.type === "catalog") return this.catalog(field, u, path)
    return this.simple(u, path)
  }

  one(field: Skill.SkillField, u: unknown, path: string): Value {
    if (field.isList) {
      if (u === null) return []
      if (!Array.isArray(u)) {
        this.problem(path, `expected an array, got ${kind(u)}`)
        return []
      }
      const items: Array<string | Dict> = []
      u.forEach((element, i) => {
        const item = this.item(field, element, `${path}[${i}]`)
        if (item !== null) items.push(item)
      })
      return items
    }
    if (field.type === "object") return this.fields(field.fields ?? [], u, path)
    if (field.type === "catalog") return this.catalog(field, u, path)
    return this.simple(u, path)
  }
}

/** Checks an answer (the tool input, or the parsed JSON content) against the skill's fields. */
export const check = (fields: ReadonlyArray<Skill.SkillField>, output: unknown): Checked => {
  const values: Record<string, Value> = {}
  const problems: Array<Problem> = []
  if (!isRecord(output)) {
    return unusable(fields, `expected a JSON object with the skill's fields, got ${kind(output)}`)
  }
  const keys = SkillSchema.propertyKeys(fields.map((f) => f.name))
  fields.forEach((field, i) => {
    const key = keys[i] ?? field.name
    const walk = new Walk(field.name)
    if (!(key in output)) walk.problem(key, "missing (use null when the document lacks it)")
    values[field.name] = walk.one(field, output[key] ?? null, key)
    problems.push(...walk.problems)
  })
  return { values, problems }
}

/** An answer with nothing usable in it (prose, unparseable JSON, no tool call): every field empty, one problem. */
export const unusable = (fields: ReadonlyArray<Skill.SkillField>, message: string): Checked => ({
  values: check(fields, {}).values,
  problems: [{ field: "*", path: "(answer)", message }]
})

/** The follow-up message of the repair round: the problems, and the rule that values are never invented. */
export const repairMessage = (problems: ReadonlyArray<Problem>): string =>
  [
    "Your answer does not match the required schema:",
    ...problems.map((p) => `- ${p.path}: ${p.message}`),
    "Answer again with every field of the schema: each value is the text exactly as printed in the document, " +
      "or null when the document does not show it. Do not invent values."
  ].join("\n")

/**
 * The values after the repair round, which fixes only what was wrong: fields that were sound in the first answer
 * keep it; the others take the repaired answer's value, whose wrong parts are empty.
 */
export const afterRepair = (
  fields: ReadonlyArray<Skill.SkillField>,
  first: Checked,
  repaired: Checked
): Extractor.ExtractedFields => {
  const wrong = new Set(first.problems.map((p) => p.field))
  return Object.fromEntries(
    fields.map(({ name }) => [
      name,
      (wrong.has(name) || wrong.has("*") ? repaired.values[name] : first.values[name]) ?? null
    ])
  )
}

const mergeValue = (field: Skill.SkillField, values: ReadonlyArray<Value | undefined>): Value => {
  if (field.isList) return values.flatMap((v) => (Array.isArray(v) ? v : []))
  if (field.type === "object") {
    const dicts = values.filter(isRecord) as ReadonlyArray<Dict>
    return Object.fromEntries(
      (field.fields ?? []).map((sub) => [
        sub.name,
        mergeValue(
          sub,
          dicts.map((d) => d[sub.name])
        )
      ])
    )
  }
  return values.find((v) => !isEmpty(v)) ?? null
}

/**
 * Merges the answers of a document's parts (page ranges, in order): a simple or catalog field takes the first
 * non-empty value, an object merges its sub-fields the same way, lists are concatenated in page order.
 */
export const mergeParts = (
  fields: ReadonlyArray<Skill.SkillField>,
  parts: ReadonlyArray<Extractor.ExtractedFields>
): Extractor.ExtractedFields =>
  Object.fromEntries(
    fields.map((field) => [
      field.name,
      mergeValue(
        field,
        parts.map((p) => p[field.name])
      )
    ])
  )
