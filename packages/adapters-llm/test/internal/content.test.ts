import { assert, describe, it } from "@effect/vitest"
import { Fixtures } from "@legible/testkit"
import fc from "fast-check"
import { type Budget, chunks, cutText, type Part } from "../../src/internal/content.js"
import { document, page, request } from "../support/documents.js"

const skill = Fixtures.skill()

const bytesOf = (parts: ReadonlyArray<Part>) =>
  parts.reduce((sum, p) => sum + (p._tag === "Text" ? Buffer.byteLength(p.text) : p.base64.length), 0)

const pages = (count: number, text = "Línea de texto") =>
  Array.from({ length: count }, (_, i) => page(i + 1, [[[40, `${text} ${i + 1}`]]]))

describe("content.chunks", () => {
  const roomy: Budget = { maxBytes: 30_000_000, maxImages: 20, maxChars: 400_000 }

  it("ocr_pdf: per page, its image then its OCR text; one request when it fits", () => {
    const doc = document(pages(2), { imageBytes: 30 })
    const [only, ...rest] = chunks(request(skill, doc, { mode: "ocr_pdf" }), roomy, { pdf: true })
    assert.deepStrictEqual(rest, [])
    assert.deepStrictEqual(only?.pages, [1, 2])
    assert.deepStrictEqual(
      only?.parts.map((p) => p._tag),
      ["Image", "Text", "Image", "Text"]
    )
    assert.include(only?.parts[1]?._tag === "Text" ? only.parts[1].text : "", "--- Page 1 (OCR text) ---")
  })

  it("pdf_only: the original, or an image document as an image; too large or unsupported: the pages' text", () => {
    const doc = document(pages(1))
    const original = new Uint8Array([37, 80, 68, 70])
    const asPdf = chunks(request(skill, doc, { mode: "pdf_only", original }), roomy, { pdf: true })
    assert.deepStrictEqual(asPdf[0]?.parts, [{ _tag: "Pdf", base64: "JVBERg==" }])
    const png = chunks(request(skill, { ...doc, mimeType: "image/png" }, { mode: "pdf_only", original }), roomy, {
      pdf: false
    })
    assert.deepStrictEqual(png[0]?.parts, [{ _tag: "Image", mimeType: "image/png", base64: "JVBERg==" }])
    const unsupported = chunks(request(skill, doc, { mode: "pdf_only", original }), roomy, { pdf: false })
    assert.deepStrictEqual(
      unsupported[0]?.parts.map((p) => p._tag),
      ["Text"]
    )
    const tooLarge = chunks(
      request(skill, doc, { mode: "pdf_only", original }),
      { ...roomy, maxBytes: 4 },
      { pdf: true }
    )
    assert.isTrue(tooLarge.every((c) => c.parts.every((p) => p._tag === "Text")))
  })

  it("a page whose image alone is over the budget goes without it", () => {
    const doc = document(pages(2), { imageBytes: 3_000 })
    const out = chunks(request(skill, doc, { mode: "ocr_pdf" }), { ...roomy, maxBytes: 2_000 }, { pdf: true })
    assert.isTrue(out.every((c) => c.parts.every((p) => p._tag === "Text")))
    assert.deepStrictEqual(
      out.map((c) => c.pages),
      [[1, 2]]
    )
  })

  it("a page whose text is over the text budget is cut at line boundaries", () => {
    assert.deepStrictEqual(cutText("aaa\nbbb\nccc", 7), ["aaa\nbbb", "ccc"])
    assert.deepStrictEqual(cutText("abcdefghij", 4), ["abcd", "efgh", "ij"])
    assert.deepStrictEqual(cutText("", 4), [""])
  })

  it("for any document and budget: every request within it, pages in order, each page sent once", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 5_000 }),
        fc.integer({ min: 1_500, max: 20_000 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom("ocr_pdf" as const, "ocr_only" as const, "ocr_pipeline_md" as const),
        (count, imageBytes, maxBytes, maxImages, mode) => {
          const doc = document(pages(count), imageBytes === 0 ? {} : { imageBytes })
          const budget: Budget = { maxBytes, maxImages, maxChars: 1_000 }
          const out = chunks(request(skill, doc, { mode }), budget, { pdf: true })
          for (const c of out) {
            assert.isAtMost(bytesOf(c.parts), maxBytes)
            assert.isAtMost(c.parts.filter((p) => p._tag === "Image").length, maxImages)
          }
          const covered = out.flatMap((c) =>
            Array.from({ length: c.pages[1] - c.pages[0] + 1 }, (_, i) => c.pages[0] + i)
          )
          assert.deepStrictEqual(
            covered,
            Array.from({ length: count }, (_, i) => i + 1)
          )
        }
      ),
      { seed: 4004, numRuns: 150 }
    )
  })
})
