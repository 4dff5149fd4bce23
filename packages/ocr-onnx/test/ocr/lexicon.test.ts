/**
 * The lexicon that checks the recognizer's diacritics: letter families of a dictionary, the alternatives read from
 * the softmax, which variant a word takes (marks removed freely, added only on near-ties), the runs of a line it
 * applies to, and the real Spanish and English word lists.
 */

import * as Fs from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import { type CtcChar, parseDictionary } from "../../src/internal/ocr/ctc.js"
import { pageLexicon, pageListLanguages, pageWordLists } from "../../src/internal/ocr/engine.js"
import {
  buildWordSet,
  correctDiacritics,
  correctLetters,
  decodeWordSet,
  diacriticFamilies,
  encodeWordSet,
  type Lexicon,
  loadWordLists,
  ownLettersOf,
  packedFile,
  packedLexicon,
  settleLookalikes,
  unionLexicon,
  withAlternatives,
  withLetters,
  wordLists,
  wordSetHas
} from "../../src/internal/ocr/lexicon.js"
import { pageDecision, pageMarks } from "../../src/internal/ocr/pipeline.js"
import { defaultLexicon } from "../../src/internal/options.js"

const words = (...list: Array<string>): Lexicon => {
  const set = new Set(list)
  return { has: (word) => set.has(word) || set.has(word.toLowerCase()) }
}

/** A character read as `text` with the given probabilities of its family (its own included). */
const char = (text: string, alternatives: Record<string, number> = {}, at = 0): CtcChar => ({
  text,
  first: at,
  last: at,
  prob: alternatives[text] ?? 0.9,
  alternatives:
    Object.keys(alternatives).length === 0
      ? undefined
      : Object.entries(alternatives).map(([t, prob]) => ({ text: t, prob }))
})

const plain = (text: string): Array<CtcChar> => Array.from(text, (t, k) => char(t, {}, k))

const weights = { weight: 2.3, addWeight: 0.69 }

const config = { ...defaultOcrConfig }
const textOf = (page: ReadonlyArray<ReadonlyArray<CtcChar>>) => page.map((l) => l.map((ch) => ch.text).join(""))

describe("diacriticFamilies", () => {
  it("groups the letters of a dictionary that differ only by their marks, case apart", () => {
    const labels = parseDictionary(["a", "á", "à", "n", "ñ", "N", "Ñ", "b", "1", "º", "é"].join("\n"))
    const families = diacriticFamilies(labels)
    const index = (l: string) => labels.indexOf(l)
    expect(families.get("a")).toEqual([index("a"), index("á"), index("à")])
    expect(families.get("à")).toEqual(families.get("a"))
    expect(families.get("ñ")).toEqual([index("n"), index("ñ")])
    expect(families.get("Ñ")).toEqual([index("N"), index("Ñ")])
    // No sibling in the dictionary, not a letter, or the space and the blank: no family.
    for (const l of ["b", "1", "º", "é", " ", ""]) expect(families.get(l)).toBeUndefined()
  })
})

describe("withAlternatives", () => {
  it("reads each family member's highest probability over the character's own run, at the piece's offset", () => {
    const labels = parseDictionary("n\nñ\nx")
    const classes = labels.length
    const probs = new Float32Array(4 * classes)
    const set = (t: number, label: string, p: number) => {
      probs[t * classes + labels.indexOf(label)] = p
    }
    set(1, "n", 0.7)
    set(1, "ñ", 0.2)
    set(2, "n", 0.5)
    set(2, "ñ", 0.4)
    set(3, "ñ", 0.99) // outside the run: not counted
    set(0, "x", 0.9)
    const chars: Array<CtcChar> = [
      { text: "x", first: 10, last: 10, prob: 0.9 },
      { text: "n", first: 11, last: 12, prob: 0.7 }
    ]
    const [x, n] = withAlternatives(chars, probs, classes, labels, diacriticFamilies(labels), 10)
    expect(x?.alternatives).toBeUndefined()
    expect(n?.alternatives).toEqual([
      { text: "n", prob: expect.closeTo(0.7, 6) },
      { text: "ñ", prob: expect.closeTo(0.4, 6) }
    ])
  })
})

