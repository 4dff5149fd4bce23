/**
 * The Spanish benchmark's special-character recall (`bench/metrics.ts` `placedHits`): a truth character counts
 * only when a word read over the same place has it.
 */
import { describe, expect, it } from "@effect/vitest"
import { type Boxed, inventedMarks, isSpecial, placedHits } from "../../bench/metrics.js"

const at = (text: string, x0: number, y0 = 0): Boxed => ({ text, x0, y0, x1: x0 + 10 * text.length, y1: y0 + 12 })

describe("placedHits", () => {
  it("counts a special character read in a word over the same place, in any reading order", () => {
    const truth = [at("Martínez", 0), at("año", 100), at("bancaria", 0, 40)]
    const read = [at("bancaria", 2, 41), at("año", 101), at("Martínez", 1)]
    expect(placedHits(truth, read, isSpecial)).toEqual({ hits: 2, missed: [] })
  })

  it("does not let a mark read on the wrong word stand in for one missed elsewhere", () => {
    const truth = [at("Martínez", 0), at("bancaria", 0, 40)]
    const read = [at("Martinez", 0), at("bancaría", 0, 40)]
    expect(placedHits(truth, read, isSpecial)).toEqual({ hits: 0, missed: ["í"] })
  })

  it("uses each read character once, and finds a truth line's characters in the words read over it", () => {
    const truth = [at("¿Qué día?", 0)]
    const read = [at("¿Qué", 0), at("dia?", 50)]
    expect(placedHits(truth, read, isSpecial)).toEqual({ hits: 2, missed: ["í"] })
    // A text layer's line box can be half as tall as the word boxes an engine draws over it.
    const thin = [{ text: "Esta Administración se", x0: 0, y0: 5, x1: 400, y1: 8 }]
    expect(placedHits(thin, [at("Esta", 0), at("Administración", 50)], isSpecial)).toEqual({ hits: 1, missed: [] })
    const twice = [at("ñu ñu", 0)]
    expect(placedHits(twice, [at("ñu", 0), at("nu", 30)], isSpecial)).toEqual({ hits: 1, missed: ["ñ"] })
  })
})

describe("inventedMarks", () => {
  it("counts a read word whose mark no truth word over it has, among all words read", () => {
    const truth = [at("will", 0), at("SELANGOR", 100), at("Muñoz", 0, 40)]
    const read = [at("wíll", 1), at("SELAÑGOR", 101), at("Muñoz", 0, 40), at("año", 0, 80)]
    // "año" has no truth under it: a mark the page does not print.
    expect(inventedMarks(read, truth)).toEqual({ words: 4, invented: ["wíll", "SELAÑGOR", "año"] })
  })

  it("takes a truth line's words over its box, and counts neither ¿ nor º as a mark", () => {
    const line = [{ text: "¿Qué día? Nº 5", x0: 0, y0: 0, x1: 300, y1: 12 }]
    const read = [at("¿Qué", 0), at("día?", 50), at("Nº", 100), at("tú", 150)]
    expect(inventedMarks(read, line)).toEqual({ words: 4, invented: ["tú"] })
  })
})
