/**
 * The main-thread side of the reader: `identify` sniffs the bytes here (cheap, no worker); `read` sniffs too (an
 * unsupported file never costs a worker), then hands the bytes to the pool, whose worker (`worker.ts`) opens the
 * document and reads it page by page. The worker's answer (`wire.ts`) is decoded here with a schema and turned into
 * `ReadDocument` with word ids `p{page}-w{index}` (index in reading order within the page, from 0).
 */
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import type { Transferable } from "node:worker_threads"
import { Document, type Ports } from "@legible/core"
import { Effect, Schema, type Scope } from "effect"
import type { Limits } from "./mupdf/limits.js"
import * as Pool from "./pool/pool.js"
import { sniff } from "./sniff.js"
import { type ReadTask, type WirePage, WireResult, type WorkerSettings } from "./wire.js"

/** Everything the reader runs with, defaults applied (see `OnnxReader.Options` for their meaning). */
export interface Settings {
  readonly poolSize: number
  readonly queueCapacity: number
  readonly pageTimeLimitMs: number
  readonly documentTimeLimitMs: number
  readonly startupTimeLimitMs: number
  readonly pagesPerWorker: number
  readonly workerMemoryMb: number
  readonly rssLimitMb: number
  readonly maxHeapMb: number
  readonly closeGraceMs: number
  readonly cancelGraceMs: number
  readonly limits: Limits
  /** Model file paths; those left out are the defaults of `ocr/engine.ts`. */
  readonly models: WorkerSettings["models"]
}

const decodeResult = Schema.decodeUnknownEffect(WireResult)

const workerFailed = (message: string) => new Document.DocumentError({ reason: "WorkerFailed", message })

/**
 * Runs one task on a pool and decodes the worker's answer: a pool failure (time limit, crashed worker) and a
 * malformed answer are `DocumentError`s (`TimeLimit`, else `WorkerFailed`).
 */
export const runOnPool = <A>(
  pool: Pool.Pool,
  task: unknown,
  transfer: ReadonlyArray<Transferable>,
  decode: (raw: unknown) => Effect.Effect<A, { readonly message: string }>
): Effect.Effect<A, Document.DocumentError> =>
  pool.run(task, transfer).pipe(
    Effect.mapError(
      (error) =>
        new Document.DocumentError({
          reason: error.reason === "TimeLimit" ? "TimeLimit" : "WorkerFailed",
          message: error.message
        })
    ),
    Effect.flatMap((raw) =>
      decode(raw).pipe(Effect.mapError((error) => workerFailed(`the worker's answer is malformed: ${error.message}`)))
    )
  )

/** Turns a wire page into lines of words with ids; fails on inconsistent arrays (a bug, not a document problem). */
export const pageFromWire = (wire: WirePage): Document.ReadPage | string => {
  const count = wire.words.length
  if (
    wire.boxes.length !== count * 4 ||
    wire.confidences.length !== count ||
    wire.letters.length !== count ||
    (wire.pictured !== undefined && wire.pictured.length !== count)
  ) {
    return `page ${wire.page}: ${count} words but ${wire.boxes.length} box numbers, ${wire.confidences.length} confidences and ${wire.letters.length} letter confidences`
  }
  const lines: Array<Document.ReadLine> = []
  let start = 0
  for (const end of wire.lineEnds) {
    if (end < start || end > count) return `page ${wire.page}: line end ${end} outside ${start}..${count}`
    const words: Array<Document.ReadWord> = []
    for (let i = start; i < end; i++) {
      words.push({
        id: `p${wire.page}-w${i}`,
        word: wire.words[i] ?? "",
        x0: wire.boxes[4 * i] ?? 0,
        y0: wire.boxes[4 * i + 1] ?? 0,
        x1: wire.boxes[4 * i + 2] ?? 0,
        y1: wire.boxes[4 * i + 3] ?? 0,
        page: wire.page,
        confidence: wire.confidences[i] ?? 0,
        letters: wire.letters[i] ?? 0,
        ...(wire.pictured?.[i] === 1 ? { pictured: true as const } : {})
      })
    }
    lines.push({ words })
    start = end
  }
  if (start !== count) return `page ${wire.page}: lines cover ${start} of ${count} words`
  return {
    page: wire.page,
    width: wire.width,
    height: wire.height,
    source: wire.source,
    lines,
    markdown: wire.markdown
  }
}

