/**
 * The int8 recognizer (src/internal/ocr/quantize.ts) on the real PP-OCRv4 model and the shipped calibration
 * (`models/rec_int8.ranges.json`): onnxruntime fuses every selected convolution into a QLinearConv, the quantized
 * engine reads a rendered Spanish line as the float one does, and ranges calibrated on another model are refused.
 */
import * as Fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { editDistance } from "../../bench/metrics.js"
import { cpuHasInt8DotProduct } from "../../src/internal/ocr/cpu.js"
import { latinModels, makeEngine, modelBytes } from "../../src/internal/ocr/engine.js"
import { foldGraph } from "../../src/internal/ocr/fold.js"
import { readGraph } from "../../src/internal/ocr/onnxGraph.js"
import { recognizePage } from "../../src/internal/ocr/pipeline.js"
import { decodeRanges, defaultQuantizeOptions, quantizeModel, uint8Params } from "../../src/internal/ocr/quantize.js"
import { raster } from "../support/synthetic.js"
import { decodeRaster, optimizedGraph, pageText } from "./support.js"

const models = latinModels()
const ranges = decodeRanges(Fs.readFileSync(models.recognitionRanges!, "utf8"))

describe("int8 recognition", () => {
  it("uint8 parameters cover the range and zero exactly", () => {
    expect(uint8Params({ min: -1, max: 3 })).toEqual({ scale: 4 / 255, zeroPoint: 64 })
    // A range that does not reach zero is widened to it: zero must be exact (padding, ReLU-like outputs).
    expect(uint8Params({ min: 0.5, max: 2 })).toEqual({ scale: 2 / 255, zeroPoint: 0 })
    expect(uint8Params({ min: -2, max: -1 })).toEqual({ scale: 2 / 255, zeroPoint: 255 })
  })

  it("the shipped ranges name every convolution the default options quantize, each range around zero", () => {
    const folded = foldGraph(readGraph(new Uint8Array(Fs.readFileSync(models.recognition))))
    const selected = folded.nodes.filter(
      (n) => n.opType === "Conv" && defaultQuantizeOptions.select(folded.weights.get(n.inputs[1]!)!.dims)
    )
    expect(selected).toHaveLength(12)
    for (const conv of selected) {
      for (const tensor of [conv.inputs[0]!, conv.outputs[0]!]) {
        const range = ranges.tensors[tensor]
        expect(range, tensor).toBeDefined()
        expect(range!.min).toBeLessThanOrEqual(0)
        expect(range!.max).toBeGreaterThan(0)
      }
    }
  })

  it("onnxruntime fuses each selected convolution into a QLinearConv", async () => {
    const bytes = await Effect.runPromise(
      modelBytes(models.recognition, { head: models.recognitionHead, fold: true, int8: models.recognitionRanges })
    )
    const graph = await optimizedGraph(bytes)
    expect(graph.nodes.filter((n) => n.opType === "QLinearConv")).toHaveLength(12)
    // Every weight's DequantizeLinear went into a QLinearConv (none is left to run a float Conv on dequantized
    // weights); those left dequantize activations, a QLinearConv's output for the float operators after it.
    const dequantized = graph.nodes.filter((n) => n.opType === "DequantizeLinear")
    expect(dequantized.length).toBeGreaterThan(0)
    for (const dq of dequantized) expect(graph.weights.has(dq.inputs[0]!)).toBe(false)
  })

  it("refuses ranges calibrated on another model", () => {
    const model = new Uint8Array(Fs.readFileSync(models.recognition))
    const other = model.slice()
    other[other.length - 1] = other[other.length - 1]! ^ 1
    expect(() => quantizeModel(model, other, ranges)).toThrow(/calibrated on ch_PP-OCRv4_rec_infer.onnx/)
  })

  it.effect("a dropped-in recognizer without ranges cannot run in int8", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const exit = yield* Effect.exit(
          makeEngine({
            models: { recognition: models.recognition, dictionary: models.dictionary },
            recognizerPrecision: "int8"
          })
        )
        expect(Exit.isFailure(exit)).toBe(true)
        expect(JSON.stringify(exit)).toMatch(/int8 recognition needs calibrated ranges/)
      })
    )
  )

  it.effect("auto (the default) runs int8 only with ranges and a CPU with an 8-bit dot product; float32 is float", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const dropped = yield* makeEngine({
          models: { recognition: models.recognition, dictionary: models.dictionary }
        })
        expect(dropped.precision).toBe("float32")
        expect((yield* makeEngine()).precision).toBe(cpuHasInt8DotProduct() ? "int8" : "float32")
        expect((yield* makeEngine({ recognizerPrecision: "float32" })).precision).toBe("float32")
        expect((yield* makeEngine({ recognizerPrecision: "int8" })).precision).toBe("int8")
      })
    )
  )

  it.effect(
    "the int8 recognizer reads a rendered Spanish line with its accents, within one edit of the float one",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const text = "¿Cuánto pagó la señora Núñez? ¡Sólo 1.234,56 €!"
          const png = raster(
            { width: 420, height: 60, runs: [{ text, x: 20, y: 36, size: 14 }] },
            { format: "png", dpi: 200 }
          )
          const image = decodeRaster(png.bytes)
          const int8 = yield* makeEngine({ recognizerPrecision: "int8" })
          const float = yield* makeEngine({ recognizerPrecision: "float32" })
          const read = pageText(yield* recognizePage(int8, image))
          // Every accented word exactly. The int8 space class can win the timestep after "¿" (it did with AVX2's
          // vpmaddubsw, and with the Spanish-inclusive ranges on VNNI): no space follows an opening mark (ctc.ts).
          const words = read.split(" ")
          for (const word of ["¿Cuánto", "pagó", "señora", "Núñez?", "¡Sólo", "€!"]) expect(words).toContain(word)
          expect(editDistance(read, text)).toBeLessThanOrEqual(1)
          expect(pageText(yield* recognizePage(float, image))).toBe(text)
          expect(editDistance(read, pageText(yield* recognizePage(float, image)))).toBeLessThanOrEqual(1)
        })
      ),
    120_000
  )
})
