/**
 * The issuer's name and address from the letterhead: on the first page's top rows, the first row with a legal
 * form (S.A., S.L., GmbH, SDN BHD, B.V.…) or a shop word (a trade name printed above its operator's legal name
 * comes first), else the first row that reads as a name — never a tax-status line (IVA Responsable Inscripto), an address line (a street word, a postcode), a
 * document title or a greeting — with its wrapped lines; the address is the rows under it up to the contacts.
 */
import type { Layout, Row } from "./layout.js"
import { dates } from "./patterns.js"
import { rowTokens } from "./phrases.js"
import { folded, tokens } from "./text.js"
import { ADDRESS_WORDS, LEGAL_FORMS, TAX_STATUS_WORDS } from "./vocabulary.js"

const TAX_STATUS = new Set(TAX_STATUS_WORDS)
const ADDRESS = new Set(ADDRESS_WORDS)
const LEGAL = new Set(LEGAL_FORMS)

/** Whether a text (a row, or a value found by a label) is a tax status or tax registration line. */
export const taxStatus = (text: string): boolean => tokens(folded(text)).some((t) => TAX_STATUS.has(t.text))

/** Whether a row is an address line: a street word, or a postcode followed by its town. */
const addressLine = (row: Row): boolean =>
  rowTokens(row).some((t) => ADDRESS.has(t.text)) || /(?<![\d-])\d{4,5}\s+\p{L}{3}/u.test(row.text)

/** Whether a row ends (or holds) a legal form: its one-letter tokens joined (`S.A.` → `sa`, `B.V.` → `bv`). */
const legalForm = (row: Row): boolean => {
  const words = rowTokens(row).map((t) => t.text)
  const joined: Array<string> = []
  for (const w of words) {
    const last = joined.length - 1
    if (w.length === 1 && last >= 0 && (joined[last] ?? "").length <= 2 && words.includes(joined[last] ?? ""))
      joined[last] += w
    else joined.push(w)
  }
  return [...words, ...joined].some((w) => LEGAL.has(w)) || /sdn\.?\s*bhd/.test(row.folded.text)
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

const LEGAL_FORM =
  /(?<![a-z])(sdn\.?\s*bhd|bhd|s\/b|sb|s\.?\s?l\.?u?|s\.?\s?a\.?u?|s\.?r\.?l|s\.?a\.?s|s\.?\s?de\s?r\.?\s?l|ltd|limited|llc|inc|gmbh|corp)\.?(?![a-z])/

const close = (upper: Row, lower: Row) => lower.y0 - upper.y1 < 0.5 * Math.min(upper.y1 - upper.y0, lower.y1 - lower.y0)

const nameLike = (r: Row) =>
  !/\d|@|www|\.com/.test(r.folded.text) && !NOT_A_NAME.test(r.folded.text) && !taxStatus(r.text) && !addressLine(r)

/** The letterhead rows that name the business: the first with a business word, with its wrapped lines. */
const companyRows = (layout: Layout): ReadonlyArray<Row> => {
  const rows = letterheadRows(layout).filter(
    (r) => /\p{L}{2}/u.test(r.text) && !NOT_A_NAME.test(r.folded.text) && !taxStatus(r.text) && !addressLine(r)
  )
  const first =
    rows.find((r) => legalForm(r) || BUSINESS.test(r.folded.text)) ??
    rows.find((r) => dates(r.text).length === 0 && !/\d{3}/.test(r.text))
  if (first === undefined) return []
  const block = [first]
  // A name wrapped over lines: the lines right above it without figures, and below it until its legal form.
  for (let above = layout.rows[first.order - 1]; above !== undefined; above = layout.rows[above.order - 1]) {
    const top = block[0]
    if (top === undefined || above.page !== top.page || !close(above, top) || !nameLike(above)) break
    block.unshift(above)
  }
  for (let below = layout.rows[first.order + 1]; below !== undefined; below = layout.rows[below.order + 1]) {
    const bottom = block[block.length - 1]
    if (bottom === undefined || LEGAL_FORM.test(block.map((r) => r.folded.text).join(" "))) break
    if (below.page !== bottom.page || !close(bottom, below) || NOT_A_NAME.test(below.folded.text)) break
    if (!LEGAL_FORM.test(below.folded.text) && !BUSINESS.test(below.folded.text)) break
    block.push(below)
  }
  return block
}

/** A business name without the registration number printed after it: "AEON CO. (M) BHD (126926-H)". */
const withoutRegistration = (name: string): string => name.replace(/\s*\([^)]*\d{4}[^)]*\).*$/u, "").trim()

/** The issuer's name, or null. */
export const company = (layout: Layout): string | null => {
  const rows = companyRows(layout)
  return rows.length === 0 ? null : withoutRegistration(rows.map((r) => r.text.trim()).join(" "))
}

const STOP_ADDRESS =
  /(?<![a-z])(tel|telf|tlf|phone|telefono|fax|gst|email|e-mail|www|http|invoice|receipt|factura|date|fecha|cashier|cajero|doc|tax|cif|nif|cuit|iva|vat|reg|hp|mobile)(?![a-z])/

/** The issuer's address, or null. */
export const address = (layout: Layout): string | null => {
  const last = companyRows(layout).at(-1)
  if (last === undefined) return null
  const parts: Array<string> = []
  for (const row of layout.rows.slice(last.order + 1, last.order + 10)) {
    if (row.page !== last.page || parts.length >= 5) break
    const text = row.folded.text
    // Registration numbers and tax ids printed under the name come before the address: skip them.
    const registration = /^\(?[a-z0-9\-.\s]*\d[a-z0-9\-.\s]*\)?$/.test(text) && !/\p{L}{3}/u.test(text)
    if (parts.length === 0 && (registration || STOP_ADDRESS.test(text))) continue
    if (STOP_ADDRESS.test(text)) break
    parts.push(row.text.trim())
  }
  return parts.length === 0 ? null : parts.join(" ")
}
