/**
 * A page image at a requested width, for the review console: a PNG `width` pixels wide (never over the render caps
 * of `Limits`), rendered through the same plan as OCR renders — images over the pixel cap left out, absurd page
 * sizes refused — with the page size in points, the unit of the words' boxes. Runs inside a worker thread.
 */
import type { Document } from "@legible/core"
import { Effect } from "effect"
import type * as mupdf from "mupdf"
import { attempt } from "./errors.js"
import type { Limits } from "./limits.js"
import { defaultRenderOptions, plan, toPixmap } from "./render.js"

/** A PNG of a page, its size in pixels and the page's size in points. */
export interface PagePng {
  readonly bytes: Uint8Array
  readonly width: number
  readonly height: number
  readonly pageWidth: number
  readonly pageHeight: number
}

/** Renders `page` as a PNG `width` pixels wide (less when the render caps say so). */
export const pageAtWidth = (
  page: mupdf.Page,
  kind: "pdf" | "image",
  width: number,
  limits: Limits
): Effect.Effect<PagePng, Document.DocumentError> =>
  Effect.flatMap(plan(page, kind, limits, defaultRenderOptions), ({ pageWidth, pageHeight, leftOut }) =>
    attempt(() => {
      const [x0, y0, x1, y1] = page.getBounds()
      const w = x1 - x0
      const h = y1 - y0
      const zoom = Math.min(
        width / w,
        Math.sqrt(limits.maxRenderPixels / (w * h)),
        limits.maxRenderSide / Math.max(w, h)
      )
      const pixmap = toPixmap(page, zoom, leftOut, limits)
      try {
        return {
          bytes: pixmap.asPNG().slice(),
          width: pixmap.getWidth(),
          height: pixmap.getHeight(),
          pageWidth,
          pageHeight
        }
      } finally {
        pixmap.destroy()
      }
    }, "the page image cannot be rendered")
  )
