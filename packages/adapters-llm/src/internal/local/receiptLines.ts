/**
 * Receipt lines: a quantity and unit price printed inside a line (`2 x 1,25`, `6 x ( 0,95 )`, `1,000 kg x 2,99
 * €/kg`, `2 UD 1,25`) or a leading count (`1 PATATAS GAJO`) split into their own sub-fields; and, on a receipt
 * with no header row, the lines themselves: rows above the first total that end in an amount, a row of only a
 * quantity and price completing the description printed on the row above it.
 */
import { conceptOf, type Target } from "./labels.js"
import type { Layout, Row } from "./layout.js"
import { amounts, dates } from "./patterns.js"
import { rowTokens } from "./phrases.js"
import { NOT_TOTAL_WORDS, TAX_WORDS, TOTAL_LABELS } from "./vocabulary.js"

/** The sub-fields a line item has, by role. */
export interface LineRoles {
  readonly description?: Target | undefined
  readonly quantity?: Target | undefined
  readonly price?: Target | undefined
  readonly amount?: Target | undefined
}

/** The roles of a list field's sub-fields, from their concepts. */
export const rolesOf = (targets: ReadonlyArray<Target>): LineRoles => {
  const by = (concept: string) => targets.find((t) => conceptOf(t) === concept)
  return { description: by("description"), quantity: by("quantity"), price: by("price"), amount: by("amount") }
}

const UNIT = "(?:kg|g|gr|l|lt|ml|ud|uds|un|und|unid|u|st|stk|pcs|pc|pz|stuks?)"
const TIMES = "(?:x|×|\\*|@)"
const PRICE = "(\\d{1,6}[.,]\\d{2})"

// `2 x 1,25`, `6 x ( 0,95 )`, `1,000 kg x 2,99 €/kg`, `2 UD 1,25`, `3 Stk x 0,99`.
const QUANTITY_PRICE = new RegExp(
  `(?<![\\p{L}\\d.,])(\\d{1,4}(?:[.,]\\d{1,3})?)\\s*(?:${UNIT}\\.?\\s*${TIMES}?|${TIMES})\\s*\\(?\\s*${PRICE}\\s*\\)?\\s*(?:€|eur|\\$)?(?:\\s*\\/\\s*${UNIT})?(?![\\d])`,
  "iu"
)

// A count opening a line: `1 PATATAS GAJO`.
const LEADING_COUNT = /^(\d{1,3})\s+(?=[+*]?\p{L}{2})/u

/** A line's text split: the description left, the quantity and unit price found in it. */
export interface Split {
  readonly description: string
  readonly quantity: string | null
  readonly price: string | null
}

/** Splits a quantity and unit price (or a leading count) out of a line's text. */
export const splitQuantity = (text: string): Split => {
  const m = QUANTITY_PRICE.exec(text)
  if (m !== null && m[1] !== undefined && m[2] !== undefined) {
    const description = `${text.slice(0, m.index)} ${text.slice(m.index + m[0].length)}`.replace(/\s+/g, " ").trim()
    return { description, quantity: m[1], price: m[2] }
  }
  const lead = LEADING_COUNT.exec(text)
  if (lead?.[1] !== undefined && Number(lead[1]) > 0)
    return { description: text.slice(lead[0].length).trim(), quantity: lead[1], price: null }
  return { description: text, quantity: null, price: null }
}

type Item = Record<string, string | null>

/**
 * Fills an item's quantity and unit price from its description when the table had no column for them; a count
 * of one makes the unit price the line amount.
 */
export const completeItem = (item: Item, roles: LineRoles): Item => {
  const { description, quantity, price, amount } = roles
  if (description === undefined || quantity === undefined) return item
  const text = item[description.name]
  if (text === null || text === undefined || item[quantity.name] !== null) return item
  const split = splitQuantity(text)
  if (split.quantity === null || split.description === "") return item
  const out: Item = { ...item, [description.name]: split.description, [quantity.name]: split.quantity }
  if (price !== undefined && out[price.name] === null) {
    const lineAmount = amount === undefined ? null : (item[amount.name] ?? null)
    out[price.name] = split.price ?? (split.quantity === "1" ? lineAmount : null)
  }
  return out
}

const TOTAL_WORDS = new Set(TOTAL_LABELS.flatMap(([, phrases]) => phrases.filter((p) => !p.includes(" "))))
const NOT_ITEM = new Set([...NOT_TOTAL_WORDS, ...TAX_WORDS])

/** Whether a row starts the totals (a total, subtotal or tax label). */
const endsItems = (row: Row): boolean => rowTokens(row).some((t) => TOTAL_WORDS.has(t.text))

/** The lines of a receipt with no header row, from its first page, before its first total. */
export const headerlessLines = (layout: Layout, roles: LineRoles, names: ReadonlyArray<string>): Array<Item> => {
  const { description, amount } = roles
  const target = amount ?? roles.price
  if (description === undefined || target === undefined) return []
  const page = layout.rows[0]?.page
  const items: Array<Item> = []
  let pending: string | undefined
  for (const row of layout.rows) {
    if (row.page !== page || endsItems(row)) break
    const found = amounts(row.text)
    const last = found.at(-1)
    const words = rowTokens(row)
    const skip = dates(row.text).length > 0 || words.some((t) => NOT_ITEM.has(t.text))
    if (last === undefined || !last.decimals || row.text.slice(last.end).trim() !== "" || skip) {
      // A row of words only may be the description of a line whose figures follow on the next row.
      pending = found.length === 0 && !skip && /\p{L}{3}/u.test(row.text) ? row.text.trim() : undefined
      continue
    }
    const before = row.text.slice(0, last.start).trim()
    const split = splitQuantity(before)
    const text = split.description !== "" && /\p{L}{2}/u.test(split.description) ? split.description : pending
    pending = undefined
    if (text === undefined) continue
    const item: Item = Object.fromEntries(names.map((n) => [n, null]))
    item[description.name] = text
    item[target.name] = last.text
    if (roles.quantity !== undefined && split.quantity !== null) item[roles.quantity.name] = split.quantity
    if (roles.price !== undefined && target !== roles.price && split.price !== null)
      item[roles.price.name] = split.price
    items.push(item)
  }
  return items
}
