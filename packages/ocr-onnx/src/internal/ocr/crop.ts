import type { OrientedBox } from "./box.js"
import type { OcrConfig } from "./config.js"
import { type PageImage, sampleRgb } from "./image.js"

/**
 * A text line warped straight out of the page: a normalised [3, height, width] tensor (BGR, (x/255 − 0.5)/0.5)
 * and its gray levels, at a uniform `scale` page pixels per crop pixel. Crop column i covers the box's
 * u ∈ −width/2 + [i, i + 1)·scale.
 */
export interface LineCrop {
  readonly box: OrientedBox
  readonly width: number
  readonly height: number
  readonly scale: number
  readonly tensor: Float32Array
  readonly gray: Float32Array
}

/**
 * Bilinear affine warp of an oriented box into the recognition input: height `recHeight`, width proportional and
 * rounded up to a multiple of 8 (the model emits one timestep per 8 columns) by reading a little past the box end
 * rather than padding, so the mapping stays uniform.
 */
export const cropLine = (image: PageImage, box: OrientedBox, config: OcrConfig): LineCrop => {
  const height = config.recHeight
  const scale = box.height / height
  const width = Math.max(8, Math.ceil(box.width / scale / 8) * 8)
  const plane = width * height
  const tensor = new Float32Array(3 * plane)
  const gray = new Float32Array(plane)
  const c = Math.cos(box.angle)
  const s = Math.sin(box.angle)
  // The bilinear sample of `sampleRgb`, inlined (this loop runs over every recognition input pixel of the page):
  // along a row, the page position advances by (c, s)·scale per column.
  const { data, channels } = image
  const iw = image.width
  const maxX = iw - 1
  const maxY = image.height - 1
  // Channel offsets of R, G, B (all 0 for gray).
  const g = channels === 1 ? 0 : 1
  const b = channels === 1 ? 0 : 2
  const u0 = -box.width / 2 + 0.5 * scale
  for (let j = 0; j < height; j++) {
    const v = -box.height / 2 + (j + 0.5) * scale
    const x0 = box.cx + u0 * c - v * s - 0.5
    const y0 = box.cy + u0 * s + v * c - 0.5
    const row = j * width
    for (let i = 0; i < width; i++) {
      const fx = Math.min(Math.max(x0 + i * scale * c, 0), maxX)
      const fy = Math.min(Math.max(y0 + i * scale * s, 0), maxY)
      const xa = Math.floor(fx)
      const ya = Math.floor(fy)
      const ax = fx - xa
      const ay = fy - ya
      const p00 = (ya * iw + xa) * channels
      const p10 = xa < maxX ? p00 + channels : p00
      const p01 = ya < maxY ? p00 + iw * channels : p00
      const p11 = xa < maxX ? p01 + channels : p01
      const w00 = (1 - ax) * (1 - ay)
      const w10 = ax * (1 - ay)
      const w01 = (1 - ax) * ay
      const w11 = ax * ay
      const red = data[p00]! * w00 + data[p10]! * w10 + data[p01]! * w01 + data[p11]! * w11
      const green = data[p00 + g]! * w00 + data[p10 + g]! * w10 + data[p01 + g]! * w01 + data[p11 + g]! * w11
      const blue = data[p00 + b]! * w00 + data[p10 + b]! * w10 + data[p01 + b]! * w01 + data[p11 + b]! * w11
      const k = row + i
      tensor[k] = blue / 127.5 - 1
      tensor[plane + k] = green / 127.5 - 1
      tensor[2 * plane + k] = red / 127.5 - 1
      gray[k] = 0.299 * red + 0.587 * green + 0.114 * blue
    }
  }
  return { box, width, height, scale, tensor, gray }
}

/** Height factor and length (in heights) of each crop of `glyphBoxes`. */
const GLYPH_CROPS: ReadonlyArray<readonly [number, number]> = [
  [1, 2],
  [1.3, 2]
]

/**
 * The crops a lone glyph is read again from (`OcrConfig.glyphMaxAspect`), around the same centre and axis: as high
 * and twice as long as high (the blank of its column on both sides), and 1.3 times as high and twice that long.
 * Alone in its tight crop a "1" reads "|", "I" or "1" at under even odds; a little more of the page around it tips
 * it (MEASUREMENTS.md, "Lone glyphs").
 */
export const glyphBoxes = (box: OrientedBox): Array<OrientedBox> =>
  GLYPH_CROPS.map(([high, long]) => ({
    ...box,
    height: box.height * high,
    width: Math.max(box.width, long * box.height * high)
  }))

/** A crop's background gray level, how far its ink stands from it, and the text's polarity. */
export interface TextLevels {
  readonly background: number
  readonly contrast: number
  readonly darkText: boolean
}

/**
 * Rows left out at the top and bottom of a crop when its text is measured: the unclipped box reaches into the
 * neighbouring lines' ascenders and descenders.
 */
const centralMargin = (height: number): number => Math.floor(height / 8)

