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
