import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import { renderLeavingOut } from "../../src/internal/mupdf/leaveOut.js"
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

// A PDF page whose content is an image XObject declaring `width` × `height` grey pixels over a few bytes (a stencil
// mask with `mask`), then `after` (more content drawn over it).
const declaredImagePdf = (width: number, height: number, options: { mask?: boolean; after?: string } = {}) => {
  const doc = new mupdf.PDFDocument()
  const image = doc.addStream(new Uint8Array(16), {
    Type: doc.newName("XObject"),
    Subtype: doc.newName("Image"),
    Width: width,
    Height: height,
    BitsPerComponent: options.mask === true ? 1 : 8,
    ...(options.mask === true ? { ImageMask: true } : { ColorSpace: doc.newName("DeviceGray") })
  })
  const resources = doc.addObject(doc.newDictionary())
  const xobjects = doc.newDictionary()
  xobjects.put("Im0", image)
  resources.put("XObject", xobjects)
  const content = `q 595 0 0 842 0 0 cm /Im0 Do Q\n${options.after ?? ""}`
  doc.insertPage(-1, doc.addPage([0, 0, 595, 842], 0, resources, content))
  const buffer = doc.saveToBuffer("")
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return bytes
}

// The darkest grey level of an RGB render inside a box of pixels.
const darkest = (page: { width: number; data: Uint8Array }, x0: number, y0: number, x1: number, y1: number) => {
  let min = 255
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) min = Math.min(min, page.data[(y * page.width + x) * 3]!)
  return min
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

  it.effect(
    "an image inside a PDF over the pixel limit is left out, never decoded; the rest of the page is drawn",
    () =>
      Effect.gen(function* () {
        // A black bar drawn after the image: 100–300 pt across, 100–150 pt from the bottom (200 DPI: × 200/72).
        const bar = "0 g 100 100 200 50 re f"
        for (const mask of [false, true]) {
          const page = yield* render(declaredImagePdf(30_000, 30_000, { mask, after: bar }))
          assert.deepStrictEqual(page.leftOut, [{ width: 30_000, height: 30_000 }])
          assert.deepStrictEqual([page.width, page.height], [1653, 2339]) // A4 at 200 DPI: the page's own plan
          const z = 200 / 72
          const barTop = Math.round(2339 - 150 * z)
          assert.deepStrictEqual(darkest(page, Math.round(120 * z), barTop + 10, Math.round(280 * z), barTop + 40), 0)
          // Elsewhere white: the image was not drawn (a decoded 30000² image would also have failed the heap).
          assert.deepStrictEqual(darkest(page, 0, 0, page.width, Math.round(600 * z)), 255)
        }
      })
  )

  it.effect("the filtering render keeping every image draws the same pixels as mupdf's own render", () =>
    Effect.gen(function* () {
      const pixels = (pixmap: mupdf.Pixmap) => {
        const copy = pixmap.getPixels().slice()
        pixmap.destroy()
        return copy
      }
      for (const bytes of [textPdf([invoice]).bytes, imagePdf([card], { dpi: 150, stamp: card.runs })]) {
        const [own, filtered] = yield* onPage(bytes, 0, (page) =>
          Effect.sync(() => {
            const matrix = mupdf.Matrix.scale(1.5, 1.5)
            return [
              pixels(page.toPixmap(matrix, mupdf.ColorSpace.DeviceRGB, false, true)),
              pixels(renderLeavingOut(page, matrix, () => true))
            ] as const
          })
        )
        assert.deepStrictEqual(filtered.length, own.length)
        assert.isTrue(Buffer.from(filtered).equals(Buffer.from(own)))
      }
    })
  )

  it.effect("an image within the limit is drawn and nothing is left out", () =>
    Effect.gen(function* () {
      const page = yield* render(declaredImagePdf(40, 40))
      assert.deepStrictEqual(page.leftOut, [])
      assert.deepStrictEqual(darkest(page, 800, 1100, 850, 1150), 0) // its (zero) grey pixels cover the page
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

  it.effect("a page image leaves an image over the pixel limit out, and says so", () =>
    Effect.gen(function* () {
      const budget = { maxSide: 800, maxBytes: 200_000, format: "png" } as const
      const bytes = declaredImagePdf(30_000, 30_000, { after: "0 g 100 100 200 50 re f" })
      const image = yield* onPage(bytes, 0, (page, doc) => pageImage(page, doc.kind, budget, defaultLimits))
      assert.deepStrictEqual(image.leftOut, [{ width: 30_000, height: 30_000 }])
      assert.deepStrictEqual(decodedSize(image.bytes), [image.width, image.height])
      assert.deepStrictEqual(Math.max(image.width, image.height), 800)
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
