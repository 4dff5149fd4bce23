/**
 * One synthetic text line as the pipeline would see it on a page: drawn with mupdf (font, size, ink and paper grey
 * levels, a slight rotation), degraded (blur, noise, JPEG round trip, resolution loss), as a grey `PageImage`.
 * The caller runs the real detector and crop on it, so training sees the same crops as inference.
 */

import type { Random } from "@legible/ocr-onnx/bench/random.ts"
import type { PageImage } from "@legible/ocr-onnx/training"
import * as mupdf from "mupdf"
import type { TrainingFont } from "./fonts.ts"
import { int, pick } from "./text.ts"

/** How one line is drawn and degraded (all chosen by `randomStyle`). */
export interface LineStyle {
  readonly font: TrainingFont
  /** Font size in pixels (10 pt at 200 DPI is 28 px; 8 pt at 150 DPI 17 px). */
  readonly size: number
  readonly degrees: number
  readonly ink: number
  readonly paper: number
  /** Box-blur passes (0–2). */
  readonly blur: number
  /** Uniform noise amplitude, grey levels. */
  readonly noise: number
  /** JPEG quality, or 0 for none. */
  readonly jpeg: number
  /** Down-then-up resampling factor (1: none; 0.6: a 120 DPI scan of a 200 DPI page). */
  readonly resample: number
}

/** A random style: mostly clean print, a third scanned-looking, some receipt-like (monospace, low resolution). */
export const randomStyle = (random: Random, fonts: ReadonlyArray<TrainingFont>): LineStyle => {
  const receipt = random() < 0.25
  const pool = receipt ? fonts.filter((f) => f.mono) : fonts
  const degraded = random() < 0.45
  return {
    font: pick(random, pool),
    size: int(random, 15, 40),
    degrees: (random() * 2 - 1) * (degraded ? 1.5 : 0.4),
    ink: int(random, 0, degraded ? 110 : 40),
    paper: int(random, degraded ? 170 : 225, 255),
    blur: degraded ? int(random, 0, 2) : random() < 0.15 ? 1 : 0,
    noise: degraded ? int(random, 0, 40) : int(random, 0, 6),
    jpeg: degraded && random() < 0.6 ? int(random, 25, 85) : 0,
    resample: degraded && random() < 0.5 ? 0.5 + random() * 0.4 : 1
  }
}

const advance = (font: mupdf.Font, text: string): number => {
  let width = 0
  for (const c of text) width += font.advanceGlyph(font.encodeCharacter(c.codePointAt(0)!))
  return width
}

// A centre-weighted 3×3 kernel (lighter than a plain box), as [dx, dy, weight] row by row: 1 2 1 / 2 4 2 / 1 2 1.
const KERNEL: ReadonlyArray<readonly [number, number, number]> = [-1, 0, 1].flatMap((dy) =>
  [-1, 0, 1].map((dx) => [dx, dy, (2 - Math.abs(dx)) * (2 - Math.abs(dy))] as const)
)

const boxBlur = (data: Uint8Array, width: number, height: number): Uint8Array => {
  const out = new Uint8Array(data.length)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0
      let n = 0
      for (const [dx, dy, w] of KERNEL) {
        const xx = x + dx
        const yy = y + dy
        if (xx < 0 || xx >= width || yy < 0 || yy >= height) continue
        sum += data[yy * width + xx]! * w
        n += w
      }
      out[y * width + x] = Math.round(sum / n)
    }
  }
  return out
}

/** Bilinear resize of a grey image. */
const resize = (data: Uint8Array, width: number, height: number, w: number, h: number): Uint8Array => {
  const out = new Uint8Array(w * h)
  for (let y = 0; y < h; y++) {
    const fy = Math.min(Math.max((y + 0.5) * (height / h) - 0.5, 0), height - 1)
    const y0 = Math.floor(fy)
    const y1 = Math.min(y0 + 1, height - 1)
    const ay = fy - y0
    for (let x = 0; x < w; x++) {
      const fx = Math.min(Math.max((x + 0.5) * (width / w) - 0.5, 0), width - 1)
      const x0 = Math.floor(fx)
      const x1 = Math.min(x0 + 1, width - 1)
      const ax = fx - x0
      const top = data[y0 * width + x0]! * (1 - ax) + data[y0 * width + x1]! * ax
      const bottom = data[y1 * width + x0]! * (1 - ax) + data[y1 * width + x1]! * ax
      out[y * w + x] = Math.round(top * (1 - ay) + bottom * ay)
    }
  }
  return out
}

const jpegRoundTrip = (data: Uint8Array, width: number, height: number, quality: number): Uint8Array => {
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, width, height], false)
  pixmap.getPixels().set(data)
  const bytes = pixmap.asJPEG(quality, false).slice()
  pixmap.destroy()
  const image = new mupdf.Image(bytes)
  const decoded = image.toPixmap()
  const out = new Uint8Array(width * height)
  const stride = decoded.getStride()
  const pixels = decoded.getPixels()
  for (let y = 0; y < height; y++) out.set(pixels.subarray(y * stride, y * stride + width), y * width)
  decoded.destroy()
  image.destroy()
  return out
}

/** The line drawn and degraded, on a margin of paper, as a one-channel page image. */
export const renderLine = (text: string, style: LineStyle, random: Random): PageImage => {
  const { font, size } = style
  const textWidth = advance(font.font, text) * size
  const marginX = Math.round(size * (0.6 + random()))
  const marginY = Math.round(size * (0.5 + random() * 0.6))
  const width = Math.ceil(textWidth + 2 * marginX)
  const height = Math.ceil(size * 1.3 + 2 * marginY)
  const pixmap = new mupdf.Pixmap(mupdf.ColorSpace.DeviceGray, [0, 0, width, height], false)
  pixmap.clear(255)
  const device = new mupdf.DrawDevice(mupdf.Matrix.identity, pixmap)
  const line = new mupdf.Text()
  line.showString(font.font, [size, 0, 0, -size, marginX, marginY + size * 0.95], text)
  const cx = width / 2
  const cy = height / 2
  const ctm = mupdf.Matrix.concat(
    mupdf.Matrix.concat(mupdf.Matrix.translate(-cx, -cy), mupdf.Matrix.rotate(style.degrees)),
    mupdf.Matrix.translate(cx, cy)
  )
  device.fillText(line, ctm, mupdf.ColorSpace.DeviceGray, [0], 1)
  device.close()
  device.destroy()
  line.destroy()
  const stride = pixmap.getStride()
  const pixels = pixmap.getPixels()
  let data: Uint8Array = new Uint8Array(width * height)
  for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width), y * width)
  pixmap.destroy()

  const range = style.paper - style.ink
  for (let i = 0; i < data.length; i++) data[i] = Math.round(style.ink + (range * data[i]!) / 255)
  if (style.resample < 1) {
    const w = Math.max(8, Math.round(width * style.resample))
    const h = Math.max(8, Math.round(height * style.resample))
    data = resize(resize(data, width, height, w, h), w, h, width, height)
  }
  for (let pass = 0; pass < style.blur; pass++) data = boxBlur(data, width, height)
  if (style.noise > 0) {
    for (let i = 0; i < data.length; i++) {
      data[i] = Math.min(255, Math.max(0, data[i]! + Math.round((random() * 2 - 1) * style.noise)))
    }
  }
  if (style.jpeg > 0) data = jpegRoundTrip(data, width, height, style.jpeg)
  return { width, height, channels: 1, data }
}
