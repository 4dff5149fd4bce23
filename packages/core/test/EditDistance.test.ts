import { assert, describe, it } from "@effect/vitest"
import { EditDistance } from "@legible/core"
import { Schema } from "effect"
import { seeded } from "./support.js"

/** The distance by the full matrix: the reference both implementations are checked against. */
const reference = (a: string, b: string, swaps: boolean): number => {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0))
  )
  const at = (i: number, j: number) => d[i]?.[j] ?? 0
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (swaps && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1)
      }
      const row = d[i]
      if (row !== undefined) row[j] = best
    }
  }
  return at(a.length, b.length)
}

/** Optimal string alignment distance, the reference `withinOneEdit` is checked against. */
const osa = (a: string, b: string): number => reference(a, b, true)

describe("EditDistance.osa and levenshtein", () => {
  it("count a swap of neighbours as one edit, or as two", () => {
    assert.strictEqual(EditDistance.osa("acme", "amce"), 1)
    assert.strictEqual(EditDistance.levenshtein("acme", "amce"), 2)
    assert.strictEqual(EditDistance.osa("ca", "abc"), 3, "a swapped pair is not edited again")
    assert.strictEqual(EditDistance.osa("", "abc"), 3)
    assert.strictEqual(EditDistance.levenshtein("kitten", "sitting"), 3)
  })

  // Either side of 32 characters (one bit per character up to 32, rows beyond), and non-ASCII (rows).
  const Text = Schema.String.check(Schema.isPattern(/^[ab1 ñ]{0,40}$/))

  it.prop(
    "equal the full matrix, both ways round",
    [Text, Text],
    ([a, b]) => {
      assert.strictEqual(EditDistance.osa(a, b), osa(a, b), `${a} / ${b}`)
      assert.strictEqual(EditDistance.osa(b, a), osa(a, b), `${b} / ${a}`)
      assert.strictEqual(EditDistance.levenshtein(a, b), reference(a, b, false), `${a} / ${b}`)
      assert.strictEqual(EditDistance.levenshtein(b, a), reference(a, b, false), `${b} / ${a}`)
    },
    seeded(915, 1000)
  )

  it.prop(
    "equal the full matrix on a string and its neighbour swaps",
    [
      Schema.String.check(Schema.isPattern(/^[abcde]{20,40}$/)),
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 38 }))
    ],
    ([a, at]) => {
      const swapped = at + 1 < a.length ? a.slice(0, at) + a.charAt(at + 1) + a.charAt(at) + a.slice(at + 2) : a
      const b = swapped.slice(0, 32)
      assert.strictEqual(EditDistance.osa(a, b), osa(a, b))
      assert.strictEqual(EditDistance.levenshtein(a, b), reference(a, b, false))
    },
    seeded(916, 500)
  )
})

describe("EditDistance.similarity", () => {
  it("is 1 − distance / longer length, and 1 for equal strings", () => {
    assert.strictEqual(EditDistance.similarity("acme", "acme"), 1)
    assert.strictEqual(EditDistance.similarity("", ""), 1)
    assert.strictEqual(EditDistance.similarity("acme", "amce"), 0.75)
    assert.strictEqual(EditDistance.similarity("abc", ""), 0)
  })
})

describe("EditDistance.withinOneEdit", () => {
  const Short = Schema.String.check(Schema.isPattern(/^[ab1]{0,6}$/))
  it.prop(
    "agrees with the optimal string alignment distance",
    [Short, Short],
    ([a, b]) => assert.strictEqual(EditDistance.withinOneEdit(a, b), osa(a, b) <= 1, `${a} / ${b}`),
    seeded(903, 500)
  )
})
