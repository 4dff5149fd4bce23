import { normalizeAngle, type OrientedBox, scaleBox } from "./box.js"
import { connectedComponents } from "./components.js"
import type { OcrConfig } from "./config.js"

/** The probability map the detector returns, [height, width] row-major, in detection pixels. */
export interface ProbabilityMap {
  readonly data: Float32Array
  readonly width: number
  readonly height: number
}

/** One 8-connected component of the thresholded map: its pixels (a slice of the labelled pixels) and moments. */
interface Component {
  readonly begin: number
  readonly end: number
  readonly meanProb: number
  readonly mx: number
  readonly my: number
  readonly mu20: number
  readonly mu02: number
  readonly mu11: number
}

/** The angle of a component's major axis from its second moments, in (−π/2, π/2]. */
const momentAngle = (c: Component): number => 0.5 * Math.atan2(2 * c.mu11, c.mu20 - c.mu02)

/**
 * The rectangle at angle `theta` around a component's pixels: extents from projecting every pixel on the axes.
 * With the moment angle this is the oriented rectangle (exact for a filled rectangle, which is what DB's shrunk
 * text kernels look like).
 */
const orientedRect = (pixels: Int32Array, mapWidth: number, comp: Component, theta: number): OrientedBox => {
  const c = Math.cos(theta)
  const s = Math.sin(theta)
  let u0 = Number.POSITIVE_INFINITY
  let u1 = Number.NEGATIVE_INFINITY
  let v0 = Number.POSITIVE_INFINITY
  let v1 = Number.NEGATIVE_INFINITY
  for (let k = comp.begin; k < comp.end; k++) {
    const p = pixels[k]!
    const dx = (p % mapWidth) + 0.5 - comp.mx
    const dy = Math.floor(p / mapWidth) + 0.5 - comp.my
    const u = dx * c + dy * s
    const v = -dx * s + dy * c
    if (u < u0) u0 = u
    if (u > u1) u1 = u
    if (v < v0) v0 = v
    if (v > v1) v1 = v
  }
  // Pixels are squares, not points: their projected half-extent widens the rectangle on every side.
  const pad = 0.5 * (Math.abs(c) + Math.abs(s))
  u0 -= pad
  u1 += pad
  v0 -= pad
  v1 += pad
  const um = (u0 + u1) / 2
  const vm = (v0 + v1) / 2
  return {
    cx: comp.mx + um * c - vm * s,
    cy: comp.my + um * s + vm * c,
    width: u1 - u0,
    height: v1 - v0,
    angle: theta,
    score: comp.meanProb
  }
}

/** The components above the threshold, with their moments; each one's pixels are a slice of `pixels`. */
const components = (
  map: ProbabilityMap,
  config: OcrConfig
): { readonly pixels: Int32Array; readonly found: Array<Component> } => {
  const { data, width } = map
  const mask = new Uint8Array(data.length)
  for (let k = 0; k < data.length; k++) mask[k] = data[k]! > config.detThreshold ? 1 : 0
  const { pixels, ranges } = connectedComponents(mask, width, map.height)
  const found: Array<Component> = []
  for (const { begin, end } of ranges) {
    let sumP = 0
    let sx = 0
    let sy = 0
    let sxx = 0
    let syy = 0
    let sxy = 0
    for (let k = begin; k < end; k++) {
      const p = pixels[k]!
      const x = p % width
      const px = x + 0.5
      const py = (p - x) / width + 0.5
      sumP += data[p]!
      sx += px
      sy += py
      sxx += px * px
      syy += py * py
      sxy += px * py
    }
    const n = end - begin
    if (n < config.detMinSide * config.detMinSide || sumP / n < config.detBoxScore) continue
    const mx = sx / n
    const my = sy / n
    found.push({
      begin,
      end,
      meanProb: sumP / n,
      mx,
      my,
      mu20: sxx / n - mx * mx,
      mu02: syy / n - my * my,
      mu11: sxy / n - mx * my
    })
  }
  return { pixels, found }
}

/** The length-weighted mean axis of the boxes (doubled angles, so that +89° and −89° agree), or 0 without any. */
const dominantAxis = (boxes: ReadonlyArray<OrientedBox>): number => {
  let c = 0
  let s = 0
  for (const b of boxes) {
    c += b.width * Math.cos(2 * b.angle)
    s += b.width * Math.sin(2 * b.angle)
  }
  return c === 0 && s === 0 ? 0 : 0.5 * Math.atan2(s, c)
}

/** Fraction of `inner`'s area inside `outer`, on a grid of 8 × 8 sample points. */
export const coverage = (inner: OrientedBox, outer: OrientedBox): number => {
  const c = Math.cos(inner.angle)
  const s = Math.sin(inner.angle)
  const oc = Math.cos(outer.angle)
  const os = Math.sin(outer.angle)
  let inside = 0
  for (let i = 0; i < 8; i++) {
    const u = ((i + 0.5) / 8 - 0.5) * inner.width
    for (let j = 0; j < 8; j++) {
      const v = ((j + 0.5) / 8 - 0.5) * inner.height
      const dx = inner.cx + u * c - v * s - outer.cx
      const dy = inner.cy + u * s + v * c - outer.cy
      if (Math.abs(dx * oc + dy * os) <= outer.width / 2 && Math.abs(-dx * os + dy * oc) <= outer.height / 2) inside++
    }
  }
  return inside / 64
}

