/**
 * The main-thread side of the page renderer: a pool of its own worker threads (`renderWorker.ts`), so a page image
 * never waits behind a document being read by OCR, with the reader's limits and time limits.
 */
import * as Fs from "node:fs"
import { fileURLToPath } from "node:url"
import { Document, PageImages } from "@legible/core"
import { Effect, Schema, type Scope } from "effect"
import type { Limits } from "./mupdf/limits.js"
import * as Pool from "./pool/pool.js"
import { runOnPool } from "./reader.js"
import { RenderResult, type RenderTask } from "./renderWire.js"
import { sniff } from "./sniff.js"
import type { WorkerSettings } from "./wire.js"

/** Everything the renderer runs with, defaults applied (see `PageRenderer.Options`). */
export interface Settings {
  readonly poolSize: number
  readonly queueCapacity: number
  readonly timeLimitMs: number
  readonly startupTimeLimitMs: number
  readonly maxHeapMb: number
  readonly limits: Limits
}

const decodeResult = Schema.decodeUnknownEffect(RenderResult)

const workerFailed = (message: string) => new Document.DocumentError({ reason: "WorkerFailed", message })

/** The worker script, built next to the reader's (see `reader.ts`'s `workerScript`). */
export const renderScript = (): URL =>
  new URL(
    import.meta.url.endsWith(".ts") ? "../../dist/internal/renderWorker.js" : "./renderWorker.js",
    import.meta.url
  )

/** Starts the pool (threads start on the first render) and returns the renderer; they end with the scope. */
export const make = (
  settings: Settings
): Effect.Effect<PageImages.PageRenderer["Service"], Document.DocumentError, Scope.Scope> =>
  Effect.gen(function* () {
    const script = renderScript()
    if (!Fs.existsSync(script)) {
      return yield* workerFailed(
        `the page renderer's worker script ${fileURLToPath(script)} is missing: build the package first ` +
          "(`npx tsc -b tsconfig.build.json` at the repository root)"
      )
    }
    const workerData: WorkerSettings = { limits: settings.limits, models: {} }
    const pool = yield* Pool.make({
      script,
      workerData,
      size: settings.poolSize,
      queueCapacity: settings.queueCapacity,
      pageTimeLimitMs: settings.timeLimitMs,
      taskTimeLimitMs: settings.timeLimitMs,
      startupTimeLimitMs: settings.startupTimeLimitMs,
      pagesPerWorker: 1_000,
      workerMemoryMb: settings.maxHeapMb * 2,
      rssLimitMb: Number.MAX_SAFE_INTEGER,
      resourceLimits: { maxOldGenerationSizeMb: settings.maxHeapMb },
      closeGraceMs: 2_000,
      cancelGraceMs: 2_000
    })

    const render = Effect.fn("PageRenderer.render")(function* (bytes: Uint8Array, request: PageImages.PageRequest) {
      yield* sniff(bytes)
      const copy = new Uint8Array(bytes)
      const task: RenderTask = { bytes: copy, page: request.page, width: request.width }
      const result = yield* runOnPool(pool, task, [copy.buffer], decodeResult)
      switch (result._tag) {
        case "Refused":
          return yield* new Document.DocumentError({ reason: result.reason, message: result.message })
        case "OutOfRange":
          return yield* new PageImages.PageNotFound({ page: request.page, numPages: result.numPages })
        case "Rendered":
          return {
            mimeType: "image/png",
            bytes: result.bytes,
            width: result.width,
            height: result.height,
            pageWidth: result.pageWidth,
            pageHeight: result.pageHeight,
            numPages: result.numPages
          } satisfies PageImages.PageImage
      }
    })

    return { render }
  })
