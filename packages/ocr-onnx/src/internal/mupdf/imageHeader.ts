/**
 * Image sizes read from file headers, before any decoder runs (pure; no mupdf).
 *
 * `imageFrames(bytes, mimeType, maxFrames)` → the declared pixel size of every frame (TIFF directories; one frame for
 * the other formats), or a string saying why the header cannot be read. A decoder allocates what the header
 * declares, so a 200-byte PNG that declares 100,000 × 100,000 pixels must be refused here, not by mupdf. Multi-image
 * TIFFs stop at `maxFrames + 1` directories so a page-count bomb is seen without walking it all.
 *
 * Formats: PNG, JPEG, GIF, BMP, TIFF (and BigTIFF), PNM/PAM, PSD, JPEG 2000 (JP2/JPX boxes and raw codestreams),
 * JBIG2 (page information segments).
 */

/** A frame's declared size in pixels. */
export interface FrameSize {
  readonly width: number
  readonly height: number
}

/** The declared frames, or why the header could not be read. */
export type FramesResult = { readonly frames: ReadonlyArray<FrameSize> } | { readonly unreadable: string }

const ok = (...frames: Array<FrameSize>): FramesResult => ({ frames })
const bad = (unreadable: string): FramesResult => ({ unreadable })

const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

const png = (bytes: Uint8Array): FramesResult => {
  if (bytes.length < 24) return bad("the PNG header is truncated")
  // The IHDR chunk is required to come first: signature (8), length (4), "IHDR" (4), width, height.
  const v = view(bytes)
  return ok({ width: v.getUint32(16), height: v.getUint32(20) })
}

const jpeg = (bytes: Uint8Array): FramesResult => {
  const v = view(bytes)
  let i = 2
  while (i + 4 <= bytes.length) {
    if (bytes[i] !== 0xff) return bad("the JPEG marker stream is damaged")
    const marker = bytes[i + 1]!
    if (marker === 0xff) {
      i++ // fill byte
      continue
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2 // markers without a length
      continue
    }
    const length = v.getUint16(i + 2)
    // SOF0–SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (i + 9 > bytes.length) break
      return ok({ width: v.getUint16(i + 7), height: v.getUint16(i + 5) })
    }
    if (marker === 0xda || marker === 0xd9) break // scan data or end before any frame header
    i += 2 + length
  }
  return bad("the JPEG has no frame header")
}

const gif = (bytes: Uint8Array): FramesResult =>
  bytes.length < 10
    ? bad("the GIF header is truncated")
    : ok({ width: view(bytes).getUint16(6, true), height: view(bytes).getUint16(8, true) })

const bmp = (bytes: Uint8Array): FramesResult => {
  if (bytes.length < 26) return bad("the BMP header is truncated")
  const v = view(bytes)
  if (v.getUint32(14, true) === 12) return ok({ width: v.getUint16(18, true), height: v.getUint16(20, true) })
  // Negative heights mean top-down rows.
  return ok({ width: Math.abs(v.getInt32(18, true)), height: Math.abs(v.getInt32(22, true)) })
}

const tiff = (bytes: Uint8Array, maxFrames: number): FramesResult => {
  if (bytes.length < 8) return bad("the TIFF header is truncated")
  const v = view(bytes)
  const little = bytes[0] === 0x49
  const big = v.getUint16(2, little) === 43
  const u16 = (at: number) => v.getUint16(at, little)
  const u32 = (at: number) => v.getUint32(at, little)
  const offset = (at: number) => (big ? Number(v.getBigUint64(at, little)) : u32(at))
  const entrySize = big ? 20 : 12
  const countSize = big ? 8 : 2
  const frames: Array<FrameSize> = []
  const seen = new Set<number>()
  let ifd = offset(big ? 8 : 4)
  while (ifd !== 0 && frames.length <= maxFrames) {
    if (seen.has(ifd)) return bad("the TIFF directories form a cycle")
    seen.add(ifd)
    if (ifd + countSize > bytes.length) return bad("a TIFF directory lies past the end of the file")
    const entries = big ? Number(v.getBigUint64(ifd, little)) : u16(ifd)
    const end = ifd + countSize + entries * entrySize
    if (end + (big ? 8 : 4) > bytes.length) return bad("a TIFF directory is truncated")
    let width = -1
    let height = -1
    for (let e = 0; e < entries; e++) {
      const at = ifd + countSize + e * entrySize
      const tag = u16(at)
      if (tag !== 256 && tag !== 257) continue
      const valueAt = at + (big ? 12 : 8)
      const value = u16(at + 2) === 3 ? u16(valueAt) : u32(valueAt) // SHORT or LONG
      if (tag === 256) width = value
      else height = value
    }
    if (width < 0 || height < 0) return bad("a TIFF directory has no image size")
    frames.push({ width, height })
    ifd = offset(end)
  }
  return frames.length === 0 ? bad("the TIFF has no image directory") : { frames }
}

const pnm = (bytes: Uint8Array): FramesResult => {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 512))
  if (head.startsWith("P7")) {
    const width = /\bWIDTH\s+(\d+)/.exec(head)
    const height = /\bHEIGHT\s+(\d+)/.exec(head)
    if (width === null || height === null) return bad("the PAM header has no size")
    return ok({ width: Number(width[1]), height: Number(height[1]) })
  }
  // P1–P6 and PF/Pf: magic, then width and height as decimal tokens, with # comments allowed between tokens.
  const tokens = head
    .slice(2)
    .replace(/#[^\n\r]*/g, " ")
    .trim()
    .split(/\s+/)
  const width = Number(tokens[0])
  const height = Number(tokens[1])
  if (!Number.isInteger(width) || !Number.isInteger(height)) return bad("the PNM header has no size")
  return ok({ width, height })
}

