/**
 * Rendering pages for OCR, and page images for vision models. Runs inside a worker thread.
 *
 * - `renderForOcr(page, kind, limits, options?)` → `RenderedPage`: RGB pixels (copied out of the WASM heap), packed
 *   rows, `scale` = points per pixel, and the page size in points. The resolution:
 *   - a page covered by one image (a scan) is rendered at that image's native pixel size, so nothing is resampled
 *     away or blown up (DPI metadata is not trusted: it is often wrong, e.g. a px/cm density read as 508 DPI);
 *     within a PDF, clamped to 150–300 DPI of the page's real size;
 *   - any other PDF page at 200 DPI;
 *   - always within `limits.maxRenderPixels` / `maxRenderSide` (the resolution drops to fit); a page that would
 *     fall below `limits.minRenderDpi` is `TooManyPixels`.
 *   An image inside a PDF page that declares over `limits.maxImagePixels` is never decoded: the page is rendered
 *   without it (`leaveOut.ts` says why it is not downsampled instead), and `leftOut` lists the declared sizes of
 *   the images left out, so the caller can record the page as degraded.
 *   Image documents (PNG, TIFF…) have no physical size: each native pixel counts as 72/200 pt (a 200 DPI scan),
 *   as core's `ReadPage` documents, so the page size in points is independent of the render caps. Small ones
 *   (longest side under `minImageSide`, e.g. a 100 DPI form) are enlarged towards it, at most `maxUpscale`×, so
 *   their text reaches the size the detector expects; large ones (longest side over `maxImageSide`, e.g. a 600 DPI
 *   scan) are rendered down to it; their coordinates still count 0.36 pt per native pixel.
 * - `pageImage(page, kind, budget, limits)` → PNG or JPEG bytes encoded by mupdf at the page's own resolution
 *   (a scan's native pixels, else 200 DPI; never enlarged), shrunk until the longest side ≤ `budget.maxSide` and
 *   the bytes ≤ `budget.maxBytes` (JPEG quality is lowered first, then the size). Best effort below 16 pixels a
 *   side: that image is returned whatever its size. Oversized images are left out as for OCR (`leftOut`).
 */
import type { Document } from "@legible/core"
import { Effect } from "effect"
import * as mupdf from "mupdf"
import type { Rect } from "../ocr/box.js"
import { attempt, documentError } from "./errors.js"
import type { FrameSize } from "./imageHeader.js"
import { renderLeavingOut } from "./leaveOut.js"
import type { Limits } from "./limits.js"

/** Resolution choices of OCR renders. */
export interface RenderOptions {
  /** DPI of pages that are not scans. */
  readonly dpi: number
  /** Scans inside PDFs are rendered at their native resolution clamped to this range (DPI). */
  readonly minScanDpi: number
  readonly maxScanDpi: number
  /** A page is a scan when one image covers at least this share of it. */
  readonly scanCoverage: number
  /** Image documents whose longest side is shorter are enlarged towards it (low-resolution scans, screenshots)… */
  readonly minImageSide: number
  /** …by at most this factor. */
  readonly maxUpscale: number
  /**
   * Image documents whose longest side is longer are rendered down to it (a 600 DPI scan at half its size): their
   * text is then still larger than the recognizer's 48 px lines, and mupdf decodes a JPEG at a power-of-two
   * reduction for a fraction of the work (a 4961 × 7016 SROIE receipt: 1.15 s of CPU at full size).
   */
  readonly maxImageSide: number
}

/**
 * Defaults: 200 DPI; scans at 150–300 DPI; one image over half the page makes a scan; image documents enlarged
 * to a longest side of 2,000 px (a Letter page at 180 DPI), at most 2.5×, so that a 100 DPI form (FUNSD) reaches
 * the text size the detector is tuned for.
 */
export const defaultRenderOptions: RenderOptions = {
  dpi: 200,
  minScanDpi: 150,
  maxScanDpi: 300,
  scanCoverage: 0.5,
  minImageSide: 2000,
  maxUpscale: 2.5,
  maxImageSide: 3508
}

