/** The pure parts of reading a text-layer page's images: which regions, their cut, where their lines go. */
import { describe, expect, it } from "vitest"
import { regionImage, textRegions, withImageLines } from "../src/internal/imageText.js"

const box = (x0: number, y0: number, x1: number, y1: number) => ({ x0, y0, x1, y1 })
const line = (text: string, y0: number, y1: number) => ({
  words: [{ word: text, x0: 10, y0, x1: 60, y1, confidence: 1, letters: 1 }]
})

describe("imageText", () => {
  it("regions: overlapping images made one; too small, too large or past the sixth largest left; top to bottom", () => {
    const regions = textRegions(
      [
        box(300, 20, 400, 60),
        box(380, 30, 500, 70), // overlaps the first: one logo in two pieces
        box(40, 40, 50, 45), // 10 × 5 points: a bullet
        box(0, 0, 595, 500), // over half of the page: a background
        box(40, 700, 200, 760),
        box(-20, 100, 100, 130) // past the page's edge: clipped
      ],
      595,
      842
    )
    expect(regions).toEqual([box(300, 20, 500, 70), box(0, 100, 100, 130), box(40, 700, 200, 760)])
    const many = Array.from({ length: 9 }, (_, k) => box(10, k * 50, 40 + k * 10, k * 50 + 20))
    expect(textRegions(many, 595, 842).map((r) => r.x1)).toEqual([70, 80, 90, 100, 110, 120])
  })

  it("a region's cut: white around it, the text layer's words inside it painted white", () => {
    // A 20 × 10 pixel render, 1 point a pixel, all ink (0).
    const grey = { width: 20, height: 10, pixels: new Uint8Array(200), scale: 1 }
    const cut = regionImage(grey, box(4, 2, 14, 8), [box(10, 4, 12, 6)])!
    expect([cut.x, cut.y, cut.image.width, cut.image.height]).toEqual([4 - 8, 2 - 8, 10 + 16, 6 + 16])
    const at = (x: number, y: number) => cut.image.data[(y - cut.y) * cut.image.width + (x - cut.x)]
    expect(at(4, 2)).toBe(0)
    expect(at(13, 7)).toBe(0)
    expect(at(3, 2)).toBe(255)
    expect(at(11, 5)).toBe(255)
  })

  it("an image's line goes before the first text line under its middle", () => {
    const text = [line("Name", 100, 110), line("Street", 120, 130), line("Total", 300, 310)]
    const merged = withImageLines(text, [line("LOGO", 40, 80), line("STAMP", 200, 240)])
    expect(merged.map((l) => l.words[0]?.word)).toEqual(["LOGO", "Name", "Street", "STAMP", "Total"])
  })
})
