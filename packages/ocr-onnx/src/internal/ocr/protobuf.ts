/**
 * The protobuf wire format, as much of it as ONNX model edits need: a message's top-level fields with where each
 * sits in the bytes, varints, strings, and length-delimited fields to write. Written by hand rather than with a
 * protobuf library: edits touch a handful of fields and copy everything else byte for byte.
 */
import { concat } from "../bytes.js"

/** One protobuf field: its number, wire type and where its value sits in the message. */
export interface Field {
  readonly field: number
  readonly wire: number
  /** Start of the tag (the whole field is bytes [start, end)). */
  readonly start: number
  readonly end: number
  /** The value's bytes (for length-delimited fields, without the length prefix). */
  readonly valueStart: number
  /** The varint value (wire type 0), else 0. */
  readonly varint: number
}

/** A varint at `at` as a non-negative number, and where the next value starts. */
export const readVarint = (bytes: Uint8Array, at: number): readonly [number, number] => {
  let value = 0
  let scale = 1
  let i = at
  for (;;) {
    if (i >= bytes.length) throw new Error("onnx: truncated varint")
    const b = bytes[i++]!
    value += (b & 0x7f) * scale
    if (b < 0x80) return [value, i]
    scale *= 128
  }
}

/** A varint as a signed 64-bit integer (negative ints are ten-byte varints, beyond a double's precision). */
export const readSigned = (bytes: Uint8Array, at: number): readonly [number, number] => {
  let value = 0n
  let shift = 0n
  let i = at
  for (;;) {
    const b = bytes[i++]
    if (b === undefined) throw new Error("onnx: truncated varint")
    value |= BigInt(b & 0x7f) << shift
    if (b < 0x80) return [Number(BigInt.asIntN(64, value)), i]
    shift += 7n
  }
}

/** A non-negative integer as protobuf varint bytes. */
export const varint = (value: number): Array<number> => {
  const out: Array<number> = []
  let v = value
  while (v >= 0x80) {
    out.push((v % 128) | 0x80)
    v = Math.floor(v / 128)
  }
  out.push(v)
  return out
}

/** A signed integer as protobuf varint bytes (two's complement over 64 bits). */
export const signedVarint = (value: number): Array<number> =>
  value >= 0 ? varint(value) : varint(Number(BigInt.asUintN(64, BigInt(value))))

/** The top-level fields of one protobuf message. */
export const fields = (bytes: Uint8Array): Array<Field> => {
  const out: Array<Field> = []
  let at = 0
  while (at < bytes.length) {
    const start = at
    const [tag, afterTag] = readVarint(bytes, at)
    const field = Math.floor(tag / 8)
    const wire = tag & 7
    let valueStart = afterTag
    let end: number
    let value = 0
    if (wire === 0) [value, end] = readVarint(bytes, afterTag)
    else if (wire === 1) end = afterTag + 8
    else if (wire === 5) end = afterTag + 4
    else if (wire === 2) {
      const [length, afterLength] = readVarint(bytes, afterTag)
      valueStart = afterLength
      end = afterLength + length
    } else throw new Error(`onnx: unsupported wire type ${wire}`)
    if (end > bytes.length) throw new Error("onnx: truncated field")
    out.push({ field, wire, start, end, valueStart, varint: value })
    at = end
  }
  return out
}

/** A field's value bytes (without tag or length prefix). */
export const payload = (bytes: Uint8Array, f: Field): Uint8Array => bytes.subarray(f.valueStart, f.end)

const textDecoder = new TextDecoder()
const textEncoder = new TextEncoder()

/** The first length-delimited field numbered `number`, as a UTF-8 string. */
export const stringField = (bytes: Uint8Array, number: number): string | undefined => {
  const f = fields(bytes).find((x) => x.field === number && x.wire === 2)
  return f === undefined ? undefined : textDecoder.decode(payload(bytes, f))
}

/** Every length-delimited field numbered `number`, as UTF-8 strings. */
export const stringsOf = (bytes: Uint8Array, number: number): Array<string> =>
  fields(bytes)
    .filter((x) => x.field === number && x.wire === 2)
    .map((x) => textDecoder.decode(payload(bytes, x)))

/** A length-delimited field with the given payload. */
export const message = (number: number, payload: Uint8Array): Uint8Array => {
  const head = [...varint(number * 8 + 2), ...varint(payload.length)]
  const out = new Uint8Array(head.length + payload.length)
  out.set(head)
  out.set(payload, head.length)
  return out
}

/** A length-delimited field holding a UTF-8 string. */
export const stringMessage = (number: number, text: string): Uint8Array => message(number, textEncoder.encode(text))

/**
 * The fields of `bytes` with those numbered `number` (length-delimited) replaced by `edit` of their payload; every
 * other field is copied byte for byte.
 */
export const editFields = (bytes: Uint8Array, number: number, edit: (value: Uint8Array) => Uint8Array): Uint8Array =>
  concat(
    fields(bytes).map((f) =>
      f.field === number && f.wire === 2 ? message(number, edit(payload(bytes, f))) : bytes.subarray(f.start, f.end)
    )
  )
