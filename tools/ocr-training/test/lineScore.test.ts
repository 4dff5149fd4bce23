/**
 * The line scores the head is tuned on (`src/lineScore.ts`): CER over the truth's characters, special characters
 * found as a multiset, stray non-ASCII characters, exact lines, and SROIE's upper-case comparison.
 */
import { assert, describe, it } from "@effect/vitest"
import { scoreTexts } from "../src/lineScore.ts"

describe("scoreTexts", () => {
  it("counts edits, special characters found once each, stray non-ASCII and exact lines", () => {
    const scores = scoreTexts([
      { truth: "Año  café", read: "Ano cafè" },
      { truth: "¿Cuánto?", read: "¿Cuánto?" },
      { truth: "ññ", read: "ñ" }
    ])
    // Edits 2 + 0 + 1 over 8 + 8 + 2 truth characters (the double space counts once).
    assert.strictEqual(scores.cer, 3 / 18)
    // Specials of the truths: ñ é | ¿ á | ñ ñ → found: ¿ á and one ñ.
    assert.strictEqual(scores.specialTotal, 6)
    assert.strictEqual(scores.special, 3 / 6)
    // è was read where no è is in the truth.
    assert.strictEqual(scores.strayNonAscii, 1)
    assert.strictEqual(scores.lines, 3)
    assert.strictEqual(scores.exact, 1 / 3)
  })

  it("compares in upper case when asked (SROIE's labels are)", () => {
    assert.strictEqual(scoreTexts([{ truth: "TOTAL 12.50", read: "Total 12.50" }], true).cer, 0)
    assert.strictEqual(scoreTexts([{ truth: "TOTAL 12.50", read: "Total 12.50" }]).cer, 4 / 11)
  })
})
