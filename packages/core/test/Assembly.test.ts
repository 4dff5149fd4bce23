import { assert, describe, it } from "@effect/vitest"
import { type Document, type Extractor, Field, type Skill } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Schema } from "effect"
import * as Assembly from "../src/internal/assembly.js"
import * as Grounding from "../src/internal/grounding.js"
import { seeded } from "./support.js"

/** One page of words laid out left to right on the given lines (6 pt per character); ids `w1`, `w2`… */
const page = (lines: ReadonlyArray<readonly [y: number, words: ReadonlyArray<string>]>) => {
  let n = 0
  return {
    pages: [
      {
        page: 1,
        width: 595,
        height: 842,
        source: "text" as const,
        markdown: "",
        lines: lines.map(([y, words]) => {
          let x = 40
          return {
            words: words.map((word): Document.ReadWord => {
              const w = {
                id: `w${++n}`,
                word,
                x0: x,
                y0: y,
                x1: x + 6 * word.length,
                y1: y + 10,
                page: 1,
                confidence: 1
              }
              x = w.x1 + 4
              return w
            })
          }
        })
      }
    ]
  }
}

const invoicePage = page([
  [40, ["FACTURA", "Nº", "F-2026/0042"]],
  [60, ["Fecha:", "12/03/2026"]],
  [80, ["Suministros", "Acme", "S.L.", "CIF:", "B12345678"]],
  [120, ["Descripción", "Cant.", "Importe"]],
  [140, ["Papel", "A4", "1", "45,00"]],
  [160, ["Tóner", "negro", "1", "89,90"]],
  [200, ["Total", "factura", "1.234,56", "€"]]
])
const words = Grounding.index(invoicePage)

const proveedor: Field.CatalogValue = {
  type: "catalog",
  matching: {
    status: "found",
    method: "exacta",
    score: 1,
    threshold_used: null,
    extracted_values: { cif: "B12345678" },
    catalog_record_id: Fixtures.ids.recordAcme,
    key_columns: ["cif"]
  },
  catalog_values: { cif: "B12345678", nombre: "Suministros Acme S.L." },
  catalog_info: { id: Fixtures.ids.catalog, name: "Proveedores", output_columns: ["nombre"] }
}

const skill = Fixtures.skill()

const extracted: Extractor.ExtractedFields = {
  numero: "F-2026/0042",
  fecha: "12/03/2026",
  emisor: "Suministros Acme S.L.",
  total: "1.234,56 €",
  lineas: [
    { descripcion: "Papel A4", cantidad: "1", importe: "45,00" },
    { descripcion: "Tóner negro", cantidad: "1", importe: "89,90" }
  ],
  proveedor: { cif: "B12345678" }
}

const assemble = (values: Extractor.ExtractedFields, s: Pick<Skill.Skill, "fields" | "instructions"> = skill) =>
  Assembly.assemble({ skill: s, values, words, catalog: new Map([["proveedor", proveedor]]) })

const byName = (fields: ReadonlyArray<Field.DetailedField>, name: string) => {
  const found = fields.find((f) => f.name === name)
  if (found === undefined) throw new Error(`no field ${name}`)
  return found.value
}

const wordText = (ids: ReadonlyArray<string>) => {
  const all = invoicePage.pages[0]?.lines.flatMap((l) => l.words) ?? []
  return ids.map((id) => all.find((w) => w.id === id)?.word).join(" ")
}

