/**
 * The total: the amount labelled as the one due. Every amount with a label on its left (or a label right above
 * it) is ranked by that label — "amount due" phrases (TOTAL A PAGAR, Grand Total, zu zahlen, Net à payer, Te
 * betalen…) above plain totals (Total, Summe, Totaal…) above subtotals — and dropped when the label says it is a
 * saving, a tax, an amount tendered, change or a count (TOTAL VENTAJAS, Total IVA, Cash, Rückgeld, Total Qty).
 * On the first page that shows one, the largest amount of the best rank wins, except that a rounded amount a few
 * cents from it is what is actually paid (TOTAL 112.46 … ROUNDED TOTAL 112.45). A subtotal is never the total:
 * with no amount-due or total label the field stays empty. The choice is then cross-checked by the document's own
 * arithmetic (`arithmetic.ts`): confirmed, it is surer; contradicted, the amount the figures agree on wins (OCR
 * misread a digit) or a weak label abstains.
 */

import type { Skill } from "@legible/core"
import {
  centsOf,
  decimalMark,
  type Figure,
  misreadAmounts,
  oneDigitApart,
  oneDigitLost,
  paymentSlip,
  type Role,
  rateMakes,
  roleOf,
  type Source,
  taxesAt,
  totalsMade
} from "./arithmetic.js"
import { type Evidence, type Found, found, weaker } from "./evidence.js"
import { findLabels, type Label, type Target } from "./labels.js"
import { type Cell, cellAt, cellBelow, cellStart, type Layout, type Row, spanOf } from "./layout.js"
import { type Amount, amounts, amountValue, dates } from "./patterns.js"
import {
  doubted,
  findPhrases,
  lettersJoined,
  type RowToken,
  rowTokens,
  splitsJoined,
  TOTAL_PHRASES
} from "./phrases.js"
import { listValue } from "./tables.js"
import { folded, phraseTokens, tokens, wordMatcher } from "./text.js"
import {
  COUNT_WORDS,
  CURRENCY_CODES,
  EXCLUDING_WORDS,
  INCLUDED_AFTER_WORDS,
  INCLUDING_WORDS,
  ITEM_COLUMNS,
  NOT_TOTAL_WORDS,
  TAX_WORDS,
  type TotalRank
} from "./vocabulary.js"

/** A rank of label: the skill's own aliases first, then the vocabulary's. */
type Rank = "alias" | TotalRank

/** The ranks that may give the total, best first: a subtotal only tells a rounded total from an exact one. */
const RANKS: ReadonlyArray<Rank> = ["alias", "due", "total"]

const TAX = new Set(TAX_WORDS)
const NOT_TOTAL = new Set(NOT_TOTAL_WORDS)
// `Efectlvo`, `Ruckqeld`: a saving, tender or change word OCR misread still says the amount is not the total — where
// the reader doubted the word (a text layer's `Montant` is not the Dutch `contant` misread).
const nearNotTotal = wordMatcher(NOT_TOTAL_WORDS)

/**
 * Whether a token could be a word OCR misread: one the reader doubted, and no word of the total labels (`montant`
 * is read as itself, not as `contant`).
 */
const misreadable = (row: Row, t: RowToken): boolean => !TOTAL_PHRASES.words.has(t.text) && doubted(row, t)

/** Whether a row's token is a not-total word, as printed or (in a word the reader doubted) misread. */
const notTotalIn =
  (row: Row) =>
  (t: RowToken): boolean =>
    NOT_TOTAL.has(t.text) || (misreadable(row, t) && nearNotTotal(t.text))
const COUNT = new Set(COUNT_WORDS)
const INCLUDING = new Set(INCLUDING_WORDS)
const INCLUDED_AFTER = new Set(INCLUDED_AFTER_WORDS)
const EXCLUDING = new Set(EXCLUDING_WORDS)

/** Tokens a label may have before it in its segment (`14 ART. TOTAL A PAGAR`) and between it and its amount. */
const MAX_BEFORE = 3
const MAX_BETWEEN = 4

interface Candidate {
  readonly rank: Rank
  readonly evidence: Evidence
  readonly amount: Amount
  readonly row: Row
  readonly order: number
}

/** An amount of a row, read as printed or read back from an OCR misread (`14-10`). */
interface RowAmount extends Amount {
  readonly misread: boolean
}

/** A row's amounts, with those OCR misread in their punctuation when the document's decimal mark is known. */
type AmountsOf = (row: Row) => ReadonlyArray<RowAmount>

/** Where a match stands in its row's text. */
interface Span {
  readonly start: number
  readonly end: number
}

