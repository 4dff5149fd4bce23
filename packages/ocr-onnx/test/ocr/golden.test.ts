/**
 * Golden OCR tests with the real PP-OCRv4 models on pages rendered by mupdf (test/support/synthetic.ts): the
 * synthetic Spanish invoice upright, skewed by 1° with noise and JPEG, upside down and turned a quarter, a page of
 * running text whose long lines are recognised in pieces, and a line of small print. Text is compared ignoring
 * accents, €, º and ª, which the Chinese dictionary cannot write; word boxes are compared with the text layer's
 * boxes (IoU).
 */
import { describe, expect, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { makeEngine, type OcrEngine } from "../../src/internal/ocr/engine.js"
import { type OcrPage, recognizePage } from "../../src/internal/ocr/pipeline.js"
import { conditions, invoice, raster, type SyntheticPage, skewed, truthOf, truthText } from "../support/synthetic.js"
import {
  type Box,
  bestIous,
  cer,
  comparable,
  decodeRaster,
  pageBoxes,
  pageText,
  quadBox,
  rotate90,
  rotate180
} from "./support.js"

class Engine extends Context.Service<Engine, OcrEngine>()("test/ocr/Engine") {}

/** The truth's words in pixels of a render at `scale` points per pixel, leaving out words the model cannot write. */
const truthBoxes = (page: SyntheticPage, scale: number): Array<Box> =>
  truthOf(page)
    .lines.flat()
    .filter((w) => comparable(w.word) !== "")
    .map((w) => ({ text: w.word, x0: w.x0 / scale, y0: w.y0 / scale, x1: w.x1 / scale, y1: w.y1 / scale }))

/** The character error rate of the page's text and the share of truth words matched by a box with IoU ≥ 0.5. */
const score = (result: OcrPage, page: SyntheticPage, boxes: ReadonlyArray<Box>) => {
  const ious = bestIous(boxes, pageBoxes(result))
  return {
    cer: cer(comparable(pageText(result)), comparable(truthText(truthOf(page)))),
    matched: ious.filter((v) => v >= 0.5).length / ious.length
  }
}

layer(Layer.effect(Engine, makeEngine()), { timeout: "60 seconds" })("PP-OCRv4 on rendered pages", (it) => {
  describe("the synthetic invoice", () => {
    const png = raster(invoice, { format: "png" })
    const image = decodeRaster(png.bytes)
    const boxes = truthBoxes(invoice, png.scale)

    it.effect("upright at 200 DPI: text in reading order and word boxes", () =>
      Effect.gen(function* () {
        const result = yield* recognizePage(yield* Engine, image)
        const { cer, matched } = score(result, invoice, boxes)
        expect(cer).toBeLessThanOrEqual(0.03)
        expect(matched).toBeGreaterThanOrEqual(0.9)
        expect(result.rotation).toBe(0)
        expect(Math.abs(result.skewDeg)).toBeLessThan(0.3)
        // Table rows come out as rows, and the per-word confidences are probabilities; the letters' at least as sure.
        expect(pageText(result)).toContain("Tornillos de acero inoxidable 100 0,15")
        for (const w of result.lines.flatMap((l) => l.words)) {
          expect(w.confidence).toBeGreaterThan(0)
          expect(w.letters).toBeGreaterThanOrEqual(w.confidence)
          expect(w.letters).toBeLessThanOrEqual(1.000001)
        }
      })
    )

    it.effect("skewed by 1° with noise, as JPEG: oriented crops keep the text, the order is deskewed", () =>
      Effect.gen(function* () {
        const tilted = skewed(invoice, { degrees: 1, format: "jpeg", noise: 20 })
        const result = yield* recognizePage(yield* Engine, decodeRaster(tilted.bytes))
        const truth = tilted.lines.flat().filter((w) => comparable(w.word) !== "")
        const { cer, matched } = score(
          result,
          invoice,
          truth.map((w) => quadBox(w.word, w.quad))
        )
        expect(cer).toBeLessThanOrEqual(0.05)
        expect(matched).toBeGreaterThanOrEqual(0.9)
        expect(result.skewDeg).toBeGreaterThan(0.7)
        expect(result.skewDeg).toBeLessThan(1.3)
      })
    )

    it.effect("upside down: the classifier turns the lines and the order follows the text", () =>
      Effect.gen(function* () {
        const result = yield* recognizePage(yield* Engine, rotate180(image))
        const turned = boxes.map((b) => ({
          text: b.text,
          x0: image.width - b.x1,
          y0: image.height - b.y1,
          x1: image.width - b.x0,
          y1: image.height - b.y0
        }))
        const { cer, matched } = score(result, invoice, turned)
        expect(result.rotation).toBe(180)
        expect(cer).toBeLessThanOrEqual(0.03)
        expect(matched).toBeGreaterThanOrEqual(0.9)
      })
    )

    it.effect("turned a quarter clockwise: vertical lines, short words included, read in order", () =>
      Effect.gen(function* () {
        const result = yield* recognizePage(yield* Engine, rotate90(image))
        const turned = boxes.map((b) => ({
          text: b.text,
          x0: image.height - b.y1,
          y0: b.x0,
          x1: image.height - b.y0,
          y1: b.x1
        }))
        const { cer, matched } = score(result, invoice, turned)
        expect(result.rotation).toBe(90)
        expect(cer).toBeLessThanOrEqual(0.03)
        expect(matched).toBeGreaterThanOrEqual(0.9)
      })
    )
  })

  it.effect("running text, its lines recognised in windows of 320 columns cut at gaps", () =>
    Effect.gen(function* () {
      const png = raster(conditions, { format: "png" })
      // Lines are 48 px high and up to ~1700 px long here: every one is cut into pieces.
      const result = yield* recognizePage(yield* Engine, decodeRaster(png.bytes), { recMaxWidth: 320 })
      const { cer, matched } = score(result, conditions, truthBoxes(conditions, png.scale))
      expect(cer).toBeLessThanOrEqual(0.02)
      expect(matched).toBeGreaterThanOrEqual(0.9)
      expect(comparable(pageText(result))).toContain(
        "5. Para cualquier controversia, las partes se someten a los tribunales de Madrid."
      )
    })
  )

  describe("degree sign and ordinal indicator", () => {
    // AFIP's "CAE N°" (a degree sign, 10 pt bold) and a "Nº" (Helvetica's barred ordinal) on one page at 200 DPI.
    const page: SyntheticPage = {
      width: 595,
      height: 200,
      runs: [
        { text: "CAE N°: 73064284586911", x: 40, y: 60, size: 10, bold: true },
        { text: "CUIT Nº: 23-18140463-9", x: 40, y: 120, size: 10 }
      ]
    }
    const image = decodeRaster(raster(page, { format: "png" }).bytes)

    it.effect("reads the degree sign that sits below the cap height as °, the ordinal as º", () =>
      Effect.gen(function* () {
        const engine = yield* Engine
        const [cae, cuit] = pageText(yield* recognizePage(engine, image)).split("\n")
        expect(cae).toBe("CAE N°: 73064284586911")
        expect(cuit).toBe("CUIT Nº: 23-18140463-9")
        // What the recognizer alone reads: the ordinal, for both (this fails the day a head reads the ring unaided).
        const [asRead] = pageText(yield* recognizePage(engine, image, { ringDrop: 0 })).split("\n")
        expect(asRead).toBe("CAE Nº: 73064284586911")
      })
    )
  })

  describe("small print", () => {
    // A 5.5 pt legal footer under a 10 pt line: at the half-scale detection input the detector finds only a piece
    // of it, and the rows around that piece are detected again at 1.5 times the scale.
    const footer = "Esta Administración Federal no se responsabiliza por los datos ingresados"
    const page: SyntheticPage = {
      width: 595,
      height: 300,
      runs: [
        { text: "Factura de servicios profesionales", x: 40, y: 60, size: 10 },
        { text: footer, x: 40, y: 200, size: 5.5 }
      ]
    }
    const image = decodeRaster(raster(page, { format: "png" }).bytes)
    const footerOf = (result: OcrPage) => pageText(result).split("\n")[1] ?? ""

    it.effect("reads a line of 5.5 pt type whole, which the first detection pass finds only a piece of", () =>
      Effect.gen(function* () {
        const engine = yield* Engine
        const refined = yield* recognizePage(engine, image)
        expect(refined.lines).toHaveLength(2)
        expect(cer(footerOf(refined), footer)).toBeLessThanOrEqual(0.05)
        const single = yield* recognizePage(engine, image, { detRefineBelow: 0 })
        expect(cer(footerOf(single), footer)).toBeGreaterThan(0.5)
      })
    )
  })
})