describe("Assembly", () => {
  it("builds every field in skill order with parsed, grounded values and path ids", () => {
    const fields = assemble(extracted)
    assert.deepStrictEqual(
      fields.map((f) => [f.name, f.order, f.type]),
      [
        ["numero", 1, "string"],
        ["fecha", 2, "date"],
        ["emisor", 3, "string"],
        ["total", 4, "float"],
        ["lineas", 5, "object"],
        ["proveedor", 6, "catalog"]
      ]
    )
    assert.deepStrictEqual(byName(fields, "fecha"), {
      literal: "12/03/2026",
      parsed: "2026-03-12",
      word_ids: ["w5"],
      id: "fecha",
      type: "date"
    })
    assert.deepStrictEqual(byName(fields, "total"), {
      literal: "1.234,56 €",
      parsed: 1234.56,
      word_ids: ["w24", "w25"],
      id: "total",
      type: "float"
    })
    const emisor = byName(fields, "emisor") as Field.DetailedSimpleValue
    assert.strictEqual(wordText(emisor.word_ids), "Suministros Acme S.L.")
    assert.deepStrictEqual(byName(fields, "proveedor"), proveedor)
    // The decode checks the whole tree against the spec's detailed shape.
    Schema.decodeUnknownSync(Schema.Array(Field.DetailedField))(fields)
  })

  it("grounds each list item on its own row (repeated values go to the row of the item's other values)", () => {
    const lineas = byName(assemble(extracted), "lineas") as ReadonlyArray<Record<string, Field.DetailedSimpleValue>>
    assert.strictEqual(lineas.length, 2)
    assert.deepStrictEqual(Object.keys(lineas[0] ?? {}), ["descripcion", "cantidad", "importe"])
    const row = (i: number) =>
      ["descripcion", "cantidad", "importe"].map((k) => wordText(lineas[i]?.[k]?.word_ids ?? [])).join(" | ")
    assert.strictEqual(row(0), "Papel A4 | 1 | 45,00")
    assert.strictEqual(row(1), "Tóner negro | 1 | 89,90")
    assert.deepStrictEqual(
      lineas.flatMap((l) => Object.values(l).map((v) => [v.id, v.parsed])),
      [
        ["lineas[0].descripcion", "Papel A4"],
        ["lineas[0].cantidad", 1],
        ["lineas[0].importe", 45],
        ["lineas[1].descripcion", "Tóner negro"],
        ["lineas[1].cantidad", 1],
        ["lineas[1].importe", 89.9]
      ]
    )
  })

  it("gives missing simple fields an empty value, missing lists [] and a missing catalog result not_found", () => {
    const fields = Assembly.assemble({ skill, values: {}, words, catalog: new Map() })
    assert.deepStrictEqual(byName(fields, "numero"), {
      literal: "",
      parsed: null,
      word_ids: [],
      id: "numero",
      type: "string"
    })
    assert.deepStrictEqual(byName(fields, "lineas"), [])
    const catalog = byName(fields, "proveedor") as Field.CatalogValue
    assert.strictEqual(catalog.matching.status, "not_found")
    assert.strictEqual(catalog.matching.score, 0)
    assert.deepStrictEqual(catalog.catalog_values, {})
    assert.deepStrictEqual(catalog.catalog_info.output_columns, ["nombre"])
  })

  it("sorts by order at every depth, whatever the skill's declaration order", () => {
    const f = (name: string, order: number, extra: Partial<Skill.SkillField> = {}): Skill.SkillField => ({
      name,
      order,
      type: "string",
      isList: false,
      description: "",
      aliases: [],
      ...extra
    })
    const fields = assemble(
      { c: "3", a: "1", obj: { y: "Y", x: "X" }, rows: [{ q: "Q", p: "P" }] },
      {
        instructions: "",
        fields: [
          f("obj", 4, { type: "object", fields: [f("y", 2), f("x", 1)] }),
          f("c", 3),
          f("rows", 0, { type: "object", isList: true, fields: [f("q", 9), f("p", 8)] }),
          f("a", 1)
        ]
      }
    )
    assert.deepStrictEqual(
      fields.map((x) => x.name),
      ["rows", "a", "c", "obj"]
    )
    const obj = byName(fields, "obj") as ReadonlyArray<Field.DetailedField>
    assert.deepStrictEqual(
      obj.map((x) => [x.name, (x.value as Field.DetailedSimpleValue).id]),
      [
        ["x", "obj.x"],
        ["y", "obj.y"]
      ]
    )
    const rows = byName(fields, "rows") as ReadonlyArray<Record<string, unknown>>
    assert.deepStrictEqual(Object.keys(rows[0] ?? {}), ["p", "q"])
  })

  it("coerces mistyped extractor output instead of failing", () => {
    const fields = assemble({
      numero: 42 as unknown as string,
      fecha: { value: "12/03/2026" },
      emisor: ["Suministros Acme S.L."],
      total: true as unknown as string,
      lineas: { descripcion: "Papel A4", cantidad: 10 as unknown as string, importe: "45,00" },
      proveedor: "B12345678"
    })
    assert.strictEqual((byName(fields, "numero") as Field.DetailedSimpleValue).literal, "42")
    assert.strictEqual((byName(fields, "fecha") as Field.DetailedSimpleValue).literal, "")
    assert.strictEqual((byName(fields, "emisor") as Field.DetailedSimpleValue).literal, "")
    assert.deepStrictEqual(byName(fields, "total"), {
      literal: "true",
      parsed: null,
      word_ids: [],
      id: "total",
      type: "float"
    })
    const lineas = byName(fields, "lineas") as ReadonlyArray<Record<string, Field.DetailedSimpleValue>>
    assert.strictEqual(lineas.length, 1)
    assert.strictEqual(lineas[0]?.cantidad?.parsed, 10)
  })

  it("reads dates month-first only when the field or the skill says so", () => {
    const s = (description: string, instructions: string) => ({
      instructions,
      fields: [{ name: "fecha", order: 1, type: "date" as const, isList: false, description, aliases: [] }]
    })
    const parsed = (description: string, instructions: string) =>
      (byName(assemble({ fecha: "03/12/2026" }, s(description, instructions)), "fecha") as Field.DetailedSimpleValue)
        .parsed
    assert.strictEqual(parsed("Fecha", ""), "2026-12-03")
    assert.strictEqual(parsed("Invoice date (MM/DD/YYYY)", ""), "2026-03-12")
    assert.strictEqual(parsed("", "US invoices: dates are month-first."), "2026-03-12")
    assert.strictEqual(parsed("Fecha DD/MM/AAAA", "dates are MM/DD"), "2026-12-03")
  })

  type Lines = ReadonlyArray<readonly [number, ReadonlyArray<string>]>

  /** The parsed value of one field's literal, assembled on a page of the given lines. */
  const parsedOn = (type: "date" | "float", literal: string, lines: Lines, instructions = "") => {
    const fields = [{ name: "value", order: 1, type, isList: false, description: "", aliases: [] }]
    const assembled = Assembly.assemble({
      skill: { instructions, fields },
      values: { value: literal },
      words: Grounding.index(page(lines)),
      catalog: new Map()
    })
    return (byName(assembled, "value") as Field.DetailedSimpleValue).parsed
  }

  it("reads an ambiguous date in the order the document's other dates show, unless the skill says", () => {
    const parsed = (lines: Lines, instructions = "") => parsedOn("date", "07.05.18", lines, instructions)
    const usPage = [
      [10, ["Issue", "date:", "07.05.18"]],
      [30, ["Service", "period:", "07.01.18", "-", "07.28.18"]]
    ] as const
    assert.strictEqual(parsed(usPage), "2018-07-05")
    assert.strictEqual(parsed([[10, ["Fecha:", "07.05.18", "Vto:", "21.05.18"]]]), "2018-05-07")
    assert.strictEqual(parsed([[10, ["Fecha:", "07.05.18"]]]), "2018-05-07")
    assert.strictEqual(parsed(usPage, "Dates are DD/MM."), "2018-05-07")
  })

  it("reads three decimals after the mark the document's amounts use as a fraction (0,856 kg, 12.481 gal)", () => {
    const parsed = (literal: string, lines: Lines) => parsedOn("float", literal, lines)
    const ticket = [
      [10, ["PLATANO", "0,856", "kg", "2,10", "€/kg", "1,80"]],
      [30, ["TOTAL", "12,45"]]
    ] as const
    assert.strictEqual(parsed("0,856", ticket), 0.856)
    assert.strictEqual(parsed("2,388", ticket), 2.388)
    assert.strictEqual(parsed("1.234", ticket), 1234)
    const pump = [[10, ["UNLEADED", "12.481", "GAL", "@", "3.199", "39.93"]]] as const
    assert.strictEqual(parsed("12.481", pump), 12.481)
    assert.strictEqual(parsed("1,234", pump), 1234)
    // No amount to tell: a mark before three digits groups thousands, as it did.
    assert.strictEqual(parsed("2,388", [[10, ["Peso", "2,388"]]]), 2388)
  })

  it("gives each catalog list item, and the catalog sub-field of each list item, its catalog value by path", () => {
    const cat = (name: string, order: number, keyColumn: string, isList = false): Skill.SkillField => ({
      name,
      order,
      type: "catalog",
      isList,
      description: "",
      aliases: [],
      catalog: { catalogId: "c", keyColumns: [keyColumn], outputColumns: [], method: "exacta", threshold: 1 }
    })
    const lineas: Skill.SkillField = {
      name: "lineas",
      order: 2,
      type: "object",
      isList: true,
      description: "",
      aliases: [],
      fields: [
        cat("producto", 1, "sku"),
        { name: "importe", order: 2, type: "float", isList: false, description: "", aliases: [] }
      ]
    }
    const s = { instructions: "", fields: [cat("cifs", 1, "cif", true), lineas] }
    const values = {
      cifs: ["B12345678", "  ", { cif: "A87654321" }],
      lineas: [{ producto: "PAPEL-A4", importe: "45,00" }, {}, { producto: { sku: "TONER-N" }, importe: "89,90" }]
    }
    const requests = Assembly.catalogRequests(s.fields, values)
    assert.deepStrictEqual(
      requests.map((r) => [r.path, r.field.name, r.extracted]),
      [
        ["cifs[0]", "cifs", { cif: "B12345678" }],
        ["cifs[1]", "cifs", { cif: "A87654321" }],
        ["lineas[0].producto", "producto", { sku: "PAPEL-A4" }],
        ["lineas[1].producto", "producto", { sku: "TONER-N" }]
      ]
    )
    // Results for some paths only: the others are not_found with what was read.
    const fields = Assembly.assemble({
      skill: s,
      values,
      words,
      catalog: new Map([
        ["cifs[1]", proveedor],
        ["lineas[1].producto", proveedor]
      ])
    })
    const cifs = byName(fields, "cifs") as ReadonlyArray<Field.CatalogValue>
    assert.deepStrictEqual(
      cifs.map((v) => [v.type, v.matching.status, v.matching.extracted_values]),
      [
        ["catalog", "not_found", { cif: "B12345678" }],
        ["catalog", "found", { cif: "B12345678" }]
      ]
    )
    const rows = byName(fields, "lineas") as ReadonlyArray<
      Record<string, Field.DetailedSimpleValue | Field.CatalogValue>
    >
    assert.strictEqual(rows.length, 2, "the empty item is dropped, as in the requests")
    assert.deepStrictEqual(rows[0]?.producto, {
      type: "catalog",
      matching: {
        status: "not_found",
        method: "exacta",
        score: 0,
        threshold_used: null,
        extracted_values: { sku: "PAPEL-A4" },
        key_columns: ["sku"]
      },
      catalog_values: {},
      catalog_info: { id: "c", name: "", output_columns: [] }
    })
    assert.strictEqual(rows[1]?.producto, proveedor)
    assert.deepStrictEqual((rows[1]?.importe as Field.DetailedSimpleValue | undefined)?.parsed, 89.9)
    // The plain read keeps catalog values as they are and drops the detailed members of the others.
    const plain = Field.toPlain(fields)
    const plainRows = plain.find((f) => f.name === "lineas")?.value as ReadonlyArray<Record<string, unknown>>
    assert.deepStrictEqual(plainRows[1], { producto: proveedor, importe: { literal: "89,90", parsed: 89.9 } })
    const plainCifs = plain.find((f) => f.name === "cifs")?.value as ReadonlyArray<unknown> | undefined
    assert.deepStrictEqual(plainCifs?.[1], proveedor)
    // Both reads decode with the result schemas.
    assert.isTrue(Schema.is(Schema.Array(Field.DetailedField))(fields))
    assert.isTrue(Schema.is(Schema.Array(Field.Field))(plain))
  })
})

