/**
 * What the `local` rules do when the OCR misreads what a receipt or an invoice prints, one slip at a time. Each slip
 * (a decimal mark read as the other, a date's dot read as a comma or lost, a slash read as a one or a bar, the
 * total's label lost, glued to its amount or its amount misread by a digit, a time glued to a two-digit year, the
 * page askew…) is made in the OCR reads of the real sets (receipts-de, SROIE, invoices-ar's JPEG pages) and of the
 * generated worn scans, wherever it applies, and every simple field is judged as `local.run.ts` judges it: right,
 * wrong or empty. Precision comes before recall: a slip may empty a field; it should never make it wrong.
 *
 * Run: `npm run bench -w @legible/adapters-llm -- bench/slips.run.ts`; the options of `local.run.ts` apply
 * (`LEGIBLE_DATA`, `BENCH_HALF=first`, `BENCH_VERBOSE=1` to list the values a slip made wrong, `BENCH_CACHE=0`,
 * `BENCH_GENERATED…`, `BENCH_SEED`).
 */
import { it } from "@effect/vitest"
import type { Document } from "@legible/core"
import * as Local from "../src/Local.js"
import type { Entry } from "./datasets.js"
import { cachedReader, type ReadResult } from "./ocr.js"
import { type Half, halves, shownHalves, verboseHalves } from "./report.js"
import { decimalSeparatorOf } from "./scoring.js"
import { type BenchSet, documentOf, generatedSets, SETS } from "./sets.js"
import { judge } from "./truth.js"

const log = (line: string) => process.stdout.write(`${line}\n`)

type Word = Document.ReadWord
type Line = ReadonlyArray<Word>

/** A slip: how it changes the lines of a page (a line's words; the document's text is rebuilt after). */
interface Slip {
  readonly name: string
  readonly lines: (lines: ReadonlyArray<Line>) => ReadonlyArray<Line>
}

/**
 * A slip of single words: each word the pattern matches read as `read` gives it; never the last group of an
 * amount grouped by spaces (`1 919,36`), which no print splits.
 */
const inWords = (name: string, pattern: RegExp, read: (word: string) => string): Slip => ({
  name,
  lines: (lines) =>
    lines.map((line) =>
      line.map((w, i) =>
        pattern.test(w.word) && !/^\d{1,3}$/.test(line[i - 1]?.word ?? "") ? { ...w, word: read(w.word) } : w
      )
    )
})

// A total's row: its label first (`Summe`, `zu zahlen`, `TOTAL`, `Gesamt`, `Betrag`) and an amount with cents; not a
// tax's total (`Total IVA 10 %`, `Total GST (RM)`), which names its tax right after the label.
const TAX = "(?:iva|vat|gst|tva|mwst|ust|btw|tax|steuer)"
const TOTAL_ROW = /^(?:zu zahlen|summe|total|gesamt|betrag)\b.*\d[.,]\d{2}/i
const TAX_TOTAL = new RegExp(`^(?:total|summe|gesamt)\\s+${TAX}\\b`, "i")
// A tax's row: a tax word, its rate and an amount with cents (`IVA 21 % 52,97`, `GST 6% 6.37`).
const TAX_ROW = new RegExp(`\\b${TAX}\\b.*\\d\\s?%.*\\d[.,]\\d{2}`, "i")
const CENTS = /\d[.,]\d{2}\D{0,2}$/

const joined = (line: Line) => line.map((w) => w.word).join(" ")

/** A slip of the first row of the page that `row` matches: its words changed by `read`. */
const inRow =
  (row: (text: string) => boolean) =>
  (name: string, read: (line: Line) => Line): Slip => ({
    name,
    lines: (lines) => {
      const at = lines.findIndex((line) => row(joined(line)))
      return lines.map((line, i) => (i === at ? read(line) : line))
    }
  })

const totalRow = (text: string) => TOTAL_ROW.test(text) && !TAX_TOTAL.test(text)

/** A slip of the first total's row, word by word (an empty word is dropped). */
const inTotalRow = (name: string, read: (word: Word) => Word | undefined): Slip =>
  inRow(totalRow)(name, (line) => line.flatMap((w) => read(w) ?? []))

/** An amount with cents misread by a digit: its tens of cents read two more (`112.45` read `112.65`). */
const digitMisread = (w: Word): Word =>
  CENTS.test(w.word) ? { ...w, word: w.word.replace(/\d(?=\d\D{0,2}$)/, (d) => String((Number(d) + 2) % 10)) } : w

