import { assert, describe, it } from "@effect/vitest"
import type { Extractor } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Schema } from "effect"
import * as Output from "../../src/internal/output.js"

const fields = Fixtures.skill().fields

const sound = {
  numero: "F-2026/0042",
  fecha: "12/03/2026",
  emisor: "Suministros Acme S.L.",
  total: "1.385,45 €",
  lineas: [{ descripcion: "Papel", cantidad: "10", importe: "45,00" }],
  proveedor: { cif: "B12345678" }
}

/** Whether a value has the skill's shape: strings or null at the leaves, arrays for lists, dicts for objects. */
const conforms = (value: Extractor.ExtractedValue | undefined, field: (typeof fields)[number]): boolean => {
  const leaf = (v: unknown) => v === null || typeof v === "string"
  const dict = (v: unknown, names: ReadonlyArray<string>, each: (name: string, inner: unknown) => boolean) =>
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    Object.keys(v).every((k) => names.includes(k)) &&
    names.every((n) => each(n, Reflect.get(v, n)))
  const item = (v: unknown): boolean =>
    field.type === "object"
      ? dict(
          v,
          (field.fields ?? []).map((f) => f.name),
          (n, inner) => leaf(inner) && n !== ""
        )
      : field.type === "catalog"
        ? dict(v, field.catalog?.keyColumns ?? [], (_, inner) => leaf(inner))
        : typeof v === "string"
  if (field.isList) return Array.isArray(value) && value.every(item)
  if (field.type === "catalog") return value === null || item(value)
  if (field.type === "object") return item(value)
  return leaf(value)
}

describe("Output.check", () => {
  it("a sound answer passes unchanged", () => {
    assert.deepStrictEqual(Output.check(fields, sound), { values: sound, problems: [] })
  })

  it("keys outside the skill are dropped, at every depth", () => {
    const checked = Output.check(fields, {
      ...sound,
      status: "completado",
      client_id: "client-globex",
      lineas: [{ ...sound.lineas[0], precio: "1" }],
      proveedor: { cif: "B12345678", nombre: "Otro" }
    })
    assert.deepStrictEqual(checked.values, sound)
    assert.deepStrictEqual(checked.problems, [])
  })

  it("wrong types and missing keys are problems with their paths, and are left empty", () => {
    const { fecha: _missing, ...rest } = sound
    const checked = Output.check(fields, {
      ...rest,
      total: 1385.45,
      lineas: [{ descripcion: "Papel", cantidad: 10 }, "loose text"],
      proveedor: "B12345678"
    })
    assert.deepStrictEqual(
      checked.problems.map((p) => `${p.field} ${p.path}: ${p.message}`),
      [
        "fecha fecha: missing (use null when the document lacks it)",
        "total total: expected a string (the text as printed) or null, got a number",
        "lineas lineas[0].cantidad: expected a string (the text as printed) or null, got a number",
        "lineas lineas[0].importe: missing (use null when the document lacks it)",
        "lineas lineas[1]: expected an object, got a string",
        "proveedor proveedor: expected an object, got a string"
      ]
    )
    assert.deepStrictEqual(checked.values, {
      numero: "F-2026/0042",
      fecha: null,
      emisor: "Suministros Acme S.L.",
      total: null,
      lineas: [{ descripcion: "Papel", cantidad: null, importe: null }],
      proveedor: null
    })
  })

  it("blank strings are absent values; null lists are empty; empty list items are dropped", () => {
    const checked = Output.check(fields, {
      ...sound,
      numero: "   ",
      emisor: "  Suministros Acme S.L. ",
      lineas: [{ descripcion: null, cantidad: null, importe: null }],
      proveedor: { cif: null }
    })
    assert.deepStrictEqual(checked.problems, [])
    assert.strictEqual(checked.values.numero, null)
    assert.strictEqual(checked.values.emisor, "Suministros Acme S.L.")
    assert.deepStrictEqual(checked.values.lineas, [])
    assert.strictEqual(checked.values.proveedor, null)
  })

  it("an answer that is not an object: one problem, every field empty", () => {
    const checked = Output.check(fields, ["not", "an", "object"])
    assert.deepStrictEqual(
      checked.problems.map((p) => p.field),
      ["*"]
    )
    assert.deepStrictEqual(checked.values, {
      numero: null,
      fecha: null,
      emisor: null,
      total: null,
      lineas: [],
      proveedor: null
    })
  })

  it.prop(
    "whatever a model returns, only the skill's fields come out, in the skill's shape",
    [Schema.Json],
    ([output]) => {
      const { values } = Output.check(fields, output)
      assert.deepStrictEqual(
        Object.keys(values),
        fields.map((f) => f.name)
      )
      for (const field of fields) assert.isTrue(conforms(values[field.name], field), field.name)
    },
    { arbitrary: { seed: 4002, runs: 300 } }
  )

  it.prop(
    "the same for answers shaped almost like the skill (right keys, arbitrary values)",
    [Schema.Record(Schema.Literals(["numero", "fecha", "total", "lineas", "proveedor", "extra"]), Schema.Json)],
    ([output]) => {
      const { values } = Output.check(fields, output)
      for (const field of fields) assert.isTrue(conforms(values[field.name], field), field.name)
    },
    { arbitrary: { seed: 4003, runs: 300 } }
  )
})