/** Every row's amounts, read once: as printed, and misread ones where the document's decimal mark is known. */
const amountsOfRows = (layout: Layout): AmountsOf => {
  const printed = layout.rows.map((row) => amounts(row.text))
  const mark = decimalMark(printed.flat())
  const all = layout.rows.map((row, i): ReadonlyArray<RowAmount> => {
    if (mark === undefined) return (printed[i] ?? []).map((a) => ({ ...a, misread: false }))
    // Where every amount has two decimals, one with a single decimal lost a digit to the reader (`112.4&`).
    const read = (printed[i] ?? []).filter((a) => !/[.,]\d$/.test(a.text)).map((a) => ({ ...a, misread: false }))
    // A misread amount stands where no amount was read, or over a figure read as part of it (`5` of `5O.OO`).
    const overlaps = (m: Span, a: Span) => m.start < a.end && m.end > a.start
    const inside = (m: Amount, a: Amount) => a.start >= m.start && a.end <= m.end && !a.decimals
    const candidates = misreadAmounts(row.text, mark).filter((m) => read.every((a) => !overlaps(m, a) || inside(m, a)))
    if (candidates.length === 0) return read
    // A date's figures are no misread amount (`À payer avant le: 12 - 08 - 2024` is no 12,08 to pay).
    const inDates = dates(row.text)
    const misread = candidates.filter((m) => !inDates.some((d) => overlaps(m, d))).map((a) => ({ ...a, misread: true }))
    if (misread.length === 0) return read
    const kept = read.filter((a) => !misread.some((m) => overlaps(m, a)))
    return [...kept, ...misread].sort((a, b) => a.start - b.start)
  })
  return (row) => all[row.order] ?? []
}

/** A label's rank and how it was matched: word for word, and as the whole label (nothing before or after it). */
interface Ranked {
  readonly rank: TotalRank
  readonly exact: boolean
  readonly whole: boolean
}

/**
 * The evidence a total's label gives: an amount-due phrase or an alias word for word is the strongest, a plain
 * total label (`Total`) only when it is the whole label.
 */
const evidenceOf = (rank: Rank, exact: boolean, whole: boolean): Evidence => {
  if (rank === "total" || rank === "subtotal") return exact && whole ? "exactLabel" : exact ? "label" : "weakLabel"
  return exact ? "exactLabel" : "label"
}

/**
 * The rank a segment of label tokens gives the amount after it, or undefined when it is not a total: savings,
 * tenders, change and counts drop it; a tax word drops it unless the total includes the tax, and makes it a
 * subtotal when the total excludes it. `cellOf` tells which cell a token is in: the label may follow a few
 * tokens of its own cell only.
 */
const rankOf = (
  words: ReadonlyArray<RowToken>,
  cellOf: (t: RowToken) => unknown,
  notTotal: (t: RowToken) => boolean
): Ranked | undefined => {
  const segment = splitsJoined(lettersJoined(words), TOTAL_PHRASES)
  const hit = findPhrases(segment, TOTAL_PHRASES).at(-1)
  const head = segment[hit?.from ?? 0]
  if (hit === undefined || head === undefined || segment.length - hit.to > MAX_BETWEEN) return undefined
  const before = segment.slice(0, hit.from).filter((t) => cellOf(t) === cellOf(head))
  if (before.length > MAX_BEFORE) return undefined
  const label = segment.slice(hit.from - before.length)
  let rank: TotalRank = hit.tag
  for (let i = 0; i < label.length; i++) {
    const token = label[i]
    const word = token?.text ?? ""
    if (token !== undefined && notTotal(token)) return undefined
    if (!TAX.has(word)) continue
    const previous = label.slice(Math.max(0, i - 2), i).map((t) => t.text)
    if (previous.some((w) => EXCLUDING.has(w))) rank = "subtotal"
    else if (!previous.some((w) => INCLUDING.has(w)) && !INCLUDED_AFTER.has(label[i + 1]?.text ?? "")) return undefined
  }
  return { rank, exact: hit.exact, whole: before.length === 0 && hit.to === segment.length }
}

/**
 * Amounts of a row with the rank of the label on their left (the tokens since the previous amount), and, for a
 * label cell with no amount beside it (a header row of totals), the amount printed right under it.
 */