describe("Assembly.catalogRequests", () => {
  it("lists catalog fields at any depth of objects and in lists, with what was read per key column", () => {
    const cat = (name: string, order: number, keyColumns: readonly [string, ...Array<string>]): Skill.SkillField => ({
      name,
      order,
      type: "catalog",
      isList: false,
      description: "",
      aliases: [],
      catalog: { catalogId: "c", keyColumns, outputColumns: [], method: "aproximada", threshold: 0.8 }
    })
    const fields: ReadonlyArray<Skill.SkillField> = [
      cat("proveedor", 1, ["cif", "nombre"]),
      {
        name: "envio",
        order: 2,
        type: "object",
        isList: false,
        description: "",
        aliases: [],
        fields: [cat("pais", 1, ["iso"])]
      },
      { ...cat("listado", 3, ["cif"]), isList: true }
    ]
    const requests = Assembly.catalogRequests(fields, {
      proveedor: { cif: "B12345678", nombre: 7 as unknown as string, extra: "x" },
      envio: { pais: "ES" },
      listado: ["A1"]
    })
    assert.deepStrictEqual(
      requests.map((r) => [r.path, r.extracted]),
      [
        ["proveedor", { cif: "B12345678", nombre: "7" }],
        ["envio.pais", { iso: "ES" }],
        ["listado[0]", { cif: "A1" }]
      ]
    )
    assert.deepStrictEqual(
      Assembly.catalogRequests(fields, {}).map((r) => [r.path, r.extracted]),
      [
        ["proveedor", {}],
        ["envio.pais", {}]
      ]
    )
  })
})

const Values = Schema.Struct(
  Object.fromEntries(skill.fields.map((f) => [f.name, Schema.optionalKey(Schema.Json)])) as Record<
    string,
    Schema.optionalKey<typeof Schema.Json>
  >
)

describe("Assembly properties", () => {
  it.prop(
    "any extractor output gives every skill field once, in the spec's detailed shape, with unique ids",
    [Values],
    ([values]) => {
      const fields = assemble(values as Extractor.ExtractedFields)
      assert.deepStrictEqual(
        fields.map((f) => f.name),
        skill.fields.map((f) => f.name)
      )
      Schema.decodeUnknownSync(Schema.Array(Field.DetailedField))(fields)
      Schema.decodeUnknownSync(Schema.Array(Field.Field))(Field.toPlain(fields))
      const ids: Array<string> = []
      const collect = (v: unknown): void => {
        if (Array.isArray(v)) v.forEach(collect)
        else if (typeof v === "object" && v !== null) {
          if ("word_ids" in v && "id" in v) ids.push(String(v.id))
          else Object.values(v).forEach(collect)
        }
      }
      collect(fields)
      assert.strictEqual(new Set(ids).size, ids.length)
    },
    seeded(6101, 300)
  )
})
