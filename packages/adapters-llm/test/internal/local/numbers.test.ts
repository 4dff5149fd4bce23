import { assert, describe, it } from "@effect/vitest"
import type { Target } from "../../../src/internal/local/labels.js"
import { layout } from "../../../src/internal/local/layout.js"
import { documentNumber } from "../../../src/internal/local/numbers.js"
import { type Cell, document, page } from "../../support/documents.js"

const NUMERO: Target = { name: "numero", type: "string", aliases: [], description: "Número de factura" }

const row = (text: string): ReadonlyArray<Cell> => [[40, text]]

const numberOf = (pages: ReadonlyArray<ReadonlyArray<ReadonlyArray<Cell>>>, target: Target = NUMERO) =>
  documentNumber(layout(document(pages.map((rows, i) => page(i + 1, rows)))), target)

describe("document numbers", () => {
  it("AFIP: Factura Nº kept whole, not page 2's Nro. de Orden", () => {
    const first = [row("FACTURA B"), row("Factura Nº 0005-00011643"), row("Fecha de Emisión: 08/02/2023")]
    const second = [row("Nro. de Orden: 4471"), row("Remito Nº 0001-00000077")]
    assert.strictEqual(numberOf([second, first]), "0005-00011643")
    assert.strictEqual(numberOf([first, second]), "0005-00011643")
    assert.strictEqual(numberOf([[row("Punto de Venta: 00005 Comp. Nro: 00011643")]]), "00011643")
  })

  it("a street number is never the document number", () => {
    assert.isNull(numberOf([[row("NO.53 JALAN PUTRA 1,"), row("TAMAN SRI PUTRA, 81200 JOHOR BAHRU")]]))
    assert.isNull(numberOf([[row("Calle Mayor Nº 12"), row("Nº cliente: 4471")]]))
  })

  it("number labels in each language, on the right, in the next cell or under the label", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["Invoice No: INV-2026-118", "INV-2026-118"],
      ["Invoice # 30064443", "30064443"],
      ["Rechnungsnummer: 2024-0815", "2024-0815"],
      ["Facture n° FA-2291", "FA-2291"],
      ["Numero fattura 118/2024", "118/2024"],
      ["Nº da fatura: FT2024/331", "FT2024/331"],
      ["Factuurnummer: 20240042", "20240042"],
      ["Factura simplificada: 3893-020-160319", "3893-020-160319"]
    ]
    for (const [text, want] of cases) assert.strictEqual(numberOf([[row(text)]]), want, text)
    const nextCell: ReadonlyArray<Cell> = [
      [40, "Invoice No."],
      [200, "562044387"]
    ]
    assert.strictEqual(numberOf([[nextCell]]), "562044387")
    const below: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Invoice number"],
        [240, "Date"]
      ],
      [
        [40, "VF1005193039"],
        [240, "12/03/2024"]
      ]
    ]
    assert.strictEqual(numberOf([below]), "VF1005193039")
  })

  it("another document's number is not taken; a field that asks for one gets it by its own label", () => {
    assert.isNull(numberOf([[row("Order No: 4471"), row("Customer invoice account no: 9911")]]))
    const pedido: Target = { name: "numero_pedido", type: "string", aliases: ["Nº de pedido"], description: "" }
    assert.strictEqual(numberOf([[row("Factura Nº F-1"), row("Nº de pedido: PED-7781")]], pedido), "PED-7781")
  })
})
