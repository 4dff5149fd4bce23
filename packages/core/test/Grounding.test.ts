import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"
import type { Document } from "@legible/core"
import { Schema } from "effect"
import * as Grounding from "../src/internal/grounding.js"
import { seeded } from "./support.js"

/** A line of a synthetic page: its top, where it starts, and its words left to right. */
interface LineSpec {
  readonly y: number
  readonly x?: number
  readonly words: ReadonlyArray<string>
}

/** Pages of words laid out left to right (6 pt per character, 4 pt gaps, 10 pt high); ids `p<page>w<n>`. */
const doc = (...pages: ReadonlyArray<ReadonlyArray<LineSpec>>): Pick<Document.ReadDocument, "pages"> => ({
  pages: pages.map((lines, p) => {
    let n = 0
    return {
      page: p + 1,
      width: 595,
      height: 842,
      source: "text" as const,
      markdown: "",
      lines: lines.map((line) => {
        let x = line.x ?? 40
        return {
          words: line.words.map((word) => {
            const w: Document.ReadWord = {
              id: `p${p + 1}w${++n}`,
              word,
              x0: x,
              y0: line.y,
              x1: x + 6 * word.length,
              y1: line.y + 10,
              page: p + 1,
              confidence: 1
            }
            x = w.x1 + 4
            return w
          })
        }
      })
    }
  })
})

const textOf = (d: Pick<Document.ReadDocument, "pages">, ids: ReadonlyArray<string>): string => {
  const all = d.pages.flatMap((p) => p.lines.flatMap((l) => l.words))
  return ids.map((id) => all.find((w) => w.id === id)?.word ?? "?").join(" ")
}

const invoice = doc([
  { y: 40, words: ["FACTURA", "Nº", "F-2026/0042"] },
  { y: 60, words: ["Fecha:", "12/03/2026"] },
  { y: 80, words: ["Suministros", "Acme", "S.L."] },
  { y: 100, words: ["Calle", "Mayor", "12,"] },
  { y: 112, words: ["28013", "Madrid"] },
  { y: 140, words: ["Subtotal", "1.234,56", "€"] },
  { y: 160, words: ["IVA", "21%", "259,26", "€"] },
  { y: 180, words: ["Total", "1.234,", "56", "€"] },
  { y: 200, words: ["Pedido", "2024", "-", "0042"] }
])

const ground = (d: Pick<Document.ReadDocument, "pages">, literal: string, hint?: Grounding.Hint) =>
  textOf(d, Grounding.ground(Grounding.index(d), literal, hint))