/** A page rendered for OCR: RGB rows, `scale` points per pixel, the page size in points. */
export interface RenderedPage {
  readonly width: number
  readonly height: number
  readonly channels: 3
  readonly data: Uint8Array
  readonly scale: number
  readonly pageWidth: number
  readonly pageHeight: number
  /** The declared sizes of the images over the pixel cap that the render left out (empty: the whole page). */
  readonly leftOut: ReadonlyArray<FrameSize>
}

/** What a page image may weigh. */
export interface ImageBudget {
  readonly maxSide: number
  readonly maxBytes: number
  readonly format: "png" | "jpeg"
}

/** An encoded page image. */
export interface EncodedImage {
  readonly mimeType: "image/png" | "image/jpeg"
  readonly bytes: Uint8Array
  readonly width: number
  readonly height: number
}

/** How a page is rendered: mupdf zoom (pixels per page unit) and the page size in points. */
interface Plan {
  readonly zoom: number
  /** The zoom of the page's own resolution (never enlarged), capped like `zoom`: for page images. */
  readonly source: number
  readonly pageWidth: number
  readonly pageHeight: number
  readonly scale: number
  /** Images over the pixel cap: left out of the render. */
  readonly leftOut: ReadonlyArray<FrameSize>
}

/** Whether an image's declared size (and its soft mask's) is within the cap: only then may mupdf decode it. */
export const withinCap = (image: mupdf.Image, limits: Limits): boolean => {
  if (image.getWidth() * image.getHeight() > limits.maxImagePixels) return false
  const mask = image.getMask()
  if (mask === null) return true
  const fits = mask.getWidth() * mask.getHeight() <= limits.maxImagePixels
  mask.destroy()
  return fits
}

// The largest image on the page within the cap: its share of the page and its native pixels per page unit along
// the page's x and y axes (an image placed turned by 90° has its width along y); and the images over the cap.
const scanOf = (page: mupdf.Page, limits: Limits, pageArea: number) => {
  let best: { coverage: number; zoomX: number; zoomY: number } | undefined
  const leftOut: Array<FrameSize> = []
  const stext = page.toStructuredText("preserve-images")
  try {
    stext.walk({
      onImageBlock: (bbox, [a, b, c, d], image) => {
        const width = image.getWidth()
        const height = image.getHeight()
        const fits = withinCap(image, limits)
        image.destroy()
        if (!fits) {
          leftOut.push({ width, height })
          return
        }
        const coverage = ((bbox[2] - bbox[0]) * (bbox[3] - bbox[1])) / pageArea
        const upright = Math.abs(a) + Math.abs(d) >= Math.abs(b) + Math.abs(c)
        const zoomX = upright ? width / Math.max(Math.abs(a), 1e-6) : height / Math.max(Math.abs(c), 1e-6)
        const zoomY = upright ? height / Math.max(Math.abs(d), 1e-6) : width / Math.max(Math.abs(b), 1e-6)
        if (best === undefined || coverage > best.coverage) best = { coverage, zoomX, zoomY }
      }
    })
  } finally {
    stext.destroy()
  }
  return { best, leftOut }
}

