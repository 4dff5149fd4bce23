/**
 * Documents the page-image and console tests write themselves: PDFs with exact objects (text in Helvetica, or any
 * content stream and filter, e.g. a decompression bomb), a multi-page TIFF, a PNG that declares a pixel flood.
 */
import { deflateSync } from "node:zlib"

/** A PDF of `pages` (each a content stream with Helvetica as `/F1`), written with an exact xref table. */
export const pdfOf = (pages: ReadonlyArray<{ readonly content: Uint8Array | string; readonly filter?: string }>) => {
  const objects: Array<Buffer> = []
  const add = (body: Buffer | string) => objects.push(typeof body === "string" ? Buffer.from(body, "latin1") : body)
  add("<< /Type /Catalog /Pages 2 0 R >>")
  const kids = pages.map((_, i) => `${3 + 2 * i} 0 R`).join(" ")
  add(`<< /Type /Pages /Count ${pages.length} /Kids [${kids}] >>`)
  pages.forEach((page, i) => {
    const stream = typeof page.content === "string" ? Buffer.from(page.content, "latin1") : Buffer.from(page.content)
    add(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] " +
        "/Resources << /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >> >> >> " +
        `/Contents ${4 + 2 * i} 0 R >>`
    )
    add(
      Buffer.concat([
        Buffer.from(`<< /Length ${stream.length} ${page.filter ?? ""} >>\nstream\n`, "latin1"),
        stream,
        Buffer.from("\nendstream", "latin1")
      ])
    )
  })
  const parts: Array<Buffer> = [Buffer.from("%PDF-1.7\n", "latin1")]
  let length = parts[0]!.length
  const offsets = objects.map((body, i) => {
    const at = length
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, "latin1"), body, Buffer.from("\nendobj\n", "latin1")])
    parts.push(chunk)
    length += chunk.length
    return at
  })
  const entries = offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")
  parts.push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}` +
        `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`,
      "latin1"
    )
  )
  return new Uint8Array(Buffer.concat(parts))
}

const escapePdf = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`)

/** A content stream drawing `lines` of 14 pt Helvetica from the top of an A4 page. */
export const textContent = (lines: ReadonlyArray<string>): string =>
  lines.map((line, i) => `BT /F1 14 Tf 72 ${770 - 28 * i} Td (${escapePdf(line)}) Tj ET`).join("\n")

/** A one-page PDF whose Flate content stream inflates to `bytes` zeros (past the reader's cap: a bomb). */
export const contentBomb = (bytes: number): Uint8Array =>
  pdfOf([{ content: deflateSync(Buffer.alloc(bytes), { level: 9 }), filter: "/Filter /FlateDecode" }])

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

/** A PNG whose header declares `width` × `height` pixels over a few bytes of data (a pixel flood). */
export const pixelFlood = (width: number, height: number): Uint8Array => {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data])
    const out = Buffer.alloc(8 + data.length + 4)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc(body), 8 + data.length)
    return out
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.writeUInt8(8, 8)
  ihdr.writeUInt8(2, 9)
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk("IHDR", ihdr),
      chunk("IDAT", deflateSync(Buffer.alloc(1024))),
      chunk("IEND", Buffer.alloc(0))
    ])
  )
}
