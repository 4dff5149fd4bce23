/**
 * Typed candidates in a text: dates (numeric and Spanish/English month names), amounts (`1.234,56`, `1,234.56`,
 * `RM327.00`), tax ids (Argentine CUIT with its check digit, Spanish NIF/NIE/CIF, Mexican RFC) and document numbers
 * (`0001-00012345`, `F-2026/0042`). Matches carry their offsets in the text they were found in.
 */
import { Checks } from "@legible/core"
import { folded } from "./text.js"
import { MONTH_WORDS } from "./vocabulary.js"

/** A match in a text. */
export interface Match {
  readonly text: string
  readonly start: number
  readonly end: number
}

const all = (re: RegExp, text: string, accept: (m: RegExpExecArray) => boolean = () => true): Array<Match> => {
  const out: Array<Match> = []
  for (const m of text.matchAll(re)) {
    const start = m.index ?? 0
    if (accept(m as RegExpExecArray)) out.push({ text: m[0], start, end: start + m[0].length })
  }
  return out
}

const plausible = (a: number, b: number): boolean =>
  (a >= 1 && a <= 31 && b >= 1 && b <= 12) || (b >= 1 && b <= 31 && a >= 1 && a <= 12)

// Longest names first, so that `marzo` is not read as `mar` and a trailing `zo`.
const MONTH_NAMES = `(?:${[...MONTH_WORDS].sort((x, y) => y.length - x.length).join("|")})`
const MONTH = `${MONTH_NAMES}\\.?`
const MONTH_DOTTED = `${MONTH_NAMES}\\.`

// `out` (pt: outubro) is an English word too: a month only between a day and a four-digit year (`25 out 2022`,
// `27 out de 2022`).
const MONTH_DAY_FIRST = `(?:${MONTH}|out\\.?)`

const MONTH_ANY = new RegExp(`(?<![\\p{L}])(?:${MONTH}|out\\.?\\s+(?:de\\s+)?\\d{4})`, "u")
const NUMERIC_ANY = /[\do] {0,2}[/.,:-] {0,2}[\do]/

// A day may carry an ordinal mark (`1st`, `1er`, `1º`, `1.`); a two-digit year only follows a month name glued to
// it by a mark (`12-Mar-24`), after a day and the month (`05 Mar 24`) or after an apostrophe (`Mar 5 '24`), so that
// a range such as `1 - July 31` is not read as a date.
const DAY = "(\\d{1,2})(?:st|nd|rd|th|er|o)?"

