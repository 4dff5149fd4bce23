import { describe, expect, it } from "vitest"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import { dbPostprocess, mergeOverlapping, type ProbabilityMap } from "../../src/internal/ocr/dbPostprocess.js"

const deg = Math.PI / 180

/** A probability map with rotated rectangles drawn at probability `p` (pixel centres inside count). */
const draw = (
  width: number,
  height: number,
  rects: ReadonlyArray<{ cx: number; cy: number; w: number; h: number; angle: number; p?: number }>
): ProbabilityMap => {
  const data = new Float32Array(width * height)
  for (const r of rects) {
    const c = Math.cos(r.angle)
    const s = Math.sin(r.angle)
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const dx = x + 0.5 - r.cx
        const dy = y + 0.5 - r.cy
        const u = dx * c + dy * s
        const v = -dx * s + dy * c
        if (Math.abs(u) <= r.w / 2 && Math.abs(v) <= r.h / 2) data[y * width + x] = r.p ?? 0.9
      }
    }
  }
  return { data, width, height }
}

// DB's unclip: each side grows by area · 1.5 / perimeter.
const unclip = (w: number, h: number): number => (w * h * 1.5) / (2 * (w + h))

describe("dbPostprocess", () => {
  it("gives the oriented box and angle of a rotated rectangle, unclipped", () => {
    const map = draw(320, 240, [{ cx: 160, cy: 120, w: 200, h: 20, angle: 5 * deg }])
    const boxes = dbPostprocess(map, 1, 1, defaultOcrConfig)
    expect(boxes).toHaveLength(1)
    const box = boxes[0]!
    const d = unclip(200, 20)
    expect(box.angle / deg).toBeCloseTo(5, 1)
    expect(box.cx).toBeCloseTo(160, 0)
    expect(box.cy).toBeCloseTo(120, 0)
    // Within 3 px: the rasterised edges of a rotated rectangle are jagged by about a pixel on each side.
    expect(Math.abs(box.width - (200 + 2 * d))).toBeLessThan(3)
    expect(Math.abs(box.height - (20 + 2 * d))).toBeLessThan(3)
    expect(box.score).toBeCloseTo(0.9, 5)
  })

  it("measures a negative (counter-clockwise) skew too", () => {
    const [box] = dbPostprocess(
      draw(320, 240, [{ cx: 150, cy: 100, w: 240, h: 16, angle: -1.5 * deg }]),
      1,
      1,
      defaultOcrConfig
    )
    expect(box!.angle / deg).toBeCloseTo(-1.5, 1)
  })

  it("maps boxes back to page pixels with the detection scale", () => {
    const [box] = dbPostprocess(draw(320, 240, [{ cx: 160, cy: 120, w: 200, h: 20, angle: 0 }]), 2, 2, defaultOcrConfig)
    const d = unclip(200, 20)
    expect(box!.cx).toBeCloseTo(320, 0)
    expect(box!.cy).toBeCloseTo(240, 0)
    expect(Math.abs(box!.width - 2 * (200 + 2 * d))).toBeLessThan(3)
    expect(Math.abs(box!.height - 2 * (20 + 2 * d))).toBeLessThan(3)
  })

  it("keeps separate components apart, largest first, and joins diagonal neighbours (8-connectivity)", () => {
    const map = draw(320, 240, [
      { cx: 100, cy: 50, w: 120, h: 14, angle: 0 },
      { cx: 150, cy: 150, w: 200, h: 14, angle: 0 }
    ])
    expect(dbPostprocess(map, 1, 1, defaultOcrConfig).map((b) => Math.round(b.cy))).toEqual([150, 50])
    const diagonal = new Float32Array(40 * 40)
    for (let k = 0; k < 20; k++) {
      for (let t = 0; t < 4; t++) diagonal[(10 + k) * 40 + 10 + k + t] = 0.9
    }
    expect(dbPostprocess({ data: diagonal, width: 40, height: 40 }, 1, 1, defaultOcrConfig)).toHaveLength(1)
  })

  it("drops components under the box score, tiny specks, and nothing above the threshold", () => {
    const map = draw(320, 240, [
      { cx: 100, cy: 50, w: 120, h: 14, angle: 0, p: 0.5 },
      { cx: 200, cy: 200, w: 2, h: 2, angle: 0 }
    ])
    expect(dbPostprocess(map, 1, 1, defaultOcrConfig)).toEqual([])
    expect(dbPostprocess({ data: new Float32Array(100), width: 10, height: 10 }, 1, 1, defaultOcrConfig)).toEqual([])
  })

  it("keeps a lone roundish blob upright and reads an elongated vertical one as vertical text", () => {
    const [square] = dbPostprocess(
      draw(100, 100, [{ cx: 50, cy: 50, w: 16, h: 14, angle: 30 * deg }]),
      1,
      1,
      defaultOcrConfig
    )
    expect(square!.angle).toBe(0)
    const [vertical] = dbPostprocess(
      draw(100, 300, [{ cx: 50, cy: 150, w: 200, h: 16, angle: 90 * deg }]),
      1,
      1,
      defaultOcrConfig
    )
    expect(Math.abs(vertical!.angle / deg)).toBeCloseTo(90, 0)
    expect(vertical!.width).toBeGreaterThan(vertical!.height)
  })

  it("gives short components the page's axis, not their own noisy angle", () => {
    const skewedPage = draw(400, 300, [
      { cx: 150, cy: 60, w: 240, h: 14, angle: 2 * deg },
      { cx: 150, cy: 120, w: 200, h: 14, angle: 2 * deg },
      { cx: 320, cy: 200, w: 30, h: 16, angle: 25 * deg }
    ])
    const short = dbPostprocess(skewedPage, 1, 1, defaultOcrConfig).find((b) => b.cy > 180)!
    expect(short.angle / deg).toBeCloseTo(2, 0)
    // On a page turned by 90° a short word is vertical too, so that it is read along its text.
    const turnedPage = draw(300, 400, [
      { cx: 60, cy: 200, w: 240, h: 14, angle: 90 * deg },
      { cx: 120, cy: 200, w: 240, h: 14, angle: 90 * deg },
      { cx: 200, cy: 100, w: 40, h: 16, angle: 90 * deg }
    ])
    const word = dbPostprocess(turnedPage, 1, 1, defaultOcrConfig).find((b) => b.cx > 180)!
    expect(Math.abs(word.angle / deg)).toBeCloseTo(90, 0)
    expect(word.width).toBeGreaterThan(word.height)
  })

  it("keeps only the largest boxes when there are too many", () => {
    const rects = Array.from({ length: 5 }, (_, k) => ({ cx: 60, cy: 20 + k * 40, w: 20 + k * 10, h: 12, angle: 0 }))
    const boxes = dbPostprocess(draw(120, 220, rects), 1, 1, { ...defaultOcrConfig, detMaxBoxes: 2 })
    expect(boxes.map((b) => Math.round(b.cy))).toEqual([180, 140])
  })

  // A monospace receipt line "3 CAFÉ MOLIDO": DB finds the quantity as a component of its own one narrow gap before
  // the line, and the line's unclip margin (≈ 0.75 of its kernel height) reaches over most of it.
  const receipt = (gap: number) =>
    draw(320, 120, [
      { cx: 160, cy: 40, w: 200, h: 10, angle: 0 },
      { cx: 60 - gap - 4, cy: 40, w: 8, h: 10, angle: 0 }
    ])

  it("reads a short box inside a line's unclip margin once: merged into the line, which grows over it", () => {
    const unmerged = dbPostprocess(receipt(2), 1, 1, { ...defaultOcrConfig, detMergeCover: 0 })
    // The cause: two boxes over the same glyph, so the "3" was read alone and again at the edge of the line.
    expect(unmerged).toHaveLength(2)
    const [line, digit] = unmerged as [(typeof unmerged)[number], (typeof unmerged)[number]]
    expect(line.cx - line.width / 2).toBeLessThan(digit.cx)
    const boxes = dbPostprocess(receipt(2), 1, 1, defaultOcrConfig)
    expect(boxes).toHaveLength(1)
    const merged = boxes[0]!
    // The merged box reaches the digit box's far edge, so the digit is read whole, and keeps the line's right end.
    expect(merged.cx - merged.width / 2).toBeCloseTo(digit.cx - digit.width / 2, 1)
    expect(merged.cx + merged.width / 2).toBeCloseTo(line.cx + line.width / 2, 1)
    expect(merged.height).toBeCloseTo(line.height, 5)
    expect(merged.cy).toBeCloseTo(line.cy, 5)
  })

  it("keeps a word that only touches a line's margin, and short boxes on the rows above and below", () => {
    // Two cells away: most of the word lies outside the line's box.
    expect(dbPostprocess(receipt(12), 1, 1, defaultOcrConfig)).toHaveLength(2)
    // Rows 20 px apart: their unclipped boxes overlap, but the word sits off the line's axis.
    const rows = draw(320, 120, [
      { cx: 160, cy: 40, w: 200, h: 10, angle: 0 },
      { cx: 100, cy: 60, w: 30, h: 10, angle: 0 }
    ])
    expect(dbPostprocess(rows, 1, 1, defaultOcrConfig)).toHaveLength(2)
  })

  it("merges a covered box into the larger one along the larger's axis, keeping the higher score", () => {
    const line = { cx: 100, cy: 50, width: 100, height: 20, angle: 2 * deg, score: 0.7 }
    const inside = { cx: 145, cy: 51.5, width: 20, height: 16, angle: 0, score: 0.9 }
    const [merged, ...rest] = mergeOverlapping([inside, line], 0.5)
    expect(rest).toEqual([])
    expect(merged!.angle).toBe(line.angle)
    expect(merged!.score).toBe(0.9)
    // The inside box pokes 5 px out of the right end: the merged box ends there and starts where the line did.
    const u = (x: number, y: number) => (x - line.cx) * Math.cos(line.angle) + (y - line.cy) * Math.sin(line.angle)
    const left = u(merged!.cx, merged!.cy) - merged!.width / 2
    expect(left).toBeCloseTo(-50, 5)
    expect(merged!.width).toBeGreaterThan(104)
    expect(merged!.width).toBeLessThan(108)
    // Below half covered, or across the text at another angle: kept apart.
    expect(mergeOverlapping([{ ...inside, cx: 158 }, line], 0.5)).toHaveLength(2)
    expect(mergeOverlapping([{ ...inside, angle: 60 * deg }, line], 0.5)).toHaveLength(2)
  })
})
