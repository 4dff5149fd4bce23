/**
 * One bad part degrades its page, never the document: a 41-page PDF (40 text pages) whose page 21 carries an image
 * over the pixel cap reads every page, OCRs what page 21 has besides the image and names it in `degradedPages`; a
 * PDF whose header is damaged reads; random bytes and HTML are refused as before.
 */
import { deflateSync } from "node:zlib"
import { describe, expect, layer } from "@effect/vitest"
import { type Document, Ports } from "@legible/core"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import { beforeAll } from "vitest"
import * as OnnxReader from "../../src/OnnxReader.js"
import { buildDist } from "../pool/build.js"
import { invoice, raster, type SyntheticPage, textPdf } from "../support/synthetic.js"
import { encodeTiff } from "../support/tiff.js"
import { pageText } from "./support.js"

beforeAll(buildDist)

const textPages: ReadonlyArray<SyntheticPage> = Array.from({ length: 40 }, (_, i) => ({
  width: 595,
  height: 842,
  runs: [
    { text: `Capitulo ${i + 1}`, x: 72, y: 90, size: 18 },
    { text: `Texto de la pagina ${i + 1} del informe anual.`, x: 72, y: 130, size: 11 }
  ]
}))

/** A grey image XObject: `data` (Flate-compressed when `flate`), declared `width` × `height`. */
interface ImageSpec {
  readonly width: number
  readonly height: number
  readonly data: Uint8Array
  readonly flate: boolean
}

/**
 * The 40 text pages with, inserted as page 21, a page that draws `image` over the whole page and then a caption in
 * the text layer (too little text for the layer to be trusted over an image that covers the page: it is OCRed).
 */
const reportWithImage = (image: ImageSpec): Uint8Array => {
  const doc = mupdf.PDFDocument.openDocument(textPdf(textPages).bytes, "application/pdf").asPDF()
  if (doc === null) throw new Error("the synthetic PDF did not open as a PDF")
  // The text pages share one resources dictionary, whose /F1 the caption uses.
  const resources = doc.findPage(0).get("Resources")
  const stream = doc.addRawStream(image.data, {
    Type: doc.newName("XObject"),
    Subtype: doc.newName("Image"),
    Width: image.width,
    Height: image.height,
    BitsPerComponent: 8,
    ColorSpace: doc.newName("DeviceGray"),
    ...(image.flate ? { Filter: doc.newName("FlateDecode") } : {})
  })
  const xobjects = doc.newDictionary()
  xobjects.put("Im0", stream)
  resources.put("XObject", xobjects)
  const content = "q 595 0 0 842 0 0 cm /Im0 Do Q\nBT /F1 30 Tf 72 700 Td (FIGURA SIETE) Tj ET"
  doc.insertPage(20, doc.addPage([0, 0, 595, 842], 0, resources, content))
  const buffer = doc.saveToBuffer("compress")
  const bytes = buffer.asUint8Array().slice()
  buffer.destroy()
  doc.destroy()
  return bytes
}

const read = (bytes: Uint8Array, options?: Document.ReadOptions) =>
  Effect.flatMap(Ports.DocumentReader, (reader) => reader.read(bytes, options))

// Every page read, in order; the 40 text pages from their text layer with their own words; page 21 by OCR.
const expectEveryPage = (document: Document.ReadDocument) => {
  expect(document.numPages).toBe(41)
  expect(document.pages.map((p) => p.page)).toEqual(Array.from({ length: 41 }, (_, i) => i + 1))
  for (const page of document.pages) {
    if (page.page === 21) continue
    const chapter = page.page < 21 ? page.page : page.page - 1
    expect(page.source).toBe("text")
    expect(pageText(page)).toBe(`Capitulo ${chapter}\nTexto de la pagina ${chapter} del informe anual.`)
  }
  const figure = document.pages[20]!
  expect(figure.source).toBe("ocr")
  expect(pageText(figure)).toMatch(/FIGURA\s*SIETE/)
}