describe("withLetters", () => {
  it("sums a letter's marks at each timestep of its run and keeps the best timestep", () => {
    const labels = parseDictionary("A\nÁ\nÀ\nB\nD")
    const classes = labels.length
    const probs = new Float32Array(5 * classes)
    const set = (t: number, label: string, p: number) => {
      probs[t * classes + labels.indexOf(label)] = p
    }
    // `A` read at 0.4 against `Á` 0.35 and `À` 0.2: the letter is sure (0.95), the mark is not.
    set(1, "A", 0.4)
    set(1, "Á", 0.35)
    set(1, "À", 0.2)
    set(2, "A", 0.3)
    set(2, "Á", 0.3)
    set(4, "Á", 0.99) // outside the run: not counted
    // `B` read at 0.45 against `D` 0.5 at another timestep: another letter in doubt, no family, nothing summed.
    set(3, "B", 0.45)
    const chars: Array<CtcChar> = [
      { text: "A", first: 11, last: 12, prob: 0.4 },
      { text: "B", first: 13, last: 13, prob: 0.45 }
    ]
    const [a, b] = withLetters(chars, probs, classes, labels, diacriticFamilies(labels), 10)
    expect(a?.letter).toBeCloseTo(0.95, 6)
    expect(a?.prob).toBe(0.4)
    expect(b?.letter).toBeUndefined()
  })

  // A line read one timestep a character, each at `prob` with what else the model gave it there.
  const read = (line: string, doubts: Record<number, Record<string, number>>, labels = parseDictionary(DICTIONARY)) => {
    const classes = labels.length
    const probs = new Float32Array(line.length * classes)
    const chars = Array.from(line, (text, t): CtcChar => {
      const row = doubts[t] ?? { [text]: 0.99 }
      for (const [label, p] of Object.entries(row)) probs[t * classes + labels.indexOf(label)] = p
      return { text, first: t, last: t, prob: row[text] ?? 0 }
    })
    return withLetters(chars, probs, classes, labels, diacriticFamilies(labels))
  }
  const DICTIONARY = [..."0123456789AaÁáBbDJjLlNnOoÓóPpRrSsTtUuYyIiÌEeHh.,;:-/|", " "].join("\n")
  const sure = (chars: ReadonlyArray<CtcChar>) => chars.map((c) => Number((c.letter ?? c.prob).toFixed(2)))

  it("sums a letter's other case where its word is in one case or capitalised (SROIE's `JAYA` 0.61)", () => {
    expect(sure(read("JAYA", { 0: { J: 0.61, j: 0.39 } }))[0]).toBe(1)
    expect(sure(read("Jaya", { 0: { J: 0.61, j: 0.39 } }))[0]).toBe(1)
    expect(sure(read("jaya", { 0: { j: 0.61, J: 0.39 } }))[0]).toBe(1)
    // Against its word's case (`jAYA`), or alone in its word, the case is a doubt.
    expect(sure(read("jAYA", { 0: { j: 0.61, J: 0.39 } }))[0]).toBe(0.61)
    expect(sure(read("J 12", { 0: { J: 0.61, j: 0.39 } }))[0]).toBe(0.61)
    // Another letter in doubt is not summed (`MUBA` for `MUDA`).
    expect(sure(read("MUBA", { 2: { B: 0.67, D: 0.32 } }))[2]).toBe(0.67)
  })

  it("sums the stroke an `I` and an `l` share where the word's case says which it is (SROIE's `BERJUNTAI`, `Ipoh`)", () => {
    expect(sure(read("BERJUNTAI", { 8: { I: 0.64, Ì: 0.17, l: 0.11 } }))[8]).toBe(0.92)
    expect(sure(read("Ipoh", { 0: { I: 0.71, l: 0.15, "|": 0.04, Ì: 0.03 } }))[0]).toBe(0.93)
    expect(sure(read("lpoh", { 0: { l: 0.71, I: 0.15, "|": 0.04 } }))[0]).toBe(0.9)
    // A figure between letters in a word of no figure (`BERJUNTAI` read with a `1` beside its `I`).
    expect(sure(read("TAI", { 2: { I: 0.8, "1": 0.15 } }))[2]).toBe(0.95)
    // Where the word does not say its case (`I` alone, or among figures: `28I1`), the stroke stays a doubt.
    expect(sure(read("I 12", { 0: { I: 0.64, l: 0.3 } }))[0]).toBe(0.64)
    expect(sure(read("28I1", { 2: { I: 0.26, l: 0.3, "1": 0.4 } }))[2]).toBe(0.26)
  })

  it("sums a figure's look-alike letters between figures, and a letter's look-alike figure between letters", () => {
    // `81760` read with `O` beside the `0`; `NOR` with a `0` beside the `O`.
    expect(sure(read("81760", { 4: { "0": 0.82, O: 0.07, Ó: 0.09 } }))[4]).toBe(0.98)
    expect(sure(read("NOR", { 1: { O: 0.8, "0": 0.19 } }))[1]).toBe(0.99)
    // A look-alike read against its word is a misread: `456OO` for `45600`, `28I1`, `N0`.
    expect(sure(read("456OO", { 3: { O: 0.4, "0": 0.32 }, 4: { O: 0.45, "0": 0.39 } })).slice(3)).toEqual([0.4, 0.45])
    expect(sure(read("28I1", { 2: { I: 0.26, "1": 0.7 } }))[2]).toBe(0.26)
    expect(sure(read("N0", { 1: { "0": 0.6, O: 0.39 } }))[1]).toBe(0.6)
    // A figure's look-alike between a figure and a letter is no misread one can rule out.
    expect(sure(read("4330O", { 3: { "0": 0.39, O: 0.31, Ó: 0.14 } }))[3]).toBe(0.39)
  })

  it("sums the stops for a stop not between figures: a decimal point is the figure's value", () => {
    expect(sure(read("NO 290,", { 6: { ",": 0.69, ".": 0.29 } }))[6]).toBe(0.98)
    expect(sure(read("H.S", { 1: { ".": 0.7, ",": 0.29 } }))[1]).toBe(0.99)
    expect(sure(read("1,25", { 1: { ",": 0.69, ".": 0.3 } }))[1]).toBe(0.69)
    // A colon inside a word is a letter misread (`JA:AN` for `JALAN`); `/` against `1` is another character.
    expect(sure(read("JA:AN", { 2: { ":": 0.89, ".": 0.1 } }))[2]).toBe(0.89)
    expect(sure(read("9/5", { 1: { "/": 0.6, "1": 0.39 } }))[1]).toBe(0.6)
  })

  it("keeps the sum without the marks apart (`kin`) for a page that does not settle the mark", () => {
    const [a] = read("ANA", { 0: { A: 0.4, Á: 0.3, a: 0.29 } })
    expect(a?.letter).toBeCloseTo(0.99, 6)
    expect(a?.kin).toBeCloseTo(0.69, 6)
  })
})

