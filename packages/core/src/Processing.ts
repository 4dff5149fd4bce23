/**
 * The processing use case: the job handler a worker runs for each claimed extraction. It reads the document, asks
 * the extractor for the skill's literals, matches catalog fields, grounds and parses every value and assembles the
 * stored result (DESIGN.md "The flow of one extraction", step 2). Written against the ports only.
 */
import { Clock, Effect } from "effect"
import { DEFAULT_DATE_FLOOR } from "./Checks.js"
import type * as Confidence from "./Confidence.js"
import type { DocumentError, ReadDocument, ReadOptions } from "./Document.js"
import type { StorageError } from "./Errors.js"
import type { ExtractionResult, Mode, Word } from "./Extraction.js"
import type { ExtractorError, ExtractResponse } from "./Extractor.js"
import type { CatalogValue } from "./Field.js"
import * as Assembly from "./internal/assembly.js"
import * as Assessment from "./internal/assessment.js"
import { fitted } from "./internal/confidenceModel.js"
import * as Grounding from "./internal/grounding.js"
import {
  CatalogMatcher,
  DocumentReader,
  DocumentStore,
  ExtractionStore,
  FieldExtractor,
  type Lease,
  SkillStore
} from "./Ports.js"
import type { Skill, SkillField } from "./Skill.js"
import { JobFailure, type JobHandler } from "./Worker.js"

/** Settings of processing. */
export interface ProcessingOptions {
  /** The page images rendered for `ocr_pdf` (the vision models' budget). */
  readonly images: NonNullable<ReadOptions["images"]>
  readonly grounding: Grounding.GroundingOptions
  /** Catalog searches run at once for one extraction. */
  readonly catalogConcurrency: number
  /** The model that turns a value's signals into its confidence (default: the one fitted on labelled documents). */
  readonly confidence: Confidence.Model
  /** Dates before this (`YYYY-MM-DD`) fail their plausibility check. */
  readonly dateFloor: string
}

/**
 * The defaults: images of at most 1568 px on the long side (Anthropic's recommended size; OpenAI's high detail
 * scales to 2048 anyway) and 3.75 MB (5 MB once base64-encoded), as JPEG.
 */
export const defaultOptions: ProcessingOptions = {
  images: { maxSide: 1568, maxBytes: 3_750_000, format: "jpeg" },
  grounding: Grounding.defaultOptions,
  catalogConcurrency: 4,
  confidence: fitted,
  dateFloor: DEFAULT_DATE_FLOOR
}

/** The ports processing runs against. */
export type Services = ExtractionStore | DocumentStore | SkillStore | DocumentReader | FieldExtractor | CatalogMatcher

/** The words of a read document by page number (spec 2.7 `words`), without the reader's confidence; every page. */
export const wordsByPage = (document: ReadDocument): Record<string, Array<Word>> => {
  const words: Record<string, Array<Word>> = {}
  for (const p of document.pages) {
    words[String(p.page)] = p.lines.flatMap((line) =>
      line.words.map(({ id, word, x0, y0, x1, y1, page }) => ({ id, word, x0, y0, x1, y1, page }))
    )
  }
  return words
}

const permanent = (message: string) => new JobFailure({ permanent: true, message })

const fromStorage = (e: StorageError) => new JobFailure({ permanent: false, message: `storage: ${e.message}` })

const fromDocument = (e: DocumentError) =>
  new JobFailure({ permanent: e.permanent, message: `the document could not be read (${e.reason}): ${e.message}` })

const fromExtractor = (e: ExtractorError) =>
  new JobFailure({ permanent: e.permanent, message: `field extraction failed (${e.reason}): ${e.message}` })

const toJobFailure = (e: DocumentError | ExtractorError | StorageError): JobFailure =>
  e._tag === "DocumentError" ? fromDocument(e) : e._tag === "ExtractorError" ? fromExtractor(e) : fromStorage(e)

/** What `run` processes: the skill, the original bytes, and the client, mode and model they run with. */
export interface RunInput {
  readonly skill: Skill
  readonly bytes: Uint8Array
  readonly clientId: string
  readonly mode: Mode
  readonly model: string
}

/** A catalog search for one field (the `CatalogMatcher` port's `match`, or a caller's own). */
export type Match<E> = (
  clientId: string,
  field: SkillField,
  extracted: Readonly<Record<string, string>>
) => Effect.Effect<CatalogValue, E>

/** What `finish` turns into a result: the skill, the document as read, the extractor's answer, the catalog results. */
export interface FinishInput {
  readonly skill: Pick<Skill, "fields" | "instructions" | "review">
  readonly document: ReadDocument
  readonly extracted: ExtractResponse
  /** Catalog results by value path (`catalogRequests`). */
  readonly catalog: ReadonlyMap<string, CatalogValue>
  /** Today, as `YYYY-MM-DD` (dates after it by more than a year are implausible). */
  readonly today: string
}

/** One value as assessed: its path, literal, signals (none when empty) and confidence (`null` when empty). */
export interface AssessedValue {
  readonly path: string
  readonly literal: string
  readonly signals: Confidence.Signals | undefined
  readonly confidence: number | null
}

/** The catalog searches an extractor's answer calls for, by the path of the value each one fills. */
export const catalogRequests = (
  skill: Pick<Skill, "fields">,
  values: ExtractResponse["values"]
): ReadonlyArray<{
  readonly path: string
  readonly field: SkillField
  readonly extracted: Readonly<Record<string, string>>
}> => Assembly.catalogRequests(skill.fields, values)

/**
 * Grounds, parses, assesses and assembles an extractor's answer into the stored result, and judges it by the
 * skill's review setting (pure): the last step of `run`, and what the calibration benchmark runs on labelled
 * documents (the assessed values' signals are what the confidence model is fitted on).
 */
