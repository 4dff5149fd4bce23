/**
 * Page images of a stored document (an extension of the spec, for the review console): the `PageRenderer` port and
 * the use cases that find the extraction in the caller's scope (another client's id, or a live id seen from the
 * sandbox, is "not found" like every other read) and render one page of its document.
 */
import { Context, Effect, Schema } from "effect"
import type { Caller } from "./ApiKeys.js"
import type { DocumentError } from "./Document.js"
import { DocumentNotFound, ExtractionNotFound } from "./Errors.js"
import { DocumentStore, ExtractionStore } from "./Ports.js"

/** The narrowest and widest page images served, in pixels. */
export const MIN_WIDTH = 64
export const MAX_WIDTH = 2000
/** The width served when the request names none. */
export const DEFAULT_WIDTH = 1000

/** A page image width: a whole number of pixels from `MIN_WIDTH` to `MAX_WIDTH`. */
export const Width = Schema.Int.check(Schema.isBetween({ minimum: MIN_WIDTH, maximum: MAX_WIDTH }))

/** One page to render: 1-based `page`, the image `width` in pixels (the height follows the page). */
export interface PageRequest {
  readonly page: number
  readonly width: number
}

/** A rendered page: the encoded image, its size in pixels, and the page's size in the words' unit (points). */
export interface PageImage {
  readonly mimeType: "image/png"
  readonly bytes: Uint8Array
  readonly width: number
  readonly height: number
  /** The page size in points, the unit of the words' boxes (`x1 ≤ pageWidth`): pixels per point = width / pageWidth. */
  readonly pageWidth: number
  readonly pageHeight: number
  /** How many pages the document has. */
  readonly numPages: number
}

/** The document has no page with that number. */
export class PageNotFound extends Schema.TaggedError<PageNotFound>()("PageNotFound", {
  page: Schema.Int,
  numPages: Schema.Int
}) {}

/** The port that renders one page of a document within the reader's limits (pixels, time, memory). */
export class PageRenderer extends Context.Service<
  PageRenderer,
  {
    render(bytes: Uint8Array, request: PageRequest): Effect.Effect<PageImage, DocumentError | PageNotFound>
  }
>()("@legible/core/PageRenderer") {}

/** The extraction `id` if the caller may see it (spec 4.4's tenancy and the sandbox), else `ExtractionNotFound`. */
export const locate = Effect.fn("PageImages.locate")(function* (caller: Caller, id: string) {
  const record = yield* (yield* ExtractionStore).get(caller, id)
  if (record === undefined) return yield* new ExtractionNotFound({ id })
  return record
})

/** Renders page `request.page` of the extraction's stored document, for a caller that may see it. */
export const render = Effect.fn("PageImages.render")(function* (caller: Caller, id: string, request: PageRequest) {
  yield* locate(caller, id)
  const document = yield* (yield* DocumentStore).get(caller, id)
  if (document === undefined) return yield* new DocumentNotFound({ id })
  return yield* (yield* PageRenderer).render(document.bytes, request)
})
