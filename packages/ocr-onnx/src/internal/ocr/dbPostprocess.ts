import { type OrientedBox, scaleBox } from "./box.js"
import type { OcrConfig } from "./config.js"

/** The probability map the detector returns, [height, width] row-major, in detection pixels. */
export interface ProbabilityMap {
  readonly data: Float32Array
  readonly width: number
  readonly height: number
}

/** Statistics of one 8-connected component of the thresholded map. */
interface Component {
  readonly n: number
  readonly meanProb: number
  readonly mx: number
  readonly my: number
  readonly mu20: number
  readonly mu02: number
  readonly mu11: number
}

/** The moment angle of a component's major axis, or 0 when the component is too round for it to mean anything. */
const momentAngle = (comp: Component, minElongation: number): number => {
  const half = (comp.mu20 + comp.mu02) / 2
  const diff = (comp.mu20 - comp.mu02) / 2
  const root = Math.sqrt(diff * diff + comp.mu11 * comp.mu11)
  const minor = Math.max(half - root, 1e-9)
  return Math.sqrt((half + root) / minor) < minElongation ? 0 : 0.5 * Math.atan2(2 * comp.mu11, comp.mu20 - comp.mu02)
}

/**
 * The rectangle at angle `theta` around a component's pixels: extents from projecting every pixel on the axes.
 * With the moment angle this is the oriented rectangle (exact for a filled rectangle, which is what DB's shrunk
 * text kernels look like).
 */
const orientedRect = (
  pixels: Int32Array,
  count: number,
  mapWidth: number,
  comp: Component,
  theta: number
): OrientedBox => {
  const c = Math.cos(theta)
  const s = Math.sin(theta)
  let u0 = Number.POSITIVE_INFINITY
  let u1 = Number.NEGATIVE_INFINITY
  let v0 = Number.POSITIVE_INFINITY
  let v1 = Number.NEGATIVE_INFINITY
  for (let k = 0; k < count; k++) {
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

/**
 * The component's box. The moment angle is in (−π/2, π/2], so u is the long axis; a near-vertical one is taken
 * as vertical text only when the box is clearly elongated, since a lone tall character ("1", "l") is far more
 * common on documents than a vertical line of text.
 */
const componentBox = (
  pixels: Int32Array,
  count: number,
  mapWidth: number,
  comp: Component,
  minElongation: number
): OrientedBox => {
  const theta = momentAngle(comp, minElongation)
  const box = orientedRect(pixels, count, mapWidth, comp, theta)
  if (Math.abs(theta) > Math.PI / 4 && box.width < 2 * box.height) {
    return orientedRect(pixels, count, mapWidth, comp, 0)
  }
  return box
}

/**
 * DB post-processing: threshold the probability map, label 8-connected components, keep those whose mean
 * probability reaches the box score, fit an oriented rectangle, unclip it by d = area·ratio/perimeter and return
 * it in page pixels (detection pixels times `scaleX`, `scaleY`). Boxes come largest first.
 */
export const dbPostprocess = (
  map: ProbabilityMap,
  scaleX: number,
  scaleY: number,
  config: OcrConfig
): Array<OrientedBox> => {
  const { data, width, height } = map
  const size = width * height
  const seen = new Uint8Array(size)
  // Breadth-first queue; once a component is done, its first `tail` entries are exactly its pixels.
  const queue = new Int32Array(size)
  const boxes: Array<OrientedBox> = []
  for (let start = 0; start < size; start++) {
    if (seen[start] === 1 || !(data[start]! > config.detThreshold)) continue
    seen[start] = 1
    queue[0] = start
    let head = 0
    let tail = 1
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
    const n = tail
    if (n < config.detMinSide * config.detMinSide || sumP / n < config.detBoxScore) continue
    const mx = sx / n
    const my = sy / n
    const comp: Component = {
      n,
      meanProb: sumP / n,
      mx,
      my,
      mu20: sxx / n - mx * mx,
      mu02: syy / n - my * my,
      mu11: sxy / n - mx * my
    }
    const rect = componentBox(queue, n, width, comp, config.detMinElongation)
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