const rowCandidates = (layout: Layout, row: Row, amountsOf: AmountsOf): Array<Candidate> => {
  const list = rowTokens(row)
  const cellOf = (t: RowToken) => cellAt(row, t.start)
  const found = amountsOf(row)
  const notTotal = notTotalIn(row)
  const out: Array<Candidate> = []
  let from = 0
  let carried: Ranked | undefined
  // A date between a label and its amount is none of the label's words (`Total amount due on June 2, 2023  $40.20`).
  const inDates = found.length === 0 ? [] : dates(row.text)
  const dated = (t: RowToken) => inDates.some((d) => t.start >= d.start && t.end <= d.end)
  for (const [i, labelled] of found.entries()) {
    const segment = list.filter((t) => t.start >= from && t.end <= labelled.start && !dated(t))
    from = labelled.end
    const own = rankOf(segment, cellOf, notTotal)
    const ranked = own ?? (segment.some((t) => notTotal(t) && !COUNT.has(t.text)) ? undefined : carried)
    // A count between a label and its amount (`SUMME [3] 12,34`, `Summe (2 Artikel) 12,34`) is no total: the label
    // is the amount's after it.
    carried = ranked !== undefined && !labelled.decimals && found[i + 1]?.decimals === true ? ranked : undefined
    if (carried !== undefined) continue
    // A label before a run of amounts with nothing between them heads a table's row: the amount under a column
    // headed as a total (`Tax Amount | Total Amount`); else, in a run of three or more, the last (`Summe  137,31
    // 26,09  163,40`: a tax table's net, tax, gross), not the first.
    const run = ranked === undefined ? [] : runFrom(list, found, i)
    const amount = headedTotal(layout, row, run) ?? (run.length >= 3 ? (run.at(-1) ?? labelled) : labelled)
    // Before two that are the page's net and its tax (`Total:  106.10  6.37` under `SR @ 6%`, or by `Sub Total
    // 106.10` and `Total GST 6.37`): a tax summary's row, with no total among them.
    if (ranked !== undefined && amount === labelled && netAndTax(layout, amountsOf, row, list, found, i)) continue
    // An amount read back from an OCR misread is one level less sure than one read as printed.
    if (ranked !== undefined)
      out.push({ ...candidateOf(ranked, amount.misread), amount, row, order: row.order * 10_000 + amount.start })
  }
  row.cells.forEach((cell, k) => {
    const start = cellStart(row, cell)
    const end = start + cell.text.length
    const next = row.cells[k + 1]
    const inside = (a: { start: number; end: number }, s: number, e: number) => a.start >= s && a.end <= e
    if (found.some((a) => inside(a, start, end))) return
    // A header is words alone: a label with its own figures (`Te betalen voor: 27 dec 2022`, a date to pay by)
    // heads nothing under it.
    if (/\d/.test(cell.text)) return
    if (
      next !== undefined &&
      found.some((a) => inside(a, cellStart(row, next), cellStart(row, next) + next.text.length))
    )
      return
    const ranked = itemsHeader(row)
      ? undefined
      : rankOf(
          list.filter((t) => inside(t, start, end)),
          cellOf,
          notTotal
        )
    const under = ranked === undefined ? undefined : cellBelow(layout, row, start)
    const amount = under === undefined ? undefined : amountIn(under.text)
    if (ranked !== undefined && amount !== undefined)
      out.push({ ...candidateOf(ranked, true), amount, row, order: row.order * 10_000 + end })
  })
  return out
}

// The first words of a line-item table's description column (`Bezeichnung`, `Description`, `Artículo`).
const DESCRIPTION_WORDS = new Set(
  ITEM_COLUMNS.filter(([column]) => column === "description").flatMap(([, phrases]) =>
    phrases.map((p) => p.split(" ")[0])
  )
)

/**
 * Whether a row is the header of the line items (`Bezeichnung | Anzahl | Einzelpreis | Summe`): a `Summe` or
 * `Total` there heads the lines' amounts, and the amount under it is the first line's, not a total.
 */
const itemsHeader = (row: Row): boolean =>
  row.cells.length >= 3 &&
  row.cells.some((cell) => DESCRIPTION_WORDS.has(tokens(folded(cell.text))[0]?.text ?? "")) &&
  amounts(row.text).length === 0

/**
 * Whether the amount `found[i]` and the one right after it, with no word between them and none after, are a net
 * amount and its tax: the page's subtotal and tax figures, or a net and its tax at a rate the page prints (rounded
 * either way).
 */
const netAndTax = (
  layout: Layout,
  amountsOf: AmountsOf,
  row: Row,
  list: ReadonlyArray<RowToken>,
  found: ReadonlyArray<RowAmount>,
  i: number
): boolean => {
  const [net, tax] = [found[i], found[i + 1]]
  if (net === undefined || tax === undefined || found.length !== i + 2 || !net.decimals || !tax.decimals) return false
  if (list.some((t) => t.start >= net.end && t.end <= tax.start)) return false
  const [base, taxed] = [cents(net.value), cents(tax.value)]
  if (taxed <= 0 || taxed >= base) return false
  const figures = figuresOf(layout, amountsOf).filter((f) => f.page === row.page)
  const printed = (role: Role, value: number) => figures.some((f) => f.role === role && f.cents === value)
  if (printed("subtotal", base) && printed("tax", taxed)) return true
  return layout.rows.some(
    (r) =>
      r.page === row.page &&
      [...r.text.matchAll(RATES)].some((m) => taxesAt(base, rateValue(m[1] ?? "")).includes(taxed))
  )
}

