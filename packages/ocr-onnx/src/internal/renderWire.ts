/** What the page renderer's main thread (`renderer.ts`) and its worker threads (`renderWorker.ts`) say. */
import { Document } from "@legible/core"
import { Schema } from "effect"

/** One page to render: the document's bytes, the 1-based page and the width in pixels. */
export const RenderTask = Schema.Struct({ bytes: Schema.Uint8Array, page: Schema.Int, width: Schema.Int })
/** One page to render. */
export type RenderTask = typeof RenderTask.Type

/** The worker's answer: the PNG, a page number past the end, or why the document cannot be rendered. */
export const RenderResult = Schema.Union([
  Schema.TaggedStruct("Rendered", {
    bytes: Schema.Uint8Array,
    width: Schema.Int,
    height: Schema.Int,
    pageWidth: Schema.Finite,
    pageHeight: Schema.Finite,
    numPages: Schema.Int
  }),
  Schema.TaggedStruct("OutOfRange", { numPages: Schema.Int }),
  Schema.TaggedStruct("Refused", { reason: Document.DocumentError.fields.reason, message: Schema.String })
])
/** The worker's answer. */
export type RenderResult = typeof RenderResult.Type