describe("Grounding", () => {
  it("finds single and multi-word values whatever their case, accents and punctuation", () => {
    assert.strictEqual(ground(invoice, "F-2026/0042"), "F-2026/0042")
    assert.strictEqual(ground(invoice, "SUMINISTROS ACMÉ S.L."), "Suministros Acme S.L.")
    assert.strictEqual(ground(invoice, "suministros acme sl"), "Suministros Acme S.L.")
    assert.strictEqual(ground(invoice, "12/03/2026"), "12/03/2026")
  })

  it("spans line breaks for multi-line values such as addresses", () => {
    assert.strictEqual(ground(invoice, "Calle Mayor 12, 28013 Madrid"), "Calle Mayor 12, 28013 Madrid")
    assert.strictEqual(ground(invoice, "Calle Mayor 12\n28013 Madrid"), "Calle Mayor 12, 28013 Madrid")
  })

  it("matches values split or merged differently from the OCR words, with neighbouring symbols", () => {
    assert.strictEqual(ground(invoice, "2024-0042"), "2024 - 0042")
    const merged = doc([{ y: 40, words: ["Total:1.234,56€"] }])
    assert.strictEqual(ground(merged, "1.234,56"), "Total:1.234,56€")
    // The split `1.234,` `56` is one occurrence; the value printed whole is another, nearer "Total".
    assert.strictEqual(ground(invoice, "1.234,56 €", { labels: ["total"] }), "1.234, 56 €")
    assert.strictEqual(ground(invoice, "1.234,56 €", { labels: ["subtotal"] }), "1.234,56 €")
  })

  it("tolerates OCR errors in words, and folds O/0 and l/1", () => {
    const scanned = doc([
      { y: 40, words: ["Sum1nistr0s", "Acrne", "S.L."] },
      { y: 60, words: ["F-2O26/OO42"] },
      { y: 80, words: ["Avda.", "de", "la", "Constitucion,", "l5"] }
    ])
    assert.strictEqual(ground(scanned, "Suministros Acme S.L."), "Sum1nistr0s Acrne S.L.")
    assert.strictEqual(ground(scanned, "F-2026/0042"), "F-2O26/OO42")
    // Three edits in 25 characters: the abbreviation is still this address.
    assert.strictEqual(ground(scanned, "Avenida de la Constitución, 15"), "Avda. de la Constitucion, l5")
    assert.strictEqual(ground(scanned, "Avda. de la Constitución, 15"), "Avda. de la Constitucion, l5")
  })

  it("does not ground what is not on the page, nor a numeral one digit away", () => {
    assert.deepStrictEqual(Grounding.ground(Grounding.index(invoice), "Initech Oficinas"), [])
    assert.deepStrictEqual(Grounding.ground(Grounding.index(invoice), "1.284,56"), [])
    assert.deepStrictEqual(Grounding.ground(Grounding.index(invoice), "2025"), [])
    assert.deepStrictEqual(Grounding.ground(Grounding.index(invoice), ""), [])
    assert.deepStrictEqual(Grounding.ground(Grounding.index(invoice), "  -- "), [])
    // A short value inside a longer word is not that word.
    assert.deepStrictEqual(Grounding.ground(Grounding.index(invoice), "0042"), ["p1w28"])
  })

  it("takes the occurrence nearest the field's label: same line to the right, then below", () => {
    const page = doc([
      { y: 40, words: ["Vencimiento", "15/04/2026"] },
      { y: 60, words: ["Fecha", "de", "emisión"] },
      { y: 72, words: ["15/04/2026"] },
      { y: 100, words: ["Pagar", "antes", "de", "15/04/2026"] }
    ])
    const idx = Grounding.index(page)
    assert.deepStrictEqual(Grounding.ground(idx, "15/04/2026"), ["p1w2"], "first in reading order without labels")
    assert.deepStrictEqual(Grounding.ground(idx, "15/04/2026", { labels: ["fecha_emision"] }), ["p1w6"])
    assert.deepStrictEqual(Grounding.ground(idx, "15/04/2026", { labels: ["vencimiento"] }), ["p1w2"])
    assert.deepStrictEqual(Grounding.ground(idx, "15/04/2026", { labels: ["pagar antes de"] }), ["p1w10"])
    assert.deepStrictEqual(Grounding.ground(idx, "15/04/2026", { labels: ["no such label"] }), ["p1w2"])
  })

  it("prefers the same row as an anchor value and skips words already used", () => {
    const table = doc([
      { y: 40, words: ["Papel", "A4", "1", "4,50"] },
      { y: 60, words: ["Tóner", "negro", "1", "45,00"] },
      { y: 80, words: ["Grapas", "1", "1,20"] }
    ])
    const idx = Grounding.index(table)
    assert.deepStrictEqual(Grounding.ground(idx, "1", { near: ["p1w5", "p1w6"] }), ["p1w7"])
    assert.deepStrictEqual(Grounding.ground(idx, "1", { near: ["p1w9"] }), ["p1w10"])
    assert.deepStrictEqual(Grounding.ground(idx, "1", { exclude: new Set(["p1w3"]) }), ["p1w7"])
  })

  it("never joins words across pages", () => {
    const twoPages = doc([{ y: 800, words: ["Suministros"] }], [{ y: 40, words: ["Acme"] }])
    assert.deepStrictEqual(Grounding.ground(Grounding.index(twoPages), "Suministros Acme"), [])
    assert.deepStrictEqual(Grounding.ground(Grounding.index(twoPages), "Acme"), ["p2w1"])
    // A match that would end on the page break itself (one insertion) is no run of words.
    const broken = doc([{ y: 800, words: ["Suministros", "Acme"] }], [{ y: 40, words: ["Madrid"] }])
    assert.deepStrictEqual(Grounding.ground(Grounding.index(broken), "Suministros Acme X"), ["p1w1", "p1w2"])
  })
})

const Vocabulary = Schema.String.check(Schema.isPattern(/^[a-z0-9]{3,8}$/))
const Page = Schema.Array(Vocabulary).check(Schema.isMinLength(6), Schema.isMaxLength(60))