describe("settleLookalikes", () => {
  // A line read one timestep a character, each at 0.6 with what else the model gave it there.
  const settle = (line: string, others: Record<number, Record<string, number>>) => {
    const labels = parseDictionary([..."0123456789OoIÍlNVCELBSAR,", " "].join("\n"))
    const classes = labels.length
    const probs = new Float32Array(line.length * classes)
    const chars = Array.from(line, (text, t): CtcChar => {
      probs[t * classes + labels.indexOf(text)] = 0.6
      for (const [label, p] of Object.entries(others[t] ?? {})) probs[t * classes + labels.indexOf(label)] = p
      return { text, first: t, last: t, prob: 0.6 }
    })
    return settleLookalikes(chars, probs, classes, labels)
  }
  const text = (chars: ReadonlyArray<CtcChar>) => chars.map((c) => c.text).join("")

  it("reads a look-alike as its word has it where the model gave that a part (SROIE's `456OO`, `4330O`, `28I1`)", () => {
    expect(text(settle("456OO", { 3: { "0": 0.32 }, 4: { "0": 0.39 } }))).toBe("45600")
    expect(text(settle("4330O", { 4: { "0": 0.19 } }))).toBe("43300")
    expect(text(settle("28I1", { 2: { "1": 0.4 } }))).toBe("2811")
    // Its mark aside (`28Í1` before the page rules its marks), and a word run into another before its space is read.
    expect(text(settle("28Í1,", { 2: { "1": 0.4 } }))).toBe("2811,")
    expect(text(settle("BESAR,456OO", { 9: { "0": 0.32 }, 10: { "0": 0.39 } }))).toBe("BESAR,45600")
    expect(text(settle("INV0ICE", { 3: { O: 0.3 } }))).toBe("INVOICE")
    const [settled] = settle("O5", { 0: { "0": 0.3 } }).slice(0, 1)
    expect(settled).toMatchObject({ text: "O", prob: 0.6 })
    expect(settle("10O", { 2: { "0": 0.25 } })[2]).toMatchObject({ text: "0", prob: 0.25 })
  })

  it("keeps a look-alike the model gave no part to, a unit after a figure and a letter among letters", () => {
    // The model all but sure of the letter: a code's `O` stays.
    expect(text(settle("10O", { 2: { "0": 0.05 } }))).toBe("10O")
    // A litre after a figure (`1,5l` is `15l` here: no stop in the dictionary), not between two figures.
    expect(text(settle("15l", { 2: { "1": 0.3 } }))).toBe("15l")
    // Another letter in the word: not a word of figures (`NO1`); a word with another figure (`C0E1`).
    expect(text(settle("NO12", { 1: { "0": 0.3 } }))).toBe("NO12")
    expect(text(settle("C0E1", { 1: { O: 0.3 } }))).toBe("C0E1")
    // One figure is no word of figures.
    expect(text(settle("5OO", { 1: { "0": 0.3 }, 2: { "0": 0.3 } }))).toBe("5OO")
    // A figure in a word of two characters may be printed so (`A0`, a paper size).
    expect(text(settle("N0", { 1: { O: 0.3 } }))).toBe("N0")
  })
})

