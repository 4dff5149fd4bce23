import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import { defaultLimits } from "../../src/internal/mupdf/limits.js"
import { pageImage, renderForOcr } from "../../src/internal/mupdf/render.js"
import { imagePdf, invoice, raster, type SyntheticPage, textPdf } from "../support/synthetic.js"
import { onPage } from "./support.js"

const render = (bytes: Uint8Array, limits = defaultLimits) =>
  onPage(bytes, 0, (page, doc) => renderForOcr(page, doc.kind, limits), limits)

// The refusal of a render (its success reduced to its size, so a failed assertion does not print the pixels).
const refusal = (bytes: Uint8Array, limits = defaultLimits) =>
  Effect.flip(Effect.map(render(bytes, limits), ({ width, height }) => ({ width, height })))

const dpiOf = (rendered: { scale: number }) => 72 / rendered.scale

// A small page keeps the scans of the DPI tests quick to build.
const card: SyntheticPage = { width: 300, height: 200, runs: [{ text: "Factura 2024-0042", x: 20, y: 40, size: 12 }] }

// A PDF page whose only content is an image XObject declaring `width` × `height` grey pixels over a few bytes.
const declaredImagePdf = (width: number, height: number): Uint8Array => {
  const doc = new mupdf.PDFDocument()
  const image = doc.addStream(new Uint8Array(16), {
    Type: doc.newName("XObject"),
    Subtype: doc.newName("Image"),
    Width: width,
    Height: height,
    BitsPerComponent: 8,
    ColorSpace: doc.newName("DeviceGray")
  })
  const resources = doc.addObject(doc.newDictionary())
  const xobjects = doc.newDictionary()
  xobjects.put("Im0", image)
  resources.put("XObject", xobjects)
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, "q 595 0 0 842 0 0 cm /Im0 Do Q"))
  const buffer = doc.saveToBuffer("")
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return bytes
}

describe("renderForOcr", () => {
  it.effect("a text page at 200 DPI: RGB rows copied out of the WASM heap, scale in points per pixel", () =>
    Effect.gen(function* () {
      const page = yield* render(textPdf([invoice]).bytes)
      assert.deepStrictEqual([page.width, page.height, page.channels], [1653, 2339, 3])
      assert.lengthOf(page.data, 1653 * 2339 * 3)
      assert.deepStrictEqual(page.data.byteLength, page.data.buffer.byteLength) // its own buffer
      assert.closeTo(dpiOf(page), 200, 0.2)
      assert.deepStrictEqual([page.pageWidth, page.pageHeight], [595, 842])
      const at = (xPt: number, yPt: number) =>
        page.data[(Math.round(yPt / page.scale) * page.width + Math.round(xPt / page.scale)) * 3]!
      assert.deepStrictEqual(at(20, 20), 255) // margin
      assert.isBelow(at(58, 66), 100) // inside the stem of the bold "F" of "FACTURA"
    })
  )

  it.effect("a scan inside a PDF renders at the image's native resolution, clamped to 150–300 DPI", () =>
    Effect.gen(function* () {
      for (const [embedded, rendered] of [
        [100, 150],
        [200, 200],
        [250, 250],
        [400, 300]
      ] as const) {
        const page = yield* render(imagePdf([card], { dpi: embedded }))
        assert.closeTo(dpiOf(page), rendered, 0.5, `${embedded} DPI scan`)
        assert.deepStrictEqual([page.pageWidth, page.pageHeight], [300, 200])
      }
    })
  )

  it.effect("an image file renders at its pixel size whatever its DPI metadata says; 1 pixel = 0.36 pt", () =>
    Effect.gen(function* () {
      const png = raster(invoice, { format: "png" })
      const image = new mupdf.Image(png.bytes)
      const pixmap = image.toPixmap()
      pixmap.setResolution(508, 508) // a px/cm density misread as DPI
      const misdeclared = pixmap.asPNG().slice()
      pixmap.destroy()
      image.destroy()
      for (const bytes of [png.bytes, misdeclared]) {
        const page = yield* render(bytes)
        assert.deepStrictEqual([page.width, page.height], [png.width, png.height])
        assert.closeTo(page.pageWidth, png.width * 0.36, 0.01)
        assert.closeTo(page.scale, 0.36, 1e-9)
      }
    })
  )

  it.effect("a small image (a 100 DPI form) is enlarged towards 2,000 px; its page size stays 0.36 pt a pixel", () =>
    Effect.gen(function* () {
      const small = raster(invoice, { format: "png", dpi: 100 })
      const page = yield* render(small.bytes)
      assert.deepStrictEqual(page.height, 2000)
      assert.closeTo(page.pageHeight, small.height * 0.36, 0.01)
      assert.closeTo(page.scale * page.height, page.pageHeight, 0.5)
    })
  )

  it.effect("a large image (a 600 DPI scan) renders down to 3,508 px; its page size stays 0.36 pt a pixel", () =>
    Effect.gen(function* () {
      const large = raster(card, { format: "jpeg", dpi: 1000 })
      assert.isAbove(large.width, 3508)
      const page = yield* render(large.bytes)
      assert.deepStrictEqual(Math.max(page.width, page.height), 3508)
      assert.closeTo(page.pageWidth, large.width * 0.36, 0.01)
      assert.closeTo(page.scale * page.width, page.pageWidth, 0.5)
    })
  )

  it.effect("a /Rotate 90 page renders as displayed (landscape)", () =>
    Effect.gen(function* () {
      const page = yield* render(textPdf([invoice], { rotate: 90 }).bytes)
      assert.deepStrictEqual([page.width, page.height], [2339, 1653])
    })
  )

  it.effect("a huge page is rendered at a lower resolution within the pixel cap; an absurd one is refused", () =>
    Effect.gen(function* () {
      const poster: SyntheticPage = { width: 5000, height: 5000, runs: [{ text: "CARTEL", x: 100, y: 400, size: 300 }] }
      const page = yield* render(textPdf([poster]).bytes)
      assert.isAtMost(page.width * page.height, defaultLimits.maxRenderPixels)
      assert.closeTo(dpiOf(page), 72, 0.5)
      const tight = { ...defaultLimits, maxRenderPixels: 1_000_000 }
      const error = yield* refusal(textPdf([{ ...poster, width: 14_400, height: 14_400 }]).bytes, tight)
      assert.deepStrictEqual(error.reason, "TooManyPixels")
    })
  )

  it.effect("an image inside a PDF that declares over the pixel limit is refused before decoding", () =>
    Effect.gen(function* () {
      const started = performance.now()
      const error = yield* refusal(declaredImagePdf(30_000, 30_000))
      assert.deepStrictEqual(error.reason, "TooManyPixels")
      assert.match(error.message, /30000 × 30000/)
      assert.isBelow(performance.now() - started, 200)
    })
  )
})

