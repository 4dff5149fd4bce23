import { describe, expect, it } from "@effect/vitest"
import { halves, table } from "../../bench/report.js"
import { judge } from "../../bench/truth.js"

const comma = { text: "", decimal: "," as const }

describe("bench judge", () => {
  it("counts filled, present and right for a simple field", () => {
    const total = { kind: "amount", value: 5.3 } as const
    expect(judge(total, "5,30 €", comma, "")).toMatchObject({ filled: 1, present: 1, right: 1, rightPresent: 1 })
    expect(judge(total, "25,47", comma, "")).toMatchObject({ filled: 1, present: 1, right: 0 })
    expect(judge(total, null, comma, "")).toMatchObject({ filled: 0, present: 1, right: 0 })
  })

  it("counts any number on a document that prints none as wrong", () => {
    expect(judge({ kind: "none" }, "53", comma, "NO.53 JALAN PUTRA")).toMatchObject({ filled: 1, present: 0, right: 0 })
    expect(judge({ kind: "none" }, null, comma, "")).toMatchObject({ filled: 0, present: 0, right: 0 })
  })

  it("keeps AFIP's point of sale with the number where the page joins them", () => {
    const truth = { kind: "afip", pointOfSale: 5, number: 11643 } as const
    const joined = { text: "Factura Nº 0005-00011643", decimal: "," as const }
    expect(judge(truth, "0005-00011643", joined, joined.text).right).toBe(1)
    expect(judge(truth, "00011643", joined, joined.text).right).toBe(0)
    const apart = { text: "Punto de Venta: 00005 Comp. Nro: 00011643", decimal: "," as const }
    expect(judge(truth, "00011643", apart, apart.text).right).toBe(1)
    expect(judge(truth, "0003-00011643", apart, apart.text).right).toBe(0)
  })

  it("scores a code implied by the document (its currency) as present, right whatever its case", () => {
    const currency = { kind: "code", text: "EUR" } as const
    expect(judge(currency, "eur", comma, "Total 12,50 €")).toMatchObject({ filled: 1, present: 1, right: 1 })
    expect(judge(currency, "USD", comma, "Total 12,50 €")).toMatchObject({ filled: 1, present: 1, right: 0 })
    expect(judge(currency, null, comma, "")).toMatchObject({ filled: 0, present: 1, right: 0 })
  })

  it("marks a name present only where it is printed", () => {
    const issuer = { kind: "name", text: "Polski Koncern Naftowy ORLEN spółka akcyjna" } as const
    expect(judge(issuer, "ORLEN S.A.", comma, "Sprzedawca: ORLEN S.A.")).toMatchObject({ present: 0, right: 0 })
    const brand = { kind: "brand", text: "carrefour" } as const
    expect(judge(brand, "CENTROS COMERCIALES CARREFOUR, S.A.", comma, "CARREFOUR").right).toBe(1)
    expect(judge(brand, "IVA: Responsable Inscripto", comma, "CARREFOUR").right).toBe(0)
  })

  it("scores a line item right only when every part is", () => {
    const lines = [
      { description: "BEBIDA DE AVENA", quantity: 6, unitPrice: 0.95, lineTotal: 5.7 },
      { description: "PANKO JAPON", quantity: 1, unitPrice: 3.39, lineTotal: 3.39 }
    ]
    const names = { description: "d", quantity: "q", unitPrice: "p", lineTotal: "t" }
    const got = [
      { d: "BEBIDA DE AVENA", q: "6", p: "0,95", t: "5,70" },
      { d: "PANKO JAPON", q: null, p: null, t: "3,39" },
      { d: "6 BEBIDA DE AVENA", q: null, p: null, t: "5,70" }
    ]
    expect(judge({ kind: "items", lines }, got, comma, "", names)).toMatchObject({ filled: 3, present: 2, right: 2 })
    const glued = [{ d: "6 BEBIDA DE AVENA", q: null, p: null, t: "5,70" }]
    expect(judge({ kind: "items", lines }, glued, comma, "", names)).toMatchObject({ filled: 1, right: 0 })
  })
})

describe("bench report", () => {
  it("splits in order, the first half taking the odd one", () => {
    expect(halves(["a", "b", "c"])).toEqual([
      ["a", "first"],
      ["b", "first"],
      ["c", "second"]
    ])
  })

  it("prints precision and recall per half with counts", () => {
    const j = (right: number) => ({ filled: 1, present: 1, right, rightPresent: right, got: "x", want: "y" })
    const lines = table("set", [
      { id: "a", half: "first", fields: [["total", j(1)]] },
      { id: "b", half: "first", fields: [["total", j(0)]] },
      { id: "c", half: "second", fields: [["total", j(1)]] }
    ])
    expect(lines).toContain("  first half (tuning): a b")
    expect(lines.find((l) => l.includes("total") && l.includes("first"))).toMatch(/0\.50 \(1\/2\)\s+0\.50 \(1\/2\)/)
    expect(lines.find((l) => l.includes("total") && l.includes("second"))).toMatch(/1\.00 \(1\/1\)\s+1\.00 \(1\/1\)/)
  })
})
