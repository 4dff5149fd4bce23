import { describe, expect, it } from "vitest"
import type { OrientedBox } from "../../src/internal/ocr/box.js"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import {
  cropLine,
  glyphBoxes,
  inkColumns,
  sliceColumns,
  splitColumns,
  writeClsInput
} from "../../src/internal/ocr/crop.js"
import { type PageImage, sampleRgb } from "../../src/internal/ocr/image.js"
import { detSize, preprocess } from "../../src/internal/ocr/preprocess.js"

/** An RGB image whose red channel is x, green y (both mod 256) and blue 7: every pixel says where it is. */
const coordinates = (width: number, height: number): PageImage => {
  const data = new Uint8Array(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([x % 256, y % 256, 7], (y * width + x) * 3)
  }
  return { width, height, channels: 3, data }
}

/** A white gray image with black rectangles [x0, y0, x1, y1). */
const blocks = (width: number, height: number, rects: ReadonlyArray<readonly number[]>): PageImage => {
  const data = new Uint8Array(width * height).fill(255)
  for (const [x0, y0, x1, y1] of rects) {
    for (let y = y0!; y < y1!; y++) data.fill(0, y * width + x0!, y * width + x1!)
  }
  return { width, height, channels: 1, data }
}

const box = (cx: number, cy: number, width: number, height: number, angle = 0): OrientedBox => ({
  cx,
  cy,
  width,
  height,
  angle,
  score: 1
})

// The tensor holds (v/255 − 0.5)/0.5 in BGR planes.
const unnormalize = (t: number): number => (t + 1) * 127.5

describe("cropLine", () => {
  it("warps an upright box at height 48, width a multiple of 8, channels in BGR order", () => {
    const crop = cropLine(coordinates(200, 100), box(100, 50, 96, 24), defaultOcrConfig)
    expect([crop.height, crop.width, crop.scale]).toEqual([48, 192, 0.5])
    const plane = crop.width * crop.height
    // Crop pixel (i, j) samples the page at (52 + (i + 0.5)/2, 38 + (j + 0.5)/2).
    for (const [i, j] of [
      [0, 0],
      [100, 20],
      [191, 47]
    ] as const) {
      const k = j * crop.width + i
      expect(unnormalize(crop.tensor[2 * plane + k]!)).toBeCloseTo(52 + (i + 0.5) / 2 - 0.5, 3)
      expect(unnormalize(crop.tensor[plane + k]!)).toBeCloseTo(38 + (j + 0.5) / 2 - 0.5, 3)
      expect(unnormalize(crop.tensor[k]!)).toBeCloseTo(7, 3)
    }
  })

  it("samples exactly what sampleRgb gives at each pixel's page position, clamped at the edges, gray or RGB", () => {
    // Pseudo-random pixels, a skewed box hanging over the top, left and right edges.
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed % 256
    }
    const rgb: PageImage = {
      width: 90,
      height: 60,
      channels: 3,
      data: Uint8Array.from({ length: 90 * 60 * 3 }, random)
    }
    const gray: PageImage = { width: 90, height: 60, channels: 1, data: Uint8Array.from({ length: 90 * 60 }, random) }
    for (const image of [rgb, gray]) {
      const b = box(45, 12, 130, 21, 0.3)
      const crop = cropLine(image, b, defaultOcrConfig)
      const plane = crop.width * crop.height
      const want = new Float32Array(3)
      for (let j = 0; j < crop.height; j += 5) {
        for (let i = 0; i < crop.width; i += 7) {
          const u = -b.width / 2 + (i + 0.5) * crop.scale
          const v = -b.height / 2 + (j + 0.5) * crop.scale
          const c = Math.cos(b.angle)
          const s = Math.sin(b.angle)
          sampleRgb(image, b.cx + u * c - v * s, b.cy + u * s + v * c, want)
          const k = j * crop.width + i
          expect(unnormalize(crop.tensor[2 * plane + k]!)).toBeCloseTo(want[0]!, 3)
          expect(unnormalize(crop.tensor[plane + k]!)).toBeCloseTo(want[1]!, 3)
          expect(unnormalize(crop.tensor[k]!)).toBeCloseTo(want[2]!, 3)
          expect(crop.gray[k]!).toBeCloseTo(0.299 * want[0]! + 0.587 * want[1]! + 0.114 * want[2]!, 3)
        }
      }
    }
  })

  it("follows the box's orientation: a box turned 90° reads the page downwards", () => {
    const crop = cropLine(coordinates(200, 200), box(100, 100, 96, 48, Math.PI / 2), defaultOcrConfig)
    const plane = crop.width * crop.height
    // u runs along +y and v along −x: crop column i is page row 52 + i + 0.5, crop row j is page column 124 − j − 0.5.
    const at = (i: number, j: number) => [
      unnormalize(crop.tensor[2 * plane + j * crop.width + i]!),
      unnormalize(crop.tensor[plane + j * crop.width + i]!)
    ]
    expect(at(0, 0)[0]).toBeCloseTo(123, 3)
    expect(at(0, 0)[1]).toBeCloseTo(52, 3)
    expect(at(10, 5)[0]).toBeCloseTo(118, 3)
    expect(at(10, 5)[1]).toBeCloseTo(62, 3)
  })

  it("is the identity on a box of height 48 aligned with the pixels", () => {
    const image = coordinates(64, 64)
    const crop = cropLine(image, box(32, 32, 48, 48), defaultOcrConfig)
    expect(unnormalize(crop.tensor[2 * crop.width * 48 + 5 * crop.width + 9]!)).toBeCloseTo(8 + 9, 3)
  })
})

