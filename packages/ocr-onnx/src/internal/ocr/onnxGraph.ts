/**
 * An ONNX model's graph as plain data, for rewrites that add and remove nodes (`quantize.ts`): nodes with their
 * operator, domain, tensor names and attributes, and every weight (initializer or `Constant` node) by name. Read from
 * and written back to protobuf bytes with `protobuf.ts`; attributes stay as their encoded bytes
 * unless a rewrite reads or builds one. Written weights are initializers; the graph's name, inputs and outputs are
 * copied byte for byte and its `value_info` shape hints are dropped (onnxruntime infers them again).
 *
 * Fields used (onnx.proto) beyond `graphEdits.ts`'s: ModelProto.opset_import = 8 (OperatorSetIdProto.domain = 1,
 * version = 2); NodeProto.name = 3, domain = 7; AttributeProto.f = 2, i = 3, floats = 7, ints = 8.
 */
import { concat } from "../bytes.js"
import { graphField } from "./graphEdits.js"
import {
  fields,
  message,
  payload,
  readSigned,
  signedVarint,
  stringField,
  stringMessage,
  stringsOf,
  varint
} from "./protobuf.js"

/** TensorProto data types used here. */
export const DataType = { float: 1, uint8: 2, int8: 3, int32: 6, int64: 7 } as const

/** A weight: its element type, dimensions and little-endian raw bytes. */
export interface Weight {
  readonly dataType: number
  readonly dims: ReadonlyArray<number>
  readonly raw: Uint8Array
}

/** A node: operator, domain ("" for ONNX), tensor names and encoded `AttributeProto`s. */
export interface GraphNode {
  readonly opType: string
  readonly domain: string
  readonly inputs: ReadonlyArray<string>
  readonly outputs: ReadonlyArray<string>
  readonly attributes: ReadonlyArray<Uint8Array>
}

/** A model's graph: nodes in order and weights by name; `opsets` maps each domain to its version. */
export interface Graph {
  /** The graph's output names (written back as they were read). */
  readonly outputs: ReadonlyArray<string>
  readonly nodes: ReadonlyArray<GraphNode>
  readonly weights: ReadonlyMap<string, Weight>
  readonly opsets: ReadonlyMap<string, number>
}

const textDecoder = new TextDecoder()

const stringOf = (bytes: Uint8Array, number: number): string => stringField(bytes, number) ?? ""

/** A TensorProto with its data in `raw_data` (or packed `float_data`); undefined for other encodings. */
const readWeight = (tensor: Uint8Array): (Weight & { readonly name: string }) | undefined => {
  const parts = fields(tensor)
  const dims: Array<number> = []
  let dataType = 0
  let raw: Uint8Array | undefined
  let name = ""
  for (const p of parts) {
    if (p.field === 1 && p.wire === 0) dims.push(p.varint)
    else if (p.field === 1 && p.wire === 2) {
      const packed = payload(tensor, p)
      for (let at = 0; at < packed.length; ) {
        const [d, next] = readSigned(packed, at)
        dims.push(d)
        at = next
      }
    } else if (p.field === 2) dataType = p.varint
    else if (p.field === 8) name = textDecoder.decode(payload(tensor, p))
    else if (p.field === 9) raw = payload(tensor, p).slice()
    else if (p.field === 4 && p.wire === 2) raw = payload(tensor, p).slice()
  }
  return raw === undefined ? undefined : { name, dataType, dims, raw }
}

const readNode = (bytes: Uint8Array): GraphNode => ({
  opType: stringField(bytes, 4) ?? "",
  domain: stringField(bytes, 7) ?? "",
  inputs: stringsOf(bytes, 1),
  outputs: stringsOf(bytes, 2),
  attributes: fields(bytes)
    .filter((p) => p.field === 5 && p.wire === 2)
    .map((p) => payload(bytes, p).slice())
})

/** The graph of a model's bytes. `Constant` nodes become weights. */
export const readGraph = (model: Uint8Array): Graph => {
  const graph = payload(model, graphField(model))
  const nodes: Array<GraphNode> = []
  const weights = new Map<string, Weight>()
  const outputs: Array<string> = []
  for (const f of fields(graph)) {
    if (f.field === 12) outputs.push(stringOf(payload(graph, f), 1))
    if (f.field === 5) {
      const weight = readWeight(payload(graph, f))
      if (weight === undefined) throw new Error("onnx: an initializer is not stored as raw data")
      const { name, ...rest } = weight
      weights.set(name, rest)
    }
    if (f.field !== 1) continue
    const node = readNode(payload(graph, f))
    const value = node.opType === "Constant" ? node.attributes.find((a) => stringOf(a, 1) === "value") : undefined
    const tensor = value === undefined ? undefined : fields(value).find((x) => x.field === 5 && x.wire === 2)
    const weight = tensor === undefined ? undefined : readWeight(payload(value!, tensor))
    if (weight !== undefined && node.outputs[0] !== undefined) {
      const { name: _, ...rest } = weight
      weights.set(node.outputs[0], rest)
    } else nodes.push(node)
  }
  const opsets = new Map<string, number>()
  for (const f of fields(model).filter((x) => x.field === 8 && x.wire === 2)) {
    const opset = payload(model, f)
    opsets.set(stringOf(opset, 1), fields(opset).find((x) => x.field === 2)?.varint ?? 1)
  }
  return { outputs, nodes, weights, opsets }
}

const encodeWeight = (name: string, w: Weight): Uint8Array =>
  concat([
    ...w.dims.map((d) => new Uint8Array([0x08, ...signedVarint(d)])),
    new Uint8Array([0x10, ...varint(w.dataType)]),
    stringMessage(8, name),
    message(9, w.raw)
  ])

