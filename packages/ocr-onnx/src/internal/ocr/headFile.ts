/**
 * The head file format (`models/latin_head.bin`): a recognizer's final linear layer as a little-endian header
 * (magic "LHD1", inputs, classes as uint32) then weight and bias as float32. Raw floats, so that the repository
 * holds a few hundred KB rather than a copy of the whole model.
 */

/** A trained head: weight [inputs × classes] row-major, bias [classes]. */
export interface HeadWeights {
  readonly inputs: number
  readonly classes: number
  readonly weight: Float32Array
  readonly bias: Float32Array
}

const MAGIC = "LHD1"

/** A head as the bytes of a head file. */
export const encodeHead = (weights: HeadWeights): Uint8Array => {
  const out = new Uint8Array(12 + 4 * (weights.weight.length + weights.bias.length))
  const view = new DataView(out.buffer)
  out.set(new TextEncoder().encode(MAGIC))
  view.setUint32(4, weights.inputs, true)
  view.setUint32(8, weights.classes, true)
  let at = 12
  for (const x of weights.weight) {
    view.setFloat32(at, x, true)
    at += 4
  }
  for (const x of weights.bias) {
    view.setFloat32(at, x, true)
    at += 4
  }
  return out
}

/** Reads a head file written by `encodeHead`. */
export const decodeHead = (bytes: Uint8Array): HeadWeights => {
  if (bytes.length < 12 || new TextDecoder().decode(bytes.subarray(0, 4)) !== MAGIC) throw new Error("not a head file")
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const inputs = view.getUint32(4, true)
  const classes = view.getUint32(8, true)
  if (bytes.length !== 12 + 4 * (inputs * classes + classes)) throw new Error("head file: wrong size")
  const weight = new Float32Array(inputs * classes)
  const bias = new Float32Array(classes)
  for (let i = 0; i < weight.length; i++) weight[i] = view.getFloat32(12 + 4 * i, true)
  for (let i = 0; i < classes; i++) bias[i] = view.getFloat32(12 + 4 * (weight.length + i), true)
  return { inputs, classes, weight, bias }
}
