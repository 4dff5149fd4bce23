import { assert, describe, it } from "@effect/vitest"
import { ocrKey, sameToken, wordMatcher } from "../../../src/internal/local/text.js"

describe("OCR-tolerant words", () => {
  it("label words of five letters and more within one OCR slip: 0/O, 1/l/I, 5/S, rn/m, a letter", () => {
    assert.isTrue(sameToken("total", "t0tal"))
    assert.isTrue(sameToken("total", "totai"))
    assert.isTrue(sameToken("subtotal", "5ubtotal"))
    assert.isTrue(sameToken("summe", "surnme"))
    assert.isTrue(sameToken("invoice", "involce"))
    assert.isTrue(sameToken("factuurnr", "facturnr"))
    assert.strictEqual(ocrKey("surnme"), "summe")
  })

  it("not short words, other words one letter longer, nor codes", () => {
    assert.isFalse(sameToken("iva", "ira"))
    assert.isFalse(sameToken("total", "totale"))
    assert.isFalse(sameToken("issue", "issuer"))
    // A long word that goes on past another's end is another word (the insured, the insurer), unless a plural's.
    assert.isFalse(sameToken("asegurado", "aseguradora"))
    assert.isFalse(sameToken("vendedor", "vendedora"))
    assert.isTrue(sameToken("importe", "importes"))
    assert.isFalse(sameToken("total", "t0ta2"))
    assert.isFalse(sameToken("invoice", "in2024"))
  })

  it("a word list matches a token exactly, or a long word up to a slip", () => {
    const isNoun = wordMatcher(["factura", "invoice", "bon", "rechnungsnummer"])
    assert.isTrue(isNoun("bon"))
    assert.isTrue(isNoun("involce"))
    assert.isTrue(isNoun("rechnungsnumrner"))
    assert.isFalse(isNoun("bom"))
    assert.isFalse(isNoun("voice"))
  })
})
