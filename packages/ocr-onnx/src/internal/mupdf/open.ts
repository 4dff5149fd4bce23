/**
 * Opening documents with mupdf, with typed errors and limits. Runs inside a worker thread.
 *
 * - `openDocument(bytes, limits)` → sniffs the type (`../sniff.ts`, which stays free of mupdf for the main thread),
 *   then a scoped `OpenedDocument` (the mupdf Document is destroyed when the scope
 *   closes): `Encrypted` (a password is needed; an empty user password is tried, and a PDF that only encrypts its
 *   attachments opens), `Corrupt` (mupdf cannot open it, or a damaged file yields no pages), `NoPages`,
 *   `TooManyPages` (counted before any page loads), `TooManyPixels` (image headers read before decoding: an image
 *   file whose every frame declares over the cap; the oversized frames of a multi-page TIFF are `oversizedPages`,
 *   for the caller to skip without loading them).
 * - `withPage(document, index, use)` loads page `index` (0-based), runs `use`, destroys the page; whatever mupdf
 *   throws on the way becomes `Corrupt`. A PDF page whose Flate content streams inflate beyond
 *   `MAX_PAGE_CONTENT_BYTES` (a decompression bomb: 1 GB of content from 1 MB) is `Corrupt` before mupdf parses it,
 *   in milliseconds, instead of tying the worker up until the page time limit.
 */
import { inflateSync, constants as zlib } from "node:zlib"
import type { Document } from "@legible/core"
import { Effect, type Scope } from "effect"
import * as mupdf from "mupdf"
import { imageTypes, type Sniffed, sniff } from "../sniff.js"
import { attempt, documentError as fail } from "./errors.js"
import { type FrameSize, imageFrames } from "./imageHeader.js"
import type { Limits } from "./limits.js"

// mupdf reports recoverable damage (repaired xref, bad fonts) through this hook, by default on the console of the
// worker: the outcome that matters reaches the caller as a value or a typed error instead.
mupdf.setLog({ error: () => undefined, warning: () => undefined })

/** An open document: the mupdf handle (owned by the scope), its type and its page count. */
export interface OpenedDocument {
  readonly document: mupdf.Document
  readonly mimeType: string
  readonly kind: "pdf" | "image"
  readonly numPages: number
  /** Pages (0-based) of an image file whose frame declares over the pixel cap: never to be loaded. */
  readonly oversizedPages: ReadonlyMap<number, FrameSize>
}

// A PDF whose Encrypt dictionary only protects embedded files (StmF and StrF are Identity, the default) has
// readable pages even without the password.
const onlyAttachmentsEncrypted = (pdf: mupdf.PDFDocument): boolean => {
  const trailer = pdf.getTrailer()
  const encrypt = trailer.get("Encrypt").resolve()
  const identity = (key: string) => {
    const filter = encrypt.get(key)
    const result = filter.isNull() || (filter.isName() && filter.asName() === "Identity")
    filter.destroy()
    return result
  }
  const version = encrypt.get("V")
  const result = version.isNumber() && version.asNumber() >= 4 && identity("StmF") && identity("StrF")
  version.destroy()
  encrypt.destroy()
  trailer.destroy()
  return result
}

// An empty page tree is a document without pages; a catalog whose /Pages is not a page tree node is damage.
const hasPageTree = (pdf: mupdf.PDFDocument): boolean => {
  const trailer = pdf.getTrailer()
  const type = trailer.get("Root", "Pages", "Type")
  const result = type.isName() && type.asName() === "Pages"
  type.destroy()
  trailer.destroy()
  return result
}

// The frames over the cap, by page index; refused when every frame is (nothing of the file could be read).
const checkImageHeader = (bytes: Uint8Array, mimeType: string, limits: Limits) =>
  Effect.gen(function* () {
    const result = imageFrames(bytes, mimeType, limits.maxPages)
    if ("unreadable" in result) return yield* fail("Corrupt", `the image cannot be read: ${result.unreadable}`)
    if (result.frames.length > limits.maxPages) {
      return yield* fail("TooManyPages", `the image has more than ${limits.maxPages} pages (the limit)`)
    }
    const oversized = new Map<number, FrameSize>()
    for (const [i, frame] of result.frames.entries()) {
      if (frame.width * frame.height > limits.maxImagePixels) oversized.set(i, frame)
    }
    if (oversized.size > 0 && oversized.size === result.frames.length) {
      const { width, height } = oversized.get(0)!
      return yield* fail(
        "TooManyPixels",
        `${result.frames.length > 1 ? `every page of the image is over the limit; page 1 ` : "the image "}` +
          `declares ${width} × ${height} pixels, over the limit of ${limits.maxImagePixels / 1e6} megapixels`
      )
    }
    return oversized
  })

const countPages = (document: mupdf.Document, limits: Limits) =>
  Effect.gen(function* () {
    const count = yield* attempt(() => document.countPages(), "the page tree is damaged")
    if (count > limits.maxPages) {
      return yield* fail("TooManyPages", `the document has ${count} pages, over the limit of ${limits.maxPages}`)
    }
    if (count > 0) return count
    const pdf = document.asPDF()
    const intact =
      pdf !== null && !pdf.wasRepaired() && (yield* attempt(() => hasPageTree(pdf), "the catalog is damaged"))
    return yield* intact
      ? fail("NoPages", "the document has no pages")
      : fail("Corrupt", "the document is damaged and no page could be recovered")
  })