const DATE_PATTERNS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => boolean]> = [
  // Never a two-digit year cut from longer figures (`08-09-202:1`, a year OCR broke, is not `08-09-20`); a time may
  // follow a four-digit year glued by a mark or by nothing, the space OCR lost (`05.03.2024/12:34`, `05.03.202412:34`),
  // or a two-digit year glued by a slash or by nothing (`07.03.24/14:22`; `07.04.2014:38` is 07.04.20 at 14:38: no
  // year is printed with a colon after it).
  [
    /(?<![\d/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}(?=[/-]?\d{1,2}:\d{2})|\d{4}(?![\d/.-]?\d|:\d)|\d{2}(?=\/?\d{1,2}:\d{2}(?!\d))|\d{2}(?![\d/.-]?\d))/g,
    (m) => plausible(Number(m[1]), Number(m[3]))
  ],
  // Spaced as OCR reads some receipts, or as some layouts print them: `08 / 02 / 23`, `24 - 05 - 20`; a day OCR read
  // as a cell of its own is two spaces before the rest, which is glued (`01 | .05.19`).
  [
    /(?<![\d/.-])(\d{2})(?: ?([/.-]) ?(\d{2}) ?\2 ?| {2}([/.-])(\d{2})\4)(\d{4}(?!:\d)|\d{2})(?![\d/.-]?\d)/g,
    (m) => plausible(Number(m[1]), Number(m[3] ?? m[5]))
  ],
  // Year first; a time may follow glued by a hyphen, as OCR reads the space before it (`2018-08-17-10:11`); OCR may
  // read each figure and mark as a cell of its own (`2024 | - | 06 | - | 26`, two spaces apart in the row's text:
  // given as `2024-06-26`, as `OCR_DATE_PATTERNS` give a day first).
  [
    /(?<![\d/.-])(\d{4}) {0,2}([/.-]) {0,2}(\d{1,2}) {0,2}\2 {0,2}(\d{1,2})(?!\d|[/.]\d|-\d(?!\d?:\d{2}))/g,
    (m) => Number(m[3]) >= 1 && Number(m[3]) <= 12 && Number(m[4]) >= 1 && Number(m[4]) <= 31
  ],
  [
    new RegExp(
      `(?<![\\p{L}\\d])${DAY}\\.?(?:\\s+(?:de|of)\\s+|\\s+|[-/.])${MONTH_DAY_FIRST}(?:\\s+(?:de|del|of)\\s+|,?\\s+|[-/.]\\s?)(\\d{4})(?!\\d)`,
      "gu"
    ),
    (m) => Number(m[1]) >= 1 && Number(m[1]) <= 31
  ],
  [
    new RegExp(`(?<![\\p{L}\\d])${DAY}[-/.]${MONTH}[-/.](\\d{2})(?!\\d)`, "gu"),
    (m) => Number(m[1]) >= 1 && Number(m[1]) <= 31
  ],
  // A day, a month's name and a two-digit year set apart by spaces, or by an apostrophe (`05 Mar 24`, `5 Mar
  // '24`): nothing glued after the year (`05 Mar 24:00` is no date), and no four-digit year after it, which makes it
  // a month-first date's day (`11  Jul 16, 2018`: a figure of the cell before, then the 16th of July 2018).
  [
    new RegExp(
      `(?<![\\p{L}\\d])${DAY}\\.?\\s+${MONTH}\\s+'?(\\d{2})(?![\\p{L}\\d]|[:.,]\\d|[,.]?\\s+\\d{4}(?!\\d))`,
      "gu"
    ),
    (m) => Number(m[1]) >= 1 && Number(m[1]) <= 31
  ],
  [
    new RegExp(`(?<![\\p{L}])${MONTH}\\s+${DAY},?\\s+'(\\d{2})(?![\\p{L}\\d])`, "gu"),
    (m) => Number(m[1]) >= 1 && Number(m[1]) <= 31
  ],
  [
    // The space after the comma may be missing, as OCR reads it or some prints set it (`June 12,2020`); so may the
    // space after an abbreviation's dot (`Apr.17, 2019`); OCR may read the comma as a dot (`Sep 01. 2023`).
    new RegExp(`(?<![\\p{L}])(?:${MONTH}\\s+|${MONTH_DOTTED})${DAY}(?:[,.]\\s*|\\s+)(\\d{4})(?!\\d)`, "gu"),
    (m) => Number(m[1]) >= 1 && Number(m[1]) <= 31
  ]
]

// A time after a date, maybe after its label (`10:40`, `TIJD: 07:00`, `Hora 13:55`): a till prints both on one line.
const TIME_AFTER = String.raw`(?= {1,3}(?:\p{L}{2,8}\.?:? {1,3})?\d{1,2}:\d{2}(?!\d))`