// Currency codes and names printed before amounts: no word between a label and its amount (`Sales Tax 21 %: RM
// 3,255.34`), nor between amounts of a row's columns (`Rs. 76.27  Rs. 500.00`).
const CURRENCIES = new Set([...CURRENCY_CODES, "rm", "zl", "kr", "rs", "kc", "fr", "sfr", "euro", "euros"])

/** The amounts from `found[i]` on with no word but a currency between them: a run of columns. */
const runFrom = (
  list: ReadonlyArray<RowToken>,
  found: ReadonlyArray<RowAmount>,
  i: number
): ReadonlyArray<RowAmount> => {
  let last = i
  while (last + 1 < found.length) {
    const [a, b] = [found[last], found[last + 1]]
    if (a === undefined || b === undefined) break
    if (list.some((t) => t.start >= a.end && t.end <= b.start && !CURRENCIES.has(t.text))) break
    last++
  }
  return found.slice(i, last + 1)
}

/** How many rows above an amount its column's header may stand (the line items between). */
const HEADER_REACH = 15

/** The words-only cell over an amount, past the figures of its column (the line items' values), if any. */
const headerOver = (layout: Layout, row: Row, amount: Span): Cell | undefined => {
  const [x0, x1] = spanOf(row, amount.start, amount.end)
  for (const above of layout.rows.slice(Math.max(0, row.order - HEADER_REACH), row.order).reverse()) {
    if (above.page !== row.page) break
    const shared = (c: Cell) => Math.min(c.x1, x1) - Math.max(c.x0, x0)
    const cell = above.cells.filter((c) => shared(c) > 0).sort((a, b) => shared(b) - shared(a))[0]
    if (cell !== undefined && !/\d/.test(cell.text)) return cell
  }
  return undefined
}

/**
 * Of a total's label before a run of amounts in columns (`TOTAL:  Rs.76.27  Rs.500.00`), the one amount whose
 * column's header names a total (`Tax Amount | Total Amount`), if one alone does.
 */
const headedTotal = (layout: Layout, row: Row, run: ReadonlyArray<RowAmount>): RowAmount | undefined => {
  if (run.length < 2) return undefined
  const totals = run.filter((a) => {
    const header = headerOver(layout, row, a)
    const rank =
      header === undefined
        ? undefined
        : rankOf(
            tokens(folded(header.text)),
            () => header,
            () => false
          )
    return rank?.rank === "due" || rank?.rank === "total"
  })
  return totals.length === 1 ? totals[0] : undefined
}

/** A candidate's rank and evidence; an amount under its label (not beside it) is one level less sure. */
const candidateOf = (ranked: Ranked, weakened = false): { readonly rank: Rank; readonly evidence: Evidence } => {
  const evidence = evidenceOf(ranked.rank, ranked.exact, ranked.whole)
  return { rank: ranked.rank, evidence: weakened ? weaker(evidence) : evidence }
}

const amountIn = (text: string): Amount | undefined => {
  const found = amounts(text)
  return found.filter((a) => a.decimals).at(-1) ?? found.at(-1)
}

/** The vocabulary's rank of a phrase that is one of its labels as a whole (`Total`, `Importe total`), if any. */
const knownRank = (phrase: ReadonlyArray<string>): TotalRank | undefined => {
  const list = phrase.map((text, i) => ({ text, start: i, end: i + 1 }))
  const hit = findPhrases(list, TOTAL_PHRASES)[0]
  return hit !== undefined && hit.from === 0 && hit.to === list.length ? hit.tag : undefined
}

/**
 * Amounts labelled by the skill's own aliases ("Importe a liquidar"), on their right or under them. An alias the
 * vocabulary knows (`Total`) takes the vocabulary's rank, so `TOTAL VENTAJAS` never outranks `TOTAL A PAGAR`; a
 * label cell that says saving, tender or change is never the total, whatever the alias.
 */
const aliasCandidates = (layout: Layout, target: Target): Array<Candidate> => {
  const labels: ReadonlyArray<Label> = target.aliases.map((a) => ({ tokens: phraseTokens(a), strength: 1 }))
  return findLabels(
    layout,
    labels.filter((l) => l.tokens.length > 0)
  ).flatMap((hit) => {
    const cell = cellAt(hit.row, hit.start)
    const right = amountIn(hit.row.text.slice(hit.end))
    // The label's words: its cell up to the amount (`TOTAL VENTAJAS EN ESTA COMPRA:`, `Total IVA`).
    const until = right === undefined ? Number.POSITIVE_INFINITY : hit.end + right.start
    const label = rowTokens(hit.row).filter((t) => cellAt(hit.row, t.start) === cell && t.end <= until)
    if (label.some(notTotalIn(hit.row))) return []
    const ranked: Ranked | undefined =
      knownRank(hit.label.tokens) === undefined
        ? { rank: "due", exact: hit.exact, whole: true }
        : rankOf(label, () => cell, notTotalIn(hit.row))
    const under = cellBelow(layout, hit.row, hit.start)
    const amount = right ?? (under === undefined ? undefined : amountIn(under.text))
    if (amount === undefined || ranked === undefined) return []
    const { evidence } = candidateOf(ranked, right === undefined)
    const rank: Rank = knownRank(hit.label.tokens) === undefined ? "alias" : ranked.rank
    return [{ rank, evidence, amount, row: hit.row, order: hit.row.order * 10_000 }]
  })
}