/** The first tax row's tax (its last amount) misread by a digit: the figure the total's arithmetic is checked with. */
const taxMisread = inRow((text) => TAX_ROW.test(text))("a tax's amount misread by a digit", (line) => {
  const k = line.findLastIndex((w) => CENTS.test(w.word))
  return line.map((w, j) => (j === k ? digitMisread(w) : w))
})

/** The first total's row with its label's last word and its amount read as one word (`TOTAL7.00`). */
const labelGlued = inRow(totalRow)("total's label glued to its amount", (line) => {
  const k = line.findIndex((w) => CENTS.test(w.word))
  const label = line[k - 1]
  const amount = line[k]
  if (label === undefined || amount === undefined || !/\p{L}$/u.test(label.word)) return line
  return [
    ...line.slice(0, k - 1),
    { ...label, word: `${label.word}${amount.word}`, x1: amount.x1 },
    ...line.slice(k + 1)
  ]
})

const DOTTED = /^\d{2}\.\d{2}\.\d{2,4}$/
const SLASHED = /^\d{2}\/\d{2}\/\d{4}$/
const AMOUNT = /^\d{1,4}[.,]\d{2}$/

/**
 * A page photographed askew: every word lower by `degrees` of slope across the page, as a row's words drift apart
 * in height when the reader does not straighten the page.
 */
const skewed = (degrees: number): Slip => {
  const slope = Math.tan((degrees * Math.PI) / 180)
  return {
    name: `page askew by ${degrees}°`,
    lines: (lines) => {
      const left = Math.min(...lines.flatMap((line) => line.map((w) => w.x0)))
      return lines.map((line) =>
        line.map((w) => {
          const drop = ((w.x0 + w.x1) / 2 - left) * slope
          return { ...w, y0: w.y0 + drop, y1: w.y1 + drop }
        })
      )
    }
  }
}

const SLIPS: ReadonlyArray<Slip> = [
  { name: "none", lines: (lines) => lines },
  inWords("decimal comma read as a dot", /^\d{1,4},\d{2}$/, (w) => w.replace(",", ".")),
  inWords("decimal dot read as a comma", /^\d{1,4}\.\d{2}$/, (w) => w.replace(".", ",")),
  inWords("a space before the cents", AMOUNT, (w) => w.replace(/([.,])/, "$1 ")),
  inWords("currency glued after the amount", AMOUNT, (w) => `${w}€`),
  inTotalRow("total's label lost", (w) => (CENTS.test(w.word) ? w : undefined)),
  inTotalRow("total's amount misread by a digit", digitMisread),
  taxMisread,
  // Its first figure lost (faint ink), where two are left before the mark: `112,45` read `12,45`.
  inTotalRow("total's amount with a figure lost", (w) =>
    CENTS.test(w.word) && /^\D*\d{3}/.test(w.word) ? { ...w, word: w.word.replace(/\d/, "") } : w
  ),
  inWords("date: a dot read as a comma", DOTTED, (w) => w.replace(".", ",")),
  inWords("date: the last dot lost", DOTTED, (w) => w.replace(/\.(?=\d{2,4}$)/, "")),
  inWords("date: an O for a zero", DOTTED, (w) => w.replace("0", "O")),
  inWords("date: a slash read as a one", SLASHED, (w) => w.replace(/\/(?=\d{4}$)/, "1")),
  inWords("date: a slash read as a bar", SLASHED, (w) => w.replace(/\/(?=\d{4}$)/, "|")),
  inWords("date: a slash read as a hyphen", SLASHED, (w) => w.replace("/", "-")),
  {
    name: "date: the time glued to a two-digit year",
    lines: (lines) =>
      lines.map((line) =>
        line.flatMap((w, i) => {
          const next = line[i + 1]
          const previous = line[i - 1]
          if (/^\d{2}\.\d{2}\.\d{2}$/.test(w.word) && next !== undefined && /^\d{1,2}:\d{2}/.test(next.word))
            return [{ ...w, word: `${w.word}${next.word}`, x1: next.x1 }]
          const joined = previous !== undefined && /^\d{2}\.\d{2}\.\d{2}$/.test(previous.word)
          return joined && /^\d{1,2}:\d{2}/.test(w.word) ? [] : [w]
        })
      )
  },
  inWords("legal form BHD read as BHO", /^BHD$/, () => "BHO"),
  labelGlued,
  skewed(2),
  skewed(10)
]

