/**
 * The JSON schema of a skill's fields, as the extraction tool's input (Anthropic) and the structured output
 * (OpenAI). Every value is a string (the literal text as printed) or null; objects nest, lists are arrays, catalog
 * fields are an object of their key columns. Strict-mode compatible: every object has `additionalProperties: false`
 * and lists all its properties as required, absence being expressed by `null` (or `[]` for lists).
 */
import type { Skill } from "@legible/core"

/** A JSON schema node, limited to what the generator emits. */
export interface JsonSchema {
  readonly type: "object" | "array" | "string" | readonly ["string", "null"]
  readonly description?: string
  readonly properties?: { readonly [name: string]: JsonSchema }
  readonly required?: ReadonlyArray<string>
  readonly additionalProperties?: false
  readonly items?: JsonSchema
}

/** The schema of the whole tool input: an object with one property per top-level field. */
export interface ObjectSchema extends JsonSchema {
  readonly type: "object"
  readonly properties: { readonly [name: string]: JsonSchema }
  readonly required: ReadonlyArray<string>
  readonly additionalProperties: false
}

/** The name of the one tool (Anthropic) and of the response format (OpenAI). */
export const TOOL_NAME = "extract_fields"

const safe = (name: string): string => {
  const plain = name
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z0-9_.-]+/g, "_")
    .slice(0, 64)
  return plain === "" || /^_+$/.test(plain) ? "field" : plain
}

/**
 * The property keys of one level of names: providers accept only `[A-Za-z0-9_.-]{1,64}` (Anthropic rejects
 * others), while skill field and catalog column names may hold accents, spaces or 200 characters. Keys are the
 * names folded to that alphabet, made unique with `_2`, `_3`…; the schema's descriptions carry the real names and
 * `Output.check` maps the keys back.
 */
export const propertyKeys = (names: ReadonlyArray<string>): ReadonlyArray<string> => {
  const used = new Set<string>()
  return names.map((name) => {
    const base = safe(name)
    let key = base
    for (let n = 2; used.has(key); n++) key = `${base.slice(0, 64 - String(n).length - 1)}_${n}`
    used.add(key)
    return key
  })
}

const typeHints: Readonly<Record<Skill.SkillField["type"], string>> = {
  string: "Text, copied as printed.",
  integer: "A whole number, copied as printed (keep its separators).",
  float: "A number or amount, copied as printed (keep separators, decimals and any attached currency sign).",
  date: "A date, copied exactly as printed (e.g. 12/03/2024 or 12 de marzo de 2024); do not reformat it.",
  boolean: "A yes/no mark, copied as printed (e.g. Sí, No, X, ✓).",
  object: "A group of sub-fields.",
  catalog: "The values printed in the document for the catalog's key columns, used to look the record up."
}

/** The description a field carries in the schema: its own words, its aliases and how to copy its value. */
export const describe = (field: Skill.SkillField): string => {
  const parts: Array<string> = []
  const own = field.description.trim()
  if (own !== "") parts.push(/[.!?]$/.test(own) ? own : `${own}.`)
  if (field.aliases.length > 0) parts.push(`Also labelled: ${field.aliases.map((a) => `"${a}"`).join(", ")}.`)
  if (field.isList) parts.push("A list: one item per occurrence (e.g. per table row), in document order; [] if none.")
  parts.push(typeHints[field.type])
  if (!field.isList && field.type === "catalog") parts.push("Each column null when the document does not show it.")
  else if (!field.isList && field.type !== "object") parts.push("null when the document does not show it.")
  return parts.join(" ")
}

const nullableString = (description: string): JsonSchema => ({ type: ["string", "null"], description })

const object = (properties: Record<string, JsonSchema>, description?: string): ObjectSchema => ({
  type: "object",
  ...(description === undefined ? {} : { description }),
  properties,
  required: Object.keys(properties),
  additionalProperties: false
})

const subFields = (fields: ReadonlyArray<Skill.SkillField>): Record<string, JsonSchema> => {
  const keys = propertyKeys(fields.map((f) => f.name))
  return Object.fromEntries(
    fields.map((f, i) => {
      const schema = fieldSchema(f)
      const key = keys[i] ?? f.name
      const named =
        key === f.name ? schema : { ...schema, description: `Field "${f.name}". ${schema.description ?? ""}` }
      return [key, named]
    })
  )
}

const catalogColumns = (field: Skill.SkillField): Record<string, JsonSchema> => {
  const columns = field.catalog?.keyColumns ?? []
  const keys = propertyKeys(columns)
  return Object.fromEntries(
    columns.map((column, i) => [keys[i] ?? column, nullableString(`Column "${column}" as printed, or null.`)])
  )
}

/** The schema of one field (recursively). */
export const fieldSchema = (field: Skill.SkillField): JsonSchema => {
  const description = describe(field)
  if (field.type === "object") {
    const item = object(subFields(field.fields ?? []))
    return field.isList ? { type: "array", description, items: item } : { ...item, description }
  }
  if (field.type === "catalog") {
    const item = object(catalogColumns(field))
    return field.isList ? { type: "array", description, items: item } : { ...item, description }
  }
  return field.isList ? { type: "array", description, items: { type: "string" } } : nullableString(description)
}

/** The schema of a skill's fields: the tool input / structured output the model fills. */
export const fromFields = (fields: ReadonlyArray<Skill.SkillField>): ObjectSchema => object(subFields(fields))