describe("correctLetters", () => {
  it("removes a mark the lexicon does not know when the model gave the bare letter some probability", () => {
    const read = [...plain("f"), char("í", { i: 0.2, í: 0.7 }), ...plain("rma")]
    expect(correctLetters(read, words("firma"), weights)?.join("")).toBe("firma")
  })

  it("keeps a word the lexicon knows, and one whose variants are too unlikely or unknown", () => {
    const close = [char("é", { e: 0.45, é: 0.5 }), ...plain("l")]
    expect(correctLetters(close, words("él", "el"), weights)).toBeUndefined()
    // Odds of 0.9 to 0.05 (e^2.9) against "i" are beyond the weight of 2.3.
    const sure = [...plain("f"), char("í", { i: 0.05, í: 0.9 }), ...plain("rma")]
    expect(correctLetters(sure, words("firma"), weights)).toBeUndefined()
    const unknown = [...plain("f"), char("í", { i: 0.3, í: 0.6 }), ...plain("rmx")]
    expect(correctLetters(unknown, words("firma"), weights)).toBeUndefined()
  })

  it("adds a mark to a letter read bare only where the model was nearly undecided", () => {
    const tie = [...plain("PA"), char("N", { N: 0.5, Ñ: 0.45 }), ...plain("UELOS")]
    expect(correctLetters(tie, words("pañuelos"), weights)?.join("")).toBe("PAÑUELOS")
    // "AZUCAR" printed without its accent, as receipts often are: the model's 0.9 to 0.2 stands.
    const bare = [...plain("AZ"), char("U", { U: 0.9, Ú: 0.2 }), ...plain("CAR")]
    expect(correctLetters(bare, words("azúcar"), weights)).toBeUndefined()
  })

  it("adds the tilde of ñ, a letter of its own rather than an accent, under the whole weight", () => {
    // Odds of 0.77 to 0.23 (e^1.2) for "N": beyond the 0.69 that an accent may be added at, within 2.3.
    const noisy = [...plain("PA"), char("N", { N: 0.77, Ñ: 0.23 }), ...plain("UELOS")]
    expect(correctLetters(noisy, words("pañuelos"), weights)?.join("")).toBe("PAÑUELOS")
    // The same odds for an accent leave the word as read, and odds beyond the whole weight leave "N" too.
    const accent = [...plain("LIM"), char("O", { O: 0.77, Ó: 0.23 }), ...plain("N")]
    expect(correctLetters(accent, words("limón"), weights)).toBeUndefined()
    const printed = [...plain("PA"), char("N", { N: 0.95, Ñ: 0.05 }), ...plain("UELOS")]
    expect(correctLetters(printed, words("pañuelos"), weights)).toBeUndefined()
  })

  it("adds an umlaut under the whole weight on a German page only, where print never drops it", () => {
    // "BÄCKEREI" on a worn scan read "BACKEREI" at odds of 0.8 to 0.12 (e^1.9): German print keeps the umlaut.
    const worn = [...plain("B"), char("A", { A: 0.8, Ä: 0.12 }), ...plain("CKEREI")]
    const german = ownLettersOf(["de"])
    expect(correctLetters(worn, words("bäckerei"), weights, undefined, german)?.join("")).toBe("BÄCKEREI")
    const printed = [...plain("B"), char("A", { A: 0.95, Ä: 0.05 }), ...plain("CKEREI")]
    expect(correctLetters(printed, words("bäckerei"), weights, undefined, german)).toBeUndefined()
    // A word of three letters read bare may be another misread: IKEA's "EUR" read "FUR" is not "FÜR".
    const short = [char("F", { F: 0.9 }), char("U", { U: 0.8, Ü: 0.12 }), ...plain("R")]
    expect(correctLetters(short, words("für"), weights, undefined, german)).toBeUndefined()
    // Spanish print drops the diaeresis with the accents ("PINGUINO"): the same odds leave the word as read.
    const spanish = [...plain("PING"), char("U", { U: 0.8, Ü: 0.12 }), ...plain("INO")]
    expect(correctLetters(spanish, words("pingüino"), weights, undefined, ownLettersOf(["es"]))).toBeUndefined()
    expect(correctLetters(spanish, words("pingüino"), weights, undefined, ownLettersOf(undefined))).toBeUndefined()
  })

  it("exchanges a mark read for another the lists hold the word with, however little the model gave it", () => {
    // Worn Portuguese receipts: the tilde read as an acute ("TALÁO", "PÁO"), the right mark given nearly nothing.
    const talao = [...plain("TAL"), char("Á", { A: 0.05, Á: 0.9, Ã: 0.001 }), ...plain("O")]
    expect(correctLetters(talao, words("talão"), weights)?.join("")).toBe("TALÃO")
    const pao = [...plain("P"), char("Á", { A: 0.01, Á: 0.9, Ã: 0.0001 }), ...plain("O")]
    expect(correctLetters(pao, words("pão"), weights)?.join("")).toBe("PÃO")
    // Not where the word without the mark is listed (the mark may be the recognizer's), nor where two marks could be.
    const mas = [...plain("m"), char("à", { a: 0.01, à: 0.9, á: 0.01 }), ...plain("s")]
    expect(correctLetters(mas, words("mas", "más"), weights)).toBeUndefined()
    const cafe = [...plain("caf"), char("è", { e: 0.01, è: 0.9, é: 0.01, ê: 0.01 })]
    expect(correctLetters(cafe, words("café", "cafê"), weights)).toBeUndefined()
    // Nor on a word of two letters, nor where the letter is read bare.
    const two = [...plain("s"), char("è", { e: 0.01, è: 0.9, é: 0.001 })]
    expect(correctLetters(two, words("sé"), weights)).toBeUndefined()
    const bare = [...plain("TAL"), char("A", { A: 0.9, Á: 0.05, Ã: 0.001 }), ...plain("O")]
    expect(correctLetters(bare, words("talão"), weights)).toBeUndefined()
  })

  it("takes the likeliest variant the lexicon knows, over several letters", () => {
    const read = [char("è", { e: 0.3, é: 0.2, è: 0.5 }), ...plain("l")]
    expect(correctLetters(read, words("el", "él"), weights)?.join("")).toBe("el")
    const two = [
      ...plain("Sugg"),
      char("é", { e: 0.2, é: 0.7 }),
      ...plain("st"),
      char("í", { i: 0.3, í: 0.6 }),
      ...plain("on")
    ]
    expect(correctLetters(two, words("suggestion"), weights)?.join("")).toBe("Suggestion")
  })
})

