/**
 * Exact rewrites of a PaddleOCR network's graph (same function up to float rounding) that onnxruntime's own
 * optimizer does not make, each of which runs faster (MEASUREMENTS.md, "Graph folding"):
 *
 * - BatchNormalization, and `Mul`/`Add` of a scalar or per-channel constant after a Conv (PP-LCNetV3's "learnable
 *   affine blocks"), folded into the Conv's weights and bias;
 * - a scalar `Mul` then `Add` in front of a 1×1 unpadded Conv folded into it (in front of a padded Conv it would
 *   change the border, where the padding is zero before the affine and would not be after);
 * - hardswish written `x·clip(x+3, 0, 6)/6` (4 elementwise passes) as `x·HardSigmoid(x)`, which onnxruntime fuses
 *   into the Conv before it;
 * - a scalar `Mul` then `Add` left in front of a padded Conv as a BatchNormalization (mean 0, variance 1, epsilon 0),
 *   which onnxruntime runs inside its blocked NCHWc layout instead of converting out of it and back around the two
 *   elementwise nodes;
 * - opset 9's attribute-form `Slice` in its opset-10 form and the opset raised to 10, so that the graph can hold
 *   QuantizeLinear/QLinearConv (`quantize.ts`).
 */
import {
  DataType,
  floatAttr,
  floatAttribute,
  floats,
  floatWeight,
  type Graph,
  type GraphNode,
  intsAttribute,
  intWeight,
  readGraph,
  type Weight,
  writeGraph
} from "./onnxGraph.js"

/** A graph being rewritten: nodes (undefined once removed) and weights, mutable during one rewrite only. */
export interface Draft {
  readonly outputs: ReadonlyArray<string>
  readonly nodes: Array<GraphNode | undefined>
  readonly weights: Map<string, Weight>
  readonly opsets: Map<string, number>
  /** Suffix of the next new tensor name. */
  fresh: number
}

/** A draft of `graph` to rewrite. */
export const draft = (graph: Graph): Draft => ({
  outputs: graph.outputs,
  nodes: [...graph.nodes],
  weights: new Map(graph.weights),
  opsets: new Map(graph.opsets),
  fresh: 0
})

const done = (d: Draft): Graph => ({
  outputs: d.outputs,
  nodes: d.nodes.filter((n) => n !== undefined),
  weights: d.weights,
  opsets: d.opsets
})

/** Indices of the nodes reading each tensor. */
const consumers = (d: Draft): Map<string, Array<number>> => {
  const out = new Map<string, Array<number>>()
  d.nodes.forEach((n, k) => {
    for (const i of n?.inputs ?? []) out.set(i, [...(out.get(i) ?? []), k])
  })
  return out
}

/** The only node reading `tensor`, if exactly one does and it is not a graph output. */
const soleConsumer = (
  users: Map<string, Array<number>>,
  tensor: string,
  outputs: ReadonlySet<string>
): number | undefined => {
  const u = users.get(tensor)
  return u?.length === 1 && !outputs.has(tensor) ? u[0] : undefined
}

/** Elements of a tensor of these dimensions. */
export const size = (dims: ReadonlyArray<number>) => dims.reduce((a, b) => a * b, 1)

/** The constant operand of a binary node and the other one, when exactly one operand is a float weight. */
const constantOperand = (d: Draft, node: GraphNode): { value: Float32Array; other: string } | undefined => {
  const [a, b] = node.inputs
  if (a === undefined || b === undefined) return undefined
  const wa = d.weights.get(a)
  const wb = d.weights.get(b)
  if ((wa === undefined) === (wb === undefined)) return undefined
  const w = (wa ?? wb)!
  return w.dataType === DataType.float ? { value: floats(w), other: wa === undefined ? a : b } : undefined
}

/** Per-output-channel values of a constant that broadcasts over a conv output [N, M, H, W]: scalar or M values. */
const perChannel = (d: Draft, node: GraphNode, channels: number): Float32Array | undefined => {
  const c = constantOperand(d, node)
  if (c === undefined) return undefined
  const name = node.inputs.find((i) => d.weights.has(i))!
  const dims = d.weights.get(name)!.dims
  if (c.value.length === 1) return new Float32Array(channels).fill(c.value[0]!)
  // [M, 1, 1] or [1, M, 1, 1]: one value per channel.
  const trailing = dims.slice(-3)
  return c.value.length === channels && trailing.length === 3 && trailing[0] === channels ? c.value : undefined
}

