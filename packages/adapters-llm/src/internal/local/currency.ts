/**
 * The document's currency, as an ISO 4217 code (`EUR`): printed after a currency label (`Moneda: EUR`, `Currency:
 * USD`), else the one the document's amounts are printed with (`54,45 €`, `RM 12.50`, `SUMME EUR 12,34`) where they
 * show a single one. Only marks that name one currency count: a bare `$` is a dozen currencies' sign, `kr` three's
 * and `Rs.` several's (no value from them alone; `Rs.` with the one rupee country the document names, that one's).
 * Where the amounts print no mark, the total written out in words may name it (`… PESOS 00/100 M.N.`).
 */
import { type Found, found } from "./evidence.js"
import { conceptOf, findLabels, nameWords, type Target } from "./labels.js"
import type { Layout, Row } from "./layout.js"
import { amounts } from "./patterns.js"
import { phraseTokens } from "./text.js"
import { CURRENCY_CODES, CURRENCY_LABELS } from "./vocabulary.js"

// The signs and names that stand for one currency only, and the ISO codes printed as such (a code of `""`: the code
// matched itself).
const SIGNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/€/gu, "EUR"],
  [/£/gu, "GBP"],
  [/₹/gu, "INR"],
  [/(?<!\p{L})us\$/gu, "USD"],
  [/(?<!\p{L})r\$/gu, "BRL"],
  [/(?<!\p{L})(?:euros?)(?!\p{L})/gu, "EUR"],
  [/(?<!\p{L})(?:zł|zl)(?!\p{L})/gu, "PLN"],
  [/(?<!\p{L})kč(?!\p{L})/gu, "CZK"],
  [/(?<!\p{L})rm(?=\s?\d)/gu, "MYR"],
  // Peru's sol before its amount (`S/ 1,234.56`; `S/N`, a street without number, is followed by no figure).
  [/(?<!\p{L})s\/(?=\s*\d)/gu, "PEN"],
  [/(?<!\p{L})(?:sfr|fr)\.(?=\s?\d)/gu, "CHF"],
  [new RegExp(`(?<!\\p{L})(?:${CURRENCY_CODES.join("|")})(?!\\p{L})`, "gu"), ""]
]

/** The currencies a text names, as ISO codes, in no particular order. */
const currenciesIn = (text: string): ReadonlySet<string> => {
  const lower = text.toLowerCase()
  const out = new Set<string>()
  for (const [pattern, code] of SIGNS) for (const m of lower.matchAll(pattern)) out.add(code || m[0].toUpperCase())
  return out
}

/** The currencies printed on the rows that print amounts, counted once per row. */
const amountCurrencies = (rows: ReadonlyArray<Row>): ReadonlySet<string> =>
  new Set(rows.filter((row) => amounts(row.text).some((a) => a.decimals)).flatMap((row) => [...currenciesIn(row.text)]))

const LABELS = CURRENCY_LABELS.map((phrase) => ({ tokens: phraseTokens(phrase), strength: 1 }))

/**
 * The currency a field asks for and the rules' certainty of it, or null: after its label, else the single one the
 * amounts are printed with (two: no value).
 */
export const currency = (layout: Layout, target: Target): Found | null => {
  const own = target.aliases.map((a) => ({ tokens: phraseTokens(a), strength: 1 }))
  for (const hit of findLabels(
    layout,
    [...own, ...LABELS].filter((l) => l.tokens.length > 0)
  )) {
    const named = [...currenciesIn(hit.row.text.slice(hit.end, hit.end + 16))]
    if (named.length === 1 && named[0] !== undefined) return found(named[0], hit.exact ? "exactLabel" : "label")
  }
  const printed = [...amountCurrencies(layout.rows)]
  if (printed.length === 1 && printed[0] !== undefined) return found(printed[0], "layout")
  const unmarked = printed.length === 0 ? (rupeeOf(layout.rows) ?? inWords(layout.rows)) : undefined
  return unmarked === undefined ? null : found(unmarked, "layout")
}

// The total written out in words ends in its cents over a hundred and the currency's name: `SON: MIL CIENTO SESENTA
// PESOS 00/100 M.N.`. Names that one currency alone bears; `pesos` and `dólares` are many countries', but Mexico's
// `M.N.` (moneda nacional) after the cents is its own.
const IN_WORDS = /\d{2}\s?\/\s?100(?!\d)/u
const WORD_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\d{2}\s?\/\s?100\s*(?:m\.\s?n\.?|mn)(?!\p{L})/iu, "MXN"],
  [/(?<!\p{L})(?:nuevos\s)?soles(?!\p{L})/iu, "PEN"],
  [/(?<!\p{L})quetzal(?:es)?(?!\p{L})/iu, "GTQ"],
  [/(?<!\p{L})lempiras?(?!\p{L})/iu, "HNL"],
  [/(?<!\p{L})guaran[ií]es(?!\p{L})/iu, "PYG"],
  [/(?<!\p{L})bol[ií]vares(?!\p{L})/iu, "VES"],
  [/(?<!\p{L})reais(?!\p{L})/iu, "BRL"]
]

/** The currency the total written out in words names, where its rows name one alone. */
const inWords = (rows: ReadonlyArray<Row>): string | undefined => {
  const named = new Set(
    rows
      .filter((row) => IN_WORDS.test(row.text))
      .flatMap((row) => WORD_NAMES.filter(([name]) => name.test(row.text)).map(([, code]) => code))
  )
  return named.size === 1 ? [...named][0] : undefined
}

// `Rs.` before an amount is the rupee of several countries; the country the document names says which.
const RUPEE = /(?<!\p{L})rs\.?\s?-?\d/iu
const RUPEE_COUNTRIES: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?<!\p{L})india(?!\p{L})/iu, "INR"],
  [/(?<!\p{L})pakistan(?!\p{L})/iu, "PKR"],
  [/(?<!\p{L})sri lanka(?!\p{L})/iu, "LKR"],
  [/(?<!\p{L})nepal(?!\p{L})/iu, "NPR"],
  [/(?<!\p{L})mauritius(?!\p{L})/iu, "MUR"]
]

/**
 * The rupee the amounts are printed with (`Rs -40.00`), where the document names one rupee country alone
 * (`Bangalore, Karnataka, India`): none named, or two, leave it unknown.
 */
const rupeeOf = (rows: ReadonlyArray<Row>): string | undefined => {
  if (!rows.some((row) => RUPEE.test(row.text) && amounts(row.text).some((a) => a.decimals))) return undefined
  const named = RUPEE_COUNTRIES.filter(([country]) => rows.some((row) => country.test(row.text)))
  return named.length === 1 ? named[0]?.[1] : undefined
}

const CURRENCY_WORDS = new Set(CURRENCY_LABELS.flatMap((label) => phraseTokens(label)))

/**
 * Whether a text field asks for the currency: its name or an alias says so (`moneda`, `currency_code`, `Währung`),
 * or its description does and its name stands for nothing else.
 */
export const asksForCurrency = (target: Target): boolean => {
  const says = (texts: ReadonlyArray<string>) => texts.some((t) => phraseTokens(t).some((w) => CURRENCY_WORDS.has(w)))
  return (
    target.type === "string" &&
    (says([nameWords(target.name), ...target.aliases]) || (conceptOf(target) === "none" && says([target.description])))
  )
}
