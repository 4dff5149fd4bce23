/**
 * Degree sign or ordinal indicator, decided on the crop (`ring.ts`): lines drawn with mupdf's base-14 faces, cropped
 * as the pipeline crops a detected line, with each character placed at the timesteps its glyph covers (what the
 * recognizer would emit), and the ring read "º" as the recognizer reads nearly every ring.
 */
import * as mupdf from "mupdf"
import { describe, expect, it } from "vitest"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import { cropLine, type LineCrop } from "../../src/internal/ocr/crop.js"
import type { CtcChar } from "../../src/internal/ocr/ctc.js"
import { degreeRings, ringGeometry } from "../../src/internal/ocr/ring.js"

const STRIDE = 8

/**
 * Which timesteps of its glyph a character's CTC run covers: all of them, or one spike at the glyph's first, middle
 * or last timestep (CTC may fire anywhere over a glyph).
 */
type Timing = "whole" | "first" | "middle" | "last"

/** A line of `text` in `face` at `size` pixels, cropped like a detected line, and its characters as read. */
const line = (
  face: string,
  text: string,
  size: number,
  timing: Timing = "whole",
  /** Added to each character's advance, in em, by index (negative: the next glyph moves onto it). */
  kerning: Record<number, number> = {}
): { crop: LineCrop; chars: Array<CtcChar> } => {
  const font = new mupdf.Font(face)
  const glyphs = Array.from(text, (c, k) => ({
    c,
    advance: font.advanceGlyph(font.encodeCharacter(c.codePointAt(0)!)) + (kerning[k] ?? 0)
  }))
  const textWidth = glyphs.reduce((sum, g) => sum + g.advance * size, 0)
  const margin = size
  const width = Math.ceil(textWidth + 2 * margin)
  const height = Math.ceil(3 * size)
  const baseline = 2 * size
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, width, height], false)
  pixmap.clear(255)
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap)
  const shown = new mupdf.Text()
  let pen = margin
  for (const g of glyphs) {
    shown.showString(font, [size, 0, 0, -size, pen, baseline], g.c)
    pen += g.advance * size
  }
  device.fillText(shown, mupdf.Matrix.identity, mupdf.ColorSpace.DeviceGray, [0], 1)
  device.close()
  const stride = pixmap.getStride()
  const pixels = pixmap.getPixels()
  const data = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width), y * width)
  // The detector's unclipped box: about 1.45 em across the line, centred on its glyphs.
  const boxHeight = 1.45 * size
  const box = { cx: margin + textWidth / 2, cy: baseline - 0.3 * size, width: textWidth + size, height: boxHeight }
  const crop = cropLine({ width, height, channels: 1, data }, { ...box, angle: 0, score: 1 }, defaultOcrConfig)
  // Crop column of page x: the crop starts at the box's left edge, `crop.scale` page pixels per column.
  const column = (x: number) => (x - (box.cx - box.width / 2)) / crop.scale
  let x = margin
  const chars: Array<CtcChar> = []
  for (const g of glyphs) {
    const next = x + g.advance * size
    const first = Math.floor(column(x) / STRIDE)
    const last = Math.max(first, Math.floor(column(next) / STRIDE) - 1)
    const spike = { whole: -1, first, middle: Math.round((first + last) / 2), last }[timing]
    const run = spike < 0 ? { first, last } : { first: spike, last: spike }
    if (g.c !== " ") chars.push({ text: g.c === "°" ? "º" : g.c, ...run, prob: 0.9 })
    x = next
  }
  return { crop, chars }
}

const text = (chars: ReadonlyArray<CtcChar>) => chars.map((c) => c.text).join("")
const ringAt = (chars: ReadonlyArray<CtcChar>) => chars.findIndex((c) => c.text === "º")

