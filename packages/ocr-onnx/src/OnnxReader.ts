/**
 * The `DocumentReader` of `@legible/core` on mupdf and onnxruntime, in worker threads: each page is read from its
 * text layer when that is usable, otherwise rendered (~200 DPI) and read by PaddleOCR-format detection and
 * recognition. Words carry ids `p{page}-w{index}` and boxes in PDF points, origin at the page's top-left corner;
 * each page also comes as Markdown, and as an image when `ReadOptions.images` asks (`ocr_pdf`). Failures are
 * `DocumentError`s; a worker that failed or ran over a limit is replaced, so the next read succeeds.
 */
import * as Os from "node:os"
import { type Document, Ports } from "@legible/core"
import { Config, Effect, Layer, Schema, type Scope } from "effect"
import { defaultLimits } from "./internal/mupdf/limits.js"
import { defaultOcrConfig } from "./internal/ocr/config.js"
import * as Ranges from "./internal/options.js"
import * as Reader from "./internal/reader.js"

/** Worker threads: 1 to 256. */
export const PoolSize = Ranges.PoolSize
/** Pages per document: 1 to 100,000. */
export const MaxPages = Ranges.MaxPages
/** The recognizer's arithmetic (`Models.precision`). */
export const Precision = Ranges.Precision
/** A word list that checks the recognizer's marks (`Models.lexicon`). */
export const LexiconLanguage = Ranges.LexiconLanguage
/** A word list's language. */
export type LexiconLanguage = typeof LexiconLanguage.Type
/** The text detector's input size relative to the page render (`Models.detectionScale`): 0.25 to 1. */
export const DetectionScale = Ranges.DetectionScale

/** Model files in PaddleOCR's ONNX format, as paths; any left out are the built-in ones (`models/README.md`). */
export interface Models {
  /** The built-in recognizer: `latin` (default: PP-OCRv4 with a head trained here) or `chinese` (PP-OCRv4's own). */
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
  /** The recognizer's int8 activation ranges (`models/rec_int8.ranges.json`); a dropped-in recognizer has none. */
  readonly recognitionRanges?: string | undefined
  /**
   * `int8`, `float32`, or `auto` (default): int8 where the CPU has an 8-bit dot-product instruction and the
   * recognizer has ranges, since only there is it faster (MEASUREMENTS.md, "int8 recognizer").
   */
  readonly precision?: typeof Precision.Type | undefined
  /**
   * Word lists that check the recognizer's accents and other marks ("fírma" → "firma"), each page against those of
   * its languages. Default `["es", "en", "pt", "fr", "it", "de", "nl"]` with the Latin recognizer, `[]` with
   * the Chinese one. A worker loads each list on the first page that needs it; their cost per worker:
   * MEASUREMENTS.md, "Lexicon".
   */
  readonly lexicon?: ReadonlyArray<LexiconLanguage> | undefined
  /**
   * The text detector's input size relative to the page render, 0.25–1, default 0.5: higher finds smaller print for
   * more CPU and reads noisy low-resolution pages worse (MEASUREMENTS.md, "Detection scale"). Outside 0.25–1,
   * `make` dies with a `RangeError`.
   */
  readonly detectionScale?: number | undefined
  /**
   * Whether the text inside the images of a page read from its text layer is read by OCR too (default `true`): a
   * letterhead's logo, a stamp, a pasted table, which the text layer does not hold. Its words come with the OCR's
   * confidence. The OCR models load in a worker on the first such page.
   */
  readonly imageText?: boolean | undefined
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
  /** A worker is replaced after a document when its JS heap and external memory reached this. Default: 1,536 MB. */
  readonly workerMemoryMb?: number | undefined
  /**
   * A worker is replaced after a document when the process RSS (where onnxruntime's memory shows) reached this.
   * Default: 1,536 MB per worker plus 1,024 MB.
   */
  readonly rssLimitMb?: number | undefined
  /** V8 old-generation heap of each worker; over it the worker dies and the read fails. Default: 512 MB. */
  readonly maxHeapMb?: number | undefined
  /** How long closing the layer waits for reads in progress before stopping them. Default: 10 s. */
  readonly closeGraceMs?: number | undefined
  /** How long a worker asked to stop a read may take to reach a safe point before it is terminated. Default: 5 s. */
  readonly cancelGraceMs?: number | undefined
  /** More pages than this is `TooManyPages`. Default: 500. */
  readonly maxPages?: number | undefined
  /**
   * An image file (or TIFF page) with more pixels is `TooManyPixels`; an image in a PDF with more is left out of its
   * page's renders and the page listed in `degradedPages`. Default: 100 MP.
   */
  readonly maxPixels?: number | undefined
  /** The OCR models; another PaddleOCR-format recognizer and its dictionary can be dropped in here. */
  readonly models?: Models | undefined
}

/** What `Models` left out means with the built-in Latin recognizer. */
export const modelDefaults = {
  recognizer: "latin",
  precision: "auto",
  lexicon: Ranges.defaultLexicon,
  detectionScale: defaultOcrConfig.detScale,
  imageText: true
} as const satisfies Models

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

const check = <A>(schema: Schema.Schema<A>, name: string, value: unknown) => {
  if (value !== undefined && !Schema.is(schema)(value)) throw new RangeError(`${name} is out of range (got ${value})`)
}

/** `Options` with the defaults filled in; a `RangeError` for a value no reader can run with. */
export const settings = (options: Options = {}): Settings => {
  check(PoolSize, "poolSize", options.poolSize)
  check(MaxPages, "maxPages", options.maxPages)
  check(DetectionScale, "models.detectionScale", options.models?.detectionScale)
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
