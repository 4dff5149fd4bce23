/**
 * The worker-thread entry of the reader (run by Node from `dist/internal/worker.js`): reads one document per task.
 * It opens the document with mupdf within the limits, then for each page uses the text layer when it is usable
 * (PDFs only) or renders the page and runs OCR, scaling OCR pixels to points; it adds each page's Markdown and, when
 * asked, a page image within the budget. It reports progress after every page (the pool's page time limit) and
 * answers in the form of `wire.ts`, moving (not copying) its typed arrays and image bytes.
 *
 * A page is degraded rather than the document refused: an image over the pixel cap is left out of the page's
 * renders (the rest of the page is read; a multi-page TIFF's oversized frame is the whole page, skipped), and a
 * page that cannot be loaded or rendered (`Corrupt`, `TooManyPixels`) is skipped; all are listed in `degraded`. Only when no page at all is read is the document
 * refused, with the first page's error.
 *
 * Document problems come back as `Refused` with core's reason; OCR failures as `Refused` `WorkerFailed`; anything
 * thrown (a WASM trap is a defect) ends the task with `Failed`, and the pool replaces this thread.
 * The OCR engine (onnxruntime sessions) loads on the first page that needs it and lives as long as the thread.
 *
 * When the pool asks a task to stop (its cancel flag), the task ends at the next page or the next inference call:
 * inference runs synchronously on this thread, and the pool must not terminate it inside one (see `pool/thread.ts`).
 */
import { createHash } from "node:crypto"
import { type Transferable, workerData } from "node:worker_threads"
import { Codes } from "@legible/codes"
import { Document } from "@legible/core"
import { Effect, Schema, Scope } from "effect"
import type * as mupdf from "mupdf"
import {
  codesIn,
  detectionFactor,
  embeddedCode,
  type Findings,
  greyOf,
  isXmlAttachment,
  MAX_DETECTION_PIXELS,
  merge,
  noFindings
} from "./codes/found.js"
import { type PageWord, type PlacedLine, placedLines, regionImage, textRegions, withImageLines } from "./imageText.js"
import { toMarkdown } from "./markdown.js"
import { type Attachment, contentsOf, documentAttachments, pageAttachments, streamKey } from "./mupdf/embedded.js"
import type { FrameSize } from "./mupdf/imageHeader.js"
import type { Limits } from "./mupdf/limits.js"
import { type OpenedDocument, openDocument, withPage } from "./mupdf/open.js"
import {
  codesDpi,
  type EncodedImage,
  type GreyPage,
  graphicsOf,
  pageImage,
  renderForOcr,
  renderGrey
} from "./mupdf/render.js"
import { textLayer } from "./mupdf/textLayer.js"
import type { Rect } from "./ocr/box.js"
import { type InferenceSession, makeEngine, type OcrEngine, OcrError } from "./ocr/engine.js"
import { type OcrPage, recognizePage } from "./ocr/pipeline.js"
import { type Handler, serve, type TaskContext } from "./pool/serve.js"
import { ReadTask, type WirePage, type WireResult, WorkerSettings } from "./wire.js"

interface PageRead {
  readonly source: "text" | "ocr"
  readonly width: number
  readonly height: number
  readonly lines: ReadonlyArray<{ readonly words: ReadonlyArray<PageWord> }>
  /** Images over the pixel cap left out of the OCR render. */
  readonly leftOut: ReadonlyArray<FrameSize>
  /** The codes found on the page. */
  readonly findings: Findings
}

// OCR failures are not the document's fault (a model that cannot load or run): retryable, like a crashed worker.
const workerFailed = (message: string) => new Document.DocumentError({ reason: "WorkerFailed", message })

// Fails to compile when the schema above and mupdf's `Limits` drift apart.
const limitsCheck = (limits: WorkerSettings["limits"]): Limits => limits

const settings = Schema.decodeUnknownSync(WorkerSettings)(workerData)
const limits = limitsCheck(settings.limits)

// The task being run: one at a time per thread, by the pool's protocol.
let current: TaskContext | undefined

const stopped = (): boolean => current?.cancelled() === true

// Every inference call first checks the cancel flag, so a cancelled task never starts another one.
const cancellable = (session: InferenceSession): InferenceSession => ({
  ...session,
  run: (feeds) =>
    Effect.suspend(() =>
      stopped() ? Effect.fail(new OcrError({ message: "the read was cancelled" })) : session.run(feeds)
    )
})

const withCancellation = (engine: OcrEngine): OcrEngine => ({
  ...engine,
  det: cancellable(engine.det),
  cls: engine.cls === undefined ? undefined : cancellable(engine.cls),
  rec: cancellable(engine.rec)
})

