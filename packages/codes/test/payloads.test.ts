import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import fc from "fast-check"
import { Codes } from "../src/index.js"

const kinds = (decoded: Codes.Decoded) => decoded.problems.map((p) => `${p.kind}:${p.member ?? ""}`)
function expectTag<T extends Codes.Decoded["_tag"]>(
  decoded: Codes.Decoded,
  tag: T
): Extract<Codes.Decoded, { _tag: T }> {
  assert.strictEqual(decoded._tag, tag, JSON.stringify(decoded.problems))
  return decoded as Extract<Codes.Decoded, { _tag: T }>
}

describe("VeriFactu QR", () => {
  // AEAT's example (test host), `numserie` with an encoded `&`.
  const example =
    "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4"

  it("reads AEAT's example", () => {
    const decoded = expectTag(Codes.decode(example), "VeriFactu")
    assert.deepStrictEqual(kinds(decoded), [])
    assert.strictEqual(decoded.issuerTaxId, "89890001K")
    assert.strictEqual(decoded.documentNumber, "12345678&G33")
    assert.strictEqual(decoded.issueDate, "2024-01-01")
    assert.strictEqual(decoded.total, 241.4)
    assert.strictEqual(decoded.noVerifactu, false)
  })

  it("tells the no-VeriFactu service apart and reports missing and damaged members", () => {
    const other = example
      .replace("ValidarQR", "ValidarQRNoVerifactu")
      .replace("&importe=241.4", "")
      .replace("01-01-2024", "31-02-2024")
    const decoded = expectTag(Codes.decode(other), "VeriFactu")
    assert.strictEqual(decoded.noVerifactu, true)
    assert.deepStrictEqual(kinds(decoded), ["bad_value:fecha", "missing_member:importe"])
    assert.strictEqual(decoded.issueDate, null)
  })

  it("leaves other AEAT pages unknown", () => {
    expectTag(Codes.decode("https://sede.agenciatributaria.gob.es/Sede/inicio.html?nif=89890001K"), "Unknown")
  })
})

describe("SAT CFDI QR", () => {
  it("reads Anexo 20's CFDI 3.3/4.0 example (with its leading `&`)", () => {
    const decoded = expectTag(
      Codes.decode(
        "https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?&id=5803EB8D-81CD-4557-8719-26632D2FA434&re=XOJI740919U48&rr=XEXX010101000&tt=1000.0&fe=rH8/bw=="
      ),
      "Cfdi"
    )
    assert.deepStrictEqual(kinds(decoded), [])
    assert.strictEqual(decoded.uuid, "5803EB8D-81CD-4557-8719-26632D2FA434")
    assert.strictEqual(decoded.issuerTaxId, "XOJI740919U48")
    assert.strictEqual(decoded.buyerTaxId, "XEXX010101000")
    assert.strictEqual(decoded.total, 1000)
    assert.strictEqual(decoded.totalText, "1000.0")
    assert.strictEqual(decoded.sealTail, "rH8/bw==")
  })

  it("reads CFDI 3.2's bare query with its zero-padded total", () => {
    const decoded = expectTag(
      Codes.decode("?re=XAXX010101000&rr=XAXX010101000&tt=0000001234.567800&id=ad662d33-6934-459c-a128-bdf0393f0f44"),
      "Cfdi"
    )
    assert.strictEqual(decoded.total, 1234.5678)
    assert.strictEqual(decoded.uuid, "AD662D33-6934-459C-A128-BDF0393F0F44")
  })

  it("reports a missing folio, a malformed RFC and a total that is not a number", () => {
    const decoded = expectTag(
      Codes.decode(
        "https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?re=XOJI74&rr=XEXX010101000&tt=1.000,00"
      ),
      "Cfdi"
    )
    assert.deepStrictEqual(kinds(decoded), ["missing_member:id", "bad_value:re", "wrong_type:tt"])
    assert.strictEqual(decoded.total, null)
  })
})

describe("SUNAT QR", () => {
  const example = "20100066603|01|F001|00000001|18.00|118.00|2017-07-15|6|20100070970|qZq3vYk+Mw2PRkN8hQ3Z3oXN0Cw=|"

  it("reads the pipe-separated fields of a factura", () => {
    const decoded = expectTag(Codes.decode(example, "QRCode"), "Sunat")
    assert.deepStrictEqual(kinds(decoded), [])
    assert.strictEqual(decoded.issuerTaxId, "20100066603")
    assert.strictEqual(decoded.documentTypeName, "Factura")
    assert.strictEqual(decoded.documentNumber, "F001-00000001")
    assert.strictEqual(decoded.tax, 18)
    assert.strictEqual(decoded.total, 118)
    assert.strictEqual(decoded.issueDate, "2017-07-15")
    assert.strictEqual(decoded.buyerDocType, "6")
    assert.strictEqual(decoded.buyerDocNumber, "20100070970")
    assert.strictEqual(decoded.digest, "qZq3vYk+Mw2PRkN8hQ3Z3oXN0Cw=")
  })

  it("reads a boleta with a day-first date and no buyer", () => {
    const decoded = expectTag(Codes.decode("10417844398|03|B001|123|0.00|25.50|15/07/2017|||"), "Sunat")
    assert.strictEqual(decoded.documentTypeName, "Boleta de venta")
    assert.strictEqual(decoded.issueDate, "2017-07-15")
    assert.strictEqual(decoded.buyerDocNumber, null)
  })

  it("reports a RUC whose check digit fails and amounts that are not numbers", () => {
    const decoded = expectTag(
      Codes.decode(example.replace("20100066603", "20100066604").replace("118.00", "118,00")),
      "Sunat"
    )
    assert.deepStrictEqual(kinds(decoded), ["bad_value:ruc", "wrong_type:total"])
  })
})

