/**
 * The page geometry the local extractor reads: visual rows (words whose boxes share a band, whatever lines the
 * reader made) and, within a row, cells separated by wide gaps (columns, label/value pairs).
 */
import type { Document } from "@legible/core"
import { type Folded, fold, folded, phraseTokens } from "./text.js"
import {
  CHANGE_WORDS,
  NET_WORDS,
  ROUNDING_WORDS,
  SAVING_WORDS,
  TAX_WORDS,
  TENDER_WORDS,
  TOTAL_LABELS
} from "./vocabulary.js"

/** A word with its box (PDF points, top-left origin). */
export interface Word {
  readonly id: string
  readonly text: string
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
  readonly page: number
  /** The reader's confidence in the word (1 for text layers). */
  readonly confidence: number
  /** The reader's confidence in its letters, marks aside (core's `ReadWord.letters`; `confidence` where untold). */
  readonly letters: number
  /** The index of the reader's line the word is on, on its page. */
  readonly line?: number
}

/** A run of words in a row with no wide gap inside. */
export interface Cell {
  /** Index of its first and one past its last word in the row. */
  readonly from: number
  readonly to: number
  readonly x0: number
  readonly x1: number
  readonly text: string
}

/** A visual row of a page, left to right. */
export interface Row {
  readonly page: number
  /** Position in reading order over the whole document. */
  readonly order: number
  readonly y0: number
  readonly y1: number
  readonly words: ReadonlyArray<Word>
  /** The words joined by a space, two between cells. */
  readonly text: string
  /** `text` folded, with offsets back into it. */
  readonly folded: Folded
  /** Offset in `text` where each word starts. */
  readonly starts: ReadonlyArray<number>
  readonly cells: ReadonlyArray<Cell>
}

/** The document as rows, in reading order, and each page's height. */
export interface Layout {
  readonly rows: ReadonlyArray<Row>
  readonly pageHeight: ReadonlyMap<number, number>
  /** The pages read by OCR (the others are a text layer's: their figures are as printed, never misread). */
  readonly ocrPages: ReadonlySet<number>
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}

/**
 * The words in rows. A word joins the row whose band (its first word's box) holds its vertical center; bands do not
 * drift. A word no band holds joins the row of a word of its own reader's line whose box holds its center: the
 * reader put them on one line, and a band cut by a hair between them (`VAT` 0.05 pt under the band of `No.:
 * 237342-M` that a date in another column opened) would leave the label's first word a row of its own.
 */
const bands = (words: ReadonlyArray<Word>): Array<Array<Word>> => {
  const sorted = [...words].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1) || a.x0 - b.x0)
  type Band = { y0: number; y1: number; words: Array<Word> }
  const rows: Array<Band> = []
  // The words of each reader's line placed so far, with their rows.
  const placed = new Map<number, Array<readonly [Word, Band]>>()
  for (const word of sorted) {
    const center = (word.y0 + word.y1) / 2
    const line = word.line
    const mates = line === undefined ? undefined : placed.get(line)
    let row =
      rows.find((r) => center >= r.y0 && center <= r.y1 && word.y1 - word.y0 < 2.5 * (r.y1 - r.y0)) ??
      mates?.find(([w]) => center >= w.y0 && center <= w.y1)?.[1]
    if (row === undefined) {
      row = { y0: word.y0, y1: word.y1, words: [word] }
      rows.push(row)
    } else row.words.push(word)
    if (mates !== undefined) mates.push([word, row])
    else if (line !== undefined) placed.set(line, [[word, row]])
  }
  return rows.map((r) => r.words.sort((a, b) => a.x0 - b.x0))
}

/** The median height of some words' boxes: the measure of a row's gaps. */
export const wordHeight = (words: ReadonlyArray<Word>): number => median(words.map((w) => w.y1 - w.y0))

/** The indexes of the words of a row that open a new cell: a gap wider than 0.8 of the row's median word height. */
const cellGaps = (words: ReadonlyArray<Word>): ReadonlySet<number> => {
  const height = wordHeight(words)
  const out = new Set<number>()
  for (let i = 1; i < words.length; i++) {
    const previous = words[i - 1]
    const next = words[i]
    if (next !== undefined && previous !== undefined && next.x0 - previous.x1 > 0.8 * height) out.add(i)
  }
  return out
}

