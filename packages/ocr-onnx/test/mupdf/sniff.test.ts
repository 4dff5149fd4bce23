import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type FramesResult, imageFrames } from "../../src/internal/mupdf/imageHeader.js"
import { hasPdfBody, sniff } from "../../src/internal/sniff.js"
import { invoice, raster, textPdf, tiff } from "../support/synthetic.js"
import { bmp, gif, jbig2Header, jp2Header, jpegHeader, pgm, png, psdHeader, tiffHeaders } from "./images.js"

const text = (s: string) => new TextEncoder().encode(s)

const refusal = (bytes: Uint8Array) =>
  Effect.map(Effect.flip(sniff(bytes)), (error) => ({ reason: error.reason, message: error.message }))

const framesOf = (result: FramesResult) => ("frames" in result ? result.frames : result.unreadable)

describe("sniff", () => {
  it.effect("accepts PDF, PNG, JPEG, TIFF, GIF, BMP, PNM, PSD, JPEG 2000 and JBIG2 by their magic numbers", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [Uint8Array, string]> = [
        [textPdf([invoice]).bytes, "application/pdf"],
        [raster(invoice, { format: "png", dpi: 20 }).bytes, "image/png"],
        [raster(invoice, { format: "jpeg", dpi: 20 }).bytes, "image/jpeg"],
        [tiff([invoice], { dpi: 20 }), "image/tiff"],
        [gif(), "image/gif"],
        [bmp(2, 2), "image/bmp"],
        [pgm(2, 2), "image/x-portable-anymap"],
        [psdHeader(2, 2), "image/vnd.adobe.photoshop"],
        [jp2Header(2, 2), "image/jp2"],
        [jbig2Header(2, 2), "image/jbig2"],
        // Junk before the header is allowed by the PDF specification (within the first 1024 bytes).
        [Uint8Array.from([...text("garbage\n"), ...textPdf([invoice]).bytes]), "application/pdf"]
      ]
      for (const [bytes, mimeType] of cases) {
        const sniffed = yield* sniff(bytes)
        assert.deepStrictEqual(sniffed.mimeType, mimeType)
        assert.deepStrictEqual(sniffed.kind, mimeType === "application/pdf" ? "pdf" : "image")
      }
    })
  )

  it.effect("refuses HTML, ZIP, executables, plain text and empty bytes as UnsupportedType", () =>
    Effect.gen(function* () {
      const zip = Uint8Array.from([
        0x50,
        0x4b,
        0x03,
        0x04,
        20,
        0,
        0,
        0,
        0,
        0,
        ...new Array(20).fill(0),
        ...text("a.txt")
      ])
      const exe = Uint8Array.from([...text("MZ"), ...new Array(58).fill(0), 0x40, 0, 0, 0, ...text("PE\0\0")])
      const cases = [
        text("<!DOCTYPE html><html><body><p>Factura</p></body></html>"),
        zip,
        exe,
        text("FACTURA Nº 2024-0042\nTotal: 72,60 €\n"),
        new Uint8Array(0) // whatever the file was called (e.g. "factura.pdf")
      ]
      for (const bytes of cases) {
        const error = yield* refusal(bytes)
        assert.deepStrictEqual(error.reason, "UnsupportedType")
      }
      assert.match((yield* refusal(zip)).message, /application\/zip/)
      assert.match((yield* refusal(new Uint8Array(0))).message, /empty/)
    })
  )
  it.effect("takes a PDF body without its header for a PDF: junk past the first KiB, or the header overwritten", () =>
    Effect.gen(function* () {
      const pdf = textPdf([invoice]).bytes
      const overwritten = pdf.slice()
      overwritten.set(text("JUNK!JUNK"), 0)
      assert.notStrictEqual(new TextDecoder().decode(overwritten).indexOf("%PDF-"), 0)
      const prefixed = Uint8Array.from([...new Uint8Array(5000).fill(0x41), ...pdf])
      for (const bytes of [overwritten, prefixed]) {
        assert.deepStrictEqual(yield* sniff(bytes), { mimeType: "application/pdf", kind: "pdf" })
      }
    })
  )

  it.effect("needs an object header closed by endobj: stray PDF words, random bytes and HTML stay refused", () =>
    Effect.gen(function* () {
      // Seeded bytes (a linear congruential generator), 1 MiB: no PDF structure in them.
      let seed = 17
      const random = Uint8Array.from({ length: 1 << 20 }, () => {
        seed = (seed * 1103515245 + 12345) >>> 0
        return seed >>> 24
      })
      const cases = [
        random,
        text("<html><body>How a PDF starts: 1 0 obj &lt;&lt; /Type /Catalog &gt;&gt;</body></html>"),
        text("the words obj, endobj, xref and trailer, but no object: 12 obj 0 endobj"),
        text("1 0 obj << /Type /Catalog >> and no end")
      ]
      for (const bytes of cases) assert.deepStrictEqual((yield* refusal(bytes)).reason, "UnsupportedType")
      assert.isTrue(hasPdfBody(text("junk\n7 0 obj\n<< >>\nendobj\n")))
      assert.isTrue(hasPdfBody(text("x 12\r\n0   obj (endobj) endobj")))
      assert.isFalse(hasPdfBody(text("x 12 0obj endobj")))
      assert.isFalse(hasPdfBody(text("7 0 endobj")))
    })
  )
})