// Numeric dates as OCR misreads them: an `O` for a zero (`14.1O.2019`), an `l` or `I` for a one (`10 . l2 .
// 2025`), a comma or a stray mark for a separator (`14,10.2019`, `24 - 07 - :2021`), a mark read twice
// (`09..09.2021`). A mixed or stray separator
// needs a four-digit year of this era (or a dot and a comma alone, two figures between them); a letter alone needs
// the same separator twice. Their literal is given as the
// date printed: digits and one separator.
const OCR_DATE_PATTERNS: ReadonlyArray<RegExp> = [
  /(?<![\p{L}\d/.,-])([\doli]{1,2}) {0,2}([/.,-](?: {0,2}[/.,-])?) {0,2}([\doli]{1,2}) {0,2}([/.,:-](?: {0,2}[/.,:-])?) {0,2}((?:19|20)[\doli]{2})(?![\d/.,-]?\d)/gu,
  /(?<![\p{L}\d/.,-])([\doli]{1,2})([/.-])([\doli]{1,2})(\2)([\doli]{2,4})(?![\d/.,-]?\d|\p{L})/gu,
  // Spread over cells with a two-digit year: the same mark twice, a space before each (`23 /  08  /  21`).
  /(?<![\p{L}\d/.,-])([\doli]{1,2}) {1,2}([/.-]) {0,2}([\doli]{1,2}) {1,2}(\2) {0,2}([\doli]{2})(?![\d/.,-]?\d|\p{L})/gu,
  // A till's two-digit year with one dot read as a comma (`07,04.20`, `07.04,20`): no amount groups two figures
  // between a comma and a dot.
  /(?<![\p{L}\d/.,-])(\d{1,2})([.,])(\d{2})((?!\2)[.,])(\d{2})(?![\d/.,-]?\d|\p{L})/gu,
  // A slash read as a one, an `l` or a bar (`12/0212018`, `12/02|2018`, `12l02/2018`): the other mark a slash, two
  // figures each for the day and the month, a four-digit year of this era.
  /(?<![\p{L}\d/.,|-])(\d{2})(\/|[|l1](?=\d{2}\/))(\d{2})((?<=\/\d{2})[|l1]|(?<=[|l1]\d{2})\/)((?:19|20)\d{2})(?![\d/.,-]?\d)/gu,
  // A till's date with one dot lost, the time after it (`07.0420 14:38`, `0704.20 14:38`, `07.042020 14:38`).
  /(?<![\p{L}\d/.,-])(\d{2})(\.?)(\d{2})((?<=\d)\.|(?<=\.\d{2}))((?:20)?\d{2})(?= {1,3}\d{1,2}:\d{2}(?!\d))/gu,
  // A till's date with its first mark lost and the space kept, the time after it, maybe after the time's label
  // (`14 09 . 2019 10:40`, `14 09.2019 10:40`, `06 12. 2022 TIJD: 07:00`): a four-digit year of this era.
  new RegExp(
    String.raw`(?<![\p{L}\d/.,-])(\d{2})( {1,2})(\d{2}) {0,2}([/.-]) {0,2}((?:19|20)\d{2})${TIME_AFTER}`,
    "gu"
  ),
  // Its second mark lost (`14.03 2023 10:23`).
  new RegExp(
    String.raw`(?<![\p{L}\d/.,-])(\d{2}) {0,2}([/.-]) {0,2}(\d{2})( {1,2})((?:19|20)\d{2})${TIME_AFTER}`,
    "gu"
  ),
  // Both lost (`07 03 2024 14:22`, or spread over cells: `07  10  2022  15:38`), no figures grouped before them (a
  // phone number's): given with dots, as such tills print them.
  /(?<![\p{L}\d/.,-]|\d {1,2})(\d{2})( {1,2})(\d{2})( {1,2})((?:19|20)\d{2})(?= {1,3}\d{1,2}:\d{2}(?!\d))/gu
]

// What a misread date shows (a letter by a digit, a comma or colon between digits, a spaced mark): only a text with
// one is searched for them.
const OCR_SLIP =
  /\d[/.,-]{2}\d|\d[oli|]|[oli|]\d|\d ?[,:] ?\d|\d {1,2}[/.-]|[/.-] {2}\d|\d[/.-]\d{1,2}(?:-\d|[/.]\d)|\d\/\d{2}1\d{4}|\d[/.-]\d{2} {1,2}(?:19|20)\d{2} |\d{2} {1,2}\d{2} {1,2}(?:19|20)\d{2} {1,3}\d{1,2}:\d{2}/

const zeros = (s: string): string => s.replace(/o/g, "0").replace(/[li]/g, "1")

