/**
 * The document's own arithmetic around its total: the figures a receipt or an invoice prints beside it (amount
 * tendered and change, subtotal, taxes, discounts, charges such as shipping, a rounding adjustment) and the totals
 * they make — tendered − change (or a payment with no change), subtotal + taxes − discounts (+ charges, + rounding),
 * an exact total + its rounding.
 * A labelled total one of these makes is confirmed; one none makes, where they agree on another amount, was
 * misread (the sum of the lines only confirms: `totals.ts`). Also amounts OCR misread in their punctuation
 * (`14-10`, `14,1O`), read only where the document's other amounts show its decimal mark with two decimals.
 */
import { EditDistance } from "@legible/core"
import type { Amount } from "./patterns.js"
import { lettersJoined, type RowToken } from "./phrases.js"
import { FIGURE_FOR, nearWords } from "./text.js"
import { CHANGE_WORDS, CHARGE_WORDS, ROUNDING_WORDS, SAVING_WORDS, TAX_WORDS, TENDER_WORDS } from "./vocabulary.js"

/** What a figure beside the total is. */
export type Role = "tendered" | "change" | "rounding" | "discount" | "charge" | "tax" | "subtotal"

/** A labelled figure of the totals block. */
export interface Figure {
  readonly role: Role
  readonly cents: number
  readonly page: number
  /** As printed. */
  readonly text: string
  /** A tax's rate in percent, where its row prints one (`Total IVA 10 %: 2 868,38`). */
  readonly rate?: number
}

/**
 * Which of the document's relations makes an amount: tendered − change (`payment`), an amount tendered with no
 * change (`tendered`: one printed figure), subtotal + taxes − discounts (`sum`), a subtotal alone with nothing
 * added or taken off (`net`: one printed figure too), an exact total + its rounding (`rounding`), a tax summary's
 * gross column (`gross`: its rates' gross amounts, or their sum).
 */
export type Source = "payment" | "tendered" | "sum" | "net" | "rounding" | "gross"

// Checked in this order: change before tender (`CHANGE DUE`, `Cambio efectivo`).
const ROLES: ReadonlyArray<readonly [Role, ReadonlyArray<string>]> = [
  ["change", CHANGE_WORDS],
  ["rounding", ROUNDING_WORDS],
  ["tendered", TENDER_WORDS],
  ["discount", SAVING_WORDS],
  ["charge", CHARGE_WORDS],
  ["tax", TAX_WORDS]
]
const ROLE_OF = new Map<string, Role>()
for (const [role, words] of [...ROLES].reverse()) for (const w of words) ROLE_OF.set(w, role)
const nearRoleWords = nearWords(ROLE_OF.keys())

/** The role of one word, exactly or (a word the reader doubted) up to an OCR slip, if any. */
const wordRole = (word: string, slipped: boolean): Role | undefined => {
  const exact = ROLE_OF.get(word)
  if (exact !== undefined || !slipped) return exact
  const near = nearRoleWords(word)
  return near.length === 0 ? undefined : ROLES.find(([role]) => near.some((w) => ROLE_OF.get(w) === role))?.[0]
}

/**
 * The role a label's words give its amount, the first role in `ROLES` order its words have, if any; a word is read
 * through an OCR slip only where `doubted` says the reader doubted it (`Montant` printed is not `contant` misread).
 */
export const roleOf = (label: ReadonlyArray<RowToken>, doubted: (t: RowToken) => boolean): Role | undefined => {
  // Runs of letters (`T.V.A.`) read as the word they spell; a word the reader read is in `label` itself.
  const roles = lettersJoined(label).flatMap((t) => wordRole(t.text, label.includes(t) && doubted(t)) ?? [])
  return ROLES.find(([role]) => roles.includes(role))?.[0]
}

export const centsOf = (value: number): number => Math.round(value * 100)

/** The amounts (in cents) of the figures of one role. */
const centsIn = (figures: ReadonlyArray<Figure>, role: Role): ReadonlyArray<number> =>
  figures.filter((f) => f.role === role).map((f) => f.cents)