const cellsOf = (
  words: ReadonlyArray<Word>,
  gaps: ReadonlySet<number>,
  starts: ReadonlyArray<number>,
  text: string
): Array<Cell> => {
  const cells: Array<Cell> = []
  let from = 0
  for (let i = 1; i <= words.length; i++) {
    const previous = words[i - 1]
    if (i === words.length || gaps.has(i)) {
      const first = words[from]
      if (first !== undefined && previous !== undefined) {
        const end = (starts[i - 1] ?? 0) + previous.text.length
        cells.push({ from, to: i, x0: first.x0, x1: previous.x1, text: text.slice(starts[from] ?? 0, end) })
      }
      from = i
    }
  }
  return cells
}

/** Lines narrower than this (points) do not vote on a page's slope: two close words' centres are mostly noise. */
const SLOPE_MIN_SPAN = 60

/** Slopes under this (dy/dx, about 0.1°) are taken as none. */
const SLOPE_MIN = 0.002

/**
 * The slope (dy/dx) of a scanned page's text: the median, weighted by span, of the least-squares slopes of the word
 * centres of each line that spans `SLOPE_MIN_SPAN` or more (the reader joins a line's words in its own deskewed
 * frame, so its words follow the print's baseline). A page scanned a degree askew drifts 9 points across A4's text,
 * nearly a row: its rows are banded on the height less that drift (measured in `MEASUREMENTS.md`, "Worn scans").
 */
export const slopeOf = (page: Document.ReadPage): number => {
  if (page.source !== "ocr") return 0
  const votes: Array<{ slope: number; span: number }> = []
  for (const line of page.lines) {
    const points = line.words.map((w) => [(w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2] as const)
    if (points.length < 2) continue
    const xs = points.map(([x]) => x)
    const span = Math.max(...xs) - Math.min(...xs)
    if (span < SLOPE_MIN_SPAN) continue
    const mx = xs.reduce((a, x) => a + x, 0) / points.length
    const my = points.reduce((a, [, y]) => a + y, 0) / points.length
    const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0)
    const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0)
    votes.push({ slope: sxy / sxx, span })
  }
  if (votes.length === 0) return 0
  votes.sort((a, b) => a.slope - b.slope)
  const half = votes.reduce((a, v) => a + v.span, 0) / 2
  let seen = 0
  let median = 0
  for (const vote of votes) {
    seen += vote.span
    median = vote.slope
    if (seen >= half) break
  }
  return Math.abs(median) < SLOPE_MIN ? 0 : median
}

// The words that end an amount's label (`Total`, `Summe`, `GST`, `Cash`, `Change`), of three letters or more.
const MONEY_WORDS: ReadonlySet<string> = new Set(
  [
    ...TOTAL_LABELS.flatMap(([, phrases]) => phrases.flatMap((p) => phraseTokens(p).slice(-1))),
    ...[TAX_WORDS, NET_WORDS, SAVING_WORDS, TENDER_WORDS, CHANGE_WORDS, ROUNDING_WORDS].flat()
  ].filter((w) => /^\p{L}{3,}$/u.test(w))
)
const GLUED = /^(\p{L}{3,}:?)(-?\d{1,3}(?:[.,]?\d{3})*[.,]\d{2})$/u

/**
 * A word OCR read from a label and its amount that lost the space between them (`TOTAL7.00`, `Summe12,45`; after a
 * colon, `Total:1,200.00`, as some text layers print it too), as the two words printed, each with its share of the
 * box; other letters glued to figures stay one word (a code, `SHO1`; a currency, `RM7.00`).
 */
const parted = (word: Word): ReadonlyArray<Word> => {
  const m = GLUED.exec(word.text)
  const [, label, amount] = m ?? []
  if (label === undefined || amount === undefined || !MONEY_WORDS.has(folded(label.replace(/:$/, "")))) return [word]
  const cut = word.x0 + ((word.x1 - word.x0) * label.length) / word.text.length
  return [
    { ...word, text: label, x1: cut },
    { ...word, text: amount, x0: cut }
  ]
}

/**
 * Builds the rows of a read document. The words a reader read from the pictures of a page read from its text layer
 * (`ReadWord.pictured`: a logo's, a stamp's) are left out unless `pictures`: a logo's brand over the letterhead
 * (`PADARIA` over `Padaria Atlântico Unipessoal Lda.`) is no line of it, and the rules were written for what pages
 * print as text.
 */