/** A document with a slip made on every page. */
const slipped = (document: Document.ReadDocument, slip: Slip): Document.ReadDocument => {
  const pages = document.pages.map((page) => ({
    ...page,
    lines: slip.lines(page.lines.map((l) => l.words)).map((words) => ({ words: [...words] }))
  }))
  const text = (page: Document.ReadPage) => page.lines.map((l) => l.words.map((w) => w.word).join(" ")).join("\n")
  return { ...document, pages, fullText: pages.map(text).join("\n\n") }
}

/** Counts of a slip's judged fields. */
interface Counts {
  right: number
  wrong: number
  empty: number
}

/** Each slip's counts on a set, per half: fields with a truth printed or filled (line items and addresses aside). */
const runSet = async (
  set: BenchSet,
  entries: ReadonlyArray<readonly [Entry, Half]>,
  read: (bytes: Uint8Array) => Promise<ReadResult>
): Promise<ReadonlyArray<string>> => {
  const fields = set.fields.filter(([key]) => key !== "items" && key !== "address")
  const counts = new Map(SLIPS.map((s) => [s.name, { first: zero(), second: zero() }] as const))
  const wrongs: Array<string> = []
  const wrongAsRead = new Set<string>()
  for (const [entry, half] of entries) {
    const document = await documentOf(entry, read)
    if (typeof document === "string") continue
    for (const slip of SLIPS) {
      const doc = slipped(document, slip)
      const values = Local.extractFields(
        set.fields.map(([, f]) => f),
        doc
      )
      const context = { text: doc.fullText, decimal: decimalSeparatorOf(doc.fullText) }
      const tally = counts.get(slip.name)?.[half]
      for (const [key, field] of fields) {
        const truth = entry.truth[key]
        if (truth === undefined || tally === undefined) continue
        const judged = judge(truth, values[field.name], context, entry.referenceText ?? document.fullText)
        if (judged.right > 0) tally.right += 1
        else if (judged.filled > 0) tally.wrong += 1
        else if (judged.present > 0) tally.empty += 1
        // The values a slip made wrong (not those wrong as read).
        const wrong = judged.right === 0 && judged.filled > 0
        if (slip.name === "none" && wrong) wrongAsRead.add(`${entry.id} ${key}`)
        else if (wrong && !wrongAsRead.has(`${entry.id} ${key}`) && verboseHalves().includes(half))
          wrongs.push(`  wrong [${half}] ${slip.name}: ${entry.id} ${key}: got ${JSON.stringify(judged.got)}`)
      }
    }
  }
  const shown = shownHalves()
  const cell = (c: Counts) =>
    `${String(c.right).padStart(4)} ${String(c.wrong).padStart(5)} ${String(c.empty).padStart(5)}`
  return [
    `\n${set.title}: ${fields.map(([key]) => key).join(", ")} (${entries.length} documents)`,
    `  ${"slip".padEnd(44)}${shown.map((h) => `${h.padEnd(6)} right wrong empty`).join("   ")}`,
    ...SLIPS.map((s) => {
      const c = counts.get(s.name)
      return `  ${s.name.padEnd(44)}${shown.map((h) => `       ${c === undefined ? "" : cell(c[h])}`).join("   ")}`
    }),
    ...wrongs
  ]
}

const zero = (): Counts => ({ right: 0, wrong: 0, empty: 0 })

const sorted = (entries: ReadonlyArray<Entry>) => [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))

it("local extractor under OCR slips", { timeout: 3_600_000 }, async () => {
  const reader = cachedReader()
  try {
    const real = ["receipts-de", "SROIE receipts, OCR", "invoices-ar, page 1"]
    for (const title of real) {
      const set = SETS.find((s) => s.title.startsWith(title))
      const entries = set?.entries()
      if (set === undefined || entries === undefined) log(`\n${title}: skipped, not found`)
      else for (const line of await runSet(set, halves(sorted(entries)), reader.read)) log(line)
    }
    const worn = generatedSets(true).find(([s]) => s.title.includes("worn"))
    if (worn !== undefined) {
      const [set, entries] = worn
      const placed = halves(entries).map(([e, place]) => [e, e.half ?? place] as const)
      for (const line of await runSet(set, placed, reader.read)) log(line)
    }
  } finally {
    await reader.close()
  }
})