export const finish = (
  input: FinishInput,
  options: Partial<ProcessingOptions> = {}
): { readonly result: ExtractionResult; readonly assessed: ReadonlyArray<AssessedValue> } => {
  const settings = { ...defaultOptions, ...options }
  const { document, extracted } = input
  const index = Grounding.index(document)
  const assembled = Assembly.assemble({
    skill: input.skill,
    values: extracted.values,
    words: index,
    catalog: input.catalog,
    grounding: settings.grounding
  })
  const words = new Map<string, Assessment.WordInfo>()
  for (const page of document.pages)
    for (const line of page.lines)
      for (const w of line.words) words.set(w.id, { word: w.word, confidence: w.letters ?? w.confidence })
  const { fields, assessed } = Assessment.assess({
    skill: input.skill.fields,
    fields: assembled,
    words,
    index,
    codes: document.codes,
    certainty: extracted.certainty,
    model: settings.confidence,
    dates: { today: input.today, floor: settings.dateFloor }
  })
  const needsReview = input.skill.review === undefined ? undefined : Assessment.review(input.skill.review, assessed)
  return {
    result: {
      fields,
      usage: extracted.usage,
      words: wordsByPage(document),
      fullText: document.fullText,
      numPages: document.numPages,
      ...(document.degradedPages !== undefined && document.degradedPages.length > 0
        ? { degradedPages: document.degradedPages }
        : {}),
      ...(document.codes !== undefined && document.codes.length > 0 ? { codes: document.codes } : {}),
      ...(needsReview === undefined ? {} : { needsReview })
    },
    assessed: assessed.map(({ path, literal, signals, confidence }) => ({ path, literal, signals, confidence }))
  }
}

/**
 * The result with `usage.duration` set to the seconds since `started` (epoch milliseconds): the whole processing of
 * the extraction, not the extractor's share of it (which with `local` is a few milliseconds after a long read).
 */
const timedSince = (started: number, result: ExtractionResult) =>
  Effect.map(Clock.currentTimeMillis, (now) => ({
    ...result,
    usage: { ...result.usage, duration: Math.max(0, now - started) / 1000 }
  }))

/**
 * The pipeline without storage or queue: read (page images only for `ocr_pdf`) → extract → match catalog fields →
 * ground, parse and assemble. The job handler and in-process callers (`Embed.extractNow`) share it.
 */
export const run = Effect.fnUntraced(function* <E>(
  input: RunInput,
  match: Match<E>,
  options: Partial<ProcessingOptions> = {}
): Effect.fn.Return<ExtractionResult, DocumentError | ExtractorError | E, DocumentReader | FieldExtractor> {
  const settings = { ...defaultOptions, ...options }
  const started = yield* Clock.currentTimeMillis
  const { skill, bytes, mode, model } = input
  const document = yield* (yield* DocumentReader).read(bytes, mode === "ocr_pdf" ? { images: settings.images } : {})
  const extracted = yield* (yield* FieldExtractor).extract({ skill, document, original: bytes, mode, model })
  const matches = yield* Effect.forEach(
    catalogRequests(skill, extracted.values),
    (request) =>
      match(input.clientId, request.field, request.extracted).pipe(
        Effect.map((value): readonly [string, CatalogValue] => [request.path, value])
      ),
    { concurrency: settings.catalogConcurrency }
  )
  const today = new Date(yield* Clock.currentTimeMillis).toISOString().slice(0, 10)
  return yield* timedSince(
    started,
    finish({ skill, document, extracted, catalog: new Map(matches), today }, settings).result
  )
})

/** A job handler with the given settings (see `process` for the defaults). */
export const makeHandler = (options: Partial<ProcessingOptions> = {}): JobHandler<Services> => {
  const settings = { ...defaultOptions, ...options }
  return Effect.fn("Processing.process")(function* (
    lease: Lease
  ): Effect.fn.Return<ExtractionResult, JobFailure, Services> {
    const started = yield* Clock.currentTimeMillis
    const record = yield* (yield* ExtractionStore)
      .getForProcessing(lease.extractionId)
      .pipe(Effect.mapError(fromStorage))
    if (record === undefined) return yield* permanent(`extraction ${lease.extractionId} no longer exists`)
    const scope = { clientId: record.clientId, sandbox: record.sandbox }
    const stored = yield* (yield* DocumentStore).get(scope, record.id).pipe(Effect.mapError(fromStorage))
    if (stored === undefined) return yield* permanent(`the stored document of extraction ${record.id} is missing`)
    const skill = yield* (yield* SkillStore)
      .findById(record.clientId, record.skillId, record.skillVersion)
      .pipe(Effect.mapError(fromStorage))
    if (skill === undefined) {
      return yield* permanent(`skill ${record.skillSlug} version ${record.skillVersion} no longer exists`)
    }
    const extractor = yield* FieldExtractor
    if (!extractor.supports(record.model)) return yield* permanent(`model ${record.model} is not available`)

    const result = yield* run(
      { skill, bytes: stored.bytes, clientId: record.clientId, mode: record.mode, model: record.model },
      (yield* CatalogMatcher).match,
      settings
    ).pipe(Effect.mapError(toJobFailure))
    // The detailed read shows them too; the log lets an operator find documents that lost part of a page.
    for (const { page, reason } of result.degradedPages ?? []) {
      yield* Effect.logInfo("page degraded").pipe(Effect.annotateLogs({ extractionId: record.id, page, reason }))
    }
    // From the claim of the job to the result, loading the document and the skill included.
    return yield* timedSince(started, result)
  })
}

/** The job handler with the default settings (`Worker.start({ handler: Processing.process, … })`). */
export const process: JobHandler<Services> = makeHandler()
