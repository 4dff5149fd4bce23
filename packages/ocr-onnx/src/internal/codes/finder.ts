/**
 * A cheap pre-check before zxing: does a greyscale page show a QR finder pattern or a PDF417 start/stop pattern?
 * zxing on a whole scanned page costs 10–17 % of its OCR (MEASUREMENTS.md); most pages carry no code, and this scan
 * of every other row costs a small part of that.
 *
 * Rows are thresholded against a moving mean along the row (a window of a third of the image width: wider than a
 * finder pattern even when one code fills the image), then read as runs of dark and light pixels:
 * - a QR finder pattern is dark–light–dark–light–dark in widths 1:1:3:1:1, confirmed by the same ratios down the
 *   column through its centre (text rarely gives both); two at distinct places are asked for (a symbol has three);
 * - a PDF417 start pattern is 8:1:1:1:1:1:1:3 (dark first) and its stop pattern 7:1:1:3:1:1:1:2:1, either read
 *   forwards or backwards (upside down), at one place on consecutive scanned rows (`PDF417_ROWS`). Only rows are scanned: a PDF417 turned by 90° on a
 *   page without a QR code is not looked for.
 * Rows two pixels apart find a finder whose centre square is at least 3 pixels (modules of 1 px and more).
 */

/** A greyscale image, one byte a pixel. */
export interface Grey {
  readonly width: number
  readonly height: number
  readonly pixels: Uint8Array | Uint8ClampedArray
}

const ROW_STEP = 2
// Modules under 1.5 px are not read reliably (bench/codes.run.ts: 2 cm codes at 100 DPI); text is full of 1 px runs.
const MIN_UNIT = 1.5
// A PDF417 symbol is at least 3 rows of 3 modules or more: its start pattern stands over 9 modules, 6 scanned rows at
// 1.5 px a module; text rarely repeats one pattern at one place on consecutive rows.
const PDF417_ROWS = 6
// Half a pixel more for the finder's runs, which a few degrees of turn at 2 px a module round either way; the PDF417
// patterns get none: eight runs with that much play match text (FUNSD, SROIE; bench/codes.run.ts).
const FINDER_SLACK = 0.5
// Module samples (of 49) that may disagree.
const MAX_WRONG = 8
// A pixel this much darker than the moving mean is dark: the paper's grain and JPEG noise stay light.
const MARGIN = 12

// Moving mean of a row, a window of 2·half+1, by prefix sums into reused buffers.
const movingMean = (
  pixels: ArrayLike<number>,
  start: number,
  count: number,
  half: number,
  prefix: Float64Array,
  mean: Float32Array
): void => {
  prefix[0] = 0
  for (let i = 0; i < count; i++) prefix[i + 1] = (prefix[i] ?? 0) + (pixels[start + i] ?? 255)
  for (let i = 0; i < count; i++) {
    const from = Math.max(0, i - half)
    const to = Math.min(count, i + half + 1)
    mean[i] = ((prefix[to] ?? 0) - (prefix[from] ?? 0)) / (to - from)
  }
}

/** Runs of a thresholded line into reused buffers: their count, and whether the first one is dark. */
const runsOf = (
  count: number,
  dark: (i: number) => boolean,
  widths: Int32Array,
  starts: Int32Array
): { readonly runs: number; readonly firstDark: boolean } => {
  const firstDark = count > 0 && dark(0)
  let current = firstDark
  let runs = 0
  let width = 0
  for (let i = 0; i < count; i++) {
    const d = dark(i)
    if (d === current) width++
    else {
      starts[runs] = i - width
      widths[runs++] = width
      current = d
      width = 1
    }
  }
  starts[runs] = count - width
  widths[runs++] = width
  return { runs, firstDark }
}

/**
 * Whether `widths[offset…]` match `ratios`: each run within half a unit per module of its expected width (zxing's
 * tolerance for finder patterns, which allows its 3-module centre 1.5 units), plus `slack` pixels.
 */
export const matchesRatios = (
  widths: ArrayLike<number>,
  ratios: ReadonlyArray<number>,
  offset = 0,
  slack = 0
): boolean => {
  let total = 0
  let modules = 0
  for (let i = 0; i < ratios.length; i++) {
    total += widths[offset + i] ?? 0
    modules += ratios[i] ?? 0
  }
  const unit = total / modules
  if (unit < 1) return false
  for (let i = 0; i < ratios.length; i++) {
    const ratio = ratios[i] ?? 0
    if (Math.abs((widths[offset + i] ?? 0) - ratio * unit) > (ratio * unit) / 2 + slack) return false
  }
  return true
}

const FINDER = [1, 1, 3, 1, 1]
const START = [8, 1, 1, 1, 1, 1, 1, 3]
const STOP = [7, 1, 1, 3, 1, 1, 1, 2, 1]
// Forwards, and backwards for a symbol upside down; each starts dark either way.
const PDF417 = [START, STOP, [...START].reverse().slice(1), [...STOP].reverse()]