const cents = centsOf

// A rate printed beside its tax word: `IVA 21%`, `MwSt. 19 %`, `VAT @ 20%`.
const RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,2})?)\s?%/
const RATES = new RegExp(RATE.source, "g")

/** A printed rate's percent (`19,0` → 19). */
const rateValue = (printed: string): number => Number(printed.replace(",", "."))

/**
 * The figures of the totals block: each amount labelled as tendered, change, rounding, a discount, a tax or a
 * subtotal. An amount with no words before it on its row takes the role of the one before it (`IVA 21%  52,97
 * 11,65`: the last amount of a tax row is the tax).
 */
const figuresOf = (layout: Layout, amountsOf: AmountsOf): Array<Figure> => {
  const out: Array<Figure> = []
  // Where the document prints its amounts with decimals, a whole number is none of them: `Condición frente al IVA:
  // IVA Responsable Inscripto | Domicilio: Calle 1` holds no tax of 1.
  const withDecimals = layout.rows.some((row) => amountsOf(row).some((a) => a.decimals))
  for (const row of layout.rows) {
    const found = amountsOf(row).filter((a) => a.decimals || !withDecimals)
    if (found.length === 0) continue
    const list = rowTokens(row)
    const cellOf = (t: RowToken) => cellAt(row, t.start)
    let from = 0
    let previous: Figure | undefined
    for (const amount of found) {
      // A rate (`21 %`) is not a figure; a currency code or a rate's digits do not label one.
      if (/^\s?%/.test(row.text.slice(amount.end))) continue
      const segment = list.filter(
        (t) => t.start >= from && t.end <= amount.start && !CURRENCIES.has(t.text) && !/^\d+$/.test(t.text)
      )
      from = amount.end
      const ranked = segment.length === 0 ? undefined : rankOf(segment, cellOf, notTotalIn(row))
      const role =
        segment.length === 0
          ? previous?.role
          : ranked === undefined
            ? roleOf(segment, (t) => misreadable(row, t))
            : ranked.rank === "subtotal"
              ? "subtotal"
              : undefined
      // A total of savings (`TOTAL VENTAJAS`) sums the discounts printed above it: it is not one more.
      if (role === "discount" && findPhrases(segment, TOTAL_PHRASES).length > 0) {
        previous = undefined
        continue
      }
      if (role === undefined) {
        previous = undefined
        continue
      }
      const rate = role === "tax" ? RATE.exec(row.text)?.[1] : undefined
      const figure: Figure = {
        role,
        cents: cents(amount.value),
        page: row.page,
        text: amount.text,
        ...(rate === undefined ? {} : { rate: rateValue(rate) })
      }
      if (segment.length === 0 && previous !== undefined) out.splice(out.indexOf(previous), 1)
      out.push(figure)
      previous = figure
    }
  }
  return out
}

// The lines of a document as a list field of descriptions and amounts gives them (`tables.ts`).
const LINES: Skill.SkillField = {
  name: "lines",
  order: 0,
  type: "object",
  isList: true,
  description: "",
  aliases: [],
  fields: [
    { name: "description", order: 0, type: "string", isList: false, description: "", aliases: [] },
    { name: "amount", order: 1, type: "float", isList: false, description: "", aliases: [] }
  ]
}

/**
 * Whether the document's lines (two or more) add up to an amount, alone or with the taxes printed; the last "line"
 * may be that amount itself, its label lost (`134,39` alone under the lines that make it). They only confirm the
 * chosen total: a list read from a page's columns may hold counts or codes, so it never picks one (a first try that
 * let it cost nine totals of the first halves).
 */
const linesMake = (layout: Layout, figures: ReadonlyArray<Figure>, target: number): boolean => {
  const values = listValue(layout, LINES).items.map((item) =>
    typeof item === "string" || typeof item.amount !== "string" ? undefined : amountValue(item.amount)
  )
  if (values.length < 2 || values.some((v) => v === undefined)) return false
  const all = values.map((v) => cents(v ?? 0))
  const taxes = figures.filter((f) => f.role === "tax").reduce((total, f) => total + f.cents, 0)
  const make = (list: ReadonlyArray<number>) => {
    const sum = list.reduce((total, v) => total + v, 0)
    return list.length >= 2 && (sum === target || (taxes > 0 && sum + taxes === target))
  }
  return make(all) || (all.at(-1) === target && make(all.slice(0, -1)))
}

