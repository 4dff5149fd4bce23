/**
 * Degree sign or ordinal indicator: "N°" and "Nº" are the same ring in most faces, and the recognizer reads nearly
 * every ring after a capital as "º". One thing tells them apart in the faces that do differ: an ordinal indicator's
 * top is at the cap height, while Helvetica, Arial and their clones, URW Gothic and Century Schoolbook draw the
 * degree sign below it (MEASUREMENTS.md, "Degree sign or ordinal indicator"). A ring read "º" right after a
 * flat-topped capital whose top is clearly below the capital's is read "°" (`degreeRings`); a ring at the cap height
 * stays as read, since there nothing on the page tells the two apart. After a digit ("25°C", "2º izq.") nothing is
 * changed: a digit's top is not the cap height in every face.
 */
import { connectedComponents } from "./components.js"
import type { OcrConfig } from "./config.js"
import { inkOf, type LineCrop, textLevels } from "./crop.js"
import { type CtcChar, timestepColumn } from "./ctc.js"

/** Where a ring read on a line sits against the capital before it, measured on the crop. */
export interface RingGeometry {
  /** How far the ring's top is below the capital's, as a fraction of the capital's height. */
  readonly drop: number
  /** The capital's height in page pixels. */
  readonly height: number
}

/** Ink level that makes a pixel part of a glyph: low enough that a face's hairlines hold its ring together. */
const LEVEL = 0.35

/** The ink of crop columns [from, from + width), all rows, one value per pixel (`inkOf`). */
interface Window {
  readonly ink: Float32Array
  readonly width: number
  readonly height: number
}

/** A glyph, or a piece of one: its pixels (indices into the window) and bounds. */
interface Component {
  readonly x0: number
  readonly x1: number
  readonly y0: number
  readonly y1: number
  readonly pixels: Int32Array
}

/** 8-connected components of ink ≥ `LEVEL`. */
const components = ({ ink, width, height }: Window): Array<Component> => {
  const mask = new Uint8Array(ink.length)
  for (let k = 0; k < ink.length; k++) mask[k] = ink[k]! >= LEVEL ? 1 : 0
  const labelled = connectedComponents(mask, width, height)
  return labelled.ranges.map(({ begin, end }) => {
    const pixels = labelled.pixels.subarray(begin, end)
    let [x0, x1, y0, y1] = [width, -1, height, -1]
    for (const k of pixels) {
      const x = k % width
      const y = (k - x) / width
      x0 = Math.min(x0, x)
      x1 = Math.max(x1, x)
      y0 = Math.min(y0, y)
      y1 = Math.max(y1, y)
    }
    return { x0, x1, y0, y1, pixels }
  })
}

/**
 * The top and bottom edges of some components to a fraction of a pixel: in each of their columns, the highest
 * (lowest) pixel, moved out to where the ink crosses `LEVEL` towards the pixel beyond it; the mean of the three
 * highest (lowest) columns.
 */
const edges = ({ ink, width, height }: Window, parts: ReadonlyArray<Component>): { top: number; bottom: number } => {
  const x0 = Math.min(...parts.map((c) => c.x0))
  const span = Math.max(...parts.map((c) => c.x1)) - x0 + 1
  const highest = new Int32Array(span).fill(height)
  const lowest = new Int32Array(span).fill(-1)
  for (const part of parts) {
    for (const k of part.pixels) {
      const i = (k % width) - x0
      const y = Math.floor(k / width)
      if (y < highest[i]!) highest[i] = y
      if (y > lowest[i]!) lowest[i] = y
    }
  }
  const tops: Array<number> = []
  const bottoms: Array<number> = []
  for (let i = 0; i < span; i++) {
    const y0 = highest[i]!
    const y1 = lowest[i]!
    if (y1 < 0) continue
    const x = x0 + i
    const v0 = ink[y0 * width + x]!
    const above = y0 > 0 ? ink[(y0 - 1) * width + x]! : 0
    tops.push(y0 + 0.5 - (v0 - LEVEL) / Math.max(1e-6, v0 - above))
    const v1 = ink[y1 * width + x]!
    const below = y1 < height - 1 ? ink[(y1 + 1) * width + x]! : 0
    bottoms.push(y1 + 0.5 + (v1 - LEVEL) / Math.max(1e-6, v1 - below))
  }
  const meanOfThree = (xs: Array<number>) => {
    const k = Math.min(3, xs.length)
    return xs.slice(0, k).reduce((a, b) => a + b, 0) / k
  }
  return { top: meanOfThree(tops.sort((a, b) => a - b)), bottom: meanOfThree(bottoms.sort((a, b) => b - a)) }
}