// The finder pattern's ratios down the column through (x, y), thresholded at `threshold`, at the row's scale: the
// centre row of the pattern when it holds.
const confirmedDown = (image: Grey, x: number, y: number, unit: number, threshold: number): number | undefined => {
  const dark = (yy: number) => (image.pixels[yy * image.width + x] ?? 255) < threshold
  if (!dark(y)) return undefined
  const reach = Math.ceil(unit * 6)
  const widths = [0, 0, 0, 0, 0]
  // Centre run both ways, then light and dark outwards on each side.
  let up = y
  while (up > 0 && y - up < reach && dark(up - 1)) up--
  let down = y
  while (down < image.height - 1 && down - y < reach && dark(down + 1)) down++
  widths[2] = down - up + 1
  const side = (start: number, step: number, index: readonly [number, number]) => {
    let at = start
    let light = 0
    while (at >= 0 && at < image.height && light <= reach && !dark(at)) {
      light++
      at += step
    }
    let ring = 0
    while (at >= 0 && at < image.height && ring <= reach && dark(at)) {
      ring++
      at += step
    }
    widths[index[0]] = light
    widths[index[1]] = ring
  }
  side(up - 1, -1, [1, 0])
  side(down + 1, 1, [3, 4])
  // The same pattern at the same scale: a finder is square; text strokes that match one way rarely do the other.
  const total = widths.reduce((a, b) => a + b, 0)
  const square = total >= 7 * unit * 0.7 && total <= 7 * unit * 1.4
  return matchesRatios(widths, FINDER, 0, FINDER_SLACK) && square ? Math.round((up + down) / 2) : undefined
}

// The whole pattern, module by module around its centre: the 3 × 3 core and the outer ring dark, the ring between
// light; sampled at each module's centre, a few samples may disagree (blur, rounding, a few degrees of turn).
const patternHolds = (image: Grey, x: number, y: number, unit: number, threshold: number): boolean => {
  let wrong = 0
  for (let dy = -3; dy <= 3; dy++)
    for (let dx = -3; dx <= 3; dx++) {
      const px = Math.round(x + dx * unit)
      const py = Math.round(y + dy * unit)
      if (px < 0 || py < 0 || px >= image.width || py >= image.height) return false
      const ring = Math.max(Math.abs(dx), Math.abs(dy))
      if ((image.pixels[py * image.width + px] ?? 255) < threshold !== (ring !== 2)) wrong++
    }
  return wrong <= MAX_WRONG
}

interface Finder {
  readonly x: number
  readonly y: number
  readonly unit: number
}

/**
 * Whether two finders can belong to one QR symbol: modules of the same size (within 1.5×), and centres 14 to 170
 * modules apart (versions 1 to 40) along a side or its diagonal.
 */
export const partners = (a: Finder, b: Finder): boolean => {
  const ratio = a.unit / b.unit
  if (ratio > 1.5 || ratio < 1 / 1.5) return false
  const unit = (a.unit + b.unit) / 2
  const distance = Math.hypot(a.x - b.x, a.y - b.y) / unit
  return distance >= 14 * 0.8 && distance <= 170 * Math.SQRT2 * 1.2
}

/** Whether the image may hold a QR code or a PDF417 symbol (see the module comment). */
export const mayHoldCode = (image: Grey): boolean => {
  const { width, height, pixels } = image
  const half = Math.max(32, Math.round(width / 6))
  const prefix = new Float64Array(width + 1)
  const mean = new Float32Array(width)
  const widths = new Int32Array(width + 1)
  const starts = new Int32Array(width + 1)
  const finders: Array<Finder> = []
  // PDF417 start or stop patterns by where they begin: the scanned row they were last seen on, and how many rows.
  let tracks: Array<{ x: number; unit: number; last: number; rows: number }> = []
  for (let y = 0; y < height; y += ROW_STEP) {
    const row = y * width
    movingMean(pixels, row, width, half, prefix, mean)
    const dark = (x: number) => (pixels[row + x] ?? 255) + MARGIN < (mean[x] ?? 255)
    const { runs, firstDark } = runsOf(width, dark, widths, starts)
    for (let i = firstDark ? 0 : 1; i < runs; i += 2) {
      if (i + 5 <= runs && matchesRatios(widths, FINDER, i, FINDER_SLACK)) {
        const unit =
          ((widths[i] ?? 0) +
            (widths[i + 1] ?? 0) +
            (widths[i + 2] ?? 0) +
            (widths[i + 3] ?? 0) +
            (widths[i + 4] ?? 0)) /
          7
        const x = (starts[i + 2] ?? 0) + Math.floor((widths[i + 2] ?? 0) / 2)
        const seen = finders.some((f) => Math.abs(f.x - x) < 7 * f.unit && Math.abs(f.y - y) < 7 * f.unit)
        const threshold = (mean[x] ?? 255) - MARGIN
        const centre = seen || unit < MIN_UNIT ? undefined : confirmedDown(image, x, y, unit, threshold)
        if (centre !== undefined && patternHolds(image, x, centre, unit, threshold)) {
          const finder = { x, y: centre, unit }
          if (finders.some((f) => partners(f, finder))) return true
          finders.push(finder)
        }
      }
      for (const pattern of PDF417) {
        if (i + pattern.length > runs || !matchesRatios(widths, pattern, i)) continue
        let total = 0
        for (let k = 0; k < pattern.length; k++) total += widths[i + k] ?? 0
        const unit = total / pattern.reduce((a, b) => a + b, 0)
        if (unit < MIN_UNIT) continue
        const x = starts[i] ?? 0
        const track = tracks.find((t) => t.last === y - ROW_STEP && Math.abs(t.x - x) <= 2 * t.unit)
        if (track === undefined) tracks.push({ x, unit, last: y, rows: 1 })
        else {
          track.x = x
          track.last = y
          if (++track.rows >= PDF417_ROWS) return true
        }
        break
      }
    }
    tracks = tracks.filter((t) => t.last >= y - ROW_STEP)
  }
  return false
}
