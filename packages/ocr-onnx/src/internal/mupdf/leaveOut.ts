/**
 * Rendering a page with the images it may not decode left out (runs inside a worker thread).
 *
 * `renderLeavingOut(page, matrix, keep)` → an RGB pixmap of the page as `page.toPixmap` draws it (white background,
 * annotations), except that every image `keep` refuses is not drawn, so mupdf never decodes it. An image over the
 * pixel cap cannot be downsampled safely instead: mupdf.js decodes an `Image` only at full size (`toPixmap`), and
 * its draw device reduces while decoding only JPEGs (at most 1/8 a side); Flate, LZW, JPX, JBIG2 and fax images are
 * decoded whole before any reduction, which is exactly what the cap is there to prevent.
 *
 * The page is run through a JavaScript device that forwards every call to a draw device and drops the refused
 * images: a refused image used as a clipping mask clips everything (the content it would reveal is unknown).
 */
import * as mupdf from "mupdf"

// Every wrapper a device callback receives holds a reference into the WASM heap: released right after forwarding.
const release = (...held: ReadonlyArray<{ destroy(): void }>) => {
  for (const object of held) object.destroy()
}

// Device callbacks receive colours as plain arrays; mupdf.js copies 1, 3 or 4 components into the WASM heap and no
// other count (DeviceN colours of other sizes are drawn from zeros here, where mupdf.js would use stale values).
const isColor = (c: ReadonlyArray<number>): c is mupdf.Color => c.length === 1 || c.length === 3 || c.length === 4
const color = (c: Array<number>): mupdf.Color => (isColor(c) ? c : [0, 0, 0, 0])

const filtering = (target: mupdf.Device, keep: (image: mupdf.Image) => boolean): mupdf.Device =>
  new mupdf.Device({
    fillPath: (path, evenOdd, ctm, colorspace, c, alpha) => {
      target.fillPath(path, evenOdd, ctm, colorspace, color(c), alpha)
      release(path)
    },
    strokePath: (path, stroke, ctm, colorspace, c, alpha) => {
      target.strokePath(path, stroke, ctm, colorspace, color(c), alpha)
      release(path, stroke)
    },
    clipPath: (path, evenOdd, ctm) => {
      target.clipPath(path, evenOdd, ctm)
      release(path)
    },
    clipStrokePath: (path, stroke, ctm) => {
      target.clipStrokePath(path, stroke, ctm)
      release(path, stroke)
    },
    fillText: (text, ctm, colorspace, c, alpha) => {
      target.fillText(text, ctm, colorspace, color(c), alpha)
      release(text)
    },
    strokeText: (text, stroke, ctm, colorspace, c, alpha) => {
      target.strokeText(text, stroke, ctm, colorspace, color(c), alpha)
      release(text, stroke)
    },
    clipText: (text, ctm) => {
      target.clipText(text, ctm)
      release(text)
    },
    clipStrokeText: (text, stroke, ctm) => {
      target.clipStrokeText(text, stroke, ctm)
      release(text, stroke)
    },
    ignoreText: (text, ctm) => {
      target.ignoreText(text, ctm)
      release(text)
    },
    fillShade: (shade, ctm, alpha) => target.fillShade(shade, ctm, alpha),
    fillImage: (image, ctm, alpha) => {
      if (keep(image)) target.fillImage(image, ctm, alpha)
      release(image)
    },
    fillImageMask: (image, ctm, colorspace, c, alpha) => {
      if (keep(image)) target.fillImageMask(image, ctm, colorspace, color(c), alpha)
      release(image)
    },
    clipImageMask: (image, ctm) => {
      // The clip must still be pushed, so that the page's popClip stays balanced: an empty path clips everything.
      if (keep(image)) target.clipImageMask(image, ctm)
      else {
        const empty = new mupdf.Path()
        target.clipPath(empty, false, ctm)
        empty.destroy()
      }
      release(image)
    },
    popClip: () => target.popClip(),
    beginMask: (area, luminosity, colorspace, c) => target.beginMask(area, luminosity, colorspace, color(c)),
    endMask: () => target.endMask(),
    beginGroup: (area, colorspace, isolated, knockout, blendmode, alpha) =>
      target.beginGroup(area, colorspace, isolated, knockout, blendmode, alpha),
    endGroup: () => target.endGroup(),
    beginTile: (area, view, xstep, ystep, ctm, id, docId) => target.beginTile(area, view, xstep, ystep, ctm, id, docId),
    endTile: () => target.endTile(),
    beginLayer: (name) => target.beginLayer(name),
    endLayer: () => target.endLayer()
  })

/** The page drawn with `matrix` into an RGB pixmap (white background), without the images `keep` refuses. */
export const renderLeavingOut = (
  page: mupdf.Page,
  matrix: mupdf.Matrix,
  keep: (image: mupdf.Image) => boolean
): mupdf.Pixmap => {
  // The same pixel box as page.toPixmap (fz_round_rect: outwards, with mupdf's 0.001 tolerance).
  const [x0, y0, x1, y1] = mupdf.Rect.transform(page.getBounds(), matrix)
  const box: mupdf.Rect = [Math.floor(x0 + 0.001), Math.floor(y0 + 0.001), Math.ceil(x1 - 0.001), Math.ceil(y1 - 0.001)]
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceRGB, box, false)
  try {
    pixmap.clear(255)
    const draw = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap)
    const device = filtering(draw, keep)
    try {
      page.run(device, matrix)
      device.close()
      draw.close()
    } finally {
      device.destroy()
      draw.destroy()
    }
    return pixmap
  } catch (error) {
    pixmap.destroy()
    throw error
  }
}
