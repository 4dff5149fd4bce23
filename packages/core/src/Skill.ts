import { Schema } from "effect"
import { IDENTIFIERS } from "./Checks.js"
import { ClientId } from "./Directory.js"
import { FieldType } from "./Field.js"
import { Timestamp } from "./Timestamp.js"

/** Catalog settings of a `catalog` field: which catalog, which columns to search and return, and how. */
export const CatalogFieldConfig = Schema.Struct({
  catalogId: Schema.String,
  keyColumns: Schema.NonEmptyArray(Schema.String),
  outputColumns: Schema.Array(Schema.String),
  method: Schema.Literals(["exacta", "aproximada"]),
  /** Minimum similarity (0–1) for `aproximada`; ignored for `exacta`. */
  threshold: Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 }))
})
export type CatalogFieldConfig = typeof CatalogFieldConfig.Type

/** A field of a skill: what to extract, in which position, of which type. */
export interface SkillField {
  readonly name: string
  readonly order: number
  readonly type: FieldType
  readonly isList: boolean
  readonly description: string
  readonly aliases: ReadonlyArray<string>
  /** Sub-fields of an `object` field, or of a list of objects. */
  readonly fields?: ReadonlyArray<SkillField>
  /** Present exactly for `catalog` fields. */
  readonly catalog?: CatalogFieldConfig
  /**
   * The identifier check the value must pass (`Checks.IDENTIFIERS`, e.g. `cuit`), or `none` to turn off the one the
   * field's name, aliases or description would give it by default (`Checks.checkFor`).
   */
  readonly validate?: Validation
}

/** What a field's `validate` may name: an identifier check, or `none`. */
export const Validation = Schema.Literals([...IDENTIFIERS, "none"])
export type Validation = typeof Validation.Type

const FieldName = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))

/** Schema of a skill field (recursive through `fields`). */
export const SkillField: Schema.Codec<SkillField> = Schema.Struct({
  name: FieldName,
  order: Schema.Int,
  type: FieldType,
  isList: Schema.Boolean,
  description: Schema.String,
  aliases: Schema.Array(Schema.String),
  fields: Schema.optionalKey(Schema.Array(Schema.suspend(() => SkillField))),
  catalog: Schema.optionalKey(CatalogFieldConfig),
  validate: Schema.optionalKey(Validation)
}) as never

/**
 * A skill's review setting (extension): processing ends in `incompleto`, with a message naming each field and why,
 * when a `required` field is empty, under `threshold` or fails a check; otherwise `completado`.
 */
export const Review = Schema.Struct({
  /** The least confidence (0–1) a required value may have. */
  threshold: Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 })),
  /** Top-level field names that must be present, confident and pass their checks. */
  required: Schema.Array(Schema.String)
})
export type Review = typeof Review.Type

/** A skill slug: lower-case letters, digits and dashes. */
export const Slug = Schema.String.check(Schema.isPattern(/^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/))

/** A skill (habilidad): a versioned schema of named, ordered, typed fields, owned by a client. */
export const Skill = Schema.Struct({
  id: Schema.String,
  clientId: ClientId,
  slug: Slug,
  name: Schema.String,
  /** Starts at 1; each update stores a new version and extractions record the version they ran with. */
  version: Schema.Int.check(Schema.isGreaterThanOrEqualTo(1)),
  instructions: Schema.String,
  fields: Schema.Array(SkillField),
  /** When set, processing may end in `incompleto` (see `Review`). */
  review: Schema.optionalKey(Review),
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type Skill = typeof Skill.Type

/** Checks the rules a schema cannot express: unique names per level, sub-fields exactly on objects, catalog settings exactly on catalogs. */
export const validateFields = (fields: ReadonlyArray<SkillField>, path = ""): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const seen = new Set<string>()
  for (const f of fields) {
    const where = `${path}${f.name}`
    if (seen.has(f.name)) problems.push(`duplicate field name "${where}"`)
    seen.add(f.name)
    if (f.type === "object") {
      if (!f.fields || f.fields.length === 0) problems.push(`object field "${where}" needs sub-fields`)
      else problems.push(...validateFields(f.fields, `${where}.`))
    } else if (f.fields !== undefined) {
      problems.push(`only object fields may have sub-fields ("${where}")`)
    }
    if (f.type === "catalog" && f.catalog === undefined)
      problems.push(`catalog field "${where}" needs catalog settings`)
    if (f.type !== "catalog" && f.catalog !== undefined)
      problems.push(`only catalog fields may have catalog settings ("${where}")`)
  }
  return problems
}
