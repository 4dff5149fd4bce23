/** Tiny image files built byte by byte for the sniffing and header tests (valid where a test opens them). */
import { crc32, deflateSync } from "node:zlib"

const u32be = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]
const u16le = (n: number) => [n & 255, (n >>> 8) & 255]
const u32le = (n: number) => [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255]
const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0))

const chunk = (type: string, data: ReadonlyArray<number>) => {
  const body = [...ascii(type), ...data]
  return [...u32be(data.length), ...body, ...u32be(crc32(Uint8Array.from(body)))]
}

/** A PNG declaring `width` × `height` (8-bit grey) with `rows` of image data (a few bytes: a flood if declared large). */
export const png = (width: number, height: number, rows = height): Uint8Array => {
  const raw = new Uint8Array(rows * (width + 1)) // filter byte 0 then zero pixels
  return Uint8Array.from([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...chunk("IHDR", [...u32be(width), ...u32be(height), 8, 0, 0, 0, 0]),
    ...chunk("IDAT", [...deflateSync(raw)]),
    ...chunk("IEND", [])
  ])
}

/** A 1×1 black GIF declaring a logical screen of `width` × `height`. */
export const gif = (width = 1, height = 1): Uint8Array =>
  Uint8Array.from([
    ...ascii("GIF89a"),
    ...u16le(width),
    ...u16le(height),
    0x80, // global colour table of 2 entries
    0,
    0,
    ...[0, 0, 0, 255, 255, 255],
    0x2c,
    ...u16le(0),
    ...u16le(0),
    ...u16le(1),
    ...u16le(1),
    0,
    2, // LZW minimum code size
    2,
    0x44,
    0x01,
    0,
    0x3b
  ])

/** A `width` × `height` white 24-bit BMP (height negative: top-down rows). */
export const bmp = (width: number, height: number): Uint8Array => {
  const row = Math.ceil((width * 3) / 4) * 4
  const pixels = new Array(row * height).fill(255)
  return Uint8Array.from([
    ...ascii("BM"),
    ...u32le(54 + pixels.length),
    ...u32le(0),
    ...u32le(54),
    ...u32le(40),
    ...u32le(width),
    ...u32le(-height >>> 0),
    ...u16le(1),
    ...u16le(24),
    ...u32le(0),
    ...u32le(pixels.length),
    ...u32le(2835),
    ...u32le(2835),
    ...u32le(0),
    ...u32le(0),
    ...pixels
  ])
}

/** A binary PGM (P5) of `width` × `height` white pixels. */
export const pgm = (width: number, height: number): Uint8Array =>
  Uint8Array.from([...ascii(`P5\n# made by a test\n${width} ${height}\n255\n`), ...new Array(width * height).fill(255)])

/** A little-endian TIFF with one directory per size (ImageWidth, ImageLength only: for the header reader). */
export const tiffHeaders = (sizes: ReadonlyArray<readonly [number, number]>): Uint8Array => {
  const bytes: Array<number> = [...ascii("II"), ...u16le(42), ...u32le(8)]
  for (const [i, [width, height]] of sizes.entries()) {
    const next = i === sizes.length - 1 ? 0 : bytes.length + 2 + 2 * 12 + 4
    bytes.push(...u16le(2))
    bytes.push(...u16le(256), ...u16le(4), ...u32le(1), ...u32le(width))
    bytes.push(...u16le(257), ...u16le(4), ...u32le(1), ...u32le(height))
    bytes.push(...u32le(next))
  }
  return Uint8Array.from(bytes)
}

/** A JPEG start (SOI, APP0, SOF0) declaring `width` × `height`, without image data. */
export const jpegHeader = (width: number, height: number): Uint8Array =>
  Uint8Array.from([
    0xff,
    0xd8,
    ...[0xff, 0xe0, 0, 16, ...ascii("JFIF"), 0, 1, 1, 0, 0, 1, 0, 1, 0, 0],
    ...[0xff, 0xc0, 0, 11, 8, (height >> 8) & 255, height & 255, (width >> 8) & 255, width & 255, 1, 1, 0x11, 0]
  ])

/** A PSD header declaring `width` × `height`. */
export const psdHeader = (width: number, height: number): Uint8Array =>
  Uint8Array.from([...ascii("8BPS"), 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, ...u32be(height), ...u32be(width), 0, 8, 0, 3])

/** A JP2 signature, file type and header boxes declaring `width` × `height`. */
export const jp2Header = (width: number, height: number): Uint8Array => {
  const box = (type: string, data: ReadonlyArray<number>) => [...u32be(8 + data.length), ...ascii(type), ...data]
  return Uint8Array.from([
    ...[0, 0, 0, 12, ...ascii("jP  "), 0x0d, 0x0a, 0x87, 0x0a],
    ...box("ftyp", [...ascii("jp2 "), 0, 0, 0, 0, ...ascii("jp2 ")]),
    ...box("jp2h", box("ihdr", [...u32be(height), ...u32be(width), 0, 3, 7, 7, 0, 0]))
  ])
}

/** A sequential JBIG2 file whose page information segment declares `width` × `height`. */
export const jbig2Header = (width: number, height: number): Uint8Array =>
  Uint8Array.from([
    ...[0x97, 0x4a, 0x42, 0x32, 0x0d, 0x0a, 0x1a, 0x0a, 0x01, ...u32be(1)],
    ...[...u32be(0), 48, 0, 1, ...u32be(19), ...u32be(width), ...u32be(height), ...u32be(0), ...u32be(0), 0, 0, 0]
  ])