describe("Output.check with names outside the providers' alphabet", () => {
  it("reads the answer under the schema's property keys and returns the skill's names", () => {
    const accented: ReadonlyArray<(typeof fields)[number]> = [
      { name: "número de factura", order: 1, type: "string", isList: false, description: "", aliases: [] },
      { name: "numero_de_factura", order: 2, type: "string", isList: false, description: "", aliases: [] },
      {
        name: "proveedor",
        order: 3,
        type: "catalog",
        isList: false,
        description: "",
        aliases: [],
        catalog: { catalogId: "c", keyColumns: ["razón social"], outputColumns: [], method: "exacta", threshold: 1 }
      }
    ]
    const checked = Output.check(accented, {
      numero_de_factura: "F-1",
      numero_de_factura_2: "F-2",
      proveedor: { razon_social: "Acme" }
    })
    assert.deepStrictEqual(checked, {
      values: { "número de factura": "F-1", numero_de_factura: "F-2", proveedor: { "razón social": "Acme" } },
      problems: []
    })
  })
})

describe("Output.afterRepair", () => {
  it("fields sound in the first answer keep it; the others take the repaired value", () => {
    const first = Output.check(fields, { ...sound, total: 12 })
    const repaired = Output.check(fields, { ...sound, numero: null, total: "1.385,45 €" })
    assert.deepStrictEqual(Output.afterRepair(fields, first, repaired), sound)
  })

  it("after an unusable first answer everything comes from the repair", () => {
    const first = Output.unusable(fields, "prose")
    const repaired = Output.check(fields, { ...sound, total: null })
    assert.deepStrictEqual(Output.afterRepair(fields, first, repaired), { ...sound, total: null })
  })
})

describe("Output.mergeParts", () => {
  it("first non-empty value per simple field and per sub-field; lists concatenated in order", () => {
    const skill = [
      ...fields,
      {
        name: "cliente",
        order: 7,
        type: "object" as const,
        isList: false,
        description: "",
        aliases: [],
        fields: [
          { name: "nombre", order: 1, type: "string" as const, isList: false, description: "", aliases: [] },
          { name: "nif", order: 2, type: "string" as const, isList: false, description: "", aliases: [] }
        ]
      }
    ]
    const merged = Output.mergeParts(skill, [
      { ...sound, total: null, proveedor: null, cliente: { nombre: "Globex", nif: null } },
      {
        ...sound,
        numero: "OTRO",
        total: "9",
        lineas: [{ descripcion: "b", cantidad: null, importe: null }],
        cliente: { nombre: "X", nif: "B1" }
      }
    ])
    assert.deepStrictEqual(merged, {
      numero: "F-2026/0042",
      fecha: "12/03/2026",
      emisor: "Suministros Acme S.L.",
      total: "9",
      lineas: [...sound.lineas, { descripcion: "b", cantidad: null, importe: null }],
      proveedor: { cif: "B12345678" },
      cliente: { nombre: "Globex", nif: "B1" }
    })
  })

  it("a single part is itself", () => {
    assert.deepStrictEqual(Output.mergeParts(fields, [sound]), sound)
  })
})