export const plan = (
  page: mupdf.Page,
  kind: "pdf" | "image",
  limits: Limits,
  options: RenderOptions
): Effect.Effect<Plan, Document.DocumentError> =>
  Effect.gen(function* () {
    const [x0, y0, x1, y1] = yield* attempt(() => page.getBounds(), "the page size cannot be read")
    const w = x1 - x0
    const h = y1 - y0
    if (!(w > 0 && h > 0)) return yield* documentError("Corrupt", "the page has an empty size")
    const { best, leftOut } = yield* attempt(() => scanOf(page, limits, w * h), "the page cannot be read")
    const isScan = best !== undefined && best.coverage >= options.scanCoverage
    // `source`: the zoom at which the page's own pixels map one to one (a scan's image), or the default DPI;
    // `zoom`: the OCR render's (scans clamped to a DPI range, small image documents enlarged).
    let source = options.dpi / 72
    let zoom = source
    let pageWidth = w
    let pageHeight = h
    if (kind === "image") {
      // An image document's page is its image: its native size defines the page in points (0.36 pt a pixel).
      const zoomX = best?.zoomX ?? source
      const zoomY = best?.zoomY ?? source
      source = Math.max(zoomX, zoomY)
      pageWidth = (w * zoomX * 72) / 200
      pageHeight = (h * zoomY * 72) / 200
      zoom = source * Math.min(Math.max(1, options.minImageSide / (Math.max(w, h) * source)), options.maxUpscale)
      zoom = Math.min(zoom, options.maxImageSide / Math.max(w, h))
    } else if (isScan) {
      source = Math.max(best.zoomX, best.zoomY)
      zoom = Math.min(Math.max(source * 72, options.minScanDpi), options.maxScanDpi) / 72
    }
    zoom = Math.min(zoom, Math.sqrt(limits.maxRenderPixels / (w * h)), limits.maxRenderSide / Math.max(w, h))
    // The resolution the render keeps, in DPI of the page (image documents: of their 200 DPI equivalent).
    const dpi = kind === "image" ? (200 * zoom) / source : zoom * 72
    if (dpi < limits.minRenderDpi) {
      return yield* documentError(
        "TooManyPixels",
        `the page (${Math.round(pageWidth)} × ${Math.round(pageHeight)} pt) would render at ${dpi.toFixed(1)} DPI ` +
          `within the limit of ${limits.maxRenderPixels / 1e6} megapixels`
      )
    }
    // Points per pixel from the zoom itself (pixel sizes are rounded): exact for every pixel coordinate.
    return { zoom, source: Math.min(source, zoom), pageWidth, pageHeight, scale: pageWidth / (w * zoom), leftOut }
  })

// A page with images over the cap goes through the filtering device; the others through mupdf's own path.
export const toPixmap = (
  page: mupdf.Page,
  zoom: number,
  leaveOut: ReadonlyArray<FrameSize>,
  limits: Limits
): mupdf.Pixmap =>
  leaveOut.length === 0
    ? page.toPixmap(mupdf.Matrix.scale(zoom, zoom), mupdf.ColorSpace.DeviceRGB, false, true)
    : renderLeavingOut(page, mupdf.Matrix.scale(zoom, zoom), (image) => withinCap(image, limits))

// getPixels() is a view into the WASM heap, invalid after the next mupdf call: copy it, dropping any row padding.
const copyPixels = (pixmap: mupdf.Pixmap): { width: number; height: number; data: Uint8Array } => {
  const width = pixmap.getWidth()
  const height = pixmap.getHeight()
  const stride = pixmap.getStride()
  const view = pixmap.getPixels()
  const row = width * 3
  if (stride === row)
    return { width, height, data: new Uint8Array(view.buffer.slice(view.byteOffset, view.byteOffset + row * height)) }
  const data = new Uint8Array(row * height)
  for (let y = 0; y < height; y++) data.set(view.subarray(y * stride, y * stride + row), y * row)
  return { width, height, data }
}

/** Renders a page to RGB pixels for OCR (see the module comment for the resolution). */
export const renderForOcr = (
  page: mupdf.Page,
  kind: "pdf" | "image",
  limits: Limits,
  options: RenderOptions = defaultRenderOptions
): Effect.Effect<RenderedPage, Document.DocumentError> =>
  Effect.flatMap(plan(page, kind, limits, options), ({ zoom, pageWidth, pageHeight, scale, leftOut }) =>
    attempt(() => {
      const pixmap = toPixmap(page, zoom, leftOut, limits)
      try {
        const { width, height, data } = copyPixels(pixmap)
        return { width, height, channels: 3 as const, data, scale, pageWidth, pageHeight, leftOut }
      } finally {
        pixmap.destroy()
      }
    }, "the page cannot be rendered")
  )