describe("correctDiacritics", () => {
  it("checks each run of letters alone and changes only their text", () => {
    const line = [
      ...plain("N"),
      char("º", {}, 1),
      { text: " ", first: 2, last: 2, prob: 0.5 },
      ...plain("12"),
      char("í", { i: 0.3, í: 0.6 }, 5),
      ...plain("s"),
      char(".", {}, 7)
    ]
    const out = correctDiacritics(line, words("is"), weights)
    expect(out.map((c) => c.text).join("")).toBe("Nº 12is.")
    expect(out.map((c) => [c.first, c.last])).toEqual(line.map((c) => [c.first, c.last]))
    expect(out[0]).toBe(line[0])
  })
})

describe("an i the recognizer read twice", () => {
  const line = (text: string) => plain(text)
  const read = (text: string, lexicon: Lexicon) =>
    correctDiacritics(line(text), lexicon, weights)
      .map((c) => c.text)
      .join("")

  it("drops a doubled i, or one read out of the dots of the letter before it, when the word without it is listed", () => {
    const lexicon = words("conseil", "Müller", "escritório", "maintenance")
    expect(read("Conseiil (heures)", lexicon)).toBe("Conseil (heures)")
    expect(read("Weber Müiller GmbH", lexicon)).toBe("Weber Müller GmbH")
    expect(read("Maintenance", lexicon)).toBe("Maintenance")
    // The boxes of the letters left keep their timesteps.
    const out = correctDiacritics(line("Conseiil"), lexicon, weights)
    expect(out.map((c) => c.first)).toEqual([0, 1, 2, 3, 4, 5, 7])
  })

  it("with the marks checked too: escríitório is escritório", () => {
    const letters = [
      ...plain("escr"),
      char("í", { i: 0.4, í: 0.5 }, 4),
      ...plain("itório").map((c, k) => ({ ...c, first: 5 + k, last: 5 + k }))
    ]
    const out = correctDiacritics(letters, words("escritório"), weights)
    expect(out.map((c) => c.text).join("")).toBe("escritório")
  })

  it("keeps a doubled i a listed word has, and one no listed word explains", () => {
    expect(read("xiita", words("xiita", "xita"))).toBe("xiita")
    expect(read("Offiicina", words("conseil"))).toBe("Offiicina")
  })
})

describe("the packed word set", () => {
  const list = ["casa", "casas", "año", "AÑO", "Martínez", "x", ...Array.from({ length: 5000 }, (_, k) => `w${k}`)]

  it("finds exactly its words, through hash collisions, and survives its file format", () => {
    const set = buildWordSet(list)
    const check = (has: (w: string) => boolean) => {
      for (const w of list) expect(has(w), w).toBe(true)
      for (const w of ["cas", "casa ", "ano", "año.", "martínez", "w5000", "", "X"]) expect(has(w), w).toBe(false)
    }
    check((w) => wordSetHas(set, w))
    // An even and an odd count of code units (the file pads the odd one).
    for (const extra of [[], ["z"]]) {
      const bytes = encodeWordSet(buildWordSet([...list, ...extra]))
      const decoded = decodeWordSet(bytes)
      expect(decoded).toBeDefined()
      check((w) => wordSetHas(decoded!, w))
      expect(decodeWordSet(bytes.subarray(0, bytes.length - 4))).toBeUndefined()
    }
    expect(decodeWordSet(new Uint8Array(64))).toBeUndefined()
    // Bytes within a larger buffer: viewed in place where aligned, copied where not, read the same either way.
    const packed = encodeWordSet(buildWordSet(["año", "camión"]))
    for (const offset of [4, 2]) {
      const outer = new Uint8Array(packed.byteLength + 8)
      outer.set(packed, offset)
      const decoded = decodeWordSet(outer.subarray(offset, offset + packed.byteLength))!
      expect(decoded.units.buffer === outer.buffer).toBe(offset === 4)
      for (const w of ["año", "camión"]) expect(wordSetHas(decoded, w), w).toBe(true)
      expect(wordSetHas(decoded, "ano")).toBe(false)
    }
    // A file whose table has no empty slot (written by someone else): a lookup still ends.
    const full = encodeWordSet(buildWordSet(["a", "b"]))
    new Uint32Array(full.buffer, full.byteLength - 16).fill(1)
    expect(wordSetHas(decodeWordSet(full)!, "zz")).toBe(false)
  })
})