describe("Grounding properties", () => {
  it.prop(
    "a run of the page's words, re-spaced and re-cased, is grounded with a near-perfect score to contiguous words",
    [
      Page,
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000 })),
      Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 4 }))
    ],
    ([words, at, length]) => {
      const lines = Array.from({ length: Math.ceil(words.length / 5) }, (_, i) => ({
        y: 40 + 20 * i,
        words: words.slice(5 * i, 5 * i + 5)
      }))
      const d = doc(lines)
      const start = at % words.length
      const literal = words
        .slice(start, start + length)
        .join("  ")
        .toUpperCase()
      const idx = Grounding.index(d)
      const found = Grounding.match(idx, literal)
      assert.isDefined(found)
      assert.isAtLeast(found?.score ?? 0, 1 - Grounding.defaultOptions.tie)
      const positions = (found?.wordIds ?? []).map((id) => Number(id.slice(3)))
      for (let i = 1; i < positions.length; i++) assert.strictEqual(positions[i], (positions[i - 1] ?? 0) + 1)
    },
    seeded(5101, 200)
  )

  it.prop(
    "a run of at least 10 characters with one character misread, dropped or added is still grounded",
    [
      Page,
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000 })),
      Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000 }))
    ],
    ([words, at, typo]) => {
      const d = doc([{ y: 40, words }])
      const start = at % words.length
      let end = start
      while (end < words.length && words.slice(start, end).join("").length < 10) end++
      const run = words.slice(start, end).join(" ")
      if (run.replace(/ /g, "").length < 10) return
      const letters = [...run].map((c, i) => [c, i] as const).filter(([c]) => c !== " ")
      const [c, i] = letters[typo % letters.length] ?? ["x", 0]
      const other = c === "x" ? "y" : "x"
      const literal = [
        `${run.slice(0, i)}${other}${run.slice(i + 1)}`,
        `${run.slice(0, i)}${run.slice(i + 1)}`,
        `${run.slice(0, i)}${other}${run.slice(i)}`
      ][typo % 3]
      if (literal === undefined) return
      const found = Grounding.match(Grounding.index(d), literal)
      assert.isDefined(found, literal)
      assert.isAtLeast(found?.score ?? 0, Grounding.defaultOptions.threshold)
    },
    seeded(5103, 300)
  )

  it.prop(
    "never throws, and returns only ids of the document's words",
    [Schema.Array(Schema.String).check(Schema.isMaxLength(30)), Schema.String, Schema.Array(Schema.String)],
    ([words, literal, labels]) => {
      const d = doc([{ y: 40, words }])
      const ids = new Set(d.pages.flatMap((p) => p.lines.flatMap((l) => l.words.map((w) => w.id))))
      for (const id of Grounding.ground(Grounding.index(d), literal, { labels })) assert.isTrue(ids.has(id))
    },
    seeded(5102, 300)
  )
})

const SROIE = fileURLToPath(new URL("../../../../shared/data/sroie/", import.meta.url))
const hasSroie = fs.existsSync(path.join(SROIE, "key"))

/** A SROIE receipt's text lines (corners in pixels, then the transcript) as one page of words; ids `w1`, `w2`… */
const sroiePage = (id: string): Pick<Document.ReadDocument, "pages"> => {
  let n = 0
  const lines = fs
    .readFileSync(path.join(SROIE, "box", `${id}.txt`), "utf8")
    .split(/\r?\n/)
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const parts = line.split(",")
      const [ax = 0, ay = 0, bx = 0, by = 0, cx = 0, cy = 0, dx = 0, dy = 0] = parts.slice(0, 8).map(Number)
      const text = parts.slice(8).join(",")
      const x0 = Math.min(ax, dx)
      const perChar = (Math.max(bx, cx) - x0) / Math.max(text.length, 1)
      const [y0, y1] = [Math.min(ay, by), Math.max(cy, dy)]
      // Words get the share of the line box their characters take.
      const words: Array<Document.ReadWord> = []
      let at = 0
      for (const word of text.split(" ")) {
        if (word.length > 0) {
          const wx0 = x0 + at * perChar
          words.push({ id: `w${++n}`, word, x0: wx0, y0, x1: wx0 + word.length * perChar, y1, page: 1, confidence: 1 })
        }
        at += word.length + 1
      }
      return { words }
    })
  return { pages: [{ page: 1, width: 0, height: 0, source: "ocr", markdown: "", lines }] }
}

describe.skipIf(!hasSroie)("Grounding on real receipts (../shared/data/sroie, skipped when absent)", () => {
  it("grounds company, date, address and total of every receipt; the total beside a TOTAL label", () => {
    const receipts = fs.readdirSync(path.join(SROIE, "key")).map((f) => f.replace(/\.json$/, ""))
    let beside = 0
    for (const id of receipts) {
      const truth = JSON.parse(fs.readFileSync(path.join(SROIE, "key", `${id}.json`), "utf8")) as Record<string, string>
      const d = sroiePage(id)
      const all = d.pages.flatMap((p) => p.lines.flatMap((l) => l.words))
      const idx = Grounding.index(d)
      for (const field of ["company", "date", "address", "total"]) {
        const literal = truth[field] ?? ""
        const found = Grounding.match(idx, literal, { labels: [field] })
        assert.isDefined(found, `${id} ${field}`)
        const text = (found?.wordIds ?? []).map((wid) => all.find((w) => w.id === wid)?.word ?? "").join(" ")
        if (field === "date" || field === "total") assert.strictEqual(Grounding.key(text), Grounding.key(literal), id)
      }
      const total = Grounding.match(idx, truth.total ?? "", { labels: ["total"] })
      const first = all.find((w) => w.id === total?.wordIds[0])
      const row = all.filter((w) => first !== undefined && Math.min(w.y1, first.y1) - Math.max(w.y0, first.y0) > 0)
      if (row.some((w) => /TOTAL/.test(w.word))) beside++
    }
    assert.strictEqual(receipts.length, 30)
    // Two transcripts have no amount on a TOTAL row: one prints it beside BALANCE DUE, one's NET TOTAL row is empty.
    assert.isAtLeast(beside, 28)
  })
})