// The sessions live as long as this thread; `cached` loads them once, on the first page that needs OCR.
const engineScope = Scope.makeUnsafe()
const engine = Effect.runSync(
  Effect.cached(
    makeEngine({
      recognizer: settings.models.recognizer,
      models: settings.models,
      recognizerPrecision: settings.models.precision,
      lexicon: settings.models.lexicon,
      config: settings.models.detectionScale === undefined ? undefined : { detScale: settings.models.detectionScale }
    }).pipe(
      Scope.provide(engineScope),
      Effect.map(withCancellation),
      Effect.mapError((error) => workerFailed(`the OCR models cannot be loaded: ${error.message}`))
    )
  )
)

const ocrPage = (page: mupdf.Page, opened: OpenedDocument, number: number) =>
  Effect.gen(function* () {
    const rendered = yield* renderForOcr(page, opened.kind, limits)
    // The OCR render serves code detection too: a scan is read at its own resolution, without a second render.
    const factor = detectionFactor(rendered.width * rendered.height)
    const findings = yield* codesIn(greyOf(rendered, factor), rendered.scale * factor, number)
    const ocr = yield* recognizePage(yield* engine, rendered).pipe(
      Effect.mapError((error) => workerFailed(`OCR failed on page ${number}: ${error.message}`))
    )
    const s = rendered.scale
    return {
      source: "ocr",
      width: rendered.pageWidth,
      height: rendered.pageHeight,
      lines: ocr.lines.map((line) => ({
        words: line.words.map((w) => ({
          word: w.text,
          x0: w.x0 * s,
          y0: w.y0 * s,
          x1: w.x1 * s,
          y1: w.y1 * s,
          confidence: w.confidence,
          letters: w.letters
        }))
      })),
      leftOut: rendered.leftOut,
      findings
    } satisfies PageRead
  })

/**
 * What OCR read in each image cut of a document, by the cut's pixels: a letterhead's logo drawn on every page of an
 * invoice is read once.
 */
type ImageReads = Map<string, OcrPage>

const readPage = (page: mupdf.Page, opened: OpenedDocument, number: number, imageReads: ImageReads) =>
  Effect.gen(function* () {
    // Image documents have no text layer; a PDF page's is used only when the verdict says it is usable.
    const layer = opened.kind === "pdf" ? yield* textLayer(page) : undefined
    if (layer === undefined || !layer.verdict.usable) return yield* ocrPage(page, opened, number)
    const lines = layer.lines.map((line) => ({ words: line.words.map((w) => ({ ...w, confidence: 1, letters: 1 })) }))
    const graphics = yield* textPageGraphics(page, number, lines, layer.width, layer.height, imageReads)
    return {
      source: "text",
      width: layer.width,
      height: layer.height,
      lines: withImageLines(lines, graphics.lines),
      leftOut: [],
      findings: graphics.findings
    } satisfies PageRead
  })

const noGraphics = { findings: noFindings, lines: [] }

/** A note that part of a page was not read, for the read's `ignored` list. */
const notRead = (page: number, what: string, reason: string): Findings => ({
  codes: [],
  ignored: [{ page, what, reason }]
})

/**
 * What a text-layer page paints besides its text: the codes in its images and paths, and the text in its images
 * (`imageText.ts`). The page is rendered only when it paints an image or a path (a code is one or the other); any
 * failure here costs the page its codes or its images' text, never its text layer's words.
 */
const textPageGraphics = (
  page: mupdf.Page,
  number: number,
  lines: ReadonlyArray<{ readonly words: ReadonlyArray<PageWord> }>,
  width: number,
  height: number,
  imageReads: ImageReads
): Effect.Effect<{ readonly findings: Findings; readonly lines: ReadonlyArray<PlacedLine> }> =>
  Effect.gen(function* () {
    const graphics = yield* graphicsOf(page, limits)
    if (!graphics.drawn) return noGraphics
    const regions = settings.models.imageText === false ? [] : textRegions(graphics.images, width, height)
    const rendered = yield* renderGrey(page, codesDpi(graphics), limits, MAX_DETECTION_PIXELS, graphics.oversized).pipe(
      Effect.mapError((error) => ({
        what: regions.length > 0 ? "code detection and image text" : "code detection",
        error
      }))
    )
    const codes = yield* codesIn(rendered, rendered.scale, number)
    if (regions.length === 0) return { findings: codes, lines: [] }
    const read = yield* imageLines(rendered, regions, lines, number, imageReads)
    return { findings: merge([codes, read.findings]), lines: read.lines }
  }).pipe(
    Effect.catch((failure) => {
      const [what, error] = "what" in failure ? [failure.what, failure.error] : ["code detection", failure]
      return Effect.succeed({ findings: notRead(number, what, error.message), lines: [] })
    })
  )

