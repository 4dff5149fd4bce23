/**
 * What the reader's main thread (`reader.ts`) and its worker threads (`worker.ts`) say to each other: the settings
 * a worker starts with, one document to read, and the answer in a compact form (per page: word strings, boxes and
 * confidences in typed arrays, line ends), moved rather than copied between threads.
 */
import { Document, Extraction } from "@legible/core"
import { Schema } from "effect"
import { DetectionScale, LexiconLanguage, Precision } from "./options.js"

const path = Schema.optionalKey(Schema.String)

/** What every worker thread is started with (`workerData`). */
export const WorkerSettings = Schema.Struct({
  limits: Schema.Struct({
    maxPages: Schema.Int,
    maxImagePixels: Schema.Finite,
    maxRenderPixels: Schema.Finite,
    maxRenderSide: Schema.Finite,
    minRenderDpi: Schema.Finite
  }),
  models: Schema.Struct({
    recognizer: Schema.optionalKey(Schema.Literals(["latin", "chinese"])),
    detection: path,
    classifier: path,
    recognition: path,
    dictionary: path,
    recognitionHead: path,
    recognitionRanges: path,
    precision: Schema.optionalKey(Precision),
    lexicon: Schema.optionalKey(Schema.Array(LexiconLanguage)),
    detectionScale: Schema.optionalKey(DetectionScale),
    imageText: Schema.optionalKey(Schema.Boolean)
  })
})
/** What every worker thread is started with. */
export type WorkerSettings = typeof WorkerSettings.Type

const Budget = Schema.Struct({
  maxSide: Schema.Int,
  maxBytes: Schema.Int,
  format: Schema.Literals(["png", "jpeg"])
})

/** One document to read, and the page images wanted (for `ocr_pdf`). */
export const ReadTask = Schema.Struct({ bytes: Schema.Uint8Array, images: Schema.optional(Budget) })
/** One document to read. */
export type ReadTask = typeof ReadTask.Type

/** One page as the worker sends it: 4 box numbers (x0, y0, x1, y1 in points) per word, lines as end indices. */
export const WirePage = Schema.Struct({
  page: Schema.Int,
  width: Schema.Finite,
  height: Schema.Finite,
  source: Schema.Literals(["text", "ocr"]),
  markdown: Schema.String,
  words: Schema.Array(Schema.String),
  boxes: Schema.instanceOf(Float64Array),
  confidences: Schema.instanceOf(Float64Array),
  /** Per word, the confidence in its letters, marks aside (core's `ReadWord.letters`). */
  letters: Schema.instanceOf(Float64Array),
  /** Per word, 1 where it was read from a picture of a text-layer page (core's `ReadWord.pictured`); absent: none. */
  pictured: Schema.optionalKey(Schema.instanceOf(Uint8Array)),
  lineEnds: Schema.instanceOf(Uint32Array)
})
/** One page as the worker sends it. */
export type WirePage = typeof WirePage.Type

const WireImage = Schema.Struct({
  page: Schema.Int,
  mimeType: Schema.Literals(["image/png", "image/jpeg"]),
  bytes: Schema.Uint8Array,
  width: Schema.Int,
  height: Schema.Int
})

/** The worker's answer: the document, or why it could not be read (core's `DocumentError` reasons). */
export const WireResult = Schema.Union([
  Schema.TaggedStruct("Read", {
    mimeType: Schema.String,
    numPages: Schema.Int,
    pages: Schema.Array(WirePage),
    images: Schema.Array(WireImage),
    /** Pages read with part of their content left out, or not read at all, and why. */
    degraded: Schema.Array(Schema.Struct({ page: Schema.Int, reason: Schema.String })),
    /** Codes on the pages (page order) and e-invoices embedded in the file. */
    codes: Schema.Array(Extraction.ReadCode),
    /** Codes and embedded files left out, and why: for the main thread's log, never stored. */
    ignored: Schema.Array(
      Schema.Struct({ page: Schema.NullOr(Schema.Int), what: Schema.String, reason: Schema.String })
    )
  }),
  Schema.TaggedStruct("Refused", { reason: Document.DocumentError.fields.reason, message: Schema.String })
])
/** The worker's answer. */
export type WireResult = typeof WireResult.Type
