/**
 * The training script's CTC loss (src/ctc.ts) against a brute-force sum over every alignment, and its gradient
 * against finite differences: the head is only as good as these.
 */
import { describe, expect, it } from "@effect/vitest"
import { ctcLoss, logSoftmax } from "../src/ctc.ts"
import { greedy } from "../src/head.ts"

/** −log p(labels) by enumerating all C^T paths and collapsing them (repeats merged, blanks dropped). */
const bruteForce = (logits: Float32Array, t: number, c: number, labels: ReadonlyArray<number>): number => {
  const lp = logSoftmax(logits, t, c)
  let total = 0
  const path = new Array<number>(t).fill(0)
  const visit = (i: number, logP: number) => {
    if (i === t) {
      const collapsed: Array<number> = []
      let previous = -1
      for (const k of path) {
        if (k !== previous && k !== 0) collapsed.push(k)
        previous = k
      }
      if (collapsed.length === labels.length && collapsed.every((k, j) => k === labels[j])) total += Math.exp(logP)
      return
    }
    for (let k = 0; k < c; k++) {
      path[i] = k
      visit(i + 1, logP + lp[i * c + k]!)
    }
  }
  visit(0, 0)
  return -Math.log(total)
}

// A fixed pseudo-random sequence (no Math.random in tests).
const values = (n: number, seed: number): Float32Array => {
  let a = seed
  return Float32Array.from({ length: n }, () => {
    a = (a * 1103515245 + 12345) % 2147483648
    return (a / 2147483648) * 4 - 2
  })
}

describe("CTC loss", () => {
  for (const labels of [[1], [1, 2], [2, 2], [1, 2, 1], [3]]) {
    it(`equals the brute-force sum over alignments for labels ${labels.join(",")}`, () => {
      const t = 5
      const c = 4
      const logits = values(t * c, labels.length * 7 + labels[0]!)
      const grad = new Float32Array(t * c)
      expect(ctcLoss(logits, t, c, labels, grad)).toBeCloseTo(bruteForce(logits, t, c, labels), 5)
    })
  }

  it("is infinite (and the gradient zero) when the labels cannot fit in the timesteps", () => {
    const grad = new Float32Array(2 * 3).fill(1)
    // "1 1" needs a blank between the two: three timesteps at least.
    expect(ctcLoss(values(6, 3), 2, 3, [1, 1], grad)).toBe(Number.POSITIVE_INFINITY)
    expect([...grad].every((g) => g === 0)).toBe(true)
  })

  it("has the gradient of finite differences", () => {
    const t = 6
    const c = 5
    const labels = [2, 4, 4]
    const logits = values(t * c, 11)
    const grad = new Float32Array(t * c)
    ctcLoss(logits, t, c, labels, grad)
    const scratch = new Float32Array(t * c)
    for (const index of [0, 3, 7, 12, 18, 29]) {
      const h = 1e-2
      const up = logits.slice()
      const down = logits.slice()
      up[index]! += h
      down[index]! -= h
      const numeric = (ctcLoss(up, t, c, labels, scratch) - ctcLoss(down, t, c, labels, scratch)) / (2 * h)
      expect(grad[index]!).toBeCloseTo(numeric, 3)
    }
  })

  it("greedy decoding merges runs and drops blanks", () => {
    const c = 3
    // Best classes per timestep: 1 1 0 1 2 2 0
    const best = [1, 1, 0, 1, 2, 2, 0]
    const z = new Float32Array(best.length * c)
    best.forEach((k, i) => {
      z[i * c + k] = 5
    })
    expect(greedy(z, best.length, c)).toEqual([1, 1, 2])
  })
})