// The text the OCR engine reads in each region of the page's grey render; the engine loads on the first such page.
// A failure (the models, a cancelled read) costs the page its images' text alone.
const imageLines = (
  grey: GreyPage,
  regions: ReadonlyArray<Rect>,
  lines: ReadonlyArray<{ readonly words: ReadonlyArray<PageWord> }>,
  number: number,
  imageReads: ImageReads
): Effect.Effect<{ readonly findings: Findings; readonly lines: ReadonlyArray<PlacedLine> }> =>
  Effect.gen(function* () {
    const ocr = yield* engine
    const words = lines.flatMap((line) => line.words)
    // The text layer's words tell the page's languages, whose marks the images' words are read with.
    const context = words.map((w) => w.word).join(" ")
    const placed: Array<PlacedLine> = []
    for (const region of regions) {
      const cut = regionImage(grey, region, words)
      if (cut === undefined) continue
      const key = createHash("sha1")
        .update(cut.image.data)
        .update(`${cut.image.width}×${cut.image.height}`)
        .digest("hex")
      const known = imageReads.get(key)
      const read = known ?? (yield* recognizePage(ocr, cut.image, IMAGE_TEXT_OCR, context))
      imageReads.set(key, read)
      placed.push(...placedLines(read, cut, grey.scale))
    }
    return { findings: noFindings, lines: placed }
  }).pipe(
    Effect.catch((error) => Effect.succeed({ findings: notRead(number, "image text", error.message), lines: [] }))
  )

// An image's text is read from the 150 DPI render the page's codes are found in, detected at that full resolution
// (a page's OCR detects at half its 200 DPI render): a logo's small print is 6–8 pt.
const IMAGE_TEXT_OCR = { detScale: 1 } as const

// Each embedded file once (a name-tree entry and an annotation may share one), XML only, within the XML cap.
const readAttachments = (found: ReadonlyArray<Attachment>, seen: Set<number>): Findings =>
  merge(
    found.map((attachment) => {
      const key = streamKey(attachment.filespec)
      if (key !== undefined) {
        if (seen.has(key)) return noFindings
        seen.add(key)
      }
      if (!isXmlAttachment(attachment.name, attachment.mimeType)) return noFindings
      const bytes = contentsOf(attachment.filespec, Codes.defaultLimits.maxBytes)
      if (typeof bytes === "string") {
        return { codes: [], ignored: [{ page: attachment.page, what: `embedded:${attachment.name}`, reason: bytes }] }
      }
      return embeddedCode(attachment.name, bytes, attachment.page, attachment.box)
    })
  )

const attachmentsOf = (what: string, page: number | null, find: () => ReadonlyArray<Attachment>, seen: Set<number>) =>
  Effect.try({ try: () => readAttachments(find(), seen), catch: (error) => error }).pipe(
    Effect.catch((error) =>
      Effect.succeed<Findings>({
        codes: [],
        ignored: [{ page, what, reason: error instanceof Error ? error.message : String(error) }]
      })
    )
  )

const toWire = (number: number, read: PageRead): WirePage => {
  const words = read.lines.flatMap((line) => line.words)
  const boxes = new Float64Array(words.length * 4)
  const confidences = new Float64Array(words.length)
  const letters = new Float64Array(words.length)
  const pictured = new Uint8Array(words.length)
  words.forEach((w, i) => {
    boxes.set([w.x0, w.y0, w.x1, w.y1], i * 4)
    confidences[i] = w.confidence
    letters[i] = w.letters
    pictured[i] = w.pictured === true ? 1 : 0
  })
  const lineEnds = new Uint32Array(read.lines.length)
  let end = 0
  read.lines.forEach((line, i) => {
    end += line.words.length
    lineEnds[i] = end
  })
  return {
    page: number,
    width: read.width,
    height: read.height,
    source: read.source,
    markdown: toMarkdown(read.lines),
    words: words.map((w) => w.word),
    boxes,
    confidences,
    letters,
    ...(pictured.includes(1) ? { pictured } : {}),
    lineEnds
  }
}

const megapixels = (pixels: number): string => `${Math.round(pixels / 1e5) / 10} MP`

/** Why a page is degraded when images over the cap were left out of `what` (pure). */
export const leftOutReason = (leftOut: ReadonlyArray<FrameSize>, what: string, maxImagePixels: number): string => {
  const sizes = leftOut.map(({ width, height }) => `${width} × ${height} pixels, ${megapixels(width * height)}`)
  const subject = leftOut.length === 1 ? `an image (${sizes[0]})` : `${leftOut.length} images (${sizes.join("; ")})`
  return `${subject} over the limit of ${megapixels(maxImagePixels)} left out of ${what}`
}

