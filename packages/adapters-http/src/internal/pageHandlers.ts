/**
 * The page image handler. The extraction must be in the caller's scope (another client, the sandbox or a revoked
 * key gets nothing, cached or not); an extraction's owner never changes, so a (client, sandbox, extraction) pair
 * found once is remembered and not looked up again, while the key is still checked on every request. Images come
 * from a bounded in-memory cache, or from the `PageRenderer` when the server has one (503 otherwise). The ETag names
 * the extraction, page, width and renderer version: `If-None-Match` gets a 304 without loading the document.
 */
import { createHash } from "node:crypto"
import { Errors as CoreErrors, type Document, Lru, PageImages, type Ports } from "@legible/core"
import { Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.js"
import * as Errors from "../Errors.js"
import { Unrenderable } from "../Pages.js"
import { knownId, runner } from "./handling.js"

/** Bumped whenever a change of the renderer changes the pixels of a page: old ETags then stop matching. */
const RENDER_VERSION = "1"
/** The cache of rendered pages: at most this many bytes of PNG in memory. */
export const CACHE_BYTES = 64 * 1024 * 1024

/** How many (scope, extraction) pairs are remembered as verified. */
const VERIFIED_ENTRIES = 100_000

const PAGE = /^[1-9]\d{0,5}$/
const WIDTH = /^\d{1,5}$/

const etagOf = (id: string, page: number, width: number): string =>
  `"${createHash("sha256").update(`${RENDER_VERSION}|${id}|${page}|${width}`).digest("base64url").slice(0, 27)}"`

const matches = (header: string | undefined, etag: string): boolean =>
  header !== undefined && header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)

const renderError = (error: Document.DocumentError | PageImages.PageNotFound) => {
  if (error._tag === "PageNotFound") {
    return new Errors.NotFound({ error: `page ${error.page} not found: the document has ${error.numPages}` })
  }
  return error.permanent || error.reason === "TimeLimit"
    ? new Unrenderable({ error: `the page cannot be rendered (${error.reason}): ${error.message}` })
    : new Errors.ServiceUnavailable({ error: "the page renderer is unavailable; retry later" })
}

/** The page image endpoint. */
export const pages = HttpApiBuilder.group(
  Api,
  "pages",
  Effect.fn(function* (handlers) {
    const { asCaller } = yield* runner<Ports.ExtractionStore | Ports.DocumentStore>()
    const renderer = yield* Effect.serviceOption(PageImages.PageRenderer)
    const cache = Lru.make<PageImages.PageImage>(CACHE_BYTES, (image) => image.bytes.byteLength)
    const verified = Lru.make<true>(VERIFIED_ENTRIES, () => 1)
    return handlers.handle("image", ({ params, query }) =>
      Effect.gen(function* () {
        const width = query.width === undefined ? PageImages.DEFAULT_WIDTH : Number(query.width)
        if (
          (query.width !== undefined && !WIDTH.test(query.width)) ||
          width < PageImages.MIN_WIDTH ||
          width > PageImages.MAX_WIDTH
        ) {
          return yield* new Errors.BadRequest({
            error: `width must be a whole number of pixels from ${PageImages.MIN_WIDTH} to ${PageImages.MAX_WIDTH}`
          })
        }
        // An extraction's owner never changes: once a scope has seen it, later requests skip the look-up (the key
        // itself is still checked on every request).
        const id = yield* asCaller((caller) =>
          knownId(params.extraction_id, (bad) => new CoreErrors.ExtractionNotFound({ id: bad })).pipe(
            Effect.tap((known) => {
              const seen = `${caller.clientId}|${caller.sandbox}|${known}`
              return verified.get(seen) === true
                ? Effect.void
                : Effect.tap(PageImages.locate(caller, known), () => Effect.sync(() => verified.set(seen, true)))
            })
          )
        )
        if (!PAGE.test(params.page))
          return yield* new Errors.NotFound({ error: `page '${Errors.echo(params.page)}' not found` })
        const page = Number(params.page)
        const etag = etagOf(id, page, width)
        const request = yield* HttpServerRequest.HttpServerRequest
        const headers = { etag, "cache-control": "private, no-cache", "x-content-type-options": "nosniff" }
        if (matches(request.headers["if-none-match"], etag)) {
          return HttpServerResponse.empty({ status: 304, headers })
        }
        const key = `${id}|${page}|${width}`
        let image = cache.get(key)
        if (image === undefined) {
          if (Option.isNone(renderer)) {
            return yield* new Errors.ServiceUnavailable({ error: "page images are not configured on this server" })
          }
          image = yield* asCaller((caller) =>
            PageImages.render(caller, id, { page, width }).pipe(
              Effect.provideService(PageImages.PageRenderer, renderer.value),
              Effect.catchTags({
                PageNotFound: (e) => Effect.fail(renderError(e)),
                DocumentError: (e) => Effect.fail(renderError(e))
              })
            )
          )
          cache.set(key, image)
        }
        return HttpServerResponse.uint8Array(image.bytes, {
          contentType: image.mimeType,
          headers: {
            ...headers,
            "x-page-width": String(image.pageWidth),
            "x-page-height": String(image.pageHeight),
            "x-page-count": String(image.numPages)
          }
        })
      })
    )
  })
)
