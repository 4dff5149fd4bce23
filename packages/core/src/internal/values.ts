/**
 * Typed values: a field's `literal` as printed → its `parsed` value (spec 2.5.1), with Spanish and English
 * conventions for numbers, dates and booleans. Pure; an unparseable literal gives `null` and nothing throws.
 */
import type { Parsed, SimpleType } from "../Field.js"
import * as Months from "../Months.js"

/** The order of a numeric date whose first two parts could each be the day or the month. */
export type DateOrder = "dmy" | "mdy"

/** How to read ambiguous literals. */
export interface ParseOptions {
  /** `12/03/2024` is 12 March (`dmy`, the default) or 3 December (`mdy`). */
  readonly dateOrder?: DateOrder
  /**
   * The decimal separator to assume when a single `.` or `,` is followed by exactly three digits (`1.234`,
   * `1,234`). Unset (the default), such a separator is a thousands separator in both conventions.
   */
  readonly decimalSeparator?: "." | ","
  /** Two-digit years below this are 20xx, the others 19xx (default 70: `24` → 2024, `85` → 1985). */
  readonly twoDigitYearPivot?: number
}

/** The parsed value of `literal` read as `type`, or `null` when it cannot be read as one. */
export const parse = (type: SimpleType, literal: string, options: ParseOptions = {}): Parsed => {
  switch (type) {
    case "string":
      return parseString(literal)
    case "integer": {
      const n = parseNumber(literal, options)
      return n !== null && Number.isSafeInteger(n) ? n : null
    }
    case "float":
      return parseNumber(literal, options)
    case "date":
      return parseDate(literal, options)
    case "boolean":
      return parseBoolean(literal)
  }
}

// Zero-width characters and byte-order marks that OCR and copy-paste leave in text.
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]|\uFE0F/g

/** Lower case, compatibility-decomposed, without accents or invisible characters. */
const fold = (s: string): string => s.normalize("NFKD").replace(/\p{M}/gu, "").replace(INVISIBLE, "").toLowerCase()

