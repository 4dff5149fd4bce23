/**
 * A minimal baseline TIFF writer for test documents (mupdf reads TIFF but cannot write it): 8-bit greyscale frames,
 * PackBits-compressed, one strip and one directory per frame, little-endian, with the resolution in DPI.
 */

/** A greyscale frame: `width × height` bytes, rows packed. */
export interface GreyFrame {
  readonly width: number
  readonly height: number
  readonly pixels: Uint8Array
}

// PackBits (TIFF compression 32773), row by row as the TIFF specification requires.
const packBits = (row: Uint8Array, out: Array<number>): void => {
  let i = 0
  while (i < row.length) {
    let run = 1
    while (i + run < row.length && run < 128 && row[i + run] === row[i]) run++
    if (run > 1) {
      out.push(257 - run, row[i]!)
      i += run
      continue
    }
    let literal = 1
    while (i + literal < row.length && literal < 128 && row[i + literal] !== row[i + literal - 1]) literal++
    if (i + literal < row.length && literal > 1) literal-- // leave the start of the next repeat to a run
    out.push(literal - 1)
    for (let k = 0; k < literal; k++) out.push(row[i + k]!)
    i += literal
  }
}

/** The frames as one multi-page TIFF at `dpi`. */
export const encodeTiff = (frames: ReadonlyArray<GreyFrame>, dpi: number): Uint8Array => {
  const chunks: Array<Uint8Array> = []
  let offset = 8
  const header = new Uint8Array(8)
  new DataView(header.buffer).setUint32(0, 0x002a4949, true) // "II", 42
  chunks.push(header)
  // Where the offset of the next directory goes: the header first, then each directory's last 4 bytes.
  let link = { view: new DataView(header.buffer), at: 4 }
  for (const { width, height, pixels } of frames) {
    const packed: Array<number> = []
    for (let y = 0; y < height; y++) packBits(pixels.subarray(y * width, (y + 1) * width), packed)
    const strip = Uint8Array.from(packed)
    const stripAt = offset
    offset += strip.length + (strip.length % 2)
    chunks.push(strip, new Uint8Array(strip.length % 2))
    const resolutionAt = offset
    const resolution = new Uint8Array(16)
    const rv = new DataView(resolution.buffer)
    rv.setUint32(0, dpi, true)
    rv.setUint32(4, 1, true)
    rv.setUint32(8, dpi, true)
    rv.setUint32(12, 1, true)
    chunks.push(resolution)
    offset += 16
    const entries: Array<readonly [tag: number, type: number, value: number]> = [
      [256, 4, width],
      [257, 4, height],
      [258, 3, 8],
      [259, 3, 32773],
      [262, 3, 1], // BlackIsZero
      [273, 4, stripAt],
      [277, 3, 1],
      [278, 4, height],
      [279, 4, strip.length],
      [282, 5, resolutionAt],
      [283, 5, resolutionAt + 8],
      [296, 3, 2] // inch
    ]
    const ifd = new Uint8Array(2 + entries.length * 12 + 4)
    const view = new DataView(ifd.buffer)
    view.setUint16(0, entries.length, true)
    for (const [i, [tag, type, value]] of entries.entries()) {
      view.setUint16(2 + i * 12, tag, true)
      view.setUint16(4 + i * 12, type, true)
      view.setUint32(6 + i * 12, 1, true)
      if (type === 3) view.setUint16(10 + i * 12, value, true)
      else view.setUint32(10 + i * 12, value, true)
    }
    link.view.setUint32(link.at, offset, true)
    link = { view, at: 2 + entries.length * 12 }
    chunks.push(ifd)
    offset += ifd.length
  }
  const out = new Uint8Array(offset)
  let at = 0
  for (const chunk of chunks) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}
