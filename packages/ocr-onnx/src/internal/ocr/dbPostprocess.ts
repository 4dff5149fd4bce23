import { type OrientedBox, scaleBox } from "./box.js"
import type { OcrConfig } from "./config.js"

/** The probability map the detector returns, [height, width] row-major, in detection pixels. */
export interface ProbabilityMap {
  readonly data: Float32Array
  readonly width: number
  readonly height: number
}

/** One 8-connected component of the thresholded map: its pixels (a slice of the shared queue) and moments. */
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

/** Labels the components above the threshold (breadth-first; each one's pixels end up contiguous in `queue`). */
const components = (map: ProbabilityMap, queue: Int32Array, config: OcrConfig): Array<Component> => {
  const { data, width, height } = map
  const size = width * height
  const seen = new Uint8Array(size)
  const out: Array<Component> = []
  let tail = 0
  for (let start = 0; start < size; start++) {
    if (seen[start] === 1 || !(data[start]! > config.detThreshold)) continue
    seen[start] = 1
    const begin = tail
    queue[tail++] = start
    let head = begin
    let sumP = 0
    let sx = 0
    let sy = 0
    let sxx = 0
    let syy = 0
    let sxy = 0
    while (head < tail) {
      const p = queue[head++]!
      const x = p % width
      const y = (p - x) / width
      const px = x + 0.5
      const py = y + 0.5
      sumP += data[p]!
      sx += px
      sy += py
      sxx += px * px
      syy += py * py
      sxy += px * py
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy
        if (ny < 0 || ny >= height) continue
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx
          if (nx < 0 || nx >= width) continue
          const q = ny * width + nx
          if (seen[q] === 0 && data[q]! > config.detThreshold) {
            seen[q] = 1
            queue[tail++] = q
          }
        }
      }
    }
    const n = tail - begin
    if (n < config.detMinSide * config.detMinSide || sumP / n < config.detBoxScore) continue
    const mx = sx / n
    const my = sy / n
    out.push({
      begin,
      end: tail,
      meanProb: sumP / n,
      mx,
      my,
      mu20: sxx / n - mx * mx,
      mu02: syy / n - my * my,
      mu11: sxy / n - mx * my
    })
  }
  return out
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

/**
 * DB post-processing: threshold the probability map, label 8-connected components, keep those whose mean
 * probability reaches the box score, fit an oriented rectangle, unclip it by d = area·ratio/perimeter and return
 * it in page pixels (detection pixels times `scaleX`, `scaleY`). Boxes come largest first.
 *
 * Orientation: a component at least `detMinElongation` times longer than wide (a line of several characters)
 * takes its own moment angle; a shorter one (a number, a short word, one character) has no reliable angle of its
 * own and takes the page's: the length-weighted mean axis of the elongated ones. So a lone "2" in a table is read
 * at the page's skew, and upright on a page turned by 90°.
 */
export const dbPostprocess = (
  map: ProbabilityMap,
  scaleX: number,
  scaleY: number,
  config: OcrConfig
): Array<OrientedBox> => {
  const queue = new Int32Array(map.width * map.height)
  const fitted = components(map, queue, config).map((comp) => {
    const rect = orientedRect(queue, map.width, comp, momentAngle(comp))
    return { comp, rect, elongated: rect.width >= config.detMinElongation * rect.height }
  })
  const axis = dominantAxis(fitted.filter((f) => f.elongated).map((f) => f.rect))
  const boxes: Array<OrientedBox> = []
  for (const { comp, rect: own, elongated } of fitted) {
    const rect = elongated ? own : orientedRect(queue, map.width, comp, axis)
    if (Math.min(rect.width, rect.height) < config.detMinSide) continue
    const d = (rect.width * rect.height * config.detUnclipRatio) / (2 * (rect.width + rect.height))
    const grown = { ...rect, width: rect.width + 2 * d, height: rect.height + 2 * d }
    // PaddleOCR drops boxes whose unclipped short side is still under min_size + 2.
    if (Math.min(grown.width, grown.height) < config.detMinSide + 2) continue
    boxes.push(scaleBox(grown, scaleX, scaleY))
  }
  boxes.sort((a, b) => b.width * b.height - a.width * a.height)
  return boxes.length > config.detMaxBoxes ? boxes.slice(0, config.detMaxBoxes) : boxes
}