/** An amount in cents written as another literal of the document writes its amounts (mark, grouping). */
const writtenLike = (value: number, like: string): string => {
  const mark = /[.,](?=\d{2}$)/.exec(like)?.[0] ?? "."
  const grouping = /\d[.,' ]\d{3}[.,]\d{2}$/.test(like) ? (mark === "." ? "," : ".") : ""
  const integer = String(Math.floor(Math.abs(value) / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, grouping)
  return `${value < 0 ? "-" : ""}${integer}${mark}${String(Math.abs(value) % 100).padStart(2, "0")}`
}

/**
 * The amount of one figure of the totals block — the tax, the net amount before it, the money tendered, the change
 * (`IVA 21 % 21,00`, `Base imponible 100,00`, `EFECTIVO 5,00`, `CAMBIO 3,00`) — where the first page that prints one
 * prints a single value for it (several rates, or a sum and a base after a discount, leave it to be read by a
 * person: no value).
 */
export const figureAmount = (layout: Layout, role: Role): Found | null => {
  const all = figuresOf(layout, amountsOfRows(layout)).filter((f) => f.role === role && f.cents > 0)
  const page = Math.min(...all.map((f) => f.page))
  const values = new Set(all.filter((f) => f.page === page).map((f) => f.cents))
  const first = all.find((f) => f.page === page)
  return first === undefined || values.size !== 1 ? null : found(first.text, "label")
}

/**
 * The tax's rate: the percentage on the totals block's tax rows (a tax word, a rate and an amount with decimals on
 * one row, or the tax word on a header row right over it), where they print a single rate (two rates: no value).
 */
export const taxRate = (layout: Layout): Found | null => {
  const taxWord = (row: Row | undefined) => row !== undefined && rowTokens(row).some((t) => TAX.has(t.text))
  const rates = layout.rows.flatMap((row) => {
    const rate = RATE.exec(row.text)
    // The tax's word on its row, or on a header row of words right over it (`IVA  BASE IMPONIBLE  CUOTA` over
    // `10%  4,91  0,49`, a till's tax summary).
    const header = layout.rows[row.order - 1]
    const headed = header?.page === row.page && !/\d/.test(header.text) && taxWord(header)
    const taxed = taxWord(row) || headed
    return rate?.[1] !== undefined && taxed && amounts(row.text).some((a) => a.decimals) ? [rate[1]] : []
  })
  const values = new Set(rates.map(rateValue))
  return rates[0] === undefined || values.size !== 1 ? null : found(rates[0], "label")
}

/**
 * The total, its amount written with one mark for the cents and the other for thousands: OCR may read a grouping
 * mark as the decimal one (`€39,876,19` for `€39.876,19`, `6.646.03`), and the value is read from the last mark.
 */
export const total = (layout: Layout, target: Target): Found | null => {
  const found = totalOf(layout, target)
  return found === null ? null : { ...found, text: wellMarked(found.text) }
}

// An amount whose thousands are grouped by the mark its cents follow.
const MARKED_ALIKE = /(?<!\d)(\d{1,3})([.,])(\d{3}(?:\2\d{3})*)\2(\d{2})(?!\d)/

const wellMarked = (text: string): string =>
  text.replace(MARKED_ALIKE, (_, head: string, mark: string, groups: string, cents: string) => {
    const other = mark === "," ? "." : ","
    return `${head}${other}${groups.split(mark).join(other)}${mark}${cents}`
  })

// A credit note's title words (folded): `Factura rectificativa`, `Abono`, `Nota de crédito`, `Credit note`,
// `Gutschrift`, `Avoir`, `Nota di credito`, `Creditnota`.
const CREDIT_NOTE =
  /(?<![a-z])(?:rectificativa|abono|nota de credito|nota di credito|credit note|gutschrift|stornorechnung|avoir|creditnota|creditfactuur)(?![a-z])/

/** Whether a document calls itself a credit note on its first rows. */
const creditNote = (layout: Layout): boolean => layout.rows.slice(0, 15).some((r) => CREDIT_NOTE.test(folded(r.text)))

/** The total and the rules' certainty of it, or null when no labelled amount qualifies. */
const totalOf = (layout: Layout, target: Target): Found | null => {
  const amountsOf = amountsOfRows(layout)
  const signed = [
    ...aliasCandidates(layout, target),
    ...layout.rows.flatMap((row) => rowCandidates(layout, row, amountsOf))
  ]
  const positive = signed.filter((c) => c.amount.value > 0)
  // A credit note prints its total below zero (`FACTURA RECTIFICATIVA … TOTAL -121,00`): where it prints no total
  // above zero, its totals are ranked by their size and given with their sign.
  const all =
    positive.length === 0 && creditNote(layout)
      ? signed.filter((c) => c.amount.value < 0).map((c) => ({ ...c, amount: { ...c.amount, value: -c.amount.value } }))
      : positive
  // Money has cents where the document prints them: an integer next to a total label is a code, a count, a
  // postcode or a part of the amount the reader split (`TOTAL 53 | 990,71 €`, `TE BETALEN VOOR | 8994 KE
  // Amsterdam`), unless its decimal mark is printed after it (the reader lost the cents: `Net Total 25.`). A rank
  // with no money is no rank.
  const withCents = layout.rows.some((row) => amountsOf(row).some((a) => a.decimals))
  const cut = (c: Candidate) =>
    c.row.text.slice(c.amount.start, c.amount.end) === c.amount.text &&
    /^[.,](?!\d)/.test(c.row.text.slice(c.amount.end))
  const money = (c: Candidate) => !withCents || c.amount.decimals || cut(c)
  const rank = RANKS.find((r) => all.some((c) => c.rank === r && money(c)))
  if (rank === undefined) return paidAndMade(layout, amountsOf)
  const ranked = all.filter((c) => c.rank === rank && money(c))
  // The first page that shows a total: later pages are copies (ORIGINAL, DUPLICADO) or attachments.
  const page = Math.min(...ranked.map((c) => c.row.page))
  const pool = ranked.filter((c) => c.row.page === page)
  const largest = [...pool].sort((a, b) => b.amount.value - a.amount.value || a.order - b.order)[0]
  if (largest === undefined) return null
  // Cash totals rounded to 5 cents: the rounded amount (by any total label) is the one paid, before or after the
  // exact one.
  const exact = cents(largest.amount.value)
  const rounded = all
    .filter((c) => c.rank !== "subtotal" && c.row.page === page && c.amount.decimals)
    .filter((c) => {
      const value = cents(c.amount.value)
      return value !== exact && Math.abs(value - exact) <= 10 && value % 5 === 0 && exact % 5 !== 0
    })
    .sort((a, b) => b.order - a.order)[0]
  const chosen = rounded ?? largest
  // Another amount of the same rank on the page, not the exact/rounded pair: the label alone did not decide.
  const competed = pool.some((c) => Math.abs(cents(c.amount.value) - exact) > 10)
  const decided = checked(layout, amountsOf, all, chosen, page)
  if (decided === "abstain") return null
  // Two amount-due labels (`zu zahlen`, `TOTAL A PAGAR`, `Betrag`) with amounts that disagree, and no arithmetic to
  // say which is paid: the largest would be a guess (an empty field is better than a wrong one). Plain `Total`
  // labels compete too often with a column header or a tax summary's total for that.
  if (decided === undefined && competed && rank === "due") return null
  return decided ?? found(chosen.amount.text, largest.evidence, competed)
}

// The columns of a tax summary (`MwSt | Netto | Brutto`, `Steuer | Netto | Umsatz`, `IVA | Base | Cuota | Total`):
// its gross column's words, folded.
const GROSS = new Set(["brutto", "umsatz", "gross", "bruto", "ttc", "lordo", "total"])
const NET = new Set(["netto", "net", "neto", "ht", "base", "imponible", "imponibile"])
const SUMMARY_WORD = /^(?:[a-z]|[a-z]?\d[\d.,]*|summe|total|totale|totaal|gesamt|sum)$/

/**
 * The gross amount a tax summary prints (`Typ | Netto | MwSt | Brutto` over `19 % | 16,72 | 3,18 | 19,90`): under
 * the header that names a tax, a net and a gross column, the amounts under the gross column, on the rows down to
 * the first without one; its last row's when that row totals the others (`Summe … 15,69`), else their sum.
 */
const summaryGross = (layout: Layout, amountsOf: AmountsOf, page: number): number | undefined => {
  for (const header of layout.rows.filter((r) => r.page === page)) {
    const words = rowTokens(header)
    const gross = words.find((t) => GROSS.has(t.text))
    if (gross === undefined || !words.some((t) => NET.has(t.text)) || !words.some((t) => TAX.has(t.text))) continue
    const [x0, x1] = spanOf(header, gross.start, gross.end)
    const width = x1 - x0
    const values: Array<number> = []
    for (const row of layout.rows.slice(header.order + 1, header.order + 7)) {
      // Its rows name a rate's code, a tax or their sum at most (`A 7%`, `B=19,0%`, `Summe`): a tender is past it.
      if (row.page !== page || !rowTokens(row).every((t) => SUMMARY_WORD.test(t.text) || TAX.has(t.text))) break
      // Its amount under the column, give or take the header's width (figures are set right, the header left).
      const under = amountsOf(row).find((a) => {
        const [left, right] = spanOf(row, a.start, a.end)
        return a.decimals && right > x0 - width && left < x1 + width
      })
      if (under === undefined) break
      values.push(cents(under.value))
    }
    const last = values.at(-1)
    if (last === undefined) continue
    const before = values.slice(0, -1).reduce((a, b) => a + b, 0)
    return values.length > 2 && before === last ? last : values.reduce((a, b) => a + b, 0)
  }
  return undefined
}

/**
 * The total of a page whose total label no one can read (OCR lost it): the one amount paid (tendered with no
 * change, or tendered − change) that the page's other figures make too (subtotal + taxes, a tax summary's gross
 * amount) or its lines add up to. Two relations agree, but no label names it: `layout` evidence.
 */
const paidAndMade = (layout: Layout, amountsOf: AmountsOf): Found | null => {
  const all = figuresOf(layout, amountsOf)
  const page = Math.min(...all.map((f) => f.page))
  const figures = all.filter((f) => f.page === page)
  const made = totalsMade(figures, [], summaryGross(layout, amountsOf, page))
  const paid = [...made].filter(
    ([value, by]) =>
      (by.has("tendered") || by.has("payment")) &&
      (by.has("sum") || by.has("gross") || linesMake(layout, figures, value))
  )
  const [value] = paid.length === 1 ? (paid[0] ?? []) : []
  const like = figures.find((f) => f.role === "tendered")?.text
  return value === undefined || like === undefined ? null : found(writtenLike(value, like), "layout")
}

/**
 * The total the document's own arithmetic decides, if it decides: the chosen amount when a relation makes it
 * (certainty raised), else another labelled total a relation makes, else an amount two relations make (or one,
 * a digit away from the labelled one or a digit longer: OCR misread or lost a digit). Undefined when the
 * arithmetic says nothing; a weak label the figures could have confirmed and did not abstains.
 */
const checked = (
  layout: Layout,
  amountsOf: AmountsOf,
  all: ReadonlyArray<Candidate>,
  chosen: Candidate,
  page: number
): Found | "abstain" | undefined => {
  const labelled = all.filter((c) => c.rank !== "subtotal" && c.row.page === page)
  const figures = figuresOf(layout, amountsOf).filter((f) => f.page === page)
  const made =
    figures.length === 0
      ? new Map<number, ReadonlySet<Source>>()
      : totalsMade(
          figures,
          labelled.map((c) => cents(c.amount.value)),
          summaryGross(layout, amountsOf, page)
        )
  const sources = (value: number): ReadonlySet<Source> | undefined => made.get(cents(value))
  const target = cents(chosen.amount.value)
  if (sources(chosen.amount.value) !== undefined || linesMake(layout, figures, target) || rateMakes(figures, target))
    return found(chosen.amount.text, "confirmed")
  // Figures that make no total (a tax printed alone) could not have confirmed the label: they say nothing.
  if (made.size === 0) return undefined
  // Another labelled total of a rank as good (a lesser label the arithmetic happens to make is not the total), or
  // of any total's rank that the money paid makes (tendered − change: `TOTAL REDONDEADO 107,75` paid, where OCR
  // misread the `TOTAL A PAGAR` over it).
  const paid = (value: number) => sources(value)?.has("payment") === true
  const other = [...labelled]
    .filter(
      (c) =>
        (RANKS.indexOf(c.rank) <= RANKS.indexOf(chosen.rank) && sources(c.amount.value) !== undefined) ||
        paid(c.amount.value)
    )
    .sort((a, b) => RANKS.indexOf(a.rank) - RANKS.indexOf(b.rank) || a.order - b.order)[0]
  if (other !== undefined) return found(other.amount.text, other.evidence)
  // A labelled total plus its rounding makes a rounded total, not a reading of the labelled one: it does not
  // count alone against it.
  // A text layer's figures are as printed: no misread to mend, and no total the page does not print.
  const read = layout.ocrPages.has(page)
  const printed = read
    ? undefined
    : new Set(layout.rows.flatMap((r) => (r.page === page ? amountsOf(r).map((a) => cents(a.value)) : [])))
  const agreed = [...made].filter(
    ([value, by]) =>
      (printed === undefined || printed.has(value)) &&
      (by.size >= 2 ||
        (read && (oneDigitApart(value, target) || oneDigitLost(value, target)) && (by.has("sum") || by.has("payment"))))
  )
  if (agreed.length === 1 && agreed[0] !== undefined)
    return found(writtenLike(agreed[0][0], chosen.amount.text), chosen.evidence)
  // A payment a slip away from the total: one of the two was misread, and nothing says which.
  if ([...made].some(([value, by]) => by.has("tendered") && paymentSlip(value, target))) return "abstain"
  return chosen.evidence === "weakLabel" || chosen.evidence === "layout" || chosen.evidence === "position"
    ? "abstain"
    : undefined
}
