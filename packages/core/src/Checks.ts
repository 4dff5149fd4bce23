/**
 * Checks a value must pass to be believed, as pure functions: tax identifiers with their check digits (Argentina,
 * Spain, Mexico, Chile, Colombia, Peru, EU VAT numbers), IBANs, dates plausible for a business document, and the
 * document's own arithmetic (quantity × unit price, lines against the subtotal, subtotal + taxes − discounts
 * against the total). A skill field names its check with `validate`; fields whose name, aliases or description say
 * what they hold get one by default (`checkFor`).
 */
import { Schema } from "effect"
import { wordsOf } from "./internal/fieldWords.js"
import * as TaxIds from "./internal/taxIds.js"

/** The identifier checks a field may name. */
export const IDENTIFIERS = ["cuit", "nif", "nie", "cif", "rfc", "rut", "nit", "ruc", "vat", "iban"] as const

/** One of `IDENTIFIERS`. */
export type Identifier = (typeof IDENTIFIERS)[number]

/** Why a check failed: the identifier's shape, its check character, an implausible date, or sums that differ. */
export type Failure = "format" | "checksum" | "future" | "too_old" | "mismatch"

/** `undefined` when the value passes, else why not. */
export type Verdict = Failure | undefined

/** Whether a string names an identifier check. */
export const isIdentifier = (name: string): name is Identifier => (IDENTIFIERS as ReadonlyArray<string>).includes(name)

/** IBAN lengths by country (SWIFT's IBAN registry), as country code and length. */
const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  [
    "AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DK18 DO28 EE20",
    "EG29 ES24 FI18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30",
    "KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 MC27 MD24 ME22 MK19 MR27 MT31 MU30 NL18 NO15 PK24 PL28",
    "PS29 PT25 QA29 RO24 RS22 SA24 SC31 SE24 SI19 SK24 SM27 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24",
    "XK20"
  ]
    .join(" ")
    .split(" ")
    .map((entry) => [entry.slice(0, 2), Number(entry.slice(2))] as const)
)

/** An IBAN: its country's length and ISO 13616's MOD 97-10 (the remainder of the rearranged number is 1). */
export const iban = (literal: string): Verdict => {
  const id = TaxIds.compact(literal)
  const length = IBAN_LENGTHS.get(id.slice(0, 2))
  if (length === undefined || id.length !== length || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(id)) return "format"
  return TaxIds.mod97(id.slice(4) + id.slice(0, 4)) === 1 ? undefined : "checksum"
}

const IDENTIFIER_CHECKS: Readonly<Record<Identifier, (literal: string) => Verdict>> = {
  cuit: TaxIds.cuit,
  nif: TaxIds.nifAny,
  nie: TaxIds.nie,
  cif: TaxIds.cif,
  rfc: TaxIds.rfc,
  rut: TaxIds.rut,
  nit: TaxIds.nit,
  ruc: TaxIds.ruc,
  vat: TaxIds.vat,
  iban
}

/** Checks an identifier as printed (separators and spaces allowed) against its scheme. */
export const identifier = (kind: Identifier, literal: string): Verdict => IDENTIFIER_CHECKS[kind](literal)

/** Whether a string of digits passes the Luhn check (France's SIREN and SIRET, Italy's partita IVA). */
export const luhn = (digits: string): boolean => /^\d+$/.test(digits) && TaxIds.luhn(digits)

// The words that name each identifier in a field's name, aliases or description (folded: lower case, no marks).
const IDENTIFIER_WORDS: ReadonlyArray<readonly [Identifier, RegExp]> = [
  ["cuit", /\b(cuit|cuil)\b/],
  ["nie", /\bnie\b/],
  ["cif", /\bcif\b/],
  ["nif", /\bnif\b/],
  ["rfc", /\brfc\b/],
  ["rut", /\b(rut|run)\b/],
  ["nit", /\bnit\b/],
  ["ruc", /\bruc\b/],
  ["iban", /\biban\b/],
  ["vat", /\b(vat|intra ?community|tva intracom\w*|ust ?id\w*|partita iva|btw ?(id|nummer))\b/]
]