/** A tensor name not in the model: `base::tag<n>`. */
export const newName = (d: Draft, base: string, tag: string): string => `${base}::${tag}${d.fresh++}`

/** A Conv's float weight [M, C/group, kh, kw] and bias [M] (zeros when it has none). */
export interface ConvParts {
  readonly weight: Float32Array
  readonly dims: ReadonlyArray<number>
  readonly bias: Float32Array
}

/** The Conv's weight and bias, when both are float constants. */
export const convParts = (d: Draft, conv: GraphNode): ConvParts | undefined => {
  const w = d.weights.get(conv.inputs[1] ?? "")
  if (w === undefined || w.dataType !== DataType.float || w.dims.length !== 4) return undefined
  const b = conv.inputs[2] === undefined ? undefined : d.weights.get(conv.inputs[2])
  if (conv.inputs[2] !== undefined && (b === undefined || b.dataType !== DataType.float)) return undefined
  return { weight: floats(w), dims: w.dims, bias: b === undefined ? new Float32Array(w.dims[0]!) : floats(b) }
}

const withParts = (d: Draft, conv: GraphNode, parts: ConvParts, output: string): GraphNode => {
  const w = newName(d, conv.inputs[1]!, "w")
  const b = newName(d, conv.inputs[1]!, "b")
  d.weights.set(w, floatWeight(parts.dims, parts.weight))
  d.weights.set(b, floatWeight([parts.dims[0]!], parts.bias))
  return { ...conv, inputs: [conv.inputs[0]!, w, b], outputs: [output] }
}

/** Folds BatchNormalization, and Mul/Add by a constant, that follow a Conv into its weights and bias. */
const foldAfterConv = (d: Draft, outputs: ReadonlySet<string>): boolean => {
  const users = consumers(d)
  for (const [k, conv] of d.nodes.entries()) {
    if (conv?.opType !== "Conv") continue
    const next = soleConsumer(users, conv.outputs[0] ?? "", outputs)
    const node = next === undefined ? undefined : d.nodes[next]
    if (node === undefined || !["BatchNormalization", "Mul", "Add"].includes(node.opType)) continue
    const parts = convParts(d, conv)
    if (parts === undefined) continue
    const m = parts.dims[0]!
    const per = size(parts.dims) / m
    const weight = parts.weight.slice()
    const bias = parts.bias.slice()
    if (node.opType === "BatchNormalization") {
      const [scale, shift, mean, variance] = node.inputs.slice(1).map((i) => d.weights.get(i))
      if (scale === undefined || shift === undefined || mean === undefined || variance === undefined) continue
      const [s, t, mu, v] = [scale, shift, mean, variance].map(floats) as [
        Float32Array,
        Float32Array,
        Float32Array,
        Float32Array
      ]
      const eps = floatAttribute(node, "epsilon") ?? 1e-5
      for (let c = 0; c < m; c++) {
        const f = s[c]! / Math.sqrt(v[c]! + eps)
        for (let i = 0; i < per; i++) weight[c * per + i]! *= f
        bias[c] = (bias[c]! - mu[c]!) * f + t[c]!
      }
    } else if (node.opType === "Mul" || node.opType === "Add") {
      const values = perChannel(d, node, m)
      if (values === undefined) continue
      for (let c = 0; c < m; c++) {
        if (node.opType === "Mul") {
          for (let i = 0; i < per; i++) weight[c * per + i]! *= values[c]!
          bias[c]! *= values[c]!
        } else bias[c]! += values[c]!
      }
    } else continue
    d.nodes[k] = withParts(d, conv, { weight, dims: parts.dims, bias }, node.outputs[0]!)
    d.nodes[next!] = undefined
    return true
  }
  return false
}

/** A scalar `Mul` by s whose only reader is an `Add` of a scalar t: x·s + t, with x, s, t and the Add's index. */
interface ScalarAffine {
  readonly x: string
  readonly s: number
  readonly t: number
  readonly add: GraphNode
  readonly addAt: number
}