/**
 * Capitals whose top is flat at the cap height: round (C G O Q S) and pointed (A) ones overshoot it, J reaches below
 * the baseline in some faces, and Ñ or a capital with an accent reaches above it.
 */
const FLAT_TOPPED = /^[BDEFHIKLMNPRTUVWXYZ]$/

/**
 * Where `chars[index]` (a ring) sits against the flat-topped capital right before it, or undefined where the crop
 * does not show them apart (no such capital, no ink, touching glyphs). Character runs are timesteps of `stride`
 * crop columns, as `ctcDecode` numbers them; CTC may fire anywhere over a glyph, so a run is looked for within a
 * timestep of its glyph.
 */
export const ringGeometry = (
  crop: LineCrop,
  chars: ReadonlyArray<CtcChar>,
  index: number,
  stride: number
): RingGeometry | undefined => {
  const ring = chars[index]
  const before = chars[index - 1]
  if (ring === undefined || before === undefined || !FLAT_TOPPED.test(before.text)) return undefined
  const levels = textLevels(crop)
  if (levels === undefined) return undefined
  const from = Math.max(0, Math.floor(timestepColumn(before.first, stride) - 2 * stride))
  const to = Math.min(crop.width, Math.ceil(timestepColumn(ring.last, stride) + 2 * stride))
  const window: Window = { ink: new Float32Array((to - from) * crop.height), width: to - from, height: crop.height }
  for (let y = 0; y < crop.height; y++) {
    for (let x = from; x < to; x++)
      window.ink[y * window.width + x - from] = inkOf(levels, crop.gray[y * crop.width + x]!)
  }
  // Ink cut by the crop's top or bottom edge belongs to the lines above and below.
  const found = components(window).filter((c) => c.y0 > 0 && c.y1 < crop.height - 1)
  const near = (c: Component, ch: CtcChar, reach: number) =>
    c.x1 + from >= timestepColumn(ch.first, stride) - reach && c.x0 + from <= timestepColumn(ch.last, stride) + reach
  const tallness = (c: Component) => c.y1 - c.y0
  // The capital: of the tall glyphs about the character read before the ring, the last (a bracket, a bar or a slash
  // before it can be taller still).
  const around = found.filter((c) => near(c, before, stride))
  const tallest = Math.max(0, ...around.map(tallness))
  const capital = around.filter((c) => tallness(c) >= 0.6 * tallest).sort((a, b) => b.x1 - a.x1)[0]
  if (capital === undefined) return undefined
  // The ring's parts (a ring with hairlines can come apart into its sides): small, high, right of the capital. A
  // colon's dot after the ring may join them, below the ring's top; an apostrophe would only lift the top (a miss).
  const parts = found.filter(
    (c) =>
      near(c, ring, stride) &&
      c.x0 > capital.x1 &&
      tallness(c) < 0.8 * tallness(capital) &&
      c.y0 + c.y1 < capital.y0 + capital.y1
  )
  if (parts.length === 0) return undefined
  const cap = edges(window, [capital])
  const own = edges(window, parts)
  const h = cap.bottom - cap.top
  if (!(h > 4)) return undefined
  const drop = (own.top - cap.top) / h
  // A ring is at least 0.33 of the cap height tall and its top within 0.1 of the cap line in every face measured:
  // anything else found there is another glyph (a colon's dot, with the ring fused into a bold capital).
  if (own.bottom - own.top < 0.3 * h || drop > 0.2) return undefined
  return { drop, height: h * crop.scale }
}

/** When a ring is a degree sign. */
export type RingRule = Pick<OcrConfig, "ringDrop" | "ringMinHeight">

/**
 * The characters of a line with each "º" that sits below the cap height read "°" (see the top of this file): its
 * top at least `ringDrop` of the capital's height below the capital's, the capital at least `ringMinHeight` page
 * pixels high (`ringDrop` 0: never). The same array when nothing changes.
 */
export const degreeRings = (
  crop: LineCrop,
  chars: ReadonlyArray<CtcChar>,
  stride: number,
  rule: RingRule
): ReadonlyArray<CtcChar> => {
  if (rule.ringDrop <= 0) return chars
  let out: Array<CtcChar> | undefined
  for (const [k, ch] of chars.entries()) {
    if (ch.text !== "º") continue
    const g = ringGeometry(crop, chars, k, stride)
    if (g === undefined || g.drop < rule.ringDrop || g.height < rule.ringMinHeight) continue
    out ??= [...chars]
    out[k] = { ...ch, text: "°" }
  }
  return out ?? chars
}
