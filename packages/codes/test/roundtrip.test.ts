import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Codes, Qr } from "../src/index.js"

// The wasm must come from node_modules: any fetch during these tests (zxing-wasm's default is a CDN) fails them.
const fetches: Array<string> = []
globalThis.fetch = (input: string | URL | Request) => {
  fetches.push(String(input))
  return Promise.reject(new Error("no network in tests"))
}

const throughQr = (text: string, moduleSize = 3) =>
  Effect.gen(function* () {
    const image = yield* Qr.render(text, { moduleSize })
    const found = yield* Qr.read(image, ["QRCode"])
    assert.strictEqual(found.length, 1)
    assert.strictEqual(found[0]?.format, "QRCode")
    return Codes.decode(found[0]?.text ?? "", found[0]?.format)
  })

describe("generator round trip: encode → QR image → zxing → decode", () => {
  it.effect("AFIP", () =>
    Effect.gen(function* () {
      const decoded = yield* throughQr(
        Codes.encodeAfip({
          issueDate: "2023-02-14",
          cuit: "20-13046568-5",
          pointOfSale: 3,
          documentType: 1,
          number: 3668,
          total: 144615.5,
          buyerDocType: 80,
          buyerDocNumber: "30-50001770-4",
          authorizationCode: "73075542026320"
        })
      )
      assert.deepStrictEqual(Codes.facts(decoded), {
        issuerTaxId: "20-13046568-5",
        buyerTaxId: "30500017704",
        documentNumber: "0003-00003668",
        issueDate: "2023-02-14",
        total: 144615.5,
        currency: "ARS",
        iban: null
      })
      assert.deepStrictEqual(decoded.problems, [])
      assert.strictEqual(decoded._tag === "Afip" && decoded.cae, "73075542026320")
      assert.deepStrictEqual(fetches, [])
    })
  )

  it.effect("VeriFactu, SAT, SUNAT and EPC", () =>
    Effect.gen(function* () {
      const verifactu = yield* throughQr(
        Codes.encodeVeriFactu({
          nif: "B12345674",
          documentNumber: "A/2024-0017",
          issueDate: "2024-11-30",
          total: 1234.5
        })
      )
      assert.deepStrictEqual(
        [verifactu._tag, verifactu.problems, Codes.facts(verifactu).documentNumber, Codes.facts(verifactu).total],
        ["VeriFactu", [], "A/2024-0017", 1234.5]
      )
      const sat = yield* throughQr(
        Codes.encodeSat({
          uuid: "5803eb8d-81cd-4557-8719-26632d2fa434",
          issuerRfc: "EKU9003173C9",
          buyerRfc: "XAXX010101000",
          total: 1160,
          sealTail: "rH8/bw=="
        })
      )
      assert.strictEqual(sat._tag, "Cfdi")
      assert.deepStrictEqual(sat.problems, [])
      assert.deepStrictEqual(Codes.facts(sat), {
        issuerTaxId: "EKU9003173C9",
        buyerTaxId: "XAXX010101000",
        documentNumber: "5803EB8D-81CD-4557-8719-26632D2FA434",
        issueDate: null,
        total: 1160,
        currency: null,
        iban: null
      })
      const sunat = yield* throughQr(
        Codes.encodeSunat({
          ruc: "20100066603",
          documentType: "01",
          series: "F001",
          number: "00004512",
          tax: 45.76,
          total: 299.99,
          issueDate: "2024-06-01",
          buyerDocType: "6",
          buyerDocNumber: "20100070970"
        })
      )
      assert.deepStrictEqual(
        [sunat._tag, sunat.problems, Codes.facts(sunat).documentNumber, Codes.facts(sunat).total],
        ["Sunat", [], "F001-00004512", 299.99]
      )
      const epc = yield* throughQr(
        Codes.encodeEpc({
          beneficiary: "Café Ñandú S.L.",
          iban: "ES9121000418450200051332",
          total: 87.2,
          text: "Factura 2024/117"
        })
      )
      assert.strictEqual(epc._tag, "Epc")
      assert.deepStrictEqual(epc.problems, [])
      assert.strictEqual(epc._tag === "Epc" && epc.beneficiary, "Café Ñandú S.L.")
      assert.deepStrictEqual(Codes.facts(epc), {
        issuerTaxId: null,
        buyerTaxId: null,
        documentNumber: null,
        issueDate: null,
        total: 87.2,
        currency: "EUR",
        iban: "ES9121000418450200051332"
      })
    })
  )

  it.effect("renders modules of the asked size inside a quiet zone", () =>
    Effect.gen(function* () {
      const image = yield* Qr.render("BCD", { moduleSize: 5, quietZone: 4 })
      // A version-1 symbol is 21 modules; the finder's top-left module is black, the quiet zone white.
      assert.strictEqual(image.width, (21 + 8) * 5)
      assert.strictEqual(image.pixels[0], 255)
      assert.strictEqual(image.pixels[20 * image.width + 20], 0)
      assert.deepStrictEqual(yield* Qr.read({ width: 10, height: 10, pixels: new Uint8Array(100).fill(255) }), [])
    })
  )
})
