/**
 * The document's own arithmetic over a result: which numeric fields are the total, the subtotal, taxes and
 * discounts, and which list is the lines (quantity, unit price, line total), recognised by their names, aliases and
 * descriptions in the languages the service reads; then quantity × unit price = line total, lines = subtotal,
 * subtotal + taxes − discounts = total (or, without a subtotal, the lines against the total). Each value that takes
 * part gets a verdict: it adds up in some relation, or it adds up in none (with what did not hold). Pure.
 */
import * as Checks from "../Checks.js"
import type { Verdict } from "../Confidence.js"
import type { DetailedField, DetailedSimpleValue } from "../Field.js"
import type { SkillField } from "../Skill.js"
import { wordsOf } from "./fieldWords.js"

/** What a numeric field stands for in the totals block. */
export type Role = "total" | "subtotal" | "tax" | "discount"

/** What a numeric sub-field of a line stands for. */
export type LineRole = "quantity" | "unitPrice" | "lineTotal"

// Checked in this order: a "total discount" is a discount, a "total tax" a tax, a "net total" a subtotal.
const ROLE_WORDS: ReadonlyArray<readonly [Role, RegExp]> = [
  ["discount", /\b(descuentos?|discounts?|rebajas?|bonificacion(es)?|dto|rabatt|remise|sconto|korting|ahorros?)\b/],
  ["tax", /\b(iva|igic|ipsi|igv|taxe?s?|impuestos?|vat|tva|mwst|ust|btw|gst|sst)\b/],
  ["subtotal", /\b(sub ?total|base( imponible)?|neto|net|netto|zwischensumme|imponible|ht)\b/],
  ["total", /\b(total|totale|totaal|gesamt\w*|summe|importe|amount|montant|importo|bedrag|valor)\b/]
]

// A tax field that holds an identifier or a rate is no amount.
const NOT_AN_AMOUNT = /\b(id|number|no|nr|nro|numero|num|nif|cif|cuit|rfc|rate|tasa|tipo|porcentaje|percent|pct)\b|%/

const LINE_WORDS: ReadonlyArray<readonly [LineRole, RegExp]> = [
  ["quantity", /\b(cantidad|cant|qty|quantity|unidades|uds?|menge|anzahl|quantite|quantita|aantal|quantidade)\b/],
  ["unitPrice", /\b(precios?|price|unit|unitario|einzelpreis|prix|prezzo|prijs|preco|pvp)\b/],
  ["lineTotal", /\b(importe|total|amount|subtotal|betrag|montant|importo|bedrag|valor|line total)\b/]
]

const isNumeric = (field: SkillField) => field.type === "float" || field.type === "integer"

/** The role of a numeric field in the totals block, from its name, then its aliases, then its description. */
export const roleOf = (field: SkillField): Role | undefined => {
  if (!isNumeric(field) || field.isList) return undefined
  for (const text of wordsOf(field)) {
    const found = ROLE_WORDS.find(([, words]) => words.test(text))
    if (found === undefined) continue
    if (found[0] === "tax" && NOT_AN_AMOUNT.test(text)) return undefined
    return found[0]
  }
  return undefined
}

/** The role of a numeric sub-field of a line; a price that names a total ("importe total") is the line total. */
export const lineRoleOf = (field: SkillField): LineRole | undefined => {
  if (!isNumeric(field) || field.isList) return undefined
  for (const text of wordsOf(field)) {
    if (LINE_WORDS[2]?.[1].test(text) === true && !/\bunit/.test(text)) return "lineTotal"
    const found = LINE_WORDS.find(([, words]) => words.test(text))
    if (found !== undefined) return found[0]
  }
  return undefined
}

interface Figure {
  readonly id: string
  readonly name: string
  readonly literal: string
  readonly amount: number
}

const isSimple = (v: unknown): v is DetailedSimpleValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "literal" in v && "parsed" in v && "id" in v

const figureOf = (name: string, v: unknown): Figure | undefined =>
  isSimple(v) && typeof v.parsed === "number" ? { id: v.id, name, literal: v.literal, amount: v.parsed } : undefined

/** A sum as the document would print it: with the decimal comma where `like` has one. */
const printed = (amount: number, like: string) => {
  const text = (Math.round(amount * 100) / 100).toFixed(2)
  return /\d,\d{1,2}(?!\d)/.test(like) && !/\d\.\d{1,2}(?!\d)/.test(like) ? text.replace(".", ",") : text
}

type Outcome = { readonly passed: boolean; readonly message: string }