// Page-level failures that degrade the page; the others (OCR, time) are about the worker, not the page.
const degradable = (error: Document.DocumentError): boolean =>
  error.reason === "Corrupt" || error.reason === "TooManyPixels"

const readDocument = (task: ReadTask, context: TaskContext) =>
  Effect.scoped(
    Effect.gen(function* () {
      const opened = yield* openDocument(task.bytes, limits)
      const pages: Array<WirePage> = []
      const images: Array<EncodedImage & { readonly page: number }> = []
      const degraded: Array<{ readonly page: number; readonly reason: string }> = []
      // The document's embedded files are read before page 1, within its time.
      const pdf = opened.kind === "pdf" ? opened.document.asPDF() : null
      const seen = new Set<number>()
      const findings: Array<Findings> =
        pdf === null ? [] : [yield* attachmentsOf("embedded files", null, () => documentAttachments(pdf), seen)]
      let firstFailure: Document.DocumentError | undefined
      const imageReads: ImageReads = new Map()
      for (let index = 0; index < opened.numPages; index++) {
        const number = index + 1
        // The pool has already answered the caller (time limit, caller gone): stop at a safe point.
        if (context.cancelled()) return yield* new Document.DocumentError({ reason: "TimeLimit", message: "cancelled" })
        // A TIFF page whose frame declares over the cap is never loaded (loading decodes it).
        const oversized = opened.oversizedPages.get(index)
        if (oversized !== undefined) {
          const { width, height } = oversized
          const size = `${width} × ${height} pixels, ${megapixels(width * height)}`
          const reason = `the page's image (${size}) is over the limit of ${megapixels(limits.maxImagePixels)}: not read`
          degraded.push({ page: number, reason })
          context.progress()
          continue
        }
        const read = withPage(opened, index, (page) =>
          Effect.gen(function* () {
            const pageRead = yield* readPage(page, opened, number, imageReads)
            pages.push(toWire(number, pageRead))
            findings.push(pageRead.findings)
            if (pdf !== null) {
              findings.push(yield* attachmentsOf("attachments", number, () => pageAttachments(pdf, page, number), seen))
            }
            const reasons: Array<string> = []
            if (pageRead.leftOut.length > 0) {
              reasons.push(leftOutReason(pageRead.leftOut, "the page's OCR render", limits.maxImagePixels))
            }
            if (task.images !== undefined) {
              // The page's words are kept when only its image fails.
              const image = yield* pageImage(page, opened.kind, task.images, limits).pipe(
                Effect.catchIf(degradable, (error) =>
                  Effect.sync(() => {
                    reasons.push(`the page image was not rendered (${error.reason}): ${error.message}`)
                    return undefined
                  })
                )
              )
              if (image !== undefined) {
                const { leftOut, ...encoded } = image
                images.push({ page: number, ...encoded })
                if (leftOut.length > 0) reasons.push(leftOutReason(leftOut, "the page image", limits.maxImagePixels))
              }
            }
            if (reasons.length > 0) degraded.push({ page: number, reason: reasons.join("; ") })
          })
        )
        yield* read.pipe(
          Effect.catchIf(degradable, (error) =>
            Effect.sync(() => {
              firstFailure ??= error
              degraded.push({ page: number, reason: `the page was not read (${error.reason}): ${error.message}` })
            })
          )
        )
        context.progress()
      }
      if (pages.length === 0 && firstFailure !== undefined) return yield* firstFailure
      const { codes, ignored } = merge(findings)
      return {
        codes,
        ignored,
        _tag: "Read",
        mimeType: opened.mimeType,
        numPages: opened.numPages,
        pages,
        images,
        degraded
      } satisfies WireResult
    })
  ).pipe(
    Effect.catchTag("DocumentError", (error) =>
      Effect.succeed<WireResult>({ _tag: "Refused", reason: error.reason, message: error.message })
    )
  )

const transferables = (result: WireResult): Array<Transferable> =>
  result._tag === "Refused"
    ? []
    : [
        ...result.pages.flatMap((p) => [
          p.boxes.buffer,
          p.confidences.buffer,
          p.letters.buffer,
          ...(p.pictured === undefined ? [] : [p.pictured.buffer]),
          p.lineEnds.buffer
        ]),
        ...result.images.map((image) => image.bytes.buffer)
      ].filter((buffer) => buffer instanceof ArrayBuffer)

const handler: Handler = async (input, context) => {
  const task = Schema.decodeUnknownSync(ReadTask)(input)
  current = context
  try {
    const result = await Effect.runPromise(readDocument(task, context))
    return { output: result, transfer: transferables(result) }
  } finally {
    current = undefined
  }
}

serve(handler)