describe("EPC QR (BCD)", () => {
  it("reads EPC069-12's version 001 example", () => {
    const text =
      "BCD\n001\n1\nSCT\nBPOTBEB1\nRed Cross of Belgium\nBE72000000001616\nEUR1\nCHAR\n\nUrgency fund\nSample EPC QR code"
    const decoded = expectTag(Codes.decode(text), "Epc")
    assert.deepStrictEqual(kinds(decoded), [])
    assert.strictEqual(decoded.bic, "BPOTBEB1")
    assert.strictEqual(decoded.beneficiary, "Red Cross of Belgium")
    assert.strictEqual(decoded.iban, "BE72000000001616")
    assert.strictEqual(decoded.total, 1)
    assert.strictEqual(decoded.currency, "EUR")
    assert.strictEqual(decoded.purpose, "CHAR")
    assert.strictEqual(decoded.reference, "Urgency fund")
    assert.strictEqual(decoded.information, "Sample EPC QR code")
  })

  it("reads version 002 with CR LF, no BIC, a spaced IBAN and a structured reference", () => {
    const text =
      "BCD\r\n002\r\n1\r\nSCT\r\n\r\nFranz Mustermänn\r\nDE89 3704 0044 0532 0130 00\r\nEUR12.3\r\n\r\nRF18539007547034"
    const decoded = expectTag(Codes.decode(text), "Epc")
    assert.deepStrictEqual(kinds(decoded), [])
    assert.strictEqual(decoded.bic, null)
    assert.strictEqual(decoded.beneficiary, "Franz Mustermänn")
    assert.strictEqual(decoded.iban, "DE89370400440532013000")
    assert.strictEqual(decoded.total, 12.3)
    assert.strictEqual(decoded.reference, "RF18539007547034")
    assert.strictEqual(decoded.remittanceText, null)
  })

  it("reports a wrong IBAN, a comma amount, an unknown version and a missing name", () => {
    const text = "BCD\n003\n1\nSCT\nBPOTBEB1\n\nBE72000000001617\nEUR12,34"
    const decoded = expectTag(Codes.decode(text), "Epc")
    assert.deepStrictEqual(kinds(decoded), [
      "bad_value:version",
      "missing_member:beneficiary",
      "bad_value:iban",
      "bad_value:amount"
    ])
    assert.strictEqual(decoded.total, null)
  })
})

describe("anything else", () => {
  it("keeps unrelated content raw as Unknown", () => {
    const texts = [
      "https://example.com/fe/qr/?p=eyJ2ZXIiOjF9",
      "https://www.afip.gob.ar/landing/default.asp",
      "https://www.sat.gob.mx/portal/public/home",
      "Hello",
      "",
      "12345|01|x",
      "http://[bad"
    ]
    for (const text of texts) {
      const decoded = expectTag(Codes.decode(text), "Unknown")
      assert.strictEqual(decoded.raw, text.trim())
      assert.deepStrictEqual(kinds(decoded), ["unrecognised:"])
    }
  })

  it("cuts a huge payload's raw text", () => {
    const decoded = Codes.decode(`BCD\n${"x".repeat(100_000)}`)
    assert.strictEqual(decoded.raw.length, Codes.RAW_LIMIT)
  })

  const isDecoded = Schema.is(Codes.Decoded)
  const envelopes = fc.oneof(
    fc.string({ unit: "binary", maxLength: 400 }),
    fc.string({ maxLength: 300 }).map((s) => `https://www.afip.gob.ar/fe/qr/?p=${s}`),
    fc.base64String({ maxLength: 300 }).map((s) => `https://www.afip.gob.ar/fe/qr/?p=${s}`),
    fc.json().map((s) => `https://www.afip.gob.ar/fe/qr/?p=${Buffer.from(s).toString("base64")}`),
    fc.string({ maxLength: 300 }).map((s) => `https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?${s}`),
    fc.string({ maxLength: 300 }).map((s) => `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?${s}`),
    fc.array(fc.string({ maxLength: 20 }), { maxLength: 14 }).map((fields) => `20100066603|01|${fields.join("|")}`),
    fc.array(fc.string({ unit: "binary", maxLength: 40 }), { maxLength: 14 }).map((lines) => `BCD\n${lines.join("\n")}`)
  )

  it("any text gives a well-formed result and never throws (property)", () => {
    fc.assert(
      fc.property(envelopes, (text) => {
        const decoded = Codes.decode(text)
        assert.isTrue(isDecoded(decoded))
        if (decoded._tag === "Unknown") assert.isAbove(decoded.problems.length, 0)
      }),
      { seed: 1919, numRuns: 3000 }
    )
  })
})