/** The lists of `languages` as one lexicon, as a page written in all of them is checked. */
const loadLexicon = (languages: ReadonlyArray<"es" | "en">) =>
  Effect.map(loadWordLists(languages), (lists) => unionLexicon([...lists.values()]))

describe("loadWordLists", () => {
  it.effect("leaves the packed words in the temporary directory, and rebuilds them from a torn file", () =>
    Effect.gen(function* () {
      yield* loadLexicon(["en"])
      // The file of this build's list: an earlier build's file for the same language may lie beside it.
      const path = yield* Effect.promise(() => packedFile("en"))
      expect(Fs.existsSync(path)).toBe(true)
      Fs.writeFileSync(path, Fs.readFileSync(path).subarray(0, 1000))
      const lexicon = yield* loadLexicon(["en"])
      expect([lexicon.has("Suggestion"), lexicon.has("TAX"), lexicon.has("Suggestíon")]).toEqual([true, true, false])
      expect(Fs.statSync(path).size).toBeGreaterThan(1_000_000)
    })
  )

  it.effect("loads a language's list on the first call that asks for it, and keeps it", () =>
    Effect.gen(function* () {
      const lists = wordLists()
      expect(lists.loaded()).toEqual([])
      const first = yield* lists.lists(["en"])
      expect(lists.loaded()).toEqual(["en"])
      const again = yield* lists.lists(["en"])
      expect(again.get("en")).toBe(first.get("en"))
      expect([...again.keys()]).toEqual(["en"])
    })
  )

  it.effect("loads the Spanish and English Hunspell lists with their inflected and capitalised forms", () =>
    Effect.gen(function* () {
      const lexicon = yield* loadLexicon(["es", "en"])
      for (const w of [
        "pañuelos",
        "PAÑUELOS",
        "Cláusulas",
        "facturó",
        "Martínez",
        "MARTÍNEZ",
        "suggestions",
        "Friday",
        "TAX",
        "y"
      ]) {
        expect(lexicon.has(w), w).toBe(true)
      }
      for (const w of ["panuelos", "fírma", "Suggestíon", "bancaría", "friday", "martínez", ""]) {
        expect(lexicon.has(w), w).toBe(false)
      }
      const spanish = yield* loadLexicon(["es"])
      expect(spanish.has("suggestions")).toBe(false)
    })
  )
})