describe("degraded pages", () => {
  layer(OnnxReader.layer({ poolSize: 1 }), { excludeTestServices: true })((it) => {
    it.effect("an image declaring 113 MP (over the default 100 MP) is left out; every page reads", () =>
      Effect.gen(function* () {
        // 16 bytes on disk: the header is what counts, and it is never decoded.
        const bytes = reportWithImage({ width: 10_630, height: 10_630, data: new Uint8Array(16), flate: false })
        const document = yield* read(bytes)
        expectEveryPage(document)
        expect(document.degradedPages).toEqual([
          {
            page: 21,
            reason: "an image (10630 × 10630 pixels, 113 MP) over the limit of 100 MP left out of the page's OCR render"
          }
        ])
      })
    )

    it.effect("a page too large to render is skipped and named; alone, it is refused as before", () =>
      Effect.gen(function* () {
        // 30,000 pt a side and no text: OCR would render it at 12 DPI to stay within 25 MP (the floor is 18).
        const absurd: SyntheticPage = { width: 30_000, height: 30_000, runs: [] }
        const document = yield* read(textPdf([textPages[0]!, absurd, textPages[1]!]).bytes)
        expect(document.numPages).toBe(3)
        expect(document.pages.map((p) => p.page)).toEqual([1, 3])
        expect(document.degradedPages?.map((d) => d.page)).toEqual([2])
        expect(document.degradedPages?.[0]?.reason).toMatch(/^the page was not read \(TooManyPixels\): .*DPI/)
        expect(document.fullText).toBe(
          "Capitulo 1\nTexto de la pagina 1 del informe anual.\n\nCapitulo 2\nTexto de la pagina 2 del informe anual."
        )
        const alone = yield* Effect.flip(read(textPdf([absurd]).bytes))
        expect(alone.reason).toBe("TooManyPixels")
      })
    )

    it.effect("a page whose image cannot be rendered keeps the words of its text layer", () =>
      Effect.gen(function* () {
        const poster: SyntheticPage = {
          width: 30_000,
          height: 30_000,
          runs: [{ text: "CARTEL GRANDE", x: 100, y: 400, size: 300 }]
        }
        const budget = { maxSide: 300, maxBytes: 100_000, format: "jpeg" } as const
        const document = yield* read(textPdf([poster]).bytes, { images: budget })
        expect(document.pages.map(pageText)).toEqual(["CARTEL GRANDE"])
        expect(document.images).toEqual([])
        expect(document.degradedPages?.map((d) => d.page)).toEqual([1])
        expect(document.degradedPages?.[0]?.reason).toMatch(/^the page image was not rendered \(TooManyPixels\): /)
      })
    )

    it.effect("a text PDF without oversized images has no degraded pages", () =>
      Effect.gen(function* () {
        expect((yield* read(textPdf([invoice]).bytes)).degradedPages).toEqual([])
      })
    )

    it.effect("a damaged header reads: junk before it past the first KiB, or the header overwritten", () =>
      Effect.gen(function* () {
        const pdf = textPdf([invoice]).bytes
        const overwritten = pdf.slice()
        overwritten.set(new TextEncoder().encode("JUNK!JUNK"), 0)
        const prefixed = Uint8Array.from([...new Uint8Array(5000).fill(0x41), ...pdf])
        for (const bytes of [overwritten, prefixed]) {
          const document = yield* read(bytes)
          expect(document.mimeType).toBe("application/pdf")
          expect(document.pages[0]?.lines[0]?.words[0]?.word).toBe("FACTURA")
        }
      })
    )

    it.effect("random bytes and HTML are still refused as UnsupportedType", () =>
      Effect.gen(function* () {
        let seed = 42
        const random = Uint8Array.from({ length: 64 * 1024 }, () => {
          seed = (seed * 1103515245 + 12345) >>> 0
          return seed >>> 24
        })
        const html = new TextEncoder().encode("<!doctype html><p>1 0 obj, a PDF word in a page</p>")
        for (const bytes of [random, html]) {
          const error = yield* Effect.flip(read(bytes))
          expect(error.reason).toBe("UnsupportedType")
        }
      })
    )
  })

  // A cap of 1 MP lets a real image (1,200 × 1,200 grey pixels, 1.44 MP) stand for the oversized one.
  layer(OnnxReader.layer({ poolSize: 1, maxPixels: 1_000_000 }), { excludeTestServices: true })((it) => {
    it.effect("a multi-page TIFF skips the frame over the cap, unloaded, and reads the others", () =>
      Effect.gen(function* () {
        // Page 1: the invoice at 100 DPI (827 × 1169, 0.97 MP); page 2: 1,200 × 1,200 grey pixels (1.44 MP).
        const scan = raster(invoice, { format: "png", dpi: 100 })
        const image = new mupdf.Image(scan.bytes)
        const rgb = image.toPixmap()
        const grey = rgb.convertToColorSpace(mupdf.ColorSpace.DeviceGray)
        const first = { width: grey.getWidth(), height: grey.getHeight(), pixels: new Uint8Array(grey.getPixels()) }
        for (const held of [grey, rgb, image]) held.destroy()
        expect(first.pixels.length).toBe(first.width * first.height)
        const second = { width: 1200, height: 1200, pixels: new Uint8Array(1200 * 1200).fill(200) }
        const document = yield* read(encodeTiff([first, second], 100))
        expect(document.numPages).toBe(2)
        expect(document.pages.map((p) => [p.page, p.source])).toEqual([[1, "ocr"]])
        expect(pageText(document.pages[0]!)).toMatch(/FACTURA/)
        expect(document.degradedPages).toEqual([
          { page: 2, reason: "the page's image (1200 × 1200 pixels, 1.4 MP) is over the limit of 1 MP: not read" }
        ])
      })
    )

    it.effect("a real image over a low cap is left out of the OCR render and of the page image", () =>
      Effect.gen(function* () {
        const raw = Uint8Array.from({ length: 1200 * 1200 }, (_, i) => 128 + ((i % 1200) % 64))
        const bytes = reportWithImage({ width: 1200, height: 1200, data: deflateSync(raw), flate: true })
        const document = yield* read(bytes, { images: { maxSide: 300, maxBytes: 100_000, format: "jpeg" } })
        expectEveryPage(document)
        expect(document.images.map((image) => image.page)).toEqual(document.pages.map((page) => page.page))
        expect(document.degradedPages).toEqual([
          {
            page: 21,
            reason:
              "an image (1200 × 1200 pixels, 1.4 MP) over the limit of 1 MP left out of the page's OCR render; " +
              "an image (1200 × 1200 pixels, 1.4 MP) over the limit of 1 MP left out of the page image"
          }
        ])
      })
    )
  })
})