/** At most this many taxes are summed (a tax summary repeats the taxes: every subset is not tried). */
const MAX_TAXES = 4

/**
 * The amounts (in cents) the figures of a page make a total, each with the relations that make it. `totals` are
 * the labelled totals of the page: each plus a rounding adjustment makes the rounded one; `gross`, the gross amount
 * of the page's tax summary, if it prints one.
 */
export const totalsMade = (
  figures: ReadonlyArray<Figure>,
  totals: ReadonlyArray<number>,
  gross?: number
): ReadonlyMap<number, ReadonlySet<Source>> => {
  const out = new Map<number, Set<Source>>()
  const add = (cents: number, source: Source) => {
    if (cents > 0) out.set(cents, (out.get(cents) ?? new Set<Source>()).add(source))
  }
  if (gross !== undefined) add(gross, "gross")
  const of = (role: Role) => centsIn(figures, role)
  const tendered = of("tendered")
  const change = of("change").filter((c) => c > 0)
  for (const t of tendered) {
    if (change.length === 0) add(t, "tendered")
    for (const c of change) if (c < t) add(t - c, "payment")
  }
  // A rounding adjustment printed is part of the total: the sum without it is the exact amount, not the one due.
  const printed = of("rounding").filter((r) => r !== 0)
  const roundings = printed.length === 0 ? [0] : printed
  const taxes = of("tax")
    .filter((t) => t > 0)
    .slice(0, MAX_TAXES)
  const discount = of("discount").reduce((sum, d) => sum + Math.abs(d), 0)
  const charge = of("charge").reduce((sum, c) => sum + Math.max(c, 0), 0)
  // A subtotal alone makes the total only where no tax is printed (it would confirm any amount equal to the net).
  const taxSums = new Set<number>([...(taxes.length === 0 ? [0] : []), taxes.reduce((a, b) => a + b, 0), ...taxes])
  const subtotals = of("subtotal")
  for (const base of subtotals)
    for (const tax of taxSums)
      for (const r of roundings) {
        // A subtotal alone confirms a total equal to it, and no more: a discount its reader missed (`Remi se
        // -0,80`) is between them as often as nothing is.
        add(base + tax + r, tax === 0 && r === 0 ? "net" : "sum")
        if (discount > 0) add(base + tax - discount + r, "sum")
        // A charge printed under the subtotal (shipping) may be in it already, or added after it.
        if (charge > 0) add(base + tax - discount + charge + r, "sum")
      }
  // A labelled total that is the subtotal printed again (a tax summary's `Total: 106.10`) plus the rounding is the
  // subtotal's sum again, not a second relation.
  for (const total of totals.filter((t) => !subtotals.includes(t))) for (const r of printed) add(total + r, "rounding")
  return out
}

/**
 * Whether the taxes' one printed rate on the subtotal (less the discounts, if any) makes the total, its tax rounded
 * either way and with the rounding adjustment printed, if any: the arithmetic is then the total's, and a tax figure
 * that disagrees with its own rate was misread (`Total IVA 10 %: 2 868,58` on 28 683,81, for 2 868,38).
 */
/** A base's tax at a rate in percent, in cents, rounded down and up (prints round either way). */
export const taxesAt = (base: number, rate: number): readonly [number, number] => {
  const tax = (base * rate) / 100
  return [Math.floor(tax), Math.ceil(tax)]
}

export const rateMakes = (figures: ReadonlyArray<Figure>, total: number): boolean => {
  const rates = new Set(figures.flatMap((f) => (f.role === "tax" && f.rate !== undefined ? [f.rate] : [])))
  const [rate] = rates
  if (rate === undefined || rates.size !== 1) return false
  const of = (role: Role) => centsIn(figures, role)
  const discount = of("discount").reduce((sum, d) => sum + Math.abs(d), 0)
  const roundings = [0, ...of("rounding")]
  return of("subtotal")
    .flatMap((s) => [s, s - discount])
    .some((base) => base > 0 && taxesAt(base, rate).some((t) => roundings.some((r) => base + t + r === total)))
}

