import { assert, describe, it } from "@effect/vitest"
import type { Skill } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import fc from "fast-check"
import * as SkillSchema from "../../src/internal/skillSchema.js"

type Node = SkillSchema.JsonSchema

/** Every object node, at any depth. */
const objects = (node: Node): Array<Node> => [
  ...(node.type === "object" ? [node] : []),
  ...Object.values(node.properties ?? {}).flatMap(objects),
  ...(node.items === undefined ? [] : objects(node.items))
]

/** Every leaf (non-object, non-array) node. */
const leaves = (node: Node): Array<Node> =>
  node.type === "object"
    ? Object.values(node.properties ?? {}).flatMap(leaves)
    : node.type === "array"
      ? leaves(node.items ?? { type: "string" })
      : [node]

const name = fc.oneof(fc.stringMatching(/^[a-z][a-z_]{0,11}$/), fc.string({ minLength: 1, maxLength: 80 }))

const simpleField = (type: fc.Arbitrary<Skill.SkillField["type"]>): fc.Arbitrary<Skill.SkillField> =>
  fc.record({
    name,
    order: fc.nat(20),
    type,
    isList: fc.boolean(),
    description: fc.string({ maxLength: 30 }),
    aliases: fc.array(fc.string({ minLength: 1, maxLength: 10 }), { maxLength: 2 })
  })

const uniqueByName = (fields: ReadonlyArray<Skill.SkillField>) =>
  fields.filter((f, i) => fields.findIndex((g) => g.name === f.name) === i)

const leafField = simpleField(fc.constantFrom("string", "integer", "float", "date", "boolean"))

const catalogField = fc
  .tuple(simpleField(fc.constant("catalog")), fc.uniqueArray(name, { minLength: 1, maxLength: 3 }))
  .map(
    ([f, keyColumns]): Skill.SkillField => ({
      ...f,
      catalog: {
        catalogId: "c",
        keyColumns: [keyColumns[0] ?? "key", ...keyColumns.slice(1)],
        outputColumns: [],
        method: "exacta",
        threshold: 1
      }
    })
  )

const objectField = fc
  .tuple(
    simpleField(fc.constant("object")),
    fc.array(fc.oneof(leafField, catalogField), { minLength: 1, maxLength: 4 })
  )
  .map(([f, subs]): Skill.SkillField => ({ ...f, fields: uniqueByName(subs) }))

const skillFields = fc
  .array(fc.oneof(leafField, catalogField, objectField), { minLength: 1, maxLength: 6 })
  .map(uniqueByName)

describe("SkillSchema", () => {
  it("the invoice skill: strings or null, a list of objects, the catalog field as an object of its key columns", () => {
    const schema = SkillSchema.fromFields(Fixtures.skill().fields)
    assert.deepStrictEqual(schema.required, ["numero", "fecha", "emisor", "total", "lineas", "proveedor"])
    assert.deepStrictEqual(schema.properties.numero?.type, ["string", "null"])
    assert.include(schema.properties.numero?.description ?? "", 'Also labelled: "nº factura", "factura n.º".')
    assert.include(schema.properties.fecha?.description ?? "", "do not reformat it")
    const lineas = schema.properties.lineas
    assert.strictEqual(lineas?.type, "array")
    assert.deepStrictEqual(lineas?.items?.required, ["descripcion", "cantidad", "importe"])
    const proveedor = schema.properties.proveedor
    assert.strictEqual(proveedor?.type, "object")
    assert.deepStrictEqual(Object.keys(proveedor?.properties ?? {}), ["cif"])
    assert.deepStrictEqual(proveedor?.properties?.cif?.type, ["string", "null"])
  })

  it("property keys in the providers' alphabet, unique per level; the real names in the descriptions", () => {
    assert.deepStrictEqual(
      SkillSchema.propertyKeys(["número de factura", "numero_de_factura", "Fecha", "", "ñ".repeat(80)]),
      ["numero_de_factura", "numero_de_factura_2", "Fecha", "field", "n".repeat(64)]
    )
    const schema = SkillSchema.fromFields([
      { name: "número de factura", order: 1, type: "string", isList: false, description: "Nº", aliases: [] }
    ])
    assert.deepStrictEqual(Object.keys(schema.properties), ["numero_de_factura"])
    assert.include(schema.properties.numero_de_factura?.description ?? "", 'Field "número de factura".')
  })

  it("strict-mode rules hold for any skill: closed objects, every property required, string leaves", () => {
    fc.assert(
      fc.property(skillFields, (fields) => {
        const schema = SkillSchema.fromFields(fields)
        for (const node of objects(schema)) {
          assert.strictEqual(node.additionalProperties, false)
          assert.deepStrictEqual(node.required, Object.keys(node.properties ?? {}))
        }
        for (const leaf of leaves(schema)) assert.include(["string", "string,null"], String(leaf.type))
        for (const node of objects(schema))
          for (const key of Object.keys(node.properties ?? {})) assert.match(key, /^[A-Za-z0-9_.-]{1,64}$/)
        // Sorted: JavaScript lists integer-like keys ("0") first, whatever the insertion order.
        assert.deepStrictEqual(
          Object.keys(schema.properties).sort(),
          [...SkillSchema.propertyKeys(fields.map((f) => f.name))].sort()
        )
        // JSON round trip: nothing the SDKs could not serialise.
        assert.deepStrictEqual(JSON.parse(JSON.stringify(schema)), schema)
      }),
      { seed: 4001, numRuns: 60 }
    )
  })
})
