/**
 * Static int8 quantization of a PaddleOCR network in QDQ form, built in memory at load time from the float model
 * rewritten by `fold.ts` and calibrated activation ranges.
 *
 * `quantizeConvs`: each Conv gets DequantizeLinear(QuantizeLinear(x)) on its input with the input's calibrated
 *    uint8 scale and zero point, int8 weights with a symmetric scale per output channel (com.microsoft
 *    DequantizeLinear, `axis` 0: ONNX's own DequantizeLinear has no axis before opset 13), an int32 bias at
 *    input scale × weight scale, and QuantizeLinear → DequantizeLinear on its output. onnxruntime's QDQ
 *    transformer then fuses each group into one QLinearConv (onnxruntime
 *    `core/optimizer/qdq_transformer/selectors_actions/qdq_selectors.cc`, `ConvNodeGroupSelector`: every input
 *    from a DQ, the output into a Q; uint8 activations with int8 weights allowed).
 *
 * Weights are quantized to 8 bits (±127). onnxruntime's docs advise 7 bits (`reduce_range`) on AVX2 without VNNI,
 * where `vpmaddubsw` sums uint8 × int8 pairs into int16 and may saturate; measured here, 7 bits lost more accuracy
 * (MEASUREMENTS.md, "int8 recognizer").
 */
import { createHash } from "node:crypto"
import { Schema } from "effect"
import { convParts, draft, foldGraph, newName, size } from "./fold.js"
import {
  DataType,
  floatWeight,
  type Graph,
  type GraphNode,
  intAttr,
  intWeight,
  readGraph,
  type Weight,
  writeGraph
} from "./onnxGraph.js"

const MS = "com.microsoft"

/** The activations whose ranges calibration must measure: each Conv's input and output. */
export const calibrationTensors = (graph: Graph): ReadonlyArray<string> => [
  ...new Set(
    graph.nodes
      .filter((n) => n.opType === "Conv" && graph.weights.has(n.inputs[1] ?? ""))
      .flatMap((n) => [n.inputs[0]!, n.outputs[0]!])
  )
]

/** A tensor's observed range. */
export interface Range {
  readonly min: number
  readonly max: number
}

/** How `quantizeConvs` quantizes. */
export interface QuantizeOptions {
  /** Largest weight magnitude: 127 (8 bits) or 63 (7 bits, no `vpmaddubsw` saturation on AVX2). */
  readonly weightLevels: number
  /** Which convolutions, by weight dimensions [M, C/group, kh, kw] (both tensors also need a range). */
  readonly select: (weight: ReadonlyArray<number>) => boolean
}

/**
 * 1×1 convolutions of at least 128 input channels (12 in PP-OCRv4), weights in 8 bits. A quantized convolution runs
 * faster, but each one also costs a DequantizeLinear, a QuantizeLinear and its activation outside the convolution
 * (which the float one fuses): the small and depthwise ones lose more than they gain (MEASUREMENTS.md, "int8
 * recognizer").
 */
export const defaultQuantizeOptions: QuantizeOptions = {
  weightLevels: 127,
  select: (w) => w[2] === 1 && w[3] === 1 && (w[1] ?? 0) >= 128
}

/** uint8 scale and zero point covering [min, max] and 0. */
export const uint8Params = (range: Range): { scale: number; zeroPoint: number } => {
  const min = Math.min(0, range.min)
  const max = Math.max(0, range.max)
  const scale = max > min ? (max - min) / 255 : 1
  return { scale, zeroPoint: Math.min(255, Math.max(0, Math.round(-min / scale))) }
}

