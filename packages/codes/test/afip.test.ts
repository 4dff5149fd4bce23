import { assert, describe, it } from "@effect/vitest"
import { Codes } from "../src/index.js"

// The example of AFIP's QR specification (https://www.afip.gob.ar/fe/qr/especificaciones.asp).
const specJson =
  '{"ver":1,"fecha":"2020-10-13","cuit":30000000007,"ptoVta":10,"tipoCmp":1,"nroCmp":94,"importe":12100,' +
  '"moneda":"DOL","ctz":65,"tipoDocRec":80,"nroDocRec":20000000001,"tipoCodAut":"E","codAut":70417054367476}'
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64")
const url = (payload: string, host = "www.afip.gob.ar") => `https://${host}/fe/qr/?p=${payload}`

const afip = (text: string) => {
  const decoded = Codes.decode(text, "QRCode")
  assert.strictEqual(decoded._tag, "Afip")
  if (decoded._tag !== "Afip") throw new Error("not reached")
  return decoded
}
const kinds = (decoded: { readonly problems: ReadonlyArray<{ kind: string; member: string | null }> }) =>
  decoded.problems.map((problem) => `${problem.kind}:${problem.member ?? ""}`)

describe("AFIP/ARCA QR", () => {
  it("reads the specification's example into normalised fields", () => {
    const decoded = afip(url(base64(specJson)))
    assert.deepStrictEqual(decoded.problems, [])
    assert.strictEqual(decoded.format, "QRCode")
    assert.strictEqual(decoded.version, 1)
    assert.strictEqual(decoded.issueDate, "2020-10-13")
    assert.strictEqual(decoded.issuerTaxId, "30-00000000-7")
    assert.strictEqual(decoded.pointOfSale, 10)
    assert.strictEqual(decoded.documentType, 1)
    assert.strictEqual(decoded.documentTypeName, "Factura A")
    assert.strictEqual(decoded.number, 94)
    assert.strictEqual(decoded.documentNumber, "0010-00000094")
    assert.strictEqual(decoded.total, 12100)
    assert.strictEqual(decoded.totalText, "12100")
    assert.strictEqual(decoded.currency, "USD")
    assert.strictEqual(decoded.currencyCode, "DOL")
    assert.strictEqual(decoded.exchangeRate, 65)
    assert.strictEqual(decoded.buyerDocType, 80)
    assert.strictEqual(decoded.buyerDocNumber, "20000000001")
    assert.strictEqual(decoded.authorizationType, "E")
    assert.strictEqual(decoded.cae, "70417054367476")
  })

  it("keeps a point of sale of five digits and decimals as written", () => {
    const json = specJson.replace('"ptoVta":10', '"ptoVta":12345').replace('"importe":12100', '"importe":12100.50')
    const decoded = afip(url(base64(json)))
    assert.strictEqual(decoded.documentNumber, "12345-00000094")
    assert.strictEqual(decoded.total, 12100.5)
    assert.strictEqual(decoded.totalText, "12100.50")
  })

  it("accepts URL-safe base64, missing padding, percent-encoding and ARCA's host", () => {
    // An extra member (ignored) whose characters make `+`, `/` and padding appear in standard base64.
    const json = specJson.replace("}", ',"nota":"???>>>"}')
    const standard = [0, 1, 2].map((spaces) => base64(json + " ".repeat(spaces))).find((b) => b.endsWith("="))
    if (standard === undefined) throw new Error("no padded variant")
    assert.match(standard, /\+/)
    assert.match(standard, /\//)
    const variants = [standard.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), encodeURIComponent(standard)]
    for (const payload of variants) assert.strictEqual(afip(url(payload)).documentNumber, "0010-00000094")
    assert.deepStrictEqual(afip(url(base64(specJson), "www.arca.gob.ar")).problems, [])
  })

  it("keeps the complete members of a JSON cut short, and names what is lost", () => {
    // As printed on a real invoice whose QR holds a payload cut after `ctz`.
    const cut = specJson.slice(0, specJson.indexOf('"tipoDocRec"'))
    const decoded = afip(url(base64(cut)))
    assert.strictEqual(decoded.issuerTaxId, "30-00000000-7")
    assert.strictEqual(decoded.documentNumber, "0010-00000094")
    assert.strictEqual(decoded.total, 12100)
    assert.strictEqual(decoded.cae, null)
    assert.deepStrictEqual(kinds(decoded), ["truncated:", "missing_member:tipoCodAut", "missing_member:codAut"])
  })

  it("does not take a member whose value was cut", () => {
    const cut = specJson.slice(0, specJson.indexOf("367476}"))
    const decoded = afip(url(base64(cut)))
    assert.strictEqual(decoded.authorizationCode, null)
    assert.strictEqual(decoded.authorizationType, "E")
    assert.include(kinds(decoded), "missing_member:codAut")
  })

  it("reads numbers written as strings, with a wrong_type problem", () => {
    const json = specJson.replace("30000000007", '"30000000007"').replace('"importe":12100', '"importe":"12100.00"')
    const decoded = afip(url(base64(json)))
    assert.strictEqual(decoded.issuerTaxId, "30-00000000-7")
    assert.strictEqual(decoded.total, 12100)
    assert.deepStrictEqual(kinds(decoded), ["wrong_type:cuit", "wrong_type:importe"])
  })

  it("reports damaged content and keeps the raw text", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      [url(base64(specJson).slice(0, 41)), "bad_encoding:p"],
      [url("not*base64!"), "bad_encoding:p"],
      [url(base64("hello")), "bad_json:"],
      [url(base64("[1,2]")), "bad_json:"],
      [url(base64(Buffer.from([0xff, 0xfe, 0x00]).toString("latin1"))), "bad_json:"],
      ["https://www.afip.gob.ar/fe/qr/", "missing_member:p"],
      [url(""), "missing_member:p"]
    ]
    for (const [text, expected] of cases) {
      const decoded = afip(text)
      assert.include(kinds(decoded), expected, text)
      assert.strictEqual(decoded.raw, text)
      assert.strictEqual(decoded.issuerTaxId, null)
    }
  })

  it("names every missing member, a CUIT whose check digit fails and a date that does not exist", () => {
    const decoded = afip(url(base64('{"ver":1,"cuit":30000000008,"fecha":"2023-02-30"}')))
    assert.deepStrictEqual(kinds(decoded), [
      ...["ptoVta", "tipoCmp", "nroCmp", "importe", "moneda", "ctz", "tipoCodAut", "codAut"].map(
        (m) => `missing_member:${m}`
      ),
      "bad_value:fecha",
      "bad_value:cuit"
    ])
    assert.strictEqual(decoded.issueDate, null)
    assert.strictEqual(decoded.issuerTaxId, "30-00000000-8")
  })
})