describe("inkColumns", () => {
  it("finds the inked columns of a dark-on-light line and of a light-on-dark one", () => {
    const image = blocks(100, 48, [
      [10, 12, 30, 36],
      [50, 12, 60, 36]
    ])
    const crop = cropLine(image, box(50, 24, 100, 48), defaultOcrConfig)
    const ink = inkColumns(crop)
    const inked = [...ink.keys()].filter((i) => ink[i] === 1)
    expect(inked[0]).toBe(10)
    expect(inked).toContain(29)
    expect(ink[30]).toBe(0)
    expect(ink[45]).toBe(0)
    expect(inked.filter((i) => i >= 50)).toEqual([50, 51, 52, 53, 54, 55, 56, 57, 58, 59])
    const inverted = { ...image, data: image.data.map((v) => 255 - v) }
    expect(inkColumns(cropLine(inverted, box(50, 24, 100, 48), defaultOcrConfig))).toEqual(ink)
  })

  it("finds nothing on a blank crop", () => {
    expect(inkColumns(cropLine(blocks(64, 48, []), box(32, 24, 64, 48), defaultOcrConfig)).every((v) => v === 0)).toBe(
      true
    )
  })
})

describe("splitColumns", () => {
  it("leaves a short line whole", () => {
    expect(splitColumns(new Uint8Array(96), 128)).toEqual([[0, 96]])
  })

  it("cuts a long line at the widest gap in each window's second half, at multiples of 8, covering it all", () => {
    const ink = new Uint8Array(400).fill(1)
    ink.fill(0, 100, 124) // the widest gap of the first window's second half [64, 128)
    ink.fill(0, 70, 74)
    ink.fill(0, 200, 210)
    const parts = splitColumns(ink, 128)
    expect(parts[0]).toEqual([0, 112])
    for (const [a, b] of parts) {
      expect(a % 8).toBe(0)
      expect(b - a).toBeLessThanOrEqual(128)
    }
    expect(parts.map(([a, b]) => b - a).reduce((x, y) => x + y, 0)).toBe(400)
    expect(parts[parts.length - 1]![1]).toBe(400)
  })

  it("cuts a line with no gap at the window size", () => {
    expect(splitColumns(new Uint8Array(300).fill(1), 128)).toEqual([
      [0, 128],
      [128, 256],
      [256, 300]
    ])
  })
})