/** The graph (rewritten by `foldGraph`) with the selected Conv of known input and output ranges in QDQ form. */
export const quantizeConvs = (
  graph: Graph,
  ranges: Readonly<Record<string, Range>>,
  options: QuantizeOptions = defaultQuantizeOptions
): Graph => {
  const d = draft(graph)
  d.opsets.set(MS, 1)
  const out: Array<GraphNode> = []
  const constant = (base: string, tag: string, weight: Weight) => {
    const name = newName(d, base, tag)
    d.weights.set(name, weight)
    return name
  }
  /** Q then DQ of a float tensor (uint8, one scale): the dequantized tensor's name and the scale. */
  const qdq = (tensor: string, range: Range, to?: string) => {
    const { scale, zeroPoint } = uint8Params(range)
    const s = constant(tensor, "scale", floatWeight([], [scale]))
    const z = constant(tensor, "zp", intWeight(DataType.uint8, [], [zeroPoint]))
    const q = newName(d, tensor, "q")
    const dq = to ?? newName(d, tensor, "dq")
    out.push({ opType: "QuantizeLinear", domain: "", inputs: [tensor, s, z], outputs: [q], attributes: [] })
    out.push({ opType: "DequantizeLinear", domain: "", inputs: [q, s, z], outputs: [dq], attributes: [] })
    return { dq, scale }
  }
  /** A DQ, one scale per output channel (axis 0), of a constant integer tensor with zero offsets. */
  const perChannel = (
    base: string,
    type: typeof DataType.int8 | typeof DataType.int32,
    dims: ReadonlyArray<number>,
    values: ArrayLike<number>,
    scales: Float32Array
  ) => {
    const m = scales.length
    const inputs = [
      constant(base, "q", intWeight(type, dims, values)),
      constant(base, "scale", floatWeight([m], scales)),
      constant(base, "zp", intWeight(type, [m], new Array<number>(m).fill(0)))
    ]
    const dq = newName(d, base, "dq")
    out.push({ opType: "DequantizeLinear", domain: MS, inputs, outputs: [dq], attributes: [intAttr("axis", 0)] })
    return dq
  }
  for (const node of d.nodes) {
    if (node === undefined) continue
    const inRange = ranges[node.inputs[0] ?? ""]
    const outRange = ranges[node.outputs[0] ?? ""]
    const parts = node.opType === "Conv" ? convParts(d, node) : undefined
    if (parts === undefined || inRange === undefined || outRange === undefined || !options.select(parts.dims)) {
      out.push(node)
      continue
    }
    const input = qdq(node.inputs[0]!, inRange)
    const m = parts.dims[0]!
    const per = size(parts.dims) / m
    const wq = new Int8Array(parts.weight.length)
    const ws = new Float32Array(m)
    const bq = new Int32Array(m)
    for (let c = 0; c < m; c++) {
      let peak = 0
      for (let i = 0; i < per; i++) peak = Math.max(peak, Math.abs(parts.weight[c * per + i]!))
      ws[c] = peak > 0 ? peak / options.weightLevels : 1
      for (let i = 0; i < per; i++) wq[c * per + i] = Math.round(parts.weight[c * per + i]! / ws[c]!)
      bq[c] = Math.round(parts.bias[c]! / (input.scale * ws[c]!))
    }
    const weight = perChannel(node.inputs[1]!, DataType.int8, parts.dims, wq, ws)
    const bias = perChannel(
      `${node.inputs[1]!}:bias`,
      DataType.int32,
      [m],
      bq,
      ws.map((w) => w * input.scale)
    )
    const raw = newName(d, node.outputs[0]!, "raw")
    out.push({ ...node, inputs: [input.dq, weight, bias], outputs: [raw] })
    qdq(raw, outRange, node.outputs[0]!)
  }
  return { outputs: d.outputs, nodes: out, weights: d.weights, opsets: d.opsets }
}

const RangesFile = Schema.Struct({
  model: Schema.String,
  sha256: Schema.String,
  calibration: Schema.String,
  tensors: Schema.Record(Schema.String, Schema.Struct({ min: Schema.Finite, max: Schema.Finite }))
})

/** A calibration file: the model file it was measured on (name, SHA-256), how, and each tensor's range. */
export type Ranges = typeof RangesFile.Type

/** A calibration file's text (JSON). */
export const encodeRanges = (ranges: Ranges): string => `${JSON.stringify(ranges, null, 1)}\n`

/** Reads a calibration file's text. */
export const decodeRanges: (text: string) => Ranges = Schema.decodeUnknownSync(Schema.fromJsonString(RangesFile))

/**
 * The bytes of a model (a float model, grafted or not) folded (`foldGraph`) and quantized with `ranges`. `original`
 * is the model file as shipped, whose SHA-256 must be the one the ranges were calibrated on.
 */
export const quantizeModel = (
  model: Uint8Array,
  original: Uint8Array,
  ranges: Ranges,
  options: QuantizeOptions = defaultQuantizeOptions
): Uint8Array => {
  const sha256 = createHash("sha256").update(original).digest("hex")
  if (sha256 !== ranges.sha256) {
    throw new Error(
      `the int8 ranges were calibrated on ${ranges.model} (SHA-256 ${ranges.sha256.slice(0, 12)}…), not this model (${sha256.slice(0, 12)}…)`
    )
  }
  return writeGraph(model, quantizeConvs(foldGraph(readGraph(model)), ranges.tensors, options))
}
