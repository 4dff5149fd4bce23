/**
 * Page images (an extension beyond the spec, for the review console): `GET /v1/extractions/{id}/pages/{n}?width=W`
 * renders page `n` of the stored document as a PNG, with the API key and the tenancy and sandbox rules of every
 * other read.
 */
import { PageImages } from "@legible/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema } from "effect/http-api"
import * as Errors from "./Errors.js"
import { extension } from "./Extensions.js"
import { ExtractionId } from "./internal/schemas.js"
import { ApiKeyAuth } from "./Security.js"

/** 422 `{error}`: the stored document cannot be rendered within the reader's limits (damaged, a bomb, encrypted). */
export class Unrenderable extends Schema.Error<Unrenderable>("Unrenderable")(
  { error: Schema.String },
  { httpApiStatus: 422, description: "The document cannot be rendered within the reader's limits." }
) {}

/** The PNG of a page, with its size and the page's size in points in headers. */
export const PagePng = Schema.Uint8Array.pipe(HttpApiSchema.asUint8Array({ contentType: "image/png" })).annotate({
  description:
    "A PNG `width` pixels wide (fewer when the render limits say so). `ETag` (send `If-None-Match` for a 304), " +
    "`Cache-Control: private, no-cache`; `X-Page-Width` and `X-Page-Height` give the page's size in points, the " +
    "unit of the detailed read's word boxes (origin at the top-left corner); `X-Page-Count` the number of pages."
})

/** The page image endpoint (API key). */
export class PagesApi extends HttpApiGroup.make("pages")
  .add(
    HttpApiEndpoint.get("image", "/v1/extractions/:extraction_id/pages/:page", {
      params: {
        ...ExtractionId,
        page: Schema.String.annotate({ description: "The page number, from 1." })
      },
      query: {
        width: Schema.optionalKey(
          Schema.String.annotate({
            description: `Image width in pixels, ${PageImages.MIN_WIDTH} to ${PageImages.MAX_WIDTH}; default ${PageImages.DEFAULT_WIDTH}.`
          })
        )
      },
      success: PagePng,
      error: [Errors.NotFound, Unrenderable]
    })
  )
  .middleware(ApiKeyAuth)
  .pipe(
    extension(
      "Page images",
      "Page `n` (from 1) of an extraction's document as a PNG, rendered with mupdf off the event loop within the " +
        "reader's limits. 404 for another client's extraction or a page the document does not have; 400 for a bad " +
        "`width`; 422 when the document cannot be rendered (damaged, encrypted, over the limits)."
    )
  ) {}
