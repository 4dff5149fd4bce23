import { assert, describe, it } from "@effect/vitest"
import type { Document } from "@legible/core"
import { layout, slopeOf } from "../../../src/internal/local/layout.js"
import * as Local from "../../../src/Local.js"
import { document, ITEMS, invoicePage } from "../../support/documents.js"

/** `page` as a scan turned by `slope` (dy/dx) about its middle: each word's box moved by its drift, as OCR boxes it. */
const tilted = (page: Document.ReadPage, slope: number): Document.ReadPage => ({
  ...page,
  source: "ocr",
  lines: page.lines.map((line) => ({
    words: line.words.map((w) => {
      const drift = slope * ((w.x0 + w.x1) / 2 - page.width / 2)
      return { ...w, y0: w.y0 + drift, y1: w.y1 + drift }
    })
  }))
})

describe("layout of a scan turned askew", () => {
  // 1.15°: across the invoice's table (40 to 445 pt) a line drifts 8 pt, half its 16 pt row pitch.
  const slope = -0.02

  it("reads the page's slope from its lines, and none from a text layer or an upright scan", () => {
    assert.closeTo(slopeOf(tilted(invoicePage(), slope)), slope, 1e-9)
    assert.closeTo(slopeOf(tilted(invoicePage(), 0.01)), 0.01, 1e-9)
    assert.strictEqual(slopeOf(tilted(invoicePage(), 0)), 0)
    assert.strictEqual(slopeOf({ ...tilted(invoicePage(), slope), source: "text" }), 0)
  })

  it("bands the rows as on the upright page", () => {
    const rowsOf = (page: Document.ReadPage) => layout(document([page])).rows.map((r) => r.text)
    assert.deepStrictEqual(rowsOf(tilted(invoicePage(), slope)), rowsOf(invoicePage()))
  })

  it("keeps each line item's cells together (`Papel A4 80 g | 10 | 45,00`)", () => {
    const items = (page: Document.ReadPage) => Local.extractFields([ITEMS], document([page])).items
    assert.deepStrictEqual(items(tilted(invoicePage(), slope)), items(invoicePage()))
  })
})

describe("rows of words the reader put on one line", () => {
  const word = (id: string, text: string, x0: number, y0: number, y1: number): Document.ReadWord => ({
    id,
    word: text,
    x0,
    x1: x0 + 6 * text.length,
    y0,
    y1,
    page: 1,
    confidence: 0.9
  })
  const scan = (lines: ReadonlyArray<ReadonlyArray<Document.ReadWord>>): Document.ReadPage => ({
    page: 1,
    width: 600,
    height: 800,
    source: "ocr",
    lines: lines.map((words) => ({ words })),
    markdown: ""
  })
  const rowsOf = (page: Document.ReadPage) => layout(document([page])).rows.map((r) => r.text)

  it("keeps a word with its line where another column's band misses its centre by a hair", () => {
    // A date in the right column opens the band 86.8–98.4; `VAT`'s centre is 98.45, its line-mates' 98.3–98.4 (the
    // line too short to vote on a slope).
    const page = scan([
      [word("d", "2023-04-11", 331, 86.8, 98.4)],
      [word("v", "VAT", 51, 91.8, 105.1), word("n", "No.:", 66, 91.8, 105.0), word("c", "237342-M", 84, 91.6, 105)]
    ])
    assert.deepStrictEqual(rowsOf(page), ["VAT No.: 237342-M  2023-04-11"])
    // A word of another line at that height still starts its own row.
    const apart = scan([
      [word("d", "2023-04-11", 331, 86.8, 98.4)],
      [word("n", "No.:", 71, 91.8, 105.0)],
      [word("v", "VAT", 51, 91.8, 105.1)]
    ])
    assert.deepStrictEqual(rowsOf(apart), ["No.:  2023-04-11", "VAT"])
  })
})
