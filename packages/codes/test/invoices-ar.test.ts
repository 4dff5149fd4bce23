import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import { Codes, Qr } from "../src/index.js"

// Real Argentine invoices, read by path (never copied): each carries an AFIP QR. The data root is the benchmarks'.
const root = resolve(import.meta.dirname, "../../..", process.env.LEGIBLE_DATA ?? "../shared/data", "invoices-ar")
const names = ["factura128", "factura1360", "factura1475", "factura3435", "factura4"]

interface Truth {
  readonly issuer_cuit: string
  readonly point_of_sale: number
  readonly invoice_number: number
  readonly date: string
  readonly total: number
}

const renderGrey = (page: mupdf.Page, dpi: number): Qr.GreyImage => {
  const pixmap = page.toPixmap(mupdf.Matrix.scale(dpi / 72, dpi / 72), mupdf.ColorSpace.DeviceGray, false)
  return { width: pixmap.getWidth(), height: pixmap.getHeight(), pixels: pixmap.getPixels() }
}

// Page 1 at 150 DPI, then higher for the phone scan (factura1475 reads from 200 DPI). Rendered without alpha: a
// transparent background reaches zxing as black and hides every code.
const findAfip = (page: mupdf.Page) =>
  Effect.gen(function* () {
    for (const dpi of [150, 200, 300]) {
      const found = yield* Qr.read(renderGrey(page, dpi), ["QRCode"])
      const afip = found.map((code) => Codes.decode(code.text, code.format)).find((decoded) => decoded._tag === "Afip")
      if (afip) return { afip, dpi }
    }
    return undefined
  })

describe("AFIP QR of the real invoices in invoices-ar", () => {
  for (const name of names)
    it.effect(name, () =>
      Effect.gen(function* () {
        const truth: Truth = JSON.parse(readFileSync(join(root, `${name}.json`), "utf8"))
        const document = mupdf.Document.openDocument(readFileSync(join(root, `${name}.pdf`)), "application/pdf")
        const result = yield* findAfip(document.loadPage(0))
        assert.isDefined(result, "no AFIP QR found on page 1")
        const afip = result?.afip
        if (afip?._tag !== "Afip") return
        assert.strictEqual(afip.issuerTaxId, truth.issuer_cuit)
        assert.strictEqual(afip.pointOfSale, truth.point_of_sale)
        assert.strictEqual(afip.number, truth.invoice_number)
        assert.strictEqual(afip.issueDate, truth.date)
        assert.strictEqual(afip.total, truth.total)
        // Only damage is allowed, never a misreading: a payload cut short (as factura1475's is) says so.
        for (const problem of afip.problems) assert.include(["truncated", "missing_member"], problem.kind)
      })
    )
})
