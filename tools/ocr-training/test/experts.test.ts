/**
 * The Latin and Chinese heads folded into one layer (src/experts.ts): which Chinese class votes on each Latin
 * class, that the folded layer decodes exactly like the product of the two experts' distributions, and that an
 * abstaining class keeps its Latin logit.
 */
import { describe, expect, it } from "@effect/vitest"
import type { HeadWeights } from "@legible/ocr-onnx/training"
import { logSoftmax } from "../src/ctc.ts"
import { baseClasses, expertColumns, groupBias, mergeBias, mergeHeads } from "../src/experts.ts"
import { logits } from "../src/head.ts"

// blank, entries, space (PaddleOCR's use_space_char layout) for both dictionaries.
const latinLabels = ["", "a", "n", "?", "á", "ñ", "Ñ", "N", "¿", "€", " "]
const chineseLabels = ["", "中", "N", "a", "?", "é", "n", "C", " "]

// A fixed pseudo-random sequence (no Math.random in tests).
const values = (n: number, seed: number): Float32Array => {
  let a = seed
  return Float32Array.from({ length: n }, () => {
    a = (a * 1103515245 + 12345) % 2147483648
    return (a / 2147483648) * 4 - 2
  })
}
const head = (inputs: number, classes: number, seed: number): HeadWeights => ({
  inputs,
  classes,
  weight: values(inputs * classes, seed),
  bias: values(classes, seed + 1)
})

describe("baseClasses", () => {
  it("votes with the same ASCII character, the base of a marked letter, and abstains on symbols", () => {
    const base = Array.from(baseClasses(latinLabels, chineseLabels, "base"))
    // blank→blank, a→a, n→n, ?→?, á→a, ñ→n, Ñ→N, N→N, ¿ abstains (not ?), € abstains (not C), space→space.
    expect(base).toEqual([0, 3, 6, 4, 3, 6, 2, 2, -1, -1, 8])
  })

  it("lets marked letters abstain when asked", () => {
    const base = Array.from(baseClasses(latinLabels, chineseLabels, "abstain"))
    expect(base).toEqual([0, 3, 6, 4, -1, -1, -1, 2, -1, -1, 8])
  })
})

describe("groupBias", () => {
  it("biases lower- and upper-case marked letters and other non-ASCII classes apart, never ASCII", () => {
    const bias = Array.from(groupBias(latinLabels, { lower: 1, upper: 2, symbols: 3 }))
    expect(bias).toEqual([0, 0, 0, 0, 1, 1, 2, 0, 3, 3, 0])
  })
})

describe("mergeBias", () => {
  it("adds each class's own bias to its group's", () => {
    const bias = Array.from(
      mergeBias(latinLabels, { lower: 1, upper: 2, symbols: 3, classes: { Ñ: -0.5, "€": 0.25, a: 1 } })
    )
    expect(bias).toEqual([0, 1, 0, 0, 1, 1, 1.5, 0, 3, 3.25, 0])
  })

  it("refuses a class the dictionary does not have, the blank and the space", () => {
    expect(() => mergeBias(latinLabels, { lower: 0, upper: 0, symbols: 0, classes: { Ø: 1 } })).toThrow(/no class/)
    expect(() => mergeBias(latinLabels, { lower: 0, upper: 0, symbols: 0, classes: { " ": 1 } })).toThrow(/no class/)
  })
})

describe("mergeHeads", () => {
  const inputs = 6
  const t = 12
  const latin = head(inputs, latinLabels.length, 7)
  const chinese = head(inputs, chineseLabels.length, 11)
  const features = values(t * inputs, 3)

  it("decodes like the product of experts: argmax of log p_lat(c) + α·log p_chi(base(c))", () => {
    // Every class voted on: only ASCII and marked letters (the symbols would abstain).
    const labels = [...latinLabels.slice(0, 8), " "]
    const lat = head(inputs, labels.length, 7)
    const base = baseClasses(labels, chineseLabels, "base")
    expect(Array.from(base)).not.toContain(-1)
    for (const alpha of [0, 0.5, 1, 3]) {
      const merged = mergeHeads(lat, expertColumns(chinese, lat, base), { alpha })
      const z = logits(merged, features, t)
      const lpLat = logSoftmax(logits(lat, features, t), t, labels.length)
      const lpChi = logSoftmax(logits(chinese, features, t), t, chineseLabels.length)
      for (let i = 0; i < t; i++) {
        const expert = (k: number) =>
          lpLat[i * labels.length + k]! + alpha * lpChi[i * chineseLabels.length + base[k]!]!
        const merged = (k: number) => z[i * labels.length + k]!
        const best = (f: (k: number) => number) => labels.reduce((b, _, k) => (f(k) > f(b) ? k : b), 0)
        expect(best(merged)).toBe(best(expert))
        // Scaled by 1 / (1 + α): the merged logits are the two experts' weighted mean (up to a per-step constant).
        const gap = merged(1) - merged(2)
        expect(gap).toBeCloseTo((expert(1) - expert(2)) / (1 + alpha), 4)
      }
    }
  })

  it("keeps an abstaining class's Latin logit, plus its group bias", () => {
    const base = baseClasses(latinLabels, chineseLabels, "base")
    const bias = groupBias(latinLabels, { lower: 0, upper: 0, symbols: 0.75 })
    const merged = mergeHeads(latin, expertColumns(chinese, latin, base), { alpha: 2, bias })
    const z = logits(merged, features, t)
    const zl = logits(latin, features, t)
    const c = latinLabels.length
    for (let i = 0; i < t; i++) {
      for (const k of [8, 9]) expect(z[i * c + k]!).toBeCloseTo(zl[i * c + k]! + 0.75, 4)
      // A voted class moves: its logit is the mean of the Latin and the Chinese ones.
      const zc = logits(chinese, features, t)
      expect(z[i * c + 1]!).toBeCloseTo((zl[i * c + 1]! + 2 * zc[i * chineseLabels.length + 3]!) / 3, 4)
    }
  })

  it("is the Latin head itself at α = 0 with no bias", () => {
    const merged = mergeHeads(latin, expertColumns(chinese, latin, baseClasses(latinLabels, chineseLabels, "base")), {
      alpha: 0
    })
    expect(Array.from(merged.weight)).toEqual(Array.from(latin.weight))
    expect(Array.from(merged.bias)).toEqual(Array.from(latin.bias))
  })
})