const encode = (pixmap: mupdf.Pixmap, format: "png" | "jpeg", quality: number): Uint8Array =>
  (format === "png" ? pixmap.asPNG() : pixmap.asJPEG(quality, false)).slice()

// Encodes at decreasing quality, then decreasing size, until the budget holds (or the image is 16 px a side).
const fitImage = (
  startZoom: number,
  size: number,
  budget: ImageBudget,
  render: (zoom: number) => mupdf.Pixmap
): EncodedImage => {
  const mimeType = budget.format === "png" ? "image/png" : "image/jpeg"
  let zoom = startZoom
  for (;;) {
    const pixmap = render(zoom)
    try {
      const width = pixmap.getWidth()
      const height = pixmap.getHeight()
      let bytes: Uint8Array = new Uint8Array(0)
      for (const quality of budget.format === "png" ? [0] : [85, 70, 55, 40]) {
        bytes = encode(pixmap, budget.format, quality)
        if (bytes.length <= budget.maxBytes) return { mimeType, bytes, width, height }
      }
      if (size * zoom <= 16) return { mimeType, bytes, width, height }
      // Bytes grow with the area: aim just under the budget, by at least 10 % and at most half per step.
      const factor = Math.min(0.9, Math.max(0.5, Math.sqrt(budget.maxBytes / bytes.length) * 0.95))
      zoom = Math.max(zoom * factor, 16 / size)
    } finally {
      pixmap.destroy()
    }
  }
}

/** A page image (PNG or JPEG) within `budget`, at most the OCR resolution, and the images it left out. */
export const pageImage = (
  page: mupdf.Page,
  kind: "pdf" | "image",
  budget: ImageBudget,
  limits: Limits,
  options: RenderOptions = defaultRenderOptions
): Effect.Effect<EncodedImage & { readonly leftOut: ReadonlyArray<FrameSize> }, Document.DocumentError> =>
  Effect.flatMap(plan(page, kind, limits, options), ({ source, leftOut }) =>
    attempt(() => {
      const [x0, y0, x1, y1] = page.getBounds()
      const size = Math.max(x1 - x0, y1 - y0)
      const render = (zoom: number) => toPixmap(page, zoom, leftOut, limits)
      return { ...fitImage(Math.min(source, budget.maxSide / size), size, budget, render), leftOut }
    }, "the page image cannot be rendered")
  )

/** What a page paints besides text: whether it draws any image or path, and any image over the pixel cap. */
export interface Graphics {
  readonly drawn: boolean
  readonly oversized: boolean
  /** The share of the page its largest image (within the cap) covers, and that image's native DPI. */
  readonly largest: { readonly coverage: number; readonly dpi: number } | undefined
  /** Where each image within the cap is drawn, in page points from the page's top left corner. */
  readonly images: ReadonlyArray<Rect>
}

/**
 * Runs the page through a device that draws nothing and notes images and paths (1–7 ms a page, MEASUREMENTS.md):
 * a page of text alone carries no code, and is not rendered for one. Declared image sizes only: nothing decoded.
 */
