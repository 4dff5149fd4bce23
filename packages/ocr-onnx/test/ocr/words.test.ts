import { describe, expect, it } from "vitest"
import { type OcrWord, withoutEchoes, wordsOnPage } from "../../src/internal/ocr/words.js"

/** A word at columns [x0, x1) of a row 100–120 px down the page. */
const word = (text: string, x0: number, x1: number, confidence = 0.95): OcrWord => ({
  text,
  confidence,
  letters: confidence,
  x0,
  x1,
  y0: 100,
  y1: 120
})

const texts = (lines: ReadonlyArray<{ readonly words: ReadonlyArray<OcrWord> }>) =>
  lines.map((l) => l.words.map((w) => w.text).join(" "))

describe("withoutEchoes", () => {
  it("drops a doubted one-character word lying on another line's word: DISH H SOAP, 2 X K 10.64", () => {
    // The detector boxed a sliver of the H's edge with the next word; the recognizer read it as a letter.
    const dish = [{ words: [word("DISH", 40, 92)] }, { words: [word("H", 86, 92, 0.35), word("SOAP", 106, 160)] }]
    expect(texts(withoutEchoes(dish))).toEqual(["DISH", "SOAP"])
    // Alone in its box: the line goes.
    const times = [{ words: [word("2", 70, 80), word("X", 95, 108)] }, { words: [word("K", 102, 106, 0.36)] }]
    expect(texts(withoutEchoes(times))).toEqual(["2 X"])
  })

  it("drops one read surely too: MINIMERCADO S SERVIÇOS, KOFFIE S SNELFILTER (the next word's first letter)", () => {
    const lines = [
      { words: [word("KOFFIE", 40, 90), word("SNELFILTER", 100, 180)] },
      { words: [word("S", 100, 106, 1)] }
    ]
    expect(texts(withoutEchoes(lines))).toEqual(["KOFFIE SNELFILTER"])
  })

  it("keeps a one-character word with a place of its own on the row, or on its own line's word", () => {
    // A tax code after the amount, a quantity's x: apart from their neighbours.
    const code = [{ words: [word("2,32", 300, 340)] }, { words: [word("B", 352, 362, 0.41)] }]
    expect(texts(withoutEchoes(code))).toEqual(["2,32", "B"])
    // Touching a word by less than half its width: its own place.
    const touching = [{ words: [word("DISH", 40, 92)] }, { words: [word("H", 89, 97, 0.35)] }]
    expect(texts(withoutEchoes(touching))).toEqual(["DISH", "H"])
    // On the line's own word (a line is one box): not another line's.
    const own = [{ words: [word("DISH", 40, 92), word("H", 86, 92, 0.35)] }]
    expect(texts(withoutEchoes(own))).toEqual(["DISH H"])
    // On the row above or below: no overlap of half the height.
    const below = [{ words: [word("DISH", 40, 92)] }, { words: [{ ...word("H", 86, 92, 0.35), y0: 115, y1: 135 }] }]
    expect(texts(withoutEchoes(below))).toEqual(["DISH", "H"])
  })

  it("keeps one of two one-character words on each other: one glyph boxed twice (FUNSD's <)", () => {
    const twice = [{ words: [word("<", 40, 50, 0.8)] }, { words: [word("<", 41, 51, 0.9)] }]
    expect(withoutEchoes(twice).map((l) => l.words[0]?.confidence)).toEqual([0.9])
    // Read alike: the first stays.
    const alike = [{ words: [word("A", 40, 50)] }, { words: [word("A", 41, 51)] }]
    expect(withoutEchoes(alike)).toEqual([alike[0]])
  })
})

describe("wordsOnPage", () => {
  it("gives a word its least sure character's probability, and of its letters whatever their marks", () => {
    const crop = { box: { cx: 100, cy: 50, width: 200, height: 20, angle: 0, score: 0.9 }, scale: 1 }
    const char = (text: string, prob: number, letter?: number) => ({ text, first: 0, last: 0, prob, letter })
    // `JALAN`: an `A` read at 0.33 for `Á`, its letter at 0.99; `MUBA`: the `B` in doubt against `D`, no mark.
    const [jalan, muba] = wordsOnPage(
      crop,
      [
        { text: "JALAN", chars: [char("J", 0.98), char("A", 0.33, 0.99), char("L", 0.97)], start: 0, end: 50 },
        { text: "MUBA", chars: [char("M", 0.99), char("U", 0.9, 0.97), char("B", 0.39)], start: 60, end: 100 }
      ],
      false
    )
    expect([jalan?.confidence, jalan?.letters]).toEqual([0.33, 0.97])
    expect([muba?.confidence, muba?.letters]).toEqual([0.39, 0.39])
  })
})
