/**
 * Marks on worn scans (MEASUREMENTS.md, "Marks on worn scans"): an accent the recognizer lost is added to a word
 * whose print evidently keeps its accents (lower case, not an English loanword; or marked already) as freely as a
 * stray one is removed, while capitals keep the timid `addWeight`; a letter read twice with a mark is dropped.
 */

import { describe, expect, it } from "@effect/vitest"
import { defaultOcrConfig } from "../../src/internal/ocr/config.js"
import type { CtcChar } from "../../src/internal/ocr/ctc.js"
import { correctDiacritics, correctLetters, type Lexicon } from "../../src/internal/ocr/lexicon.js"
import { pageMarks } from "../../src/internal/ocr/pipeline.js"

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

/** Letters of `text` from timestep `from`, one per timestep, with a mark's alternatives where `marks` gives some. */
const read = (text: string, marks: Record<number, Record<string, number>> = {}, from = 0): Array<CtcChar> =>
  Array.from(text, (t, k) => char(t, marks[k] ?? {}, from + k))

const textOf = (chars: ReadonlyArray<CtcChar>) => chars.map((ch) => ch.text).join("")
const weights = { weight: 2.3, addWeight: 0.69 }

describe("an accent lost on a worn scan", () => {
  // "Logística" read "Logistica" with the model's 0.78 to 0.14 (odds e^1.7): beyond `addWeight`, within `weight`.
  const logistica = (text: string) => read(text, { 3: { [text[3]!]: 0.78, [text[3] === "i" ? "í" : "Í"]: 0.14 } })
  const lexicon = words("logística", "émail", "martínez", "distribuição", "pão", "sá")

  it("is added to a word in lower case under the whole weight, and not to the same word in capitals", () => {
    expect(correctLetters(logistica("Logistica"), lexicon, weights)?.join("")).toBe("Logística")
    expect(correctLetters(logistica("logistica"), lexicon, weights)?.join("")).toBe("logística")
    // Capitals are often printed without their accents ("AZUCAR"): the odds of 5.6 to 1 leave the word as read.
    expect(correctLetters(logistica("LOGISTICA"), lexicon, weights)).toBeUndefined()
    // Odds beyond the whole weight leave it too.
    const sure = read("Logistica", { 5: { i: 0.9, í: 0.05 } })
    expect(correctLetters(sure, lexicon, weights)).toBeUndefined()
  })

  it("is not added to an English word, printed bare in every language, but is to a name English lists", () => {
    // "email" on a French page: odds of 0.38 to 0.17 for "e" (e^0.8).
    const email = read("email", { 0: { e: 0.38, é: 0.17 } })
    const english = words("email", "Martinez")
    expect(correctLetters(email, lexicon, weights, english)).toBeUndefined()
    expect(correctLetters(email, lexicon, weights)?.join("")).toBe("émail")
    // English lists "Martinez" as a name only (capitalised): a Spanish page's "Martínez" keeps its accent.
    const martinez = read("Martinez", { 4: { i: 0.55, í: 0.28 } })
    expect(correctLetters(martinez, lexicon, weights, english)?.join("")).toBe("Martínez")
  })

  it("is added to a word in capitals that carries a mark already, not to a bare one or one of two letters", () => {
    const tilde = { A: 0.42, Ã: 0.175, Á: 0.01 }
    const distribuicao = read("DISTRIBUIÇAO", { 10: tilde })
    expect(correctLetters(distribuicao, lexicon, weights)?.join("")).toBe("DISTRIBUIÇÃO")
    expect(correctLetters(read("PAO", { 1: tilde }), lexicon, weights)).toBeUndefined()
    // A word of two letters is too short to tell ("SA" of a company, not "SÁ"), even in lower case.
    expect(correctLetters(read("sa", { 1: { a: 0.6, á: 0.15 } }), lexicon, weights)).toBeUndefined()
    // ñ says nothing of accents: printers that drop them keep it ("AÑO", "CAMPAÑA").
    expect(correctLetters(read("CAÑON", { 3: { O: 0.6, Ó: 0.15 } }), words("cañón"), weights)).toBeUndefined()
  })
})

describe("a letter read twice with a mark on either", () => {
  it("is dropped when the word without it is listed", () => {
    const lexicon = words("München", "account")
    const munchen = read("Müünchen", { 1: { u: 0.1, ü: 0.8 }, 2: { u: 0.2, ü: 0.7 } })
    expect(textOf(correctDiacritics(munchen, lexicon, weights))).toBe("München")
    const account = read("AÁCCOUNT", { 1: { A: 0.3, Á: 0.6 } })
    const out = correctDiacritics(account, lexicon, weights)
    expect(textOf(out)).toBe("ACCOUNT")
    // The letters left keep their timesteps.
    expect(out.map((c) => c.first)).toEqual([0, 2, 3, 4, 5, 6, 7])
    // A listed word keeps its letters ("créé").
    expect(textOf(correctDiacritics(read("créé"), words("créé", "cré"), weights))).toBe("créé")
  })
})

describe("page marks with the English list", () => {
  const en = words("email", "the", "of")
  const fr = words("électricité", "émail", "facture", "montant", "pour", "le", "la", "de", "client")
  const lexicon = {
    lists: new Map([
      ["en", en],
      ["fr", fr]
    ]),
    words: en,
    families: new Map()
  }
  const page = (...lines: Array<Array<CtcChar>>) =>
    pageMarks([...lines, read("Le montant de la facture pour le client")], lexicon, defaultOcrConfig).map(textOf)

  it("gives a French page's Electricité its É, and leaves its email bare", () => {
    const electricite = read("Electricité", { 0: { E: 0.54, É: 0.25 } })
    const email = read("Email", { 0: { E: 0.38, É: 0.17 } })
    expect(page(electricite, email).slice(0, 2)).toEqual(["Électricité", "Email"])
  })

  it("rules an image's lines by the languages of the text around them (a logo on a French page)", () => {
    const logo = () => [read("Électricité")]
    // Alone, two words tell no language: the marks go, as on a page that tells none.
    expect(pageMarks(logo(), lexicon, defaultOcrConfig).map(textOf)).toEqual(["Electricite"])
    const around = "Le montant de la facture pour le client"
    expect(pageMarks(logo(), lexicon, defaultOcrConfig, around).map(textOf)).toEqual(["Électricité"])
  })
})
