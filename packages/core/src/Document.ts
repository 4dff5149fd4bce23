import { Schema } from "effect"
import type { CodeFacts, DegradedPage, ReadCode, Word } from "./Extraction.js"

// Defined with the stored result (`Extraction.ts`), which keeps them, as `DegradedPage` is.
export type { CodeFacts, ReadCode }

/**
 * Why a document could not be read. `permanent` failures (the file itself is the problem) are never retried;
 * the others (a crashed or timed-out worker) may succeed on another attempt.
 */
export class DocumentError extends Schema.TaggedError<DocumentError>()("DocumentError", {
  reason: Schema.Literals([
    "UnsupportedType",
    "Encrypted",
    "Corrupt",
    "NoPages",
    "TooManyPages",
    "TooManyPixels",
    "TimeLimit",
    "WorkerFailed"
  ]),
  message: Schema.String
}) {
  /** Whether another attempt on the same bytes cannot succeed. */
  get permanent(): boolean {
    return this.reason !== "TimeLimit" && this.reason !== "WorkerFailed"
  }
}

/** An OCR or text-layer word: the spec's word (2.7) plus the reader's confidence (1 for text layers). */
export interface ReadWord extends Word {
  readonly confidence: number
  /**
   * The reader's confidence in the word's letters, their marks aside where the page settles them: of its least sure
   * character, what the recognizer gave that letter with any of its marks ("A", "Á", "Ä"…) where none of the page's
   * languages (if it tells any) writes a mark on it or its word lists hold the word, else the character's own
   * probability; with what the word settles summed in (a letter's other case in a word of one case and there the
   * stroke `I` and `l` share, the `O` of a `0` between figures, a comma for a full stop not between figures). At least
   * `confidence`; absent, the same as it (text layers, readers that do not tell).
   */
  readonly letters?: number | undefined
  /**
   * Read by OCR from a picture on a page read from its text layer (a letterhead's logo, a stamp): `true`; absent on
   * the text layer's own words and on pages read by OCR.
   */
  readonly pictured?: true | undefined
}

/** A line of words in reading order. */
export interface ReadLine {
  readonly words: ReadonlyArray<ReadWord>
}

/**
 * One page as read. Coordinates are PDF points (1/72 inch) with the origin at the top-left corner of the page as
 * displayed (after `/Rotate`); images count 1 pixel of their 200-DPI-equivalent render as 72/200 points.
 */
export interface ReadPage {
  /** 1-based page number. */
  readonly page: number
  readonly width: number
  readonly height: number
  /** Where the words came from. */
  readonly source: "text" | "ocr"
  /** Lines in reading order; their words in reading order. */
  readonly lines: ReadonlyArray<ReadLine>
  /** The page rendered as Markdown that keeps the layout (lines; tables where columns line up). */
  readonly markdown: string
}

/** A page image for vision models. */
export interface PageImage {
  readonly page: number
  readonly mimeType: "image/png" | "image/jpeg"
  readonly bytes: Uint8Array
  readonly width: number
  readonly height: number
}

/** A document as read: pages of words in reading order, the full text and what the extraction modes need. */
export interface ReadDocument {
  /** The type sniffed from the bytes. */
  readonly mimeType: string
  readonly numPages: number
  readonly pages: ReadonlyArray<ReadPage>
  /** The text in reading order: words joined by spaces, lines by `\n`, pages by a blank line. */
  readonly fullText: string
  /** Page images (only when asked for, e.g. for `ocr_pdf`). */
  readonly images: ReadonlyArray<PageImage>
  /**
   * Pages read with part of their content left out, in page order; absent or empty when none. A page that could
   * not be read at all is listed here and missing from `pages`.
   */
  readonly degradedPages?: ReadonlyArray<DegradedPage>
  /**
   * The machine-readable codes found: barcodes and QR codes on the pages (in page order) and e-invoices embedded in
   * the file, each with what it decoded to; absent or empty when none.
   */
  readonly codes?: ReadonlyArray<ReadCode>
}

/** What a read must produce besides the words. */
export interface ReadOptions {
  /** Render page images within this budget (for `ocr_pdf`). */
  readonly images?: {
    readonly maxSide: number
    readonly maxBytes: number
    readonly format: "png" | "jpeg"
  }
}