/** A date OCR misread, as printed, or undefined when it is not one (or reads right as it is). */
const ocrDate = (m: RegExpExecArray): string | undefined => {
  const [whole, day = "", first = "", month = "", second = "", year = ""] = m
  // Read right, the patterns above have it; spread over cells (`26  .  02  .2022`), they do not.
  if (!/[oli]| {2}/.test(whole) && /^[/.-]$/.test(first) && first === second.trim()) return undefined
  if ([day, month, year].some((part) => !/\d/.test(part))) return undefined
  if (!plausible(Number(zeros(day)), Number(zeros(month)))) return undefined
  const separator = [...first.replace(/\s/g, ""), ...second.replace(/\s/g, "")].find((c) => /[/.-]/.test(c)) ?? "."
  return [day, month, year].map(zeros).join(separator)
}

const DASHES = /[\u2010-\u2015\u2212]/gu

// Month names with an `l` OCR may read as a one, an `I` or a bar (`23 1ug 2020`, `12 Ju1 2021`), or an `o` it may
// read as a zero (`2 de ag0sto de 2019`, `23 0ut de 2021`: Portuguese `out` too, read here between a day and a
// year alone), folded.
const SLIPPABLE = [...MONTH_WORDS, "out"].filter((w) => /[lo]/.test(w))
const slippedNames = (names: ReadonlyArray<string>): string =>
  names.map((w) => w.replace(/l/g, "[l1i|]").replace(/o/g, "[o0]")).join("|")
const SLIPPED_MONTH = new RegExp(
  `(?<![\\p{L}\\d])${DAY}\\.?(?:\\s+(?:de|of)\\s+|\\s+)(${slippedNames(SLIPPABLE)})\\.?(?:\\s+(?:de|del|of)\\s+|\\s+)((?:19|20)\\d{2})(?!\\d)`,
  "gu"
)
// The same month first (`0ctober 28, 2020`; not Portuguese `out`, a day-first language's): the month named.
const SLIPPED_MONTH_FIRST = new RegExp(
  `(?<![\\p{L}\\d])(?<month>${slippedNames(SLIPPABLE.filter((w) => w !== "out"))})\\.?\\s+${DAY},?\\s+((?:19|20)\\d{2})(?!\\d)`,
  "gu"
)

/** Whether a month name's letter `c` reads as `read`: itself, or a figure or stroke OCR reads for it. */
const slipOf = (c: string, read: string | undefined): boolean =>
  c === read || (c === "l" && /[1i|]/.test(read ?? "")) || (c === "o" && read === "0")

/**
 * Dates whose month name OCR misread, an `l` for a one or an `I`, an `o` for a zero, between a day and a four-digit
 * year or before the day (`0ctober 28, 2020`): given with the name as printed (`23 lug 2020`, `october 28, 2020`).
 */
const slippedMonths = (source: string, text: string): Array<Match> =>
  [...source.matchAll(SLIPPED_MONTH), ...source.matchAll(SLIPPED_MONTH_FIRST)].flatMap((m): Array<Match> => {
    const first = m.groups?.month !== undefined
    const [whole, day = "", month = ""] = first ? [m[0], m[2], m[1]] : m
    const name = SLIPPABLE.find((w) => w.length === month.length && [...w].every((c, i) => slipOf(c, month[i])))
    if (name === undefined || name === month || Number(day) < 1 || Number(day) > 31) return []
    const start = m.index ?? 0
    const at = first ? 0 : whole.indexOf(month, day.length)
    const literal = text.slice(start, start + whole.length)
    return [
      { text: `${literal.slice(0, at)}${name}${literal.slice(at + month.length)}`, start, end: start + whole.length }
    ]
  })

// A day of two figures with a one read as an `l`, an `I` or a bar, before a month's name and a four-digit year (`1l
// ene de 2025`), folded.
const SLIPPED_DAY = new RegExp(
  `(?<![\\p{L}\\d])(\\d[li|]|[li|]\\d)\\.?(?:\\s+(?:de|of)\\s+|\\s+)${MONTH}(?:\\s+(?:de|del|of)\\s+|,?\\s+)((?:19|20)\\d{2})(?!\\d)`,
  "gu"
)

