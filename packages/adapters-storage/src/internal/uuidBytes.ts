/**
 * UUIDs packed as 16 bytes each in one typed array (the record ids of an in-process index): a tenth of what a
 * million id strings hold, and transferable between threads.
 */

/** Bytes per packed id. */
export const UUID_BYTES = 16

/** Writes the UUID `id` (hexadecimal, dashes anywhere) as the 16 bytes at `offset` of `target`. */
export const writeUuid = (target: Uint8Array, offset: number, id: string): void => {
  const hex = id.replaceAll("-", "")
  for (let k = 0; k < UUID_BYTES; k++) target[offset + k] = Number.parseInt(hex.slice(2 * k, 2 * k + 2), 16)
}

const HEX = "0123456789abcdef"
const DASH = 45
const uuidCodes: Array<number> = new Array<number>(36).fill(0)

/** The UUID packed at `offset` of `source`, lower case with its dashes. */
export const readUuid = (source: Uint8Array, offset: number): string => {
  const out = uuidCodes
  let i = 0
  for (let k = 0; k < UUID_BYTES; k++) {
    const byte = source[offset + k] ?? 0
    out[i++] = HEX.charCodeAt(byte >> 4)
    out[i++] = HEX.charCodeAt(byte & 15)
    if (k === 3 || k === 5 || k === 7 || k === 9) out[i++] = DASH
  }
  // One string from the 36 codes (appending to a string would allocate one per character).
  return String.fromCharCode.apply(null, out)
}

/** Compares the ids packed at positions `a` and `b` of `ids`: the order of their lower-case texts. */
export const compareUuids = (ids: Uint8Array, a: number, b: number): number => {
  for (let k = 0; k < UUID_BYTES; k++) {
    const d = (ids[a * UUID_BYTES + k] ?? 0) - (ids[b * UUID_BYTES + k] ?? 0)
    if (d !== 0) return d
  }
  return 0
}
