/**
 * The document's currency, as an ISO 4217 code (`EUR`): printed after a currency label (`Moneda: EUR`, `Currency:
 * USD`), else the one the document's amounts are printed with (`54,45 €`, `RM 12.50`, `SUMME EUR 12,34`) where they
 * show a single one. Only marks that name one currency count: a bare `$` is a dozen currencies' sign, `kr` three's
 * and `Rs.` several's (no value from them alone).
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
  return printed.length === 1 && printed[0] !== undefined ? found(printed[0], "layout") : null
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