const scalarAffine = (
  d: Draft,
  users: Map<string, Array<number>>,
  mul: GraphNode | undefined,
  outputs: ReadonlySet<string>
): ScalarAffine | undefined => {
  if (mul?.opType !== "Mul") return undefined
  const s = constantOperand(d, mul)
  const addAt = soleConsumer(users, mul.outputs[0] ?? "", outputs)
  const add = addAt === undefined ? undefined : d.nodes[addAt]
  if (s === undefined || s.value.length !== 1 || add?.opType !== "Add") return undefined
  const t = constantOperand(d, add)
  return t === undefined || t.value.length !== 1
    ? undefined
    : { x: s.other, s: s.value[0]!, t: t.value[0]!, add, addAt: addAt! }
}

/** Folds a scalar Mul then Add (in either order of operands) in front of a 1×1 unpadded Conv into it. */
const foldBeforePointwise = (d: Draft, outputs: ReadonlySet<string>): boolean => {
  const users = consumers(d)
  for (const [k, mul] of d.nodes.entries()) {
    const affine = scalarAffine(d, users, mul, outputs)
    if (affine === undefined) continue
    const { x, s, t, add, addAt } = affine
    const convAt = soleConsumer(users, add.outputs[0] ?? "", outputs)
    const conv = convAt === undefined ? undefined : d.nodes[convAt]
    if (conv?.opType !== "Conv" || conv.inputs[0] !== add.outputs[0]) continue
    const parts = convParts(d, conv)
    const pads = intsAttribute(conv, "pads") ?? []
    if (parts === undefined || parts.dims[2] !== 1 || parts.dims[3] !== 1 || pads.some((p) => p !== 0)) continue
    const m = parts.dims[0]!
    const per = size(parts.dims) / m
    const weight = parts.weight.slice()
    const bias = parts.bias.slice()
    for (let c = 0; c < m; c++) {
      let sum = 0
      for (let i = 0; i < per; i++) {
        sum += weight[c * per + i]!
        weight[c * per + i]! *= s
      }
      bias[c]! += t * sum
    }
    const folded = withParts(d, conv, { weight, dims: parts.dims, bias }, conv.outputs[0]!)
    d.nodes[convAt!] = { ...folded, inputs: [x, ...folded.inputs.slice(1)] }
    d.nodes[k] = undefined
    d.nodes[addAt] = undefined
    return true
  }
  return false
}

const isScalar = (d: Draft, name: string | undefined, value: number): boolean => {
  const w = name === undefined ? undefined : d.weights.get(name)
  return w !== undefined && w.dataType === DataType.float && size(w.dims) === 1 && floats(w)[0] === value
}

/** `Div(Mul(x, Clip(Add(x, 3), 0, 6)), 6)` → `Mul(x, HardSigmoid(x; 1/6, 0.5))`. */
const hardSwish = (d: Draft, outputs: ReadonlySet<string>): boolean => {
  const users = consumers(d)
  for (const [k, add] of d.nodes.entries()) {
    if (add?.opType !== "Add") continue
    const x = add.inputs.find((i) => !d.weights.has(i))
    const three = add.inputs.find((i) => d.weights.has(i))
    if (x === undefined || !isScalar(d, three, 3)) continue
    const clipAt = soleConsumer(users, add.outputs[0]!, outputs)
    const clip = clipAt === undefined ? undefined : d.nodes[clipAt]
    if (clip?.opType !== "Clip") continue
    const low = floatAttribute(clip, "min") ?? (isScalar(d, clip.inputs[1], 0) ? 0 : undefined)
    const high = floatAttribute(clip, "max") ?? (isScalar(d, clip.inputs[2], 6) ? 6 : undefined)
    if (low !== 0 || high !== 6) continue
    const mulAt = soleConsumer(users, clip.outputs[0]!, outputs)
    const mul = mulAt === undefined ? undefined : d.nodes[mulAt]
    if (mul?.opType !== "Mul" || !mul.inputs.includes(x)) continue
    const divAt = soleConsumer(users, mul.outputs[0]!, outputs)
    const div = divAt === undefined ? undefined : d.nodes[divAt]
    if (div?.opType !== "Div" || div.inputs[0] !== mul.outputs[0] || !isScalar(d, div.inputs[1], 6)) continue
    const gate = newName(d, x, "hsig")
    d.nodes[k] = {
      opType: "HardSigmoid",
      domain: "",
      inputs: [x],
      outputs: [gate],
      attributes: [floatAttr("alpha", 1 / 6), floatAttr("beta", 0.5)]
    }
    d.nodes[clipAt!] = undefined
    d.nodes[mulAt!] = { opType: "Mul", domain: "", inputs: [x, gate], outputs: div.outputs, attributes: [] }
    d.nodes[divAt!] = undefined
    return true
  }
  return false
}

