import { assert, describe, it } from "@effect/vitest"
import { asksForCurrency, currency } from "../../../src/internal/local/currency.js"
import type { Target } from "../../../src/internal/local/labels.js"
import { layout } from "../../../src/internal/local/layout.js"
import { type Cell, document, page } from "../../support/documents.js"

const MONEDA: Target = { name: "moneda", type: "string", aliases: [], description: "Moneda (código ISO)" }

const currencyOf = (...lines: ReadonlyArray<string>) =>
  currency(
    layout(
      document([
        page(
          1,
          lines.map((t): ReadonlyArray<Cell> => [[40, t]])
        )
      ])
    ),
    MONEDA
  )?.text ?? null

describe("currency", () => {
  it("the one currency the amounts are printed with, as its ISO code", () => {
    assert.strictEqual(currencyOf("Acme S.L.", "Papel 4,50 €", "Total 54,45 €"), "EUR")
    assert.strictEqual(currencyOf("REWE", "SUMME EUR 12,34", "BAR EUR 20,00"), "EUR")
    assert.strictEqual(currencyOf("ABC SDN BHD", "TOTAL RM 12.50"), "MYR")
    assert.strictEqual(currencyOf("Acme Ltd", "Total £12.50"), "GBP")
    assert.strictEqual(currencyOf("Acme", "Total US$ 12.50"), "USD")
    assert.strictEqual(currencyOf("Acme", "Total: 12,50 euros"), "EUR")
    assert.strictEqual(currencyOf("Inversiones del Sur S.A.C.", "C/ Lima S/N", "Importe Total: S/ 1,234.56"), "PEN")
  })

  it("Rs. before the amounts, with the one rupee country the document names", () => {
    const sold = "Sold By : Acme Retail Pvt. Ltd., Bangalore, Karnataka, India - 560067"
    assert.strictEqual(currencyOf(sold, "Price is inclusive of a discount of Rs -40.00", "Grand Total 319.00"), "INR")
    assert.strictEqual(currencyOf("Acme (Pvt) Ltd, Karachi, Pakistan", "Total Rs. 1,250.00"), "PKR")
    // No country named, or two: the rupee is unknown.
    assert.isNull(currencyOf("Acme Pvt. Ltd.", "Total Rs. 1,250.00"))
    assert.isNull(currencyOf("Acme Ltd, Colombo, Sri Lanka", "Ships to India", "Total Rs. 1,250.00"))
  })

  it("the total written out in words, where the amounts print no mark of one currency", () => {
    const mexican = ["Total $1,160.00", "(MIL CIENTO SESENTA PESOS 00/100 M.N.)"]
    assert.strictEqual(currencyOf("Acme S.A. de C.V.", ...mexican), "MXN")
    assert.strictEqual(currencyOf("Acme S.A.C.", "Total 1,160.00", "SON: MIL CIENTO SESENTA Y 00/100 SOLES"), "PEN")
    // Pesos and dollars are many countries': no value; nor from a currency's name outside the amount in words.
    assert.isNull(currencyOf("Acme S.A.", "Total $ 1.160,00", "SON PESOS MIL CIENTO SESENTA CON 00/100"))
    assert.isNull(currencyOf("Hotel Los Soles S.A.C.", "Total 1,160.00"))
    // A sign on the amounts decides before the words.
    assert.strictEqual(currencyOf("Acme S.A.", "Total 1.160,00 €", "MIL CIENTO SESENTA SOLES 00/100"), "EUR")
  })

  it("its label says it; a bare $, two currencies or none give no value", () => {
    assert.strictEqual(currencyOf("Acme Inc", "Currency: USD", "Total $12.50"), "USD")
    assert.strictEqual(currencyOf("Acme S.A.", "Moneda: ARS", "Total $ 12.500,00"), "ARS")
    assert.isNull(currencyOf("Acme Inc", "Total $12.50"))
    assert.isNull(currencyOf("Acme Ltd", "Total £12.50", "Total € 14,70"))
    assert.isNull(currencyOf("Acme Ltd", "Total 12.50"))
    // A name holding a code's letters names no currency (`EUROPA`).
    assert.isNull(currencyOf("EUROPA MARKT GmbH", "Summe 12,34"))
  })

  it("a text field named for the currency asks for it; its description only when the name says nothing else", () => {
    const field = (name: string, description = "", type: Target["type"] = "string"): Target => ({
      name,
      type,
      aliases: [],
      description
    })
    assert.isTrue(asksForCurrency(field("moneda")))
    assert.isTrue(asksForCurrency(field("currency_code")))
    assert.isTrue(asksForCurrency(field("Währung")))
    assert.isTrue(asksForCurrency(field("divisa_factura")))
    assert.isTrue(asksForCurrency(field("codigo", "Código de la moneda")))
    assert.isFalse(asksForCurrency(field("total", "Importe total en la moneda del documento", "float")))
    assert.isFalse(asksForCurrency(field("emisor", "Empresa; su moneda no importa")))
  })
})
