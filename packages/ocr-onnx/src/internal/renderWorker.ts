/**
 * The worker-thread entry of the page renderer (run by Node from `dist/internal/renderWorker.js`): opens the
 * document within the reader's limits (page count, declared image sizes, a page's inflated content) and renders
 * one page as a PNG. A WASM trap is thrown, and the pool replaces the thread.
 */
import { workerData } from "node:worker_threads"
import { Effect, Schema } from "effect"
import { documentError } from "./mupdf/errors.js"
import type { Limits } from "./mupdf/limits.js"
import { openDocument, withPage } from "./mupdf/open.js"
import { pageAtWidth } from "./mupdf/pageAtWidth.js"
import { type Handler, serve } from "./pool/serve.js"
import { type RenderResult, RenderTask } from "./renderWire.js"
import { WorkerSettings } from "./wire.js"

const limits: Limits = Schema.decodeUnknownSync(WorkerSettings)(workerData).limits

const renderPage = (task: RenderTask) =>
  Effect.scoped(
    Effect.gen(function* () {
      const opened = yield* openDocument(task.bytes, limits)
      if (task.page > opened.numPages) return { _tag: "OutOfRange", numPages: opened.numPages } satisfies RenderResult
      const oversized = opened.oversizedPages.get(task.page - 1)
      if (oversized !== undefined) {
        const pixels = oversized.width * oversized.height
        return yield* documentError(
          "TooManyPixels",
          `page ${task.page} declares ${oversized.width} × ${oversized.height} pixels, over the limit of ` +
            `${limits.maxImagePixels / 1e6} megapixels (${Math.round(pixels / 1e6)} MP)`
        )
      }
      const png = yield* withPage(opened, task.page - 1, (page) => pageAtWidth(page, opened.kind, task.width, limits))
      return { _tag: "Rendered", ...png, numPages: opened.numPages } satisfies RenderResult
    })
  ).pipe(
    Effect.catchTag("DocumentError", (error) =>
      Effect.succeed<RenderResult>({ _tag: "Refused", reason: error.reason, message: error.message })
    )
  )

const handler: Handler = async (input, context) => {
  const result = await Effect.runPromise(renderPage(Schema.decodeUnknownSync(RenderTask)(input)))
  context.progress()
  return { output: result, transfer: result._tag === "Rendered" ? [result.bytes.buffer as ArrayBuffer] : [] }
}

serve(handler)