/**
 * Output channels of a Conv's output, or of `x·HardSigmoid(x)` of one (the hardswish `hardSwish` writes); undefined
 * for any other producer.
 */
const convChannels = (d: Draft, producers: Map<string, GraphNode>, tensor: string): number | undefined => {
  const node = producers.get(tensor)
  if (node?.opType === "Conv") return convParts(d, node)?.dims[0]
  if (node?.opType !== "Mul") return undefined
  const [a, b] = node.inputs
  const gate = producers.get(b ?? "")
  return gate?.opType === "HardSigmoid" && gate.inputs[0] === a ? convChannels(d, producers, a!) : undefined
}

/**
 * A scalar `Mul` then `Add` left on a convolution's output (the affine blocks in front of padded depthwise
 * convolutions, which `foldBeforePointwise` cannot fold) as a `BatchNormalization` of mean 0, variance 1 and epsilon
 * 0, which computes `x·s + t` as they did (`sqrt(1) = 1`). onnxruntime keeps a BatchNormalization in its blocked
 * NCHWc layout (a 1×1 depthwise convolution there), where the elementwise pair made it convert the tensor out of that
 * layout and back: four passes over the tensor become one.
 */
const affineAsBatchNorm = (d: Draft, outputs: ReadonlySet<string>): boolean => {
  const users = consumers(d)
  const producers = new Map(d.nodes.flatMap((n) => (n === undefined ? [] : n.outputs.map((o) => [o, n] as const))))
  for (const [k, mul] of d.nodes.entries()) {
    const affine = scalarAffine(d, users, mul, outputs)
    const channels = affine === undefined ? undefined : convChannels(d, producers, affine.x)
    if (affine === undefined || channels === undefined) continue
    const { x, add, addAt } = affine
    const values = [affine.s, affine.t, 0, 1]
    const params = ["scale", "shift", "mean", "variance"].map((tag, i) => {
      const name = newName(d, x, tag)
      d.weights.set(name, floatWeight([channels], new Float32Array(channels).fill(values[i]!)))
      return name
    })
    d.nodes[k] = {
      opType: "BatchNormalization",
      domain: "",
      inputs: [x, ...params],
      outputs: add.outputs,
      attributes: [floatAttr("epsilon", 0)]
    }
    d.nodes[addAt] = undefined
    return true
  }
  return false
}

/** Opset 10's Slice takes starts, ends and axes as inputs, not attributes. */
const slicesToInputs = (d: Draft): void => {
  for (const [k, node] of d.nodes.entries()) {
    if (node?.opType !== "Slice" || node.inputs.length > 1) continue
    const starts = intsAttribute(node, "starts") ?? []
    const ends = intsAttribute(node, "ends") ?? []
    const axes = intsAttribute(node, "axes") ?? starts.map((_, i) => i)
    const names = [starts, ends, axes].map((values, i) => {
      const name = newName(d, node.outputs[0]!, ["starts", "ends", "axes"][i]!)
      d.weights.set(name, intWeight(DataType.int64, [values.length], values))
      return name
    })
    d.nodes[k] = { ...node, inputs: [node.inputs[0]!, ...names], attributes: [] }
  }
}

const repeat = (d: Draft, pass: (d: Draft) => boolean) => {
  while (pass(d)) {
    /* each call rewrites one match; nodes shift, so matching starts again */
  }
}

/**
 * The float graph rewritten for quantization (see the module comment); the graph's outputs are never folded away.
 * Same function up to float rounding.
 */
export const foldGraph = (graph: Graph): Graph => {
  const d = draft(graph)
  const keep = new Set(graph.outputs)
  repeat(d, (x) => foldAfterConv(x, keep))
  repeat(d, (x) => hardSwish(x, keep))
  repeat(d, (x) => foldBeforePointwise(x, keep))
  repeat(d, (x) => affineAsBatchNorm(x, keep))
  if ((d.opsets.get("") ?? 1) < 10) {
    slicesToInputs(d)
    d.opsets.set("", 10)
  }
  return done(d)
}

/** A model's bytes with the rewrites of `foldGraph`. */
export const foldModel = (model: Uint8Array): Uint8Array => writeGraph(model, foldGraph(readGraph(model)))