/** Dates whose day OCR misread, a one for an `l` (`1l ene de 2025`): given with the day as printed (`11 ene de 2025`). */
const slippedDays = (source: string, text: string): Array<Match> =>
  [...source.matchAll(SLIPPED_DAY)].flatMap((m): Array<Match> => {
    const [whole, day = ""] = m
    const read = day.replace(/[li|]/g, "1")
    if (Number(read) < 1 || Number(read) > 31) return []
    const start = m.index ?? 0
    return [
      { text: `${read}${text.slice(start + day.length, start + whole.length)}`, start, end: start + whole.length }
    ]
  })

/** Dates in a text (month names matched accent- and case-insensitively), in order of appearance. */
export const dates = (text: string): ReadonlyArray<Match> => {
  if (!/\d/.test(text)) return []
  // OCR reads a hyphen as a dash now and then (`22 - 02 — 24`): dates are matched, and given, with hyphens.
  const hyphened = text.replace(DASHES, "-")
  const lower = folded(hyphened)
  // Folding keeps lengths for the Latin scripts dates are written in; where it does not, use the text as is.
  const source = lower.length === hyphened.length ? lower : hyphened.toLowerCase()
  // The numeric patterns (the first three) only where figures are joined by a mark, the month-name ones (the last
  // three) only where a month name is printed.
  const numeric = NUMERIC_ANY.test(source)
  const named = MONTH_ANY.test(source)
  // Only a text with a year of this era and a stroke beside a letter can hold one.
  const slipped =
    /(?:19|20)\d{2}/.test(source) && /[1i|0][a-z]|[a-z][1i|0]|[li|]\d/.test(source)
      ? [...slippedMonths(source, hyphened), ...slippedDays(source, hyphened)]
      : []
  if (!numeric && !named) return slipped
  const patterns = [...(numeric ? DATE_PATTERNS.slice(0, 3) : []), ...(named ? DATE_PATTERNS.slice(3) : [])]
  const found = patterns
    .flatMap(([re, accept]) => all(re, source, accept))
    .map((m) => {
      const literal = hyphened.slice(m.start, m.end)
      return { ...m, text: / {2}/.test(literal) ? literal.replace(/ *([/.-]) */g, "$1") : literal }
    })
  const misread = (OCR_SLIP.test(source) ? OCR_DATE_PATTERNS : []).flatMap((re) =>
    [...source.matchAll(re)].flatMap((m): Array<Match> => {
      const literal = ocrDate(m)
      const start = m.index ?? 0
      return literal === undefined ? [] : [{ text: literal, start, end: start + m[0].length }]
    })
  )
  return dedupe([...found, ...misread, ...slipped])
}

/** Drops matches overlapping an earlier, longer one; sorts by position. */
const dedupe = (matches: ReadonlyArray<Match>): Array<Match> => {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end)
  const out: Array<Match> = []
  for (const m of sorted) {
    const last = out[out.length - 1]
    if (last === undefined || m.start >= last.end) out.push(m)
  }
  return out
}

