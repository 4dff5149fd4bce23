/**
 * What a provider sends of a document, per extraction mode, as provider-neutral parts, split into requests that
 * stay within a byte budget (images count their base64 size), an image count and a text budget (the model's
 * context). Splitting is by whole pages, in order; a single page over the budget loses its image (its text stays),
 * and a page whose text alone is over the text budget is cut at line boundaries.
 */
import type { Document, Extractor } from "@legible/core"

/** One piece of content: text, an image (base64) or the original PDF (base64). */
export type Part =
  | { readonly _tag: "Text"; readonly text: string }
  | { readonly _tag: "Image"; readonly mimeType: "image/png" | "image/jpeg"; readonly base64: string }
  | { readonly _tag: "Pdf"; readonly base64: string }

/** The content of one request: a range of pages (or the whole original) and its parts. */
export interface Chunk {
  /** First and last page covered (1-based, inclusive). */
  readonly pages: readonly [number, number]
  readonly parts: ReadonlyArray<Part>
}

/** Limits of one request's document content. */
export interface Budget {
  /** Bytes of document content per request (base64 images and PDFs, UTF-8 text). */
  readonly maxBytes: number
  /** Images per request. */
  readonly maxImages: number
  /** Characters of text per request (the context window, roughly 4 characters a token). */
  readonly maxChars: number
}

/** What the provider accepts besides text and images. */
export interface Capabilities {
  /** Whether a PDF can be sent as such (`pdf_only`); otherwise `pdf_only` sends the pages' text. */
  readonly pdf: boolean
}

/** The text of a page: words joined by spaces, lines by newlines. */
export const pageText = (page: Document.ReadPage): string =>
  page.lines.map((line) => line.words.map((w) => w.word).join(" ")).join("\n")

const utf8 = (text: string): number => Buffer.byteLength(text, "utf8")

const base64 = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")

/** A page's content before packing: an optional image and a text. */
interface Unit {
  readonly page: number
  readonly image: Extract<Part, { _tag: "Image" }> | undefined
  readonly text: string
}

const unitBytes = (u: Unit): number => (u.image === undefined ? 0 : u.image.base64.length) + utf8(u.text)

/** Cuts a text into pieces of at most `max` characters, at line boundaries where possible. */
export const cutText = (text: string, max: number): ReadonlyArray<string> => {
  const pieces: Array<string> = []
  let current = ""
  for (const line of text.split("\n")) {
    for (let i = 0; i < Math.max(1, line.length); i += max) {
      const slice = line.slice(i, i + max)
      const joined = current === "" ? slice : `${current}\n${slice}`
      if (joined.length > max && current !== "") {
        pieces.push(current)
        current = slice
      } else current = joined
    }
  }
  if (current !== "" || pieces.length === 0) pieces.push(current)
  return pieces
}

const header = (page: number, label: string, body: string) => `--- Page ${page} (${label}) ---\n${body}`

const units = (request: Extractor.ExtractRequest): ReadonlyArray<Unit> => {
  const { document, mode } = request
  const images = new Map(document.images.map((image) => [image.page, image]))
  return document.pages.map((page): Unit => {
    const image = mode === "ocr_pdf" ? images.get(page.page) : undefined
    const body =
      mode === "ocr_pipeline_md"
        ? header(page.page, "Markdown", page.markdown)
        : header(page.page, mode === "ocr_pdf" ? "OCR text" : "text", pageText(page))
    return {
      page: page.page,
      image: image === undefined ? undefined : { _tag: "Image", mimeType: image.mimeType, base64: base64(image.bytes) },
      text: body
    }
  })
}

const toParts = (group: ReadonlyArray<Unit>): ReadonlyArray<Part> =>
  group.flatMap(
    (u): ReadonlyArray<Part> => [...(u.image === undefined ? [] : [u.image]), { _tag: "Text", text: u.text }]
  )

/** Packs page units greedily, in order, into chunks within the budget. */
const pack = (all: ReadonlyArray<Unit>, budget: Budget): Array<Chunk> => {
  const chunks: Array<Chunk> = []
  let group: Array<Unit> = []
  let bytes = 0
  let images = 0
  let chars = 0
  const flush = () => {
    const first = group[0]
    const last = group[group.length - 1]
    if (first !== undefined && last !== undefined)
      chunks.push({ pages: [first.page, last.page], parts: toParts(group) })
    group = []
    bytes = 0
    images = 0
    chars = 0
  }
  for (const original of all) {
    // A page whose image alone breaks the budget goes without it: its text still reaches the model.
    const unit =
      original.image !== undefined && unitBytes(original) > budget.maxBytes
        ? { ...original, image: undefined }
        : original
    const pieces =
      unit.text.length > budget.maxChars || utf8(unit.text) > budget.maxBytes
        ? cutText(unit.text, Math.min(budget.maxChars, Math.floor(budget.maxBytes / 4))).map((text, i) => ({
            ...unit,
            image: i === 0 ? unit.image : undefined,
            text
          }))
        : [unit]
    for (const piece of pieces) {
      const pieceImages = piece.image === undefined ? 0 : 1
      if (
        group.length > 0 &&
        (bytes + unitBytes(piece) > budget.maxBytes ||
          images + pieceImages > budget.maxImages ||
          chars + piece.text.length > budget.maxChars)
      )
        flush()
      group.push(piece)
      bytes += unitBytes(piece)
      images += pieceImages
      chars += piece.text.length
    }
  }
  flush()
  return chunks
}

/**
 * The requests' content for an extraction: `ocr_pdf` page images with their OCR text, `ocr_only` the text,
 * `ocr_pipeline_md` the pages' Markdown, `pdf_only` the original PDF (or image) as is when the provider takes it
 * and it fits the budget, else the pages' text.
 */
export const chunks = (
  request: Extractor.ExtractRequest,
  budget: Budget,
  capabilities: Capabilities
): ReadonlyArray<Chunk> => {
  if (request.mode === "pdf_only") {
    const encoded = base64(request.original)
    const last = Math.max(1, request.document.numPages)
    const mime = request.document.mimeType
    if (encoded.length <= budget.maxBytes) {
      if (mime === "application/pdf" && capabilities.pdf)
        return [{ pages: [1, last], parts: [{ _tag: "Pdf", base64: encoded }] }]
      if (mime === "image/png" || mime === "image/jpeg")
        return [{ pages: [1, last], parts: [{ _tag: "Image", mimeType: mime, base64: encoded }] }]
    }
    return pack(units({ ...request, mode: "ocr_only" }), budget)
  }
  return pack(units(request), budget)
}
