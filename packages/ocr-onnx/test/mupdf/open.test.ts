import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaultLimits } from "../../src/internal/mupdf/limits.js"
import { type OpenedDocument, openDocument, withPage } from "../../src/internal/mupdf/open.js"
import { renderForOcr } from "../../src/internal/mupdf/render.js"
import { conditions, invoice, raster, textPdf, tiff } from "../support/synthetic.js"
import { bmp, gif, jpegHeader, pgm, png, tiffHeaders } from "./images.js"

const opened = (bytes: Uint8Array, limits = defaultLimits) =>
  Effect.scoped(
    Effect.map(openDocument(bytes, limits), ({ mimeType, kind, numPages }) => ({ mimeType, kind, numPages }))
  )

const refusal = (bytes: Uint8Array, limits = defaultLimits) =>
  Effect.map(Effect.flip(opened(bytes, limits)), (error) => ({ reason: error.reason, message: error.message }))

describe("openDocument", () => {
  it.effect("opens PDFs and every page of images: PNG, JPEG, multi-page TIFF, GIF, BMP, PNM", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* opened(textPdf([invoice, conditions]).bytes), {
        mimeType: "application/pdf",
        kind: "pdf",
        numPages: 2
      })
      assert.deepStrictEqual((yield* opened(raster(invoice, { format: "png", dpi: 50 }).bytes)).numPages, 1)
      assert.deepStrictEqual((yield* opened(raster(invoice, { format: "jpeg", dpi: 50 }).bytes)).numPages, 1)
      assert.deepStrictEqual(yield* opened(tiff([invoice, conditions, invoice], { dpi: 50 })), {
        mimeType: "image/tiff",
        kind: "image",
        numPages: 3
      })
      for (const bytes of [gif(), bmp(3, 2), pgm(4, 3)]) {
        // Rendering proves the image decodes, not only that the header reads.
        const page = yield* Effect.scoped(
          Effect.flatMap(openDocument(bytes, defaultLimits), (doc) =>
            withPage(doc, 0, (p) => renderForOcr(p, doc.kind, defaultLimits))
          )
        )
        assert.isAbove(page.width, 0)
      }
    })
  )

  it.effect("a 200-byte PNG declaring 100,000 × 100,000 pixels is refused in milliseconds, before decoding", () =>
    Effect.gen(function* () {
      const flood = png(100_000, 100_000, 1)
      assert.isBelow(flood.length, 200)
      const rss = process.memoryUsage().rss
      const started = performance.now()
      const error = yield* refusal(flood)
      const elapsed = performance.now() - started
      assert.deepStrictEqual(error.reason, "TooManyPixels")
      assert.match(error.message, /100000 × 100000/)
      assert.isBelow(elapsed, 100)
      // Decoding would need 10 GB; nothing near that (nor 100 MB) was allocated.
      assert.isBelow(process.memoryUsage().rss - rss, 100_000_000)
    })
  )

  it.effect("other declared floods and page bombs in image headers are refused before mupdf sees them", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual((yield* refusal(jpegHeader(60_000, 60_000))).reason, "TooManyPixels")
      assert.deepStrictEqual((yield* refusal(gif(65_535, 65_535))).reason, "TooManyPixels")
      // A multi-page TIFF is refused only when every frame is over the cap; otherwise those frames are named, for the
      // reader to skip them unloaded.
      const allHuge = yield* refusal(
        tiffHeaders([
          [50_000, 50_000],
          [60_000, 60_000]
        ])
      )
      assert.deepStrictEqual(allHuge.reason, "TooManyPixels")
      assert.match(allHuge.message, /every page .* 50000 × 50000/)
      const secondHuge = yield* Effect.scoped(
        Effect.map(
          openDocument(
            tiffHeaders([
              [10, 10],
              [50_000, 50_000]
            ]),
            defaultLimits
          ),
          ({ numPages, oversizedPages }) => ({ numPages, oversized: [...oversizedPages] })
        )
      )
      assert.deepStrictEqual(secondHuge, { numPages: 2, oversized: [[1, { width: 50_000, height: 50_000 }]] })
      const pages = yield* refusal(tiffHeaders(Array.from({ length: 600 }, () => [1, 1] as const)))
      assert.deepStrictEqual(pages.reason, "TooManyPages")
      // The limits are configuration.
      const small = { ...defaultLimits, maxImagePixels: 1000 }
      assert.deepStrictEqual((yield* refusal(png(40, 40), small)).reason, "TooManyPixels")
      assert.deepStrictEqual((yield* opened(png(30, 30), small)).numPages, 1)
      const twoPages = { ...defaultLimits, maxPages: 2 }
      assert.deepStrictEqual(
        (yield* refusal(textPdf([invoice, invoice, invoice]).bytes, twoPages)).reason,
        "TooManyPages"
      )
    })
  )

  it.effect("damaged files are Corrupt: a PDF header over garbage or cut short, an image cut short", () =>
    Effect.gen(function* () {
      const garbage = new TextEncoder().encode("%PDF-1.7\n% nothing else here but words\n")
      assert.deepStrictEqual((yield* refusal(garbage)).reason, "Corrupt")
      const pdf = textPdf([invoice]).bytes
      assert.deepStrictEqual((yield* refusal(pdf.subarray(0, 100))).reason, "Corrupt")
      // Cut later, mupdf's repair recovers the page tree: the document opens (its pages may have lost their text,
      // and are then OCRed).
      assert.deepStrictEqual((yield* opened(pdf.subarray(0, Math.floor(pdf.length * 0.5)))).numPages, 1)
      assert.deepStrictEqual((yield* refusal(png(10, 10).subarray(0, 20))).reason, "Corrupt")
      assert.deepStrictEqual((yield* refusal(jpegHeader(10, 10).subarray(0, 6))).reason, "Corrupt")
    })
  )

  it.effect("a page that cannot be loaded is Corrupt; the document is destroyed with its scope", () =>
    Effect.gen(function* () {
      let kept: OpenedDocument | undefined
      const error = yield* Effect.scoped(
        Effect.flatMap(openDocument(textPdf([invoice]).bytes, defaultLimits), (doc) => {
          kept = doc
          return Effect.flip(withPage(doc, 5, () => Effect.void))
        })
      )
      assert.deepStrictEqual(error.reason, "Corrupt")
      assert.match(error.message, /page 6/)
      assert.deepStrictEqual(kept?.document.pointer, 0)
    })
  )
})