describe("image headers", () => {
  it("read the declared size of each format without decoding", () => {
    assert.deepStrictEqual(framesOf(imageFrames(png(100_000, 100_000, 1), "image/png", 10)), [
      { width: 100_000, height: 100_000 }
    ])
    assert.deepStrictEqual(framesOf(imageFrames(jpegHeader(40_000, 30_000), "image/jpeg", 10)), [
      { width: 40_000, height: 30_000 }
    ])
    assert.deepStrictEqual(framesOf(imageFrames(gif(65_535, 2), "image/gif", 10)), [{ width: 65_535, height: 2 }])
    assert.deepStrictEqual(framesOf(imageFrames(bmp(3, 2), "image/bmp", 10)), [{ width: 3, height: 2 }])
    assert.deepStrictEqual(framesOf(imageFrames(pgm(7, 5), "image/x-portable-anymap", 10)), [{ width: 7, height: 5 }])
    assert.deepStrictEqual(framesOf(imageFrames(psdHeader(9, 4), "image/vnd.adobe.photoshop", 10)), [
      { width: 9, height: 4 }
    ])
    assert.deepStrictEqual(framesOf(imageFrames(jp2Header(640, 480), "image/jp2", 10)), [{ width: 640, height: 480 }])
    assert.deepStrictEqual(framesOf(imageFrames(jbig2Header(2480, 3508), "image/jbig2", 10)), [
      { width: 2480, height: 3508 }
    ])
  })

  it("TIFF: every directory, stopping after the page limit, refusing cycles and truncation", () => {
    const sizes = [
      [10, 20],
      [30, 40]
    ] as const
    assert.deepStrictEqual(framesOf(imageFrames(tiffHeaders(sizes), "image/tiff", 10)), [
      { width: 10, height: 20 },
      { width: 30, height: 40 }
    ])
    const many = tiffHeaders(Array.from({ length: 1000 }, () => [1, 1] as const))
    assert.lengthOf(framesOf(imageFrames(many, "image/tiff", 5)), 6)
    const cycle = tiffHeaders(sizes)
    new DataView(cycle.buffer).setUint32(cycle.length - 4, 8, true) // the last directory points at the first
    assert.match(String(framesOf(imageFrames(cycle, "image/tiff", 10))), /cycle/)
    assert.match(String(framesOf(imageFrames(tiffHeaders(sizes).subarray(0, 20), "image/tiff", 10))), /truncated/)
  })

  it("a damaged header is unreadable, not a size", () => {
    assert.isString(framesOf(imageFrames(png(10, 10).subarray(0, 12), "image/png", 10)))
    assert.isString(framesOf(imageFrames(Uint8Array.from([0xff, 0xd8, 0x00, 0x00]), "image/jpeg", 10)))
    assert.isString(framesOf(imageFrames(text("P5\nnot a size\n"), "image/x-portable-anymap", 10)))
  })
})
