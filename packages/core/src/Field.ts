import { Schema } from "effect"

/** The type of a skill field (spec 2.4). */
export const FieldType = Schema.Literals(["string", "integer", "float", "date", "boolean", "object", "catalog"])
export type FieldType = typeof FieldType.Type

/** The simple types, whose value is `{literal, parsed}` (spec 2.5.1). */
export const SimpleType = Schema.Literals(["string", "integer", "float", "date", "boolean"])
export type SimpleType = typeof SimpleType.Type

/** A parsed value: text, number, boolean, a `YYYY-MM-DD` date string, or `null` when the literal could not be parsed. */
export const Parsed = Schema.NullOr(Schema.Union([Schema.String, Schema.Number, Schema.Boolean]))
export type Parsed = typeof Parsed.Type

/** A simple value as read (spec 2.5.1). */
export const SimpleValue = Schema.Struct({
  literal: Schema.String,
  parsed: Parsed
})
export type SimpleValue = typeof SimpleValue.Type

/** Something that lowered a value's confidence: a code and a sentence (extension). */
export const Reason = Schema.Struct({ code: Schema.String, message: Schema.String })
export type Reason = typeof Reason.Type

/** The detailed read's assessment of a value (extension): its confidence and what lowered it. */
const assessment = {
  confidence: Schema.optionalKey(
    Schema.NullOr(Schema.Number).annotate({
      description:
        "Extension: the probability (0–1) that the value is right, calibrated on labelled documents; null when " +
        "nothing was found. Absent from results stored before it was computed."
    })
  ),
  reasons: Schema.optionalKey(
    Schema.Array(Reason).annotate({
      description:
        "Extension: what lowered the confidence (e.g. not_grounded, low_ocr, low_certainty, parse_failed, " +
        "checksum_failed, implausible_date, sum_mismatch, repeat_mismatch, code_mismatch, catalog_score, catalog_margin, not_found); empty when nothing did."
    })
  )
}

/**
 * A simple value in the detailed read: it adds the OCR words that support it, its id and its type (spec 2.7), and
 * its confidence and reasons (extension).
 */
export const DetailedSimpleValue = Schema.Struct({
  literal: Schema.String,
  parsed: Parsed,
  word_ids: Schema.Array(Schema.String),
  id: Schema.String,
  type: SimpleType,
  ...assessment
})
export type DetailedSimpleValue = typeof DetailedSimpleValue.Type

/** The outcome of a catalog search (spec 2.5.4). `catalog_record_id` is present only when found. */
export const Matching = Schema.Struct({
  status: Schema.Literals(["found", "not_found"]),
  method: Schema.Literals(["exacta", "aproximada"]),
  score: Schema.Number.check(Schema.isBetween({ minimum: 0, maximum: 1 })),
  threshold_used: Schema.optionalKey(Schema.NullOr(Schema.Number)),
  extracted_values: Schema.Record(Schema.String, Schema.String),
  catalog_record_id: Schema.optionalKey(Schema.String),
  key_columns: Schema.optionalKey(Schema.Array(Schema.String))
})
export type Matching = typeof Matching.Type

/** The value of a `catalog` field (spec 2.5.4); the same in the detailed read. */
export const CatalogValue = Schema.Struct({
  type: Schema.Literal("catalog"),
  matching: Matching,
  catalog_values: Schema.Record(Schema.String, Schema.String),
  catalog_info: Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    output_columns: Schema.Array(Schema.String)
  })
})
export type CatalogValue = typeof CatalogValue.Type

/** A catalog value in the detailed read: spec 2.5.4's shape, and its confidence and reasons (extension). */
export const DetailedCatalogValue = Schema.Struct({ ...CatalogValue.fields, ...assessment })
export type DetailedCatalogValue = typeof DetailedCatalogValue.Type