const open = (bytes: Uint8Array, sniffed: Sniffed, limits: Limits) =>
  Effect.gen(function* () {
    const oversizedPages =
      sniffed.kind === "image" ? yield* checkImageHeader(bytes, sniffed.mimeType, limits) : new Map<number, FrameSize>()
    const magic = sniffed.kind === "pdf" ? "application/pdf" : imageTypes[sniffed.mimeType]!
    const document = yield* attempt(() => mupdf.Document.openDocument(bytes, magic), "the document cannot be opened")
    const checked = Effect.gen(function* () {
      const locked = yield* attempt(
        () => document.needsPassword() && document.authenticatePassword("") === 0,
        "the encryption dictionary is damaged"
      )
      if (locked) {
        const pdf = document.asPDF()
        const readable =
          pdf !== null && (yield* attempt(() => onlyAttachmentsEncrypted(pdf), "the encryption dictionary is damaged"))
        if (!readable) {
          return yield* fail("Encrypted", "the document is encrypted and needs a password")
        }
      }
      const numPages = yield* countPages(document, limits)
      return { document, mimeType: sniffed.mimeType, kind: sniffed.kind, numPages, oversizedPages }
    })
    // On any refusal the handle is freed here; on success the caller's scope owns it.
    return yield* Effect.onError(checked, () => Effect.sync(() => document.destroy()))
  })

/** Opens a document (type sniffed from the bytes) within `limits`; the mupdf handle is destroyed with the scope. */
export const openDocument = (
  bytes: Uint8Array,
  limits: Limits
): Effect.Effect<OpenedDocument, Document.DocumentError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.flatMap(sniff(bytes), (sniffed) => open(bytes, sniffed, limits)),
    (opened) => Effect.sync(() => opened.document.destroy())
  )

/**
 * The most a PDF page's content streams may inflate to: 64 MiB. Real pages stay far below (a dense vector drawing
 * is a few MB); mupdf would otherwise lex every byte of a bomb, a 1 GB stream for minutes.
 */
export const MAX_PAGE_CONTENT_BYTES = 64 * 1024 * 1024

const isFlate = (name: mupdf.PDFObject): boolean =>
  name.isName() && (name.asName() === "FlateDecode" || name.asName() === "Fl")

/**
 * How many times a stream is Flate-compressed, when Flate is its only filter (nested Flate included); 0 otherwise:
 * other filters are left to mupdf (a damaged or exotic stream is its call, not this guard's).
 */
export const flateLayers = (stream: mupdf.PDFObject): number => {
  const filter = stream.get("Filter")
  const names = filter.isArray() ? Array.from({ length: filter.length }, (_, i) => filter.get(i)) : [filter]
  const layers = names.length > 0 && names.every(isFlate) ? names.length : 0
  for (const name of names) name.destroy()
  if (filter.isArray()) filter.destroy()
  return layers
}

/** Inflates up to `cap` bytes; `undefined` when the data goes beyond it, the bytes inflated so far when damaged. */
export const inflateAtMost = (data: Uint8Array, cap: number): Uint8Array | undefined => {
  try {
    return inflateSync(data, { maxOutputLength: Math.max(1, cap), finishFlush: zlib.Z_SYNC_FLUSH })
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ERR_BUFFER_TOO_LARGE") return undefined
    return new Uint8Array(0)
  }
}

/** Whether the Flate content streams of PDF page `index` inflate to more than `cap` bytes in all. */
export const contentOverflows = (pdf: mupdf.PDFDocument, index: number, cap: number): boolean => {
  const page = pdf.findPage(index)
  // Not resolved: a stream's data is reached through its indirect reference (a resolved copy is the dictionary).
  const contents = page.get("Contents")
  const streams = contents.isArray() ? Array.from({ length: contents.length }, (_, i) => contents.get(i)) : [contents]
  let total = 0
  let over = false
  for (const stream of streams) {
    if (over || !stream.isStream()) continue
    const layers = flateLayers(stream)
    if (layers === 0) continue
    const raw = stream.readRawStream()
    let data: Uint8Array | undefined = raw.asUint8Array()
    for (let layer = 0; layer < layers && data !== undefined; layer++) data = inflateAtMost(data, cap - total + 1)
    raw.destroy()
    if (data === undefined) over = true
    else total += data.length
    if (total > cap) over = true
  }
  for (const stream of streams) stream.destroy()
  if (contents.isArray()) contents.destroy()
  page.destroy()
  return over
}

const checkContent = (opened: OpenedDocument, index: number): Effect.Effect<void, Document.DocumentError> => {
  const pdf = opened.kind === "pdf" ? opened.document.asPDF() : null
  if (pdf === null) return Effect.void
  return Effect.flatMap(
    attempt(() => contentOverflows(pdf, index, MAX_PAGE_CONTENT_BYTES), `page ${index + 1} cannot be loaded`),
    (over) =>
      over
        ? Effect.fail(
            fail(
              "Corrupt",
              `page ${index + 1}: its content inflates beyond ${MAX_PAGE_CONTENT_BYTES / 1024 / 1024} MB ` +
                "(a decompression bomb)"
            )
          )
        : Effect.void
  )
}

/** Loads page `index` (0-based), runs `use` on it and destroys it; a mupdf failure is `Corrupt`. */
export const withPage = <A>(
  opened: OpenedDocument,
  index: number,
  use: (page: mupdf.Page) => Effect.Effect<A, Document.DocumentError>
): Effect.Effect<A, Document.DocumentError> =>
  Effect.acquireUseRelease(
    Effect.andThen(
      checkContent(opened, index),
      attempt(() => opened.document.loadPage(index), `page ${index + 1} cannot be loaded`)
    ),
    (page) =>
      Effect.flatMap(
        attempt(() => use(page), `page ${index + 1} cannot be read`),
        (effect) => effect
      ),
    (page) => Effect.sync(() => page.destroy())
  )