describe("pageImage", () => {
  const decodedSize = (bytes: Uint8Array) => {
    const image = new mupdf.Image(bytes)
    const size = [image.getWidth(), image.getHeight()]
    image.destroy()
    return size
  }

  it.effect("PNG and JPEG within the longest side and the byte budget, shrinking until they fit", () =>
    Effect.gen(function* () {
      const bytes = imagePdf([invoice], { dpi: 100 })
      for (const budget of [
        { maxSide: 1568, maxBytes: 500_000, format: "jpeg" },
        { maxSide: 1000, maxBytes: 60_000, format: "png" },
        { maxSide: 1568, maxBytes: 20_000, format: "jpeg" },
        { maxSide: 800, maxBytes: 20_000, format: "png" }
      ] as const) {
        const image = yield* onPage(bytes, 0, (page, doc) => pageImage(page, doc.kind, budget, defaultLimits))
        assert.deepStrictEqual(image.mimeType, `image/${budget.format}`)
        assert.isAtMost(Math.max(image.width, image.height), budget.maxSide)
        assert.isAtMost(image.bytes.length, budget.maxBytes)
        assert.deepStrictEqual(decodedSize(image.bytes), [image.width, image.height])
      }
    })
  )

  it.effect("never above the page's own resolution (200 DPI; an image's pixels) when the budget allows more", () =>
    Effect.gen(function* () {
      const budget = { maxSide: 10_000, maxBytes: 50_000_000, format: "jpeg" } as const
      const image = (bytes: Uint8Array) =>
        onPage(bytes, 0, (page, doc) => pageImage(page, doc.kind, budget, defaultLimits))
      const text = yield* image(textPdf([invoice]).bytes)
      assert.deepStrictEqual([text.width, text.height], [1653, 2339])
      // OCR enlarges this 100 DPI image; the page image keeps its pixels.
      const small = raster(invoice, { format: "png", dpi: 100 })
      const kept = yield* image(small.bytes)
      assert.deepStrictEqual([kept.width, kept.height], [small.width, small.height])
    })
  )
})
