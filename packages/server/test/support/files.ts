/** A multi-page TIFF the page-image tests write themselves (no TIFF is among the shared documents). */

/** An uncompressed RGB TIFF with one page per size; page `i` is filled with grey level `40 * (i + 1)`. */
export const tiff = (sizes: ReadonlyArray<readonly [number, number]>): Uint8Array => {
  const chunks: Array<Buffer> = []
  let offset = 8
  const header = Buffer.alloc(8)
  header.write("II", 0, "latin1")
  header.writeUInt16LE(42, 2)
  chunks.push(header)
  const ifdOffsets: Array<number> = []
  const patches: Array<() => void> = []
  sizes.forEach(([width, height], page) => {
    const pixels = Buffer.alloc(width * height * 3, 40 * (page + 1))
    const pixelsAt = offset
    chunks.push(pixels)
    offset += pixels.length
    const bitsAt = offset
    const bits = Buffer.alloc(6)
    bits.writeUInt16LE(8, 0)
    bits.writeUInt16LE(8, 2)
    bits.writeUInt16LE(8, 4)
    chunks.push(bits)
    offset += 6
    const tags: Array<readonly [number, number, number, number]> = [
      [256, 4, 1, width],
      [257, 4, 1, height],
      [258, 3, 3, bitsAt],
      [259, 3, 1, 1],
      [262, 3, 1, 2],
      [273, 4, 1, pixelsAt],
      [277, 3, 1, 3],
      [278, 4, 1, height],
      [279, 4, 1, pixels.length]
    ]
    const ifd = Buffer.alloc(2 + tags.length * 12 + 4)
    ifd.writeUInt16LE(tags.length, 0)
    tags.forEach(([tag, type, count, value], i) => {
      ifd.writeUInt16LE(tag, 2 + i * 12)
      ifd.writeUInt16LE(type, 4 + i * 12)
      ifd.writeUInt32LE(count, 6 + i * 12)
      if (type === 3 && count === 1) ifd.writeUInt16LE(value, 10 + i * 12)
      else ifd.writeUInt32LE(value, 10 + i * 12)
    })
    ifdOffsets.push(offset)
    const at = chunks.length
    chunks.push(ifd)
    offset += ifd.length
    patches.push(() => {
      const next = ifdOffsets[page + 1] ?? 0
      chunks[at]!.writeUInt32LE(next, 2 + tags.length * 12)
    })
  })
  header.writeUInt32LE(ifdOffsets[0]!, 4)
  for (const patch of patches) patch()
  return new Uint8Array(Buffer.concat(chunks))
}
