import { flipBox, type OrientedBox } from "./box.js"

/**
 * The 180° classifier's verdicts: its output is [N, 2] softmax over the labels "0" and "180"; a line is turned
 * when "180" wins with at least `threshold` (PaddleOCR's cls_thresh), so that an unsure classifier leaves it alone.
 */
export const clsFlips = (probs: Float32Array, count: number, threshold: number): Array<boolean> => {
  const out: Array<boolean> = []
  for (let k = 0; k < count; k++) {
    const p0 = probs[2 * k] ?? 0
    const p180 = probs[2 * k + 1] ?? 0
    out.push(p180 > p0 && p180 >= threshold)
  }
  return out
}

/** The boxes with the flipped ones turned round, so that their crops read right side up. */
export const applyFlips = (boxes: ReadonlyArray<OrientedBox>, flips: ReadonlyArray<boolean>): Array<OrientedBox> =>
  boxes.map((box, k) => (flips[k] === true ? flipBox(box) : box))