/** Digits an amount needs for one misread digit to be told from another amount (`5,30` and `5,00` are both prices). */
const MISREAD_DIGITS = 4

/**
 * Whether two amounts in cents differ in exactly one digit, all else equal, and have enough digits for that to be
 * an OCR misread (`112.46` for `112.45`).
 */
export const oneDigitApart = (a: number, b: number): boolean => {
  const x = String(Math.abs(a))
  const y = String(Math.abs(b))
  if (x.length !== y.length || x.length < MISREAD_DIGITS || a === b) return false
  let differ = 0
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) differ++
  return differ === 1
}

/**
 * Whether an amount in cents is another with one figure lost, and enough figures left for that to be told from
 * another amount (`12.45` read for `112.45`, `0424,25` for `10424,25`: faint ink).
 */
export const oneDigitLost = (whole: number, read: number): boolean => {
  const x = String(Math.abs(whole))
  if (String(Math.abs(read)).length < MISREAD_DIGITS || x.length < 2) return false
  for (let i = 0; i < x.length; i++) if (Number(x.slice(0, i) + x.slice(i + 1)) === Math.abs(read)) return true
  return false
}

/**
 * Whether an amount tendered with no change printed (a card's payment is the total, to the cent) is the total
 * misread, or the total is it: one figure more, less or other (`2,34` and `Girocard 12,34`). A note larger than the
 * total (`20,00` for `2,00`) is cash whose change was not printed, not a misread.
 */
export const paymentSlip = (tendered: number, total: number): boolean =>
  tendered !== total &&
  !(tendered > total && tendered % 500 === 0) &&
  EditDistance.levenshtein(String(tendered), String(total)) === 1

/**
 * The document's decimal mark, when its amounts with two decimals show one (four in five of them, at least three):
 * only then is a misread amount read back to it.
 */
export const decimalMark = (printed: ReadonlyArray<Amount>): "." | "," | undefined => {
  const marks = printed.flatMap((a) => /\d([.,])\d{2}$/.exec(a.text)?.[1] ?? [])
  for (const mark of [".", ","] as const) {
    const count = marks.filter((m) => m === mark).length
    if (count >= 3 && count >= 0.8 * marks.length) return mark
  }
  return undefined
}

// An integer part (a figure first; then `O` may stand for a zero: `5O.OO`), a mark OCR reads for a decimal point
// (`-`, `·`, `'`, `;`, or the document's own; not `:`, which makes a time) and two decimals that may hold letters read
// for digits (`O`, `o`, `l`, `I`, `S`), or a space read between them (`12,3 4`).
const MISREAD = /(?<![\p{L}\d.,/-])(\d[\dOo]{0,5}) ?([-·',.;]) ?([\dOolIS] ?[\dOolIS])(?![\p{L}\d]|[-/.,:]\d)/gu

/**
 * Amounts OCR misread in their punctuation (`14-10`, `14,1O` for 14.10 on a document with `.`), given with the
 * document's mark; amounts read right are not repeated.
 */
export const misreadAmounts = (text: string, mark: "." | ","): Array<Amount> => {
  const out: Array<Amount> = []
  for (const m of text.matchAll(MISREAD)) {
    const [whole, integer = "", separator = "", decimals = ""] = m
    const letters = /\D/.test(decimals + integer)
    if (!letters && separator === mark) continue
    if (!letters && /[.,]/.test(separator)) continue
    const [units, cents] = [integer, decimals.replace(" ", "")].map((part) =>
      [...part].map((c) => FIGURE_FOR[c] ?? c).join("")
    )
    const start = m.index ?? 0
    out.push({
      text: `${units}${mark}${cents}`,
      start,
      end: start + whole.length,
      value: Number(`${units}.${cents}`),
      decimals: true
    })
  }
  return out
}
