/**
 * The truth of one field of one document, and how an extracted value is judged against it: filled (the extractor
 * gave a value), present (the truth is printed on the document) and right. A list of line items counts lines: a
 * line is right when its description, quantity, unit price and line total all are. Pure.
 */
import type { Extractor } from "@legible/core"
import { amountRight, dateRight, documentNumber, name, printed, sameName } from "./scoring.js"

/** A receipt or invoice line as the truth has it. */
export interface Line {
  readonly description: string
  readonly quantity: number
  readonly unitPrice: number
  readonly lineTotal: number
}

/** What a field's value should stand for. */
export type Truth =
  /** `printed`: known to be on the document (SROIE's key fields), however its lines split it. */
  | { readonly kind: "name"; readonly text: string; readonly printed?: boolean }
  /** A shop's brand (`carrefour`): right when it is one of the value's words. */
  | { readonly kind: "brand"; readonly text: string }
  | { readonly kind: "digits"; readonly text: string }
  /** A code a document implies, printed or not (an ISO currency `EUR` of amounts printed with `€`). */
  | { readonly kind: "code"; readonly text: string }
  | { readonly kind: "number"; readonly accept: ReadonlyArray<string>; readonly printed?: boolean }
  /** AFIP's point of sale and number: right as `0005-00011643`, or the number alone where they are printed apart. */
  | { readonly kind: "afip"; readonly pointOfSale: number; readonly number: number }
  | { readonly kind: "date"; readonly iso: string }
  | { readonly kind: "amount"; readonly value: number }
  | { readonly kind: "items"; readonly lines: ReadonlyArray<Line> }
  /** Nothing is printed (a receipt without a number): any value is wrong. */
  | { readonly kind: "none" }

/** The counts one field of one document adds. */
export interface Judged {
  readonly filled: number
  readonly present: number
  readonly right: number
  /** Right among the present (equal to `right` unless a value is right where the truth is not printed). */
  readonly rightPresent: number
  readonly got: unknown
  readonly want: unknown
}

/** What the judge needs of the document: its text and its decimal separator. */
export interface Context {
  readonly text: string
  readonly decimal: "." | ","
}

const literal = (value: Extractor.ExtractedValue | undefined): string | undefined =>
  typeof value === "string" && value.trim() !== "" ? value : undefined

const digits = (s: string) => s.replace(/\D/g, "")

const afipJoined = (text: string, pos: number, number: number): boolean =>
  new RegExp(`0*${pos}\\s*-\\s*0*${number}(?!\\d)`).test(text)

const isPresent = (truth: Truth, reference: string): boolean => {
  switch (truth.kind) {
    case "name":
      return truth.printed === true || printed(truth.text, reference)
    case "brand":
      return printed(truth.text, reference)
    case "digits":
      return truth.text !== "" && digits(reference).includes(digits(truth.text))
    case "code":
      return truth.text !== ""
    case "number":
      return truth.printed === true || truth.accept.some((a) => printed(documentNumber(a), reference))
    case "afip":
      return truth.number > 0
    case "date":
      return truth.iso !== ""
    case "amount":
      return Number.isFinite(truth.value)
    case "items":
      return truth.lines.length > 0
    case "none":
      return false
  }
}

const rightSimple = (truth: Truth, got: string, context: Context): boolean => {
  switch (truth.kind) {
    case "name":
      return sameName(got, truth.text)
    case "brand":
      return got
        .normalize("NFC")
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .includes(name(truth.text))
    case "digits":
      return digits(got) === digits(truth.text) && digits(got) !== ""
    case "code":
      return got.trim().toUpperCase() === truth.text.toUpperCase()
    case "number":
      return truth.accept.some((a) => documentNumber(a) === documentNumber(got))
    case "afip": {
      const m = /^0*(\d+)\s*-\s*0*(\d+)$/.exec(documentNumber(got))
      if (m !== null) return Number(m[1]) === truth.pointOfSale && Number(m[2]) === truth.number
      const alone = /^\d+$/.test(documentNumber(got)) && Number(documentNumber(got)) === truth.number
      return alone && !afipJoined(context.text, truth.pointOfSale, truth.number)
    }
    case "date":
      return dateRight(got, truth.iso, context.text)
    case "amount":
      return amountRight(got, truth.value, context.decimal)
    case "items":
    case "none":
      return false
  }
}

const lineOf = (value: unknown, names: ItemNames): Record<keyof Line, string | undefined> => {
  const part = (key: string) =>
    typeof value === "object" && value !== null
      ? literal(Reflect.get(value, key) as Extractor.ExtractedValue)
      : undefined
  return {
    description: part(names.description),
    quantity: part(names.quantity),
    unitPrice: part(names.unitPrice),
    lineTotal: part(names.lineTotal)
  }
}

/** The sub-field names of a line-items field in a skill. */
export type ItemNames = Readonly<Record<keyof Line, string>>

// A single unit's line often prints only its amount: then empty quantity and unit price are right too.
const singleUnit = (got: Record<keyof Line, string | undefined>, want: Line): boolean =>
  want.quantity === 1 && want.unitPrice === want.lineTotal && got.quantity === undefined && got.unitPrice === undefined

const lineRight = (got: Record<keyof Line, string | undefined>, want: Line, context: Context): boolean =>
  got.description !== undefined &&
  name(got.description) === name(want.description) &&
  (singleUnit(got, want) ||
    (amountRight(got.quantity, want.quantity, context.decimal) &&
      amountRight(got.unitPrice, want.unitPrice, context.decimal))) &&
  amountRight(got.lineTotal, want.lineTotal, context.decimal)

/** Judges a list of line items: each extracted line matched to at most one truth line it equals. */
const judgeItems = (lines: ReadonlyArray<Line>, value: unknown, names: ItemNames, context: Context): Judged => {
  const got = (Array.isArray(value) ? value : []).map((v: unknown) => lineOf(v, names))
  const free = [...lines]
  let right = 0
  for (const line of got) {
    const at = free.findIndex((want) => lineRight(line, want, context))
    if (at >= 0) {
      right++
      free.splice(at, 1)
    }
  }
  return { filled: got.length, present: lines.length, right, rightPresent: right, got, want: lines }
}

/** Judges one field's extracted value against its truth; `reference` decides whether the truth is printed. */
export const judge = (
  truth: Truth,
  value: Extractor.ExtractedValue | undefined,
  context: Context,
  reference: string,
  names?: ItemNames
): Judged => {
  if (truth.kind === "items") return judgeItems(truth.lines, value, names ?? DEFAULT_ITEM_NAMES, context)
  const got = literal(value)
  const present = isPresent(truth, reference) ? 1 : 0
  const right = got !== undefined && rightSimple(truth, got, context) ? 1 : 0
  return {
    filled: got === undefined ? 0 : 1,
    present,
    right,
    rightPresent: right * present,
    got: value ?? null,
    want: truth
  }
}

const DEFAULT_ITEM_NAMES: ItemNames = {
  description: "description",
  quantity: "quantity",
  unitPrice: "unit_price",
  lineTotal: "line_total"
}