export const graphicsOf = (page: mupdf.Page, limits: Limits): Effect.Effect<Graphics, Document.DocumentError> =>
  attempt(() => {
    let drawn = false
    let oversized = false
    let largest: Graphics["largest"]
    const images: Array<Graphics["images"][number]> = []
    const [x0, y0, x1, y1] = page.getBounds()
    const area = Math.max((x1 - x0) * (y1 - y0), 1e-6)
    // The unit square the image fills, mapped by `ctm`: its area on the page, and pixels per point along its width.
    const image = (picture: mupdf.Image, [a, b, c, d, e, f]: mupdf.Matrix) => {
      drawn = true
      if (!withinCap(picture, limits)) oversized = true
      else {
        const coverage = Math.abs(a * d - b * c) / area
        const dpi = (72 * picture.getWidth()) / Math.max(Math.hypot(a, b), 1e-6)
        if (largest === undefined || coverage > largest.coverage) largest = { coverage, dpi }
        const xs = [e, a + e, c + e, a + c + e]
        const ys = [f, b + f, d + f, b + d + f]
        images.push({
          x0: Math.min(...xs) - x0,
          y0: Math.min(...ys) - y0,
          x1: Math.max(...xs) - x0,
          y1: Math.max(...ys) - y0
        })
      }
      picture.destroy()
    }
    const device = new mupdf.Device({
      fillPath: (path) => {
        drawn = true
        path.destroy()
      },
      strokePath: (path, stroke) => {
        drawn = true
        path.destroy()
        stroke.destroy()
      },
      fillShade: (shade) => {
        drawn = true
        shade.destroy()
      },
      fillImage: (picture, ctm) => image(picture, ctm),
      fillImageMask: (picture, ctm) => image(picture, ctm)
    })
    try {
      page.run(device, mupdf.Matrix.identity)
      device.close()
    } finally {
      device.destroy()
    }
    return { drawn, oversized, largest, images }
  }, "the page cannot be run")

/** A greyscale render: one byte a pixel, `scale` points a pixel. */
export interface GreyPage {
  readonly width: number
  readonly height: number
  readonly pixels: Uint8Array
  readonly scale: number
}

/**
 * The page in grey without alpha at `dpi` (within the render caps and `maxPixels`), for code detection: with alpha,
 * a page that paints no white background reaches the decoder transparent, read as black. Images over the cap are
 * left out as for OCR (`oversized`: through the filtering device, in RGB, then to grey).
 */
export const renderGrey = (
  page: mupdf.Page,
  dpi: number,
  limits: Limits,
  maxPixels: number,
  oversized: boolean
): Effect.Effect<GreyPage, Document.DocumentError> =>
  attempt(() => {
    const [x0, y0, x1, y1] = page.getBounds()
    const w = x1 - x0
    const h = y1 - y0
    const pixels = Math.min(limits.maxRenderPixels, maxPixels)
    const zoom = Math.min(dpi / 72, Math.sqrt(pixels / (w * h)), limits.maxRenderSide / Math.max(w, h))
    const matrix = mupdf.Matrix.scale(zoom, zoom)
    const pixmap = oversized
      ? renderLeavingOut(page, matrix, (image) => withinCap(image, limits))
      : page.toPixmap(matrix, mupdf.ColorSpace.DeviceGray, false, true)
    try {
      const width = pixmap.getWidth()
      const height = pixmap.getHeight()
      const n = pixmap.getNumberOfComponents()
      const stride = pixmap.getStride()
      const view = pixmap.getPixels()
      const grey = new Uint8Array(width * height)
      for (let y = 0; y < height; y++)
        for (let x = 0, at = y * stride; x < width; x++, at += n)
          grey[y * width + x] =
            n === 1
              ? (view[at] ?? 255)
              : (77 * (view[at] ?? 255) + 150 * (view[at + 1] ?? 255) + 29 * (view[at + 2] ?? 255)) >> 8
      return { width, height, pixels: grey, scale: 1 / zoom }
    } finally {
      pixmap.destroy()
    }
  }, "the page cannot be rendered for codes")

/** Text-layer pages are rendered for codes at this resolution: ≥ 2 cm codes read at 150 DPI (`bench/codes.run.ts`). */
export const TEXT_PAGE_CODES_DPI = 150

/**
 * A scan with a text layer (a phone or scanner app's OCR) is read for codes as OCR would read it: at its image's
 * own resolution, 150–300 DPI. A phone photo's blurred QR needs those pixels (`factura1475`: 200 DPI, not 150).
 */
export const codesDpi = (graphics: Graphics): number =>
  graphics.largest !== undefined && graphics.largest.coverage >= defaultRenderOptions.scanCoverage
    ? Math.min(Math.max(graphics.largest.dpi, defaultRenderOptions.minScanDpi), defaultRenderOptions.maxScanDpi)
    : TEXT_PAGE_CODES_DPI