/**
 * A crop's text levels from its central rows: the background is the median, the ink the far 2 % tail on the side
 * farther from it (light-on-dark lines work too). Undefined for a flat crop (blank, or a solid bar).
 */
export const textLevels = (crop: LineCrop): TextLevels | undefined => {
  const { width, height, gray } = crop
  const margin = centralMargin(height)
  const hist = new Uint32Array(256)
  for (let j = margin; j < height - margin; j++) {
    for (let i = 0; i < width; i++) hist[Math.min(255, Math.max(0, Math.round(gray[j * width + i]!)))]! += 1
  }
  const total = (height - 2 * margin) * width
  const percentile = (q: number): number => {
    let acc = 0
    for (let g = 0; g < 256; g++) {
      acc += hist[g]!
      if (acc >= q * total) return g
    }
    return 255
  }
  const background = percentile(0.5)
  const dark = percentile(0.02)
  const light = percentile(0.98)
  const darkText = background - dark >= light - background
  const contrast = darkText ? background - dark : light - background
  return contrast < 24 ? undefined : { background, contrast, darkText }
}

/** How much ink a crop pixel's gray level is: 0 at the background, 1 at the text's contrast (not clamped). */
export const inkOf = (levels: TextLevels, gray: number): number =>
  (levels.darkText ? levels.background - gray : gray - levels.background) / levels.contrast

/** Which crop columns hold ink (1) or none (0) in their central rows (`textLevels`). */
export const inkColumns = (crop: LineCrop): Uint8Array => {
  const { width, height, gray } = crop
  const columns = new Uint8Array(width)
  const levels = textLevels(crop)
  // A flat crop has no characters to separate.
  if (levels === undefined) return columns
  const margin = centralMargin(height)
  for (let i = 0; i < width; i++) {
    for (let j = margin; j < height - margin; j++) {
      if (inkOf(levels, gray[j * width + i]!) > 0.4) {
        columns[i] = 1
        break
      }
    }
  }
  return columns
}

/**
 * Column ranges [start, end) of at most `maxWidth` columns (multiples of 8) covering the crop, cut in the middle
 * of the widest ink-free run of each window's last half, so that a long line is recognised in pieces without
 * cutting through a character.
 */
export const splitColumns = (ink: Uint8Array, maxWidth: number): Array<readonly [number, number]> => {
  const width = ink.length
  const step = Math.max(8, Math.floor(maxWidth / 8) * 8)
  const out: Array<readonly [number, number]> = []
  let start = 0
  while (width - start > step) {
    let best = -1
    let bestLen = 0
    let run = 0
    for (let i = start + step / 2; i < start + step; i++) {
      run = ink[i] === 1 ? 0 : run + 1
      if (run > bestLen) {
        bestLen = run
        best = i - Math.floor(run / 2)
      }
    }
    const cut = best < 0 ? start + step : Math.max(start + 8, Math.round(best / 8) * 8)
    out.push([start, cut])
    start = cut
  }
  out.push([start, width])
  return out
}

/** The recognition tensor of crop columns [start, end) (the crop's own tensor when that is all of it). */
export const sliceColumns = (crop: LineCrop, start: number, end: number): Float32Array => {
  if (start === 0 && end === crop.width) return crop.tensor
  const w = end - start
  const out = new Float32Array(3 * crop.height * w)
  for (let c = 0; c < 3; c++) {
    for (let j = 0; j < crop.height; j++) {
      const from = (c * crop.height + j) * crop.width + start
      out.set(crop.tensor.subarray(from, from + w), (c * crop.height + j) * w)
    }
  }
  return out
}

/**
 * Writes the classifier input for one box into `batch` at slot `index` ([N, 3, clsHeight, clsWidth]): the box at
 * height `clsHeight`, as wide as its aspect ratio allows up to `clsWidth` (squeezed beyond it), zero-padded on
 * the right, as PaddleOCR's cls resize does.
 */
export const writeClsInput = (
  image: PageImage,
  box: OrientedBox,
  config: OcrConfig,
  batch: Float32Array,
  index: number
): void => {
  const height = config.clsHeight
  const width = config.clsWidth
  const used = Math.max(1, Math.min(width, Math.ceil((height * box.width) / box.height)))
  const sx = box.width / used
  const sy = box.height / height
  const c = Math.cos(box.angle)
  const s = Math.sin(box.angle)
  const plane = width * height
  const base = index * 3 * plane
  const rgb = new Float32Array(3)
  batch.fill(0, base, base + 3 * plane)
  for (let j = 0; j < height; j++) {
    const v = -box.height / 2 + (j + 0.5) * sy
    for (let i = 0; i < used; i++) {
      const u = -box.width / 2 + (i + 0.5) * sx
      sampleRgb(image, box.cx + u * c - v * s, box.cy + u * s + v * c, rgb)
      const k = base + j * width + i
      batch[k] = rgb[2]! / 127.5 - 1
      batch[plane + k] = rgb[1]! / 127.5 - 1
      batch[2 * plane + k] = rgb[0]! / 127.5 - 1
    }
  }
}