/** `outer` stretched along its own axis over `inner`'s extent (its height and angle unchanged). */
const stretchOver = (outer: OrientedBox, inner: OrientedBox): OrientedBox => {
  const c = Math.cos(outer.angle)
  const s = Math.sin(outer.angle)
  const ic = Math.cos(inner.angle)
  const is = Math.sin(inner.angle)
  let u0 = -outer.width / 2
  let u1 = outer.width / 2
  for (const [su, sv] of [
    [-1, -1],
    [1, -1],
    [1, 1],
    [-1, 1]
  ] as const) {
    const x = inner.cx + (su * inner.width * ic - sv * inner.height * is) / 2 - outer.cx
    const y = inner.cy + (su * inner.width * is + sv * inner.height * ic) / 2 - outer.cy
    const u = x * c + y * s
    u0 = Math.min(u0, u)
    u1 = Math.max(u1, u)
  }
  const um = (u0 + u1) / 2
  return {
    ...outer,
    cx: outer.cx + um * c,
    cy: outer.cy + um * s,
    width: u1 - u0,
    score: Math.max(outer.score, inner.score)
  }
}

/**
 * Unclipped boxes that read the same text, merged. The unclip margin of a long line (about 0.75 of its kernel's
 * height on each end) reaches over a short neighbour that DB found as a component of its own: on a monospace
 * receipt the quantity "3" one character cell before "CAFÉ MOLIDO", read once alone and again at the edge of the
 * line's crop ("3 3 CAFÉ"). A box with at least `detMergeCover` of its area inside a larger one, on the same line
 * (centre within a quarter of the larger's height from its axis, height 0.4–1.5 times the larger's, axes within
 * 10°), is
 * dropped and the larger one stretched along its axis over it, so that its text is read once and whole even when
 * the larger crop only cut into it.
 */
export const mergeOverlapping = (boxes: ReadonlyArray<OrientedBox>, minCover: number): Array<OrientedBox> => {
  const kept: Array<OrientedBox> = []
  for (const box of boxes.toSorted((a, b) => b.width * b.height - a.width * a.height)) {
    const k = kept.findIndex((big) => {
      const turn = Math.abs(normalizeAngle(2 * (box.angle - big.angle))) / 2
      const across = -(box.cx - big.cx) * Math.sin(big.angle) + (box.cy - big.cy) * Math.cos(big.angle)
      return (
        turn < (10 * Math.PI) / 180 &&
        Math.abs(across) <= big.height / 4 &&
        box.height <= 1.5 * big.height &&
        box.height >= 0.4 * big.height &&
        coverage(box, big) >= minCover
      )
    })
    if (k < 0) kept.push(box)
    else kept[k] = stretchOver(kept[k]!, box)
  }
  return kept
}

/** Boxes largest first (the classifier samples the largest), at most `detMaxBoxes` of them. */
export const largestFirst = (boxes: ReadonlyArray<OrientedBox>, config: OcrConfig): Array<OrientedBox> =>
  boxes.toSorted((a, b) => b.width * b.height - a.width * a.height).slice(0, config.detMaxBoxes)

/**
 * DB post-processing: threshold the probability map, label 8-connected components, keep those whose mean
 * probability reaches the box score, fit an oriented rectangle, unclip it by d = area·ratio/perimeter and return
 * it in page pixels (detection pixels times `scaleX`, `scaleY`). Boxes come largest first.
 *
 * Orientation: a component at least `detMinElongation` times longer than wide (a line of several characters)
 * takes its own moment angle; a shorter one (a number, a short word, one character) has no reliable angle of its
 * own and takes the page's: the length-weighted mean axis of the elongated ones. So a lone "2" in a table is read
 * at the page's skew, and upright on a page turned by 90°. Boxes that cover the same text are merged
 * (`mergeOverlapping`).
 */
export const dbPostprocess = (
  map: ProbabilityMap,
  scaleX: number,
  scaleY: number,
  config: OcrConfig
): Array<OrientedBox> => {
  const { pixels, found } = components(map, config)
  const fitted = found.map((comp) => {
    const rect = orientedRect(pixels, map.width, comp, momentAngle(comp))
    return { comp, rect, elongated: rect.width >= config.detMinElongation * rect.height }
  })
  const axis = dominantAxis(fitted.filter((f) => f.elongated).map((f) => f.rect))
  const boxes: Array<OrientedBox> = []
  for (const { comp, rect: own, elongated } of fitted) {
    const rect = elongated ? own : orientedRect(pixels, map.width, comp, axis)
    if (Math.min(rect.width, rect.height) < config.detMinSide) continue
    const d = (rect.width * rect.height * config.detUnclipRatio) / (2 * (rect.width + rect.height))
    const grown = { ...rect, width: rect.width + 2 * d, height: rect.height + 2 * d }
    // PaddleOCR drops boxes whose unclipped short side is still under min_size + 2.
    if (Math.min(grown.width, grown.height) < config.detMinSide + 2) continue
    boxes.push(scaleBox(grown, scaleX, scaleY))
  }
  return largestFirst(config.detMergeCover > 0 ? mergeOverlapping(boxes, config.detMergeCover) : boxes, config)
}