export const layout = (document: Document.ReadDocument, options: { readonly pictures?: boolean } = {}): Layout => {
  const rows: Array<Row> = []
  const pageHeight = new Map<number, number>()
  const ocrPages = new Set<number>()
  for (const page of document.pages) {
    pageHeight.set(page.page, page.height)
    if (page.source === "ocr") ocrPages.add(page.page)
    const slope = slopeOf(page)
    const middle = page.width / 2
    const kept = (w: Document.ReadWord) => options.pictures === true || w.pictured !== true
    const words = page.lines.flatMap((line, index) =>
      line.words
        .filter((w) => w.word.trim() !== "" && kept(w))
        .flatMap((w): ReadonlyArray<Word> => {
          // Rows are banded in the page's deskewed frame: each word moved up or down by its line's drift.
          const drift = slope * ((w.x0 + w.x1) / 2 - middle)
          return parted({
            id: w.id,
            text: w.word.trim(),
            x0: w.x0,
            y0: w.y0 - drift,
            x1: w.x1,
            y1: w.y1 - drift,
            page: page.page,
            confidence: w.confidence,
            letters: w.letters ?? w.confidence,
            line: index
          })
        })
    )
    for (const band of bands(words)) {
      const starts: Array<number> = []
      const gaps = cellGaps(band)
      let text = ""
      band.forEach((word, i) => {
        // Two spaces between cells, one inside a cell: `23  533,08` is a quantity and a price, not 23 533,08.
        if (text !== "") text += gaps.has(i) ? "  " : " "
        starts.push(text.length)
        text += word.text
      })
      rows.push({
        page: page.page,
        order: rows.length,
        y0: Math.min(...band.map((w) => w.y0)),
        y1: Math.max(...band.map((w) => w.y1)),
        words: band,
        text,
        folded: fold(text),
        starts,
        cells: cellsOf(band, gaps, starts, text)
      })
    }
  }
  return { rows, pageHeight, ocrPages }
}

/** The word of a row that holds the character at `offset` of its text (the row's first word before any). */
export const wordAt = (row: Row, offset: number): Word | undefined =>
  row.words[
    Math.max(
      0,
      row.starts.findLastIndex((start) => start <= offset)
    )
  ]

/** Where a stretch of a row's text is printed, from its first word's left edge to its last word's right. */
export const spanOf = (row: Row, start: number, end: number): readonly [number, number] => [
  wordAt(row, start)?.x0 ?? 0,
  wordAt(row, end - 1)?.x1 ?? 0
]

/** The cell of a row that holds the character at `offset` of its text. */
export const cellAt = (row: Row, offset: number): Cell | undefined =>
  row.cells.find((c) => offset >= (row.starts[c.from] ?? 0) && offset < (row.starts[c.from] ?? 0) + c.text.length)

/** The offset in a row's text where a cell starts. */
export const cellStart = (row: Row, cell: Cell): number => row.starts[cell.from] ?? 0

/** The rest of the cell holding a span of a row's text, after the span (empty where no cell holds it). */
export const restOfCell = (row: Row, span: { readonly start: number; readonly end: number }): string => {
  const cell = cellAt(row, span.start)
  return cell === undefined ? "" : row.text.slice(span.end, cellStart(row, cell) + cell.text.length)
}

/** Horizontal overlap of two ranges, as a share of the shorter one. */
export const overlap = (a: { x0: number; x1: number }, b: { x0: number; x1: number }): number => {
  const shared = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)
  const shorter = Math.min(a.x1 - a.x0, b.x1 - b.x0)
  return shorter <= 0 ? 0 : Math.max(0, shared) / shorter
}

/** Line heights between two cells of a row beyond which they are columns, not a label and its value or one name. */
const COLUMN_GAP = 8

/** Whether two cells of a row, `left` before `right`, are set a column apart. */
export const columnsApart = (row: Row, left: { x1: number }, right: { x0: number }): boolean =>
  right.x0 - left.x1 > COLUMN_GAP * (row.y1 - row.y0)

/** The cell under the cell holding `offset` of a row, on one of the next two rows of its page, if any. */
export const cellBelow = (layout: Layout, row: Row, offset: number): Cell | undefined => {
  const cell = cellAt(row, offset)
  if (cell === undefined) return undefined
  const height = row.y1 - row.y0
  for (const next of layout.rows.slice(row.order + 1, row.order + 3)) {
    if (next.page !== row.page || next.y0 - row.y1 > 2 * height) break
    const under = next.cells.find((c) => overlap(c, cell) > 0.3)
    if (under !== undefined) return under
  }
  return undefined
}