describe("sliceColumns", () => {
  it("copies a column range of every channel and row", () => {
    const crop = cropLine(coordinates(200, 100), box(100, 50, 96, 24), defaultOcrConfig)
    const part = sliceColumns(crop, 16, 48)
    expect(part.length).toBe(3 * 48 * 32)
    expect(part[2 * 48 * 32 + 3 * 32 + 5]).toBe(crop.tensor[2 * 48 * crop.width + 3 * crop.width + 21])
  })
})

describe("writeClsInput", () => {
  it("fills height 48 at the box's aspect ratio and zero-pads the rest of the 192 columns", () => {
    const batch = new Float32Array(2 * 3 * 48 * 192).fill(5)
    writeClsInput(coordinates(200, 100), box(100, 50, 48, 24), defaultOcrConfig, batch, 1)
    const base = 3 * 48 * 192
    expect(batch[0]).toBe(5)
    expect(unnormalize(batch[base + 2 * 48 * 192 + 95]!)).toBeCloseTo(76 + 95.5 / 2 - 0.5, 3)
    expect(batch[base + 96]).toBe(0)
    expect(batch[base + 3 * 48 * 192 - 1]).toBe(0)
  })

  it("squeezes a line longer than 4:1 into the 192 columns", () => {
    const batch = new Float32Array(3 * 48 * 192)
    writeClsInput(coordinates(300, 100), box(120, 50, 200, 24), defaultOcrConfig, batch, 0)
    expect(unnormalize(batch[2 * 48 * 192 + 191]!)).toBeCloseTo(20 + (191.5 * 200) / 192 - 0.5, 3)
  })
})

describe("preprocess", () => {
  it("halves a 200 DPI page to multiples of 32 and caps the longest side", () => {
    expect(detSize(1654, 2339, defaultOcrConfig)).toEqual({ width: 832, height: 1184 })
    expect(detSize(5000, 1000, defaultOcrConfig)).toEqual({ width: 1600, height: 320 })
    expect(detSize(20, 10, defaultOcrConfig)).toEqual({ width: 32, height: 32 })
  })

  it("normalises with ImageNet mean and std in BGR order and reports the scale back to the page", () => {
    const data = new Uint8Array(64 * 64 * 4)
    for (let p = 0; p < 64 * 64; p++) data.set([255, 0, 0, 255], p * 4)
    const input = preprocess({ width: 64, height: 64, channels: 4, data }, defaultOcrConfig)
    expect([input.width, input.height, input.scaleX, input.scaleY]).toEqual([32, 32, 2, 2])
    const plane = 32 * 32
    expect(input.tensor[0]).toBeCloseTo((0 - 0.485) / 0.229, 5)
    expect(input.tensor[plane]).toBeCloseTo((0 - 0.456) / 0.224, 5)
    expect(input.tensor[2 * plane]).toBeCloseTo((1 - 0.406) / 0.225, 5)
  })

  it("averages 2×2 blocks when halving (bilinear at the block centre)", () => {
    const data = new Uint8Array(64 * 64)
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) data[y * 64 + x] = x % 2 === 0 ? 0 : 200
    const input = preprocess({ width: 64, height: 64, channels: 1, data }, defaultOcrConfig)
    expect(input.tensor[5]).toBeCloseTo((100 / 255 - 0.485) / 0.229, 4)
  })
})

describe("glyphBoxes", () => {
  it("widens a glyph's box to twice its height, then also heightens it, around the same centre and axis", () => {
    const glyph = box(100, 50, 20, 24, 0.02)
    expect(glyphBoxes(glyph)).toEqual([
      { ...glyph, width: 48, height: 24 },
      { ...glyph, width: 2 * 24 * 1.3, height: 24 * 1.3 }
    ])
  })

  it("never narrows a box longer than the crops", () => {
    const two = box(100, 50, 60, 24)
    const [asHigh, higher] = glyphBoxes(two)
    expect(asHigh!.width).toBe(60)
    expect(higher!.width).toBeCloseTo(2 * 24 * 1.3)
  })
})