/** A field of a result (spec 2.4), generic in the simple and catalog value shapes (plain or detailed). */
export interface FieldOf<V, C = CatalogValue> {
  readonly name: string
  readonly order: number
  readonly type: FieldType
  readonly value: FieldValueOf<V, C>
}

/** A field's value: simple, object (sub-fields), list (values or sub-field dictionaries), or catalog (spec 2.5). */
export type FieldValueOf<V, C = CatalogValue> =
  | V
  | ReadonlyArray<FieldOf<V, C>>
  | ReadonlyArray<V | C | { readonly [name: string]: V | C }>
  | C
  | null

const makeField = <V extends Schema.Top, C extends Schema.Top>(simple: V, catalog: C) => {
  const field: Schema.Codec<FieldOf<V["Type"], C["Type"]>, FieldOf<V["Encoded"], C["Encoded"]>> = Schema.Struct({
    name: Schema.String,
    order: Schema.Int,
    type: FieldType,
    value: Schema.Union([
      Schema.Null,
      catalog,
      simple,
      Schema.Array(Schema.suspend(() => field)),
      Schema.Array(Schema.Union([simple, catalog, Schema.Record(Schema.String, Schema.Union([simple, catalog]))]))
    ])
  }) as never
  return field
}

/** A field of the plain read (spec 2.3). */
export const Field = makeField(SimpleValue, CatalogValue)
export type Field = FieldOf<SimpleValue>

/** A field of the detailed read (spec 2.7). */
export const DetailedField = makeField(DetailedSimpleValue, DetailedCatalogValue)
export type DetailedField = FieldOf<DetailedSimpleValue, DetailedCatalogValue>

const isSimple = (v: unknown): v is DetailedSimpleValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "literal" in v && "parsed" in v

const isCatalog = (v: unknown): v is DetailedCatalogValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "type" in v && v.type === "catalog" && "matching" in v

const isField = (v: unknown): v is DetailedField =>
  typeof v === "object" && v !== null && "name" in v && "order" in v && "type" in v && "value" in v

const plainValue = (v: DetailedSimpleValue): SimpleValue => ({ literal: v.literal, parsed: v.parsed })

const plainCatalog = ({ confidence: _c, reasons: _r, ...value }: DetailedCatalogValue): CatalogValue => value

const plainItem = (v: DetailedSimpleValue | DetailedCatalogValue): SimpleValue | CatalogValue =>
  isSimple(v) ? plainValue(v) : plainCatalog(v)

/**
 * Drops the detailed members (`word_ids`, `id`, `type`, and the extensions `confidence` and `reasons`) of every
 * value, at every depth.
 */
export const toPlain = (fields: ReadonlyArray<DetailedField>): Array<Field> =>
  fields.map((f): Field => {
    const value = f.value
    if (value === null || !Array.isArray(value)) {
      return { ...f, value: value === null ? null : plainItem(value as DetailedSimpleValue | DetailedCatalogValue) }
    }
    if (value.every(isField)) return { ...f, value: toPlain(value) }
    return {
      ...f,
      value: value.map((item) =>
        isSimple(item) || isCatalog(item)
          ? plainItem(item)
          : Object.fromEntries(
              Object.entries(item as Record<string, DetailedSimpleValue | DetailedCatalogValue>).map(([k, v]) => [
                k,
                plainItem(v)
              ])
            )
      )
    }
  })

/**
 * Sorts fields ascending by `order`, recursively into `object` sub-fields (spec 4.5). The sort is stable:
 * fields with the same order keep their relative position.
 */
export const sortFields = <V>(fields: ReadonlyArray<FieldOf<V>>): Array<FieldOf<V>> =>
  fields
    .map((f, index) => ({ f, index }))
    .sort((a, b) => a.f.order - b.f.order || a.index - b.index)
    .map(({ f }) => {
      const value = f.value
      if (Array.isArray(value) && value.length > 0 && value.every(isField)) {
        return { ...f, value: sortFields(value as ReadonlyArray<FieldOf<V>>) }
      }
      return f
    })