describe("ringGeometry", () => {
  it("measures Helvetica's degree sign 0.06 of the cap height below it, its ordinal indicator at it", () => {
    const degree = line("Helvetica-Bold", "CAE N°: 7306", 30)
    const ordinal = line("Helvetica-Bold", "CAE Nº: 7306", 30)
    const d = ringGeometry(degree.crop, degree.chars, ringAt(degree.chars), STRIDE)
    const o = ringGeometry(ordinal.crop, ordinal.chars, ringAt(ordinal.chars), STRIDE)
    expect(d?.drop).toBeGreaterThan(0.05)
    expect(d?.drop).toBeLessThan(0.08)
    expect(Math.abs(o?.drop ?? 1)).toBeLessThan(0.02)
    // Cap height of 30 px Helvetica: 0.72 em, in page pixels.
    expect(d?.height).toBeGreaterThan(20)
    expect(d?.height).toBeLessThan(23)
  })

  it("finds the capital and the ring wherever CTC fired over them", () => {
    for (const timing of ["first", "middle", "last"] as const) {
      const degree = line("Helvetica-Bold", "CAE N°: 7306", 30, timing)
      const ordinal = line("Times-Roman", "FACTURA Nº 2024", 30, timing)
      expect(ringGeometry(degree.crop, degree.chars, ringAt(degree.chars), STRIDE)?.drop).toBeGreaterThan(0.05)
      expect(ringGeometry(ordinal.crop, ordinal.chars, ringAt(ordinal.chars), STRIDE)?.drop).toBeLessThan(0.02)
    }
  })

  it("measures against the capital, not a taller bracket, bar or slash before it", () => {
    for (const [face, sample] of [
      ["Helvetica", "(N° 12)"],
      ["Helvetica-Bold", "(N° 12)"],
      ["Helvetica", "|N° 12"]
    ] as const) {
      const { crop, chars } = line(face, sample, 30)
      expect(ringGeometry(crop, chars, ringAt(chars), STRIDE)?.drop).toBeGreaterThan(0.05)
    }
    for (const [face, sample] of [
      ["Times-Roman", "|Nº 45"],
      ["Times-Bold", "|Nº 45"],
      ["Courier", "/Nº 45"],
      ["Times-Roman", "(Nº 45)"]
    ] as const) {
      const { crop, chars } = line(face, sample, 30)
      expect(Math.abs(ringGeometry(crop, chars, ringAt(chars), STRIDE)?.drop ?? 1)).toBeLessThan(0.03)
    }
  })

  it("measures nothing where the ring touches the capital (a colon's dot after them is not a ring)", () => {
    // Bold serif type where "º" runs into "N": the one small, high glyph right of them is the colon's upper dot.
    for (const [face, kerning] of [
      ["Helvetica-Bold", -0.08],
      ["Times-Bold", -0.16]
    ] as const) {
      const { crop, chars } = line(face, "CUIT Nº: 23", 30, "whole", { 5: kerning })
      expect(ringGeometry(crop, chars, ringAt(chars), STRIDE)).toBeUndefined()
    }
  })

  it("measures nothing after a digit, a lower-case letter or a capital that is not flat-topped", () => {
    for (const sample of ["25°C", "nº 45", "Oº 45", "Ñº 45"]) {
      const { crop, chars } = line("Helvetica", sample, 30)
      expect(ringGeometry(crop, chars, ringAt(chars), STRIDE)).toBeUndefined()
    }
  })
})

describe("degreeRings", () => {
  it("reads a ring below the cap height as a degree sign, in every Helvetica style", () => {
    for (const face of ["Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique"]) {
      const { crop, chars } = line(face, "CAE N°: 73064284586911", 30)
      expect(text(degreeRings(crop, chars, STRIDE, defaultOcrConfig))).toBe("CAEN°:73064284586911")
    }
  })

  it("leaves a ring at the cap height as read: Times' and Courier's ordinal and degree, Helvetica's ordinal", () => {
    for (const [face, sample] of [
      ["Times-Roman", "FACTURA Nº 2024-640"],
      ["Times-Bold", "FACTURA Nº 2024-640"],
      ["Times-Italic", "Comp. N° 00001475"],
      ["Courier", "SIMPLIFICADA Nº 662777"],
      ["Courier-Bold", "CAE N°: 7306428"],
      ["Helvetica", "CUIT Nº: 23-18140463-9"],
      ["Helvetica-Bold", "Cuenta Nº 0003"]
    ] as const) {
      const { crop, chars } = line(face, sample, 30)
      // Measured, at the cap height: not merely unmeasured.
      expect(ringGeometry(crop, chars, ringAt(chars), STRIDE)?.drop).toBeLessThan(defaultOcrConfig.ringDrop)
      expect(degreeRings(crop, chars, STRIDE, defaultOcrConfig)).toBe(chars)
    }
  })

  it("needs a capital of ringMinHeight page pixels: smaller type is left as read", () => {
    // 18 px Helvetica: a cap height of 13 page pixels, where noise moves an edge by as much as the drop.
    const { crop, chars } = line("Helvetica-Bold", "CAE N°: 7306", 18)
    expect(ringGeometry(crop, chars, ringAt(chars), STRIDE)?.drop).toBeGreaterThan(0.045)
    expect(text(degreeRings(crop, chars, STRIDE, defaultOcrConfig))).toBe("CAENº:7306")
    expect(text(degreeRings(crop, chars, STRIDE, { ...defaultOcrConfig, ringMinHeight: 10 }))).toBe("CAEN°:7306")
  })

  it("with ringDrop 0 changes nothing", () => {
    const { crop, chars } = line("Helvetica-Bold", "CAE N°: 7306", 30)
    expect(degreeRings(crop, chars, STRIDE, { ...defaultOcrConfig, ringDrop: 0 })).toBe(chars)
  })
})