const encodeNode = (node: GraphNode, name: string): Uint8Array =>
  concat([
    ...node.inputs.map((i) => stringMessage(1, i)),
    ...node.outputs.map((o) => stringMessage(2, o)),
    stringMessage(3, name),
    stringMessage(4, node.opType),
    ...node.attributes.map((a) => message(5, a)),
    ...(node.domain === "" ? [] : [stringMessage(7, node.domain)])
  ])

/**
 * The model's bytes with `graph` in place of its graph: nodes (named `n<index>`) and weights as initializers; the
 * graph's name, inputs and outputs as they were; the opset imports of `graph.opsets`.
 */
export const writeGraph = (model: Uint8Array, graph: Graph): Uint8Array => {
  const g = graphField(model)
  const old = payload(model, g)
  const kept = fields(old)
    .filter((f) => f.field !== 1 && f.field !== 5 && f.field !== 13)
    .map((f) => old.subarray(f.start, f.end))
  const used = new Set(graph.nodes.flatMap((n) => n.inputs))
  const weights = [...graph.weights].filter(([name]) => used.has(name))
  const body = concat([
    ...weights.map(([name, w]) => message(5, encodeWeight(name, w))),
    ...graph.nodes.map((n, k) => message(1, encodeNode(n, `n${k}`))),
    ...kept
  ])
  const opsets = [...graph.opsets].map(([domain, version]) =>
    message(8, concat([stringMessage(1, domain), new Uint8Array([0x10, ...varint(version)])]))
  )
  const rest = fields(model)
    .filter((f) => f.field !== 7 && f.field !== 8)
    .map((f) => model.subarray(f.start, f.end))
  return concat([...rest, ...opsets, message(7, body)])
}

/** An attribute's name. */
export const attributeName = (attribute: Uint8Array): string => stringOf(attribute, 1)

const attribute = (node: GraphNode, name: string): Uint8Array | undefined =>
  node.attributes.find((a) => attributeName(a) === name)

/** A float attribute (`f`), if the node has it. */
export const floatAttribute = (node: GraphNode, name: string): number | undefined => {
  const a = attribute(node, name)
  const f = a === undefined ? undefined : fields(a).find((x) => x.field === 2 && x.wire === 5)
  return a === undefined || f === undefined
    ? undefined
    : new DataView(a.buffer, a.byteOffset + f.valueStart, 4).getFloat32(0, true)
}

/** An int attribute (`i`), if the node has it. */
export const intAttribute = (node: GraphNode, name: string): number | undefined => {
  const a = attribute(node, name)
  const f = a === undefined ? undefined : fields(a).find((x) => x.field === 3 && x.wire === 0)
  return a === undefined || f === undefined ? undefined : readSigned(a, f.valueStart)[0]
}

/** An ints attribute (`ints`, packed or not), if the node has it. */
export const intsAttribute = (node: GraphNode, name: string): ReadonlyArray<number> | undefined => {
  const a = attribute(node, name)
  if (a === undefined) return undefined
  const out: Array<number> = []
  for (const f of fields(a).filter((x) => x.field === 8)) {
    if (f.wire === 0) out.push(readSigned(a, f.valueStart)[0])
    else {
      for (let at = f.valueStart; at < f.end; ) {
        const [v, next] = readSigned(a, at)
        out.push(v)
        at = next
      }
    }
  }
  return out
}

/** A float attribute (AttributeProto type FLOAT = 1). */
export const floatAttr = (name: string, value: number): Uint8Array => {
  const f = new Uint8Array(5)
  f[0] = 0x15
  new DataView(f.buffer).setFloat32(1, value, true)
  return concat([stringMessage(1, name), f, new Uint8Array([0xa0, 0x01, 1])])
}

/** An int attribute (AttributeProto type INT = 2). */
export const intAttr = (name: string, value: number): Uint8Array =>
  concat([stringMessage(1, name), new Uint8Array([0x18, ...signedVarint(value), 0xa0, 0x01, 2])])

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1

/** A float32 weight's values. */
export const floats = (w: Weight): Float32Array => {
  if (w.dataType !== DataType.float) throw new Error(`onnx: a weight of type ${w.dataType} is not float32`)
  // A copy, aligned: on a little-endian host the bytes are the floats.
  if (littleEndian) return new Float32Array(w.raw.slice().buffer)
  const view = new DataView(w.raw.buffer, w.raw.byteOffset, w.raw.byteLength)
  const out = new Float32Array(w.raw.byteLength / 4)
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(4 * i, true)
  return out
}

/** A float32 weight. */
export const floatWeight = (dims: ReadonlyArray<number>, values: ArrayLike<number>): Weight => {
  const raw = new Uint8Array(values.length * 4)
  const view = new DataView(raw.buffer)
  for (let i = 0; i < values.length; i++) view.setFloat32(4 * i, values[i]!, true)
  return { dataType: DataType.float, dims, raw }
}

/** An int8, uint8, int32 or int64 weight. */
export const intWeight = (
  dataType: (typeof DataType)["int8" | "uint8" | "int32" | "int64"],
  dims: ReadonlyArray<number>,
  values: ArrayLike<number>
): Weight => {
  const size = dataType === DataType.int64 ? 8 : dataType === DataType.int32 ? 4 : 1
  const raw = new Uint8Array(values.length * size)
  const view = new DataView(raw.buffer)
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!
    if (dataType === DataType.int64) view.setBigInt64(8 * i, BigInt(v), true)
    else if (dataType === DataType.int32) view.setInt32(4 * i, v, true)
    else if (dataType === DataType.int8) view.setInt8(i, v)
    else view.setUint8(i, v)
  }
  return { dataType, dims, raw }
}
