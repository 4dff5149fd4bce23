/**
 * Small print: which first-pass boxes send their rows to a second detection pass, how those bands are shaped, and
 * how the two passes' boxes are merged. (The whole path on a real model: "small print" in `golden.test.ts`.)
 */
import { describe, expect, it } from "@effect/vitest"
import type { OrientedBox } from "../../src/internal/ocr/box.js"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import type { PageImage } from "../../src/internal/ocr/image.js"
import { mergeRefined, refineScale, smallPrintBands } from "../../src/internal/ocr/pipeline.js"

const box = (cx: number, cy: number, width: number, height: number): OrientedBox => ({
  cx,
  cy,
  width,
  height,
  angle: 0,
  score: 0.9
})

// 1,600 × 2,000 page pixels: detected at 800 × 992, so a box's detection height is about half its page height.
const page: PageImage = { width: 1600, height: 2000, channels: 1, data: new Uint8Array(0) }
const config = { ...defaultOcrConfig, detScale: 0.5, detRefineBelow: 14, detRefineFactor: 1.5 }

describe("smallPrintBands", () => {
  it("takes the rows around pieces of small lines, not ordinary lines nor lone small marks", () => {
    const bands = smallPrintBands(
      [
        box(800, 300, 1000, 40), // an ordinary line: 20 detection pixels high
        box(300, 1900, 80, 24), // a piece of a small line: 12 high, more than twice as long
        box(900, 1000, 30, 20) // a digit or a dash: small but short
      ],
      page,
      config
    )
    expect(bands).toHaveLength(1)
    const [band] = bands
    // Its rows, as many again above and below, grown evenly to whole rows that the detector reads at 0.75 as a
    // multiple of 32 (within a row's rounding).
    expect(band!.y0).toBeLessThanOrEqual(1900 - 36)
    expect(band!.y1).toBeGreaterThanOrEqual(1900 + 36)
    expect(Number.isInteger(band!.y0) && Number.isInteger(band!.y1)).toBe(true)
    const detected = (band!.y1 - band!.y0) * 0.75
    expect(Math.abs(detected - Math.round(detected / 32) * 32)).toBeLessThanOrEqual(0.75)
  })

  it("merges overlapping bands and keeps them on the page", () => {
    const bands = smallPrintBands([box(300, 1985, 80, 24), box(900, 1960, 80, 24), box(300, 10, 80, 20)], page, config)
    expect(bands).toHaveLength(2)
    for (const band of bands) {
      expect(band.y0).toBeGreaterThanOrEqual(0)
      expect(band.y1).toBeLessThanOrEqual(page.height)
    }
    expect(bands[1]!.y1).toBe(page.height)
    expect(bands[1]!.y0).toBeLessThanOrEqual(1960 - 36)
  })

  it("sends no band from a piece turned across the rows", () => {
    expect(smallPrintBands([{ ...box(300, 1000, 80, 24), angle: Math.PI / 2 }], page, config)).toEqual([])
    expect(smallPrintBands([{ ...box(300, 1000, 80, 24), angle: Math.PI }], page, config)).toHaveLength(1)
  })

  it("sizes bands for the scale a wide page is really detected at (the detector's longest side is capped)", () => {
    // 3,200 pixels wide: the first pass runs at 0.5, a band at 1,600 / 3,200 = 0.5 too, not 0.75.
    const wide: PageImage = { width: 3200, height: 2000, channels: 1, data: new Uint8Array(0) }
    const [band] = smallPrintBands([box(300, 1000, 80, 24)], wide, config)
    const detected = (band!.y1 - band!.y0) * 0.5
    expect(Math.abs(detected - Math.round(detected / 32) * 32)).toBeLessThanOrEqual(0.5)
  })

  it("is empty when the option is off", () => {
    expect(smallPrintBands([box(300, 1900, 80, 24)], page, { ...config, detRefineBelow: 0 })).toEqual([])
  })

  it("detects the second time at 1.5 times the first scale, never above the page's own pixels", () => {
    expect(refineScale(config)).toBe(0.75)
    expect(refineScale({ ...config, detScale: 0.6 })).toBeCloseTo(0.9, 10)
    // Above 2/3 the second pass is at 1, the page's own pixels; from a first pass at 1 there is nothing finer to
    // look at, and `detect` skips it.
    expect(refineScale({ ...config, detScale: 0.8 })).toBe(1)
    expect(refineScale({ ...config, detScale: 1 })).toBe(1)
  })
})

describe("mergeRefined", () => {
  const ordinary = box(800, 300, 1000, 40)
  const piece = box(300, 1900, 80, 24)

  it("replaces a piece by the second pass's whole line and keeps the ordinary lines", () => {
    const line = box(700, 1900, 900, 30)
    const merged = mergeRefined([ordinary, piece], [line], page, config)
    expect(merged).toEqual([ordinary, line])
  })

  it("keeps a piece the second pass did not find again, and adds what it found elsewhere in the band", () => {
    const other = box(1300, 1905, 300, 30)
    expect(mergeRefined([ordinary, piece], [other], page, config)).toEqual([ordinary, other, piece])
  })

  it("lets every small box of the line give way, short ones too, and a piece the finer pass split in two", () => {
    const word = box(600, 1900, 40, 24) // "de": small (12 detection pixels) but short, inside the line found again
    const line = box(700, 1900, 900, 30)
    expect(mergeRefined([ordinary, piece, word], [line], page, config)).toEqual([ordinary, line])
    // Two second-pass boxes covering about a third of the piece each: together they replace it.
    const left = box(272, 1900, 32, 24)
    const right = box(328, 1900, 32, 24)
    expect(mergeRefined([ordinary, piece], [left, right], page, config)).toEqual([ordinary, left, right])
  })

  it("never lets the second pass read an ordinary line again, nor one line twice", () => {
    const again = box(600, 300, 500, 40) // half of the ordinary line, found again in the band
    const line = box(700, 1900, 900, 30)
    const twice = box(705, 1901, 890, 30) // the same line from an overlapping band
    const merged = mergeRefined([ordinary, piece], [again, line, twice], page, config)
    expect(merged).toHaveLength(2)
    expect(merged).toContain(ordinary)
    expect(merged.some((b) => b.cy > 1800 && b.width >= 890)).toBe(true)
  })
})