const psd = (bytes: Uint8Array): FramesResult =>
  bytes.length < 22
    ? bad("the PSD header is truncated")
    : ok({ width: view(bytes).getUint32(18), height: view(bytes).getUint32(14) })

const j2kCodestream = (bytes: Uint8Array, at: number): FramesResult => {
  // SOC (FF4F) then SIZ (FF51): Lsiz, Rsiz, Xsiz, Ysiz, XOsiz, YOsiz.
  if (at + 24 > bytes.length || bytes[at] !== 0xff || bytes[at + 1] !== 0x4f || bytes[at + 3] !== 0x51) {
    return bad("the JPEG 2000 codestream has no SIZ marker")
  }
  const v = view(bytes)
  return ok({ width: v.getUint32(at + 8) - v.getUint32(at + 16), height: v.getUint32(at + 12) - v.getUint32(at + 20) })
}

const jp2 = (bytes: Uint8Array): FramesResult => {
  if (bytes[0] === 0xff && bytes[1] === 0x4f) return j2kCodestream(bytes, 0)
  const v = view(bytes)
  // Boxes: length (0 = to the end, 1 = 64-bit length follows), type. The size is in jp2h → ihdr: height, width.
  const find = (from: number, to: number, type: string): { at: number; end: number } | undefined => {
    let at = from
    while (at + 8 <= to) {
      let length = v.getUint32(at)
      let header = 8
      if (length === 1) {
        if (at + 16 > to) return undefined
        length = Number(v.getBigUint64(at + 8))
        header = 16
      } else if (length === 0) length = to - at
      if (length < header) return undefined
      const name = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!)
      if (name === type) return { at: at + header, end: Math.min(at + length, to) }
      at += length
    }
    return undefined
  }
  const header = find(0, bytes.length, "jp2h")
  const ihdr = header && find(header.at, header.end, "ihdr")
  if (ihdr === undefined || ihdr.at + 8 > bytes.length) return bad("the JPEG 2000 file has no image header box")
  return ok({ width: v.getUint32(ihdr.at + 4), height: v.getUint32(ihdr.at) })
}

const jbig2 = (bytes: Uint8Array, maxFrames: number): FramesResult => {
  if (bytes.length < 9) return bad("the JBIG2 header is truncated")
  const v = view(bytes)
  const flags = bytes[8]!
  const sequential = (flags & 1) === 1
  let at = (flags & 2) === 0 ? 13 : 9 // a page count follows the flags when it is known
  const frames: Array<FrameSize> = []
  // Random-access files put every segment header first, then the data in the same order.
  const pending: Array<{ type: number; length: number }> = []
  let dataAt = -1
  while (at + 11 <= bytes.length && frames.length <= maxFrames) {
    const number = v.getUint32(at)
    const segmentFlags = bytes[at + 4]!
    const type = segmentFlags & 0x3f
    let p = at + 5
    let referred = bytes[p]! >> 5
    if (referred === 7) {
      referred = v.getUint32(p) & 0x1fffffff
      p += 4 + Math.ceil((referred + 1) / 8)
    } else p += 1
    p += referred * (number <= 256 ? 1 : number <= 65536 ? 2 : 4)
    p += segmentFlags & 0x40 ? 4 : 1
    if (p + 4 > bytes.length) break
    const length = v.getUint32(p)
    p += 4
    if (length === 0xffffffff) return bad("a JBIG2 segment has an unknown length")
    if (sequential) {
      if (type === 48 && p + 8 <= bytes.length) frames.push({ width: v.getUint32(p), height: v.getUint32(p + 4) })
      at = p + length
    } else {
      pending.push({ type, length })
      at = p
      if (type === 51) {
        dataAt = at // end of file segment: the data starts after its header
        break
      }
    }
  }
  if (!sequential) {
    let d = dataAt < 0 ? at : dataAt
    for (const segment of pending) {
      if (segment.type === 48 && d + 8 <= bytes.length)
        frames.push({ width: v.getUint32(d), height: v.getUint32(d + 4) })
      d += segment.length
    }
  }
  // A striped page of unknown height declares 0xffffffff: counted as such, it is refused as too many pixels.
  return frames.length === 0 ? bad("the JBIG2 file has no page information") : { frames }
}

/** The declared size of each frame of an image file of type `mimeType` (as `sniff` names it). */
export const imageFrames = (bytes: Uint8Array, mimeType: string, maxFrames: number): FramesResult => {
  switch (mimeType) {
    case "image/png":
      return png(bytes)
    case "image/jpeg":
      return jpeg(bytes)
    case "image/gif":
      return gif(bytes)
    case "image/bmp":
      return bmp(bytes)
    case "image/tiff":
      return tiff(bytes, maxFrames)
    case "image/x-portable-anymap":
      return pnm(bytes)
    case "image/vnd.adobe.photoshop":
      return psd(bytes)
    case "image/jp2":
    case "image/jpx":
    case "image/j2c":
      return jp2(bytes)
    case "image/jbig2":
      return jbig2(bytes, maxFrames)
    default:
      return bad(`no header reader for ${mimeType}`)
  }
}
