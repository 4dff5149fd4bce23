/**
 * One value per field: for each label found, the text to its right (rest of its cell, or the next cell of the row)
 * or in the cell below it, narrowed by the field's type (a date, an amount, a tax id, a document number); the
 * strongest label wins, then the nearest position (right before below), then reading order. Concepts add their
 * own rules: the total is the largest amount next to a total label; a tax id or date with no label is the first
 * one printed; a company or address with no label is read from the letterhead.
 */
import { type Concept, conceptOf, findLabels, type Hit, labelsOf, type Target } from "./labels.js"
import { cellAt, cellStart, type Layout, overlap, type Row } from "./layout.js"
import { type Amount, amounts, codes, dates, type Match, taxIds } from "./patterns.js"

/** A value found, with how sure the rules are and where it was printed. */
interface Candidate {
  readonly text: string
  readonly score: number
  readonly row: Row
  /** Reading-order position of the label (right of it before below it). */
  readonly order: number
  readonly amount?: number
}

const SEPARATORS = /^[\s:;=#\-–—.)(/|$€]+/u

const clean = (text: string): string =>
  text
    .replace(SEPARATORS, "")
    .replace(/[\s:;,|]+$/u, "")
    .trim()

/** The text to the right of a label: the rest of its cell, else the next cell. */
const rightOf = (hit: Hit): string => {
  const { row } = hit
  const cell = cellAt(row, hit.start)
  if (cell === undefined) return ""
  const rest = clean(row.text.slice(hit.end, cellStart(row, cell) + cell.text.length))
  if (rest !== "") return rest
  const next = row.cells[row.cells.indexOf(cell) + 1]
  return next === undefined ? "" : clean(next.text)
}

/** The rest of the label's row after it (for typed values that may sit a few cells away). */
const restOfRow = (hit: Hit): string => hit.row.text.slice(hit.end)

/** The cell under a label, on one of the next two rows of the page. */
const below = (layout: Layout, hit: Hit): string => {
  const { row } = hit
  const cell = cellAt(row, hit.start)
  if (cell === undefined) return ""
  const height = row.y1 - row.y0
  for (const next of layout.rows.slice(row.order + 1, row.order + 3)) {
    if (next.page !== row.page || next.y0 - row.y1 > 2 * height) break
    const under = next.cells.find((c) => overlap(c, cell) > 0.3)
    if (under !== undefined) return clean(under.text)
  }
  return ""
}

const typed = (concept: Concept, type: Target["type"]): ((text: string) => Array<Match>) | undefined => {
  if (concept === "taxId") return taxIds
  if (concept === "date" || type === "date") return dates
  if (concept === "number") return codes
  if (type === "float" || type === "integer") return amounts
  return undefined
}

/** The amount a row shows for a label: the last one with decimals, else the last one. */
const amountIn = (text: string): Amount | undefined => {
  const found = amounts(text)
  return found.filter((a) => a.decimals).at(-1) ?? found.at(-1)
}

const pick = (concept: Concept, type: Target["type"], text: string): Match | undefined => {
  if (concept === "total" || type === "float" || type === "integer") return amountIn(text)
  const finder = typed(concept, type)
  if (finder !== undefined) return finder(text)[0]
  const value = clean(text)
  return value === "" ? undefined : { text: value, start: 0, end: value.length }
}

const candidates = (layout: Layout, target: Target, concept: Concept): Array<Candidate> =>
  findLabels(layout, labelsOf(target, concept)).flatMap((hit) => {
    const order = hit.row.order * 10_000 + hit.start
    const out: Array<Candidate> = []
    const right = pick(
      concept,
      target.type,
      typed(concept, target.type) === undefined && concept !== "total" ? rightOf(hit) : restOfRow(hit)
    )
    if (right !== undefined)
      out.push({ text: right.text, score: hit.label.strength, row: hit.row, order, ...amountOf(right) })
    const under = pick(concept, target.type, below(layout, hit))
    if (under !== undefined)
      out.push({
        text: under.text,
        score: hit.label.strength * 0.9,
        row: hit.row,
        order: order + 1,
        ...amountOf(under)
      })
    return out
  })

const amountOf = (m: Match): { readonly amount?: number } =>
  "value" in m && typeof m.value === "number" ? { amount: m.value } : {}

const best = (list: ReadonlyArray<Candidate>): Candidate | undefined =>
  [...list].sort((a, b) => b.score - a.score || a.order - b.order)[0]

// Rows whose "total" counts items rather than money.
const COUNT_WORDS = /\b(qty|quantity|cantidad|items?|unidades|articulos|pcs|uds|lines?)\b/

const total = (layout: Layout, target: Target): string | null => {
  const found = candidates(layout, target, "total").filter((c) => c.amount !== undefined && c.amount > 0)
  const money = found.filter((c) => !COUNT_WORDS.test(c.row.folded.text))
  const chosen = [...money].sort((a, b) => (b.amount ?? 0) - (a.amount ?? 0) || a.order - b.order)[0]
  return chosen?.text ?? null
}

// Legal forms and shop words that mark a letterhead's business name.
const BUSINESS =
  /(?<![a-z])(sdn\.?\s*bhd|bhd|s\/b|s\.?\s?l\.?u?|s\.?\s?a\.?u?|s\.?r\.?l|s\.?a\.?s|s\.?\s?de\s?r\.?\s?l|ltd|limited|llc|inc|gmbh|corp|co\.|enterprises?|trading|perniagaan|syarikat|restoran|restaurant|restaurante|hardware|store|stores|shop|mart|market|supermercado|supermarket|bakery|bakeries|florist|bookstores?|stationery|pharmacy|farmacia|cafe|hotel|telecommunications|marketing|distribuciones|suministros|servicios|comercial|ferreteria|papeleria|tienda|handel)(?![a-z])/

const NOT_A_NAME =
  /(?<![a-z])(tax invoice|invoice|receipt|factura|recibo|ticket|original|duplicado|triplicado|copy|copia|welcome|bienvenido)(?![a-z])/

const letterheadRows = (layout: Layout): ReadonlyArray<Row> => {
  const first = layout.rows[0]?.page
  const height = first === undefined ? 0 : (layout.pageHeight.get(first) ?? 0)
  return layout.rows.filter((r) => r.page === first && (height === 0 || r.y0 < 0.4 * height))
}

const companyRow = (layout: Layout): Row | undefined => {
  const rows = letterheadRows(layout).filter((r) => /\p{L}{2}/u.test(r.text))
  return (
    rows.find((r) => BUSINESS.test(r.folded.text) && !NOT_A_NAME.test(r.folded.text)) ??
    rows.find((r) => !NOT_A_NAME.test(r.folded.text) && dates(r.text).length === 0 && !/\d{3}/.test(r.text))
  )
}

const STOP_ADDRESS =
  /(?<![a-z])(tel|telf|tlf|phone|telefono|fax|gst|email|e-mail|www|http|invoice|receipt|factura|date|fecha|cashier|cajero|doc|tax|cif|nif|cuit|iva|vat|reg|hp|mobile)(?![a-z])/

const address = (layout: Layout): string | null => {
  const start = companyRow(layout)
  if (start === undefined) return null
  const parts: Array<string> = []
  for (const row of layout.rows.slice(start.order + 1, start.order + 8)) {
    if (row.page !== start.page) break
    const text = row.folded.text
    // Registration numbers printed under the name, like "(JM0352019-K)" or "(1234-X)", are not the address.
    if (parts.length === 0 && /^\(?[a-z0-9\-.\s]*\d[a-z0-9\-.\s]*\)?$/.test(text) && !/\s\p{L}{3}/u.test(text)) continue
    if (STOP_ADDRESS.test(text)) break
    parts.push(row.text.trim())
  }
  return parts.length === 0 ? null : parts.join(" ")
}

/** Numbers in the `0001-00012345` form (point of sale and number, as on Argentine invoices). */
const pointOfSaleNumbers = (text: string): Array<Match> =>
  [...text.matchAll(/(?<!\d)\d{4,5}-\d{8}(?!\d)/g)].map((m) => ({
    text: m[0],
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length
  }))

/** The first match of a typed pattern anywhere in the document (reading order). */
const firstInDocument = (layout: Layout, finder: (text: string) => Array<Match>): string | null => {
  for (const row of layout.rows) {
    const found = finder(row.text)[0]
    if (found !== undefined) return found.text
  }
  return null
}

/** The literal of a simple (or catalog key column) field, or null when the rules find nothing. */
export const simpleValue = (layout: Layout, target: Target, concept: Concept = conceptOf(target)): string | null => {
  if (concept === "total") return total(layout, target)
  const found = best(candidates(layout, target, concept))
  if (found !== undefined) return found.text
  if (concept === "taxId") return firstInDocument(layout, taxIds)
  if (concept === "date") return firstInDocument(layout, dates)
  if (concept === "number") return firstInDocument(layout, pointOfSaleNumbers)
  if (concept === "company") return companyRow(layout)?.text.trim() ?? null
  if (concept === "address") return address(layout)
  return null
}
