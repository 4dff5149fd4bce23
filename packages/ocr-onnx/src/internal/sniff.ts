/**
 * Document type sniffing from magic numbers, without mupdf: the main thread (`reader.ts`, and through the reader the
 * HTTP layer's upload checks) sniffs every upload, and importing mupdf would load its WASM there for nothing.
 *
 * `sniff(bytes)` → the type from magic numbers (`file-type`, plus PNM and JBIG2, which it does not know), never a
 * file name. Accepted: PDF and the image types this mupdf build decodes (PNG, JPEG, TIFF, GIF, BMP, PNM/PAM, PSD,
 * JPEG 2000, JBIG2). Anything else (HTML, ZIP, executables, text, WebP, HEIC…) is `UnsupportedType`.
 *
 * A PDF whose `%PDF-` header is missing, damaged or pushed past the first KiB by junk is still a PDF when its body
 * has PDF structure: an indirect object (`12 0 obj`) closed by `endobj`. mupdf repairs such files (it rebuilds the
 * cross-reference table by scanning for objects), so they are handed to it; random bytes, HTML, ZIP and the like
 * carry no such pair and are refused here as before, without mupdf ever seeing them.
 */
import type { Document } from "@legible/core"
import { Effect } from "effect"
import { fileTypeFromBuffer } from "file-type"
import { documentError as fail } from "./mupdf/errors.js"

/** A sniffed, supported type: the MIME type reported to callers, and whether mupdf opens it as a PDF. */
export interface Sniffed {
  readonly mimeType: string
  readonly kind: "pdf" | "image"
}

// Image types as file-type names them → the name mupdf's image handler accepts (it then recognises the bytes).
export const imageTypes: Readonly<Record<string, string>> = {
  "image/png": "image/png",
  "image/apng": "image/png",
  "image/jpeg": "image/jpeg",
  "image/tiff": "image/tiff",
  "image/gif": "image/gif",
  "image/bmp": "image/bmp",
  "image/vnd.adobe.photoshop": "image/vnd.adobe.photoshop",
  "image/jp2": "image/jp2",
  "image/jpx": "image/jp2",
  "image/j2c": "image/jp2",
  "image/x-portable-anymap": "pnm",
  "image/jbig2": "jbig2"
}

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>, at = 0): boolean =>
  prefix.every((b, i) => bytes[at + i] === b)

// file-type knows neither netpbm nor standalone JBIG2.
const sniffExtra = (bytes: Uint8Array): string | undefined => {
  if (startsWith(bytes, [0x97, 0x4a, 0x42, 0x32, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/jbig2"
  const second = bytes[1] ?? 0
  const separator = bytes[2] ?? 0
  const isPnmDigit = (second >= 0x31 && second <= 0x37) || second === 0x46 || second === 0x66 // 1–7, F, f
  if (bytes[0] === 0x50 && isPnmDigit && (separator === 0x0a || separator === 0x0d || separator === 0x20)) {
    return "image/x-portable-anymap"
  }
  return undefined
}

// The PDF specification lets readers accept "%PDF-" anywhere in the first 1024 bytes (junk before the header).
const hasPdfHeader = (bytes: Uint8Array): boolean => {
  const head = bytes.subarray(0, 1024)
  for (let i = head.indexOf(0x25); i >= 0 && i + 5 <= head.length; i = head.indexOf(0x25, i + 1)) {
    if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d], i)) return true
  }
  return false
}

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39
const isPdfSpace = (b: number | undefined): boolean =>
  b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09 || b === 0x0c || b === 0x00

// Whether "obj" at `at` ends an indirect object header: digits, white space, digits, white space, "obj".
const endsObjectHeader = (bytes: Uint8Array, at: number): boolean => {
  let i = at - 1
  if (!isPdfSpace(bytes[i])) return false
  while (isPdfSpace(bytes[i])) i--
  if (!isDigit(bytes[i])) return false
  while (isDigit(bytes[i])) i--
  if (!isPdfSpace(bytes[i])) return false
  while (isPdfSpace(bytes[i])) i--
  return isDigit(bytes[i])
}

// Where the first object header must start, and how many "obj" words are looked at before giving up: this runs on
// the main thread for every upload, so a hostile file of "obj" words must not hold it (≈ 1 ms at these bounds).
const OBJECT_WINDOW = 1024 * 1024
const OBJECT_CANDIDATES = 1000

/**
 * Whether the bytes hold an indirect object header (`1 0 obj`) in their first MiB, followed somewhere by `endobj`.
 * Two byte searches, no allocation beyond a view: 40 MiB of random bytes take ≈ 7 ms.
 */
export const hasPdfBody = (bytes: Uint8Array): boolean => {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = buffer.indexOf("obj", 0, "latin1")
  for (let seen = 0; at >= 0 && at < OBJECT_WINDOW && seen < OBJECT_CANDIDATES; seen++) {
    const isEnd = bytes[at - 1] === 0x64 && bytes[at - 2] === 0x6e && bytes[at - 3] === 0x65 // "endobj"
    if (!isEnd && endsObjectHeader(bytes, at)) return buffer.indexOf("endobj", at + 3, "latin1") >= 0
    at = buffer.indexOf("obj", at + 3, "latin1")
  }
  return false
}

/** The type of a document from its first bytes, or `UnsupportedType`. */
export const sniff = (bytes: Uint8Array): Effect.Effect<Sniffed, Document.DocumentError> =>
  Effect.gen(function* () {
    if (bytes.length === 0) return yield* fail("UnsupportedType", "the document is empty")
    const detected = yield* Effect.promise(() => fileTypeFromBuffer(bytes).catch(() => undefined))
    const mimeType =
      detected?.mime ?? sniffExtra(bytes) ?? (hasPdfHeader(bytes) || hasPdfBody(bytes) ? "application/pdf" : undefined)
    if (mimeType === "application/pdf") return { mimeType, kind: "pdf" } as const
    if (mimeType !== undefined && imageTypes[mimeType] !== undefined) {
      return { mimeType: mimeType === "image/apng" ? "image/png" : mimeType, kind: "image" } as const
    }
    return yield* fail(
      "UnsupportedType",
      mimeType === undefined
        ? "the document is not a PDF or a supported image (its type is not recognised from its content)"
        : `documents of type ${mimeType} are not supported (PDF, PNG, JPEG, TIFF, GIF, BMP, PNM, PSD, JPEG 2000, JBIG2 are)`
    )
  })
