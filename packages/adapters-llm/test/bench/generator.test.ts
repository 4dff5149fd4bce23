import { describe, expect, it } from "@effect/vitest"
import * as mupdf from "mupdf"
import { generate, LANGUAGES, pdf, scan } from "../../bench/generator/index.js"
import { seeded } from "../../bench/generator/random.js"
import { amountValue, dateReadings, decimalSeparatorOf, name } from "../../bench/scoring.js"

const textOf = (bytes: Uint8Array): string => {
  const doc = mupdf.Document.openDocument(bytes, "application/pdf")
  const page = doc.loadPage(0)
  const text = page.toStructuredText("preserve-whitespace").asText()
  page.destroy()
  doc.destroy()
  return text
}

describe("bench generator", () => {
  const documents = generate(28, 17)

  it("is deterministic for a seed and changes with it", () => {
    expect(generate(28, 17)).toEqual(documents)
    expect(pdf(generate(1, 17)[0]!.page)).toEqual(pdf(documents[0]!.page))
    expect(generate(28, 18).map((d) => d.truth)).not.toEqual(documents.map((d) => d.truth))
  })

  it("covers every language and both kinds in each half", () => {
    for (const half of [documents.slice(0, 14), documents.slice(14)]) {
      for (const language of LANGUAGES)
        for (const kind of ["invoice", "receipt"])
          expect(half.some((d) => d.language === language && d.kind === kind)).toBe(true)
    }
  })

  it("prints its truth in the PDF's text layer", () => {
    for (const document of documents) {
      const text = textOf(pdf(document.page))
      const flat = name(text)
      expect(flat).toContain(name(document.truth.issuer))
      if (document.truth.number !== null) expect(flat).toContain(name(document.truth.number))
      const decimal = decimalSeparatorOf(text)
      // The total is printed as an amount that reads back to the truth, and so is every line total.
      const amounts = (text.match(/-?\d[\d., {2}]*\d/g) ?? []).map((a) => amountValue(a.trim(), decimal))
      expect(amounts).toContain(document.truth.total)
      for (const line of document.truth.items) {
        expect(flat).toContain(name(line.description))
        expect(amounts).toContain(line.lineTotal)
      }
      // Line totals add up to what the document charges before discounts, taxes and rounding.
      expect(document.truth.items.length).toBeGreaterThan(0)
      expect(document.truth.date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    }
  })

  it("writes the issue date so that a general parser reads it back", () => {
    for (const document of documents) {
      expect(name(textOf(pdf(document.page)))).toContain(name(document.truth.dateLiteral))
      expect(dateReadings(document.truth.dateLiteral)).toContain(document.truth.date)
    }
  })

  it("wears a scan from its own stream: a JPEG of the page, greyer and noisier than the print", () => {
    const bytes = pdf(documents[7]!.page)
    const worn = scan(bytes, seeded(5))
    expect(scan(bytes, seeded(5))).toEqual(worn)
    expect(scan(bytes, seeded(6))).not.toEqual(worn)
    const image = new mupdf.Image(worn)
    const pixmap = image.toPixmap()
    // JPEG, 170–260 DPI of the page's points (turned by up to 1.5°, so a little larger).
    expect(Array.from(worn.subarray(0, 3))).toEqual([0xff, 0xd8, 0xff])
    const height = pixmap.getHeight()
    const points = documents[7]!.page.height
    expect(height).toBeGreaterThanOrEqual(Math.floor((points * 170) / 72))
    expect(height).toBeLessThanOrEqual(Math.ceil(((points * 260) / 72) * 1.05))
    // The paper is tinted and grainy: greyer than white, and neighbouring pixels differ.
    const pixels = pixmap.getPixels()
    const n = pixmap.getNumberOfComponents()
    const row = Math.floor(height / 2) * pixmap.getStride()
    const greys = Array.from({ length: 200 }, (_, i) => pixels[row + i * n] ?? 0)
    expect(greys.reduce((a, b) => a + b, 0) / greys.length).toBeLessThan(252)
    expect(new Set(greys).size).toBeGreaterThan(5)
  })
})
