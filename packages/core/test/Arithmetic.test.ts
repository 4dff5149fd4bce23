import type { Field, Skill } from "@legible/core"
import { describe, expect, it } from "vitest"
import * as Arithmetic from "../src/internal/arithmetic.js"

const field = (
  name: string,
  type: Skill.SkillField["type"],
  extra: Partial<Skill.SkillField> = {}
): Skill.SkillField => ({ name, order: 1, type, isList: false, description: "", aliases: [], ...extra })

const value = (id: string, literal: string, parsed: number | null): Field.DetailedSimpleValue => ({
  literal,
  parsed,
  word_ids: [],
  id,
  type: "float"
})

const simple = (name: string, literal: string, parsed: number): Field.DetailedField => ({
  name,
  order: 1,
  type: "float",
  value: value(name, literal, parsed)
})

describe("roles", () => {
  it("recognises totals, subtotals, taxes and discounts by name, alias or description, in several languages", () => {
    expect(Arithmetic.roleOf(field("total", "float"))).toBe("total")
    expect(Arithmetic.roleOf(field("importe_total", "float"))).toBe("total")
    expect(Arithmetic.roleOf(field("gesamtbetrag", "float"))).toBe("total")
    expect(Arithmetic.roleOf(field("base_imponible", "float"))).toBe("subtotal")
    expect(Arithmetic.roleOf(field("total_neto", "float"))).toBe("subtotal")
    expect(Arithmetic.roleOf(field("iva", "float"))).toBe("tax")
    expect(Arithmetic.roleOf(field("x", "float", { aliases: ["MwSt"] }))).toBe("tax")
    expect(Arithmetic.roleOf(field("descuento_total", "float"))).toBe("discount")
  })
  it("leaves out what is not an amount: text fields, tax ids and rates, lists", () => {
    expect(Arithmetic.roleOf(field("total", "string"))).toBeUndefined()
    expect(Arithmetic.roleOf(field("iva_porcentaje", "float"))).toBeUndefined()
    expect(Arithmetic.roleOf(field("vat_number", "integer"))).toBeUndefined()
    expect(Arithmetic.roleOf(field("totales", "float", { isList: true }))).toBeUndefined()
  })
  it("recognises a line's quantity, unit price and total", () => {
    expect(Arithmetic.lineRoleOf(field("cantidad", "float"))).toBe("quantity")
    expect(Arithmetic.lineRoleOf(field("precio_unitario", "float"))).toBe("unitPrice")
    expect(Arithmetic.lineRoleOf(field("unit_price", "float"))).toBe("unitPrice")
    expect(Arithmetic.lineRoleOf(field("importe", "float"))).toBe("lineTotal")
    expect(Arithmetic.lineRoleOf(field("precio_total", "float"))).toBe("lineTotal")
  })
})

const lines = field("lineas", "object", {
  isList: true,
  fields: [field("cantidad", "float"), field("precio", "float"), field("importe", "float")]
})
const line = (i: number, q: [string, number], p: [string, number], t: [string, number]) => ({
  cantidad: value(`lineas[${i}].cantidad`, ...q),
  precio: value(`lineas[${i}].precio`, ...p),
  importe: value(`lineas[${i}].importe`, ...t)
})
const skill = [field("subtotal", "float"), field("iva", "float"), field("total", "float"), lines]
const result = (total: [string, number], secondLine: [string, number]): Array<Field.DetailedField> => [
  simple("subtotal", "120,40", 120.4),
  simple("iva", "5,00", 5),
  simple("total", ...total),
  {
    name: "lineas",
    order: 4,
    type: "object",
    value: [line(0, ["2", 2], ["50,00", 50], ["100,00", 100]), line(1, ["1", 1], ["20,40", 20.4], secondLine)]
  }
]

describe("verdicts", () => {
  it("passes every value of a document that adds up", () => {
    const verdicts = Arithmetic.verdicts(skill, result(["125,40", 125.4], ["20,40", 20.4]))
    for (const id of ["total", "subtotal", "iva", "lineas[0].importe", "lineas[1].cantidad"])
      expect(verdicts.get(id)?.passed, id).toBe(true)
  })

  it("fails the total that does not add up, saying what it should be", () => {
    const verdicts = Arithmetic.verdicts(skill, result(["135,40", 135.4], ["20,40", 20.4]))
    expect(verdicts.get("total")).toEqual({
      passed: false,
      code: "sum_mismatch",
      message: "135,40 ≠ subtotal 120,40 + iva 5,00"
    })
    // The subtotal still adds up with the lines.
    expect(verdicts.get("subtotal")?.passed).toBe(true)
  })

  it("fails a line whose quantity × price is not its total, and the subtotal its lines no longer make", () => {
    const verdicts = Arithmetic.verdicts(skill, result(["125,40", 125.4], ["21,40", 21.4]))
    expect(verdicts.get("lineas[1].importe")).toEqual({
      passed: false,
      code: "sum_mismatch",
      message: "21,40 ≠ 1 × 20,40"
    })
    expect(verdicts.get("lineas[0].importe")?.passed).toBe(true)
    // The subtotal adds up with the total and taxes, though not with the lines: one relation holding is enough.
    expect(verdicts.get("subtotal")?.passed).toBe(true)
  })

  it("without a subtotal, the lines against the total, with or without the taxes", () => {
    const noSubtotal = [field("iva", "float"), field("total", "float"), lines]
    const values = (total: [string, number]) => result(total, ["20,40", 20.4]).filter((f) => f.name !== "subtotal")
    expect(Arithmetic.verdicts(noSubtotal, values(["120,40", 120.4])).get("total")?.passed).toBe(true)
    expect(Arithmetic.verdicts(noSubtotal, values(["125,40", 125.4])).get("total")?.passed).toBe(true)
    expect(Arithmetic.verdicts(noSubtotal, values(["99,00", 99])).get("total")).toEqual({
      passed: false,
      code: "sum_mismatch",
      message: "99,00 ≠ lines 120,40 + iva 5,00"
    })
  })

  it("without a subtotal or taxes, lines short of the total may be before taxes: no verdict, only agreement", () => {
    const bare = [field("total", "float"), lines]
    const values = (total: [string, number]) =>
      result(total, ["20,40", 20.4]).filter((f) => f.name === "total" || f.name === "lineas")
    expect(Arithmetic.verdicts(bare, values(["120,40", 120.4])).get("total")?.passed).toBe(true)
    expect(Arithmetic.verdicts(bare, values(["145,68", 145.68])).has("total")).toBe(false)
  })

  it("judges nothing where nothing can be added up", () => {
    expect(Arithmetic.verdicts([field("total", "float")], [simple("total", "12,00", 12)]).size).toBe(0)
  })
})
