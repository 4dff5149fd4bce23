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

/** A simple value in the detailed read: it adds the OCR words that support it, its id and its type (spec 2.7). */
export const DetailedSimpleValue = Schema.Struct({
  literal: Schema.String,
  parsed: Parsed,
  word_ids: Schema.Array(Schema.String),
  id: Schema.String,
  type: SimpleType
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

/** A field of a result (spec 2.4), generic in the simple value shape (plain or detailed). */
export interface FieldOf<V> {
  readonly name: string
  readonly order: number
  readonly type: FieldType
  readonly value: FieldValueOf<V>
}

/** A field's value: simple, object (sub-fields), list (values or sub-field dictionaries), or catalog (spec 2.5). */
export type FieldValueOf<V> =
  | V
  | ReadonlyArray<FieldOf<V>>
  | ReadonlyArray<V | CatalogValue | { readonly [name: string]: V | CatalogValue }>
  | CatalogValue
  | null

const makeField = <V extends Schema.Top>(simple: V) => {
  const field: Schema.Codec<FieldOf<V["Type"]>, FieldOf<V["Encoded"]>> = Schema.Struct({
    name: Schema.String,
    order: Schema.Int,
    type: FieldType,
    value: Schema.Union([
      Schema.Null,
      CatalogValue,
      simple,
      Schema.Array(Schema.suspend(() => field)),
      Schema.Array(
        Schema.Union([simple, CatalogValue, Schema.Record(Schema.String, Schema.Union([simple, CatalogValue]))])
      )
    ])
  }) as never
  return field
}

/** A field of the plain read (spec 2.3). */
export const Field = makeField(SimpleValue)
export type Field = FieldOf<SimpleValue>

/** A field of the detailed read (spec 2.7). */
export const DetailedField = makeField(DetailedSimpleValue)
export type DetailedField = FieldOf<DetailedSimpleValue>

const isSimple = (v: unknown): v is DetailedSimpleValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "literal" in v && "parsed" in v

const isCatalog = (v: unknown): v is CatalogValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "type" in v && v.type === "catalog" && "matching" in v

const isField = (v: unknown): v is DetailedField =>
  typeof v === "object" && v !== null && "name" in v && "order" in v && "type" in v && "value" in v

const plainValue = (v: DetailedSimpleValue): SimpleValue => ({ literal: v.literal, parsed: v.parsed })

/** Drops the detailed members (`word_ids`, `id`, `type`) of every simple value, at every depth. */
export const toPlain = (fields: ReadonlyArray<DetailedField>): Array<Field> =>
  fields.map((f): Field => {
    const value = f.value
    if (value === null || !Array.isArray(value)) {
      return { ...f, value: isSimple(value) ? plainValue(value) : (value as CatalogValue | null) }
    }
    if (value.every(isField)) return { ...f, value: toPlain(value) }
    return {
      ...f,
      // Catalog values in list items (spec 2.5.4) are the same in both reads.
      value: value.map((item) =>
        isSimple(item)
          ? plainValue(item)
          : isCatalog(item)
            ? item
            : Object.fromEntries(
                Object.entries(item as Record<string, DetailedSimpleValue | CatalogValue>).map(([k, v]) => [
                  k,
                  isSimple(v) ? plainValue(v) : v
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
