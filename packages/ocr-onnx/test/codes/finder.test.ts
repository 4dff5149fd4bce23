/**
 * The pre-check before zxing (`finder.ts`) and what the worker records of a code (`found.ts`): a QR code drawn at
 * 2 and 3 pixels a module passes and is read with its box in points; a page of text (the synthetic invoice, 150
 * DPI) and a blank page do not pass; attachments are XML by name or type.
 */
import { describe, expect, it } from "@effect/vitest"
import { Codes, Qr } from "@legible/codes"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import { matchesRatios, mayHoldCode, partners } from "../../src/internal/codes/finder.js"
import { codesIn, greyOf, isXmlAttachment } from "../../src/internal/codes/found.js"
import { invoice, textPdf } from "../support/synthetic.js"

const afip = Codes.encodeAfip({
  issueDate: "2024-03-12",
  cuit: "30-71556647-4",
  pointOfSale: 3,
  documentType: 1,
  number: 1475,
  total: 44000,
  authorizationCode: "74123456789012"
})

// The symbol pasted on a white page of `size` pixels at (left, top).
const onPage = (symbol: Qr.GreyImage, size: number, left: number, top: number): Qr.GreyImage => {
  const pixels = new Uint8Array(size * size).fill(255)
  for (let y = 0; y < symbol.height; y++)
    pixels.set(symbol.pixels.subarray(y * symbol.width, (y + 1) * symbol.width), (top + y) * size + left)
  return { width: size, height: size, pixels }
}

const textPage = (): Qr.GreyImage => {
  const document = mupdf.Document.openDocument(textPdf([invoice]).bytes, "application/pdf")
  const pixmap = document.loadPage(0).toPixmap(mupdf.Matrix.scale(150 / 72, 150 / 72), mupdf.ColorSpace.DeviceGray)
  const image = { width: pixmap.getWidth(), height: pixmap.getHeight(), pixels: pixmap.getPixels().slice() }
  document.destroy()
  return image
}

describe("the pre-check", () => {
  for (const moduleSize of [2, 3])
    it.effect(`passes a QR code at ${moduleSize} px a module, which is then read with its box in points`, () =>
      Effect.gen(function* () {
        const symbol = yield* Qr.render(afip, { moduleSize })
        const page = onPage(symbol, 1000, 300, 400)
        expect(mayHoldCode(page)).toBe(true)
        // 0.5 pt a pixel: the box is the symbol without its 4-module quiet zone, halved.
        const found = yield* codesIn(page, 0.5, 2)
        expect(found.codes).toHaveLength(1)
        const [code] = found.codes
        expect(code).toMatchObject({ page: 2, format: "QRCode", text: afip, kind: "Afip", problems: [] })
        expect(code?.facts).toMatchObject({
          issuerTaxId: "30-71556647-4",
          documentNumber: "0003-00001475",
          total: 44000
        })
        const quiet = 4 * moduleSize
        expect(code?.box?.x0).toBeCloseTo((300 + quiet) / 2, 0)
        expect(code?.box?.y0).toBeCloseTo((400 + quiet) / 2, 0)
        expect(code?.box?.x1).toBeCloseTo((300 + symbol.width - quiet) / 2, 0)
      })
    )

  it.effect("does not pass a page of text or a blank page, where zxing would find nothing", () =>
    Effect.gen(function* () {
      const text = textPage()
      expect(mayHoldCode(text)).toBe(false)
      expect((yield* codesIn(text, 72 / 150, 1)).codes).toEqual([])
      expect(mayHoldCode({ width: 500, height: 500, pixels: new Uint8Array(250_000).fill(255) })).toBe(false)
    })
  )

  it("matches run widths to ratios within half a unit a module, and pairs finders of one symbol only", () => {
    expect(matchesRatios([2, 2, 6, 2, 2], [1, 1, 3, 1, 1])).toBe(true)
    expect(matchesRatios([2, 2, 2, 2, 2], [1, 1, 3, 1, 1])).toBe(false)
    expect(matchesRatios([1, 1, 1, 1, 1, 1, 1, 1], [8, 1, 1, 1, 1, 1, 1, 3])).toBe(false)
    const a = { x: 100, y: 100, unit: 2 }
    expect(partners(a, { x: 100 + 2 * 50, y: 100, unit: 2.2 })).toBe(true)
    expect(partners(a, { x: 110, y: 100, unit: 2 })).toBe(false)
    expect(partners(a, { x: 200, y: 100, unit: 4 })).toBe(false)
  })
})

describe("what the worker records", () => {
  it("takes an attachment as XML by its name or its declared type", () => {
    expect(isXmlAttachment("factur-x.xml", "")).toBe(true)
    expect(isXmlAttachment("CFDI_A123.XML", "application/octet-stream")).toBe(true)
    expect(isXmlAttachment("invoice", "text/xml")).toBe(true)
    expect(isXmlAttachment("invoice", "application/vnd.oasis.ubl+xml")).toBe(true)
    expect(isXmlAttachment("scan.pdf", "application/pdf")).toBe(false)
  })

  it("greys RGB by luma, and shrinks by whole factors", () => {
    const rgb = { width: 2, height: 2, data: Uint8Array.from([255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0]) }
    expect([...greyOf(rgb).pixels]).toEqual([255, 0, 76, 149])
    expect([...greyOf(rgb, 2).pixels]).toEqual([120])
  })
})