/** Words joined by spaces, lines by `\n`, pages by a blank line. */
export const fullText = (pages: ReadonlyArray<Document.ReadPage>): string =>
  pages.map((page) => page.lines.map((line) => line.words.map((w) => w.word).join(" ")).join("\n")).join("\n\n")

/**
 * The worker script: `dist/internal/worker.js`. From the sources (tests run TypeScript), that is the built copy
 * two folders up; from `dist` it sits next to this file. Worker threads need JavaScript either way.
 */
export const workerScript = (): URL =>
  new URL(import.meta.url.endsWith(".ts") ? "../../dist/internal/worker.js" : "./worker.js", import.meta.url)

/** Starts the pool and returns the reader; the pool's threads end with the scope. */
export const make = (
  settings: Settings
): Effect.Effect<Ports.DocumentReader["Service"], Document.DocumentError, Scope.Scope> =>
  Effect.gen(function* () {
    const script = workerScript()
    if (!Fs.existsSync(script)) {
      return yield* workerFailed(
        `the reader's worker script ${fileURLToPath(script)} is missing: build the package first ` +
          "(`npx tsc -b tsconfig.build.json` at the repository root)"
      )
    }
    const workerData: WorkerSettings = { limits: settings.limits, models: settings.models }
    const pool = yield* Pool.make({
      script,
      workerData,
      size: settings.poolSize,
      queueCapacity: settings.queueCapacity,
      pageTimeLimitMs: settings.pageTimeLimitMs,
      taskTimeLimitMs: settings.documentTimeLimitMs,
      startupTimeLimitMs: settings.startupTimeLimitMs,
      pagesPerWorker: settings.pagesPerWorker,
      workerMemoryMb: settings.workerMemoryMb,
      rssLimitMb: settings.rssLimitMb,
      resourceLimits: { maxOldGenerationSizeMb: settings.maxHeapMb },
      closeGraceMs: settings.closeGraceMs,
      cancelGraceMs: settings.cancelGraceMs
    })

    const identify = Effect.fn("DocumentReader.identify")(function* (bytes: Uint8Array) {
      return (yield* sniff(bytes)).mimeType
    })

    const read = Effect.fn("DocumentReader.read")(function* (bytes: Uint8Array, options?: Document.ReadOptions) {
      yield* sniff(bytes)
      // The worker gets its own copy, moved rather than cloned: cloning a view would copy its whole underlying
      // buffer (a Node Buffer may be a slice of a larger one), and the caller keeps its bytes (for `pdf_only`).
      const copy = new Uint8Array(bytes)
      const task: ReadTask = { bytes: copy, images: options?.images }
      const result = yield* runOnPool(pool, task, [copy.buffer], decodeResult)
      if (result._tag === "Refused") {
        return yield* new Document.DocumentError({ reason: result.reason, message: result.message })
      }
      const pages: Array<Document.ReadPage> = []
      for (const wire of result.pages) {
        const page = pageFromWire(wire)
        if (typeof page === "string") return yield* workerFailed(`the worker's answer is inconsistent: ${page}`)
        pages.push(page)
      }
      // Bad codes, and pictures whose text could not be read, never fail a read: each one left out is one log line.
      for (const { page, what, reason } of result.ignored) {
        const message = what === "image text" ? "image text not read" : "code ignored"
        yield* Effect.logWarning(message).pipe(Effect.annotateLogs({ page, what, reason }))
      }
      for (const code of result.codes) {
        if (code.kind !== "Unknown" && code.problems.length === 0) continue
        yield* Effect.logInfo("code kept with problems").pipe(
          Effect.annotateLogs({ page: code.page, format: code.format, kind: code.kind, problems: code.problems })
        )
      }
      return {
        mimeType: result.mimeType,
        numPages: result.numPages,
        pages,
        fullText: fullText(pages),
        images: result.images,
        degradedPages: result.degraded,
        ...(result.codes.length > 0 ? { codes: result.codes } : {})
      } satisfies Document.ReadDocument
    })

    return { identify, read }
  })
