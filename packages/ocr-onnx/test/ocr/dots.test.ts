/**
 * Dots read as marks or letters on worn scans (`dots.ts`, MEASUREMENTS.md, "Marks on worn scans"): the dots of
 * Dutch "ij", an `i` beside a marked `i`, a letter with a diaeresis read twice; words a list holds are kept.
 */

import { describe, expect, it } from "@effect/vitest"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import type { CtcChar } from "../../src/internal/ocr/ctc.js"
import { mendDots } from "../../src/internal/ocr/dots.js"
import type { Lexicon } from "../../src/internal/ocr/lexicon.js"
import { pageMarks } from "../../src/internal/ocr/pipeline.js"

const read = (text: string): Array<CtcChar> => Array.from(text, (t, k) => ({ text: t, first: k, last: k, prob: 0.9 }))
const textOf = (chars: ReadonlyArray<CtcChar>) => chars.map((ch) => ch.text).join("")
const mend = (text: string, lexicon?: Lexicon) => textOf(mendDots(read(text), lexicon))

describe("mendDots", () => {
  it("reads the dots of ij as no mark and no second i", () => {
    expect(mend("Bakkerïj Drukkeríj maandelíjks")).toBe("Bakkerij Drukkerij maandelijks")
    expect(mend("Díijkstra, Stukpríijs 3,50 Diijkstra")).toBe("Dijkstra, Stukprijs 3,50 Dijkstra")
    expect(mend("ÍJSSELMEER")).toBe("IJSSELMEER")
  })

  it("keeps the bare one of two i when one carries a mark", () => {
    expect(mend("Napolií bonifíico Alimentariì")).toBe("Napoli bonifico Alimentari")
    // Two marked, or two bare, are left to the lists and the language rule ("Hawaíí", "Hawaii").
    expect(mend("Hawaíí Hawaii")).toBe("Hawaíí Hawaii")
  })

  it("keeps one of a letter read twice with a diaeresis", () => {
    expect(mend("Rechnungsempfáänger Müünchen")).toBe("Rechnungsempfänger München")
    // A diaeresis beside the bare letter is written ("ideeën", "geëerd").
    expect(mend("ideeën geëerd")).toBe("ideeën geëerd")
  })

  it("leaves a word the page's lists hold, and keeps the positions of the characters left", () => {
    const lists: Lexicon = { has: (word) => word === "chiíta" }
    expect(mend("chiíta", lists)).toBe("chiíta")
    expect(mend("chiíta")).toBe("chita")
    expect(mendDots(read("Díijk 1"), undefined).map((ch) => ch.first)).toEqual([0, 2, 3, 4, 5, 6])
  })
})

describe("dots on a page", () => {
  it("are mended with the language rule, on a page with no word list of its language", () => {
    const none: Lexicon = { has: () => false }
    const lexicon = { lists: new Map([["en", none]]), words: none, families: new Map() }
    const lines = [read("Bakkerïj Díijkstra"), read("Het bedrag van de factuur is voor de klant")]
    expect(textOf(pageMarks(lines, lexicon, defaultOcrConfig)[0]!)).toBe("Bakkerij Dijkstra")
    expect(textOf(pageMarks(lines, lexicon, { ...defaultOcrConfig, markRule: false })[0]!)).toBe("Bakkerïj Díijkstra")
  })
})