describe("word lists of the page's languages", () => {
  // The confusions of the generated Portuguese, French and Italian documents read by OCR (MEASUREMENTS.md,
  // "Languages and marks"): each page checked against its own languages' lists, not a merged Spanish and English one.
  const lines = (...texts: Array<Array<CtcChar>>) => texts
  const loaded = Effect.map(loadWordLists(["es", "en", "pt", "fr", "de"]), (lists) => ({
    lists,
    words: unionLexicon([lists.get("es")!, lists.get("en")!]),
    families: new Map()
  }))
  const consultoria = () => [
    ...plain("Consultor"),
    char("í", { í: 0.6, i: 0.3 }, 9),
    ...plain("a").map((ch) => ({ ...ch, first: 10, last: 10 }))
  ]

  it.effect("reads a Portuguese page's Consultoría as Consultoria, and leaves a Spanish page's", () =>
    Effect.gen(function* () {
      const lexicon = yield* loaded
      const portuguese = pageMarks(
        lines(consultoria(), plain("Rua do escritório em Lisboa"), plain("Nota fiscal da empresa para o cliente")),
        lexicon,
        config
      )
      expect(textOf(portuguese)[0]).toBe("Consultoria")
      const spanish = pageMarks(
        lines(consultoria(), plain("Calle de la oficina en Madrid"), plain("Factura de la empresa para el cliente")),
        lexicon,
        config
      )
      expect(textOf(spanish)[0]).toBe("Consultoría")
    })
  )

  it.effect("puts the tilde and the cedilla of Portuguese words where the model was nearly undecided", () =>
    Effect.gen(function* () {
      const lexicon = yield* loaded
      const maca = [
        char("M", {}, 0),
        char("A", {}, 1),
        char("C", { C: 0.55, Ç: 0.45 }, 2),
        char("Á", { Á: 0.5, Ã: 0.4, A: 0.1 }, 3)
      ]
      const atlantico = [
        ...plain("Atl"),
        char("á", { á: 0.6, â: 0.35, a: 0.05 }, 3),
        ...plain("ntico").map((ch, k) => ({ ...ch, first: 4 + k, last: 4 + k }))
      ]
      const page = pageMarks(
        lines(maca, atlantico, plain("Nota fiscal da loja para o cliente com o valor")),
        lexicon,
        config
      )
      expect(textOf(page).slice(0, 2)).toEqual(["MAÇÃ", "Atlântico"])
      // On a Spanish page "Atlántico" is the word.
      const spanish = pageMarks(lines(atlantico, plain("Factura de la empresa para el cliente")), lexicon, config)
      expect(textOf(spanish)[0]).toBe("Atlántico")
    })
  )

  it.effect("reads a French page's PATES as PÂTES when the circumflex was a close second", () =>
    Effect.gen(function* () {
      const lexicon = yield* loaded
      const pates = [
        char("P", {}, 0),
        char("A", { A: 0.55, Â: 0.45 }, 1),
        ...plain("TES").map((ch, k) => ({ ...ch, first: 2 + k, last: 2 + k }))
      ]
      const page = pageMarks(lines(pates, plain("Le montant de la facture est pour le client")), lexicon, config)
      expect(textOf(page)[0]).toBe("PÂTES")
    })
  )

  it.effect("checks a page in a language with no list loaded against no list, not the Spanish one", () =>
    Effect.gen(function* () {
      const lexicon = yield* loaded
      expect(pageLexicon(lexicon, ["it"])).toBeUndefined()
      expect(pageLexicon(lexicon, [])).toBe(lexicon.words)
      expect(pageLexicon(lexicon, undefined)).toBe(lexicon.words)
      // An Italian page's "Consultoría" is not made Spanish; the mark stays, as Italian writes "í".
      const italian = pageMarks(
        lines(consultoria(), plain("La fattura della ditta per il cliente con il prezzo")),
        lexicon,
        config
      )
      expect(textOf(italian)[0]).toBe("Consultoría")
      // A page that tells no language is checked against Spanish and English, as before.
      expect(textOf(pageMarks(lines(consultoria()), lexicon, config))[0]).toBe("Consultoría")
      expect(
        textOf(
          pageMarks(
            lines(plain("F"), [
              ...plain("f"),
              char("í", { í: 0.6, i: 0.3 }, 1),
              ...plain("rma").map((ch, k) => ({ ...ch, first: 2 + k, last: 2 + k }))
            ]),
            lexicon,
            config
          )
        )[1]
      ).toBe("firma")
    })
  )

  it("needs the lists of the page's languages, English's for loanwords, the fallback's when it tells none", () => {
    const all = ["es", "en", "pt", "fr", "de"] as const
    expect(pageListLanguages(all, [])).toEqual(["es", "en"])
    expect(pageListLanguages(all, ["fr"])).toEqual(["fr", "en"])
    expect(pageListLanguages(all, ["en"])).toEqual(["en"])
    expect(pageListLanguages(all, ["pt", "es"])).toEqual(["es", "pt", "en"])
    expect(pageListLanguages(all, ["it"])).toEqual([])
    expect(pageListLanguages(all, ["nl"])).toEqual([])
    expect(pageListLanguages([...all, "nl"], ["nl"])).toEqual(["nl", "en"])
    expect(pageListLanguages(["pt", "fr"], [])).toEqual(["pt", "fr"])
    expect(pageListLanguages(["pt", "fr"], ["fr"])).toEqual(["fr"])
  })

  it.effect("checks each page as it did with every list loaded, loading only the lists the pages need", () =>
    Effect.gen(function* () {
      const everything = yield* loaded
      const lazy = { languages: ["es", "en", "pt", "fr", "de"] as const, lists: wordLists(), families: new Map() }
      const pages = [
        lines(consultoria(), plain("Rua do escritório em Lisboa"), plain("Nota fiscal da empresa para o cliente")),
        lines(consultoria(), plain("La fattura della ditta per il cliente con il prezzo")),
        lines(consultoria(), plain("Le montant de la facture est pour le client")),
        lines(consultoria())
      ]
      for (const page of pages) {
        const lexicon = yield* pageWordLists(lazy, pageDecision(page).languages)
        expect(textOf(pageMarks(page, lexicon, config))).toEqual(textOf(pageMarks(page, everything, config)))
      }
      // German's list was needed by no page.
      expect(lazy.lists.loaded()).toEqual(["pt", "en", "fr", "es"])
    })
  )

  it.effect("loads the Portuguese, French and German lists with their inflected forms", () =>
    Effect.gen(function* () {
      const lists = yield* loadWordLists(["pt", "fr", "de"])
      const pt = lists.get("pt")!
      for (const w of ["consultoria", "escritório", "SERVIÇOS", "Atlântico", "maçã", "PÃO"])
        expect(pt.has(w), w).toBe(true)
      for (const w of ["consultoría", "escrítório", "servicos", "atlántico"]) expect(pt.has(w), w).toBe(false)
      const fr = lists.get("fr")!
      for (const w of ["pâtes", "PÂTES", "étaient", "entrées"]) expect(fr.has(w), w).toBe(true)
      for (const w of ["pates", "l'homme"]) expect(fr.has(w), w).toBe(false)
      const de = lists.get("de")!
      for (const w of ["Häuser", "Straße", "RECHNUNG"]) expect(de.has(w), w).toBe(true)
    })
  )
})