/** The literal trimmed, with every run of whitespace collapsed to one space; `null` when nothing is left. */
export const parseString = (literal: string): string | null => {
  const s = literal.replace(INVISIBLE, "").replace(/\s+/gu, " ").trim()
  return s.length === 0 ? null : s
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers

// Words that name a currency (folded: no accents, lower case); removed around an amount.
const CURRENCY_WORDS = new Set(
  [
    "usd eur mxn ars clp cop pen uyu gbp myr rm mn euro euros peso pesos dolar dolares dollar dollars ringgit",
    "chf sfr fr pln zl sek nok dkk kr inr rs brl sgd aud cad nzd jpy cny czk huf",
    "hkd twd krw php thb idr try zar aed sar ils rub uah ron bgn isk"
  ]
    .join(" ")
    .split(" ")
)

// Units a quantity is printed with (`2 Stk`, `1,5 h`, `10 m²`, `3 pcs`, `0,5 kg`), folded; removed after a number.
const UNIT_WORDS = new Set(
  [
    "stk st stuck stuks pcs pc pce pces pz pzs ud uds un und unid u unidades piezas units unit ea each x",
    "h hrs hr std uur ore heures horas kg g gr l lt ml m cm mm km",
    // India's `Nos` (numbers), and pounds and ounces
    "nos lb lbs oz"
  ]
    .join(" ")
    .split(" ")
)

const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g

const digitsOnly = /^\d+$/

/**
 * Whether `groups` (the integer part split at thousands separators) is a valid grouping: a first group of 1–3
 * digits then groups of 3 (`1.234.567`), or the Indian 2-2-3 form (`1,23,45,678`).
 */
const validGrouping = (groups: ReadonlyArray<string>): boolean => {
  const [first, ...rest] = groups
  if (first === undefined || first.length < 1 || first.length > 3 || !digitsOnly.test(first)) return false
  if (rest.every((g) => g.length === 3 && digitsOnly.test(g))) return true
  const last = rest[rest.length - 1]
  return (
    last !== undefined &&
    last.length === 3 &&
    first.length <= 2 &&
    rest.slice(0, -1).every((g) => g.length === 2 && digitsOnly.test(g)) &&
    digitsOnly.test(last)
  )
}

/** The unsigned value of a bare numeral with separators (`1.234,56`, `1 234.5`, `,5`), or `null`. */
const readNumeral = (core: string, options: ParseOptions): number | null => {
  if (!/^(?:\d[\d., '’]*\d|\d|[.,]\d+)$/.test(core)) return null
  const marks = core.replace(/\d/g, "")
  // Spaces and apostrophes only ever group thousands (`1 234`, Swiss `1'234`).
  const decimalCandidates = [...marks].filter((c) => c === "." || c === ",")
  const hasDot = decimalCandidates.includes(".")
  const hasComma = decimalCandidates.includes(",")
  let decimal: "." | "," | null = null
  if (hasDot && hasComma) {
    // Both appear: the last one is the decimal separator and must appear once.
    decimal = core.lastIndexOf(".") > core.lastIndexOf(",") ? "." : ","
    if (decimalCandidates.filter((c) => c === decimal).length !== 1) return null
  } else if (hasDot || hasComma) {
    const sep = hasDot ? "." : ","
    const count = decimalCandidates.length
    if (count === 1) {
      const [before = "", after = ""] = core.split(sep)
      // The ambiguous `1.234` / `1,234`: three digits after a lone separator group thousands when the whole
      // integer part groups validly with them, unless it is `0` (`0,125`: no numeral starts a group with 0) or
      // the caller named this separator as the decimal one. `1234.567` cannot be grouped, so it is decimal.
      const thousands =
        after.length === 3 &&
        before.replace(/[ '’]/g, "") !== "0" &&
        validGrouping([...before.split(/[ '’]/), after]) &&
        options.decimalSeparator !== sep
      decimal = thousands ? null : sep
    }
    // Repeated (`1.234.567`): thousands.
  }
  const decimalAt = decimal === null ? -1 : core.lastIndexOf(decimal)
  const integerPart = decimalAt === -1 ? core : core.slice(0, decimalAt)
  const fraction = decimalAt === -1 ? "" : core.slice(decimalAt + 1)
  if (!/^\d*$/.test(fraction) || (decimal !== null && fraction.length === 0)) return null
  let intDigits = "0"
  if (integerPart.length > 0) {
    const groups = integerPart.split(/[., '’]/)
    if (groups.length > 1 && !validGrouping(groups)) return null
    // Mixed thousands marks (`1.234 567`) are not a numeral.
    if (new Set(integerPart.replace(/\d/g, "")).size > 1) return null
    intDigits = groups.join("")
  }
  const value = Number(`${intDigits}.${fraction.length > 0 ? fraction : "0"}`)
  return Number.isFinite(value) ? value : null
}

/**
 * A number in Spanish or English writing: `1.234,56`, `1,234.56`, `1234.56`, `1234,56`, `1 234,56`; signs as
 * `-12,50`, `(12.50)`, `12,50-`; currency symbols and codes (`€`, `$`, `US$`, `USD`, `EUR`, `CHF`, `pesos`…)
 * and `%` are ignored (`21 %` → 21), and so is a quantity's unit (`2 Stk`, `1,5 h`, `10 m²`, `3 pcs`). A single separator followed by exactly three digits groups thousands
 * (`1.234` → 1234) unless `options.decimalSeparator` names it. `null` when anything else is left.
 */
export const parseNumber = (literal: string, options: ParseOptions = {}): number | null => {
  let s = fold(literal).replace(DASHES, "-").replace(/\s+/g, " ").trim()
  if (s.length === 0 || s.length > 100) return null
  // `M.N.` (moneda nacional), `Fr.` and `Rs.` are spelt with dots, so they go before the words are checked one by one.
  // A dollar's country letters glued to its sign (`S$`, `A$`, `R$`, `NZ$`, `HK$`) go with it, and every currency sign
  // (`₹`, `₱`, `₩`, `₺`, `฿`…) as the euro's does.
  s = s.replace(/u\$s|\b(?:us|s|a|c|r|nz|hk|nt|mx)\$|\bm\.\s?n\.?|\b(?:s?fr|rs|kr)\.(?=\s?\d)|[\p{Sc}%]/gu, " ")
  // A unit after the number (`2 Stk`, `10 m²`, folded `10 m2`); a currency or a unit, never both.
  s = s.replace(/(?<=\d\s?)(?:m|cm|km)[23](?![\p{L}\d])/u, " m")
  let unknownWord = false
  const found = { currency: false, unit: false }
  s = s.replace(/\p{L}+/gu, (word) => {
    if (CURRENCY_WORDS.has(word)) found.currency = true
    else if (UNIT_WORDS.has(word)) found.unit = true
    else unknownWord = true
    return " "
  })
  if (found.currency && found.unit) return null
  if (unknownWord) return null
  s = s.trim()
  let negative = false
  if (s.startsWith("(") && s.endsWith(")")) {
    negative = true
    s = s.slice(1, -1).trim()
  }
  if (s.startsWith("-")) {
    negative = !negative
    s = s.slice(1).trim()
  } else if (s.startsWith("+")) {
    s = s.slice(1).trim()
  } else if (s.endsWith("-")) {
    negative = !negative
    s = s.slice(0, -1).trim()
  }
  const value = readNumeral(s, options)
  if (value === null) return null
  // Never `-0`: it would compare unequal to 0 in tests and reads oddly in JSON consumers.
  return value === 0 ? 0 : negative ? -value : value
}

// ---------------------------------------------------------------------------------------------------------------
// Dates

// Words a written date may carry that say nothing about it: fillers and weekdays (`mar` is March, not martes).
const IGNORED_WORDS = new Set(
  [
    "de del of the el am pm hs hrs h den der le du di van do da em",
    "lunes martes miercoles jueves viernes sabado domingo lun mie jue vie sab dom",
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun",
    "montag dienstag mittwoch donnerstag freitag samstag sonntag",
    "lundi mardi mercredi jeudi vendredi samedi dimanche",
    "lunedi martedi mercoledi giovedi venerdi sabato domenica",
    "segunda terca quarta quinta sexta feira",
    "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag"
  ]
    .join(" ")
    .split(" ")
)

const ORDINAL = /^(\d{1,2})(?:st|nd|rd|th|o|ro|er|do|to|vo|no|a)$/

const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0

const daysIn = (y: number, m: number): number =>
  m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/** `YYYY-MM-DD` when `y`, `m`, `d` form a real calendar date (years 1000–9999), else `null`. */
const isoDate = (y: number, m: number, d: number): string | null =>
  Number.isInteger(y) && y >= 1000 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
    ? `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`
    : null

/** A year token: four digits as is; two digits through the pivot; anything else `null`. */
const yearOf = (token: string, options: ParseOptions): number | null => {
  if (!digitsOnly.test(token)) return null
  if (token.length === 4) return Number(token)
  if (token.length !== 2) return null
  const yy = Number(token)
  return yy < (options.twoDigitYearPivot ?? 70) ? 2000 + yy : 1900 + yy
}

const dayOrMonth = (token: string): number | null =>
  digitsOnly.test(token) && token.length <= 2 ? Number(token) : null

type DateToken = { readonly kind: "number"; readonly text: string } | { readonly kind: "month"; readonly month: number }

/** The meaningful tokens of a written date (numbers and month names), or `null` on any other word. */
const dateTokens = (s: string): ReadonlyArray<DateToken> | null => {
  const tokens: Array<DateToken> = []
  // An apostrophe may stand for a year's century (`5 Mar '24`).
  for (const raw of s.split(/[\s/\-.,'’]+/)) {
    if (raw.length === 0 || IGNORED_WORDS.has(raw)) continue
    // A time of day after the date (`14:35`, `14:35:00`) is not part of it.
    if (/^\d{1,2}:\d{2}(?::\d{2})?$/.test(raw)) continue
    if (digitsOnly.test(raw)) {
      tokens.push({ kind: "number", text: raw })
      continue
    }
    const ordinal = ORDINAL.exec(raw)
    if (ordinal?.[1] !== undefined) {
      tokens.push({ kind: "number", text: ordinal[1] })
      continue
    }
    const month = Months.monthOf(raw)
    if (month === undefined) return null
    tokens.push({ kind: "month", month })
  }
  return tokens
}

/**
 * A date as `YYYY-MM-DD`: numeric (`12/03/2024`, `12-03-2024`, `12.03.2024`, `12/03/24`, `2024-03-12`,
 * `20240312`) day-first unless `options.dateOrder` is `mdy` — when only the other order gives a real date
 * (`03/25/2024`), that one is taken — or written (`12 de marzo de 2024`, `12 marzo 2024`, `marzo 12, 2024`,
 * `March 12th, 2024`, `12 Mar 2024`, `12-MAR-2024`, `1. März 2024`, `29 maart 2014`, `le 3 août 2024`: month names
 * in es, en, de, fr, it, pt and nl; weekdays and a trailing time ignored). Spaces around the separators
 * (`08 / 02 / 23`) are allowed. Only real calendar dates.
 */
export const parseDate = (literal: string, options: ParseOptions = {}): string | null => {
  const s = fold(literal).replace(DASHES, "-").trim()
  if (s.length === 0 || s.length > 80) return null
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[t\s].*)?$/.exec(s)
  if (iso !== null) return isoDate(Number(iso[1]), Number(iso[2]), Number(iso[3]))
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(s)
  if (compact !== null) {
    const y = Number(compact[1])
    return y >= 1900 && y <= 2100 ? isoDate(y, Number(compact[2]), Number(compact[3])) : null
  }
  const tokens = dateTokens(s)
  if (tokens === null || tokens.length !== 3) return null
  const [a, b, c] = tokens as readonly [DateToken, DateToken, DateToken]
  if (a.kind === "number" && b.kind === "month" && c.kind === "number") {
    // `12 mar 2024`, or year first: `2024 mar 12`.
    if (a.text.length === 4) {
      const d = dayOrMonth(c.text)
      return d === null ? null : isoDate(Number(a.text), b.month, d)
    }
    const d = dayOrMonth(a.text)
    const y = yearOf(c.text, options)
    return d === null || y === null ? null : isoDate(y, b.month, d)
  }
  if (a.kind === "month" && b.kind === "number" && c.kind === "number") {
    const d = dayOrMonth(b.text)
    const y = yearOf(c.text, options)
    return d === null || y === null ? null : isoDate(y, a.month, d)
  }
  if (a.kind === "number" && b.kind === "number" && c.kind === "number") {
    if (a.text.length === 4) {
      const m = dayOrMonth(b.text)
      const d = dayOrMonth(c.text)
      return m === null || d === null ? null : isoDate(Number(a.text), m, d)
    }
    const first = dayOrMonth(a.text)
    const second = dayOrMonth(b.text)
    const y = yearOf(c.text, options)
    if (first === null || second === null || y === null) return null
    const dayFirst = isoDate(y, second, first)
    const monthFirst = isoDate(y, first, second)
    return options.dateOrder === "mdy" ? (monthFirst ?? dayFirst) : (dayFirst ?? monthFirst)
  }
  return null
}

/**
 * The decimal separator a document's amounts use: the mark most often followed by exactly two digits at a number's
 * end (`12,50`, `1.234,56`: a comma), or undefined with no amount to tell. With it a weighed quantity or a litre's
 * price with three decimals (`0,856 kg`, `1,659 €/L`) reads as a fraction, not thousands.
 */
export const decimalSeparatorOf = (text: string): "." | "," | undefined => {
  const commas = text.match(/\d,\d{2}(?![\d.,]?\d)/g)?.length ?? 0
  const dots = text.match(/\d\.\d{2}(?![\d.,]?\d)/g)?.length ?? 0
  return commas > dots ? "," : dots > commas ? "." : undefined
}

/**
 * The order a document writes its numeric dates in, from its own text: a date whose first part is 13–31 (and
 * second 1–12) is day-first evidence, one whose second part is 13–31 month-first (`07.28.18`); with no such date,
 * written dates give the language's habit (`July 5, 2018` month first, `5 July 2018` or `5 de julio` day first);
 * with neither, an address in the United States (a state's code and its ZIP after a town: `Dayton, OH 45402`) says
 * month first, as the country writes dates. The side with more evidence wins; `undefined` when none (or a tie): then
 * the caller's default holds.
 */
export const dateOrderOf = (text: string): DateOrder | undefined => {
  const s = fold(text).replace(DASHES, "-")
  let dmy = 0
  let mdy = 0
  for (const m of s.matchAll(/(?<![\d.,/-])(\d{1,2}) ?([/.-]) ?(\d{1,2}) ?\2 ?(?:\d{4}|\d{2})(?![\d/]|[.,-]\d)/g)) {
    const first = Number(m[1])
    const second = Number(m[3])
    if (first > 12 && first <= 31 && second >= 1 && second <= 12) dmy += 1
    if (second > 12 && second <= 31 && first >= 1 && first <= 12) mdy += 1
  }
  if (dmy !== mdy) return dmy > mdy ? "dmy" : "mdy"
  let named = 0
  const written =
    /(?<![\p{L}\d])(?:(\d{1,2})(?:st|nd|rd|th|er|o)?\.?(?: de| of)? (\p{L}+)\.?,? (?:de |del )?|(\p{L}+)\.? (\d{1,2})(?:st|nd|rd|th)?,? )\d{4}(?!\d)/gu
  for (const m of s.matchAll(written)) {
    if (m[2] !== undefined && Months.monthOf(m[2]) !== undefined) named -= 1
    if (m[3] !== undefined && Months.monthOf(m[3]) !== undefined) named += 1
  }
  return named > 0 ? "mdy" : named < 0 ? "dmy" : US_ADDRESS.test(text) ? "mdy" : undefined
}

const US_STATES =
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY"
// A town, a comma, a state's code and its ZIP (five figures, maybe four more): `Dayton, OH 45402`, `Austin, TX
// 78701-1234`.
const US_ADDRESS = new RegExp(`\\p{L},\\s?(?:${US_STATES.split(" ").join("|")})\\s\\d{5}(?:-\\d{4})?(?![\\d-])`, "u")

// ---------------------------------------------------------------------------------------------------------------
// Booleans

// Yes and no in es, en, de, fr, it, pt and nl (`ja`, `oui`, `sim`, `wahr`, `vrai`, `vero`; `nein`, `non`, `não`,
// `nee`, `falsch`, `faux`), and the marks of a ticked or an empty box.
const TRUE_WORDS = new Set(
  "si s yes y true t verdadero v cierto x [x] (x) ✓ ✔ ☑ ☒ ✅ 1 on checked marcado ja j wahr oui vrai vero sim verdadeiro waar".split(
    " "
  )
)

const FALSE_WORDS = new Set("no n false f falso ☐ [] () 0 off unchecked nein falsch non faux nao nee onwaar".split(" "))

/**
 * A yes/no as written: `sí`/`si`/`yes`/`true`/`verdadero`/`ja`/`oui`/`sim`/`x`/`[x]`/`✓`/`☑`… or
 * `no`/`false`/`falso`/`nein`/`non`/`não`/`nee`/`☐`/`[ ]`…
 */
export const parseBoolean = (literal: string): boolean | null => {
  const s = fold(literal)
    .trim()
    .replace(/[.!]+$/, "")
    .replace(/\s+/g, "")
  if (TRUE_WORDS.has(s)) return true
  if (FALSE_WORDS.has(s)) return false
  return null
}
