/**
 * The reader end to end, on one shared pool of two worker threads: the synthetic invoice as a text PDF (exact words
 * and boxes), as an image-only PDF, PNG, JPEG and a two-page TIFF (OCR within tolerance), a mixed PDF (decided per
 * page), and page images within their budget.
 */
import { describe, expect, layer } from "@effect/vitest"
import { type Document, Ports } from "@legible/core"
import { Effect } from "effect"
import { beforeAll } from "vitest"
import * as OnnxReader from "../../src/OnnxReader.js"
import { buildDist } from "../pool/build.js"
import { conditions, imagePdf, invoice, raster, textPdf, tiff, truthOf } from "../support/synthetic.js"
import { mixedPdf } from "./documents.js"
import { score, wordIds } from "./support.js"

beforeAll(buildDist)

// Measured on these pages: CER 0.3–1.2 % and box recall 0.96–1.0 (see the report); the bounds leave room for
// another machine's float rounding, not for a real regression.
const maxCer = 0.03
const minBoxRecall = 0.85

const read = (bytes: Uint8Array, options?: Document.ReadOptions) =>
  Effect.flatMap(Ports.DocumentReader, (reader) => reader.read(bytes, options))

const expectOcr = (page: Document.ReadPage | undefined, truth: ReturnType<typeof truthOf>) => {
  if (page === undefined) throw new Error("the page is missing")
  expect(page.source).toBe("ocr")
  const { cer, boxRecall } = score(page, truth)
  expect(cer).toBeLessThanOrEqual(maxCer)
  expect(boxRecall).toBeGreaterThanOrEqual(minBoxRecall)
  // Every OCR word carries through the worker how sure the reader is of it, and of its letters (at least as sure).
  const words = page.lines.flatMap((line) => line.words)
  expect(words.every((w) => w.confidence > 0 && (w.letters ?? 0) >= w.confidence && (w.letters ?? 2) <= 1.000001)).toBe(
    true
  )
  expect(words.some((w) => (w.letters ?? 0) > w.confidence)).toBe(true)
  // Image documents count a native pixel as 72/200 pt, the same size as the 200 DPI render of the PDF page.
  expect(page.width).toBeCloseTo(truth.width, -1)
  expect(page.height).toBeCloseTo(truth.height, -1)
}

describe("OnnxReader", () => {
  layer(OnnxReader.layer({ poolSize: 2 }), { excludeTestServices: true })((it) => {
    it.effect("reads a text PDF from its text layer: exact words, boxes and ids", () =>
      Effect.gen(function* () {
        const { bytes, truth } = textPdf([invoice, conditions])
        const document = yield* read(bytes)
        expect(document.mimeType).toBe("application/pdf")
        expect(document.numPages).toBe(2)
        expect(document.images).toEqual([])
        for (const [i, page] of document.pages.entries()) {
          const want = truth[i]
          if (want === undefined) throw new Error(`no truth for page ${i + 1}`)
          expect(page.page).toBe(i + 1)
          expect(page.source).toBe("text")
          expect([page.width, page.height]).toEqual([595, 842])
          const words = page.lines.flatMap((line) => line.words)
          const truthWords = want.lines.flat()
          expect(words.map((w) => w.word)).toEqual(truthWords.map((w) => w.word))
          for (const [k, word] of words.entries()) {
            const t = truthWords[k]
            expect(word.id).toBe(`p${i + 1}-w${k}`)
            expect(word.page).toBe(i + 1)
            expect([word.confidence, word.letters]).toEqual([1, 1])
            expect(Math.abs(word.x0 - (t?.x0 ?? Number.NaN))).toBeLessThan(0.5)
            expect(Math.abs(word.x1 - (t?.x1 ?? Number.NaN))).toBeLessThan(0.5)
            expect(Math.abs(word.y0 - (t?.y0 ?? Number.NaN))).toBeLessThan(0.5)
            expect(Math.abs(word.y1 - (t?.y1 ?? Number.NaN))).toBeLessThan(0.5)
          }
          if (i === 0) expect(page.markdown).toContain("| Descripción | Cantidad | Precio | Importe |")
        }
        expect(new Set(wordIds(document)).size).toBe(wordIds(document).length)
        const [first, second] = document.fullText.split("\n\n")
        expect(first?.split("\n")[0]).toBe("FACTURA Nº 2024-0042")
        expect(second?.split("\n")[0]).toBe("CONDICIONES GENERALES")
      })
    )

    it.effect("reads an image-only PDF, a PNG and a JPEG by OCR, in points", () =>
      Effect.gen(function* () {
        const truth = truthOf(invoice)
        const [pdf, png, jpeg] = yield* Effect.all(
          [
            read(imagePdf([invoice])),
            read(raster(invoice, { format: "png" }).bytes),
            read(raster(invoice, { format: "jpeg" }).bytes)
          ],
          { concurrency: "unbounded" }
        )
        expect([pdf.mimeType, png.mimeType, jpeg.mimeType]).toEqual(["application/pdf", "image/png", "image/jpeg"])
        for (const document of [pdf, png, jpeg]) {
          expect(document.numPages).toBe(1)
          expectOcr(document.pages[0], truth)
          expect(wordIds(document)[0]).toBe("p1-w0")
        }
      })
    )

    it.effect("reads every page of a multi-page TIFF", () =>
      Effect.gen(function* () {
        const document = yield* read(tiff([invoice, conditions]))
        expect(document.mimeType).toBe("image/tiff")
        expect(document.numPages).toBe(2)
        expectOcr(document.pages[0], truthOf(invoice))
        expectOcr(document.pages[1], truthOf(conditions))
        expect(wordIds(document).filter((id) => id.startsWith("p2-"))[0]).toBe("p2-w0")
      })
    )

    it.effect("decides per page: a text page from its text layer, a scanned page by OCR", () =>
      Effect.gen(function* () {
        const document = yield* read(mixedPdf())
        expect(document.pages.map((page) => page.source)).toEqual(["text", "ocr"])
        expect(document.pages[0]?.lines[0]?.words.map((w) => w.word).join(" ")).toBe("FACTURA Nº 2024-0042")
        expectOcr(document.pages[1], truthOf(conditions))
      })
    )

    it.effect("renders page images within their budget when asked", () =>
      Effect.gen(function* () {
        const { bytes } = textPdf([invoice, conditions])
        const jpeg = yield* read(bytes, { images: { maxSide: 800, maxBytes: 60_000, format: "jpeg" } })
        const png = yield* read(bytes, { images: { maxSide: 500, maxBytes: 100_000, format: "png" } })
        expect(jpeg.images.map((image) => image.page)).toEqual([1, 2])
        for (const image of jpeg.images) {
          expect(image.mimeType).toBe("image/jpeg")
          expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(800)
          expect(image.bytes.length).toBeLessThanOrEqual(60_000)
          expect([...image.bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff])
        }
        for (const image of png.images) {
          expect(image.mimeType).toBe("image/png")
          expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(500)
          expect(image.bytes.length).toBeLessThanOrEqual(100_000)
          expect([...image.bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47])
        }
      })
    )

    it.effect("identifies the type from the bytes in the calling thread", () =>
      Effect.gen(function* () {
        const reader = yield* Ports.DocumentReader
        expect(yield* reader.identify(raster(invoice, { format: "png", dpi: 50 }).bytes)).toBe("image/png")
        expect(yield* reader.identify(textPdf([invoice]).bytes)).toBe("application/pdf")
        const error = yield* Effect.flip(reader.identify(new TextEncoder().encode("<html><body>hola</body></html>")))
        expect(error.reason).toBe("UnsupportedType")
      })
    )
  })
})