describe("the Dutch list", () => {
  // Marks the recognizer invented on the generated Dutch documents read by OCR ("Üiterste", "júli" on the local
  // benchmark's pages; "GOUDSÉ KAAS", "HALFVÓLLE MÉLK" on worn scans of receipts): Dutch writes é, ó, ü ("café",
  // "vóór", "reünie"), so only a list can tell that these words have none (MEASUREMENTS.md, "Languages and marks").
  /** `word` with its letter at `at` read as `read`, the model giving the bare letter the probability `p`. */
  const invented = (word: string, at: number, read: string, p: number) =>
    Array.from(word, (t, k) => {
      const bare = read.normalize("NFD").charAt(0)
      return k === at ? char(read, { [read]: 0.9 - p, [bare]: p }, k) : char(t, {}, k)
    })
  const receipt = (...items: Array<Array<CtcChar>>) => [
    plain("Bewaar uw kassabon"),
    ...items,
    plain("Totaal van de bon voor de klant"),
    plain("Bedankt voor uw bezoek")
  ]
  const lists = Effect.map(loadWordLists(["es", "en", "pt", "fr", "de", "nl"]), (lists) => ({
    lists,
    words: unionLexicon([lists.get("es")!, lists.get("en")!]),
    families: new Map()
  }))

  it.effect("takes off the marks the recognizer put on Dutch words, capitals or not", () =>
    Effect.gen(function* () {
      const lexicon = yield* lists
      const page = receipt(
        invented("GOUDSE", 5, "É", 0.2),
        invented("HALFVOLLE", 5, "Ó", 0.15),
        invented("MELK", 1, "É", 0.25),
        invented("Uiterste", 0, "Ü", 0.3),
        invented("juli", 1, "ú", 0.3)
      )
      expect(pageDecision(page).languages).toEqual(["nl"])
      expect(textOf(pageMarks(page, lexicon, config)).slice(1, 6)).toEqual([
        "GOUDSE",
        "HALFVOLLE",
        "MELK",
        "Uiterste",
        "juli"
      ])
    })
  )

  it.effect("keeps the marks of Dutch words the list has, where the model gave the bare letter as much", () =>
    Effect.gen(function* () {
      const lexicon = yield* lists
      const page = receipt(
        invented("CAFÉ", 3, "É", 0.2),
        invented("financiële", 7, "ë", 0.2),
        invented("geïnteresseerd", 2, "ï", 0.2)
      )
      expect(textOf(pageMarks(page, lexicon, config)).slice(1, 4)).toEqual(["CAFÉ", "financiële", "geïnteresseerd"])
    })
  )

  it.effect("looks up ij as the list spells it, the one letter ĳ, in any case", () =>
    Effect.gen(function* () {
      const nl = (yield* loadWordLists(["nl"])).get("nl")!
      for (const w of ["bakkerij", "BAKKERIJ", "Bakkerij", "omschrijving", "IJSSEL", "halfvolle", "GOUDSE", "één"])
        expect(nl.has(w), w).toBe(true)
      for (const w of ["goudsé", "HALFVÓLLE", "mélk", "bakkerïj"]) expect(nl.has(w), w).toBe(false)
    })
  )

  it("converts a word as the list's ICONV lines say before looking it up", () => {
    const set = buildWordSet(["bakkerĳ", "Ĳssel"])
    const converted = packedLexicon({
      set,
      conversions: [
        ["ij", "ĳ"],
        ["IJ", "Ĳ"]
      ]
    })
    for (const w of ["bakkerij", "BAKKERIJ", "IJssel", "IJSSEL"]) expect(converted.has(w), w).toBe(true)
    expect(packedLexicon({ set, conversions: [] }).has("bakkerij")).toBe(false)
  })
})

describe("the default word lists", () => {
  it.effect("check an Italian page against the Italian list and a Dutch one against the Dutch list", () =>
    Effect.gen(function* () {
      const engine = { languages: defaultLexicon, lists: wordLists(), families: new Map() }
      // "Tipografía" on the local benchmark's Italian pages read by OCR (MEASUREMENTS.md, "Marks on worn scans").
      const tipografia = [
        ...plain("Tipograf"),
        char("í", { í: 0.6, i: 0.3 }, 8),
        ...plain("a").map((ch) => ({ ...ch, first: 9, last: 9 }))
      ]
      const italian = [tipografia, plain("La fattura della ditta per il cliente con il prezzo")]
      const dutch = [
        [
          ...plain("M"),
          char("É", { É: 0.6, E: 0.3 }, 1),
          ...plain("LK").map((ch, k) => ({ ...ch, first: 2 + k, last: 2 + k }))
        ],
        plain("Totaal van de bon voor de klant")
      ]
      for (const [page, read] of [
        [italian, "Tipografia"],
        [dutch, "MELK"]
      ] as const) {
        const lexicon = yield* pageWordLists(engine, pageDecision(page).languages)
        expect(textOf(pageMarks(page, lexicon, config))[0]).toBe(read)
      }
      expect(engine.lists.loaded()).toEqual(["it", "en", "nl"])
    })
  )
})