// OCR often splits an amount at its decimal mark ("14 .90", "5 . 10"): a mark with spaces around it still joins
// the integer part to exactly two decimals.
// Thousands grouped by a single space (`12 260,84`, French and Portuguese) count only with decimals after them:
// cells are two spaces apart in a row, so a quantity and a price (`23  533,08`) stay two numbers.
// India groups lakhs and crores by two figures (`1,23,456.00`), counted only with paise after them. Switzerland
// groups thousands by an apostrophe, straight or typographic (`1'234.50`, `1’234.50`).
const AMOUNT =
  /(?<![\d/:.,])(?<!\d-)-?(?:\d{1,2}(?:,\d{2})+,\d{3}\.\d{2}|\d{1,3}(?:[ \u00a0\u202f]\d{3})+[.,]\d{2}|(?:\d{1,3}(?:[.,'’](?:\d{3}))+|\d+)(?:[.,]\d{1,2}|\s?[.,]\s?\d{2}(?!\d))?)(?![\d/:%]|[.,]\d|-\d)/g

/** An amount: its text and its numeric value (the last `.`/`,` followed by one or two digits is the decimal mark). */
export interface Amount extends Match {
  readonly value: number
  readonly decimals: boolean
}

/** The numeric value of an amount's text, or undefined. */
export const amountValue = (literal: string): number | undefined => {
  const s = literal.replace(/[^\d.,'’-]/g, "")
  const decimal = /[.,](\d{1,2})$/.exec(s)
  const integer = (decimal === null ? s : s.slice(0, decimal.index)).replace(/[.,'’]/g, "")
  if (!/^-?\d+$/.test(integer)) return undefined
  const value = Number.parseFloat(decimal === null ? integer : `${integer}.${decimal[1]}`)
  return Number.isFinite(value) ? value : undefined
}

// Letters glued before an amount are a currency (RM327.00, US$5) or make it part of a code (ZJ86, SHO1).
const CURRENCY_PREFIX = /(?:^|[^\p{L}])(?:rm|us|usd|eur|ars|mxn|clp|cop|pen|gbp|r|s|rs|bs)\$?$/iu

/** Amounts in a text, not counting the numbers inside dates, times, phone numbers and codes. */
export const amounts = (printed: string): ReadonlyArray<Amount> => {
  if (!/\d/.test(printed)) return []
  // The rupee's `Rs.` glued to its amount (`Rs.500.00`): its dot is no figure's mark (offsets kept).
  // OCR reads a comma with a speck over it as a semicolon (`36;16`), which no amount prints (offsets kept).
  const text = printed.replace(/(?<!\p{L})(rs)\.(?=-?\d)/giu, "$1 ").replace(/(?<=\d);(?=\d{2}(?!\d))/gu, ",")
  const inDates = dates(text)
  return (
    all(AMOUNT, text)
      .filter((m) => !inDates.some((d) => m.start < d.end && m.end > d.start))
      // A figure OCR reads for a word's first letter (`5UMME`, `0RTSTARIF`) is no amount: the word is a label.
      .filter((m) => !(/^[015]{1,2}$/.test(m.text) && /^\p{L}{3}/u.test(text.slice(m.end))))
      .filter((m) => {
        const before = text.slice(Math.max(0, m.start - 4), m.start)
        return (
          !/\p{L}$/u.test(before) ||
          CURRENCY_PREFIX.test(before) ||
          // OCR reads a pound sign as `f` (`f3,021.71`), a euro sign as `E`, a speck as a capital (`M17,06`): before
          // an amount with its cents, one letter alone is no code's.
          (/(?:^|[^\p{L}\d])(?:f|\p{Lu})$/u.test(before) && /[.,]\s?\d{2}$/.test(m.text))
        )
      })
      .map((m) => ({ ...m, text: m.text.replace(/\s*([.,])\s*(?=\d{2}$)/, "$1") }))
      .flatMap((m): Array<Amount> => {
        const value = amountValue(m.text)
        const decimals = /[.,]\d{1,2}$/.test(m.text)
        // Long digit runs (authorisation codes, ids) and zero-padded integers (document numbers) are not money.
        if (value === undefined || Math.abs(value) >= 1e12 || (!decimals && /^-?0\d/.test(m.text))) return []
        return [{ ...m, value, decimals }]
      })
  )
}

const TAX_PATTERNS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => boolean]> = [
  [/(?<![\d-])(?:2[03-7]|3[034])-?\d{8}-?\d(?![\d-])/g, (m) => Checks.identifier("cuit", m[0]) === undefined],
  [
    /(?<![A-Za-z0-9])(?:ES[-\s]?)?(?:[A-HJNP-SUVW]-?\d{7}-?[0-9A-J]|\d{8}-?[A-Z]|[XYZ]-?\d{7}-?[A-Z])(?![A-Za-z0-9])/g,
    (m) => Checks.identifier("nif", m[0].replace(/^ES[-\s]?/, "")) === undefined
  ],
  [
    /(?<![A-Za-z0-9&Ñ])[A-ZÑ&]{3,4}-?\d{6}-?[A-Z0-9]{3}(?![A-Za-z0-9])/g,
    (m) => Checks.identifier("rfc", m[0]) === undefined
  ],
  // European VAT numbers with their country's prefix, in each country's format (`DE123456789`, `ATU12345678`,
  // `FR12345678901`, `IT01234567890`, `NL123456789B01`, `BE0123456789`, `PT501234567`, `GB 123 4567 89`), and
  // Switzerland's UID (`CHE-123.456.789`).
  [
    /(?<![A-Za-z0-9])(?:DE\d{9}|ATU\d{8}|FR[0-9A-HJ-NP-Z]{2}\d{9}|IT\d{11}|NL\d{9}B\d{2}|BE[01]\d{9}|PT\d{9}|LU\d{8}|DK\d{8}|SE\d{12}|PL\d{10}|IE\d{7}[A-W][A-I]?|GB ?\d{3} ?\d{4} ?\d{2}(?: ?\d{3})?|CHE-?\d{3}\.?\d{3}\.?\d{3})(?![A-Za-z0-9])/g,
    () => true
  ]
]

// A European VAT number printed in groups (`FR 44 732829320`, `FR44 732 829 320`, `DE 123 456 789`, `BE 0456.789.123`,
// `NL 0012.34.567.B.01`): its country's prefix, then groups of letters and figures apart by single spaces or dots.
const SPACED_VAT =
  /(?<![A-Za-z0-9])(?:AT|BE|DE|DK|FR|IT|LU|NL|PT|SE|PL|IE)[ .]?[0-9A-Z]{1,11}(?:[ .][0-9A-Z]{1,11}){0,5}(?![A-Za-z0-9])/g

// A VAT label or a number's word and its marks, just before a prefix printed apart from its figures.
const VAT_LABEL_BEFORE = /(?:vat|tva|ust|btw|iva|mwst|uid|tax|id|nr|no|n[°º]|[:#])\W*$/iu

/**
 * The VAT numbers printed in groups: each run's longest opening groups that make a valid number, its check figures
 * verified (a run may go on into other figures: `FR 44 732829320 00074`). A prefix set apart from its figures is
 * the prefix only after a label (`PRECIO DE 123 456 788` is a price's words).
 */
const spacedVatIds = (text: string): Array<Match> =>
  [...text.matchAll(SPACED_VAT)].flatMap((m) => {
    const start = m.index ?? 0
    if (/^[A-Z]{2,3} /.test(m[0]) && !VAT_LABEL_BEFORE.test(text.slice(0, start))) return []
    const parts = m[0].split(/(?<=[0-9A-Z])(?=[ .])/)
    for (let n = parts.length; n >= 1; n--) {
      const printed = parts.slice(0, n).join("")
      if (/[ .]/.test(printed) && Checks.identifier("vat", printed.replace(/[ .]/g, "")) === undefined)
        return [{ text: printed, start, end: start + printed.length }]
    }
    return []
  })

/** Tax ids in a text, in order of appearance. */
export const taxIds = (text: string): Array<Match> =>
  dedupe([...TAX_PATTERNS.flatMap(([re, accept]) => all(re, text, accept)), ...spacedVatIds(text)])

/** Whether nine figures are a Portuguese NIF: a person's or a company's first figure, and the VAT check. */
const nifPt = (digits: string): boolean =>
  /^[125689]/.test(digits) && Checks.identifier("vat", `PT${digits}`) === undefined

// National tax ids printed with no country prefix, taken only after their label (figures alone are as often a phone
// or an order's number): Italy's partita IVA (`P.IVA 01234567890`) and a person's codice fiscale
// (`RSSMRA85T10A562S`), France's SIRET and SIREN (`SIRET 123 456 789 00012`), Portugal's NIF (`NIF 501234567`), each
// with its check figure; Germany's Steuernummer (`12/345/67890`).
const NATIONAL_TAX_PATTERNS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => boolean]> = [
  [/(?<![\d/])\d{11}(?![\d/])/g, (m) => Checks.identifier("vat", `IT${m[0]}`) === undefined],
  [
    /(?<!\d)(?<!\d )\d{3} ?\d{3} ?\d{3}(?: ?\d{5})?(?!\d)(?! \d)/g,
    (m) => [9, 14].includes(m[0].replace(/ /g, "").length) && Checks.luhn(m[0].replace(/ /g, ""))
  ],
  [/(?<!\d)\d{9}(?!\d)/g, (m) => nifPt(m[0])],
  [/(?<![\d/])\d{2,3}\/\d{3}\/\d{4,5}(?![\d/])/g, () => true],
  [/(?<![A-Za-z0-9])[A-Z]{6}\d{2}[A-EHLMPRST]\d{2}[A-Z]\d{3}[A-Z](?![A-Za-z0-9])/g, (m) => codiceFiscale(m[0])]
]

// The values of a codice fiscale's characters in its odd places (first, third…), for its check letter.
const CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]

/** Whether sixteen characters are an Italian codice fiscale (a person's): its check letter verified. */
const codiceFiscale = (code: string): boolean => {
  const value = (c: string) => (/\d/.test(c) ? Number(c) : c.charCodeAt(0) - 65)
  let sum = 0
  for (let i = 0; i < 15; i++) sum += i % 2 === 0 ? (CF_ODD[value(code[i] ?? "")] ?? 0) : value(code[i] ?? "")
  return String.fromCharCode(65 + (sum % 26)) === code[15]
}

/** Tax ids after their label: with a country's prefix or pattern (`taxIds`), or a national one printed without. */
export const labelledTaxIds = (text: string): Array<Match> =>
  dedupe([...taxIds(text), ...NATIONAL_TAX_PATTERNS.flatMap(([re, accept]) => all(re, text, accept))])

/**
 * Document numbers in a text: words with digits (and letters, `-`, `/`, `.`), not dates, times, amounts with
 * decimals. A code may follow its label's colon with no space (`FS n.º:78/562057`), not a figure's (`19:28`).
 */
export const codes = (text: string): Array<Match> => {
  const inDates = [...dates(text), ...amounts(text).filter((a) => a.decimals)]
  return all(/(?<![\p{L}\p{N}])(?<!\d:)[\p{L}\p{N}][\p{L}\p{N}\-/._]*(?<![-/._])/gu, text)
    .filter((m) => /\d/.test(m.text) && !/^:\d/.test(text.slice(m.end)))
    .filter((m) => !inDates.some((d) => m.start < d.end && m.end > d.start))
}

/** Point-of-sale and number pairs, `0001-00012345` or `0003 - 00003435` (Argentine invoices and the like). */
export const pointOfSaleNumbers = (text: string): Array<Match> => all(/(?<!\d)\d{4,5}\s*-\s*\d{8}(?!\d)/g, text)

/** E-mail addresses in a text. */
export const emails = (text: string): Array<Match> =>
  all(/(?<![\p{L}\d._%+-])[\p{L}\d._%+-]+@[\p{L}\d-]+(?:\.[\p{L}\d-]+)*\.\p{L}{2,}(?![\p{L}\d])/gu, text)

/**
 * Phone numbers in a text: seven figures or more, maybe after `+`, grouped by single spaces, dots, hyphens, slashes
 * or brackets (`0113 496 0000`, `+34 912 345 678`, `(03) 1234-5678`, `030/1234567`); no date nor amount.
 */
export const phones = (text: string): Array<Match> =>
  all(/(?<![\p{L}\d.,])\+?(?:\(\d+\)\s?)?\d+(?:(?:[ .-]|\/(?! ))\(?\d+\)?)+(?![\p{L}\d]|[.,]\d)/gu, text).filter(
    (m) => (m.text.match(/\d/g) ?? []).length >= 7 && dates(m.text).length === 0 && !/[.,]\d{2}$/.test(m.text)
  )
