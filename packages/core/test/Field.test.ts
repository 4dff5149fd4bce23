import { assert, describe, it } from "@effect/vitest"
import { Field } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Arbitrary, Effect, Schema } from "effect"
import { seeded } from "./support.js"

type Node = Field.FieldOf<Field.SimpleValue>

const leaf = Schema.Struct({ literal: Schema.String, parsed: Field.Parsed })

/**
 * Nested fields with few distinct orders (so ties are common and stability is exercised) and unique names (so a
 * field can be followed through the sort).
 */
const NodeSchema: Schema.Codec<Node> = Schema.Struct({
  name: Schema.String,
  order: Schema.Int.check(Schema.isBetween({ minimum: -2, maximum: 3 })),
  type: Field.FieldType,
  value: Schema.Union([leaf, Schema.Array(Schema.suspend(() => NodeSchema))])
})
const Fields = Schema.Array(NodeSchema)

/** The reference: for each order value ascending, the fields with it in their original relative order. */
const reference = (fields: ReadonlyArray<Node>): Array<Node> =>
  [...new Set(fields.map((f) => f.order))]
    .sort((a, b) => a - b)
    .flatMap((order) => fields.filter((f) => f.order === order))
    .map((f) => (isNested(f.value) && f.value.length > 0 ? { ...f, value: reference(f.value) } : f))

const isNested = (value: Node["value"]): value is ReadonlyArray<Node> =>
  Array.isArray(value) && value.every((v) => typeof v === "object" && v !== null && "order" in v)

const checkSortedEverywhere = (fields: ReadonlyArray<Node>): void => {
  for (let i = 1; i < fields.length; i++) assert.isAtMost(fields[i - 1]!.order, fields[i]!.order)
  for (const f of fields) if (isNested(f.value)) checkSortedEverywhere(f.value)
}

/** A multiset fingerprint of the fields at every depth, independent of their order. */
const fingerprint = (fields: ReadonlyArray<Node>): string =>
  fields
    .map((f) =>
      JSON.stringify([f.name, f.order, f.type, isNested(f.value) ? fingerprint(f.value) : JSON.stringify(f.value)])
    )
    .sort()
    .join("|")

const depth = (fields: ReadonlyArray<Node>): number =>
  Math.max(0, ...fields.map((f) => (isNested(f.value) ? 1 + depth(f.value) : 1)))

describe("Field.sortFields (spec 4.5)", () => {
  it.effect("the generator makes nested fields with tied orders", () =>
    Effect.gen(function* () {
      const samples = yield* Arbitrary.sampleEffect(Arbitrary.schema(Fields), { count: 200, seed: 300, size: 30 })
      assert.isTrue(samples.some((fields) => depth(fields) >= 3))
      assert.isTrue(samples.some((fields) => new Set(fields.map((f) => f.order)).size < fields.length))
    })
  )

  it.prop(
    "is the stable sort by order at every depth",
    [Fields],
    ([fields]) => {
      const sorted = Field.sortFields(fields)
      assert.deepStrictEqual(sorted, reference(fields))
      checkSortedEverywhere(sorted)
    },
    seeded(301, 300)
  )

  it.prop(
    "is idempotent and a permutation, and leaves its input untouched",
    [Fields],
    ([fields]) => {
      const before = JSON.stringify(fields)
      const sorted = Field.sortFields(fields)
      assert.deepStrictEqual(Field.sortFields(sorted), sorted)
      assert.strictEqual(sorted.length, fields.length)
      assert.strictEqual(fingerprint(sorted), fingerprint(fields))
      assert.strictEqual(JSON.stringify(fields), before)
    },
    seeded(302, 300)
  )

  it("keeps the relative order of equal orders (explicit case)", () => {
    const v = { literal: "x", parsed: "x" }
    const fields: Array<Node> = [
      { name: "c", order: 2, type: "string", value: v },
      { name: "a", order: 1, type: "string", value: v },
      {
        name: "obj",
        order: 1,
        type: "object",
        value: [
          { name: "z", order: 9, type: "string", value: v },
          { name: "y", order: 0, type: "string", value: v },
          { name: "x", order: 0, type: "string", value: v }
        ]
      },
      { name: "b", order: 2, type: "string", value: v }
    ]
    const sorted = Field.sortFields(fields)
    assert.deepStrictEqual(
      sorted.map((f) => f.name),
      ["a", "obj", "c", "b"]
    )
    const obj = sorted[1]?.value ?? null
    assert.isTrue(isNested(obj))
    assert.deepStrictEqual(isNested(obj) ? obj.map((f) => f.name) : [], ["y", "x", "z"])
  })
})

describe("Field.toPlain", () => {
  it("drops word_ids, id and type from simple values at every depth and keeps catalog values whole", () => {
    const nested: Field.DetailedField = {
      name: "direccion",
      order: 7,
      type: "object",
      value: [
        {
          name: "calle",
          order: 1,
          type: "string",
          value: { literal: "Gran Vía 1", parsed: "Gran Vía 1", word_ids: ["w20"], id: "v20", type: "string" }
        }
      ]
    }
    const plain = Field.toPlain([...Fixtures.invoiceResultFields, nested])
    assert.notInclude(JSON.stringify(plain), "word_ids")
    assert.deepStrictEqual(plain[6], {
      name: "direccion",
      order: 7,
      type: "object",
      value: [{ name: "calle", order: 1, type: "string", value: { literal: "Gran Vía 1", parsed: "Gran Vía 1" } }]
    })
    assert.deepStrictEqual(plain[5], Fixtures.invoiceResultFields[5])
    assert.deepStrictEqual(plain[3]?.value, { literal: "1.234,56 €", parsed: 1234.56 })
  })
})
