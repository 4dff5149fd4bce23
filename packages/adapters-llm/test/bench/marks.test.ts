/** The marks the benchmark counts: words read with other marks than every printed form of the same letters. */
import { describe, expect, it } from "@effect/vitest"
import { markCounts } from "../../bench/marks.js"

describe("markCounts", () => {
  it("counts a word whose marks differ from every printed form, and names it with the printed forms", () => {
    const counts = markCounts("BÄCKEREI Weber, Consultoria e Consultória", "BACKEREI Weber Consultoría x")
    expect(counts.compared).toBe(3)
    expect(counts.differ).toBe(2)
    expect(counts.words).toEqual(["backerei → bäckerei", "consultoría → consultoria | consultória"])
  })

  it("leaves out words the document does not print, however they are marked", () => {
    expect(markCounts("PÃO", "PÁO Fírma")).toEqual({ compared: 1, differ: 1, words: ["páo → pão"] })
  })
})
