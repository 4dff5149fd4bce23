/**
 * The `PageRenderer` of `@legible/core` on mupdf, in worker threads of its own: one page of a stored document as a
 * PNG at a requested width, for the review console. The same limits as the reader (`OnnxReader`): page count,
 * declared image sizes (images over the cap are left out), a page's inflated content, render pixels, a time limit
 * per page; a worker that failed or ran over a limit is replaced.
 */
import { type Document, PageImages } from "@legible/core"
import { Config, Effect, Layer, type Scope } from "effect"
import { defaultLimits } from "./internal/mupdf/limits.js"
import * as Renderer from "./internal/renderer.js"

/** How the renderer runs. Every field is optional; the defaults are listed on each. */
export interface Options {
  /** Worker threads. Default: 2, so the pages of one document render side by side (100–300 ms each). */
  readonly poolSize?: number | undefined
  /** Renders that may wait for a worker before callers suspend. Default: 32. */
  readonly queueCapacity?: number | undefined
  /** Longest time for one page. Default: 30 s. */
  readonly timeLimitMs?: number | undefined
  /** More pages than this is `TooManyPages`, as for the reader. Default: 500. */
  readonly maxPages?: number | undefined
  /** An image (or TIFF page) with more pixels is `TooManyPixels`; within a PDF it is left out. Default: 100 MP. */
  readonly maxPixels?: number | undefined
  /** V8 old-generation heap of each worker. Default: 256 MB. */
  readonly maxHeapMb?: number | undefined
}

/** `Options` with the defaults filled in. */
export const settings = (options: Options = {}): Renderer.Settings => ({
  poolSize: options.poolSize ?? 2,
  queueCapacity: options.queueCapacity ?? 32,
  timeLimitMs: options.timeLimitMs ?? 30_000,
  startupTimeLimitMs: 30_000,
  maxHeapMb: options.maxHeapMb ?? 256,
  limits: {
    ...defaultLimits,
    maxPages: options.maxPages ?? defaultLimits.maxPages,
    maxImagePixels: options.maxPixels ?? defaultLimits.maxImagePixels
  }
})

/** A renderer whose worker threads end with the scope; fails if the worker script was not built. */
export const make = (
  options: Options = {}
): Effect.Effect<PageImages.PageRenderer["Service"], Document.DocumentError, Scope.Scope> =>
  Effect.suspend(() => Renderer.make(settings(options)))

/** The `PageRenderer` layer; closing it terminates the worker threads. */
export const layer = (options: Options = {}): Layer.Layer<PageImages.PageRenderer, Document.DocumentError> =>
  Layer.effect(PageImages.PageRenderer, make(options))

/** Like `layer`, with the options read from `Config` (the server names the variables; nothing is read here). */
export const layerConfig = (
  config: Config.Wrap<Options>
): Layer.Layer<PageImages.PageRenderer, Document.DocumentError | Config.ConfigError> =>
  Layer.unwrap(Effect.map(Config.unwrap(config), layer))