/**
 * The identifier check a field gets by default: the first identifier named by its name, then its aliases, then its
 * description (e.g. `cuit_emisor`, alias `CUIT`, "NIF del proveedor"). `undefined` when none is named.
 */
export const checkFor = (field: {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly description: string
}): Identifier | undefined => {
  for (const folded of wordsOf(field)) {
    const found = IDENTIFIER_WORDS.find(([, words]) => words.test(folded))
    if (found !== undefined) return found[0]
  }
  return undefined
}

/**
 * The identifier check a field's value must pass: the one it names with `validate`, none when it says `none`, else
 * the one its name, aliases or description name (`checkFor`). Only text and number fields carry identifiers.
 */
export const checkOf = (field: {
  readonly name: string
  readonly type: string
  readonly aliases: ReadonlyArray<string>
  readonly description: string
  readonly validate?: Identifier | "none" | undefined
}): Identifier | undefined => {
  if (field.validate === "none") return undefined
  if (field.validate !== undefined) return field.validate
  return field.type === "string" || field.type === "integer" ? checkFor(field) : undefined
}

/** What makes a business document's date plausible. */
export interface DateBounds {
  /** Today, as `YYYY-MM-DD`. */
  readonly today: string
  /** Dates before this (`YYYY-MM-DD`) are refused as `too_old`. Default `DEFAULT_DATE_FLOOR`. */
  readonly floor?: string | undefined
  /** Days after `today` a date may still fall (due and expiry dates are ahead). Default 366. */
  readonly daysAhead?: number | undefined
}

/** The default floor of plausible dates. */
export const DEFAULT_DATE_FLOOR = "1990-01-01"

/** A date floor as configured: `YYYY-MM-DD`, a real calendar day. */
export const DateFloor = Schema.String.check(
  Schema.makeFilter((s: string) => {
    const day = Date.parse(`${s}T00:00:00Z`)
    return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(day) && new Date(day).toISOString().slice(0, 10) === s
      ? undefined
      : "a date as YYYY-MM-DD"
  })
)

const DAY_MS = 86_400_000

/** Whether an ISO date (`YYYY-MM-DD`) is plausible on a business document: not years ahead, not before the floor. */
export const plausibleDate = (iso: string, bounds: DateBounds): Verdict => {
  const date = Date.parse(`${iso.slice(0, 10)}T00:00:00Z`)
  const today = Date.parse(`${bounds.today.slice(0, 10)}T00:00:00Z`)
  if (Number.isNaN(date) || Number.isNaN(today)) return "format"
  if (iso.slice(0, 10) < (bounds.floor ?? DEFAULT_DATE_FLOOR)) return "too_old"
  return date - today > (bounds.daysAhead ?? 366) * DAY_MS ? "future" : undefined
}

/** Amounts are printed rounded to cents: two printed figures may differ by half a cent each. */
const CENT = 0.01

const near = (a: number, b: number, tolerance: number) => Math.abs(a - b) <= tolerance + 1e-9

/** quantity × unit price = line total, within a cent (the line total is rounded once). */
export const lineTotal = (line: {
  readonly quantity: number
  readonly unitPrice: number
  readonly total: number
}): Verdict => (near(line.quantity * line.unitPrice, line.total, CENT) ? undefined : "mismatch")

/** The line totals add up to the subtotal, within a cent per line. */
export const linesSum = (lineTotals: ReadonlyArray<number>, subtotal: number): Verdict =>
  near(
    lineTotals.reduce((s, t) => s + t, 0),
    subtotal,
    CENT * Math.max(1, lineTotals.length)
  )
    ? undefined
    : "mismatch"

/** The totals block: subtotal + taxes − discounts = total, within a cent per figure added. */
export const totals = (block: {
  readonly subtotal: number
  readonly taxes: ReadonlyArray<number>
  readonly discounts: ReadonlyArray<number>
  readonly total: number
}): Verdict => {
  const sum =
    block.subtotal + block.taxes.reduce((s, t) => s + t, 0) - block.discounts.reduce((s, d) => s + Math.abs(d), 0)
  return near(sum, block.total, CENT * (1 + block.taxes.length + block.discounts.length)) ? undefined : "mismatch"
}
