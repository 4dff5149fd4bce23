import { describe, expect, it } from "vitest"
import { boxRect, flipBox, normalizeAngle, type OrientedBox, scaleBox } from "../../src/internal/ocr/box.js"
import { applyFlips, clsFlips } from "../../src/internal/ocr/classify.js"

const box: OrientedBox = { cx: 100, cy: 50, width: 80, height: 20, angle: 0.1, score: 0.9 }

describe("clsFlips", () => {
  it("turns a line only when 180° wins with at least the threshold", () => {
    const probs = Float32Array.from([0.99, 0.01, 0.05, 0.95, 0.15, 0.85, 0.5, 0.5])
    expect(clsFlips(probs, 4, 0.9)).toEqual([false, true, false, false])
  })
})

describe("applyFlips", () => {
  it("turns the flipped boxes round about their centre and leaves the others", () => {
    const [kept, turned] = applyFlips([box, box], [false, true])
    expect(kept).toBe(box)
    expect(turned!.angle).toBeCloseTo(0.1 - Math.PI, 10)
    const a = boxRect(turned!)
    const b = boxRect(box)
    for (const k of ["x0", "y0", "x1", "y1"] as const) expect(a[k]).toBeCloseTo(b[k], 9)
    expect(flipBox(flipBox(box)).angle).toBeCloseTo(box.angle, 10)
  })
})

describe("box helpers", () => {
  it("brings angles into (−π, π]", () => {
    expect(normalizeAngle(3 * Math.PI)).toBeCloseTo(Math.PI, 10)
    expect(normalizeAngle(-Math.PI)).toBeCloseTo(Math.PI, 10)
    expect(normalizeAngle(-0.5)).toBe(-0.5)
  })

  it("scales a box to another pixel grid, keeping its area and the direction of its long side", () => {
    const scaled = scaleBox(box, 2, 2)
    expect(scaled).toMatchObject({ cx: 200, cy: 100, score: 0.9 })
    expect(scaled.width).toBeCloseTo(160, 10)
    expect(scaled.height).toBeCloseTo(40, 10)
    expect(scaled.angle).toBeCloseTo(0.1, 10)
    const uneven = scaleBox({ ...box, angle: 0 }, 2, 3)
    expect([uneven.width, uneven.height, uneven.angle]).toEqual([160, 60, 0])
  })
})
