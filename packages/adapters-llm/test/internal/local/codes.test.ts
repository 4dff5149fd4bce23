import { Fixtures } from "@legible/testkit"
import { describe, expect, it } from "vitest"
import * as Local from "../../../src/Local.js"
import { document, simpleField as field, page } from "../../support/documents.js"

const skill = [
  field("cuit_emisor", "string", "CUIT del emisor"),
  field("numero", "string", "Número de factura"),
  field("fecha", "date", "Fecha de emisión"),
  field("total", "float", "Importe total")
]

// An AFIP QR as the reader decodes it (RG 4892): the issuer's CUIT, the number, the date and the total.
const afip = Fixtures.afipCode()

// A scan read with OCR's slips: the total misread, the CUIT not printed at all.
const scanned = page(1, [
  [[40, "FACTURA B"]],
  [
    [40, "Punto de Venta: 00003"],
    [300, "Comp. Nro: 00001475"]
  ],
  [[40, "Fecha de Emisión: 11/02/2023"]],
  [
    [40, "Importe Total: $"],
    [300, "44.0O0,00"]
  ]
])

describe("fields the document's codes state", () => {
  it("take the code's value where the rules find nothing on the page, at the confirmed certainty", () => {
    const { values, certainty } = Local.extract(skill, { ...document([scanned]), codes: [afip] })
    // Not printed: the code's own form.
    expect(values.cuit_emisor).toBe("30-71556647-4")
    expect(certainty.get("30-71556647-4")).toBe(0.97)
    // Printed, though not in the code's form: the rules' reading stands (the confidence compares the two).
    expect(values.numero).toBe("00001475")
    expect(values.fecha).toBe("11/02/2023")
  })

  it("a printed form the words hold is kept as printed", () => {
    const printed = page(1, [
      [[40, "CUIT: 30-71556647-4"]],
      [[40, "Factura Nº 0003-00001475"]],
      [
        [40, "TOTAL"],
        [300, "44.000,00"]
      ]
    ])
    const { values } = Local.extract(skill, { ...document([printed]), codes: [afip] })
    expect(values.cuit_emisor).toBe("30-71556647-4")
    expect(values.numero).toBe("0003-00001475")
    expect(values.total).toBe("44.000,00")
  })

  it("leaves the rules alone without codes", () => {
    const { values } = Local.extract(skill, document([scanned]))
    expect(values.cuit_emisor).toBeNull()
  })
})