/** The verdict of each value that takes part in the document's arithmetic, by value id. */
export const verdicts = (
  skill: ReadonlyArray<SkillField>,
  fields: ReadonlyArray<DetailedField>
): ReadonlyMap<string, Verdict<"sum_mismatch">> => {
  const outcomes = new Map<string, Array<Outcome>>()
  const record = (ids: ReadonlyArray<string>, outcome: Outcome) => {
    for (const id of ids) outcomes.set(id, [...(outcomes.get(id) ?? []), outcome])
  }
  const byRole = new Map<Role, Array<Figure>>()
  const lineTotals: Array<Figure> = []
  const visit = (level: ReadonlyArray<SkillField>, values: ReadonlyArray<DetailedField>) => {
    for (const field of level) {
      const value = values.find((f) => f.name === field.name)?.value
      const role = roleOf(field)
      const figure = role === undefined ? undefined : figureOf(field.name, value)
      if (role !== undefined && figure !== undefined) byRole.set(role, [...(byRole.get(role) ?? []), figure])
      if (field.type === "object" && !field.isList && Array.isArray(value))
        visit(field.fields ?? [], value as ReadonlyArray<DetailedField>)
      if (field.type === "object" && field.isList && Array.isArray(value)) lineTotals.push(...lines(field, value))
    }
  }
  const lines = (field: SkillField, items: ReadonlyArray<unknown>): Array<Figure> => {
    const roles = new Map((field.fields ?? []).map((sub) => [lineRoleOf(sub), sub.name] as const))
    const quantityName = roles.get("quantity")
    const priceName = roles.get("unitPrice")
    const totalName = roles.get("lineTotal")
    if (totalName === undefined) return []
    const out: Array<Figure> = []
    for (const item of items) {
      if (typeof item !== "object" || item === null) continue
      const dict = item as Record<string, unknown>
      const total = figureOf(totalName, dict[totalName])
      const quantity = quantityName === undefined ? undefined : figureOf(quantityName, dict[quantityName])
      const price = priceName === undefined ? undefined : figureOf(priceName, dict[priceName])
      if (total !== undefined) out.push(total)
      if (total === undefined || quantity === undefined || price === undefined) continue
      const passed = Checks.lineTotal({ quantity: quantity.amount, unitPrice: price.amount, total: total.amount })
      record([quantity.id, price.id, total.id], {
        passed: passed === undefined,
        message: `${total.literal} ≠ ${quantity.literal} × ${price.literal}`
      })
    }
    return out
  }
  visit(skill, fields)

  const total = byRole.get("total")?.[0]
  const subtotal = byRole.get("subtotal")?.[0]
  const taxes = byRole.get("tax") ?? []
  const discounts = byRole.get("discount") ?? []
  const linesSum = lineTotals.reduce((s, f) => s + f.amount, 0)
  const plus = (figures: ReadonlyArray<Figure>) => figures.map((f) => ` + ${f.name} ${f.literal}`).join("")
  const minus = (figures: ReadonlyArray<Figure>) => figures.map((f) => ` − ${f.name} ${f.literal}`).join("")

  if (subtotal !== undefined && lineTotals.length > 0) {
    const passed = Checks.linesSum(
      lineTotals.map((f) => f.amount),
      subtotal.amount
    )
    record([subtotal.id], {
      passed: passed === undefined,
      message: `${subtotal.literal} ≠ lines ${printed(linesSum, subtotal.literal)}`
    })
  }
  if (total !== undefined && subtotal !== undefined) {
    const passed = Checks.totals({
      subtotal: subtotal.amount,
      taxes: taxes.map((f) => f.amount),
      discounts: discounts.map((f) => f.amount),
      total: total.amount
    })
    record([total.id, subtotal.id, ...taxes.map((f) => f.id), ...discounts.map((f) => f.id)], {
      passed: passed === undefined,
      message: `${total.literal} ≠ ${subtotal.name} ${subtotal.literal}${plus(taxes)}${minus(discounts)}`
    })
  }
  if (total !== undefined && subtotal === undefined && lineTotals.length > 0) {
    // Without a subtotal, the lines may carry their taxes or not: either way of adding up counts. Where the skill
    // reads no taxes, lines that fall short of the total may be before taxes the document adds: no verdict then.
    const amounts = lineTotals.map((f) => f.amount)
    const withTaxes = [...amounts, ...taxes.map((f) => f.amount), ...discounts.map((f) => -Math.abs(f.amount))]
    const passed =
      Checks.linesSum(amounts, total.amount) === undefined || Checks.linesSum(withTaxes, total.amount) === undefined
    if (passed || taxes.length > 0)
      record([total.id], {
        passed,
        message: `${total.literal} ≠ lines ${printed(linesSum, total.literal)}${plus(taxes)}${minus(discounts)}`
      })
  }

  const out = new Map<string, Verdict<"sum_mismatch">>()
  for (const [id, list] of outcomes) {
    const failed = list.find((o) => !o.passed)
    out.set(id, {
      passed: list.some((o) => o.passed),
      code: "sum_mismatch",
      message: list.some((o) => o.passed) ? "adds up" : (failed?.message ?? "")
    })
  }
  return out
}
