/**
 * Codes on pages and embedded e-invoices, as the worker records them: zxing-wasm (`Qr.read` of `@legible/codes`) on
 * a greyscale render, each payload decoded (`Codes.decode` → kind and `Codes.facts`), boxes scaled to points like
 * the words. What cannot be used is never an error of the read: it comes back as an `Ignored` note, which the main
 * thread logs (`reader.ts`).
 *
 * - `greyOf(rgb)`: the luma of an OCR render (the scanned page's pixels, no second render).
 * - `codesIn(image, scale, page)`: the codes zxing reads in `FORMATS` on an image that passes the pre-check of
 *   `finder.ts` (a QR finder or PDF417 start pattern); a payload of no known kind is kept as
 *   `Unknown` with its problems (it is on the page: the detailed read shows it).
 * - `embeddedCode(name, bytes, page, box)`: an attached XML read by `Codes.readInvoiceXml` within its limits; one
 *   that is not an e-invoice (hostile, huge, truncated, foreign) is ignored.
 */
import { Codes, Qr } from "@legible/codes"
import type { Extraction } from "@legible/core"
import { Effect } from "effect"
import { mayHoldCode } from "./finder.js"

/** What was left out, and why (logged by the main thread, never stored). */
export interface Ignored {
  readonly page: number | null
  readonly what: string
  readonly reason: string
}

/** What detection gives for a page or a document: codes kept, and notes on what was not. */
export interface Findings {
  readonly codes: ReadonlyArray<Extraction.ReadCode>
  readonly ignored: ReadonlyArray<Ignored>
}

export const noFindings: Findings = { codes: [], ignored: [] }

/**
 * The formats looked for: those fiscal and payment codes are printed in (QR: AFIP, VeriFactu, SAT, EPC, SUNAT;
 * PDF417: SUNAT's other form). Every other format roughly doubles zxing's time on a page (MEASUREMENTS.md).
 */
export const FORMATS = ["QRCode", "PDF417"] as const

/**
 * Larger images are shrunk by an integer factor before detection: zxing copies them as RGBA into its WASM heap,
 * which never shrinks (16 MP is 64 MB; A4 at 300 DPI is 8.7 MP and passes whole).
 */
export const MAX_DETECTION_PIXELS = 16_000_000

/** Greyscale of RGB rows (BT.601 luma, integer weights), `factor`× smaller by box averaging. */
export const greyOf = (
  rgb: { readonly width: number; readonly height: number; readonly data: Uint8Array },
  factor = 1
): Qr.GreyImage => {
  const width = Math.floor(rgb.width / factor)
  const height = Math.floor(rgb.height / factor)
  const pixels = new Uint8Array(width * height)
  if (factor === 1) {
    const data = rgb.data
    for (let i = 0, at = 0; i < pixels.length; i++, at += 3)
      pixels[i] = (77 * (data[at] ?? 255) + 150 * (data[at + 1] ?? 255) + 29 * (data[at + 2] ?? 255)) >> 8
    return { width, height, pixels }
  }
  const area = factor * factor
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let sum = 0
      for (let dy = 0; dy < factor; dy++) {
        let at = ((y * factor + dy) * rgb.width + x * factor) * 3
        for (let dx = 0; dx < factor; dx++, at += 3)
          sum += 77 * (rgb.data[at] ?? 255) + 150 * (rgb.data[at + 1] ?? 255) + 29 * (rgb.data[at + 2] ?? 255)
      }
      pixels[y * width + x] = (sum / area) >> 8
    }
  return { width, height, pixels }
}

/** The shrink factor that brings `pixels` within `MAX_DETECTION_PIXELS`. */
export const detectionFactor = (pixels: number): number =>
  Math.max(1, Math.ceil(Math.sqrt(pixels / MAX_DETECTION_PIXELS)))

const problemLines = (problems: ReadonlyArray<Codes.Problem>): Array<string> =>
  problems.map(({ kind, member, detail }) => `${kind}${member === null ? "" : ` (${member})`}: ${detail}`)

/** A found code with its decoding, its box in points (`scale` points a pixel). */
export const toCode = (found: Qr.Found, scale: number, page: number): Extraction.ReadCode => {
  const decoded = Codes.decode(found.text, found.format)
  const xs = found.corners.map((corner) => corner.x * scale)
  const ys = found.corners.map((corner) => corner.y * scale)
  return {
    page,
    box: { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) },
    format: found.format,
    text: found.text.slice(0, Codes.RAW_LIMIT),
    kind: decoded._tag,
    facts: Codes.facts(decoded),
    problems: problemLines(decoded.problems)
  }
}

/** The codes in a greyscale image of page `page` at `scale` points a pixel; a decoder failure is a note. */
export const codesIn = (image: Qr.GreyImage, scale: number, page: number): Effect.Effect<Findings> =>
  mayHoldCode(image) ? decodeAll(image, scale, page) : Effect.succeed(noFindings)

/** `codesIn` without the pre-check: zxing on the whole image. */
export const decodeAll = (image: Qr.GreyImage, scale: number, page: number): Effect.Effect<Findings> =>
  Qr.read(image, FORMATS).pipe(
    Effect.map((found): Findings => ({ codes: found.map((code) => toCode(code, scale, page)), ignored: [] })),
    Effect.catch((error) =>
      Effect.succeed<Findings>({ codes: [], ignored: [{ page, what: "code detection", reason: error.message }] })
    )
  )

/** Whether an attachment is XML by its name or its declared type (CFDI, Factur-X, ZUGFeRD, XRechnung). */
export const isXmlAttachment = (name: string, mimeType: string): boolean =>
  /\.xml$/i.test(name.trim()) || /(^|[/+])xml$/i.test(mimeType.trim())

/** An attached XML read as an e-invoice, or the note of why it was ignored. */
export const embeddedCode = (
  name: string,
  bytes: Uint8Array,
  page: number | null,
  box: Extraction.CodeBox | null
): Findings => {
  const what = `embedded:${name}`
  const read = Codes.readInvoiceXml(bytes)
  if (read._tag === "Unknown") {
    return { codes: [], ignored: [{ page, what, reason: problemLines(read.problems).join("; ") }] }
  }
  const text = new TextDecoder().decode(bytes.subarray(0, 4 * Codes.RAW_LIMIT)).slice(0, Codes.RAW_LIMIT)
  return {
    codes: [
      {
        page,
        box,
        format: what,
        text,
        kind: read._tag,
        facts: Codes.facts(read),
        problems: problemLines(read.problems)
      }
    ],
    ignored: []
  }
}

/** Findings of several sources as one. */
export const merge = (all: ReadonlyArray<Findings>): Findings => ({
  codes: all.flatMap((findings) => findings.codes),
  ignored: all.flatMap((findings) => findings.ignored)
})
