/**
 * The issuer's name and address from the letterhead: on the first page's top rows, above the recipient's block
 * (Facturar a, Bill to, Rechnungsempfänger, Destinataire…), each cell apart (a title or the invoice's data may
 * share the name's row), the first cell with a legal form (S.A., S.L., GmbH, SDN BHD, B.V.…) or a shop word, else
 * the first cell that reads as a name — never a document title, a tax-status line (IVA Responsable Inscripto), an
 * address line (a street word, a postcode) or a greeting — with its wrapped lines; the address is the text under
 * it up to the contacts.
 */
import { type Cell, cellStart, type Layout, overlap, type Row } from "./layout.js"
import { amounts, dates } from "./patterns.js"
import { findPhrases, type RowToken, rowTokens, vocabulary } from "./phrases.js"
import { folded, tokens } from "./text.js"
import {
  ADDRESS_SUFFIXES,
  ADDRESS_WORDS,
  DOCUMENT_TITLES,
  LEGAL_FORMS,
  RECIPIENT_LABELS,
  TAX_STATUS_WORDS
} from "./vocabulary.js"

const TAX_STATUS = new Set(TAX_STATUS_WORDS)
const ADDRESS = new Set(ADDRESS_WORDS)
const LEGAL = new Set(LEGAL_FORMS)
const TITLES = new Set(DOCUMENT_TITLES)
const RECIPIENT = vocabulary(RECIPIENT_LABELS.map((phrase) => ["recipient", [phrase]] as const))
const RECIPIENT_FIRST = new Set(RECIPIENT.byFirst.keys())

const words = (text: string): ReadonlyArray<string> => tokens(folded(text)).map((t) => t.text)

/** Whether a text (a row, or a value found by a label) is a tax status or tax registration line. */
export const taxStatus = (text: string): boolean => words(text).some((w) => TAX_STATUS.has(w))

/** Whether a text is an address line: a street word (or a compound ending in one), or a postcode and town. */
const addressLine = (text: string): boolean =>
  words(text).some(
    (w) => ADDRESS.has(w) || ADDRESS_SUFFIXES.some((end) => w.length > end.length + 2 && w.endsWith(end))
  ) || /(?<![\d-])\d{4,5}\s+\p{L}{3}|(?<![\p{L}\d])\p{Lu}{1,2}-\d{4,5}\s+\p{L}{3}/u.test(text)

/** Whether a text holds a legal form: its one-letter tokens joined (`S.A.` → `sa`, `B.V.` → `bv`). */
const legalForm = (text: string): boolean => {
  const list = words(text)
  const joined: Array<string> = []
  for (const w of list) {
    const last = joined.length - 1
    if (w.length === 1 && last >= 0 && (joined[last] ?? "").length <= 2 && list.includes(joined[last] ?? ""))
      joined[last] += w
    else joined.push(w)
  }
  return [...list, ...joined].some((w) => LEGAL.has(w)) || /sdn\.?\s*bhd/.test(folded(text))
}

// Shop and trade words that mark a letterhead's business name.
const BUSINESS =
  /(?<![a-z])(sdn\.?\s*bhd|bhd|s\/b|ltd|limited|llc|inc|gmbh|corp|co\.|enterprises?|trading|perniagaan|syarikat|restoran|restaurant|restaurante|hardware|store|stores|shop|mart|market|supermercados?|supermarkets?|supermercato|supermarkt|bakery|bakeries|florist|bookstores?|stationery|pharmacy|farmacia|cafe|hotel|telecommunications|marketing|distribuciones|suministros|servicios|comercial|ferreteria|papeleria|tienda|handel)(?![a-z])/

// Greetings and copy marks printed at the top of receipts and invoices.
const NOT_A_NAME =
  /(?<![a-z])(tax invoice|original|duplicado|triplicado|copy|copia|welcome|bienvenido|bienvenue|willkommen|benvenuto|bem-vindo|welkom)(?![a-z])/

/** A piece of the letterhead: one cell of a row (the whole row when it has one cell). */
interface Part {
  readonly row: Row
  readonly x0: number
  readonly x1: number
  /** Its text without a title or a sender line's address (`raw`: as printed). */
  readonly text: string
  readonly raw: string
}

/** A text without the document title printed before or after it (`Druckerei Elektro UG Rechnung`). */
const withoutTitle = (text: string): string => {
  const list = text.split(/\s+/)
  // A title and the number word after it (`FACTURE N°`, `Fattura n.`).
  const isTitle = (w: string | undefined) =>
    w !== undefined && words(w).length > 0 && words(w).every((t) => TITLES.has(t) || t === "no" || t === "n")
  while (list.length > 1 && isTitle(list[0])) list.shift()
  while (list.length > 1 && isTitle(list.at(-1))) list.pop()
  return list.join(" ")
}

/** A sender line's name without its address: `QualityHosting AG - Uferweg 40-42 - D-63571 Gelnhausen`. */
const senderName = (text: string): string => {
  const segments = text.split(/\s+[-–·|•]\s+/u)
  return segments.length > 1 && segments.slice(1).some(addressLine) ? (segments[0] ?? text) : text
}

/** A name without a label before it (`Sold By : WS Retail Services Pvt. Ltd.,`) and its trailing punctuation. */
const unlabelled = (text: string): string =>
  text.replace(/^\s*(?:[\p{L}.]+\s*){1,3}:\s*(?=\p{L}{2})/u, "").replace(/[\s,;:]+$/u, "")

const cleaned = (text: string): string => unlabelled(senderName(withoutTitle(text)))

/** A row as one part when it reads as a name as a whole; else its cells, each without a title at its ends. */
const partsOf = (row: Row): ReadonlyArray<Part> =>
  row.cells.length <= 1 || nameLike(row.text)
    ? [{ row, x0: row.words[0]?.x0 ?? 0, x1: row.words.at(-1)?.x1 ?? 0, text: cleaned(row.text), raw: row.text }]
    : row.cells.map((c: Cell) => ({ row, x0: c.x0, x1: c.x1, text: cleaned(c.text), raw: c.text }))

/**
 * Whether a row opens the recipient's block: a recipient label alone in one of its cells, or before a colon and
 * a name (`Cliente nº: 4795` labels a customer number, not the block).
 */
const recipientRow = (row: Row): boolean => {
  if (!row.cells.some((cell) => RECIPIENT_FIRST.has(words(cell.text.slice(0, 24))[0] ?? ""))) return false
  const list = rowTokens(row)
  return row.cells.some((cell) => {
    const start = cellStart(row, cell)
    const inCell = list.filter((t: RowToken) => t.start >= start && t.end <= start + cell.text.length)
    const hit = findPhrases(inCell, RECIPIENT)[0]
    if (hit === undefined || hit.from !== 0) return false
    const end = inCell[hit.to - 1]?.end ?? start
    // The label alone in its cell, or before a colon: `AN NUR ENTERPRISE` is a name, `An` and `Cliente:` labels.
    const rest = row.text.slice(end, start + cell.text.length)
    return /^[\s.]*$/.test(rest) || (/^\s*:/.test(rest) && !/\d/.test(rest))
  })
}

/** The first page's top rows, down to the recipient's block. */
const letterheadRows = (layout: Layout): ReadonlyArray<Row> => {
  const first = layout.rows[0]?.page
  const height = first === undefined ? 0 : (layout.pageHeight.get(first) ?? 0)
  const top = layout.rows.filter((r) => r.page === first && (height === 0 || r.y0 < 0.4 * height))
  // The letterhead ends at the recipient's block, or at the first amount (a receipt's lines).
  const end = top.findIndex(
    (r) => recipientRow(r) || (/\d[.,]\s?\d{2}/.test(r.text) && amounts(r.text).some((a) => a.decimals))
  )
  return end < 0 ? top : top.slice(0, end)
}

const title = (text: string): boolean => words(text).some((w) => TITLES.has(w))

const nameLike = (text: string): boolean => {
  if (!/\p{L}{2}/u.test(text)) return false
  const f = folded(text)
  if (NOT_A_NAME.test(f)) return false
  const list = tokens(f).map((t) => t.text)
  return !list.some((w) => TITLES.has(w) || TAX_STATUS.has(w)) && !addressLine(text)
}

const close = (upper: Row, lower: Row) => lower.y0 - upper.y1 < 0.5 * Math.min(upper.y1 - upper.y0, lower.y1 - lower.y0)

/** The part of a neighbouring row under or over a part (its column), if any. */
const partBeside = (row: Row | undefined, part: Part): Part | undefined =>
  row === undefined ? undefined : partsOf(row).find((p) => overlap(p, part) > 0.3)

/** The letterhead parts that name the business: the first with a business word, with its wrapped lines. */
const companyParts = (layout: Layout): ReadonlyArray<Part> => {
  const rows = letterheadRows(layout)
  const parts = rows.flatMap(partsOf).filter((p) => nameLike(p.text))
  const first =
    parts.find((p) => legalForm(p.text) || BUSINESS.test(folded(p.text))) ??
    parts.find((p) => dates(p.text).length === 0 && !/\d|@|www|\.com/.test(p.text))
  if (first === undefined) return []
  const block = [first]
  const plain = (p: Part) => nameLike(p.text) && !/\d|@|www|\.com/.test(folded(p.text))
  // A name wrapped over lines: the lines right above it without figures, and below it until its legal form.
  for (;;) {
    const top = block[0] as Part
    const above = partBeside(layout.rows[top.row.order - 1], top)
    if (above === undefined || above.row.page !== top.row.page || !close(above.row, top.row) || !plain(above)) break
    block.unshift(above)
  }
  for (;;) {
    const bottom = block[block.length - 1] as Part
    if (legalForm(block.map((p) => p.text).join(" "))) break
    const below = partBeside(layout.rows[bottom.row.order + 1], bottom)
    if (below === undefined || below.row.page !== bottom.row.page || !close(bottom.row, below.row)) break
    if (title(below.text) || NOT_A_NAME.test(folded(below.text)) || addressLine(below.text)) break
    if (!legalForm(below.text) && !BUSINESS.test(folded(below.text))) break
    block.push(below)
  }
  return block
}

/** A business name without the registration number printed after it: "AEON CO. (M) BHD (126926-H)". */
const nameOnly = (name: string): string => name.replace(/\s*\([^)]*\d{4}[^)]*\).*$/u, "").trim()

/** The issuer's name, or null. */
export const company = (layout: Layout): string | null => {
  const parts = companyParts(layout)
  return parts.length === 0 ? null : nameOnly(parts.map((p) => p.text.trim()).join(" ")).replace(/\s+/g, " ")
}

const STOP_ADDRESS =
  /(?<![a-z])(tel|telf|tlf|phone|telefono|fax|gst|email|e-mail|www|http|invoice|receipt|factura|date|fecha|cashier|cajero|doc|tax|cif|nif|cuit|iva|vat|reg|hp|mobile)(?![a-z])/

/** The issuer's address, or null. */
export const address = (layout: Layout): string | null => {
  const last = companyParts(layout).at(-1)
  if (last === undefined) return null
  const parts: Array<string> = []
  for (const row of layout.rows.slice(last.row.order + 1, last.row.order + 10)) {
    if (row.page !== last.row.page || parts.length >= 5) break
    const part = partBeside(row, last)
    if (part === undefined) break
    const text = folded(part.raw)
    // Registration numbers and tax ids printed under the name come before the address: skip them.
    const registration = /^\(?[a-z0-9\-.\s]*\d[a-z0-9\-.\s]*\)?$/.test(text) && !/\p{L}{3}/u.test(text)
    if (parts.length === 0 && (registration || STOP_ADDRESS.test(text))) continue
    if (STOP_ADDRESS.test(text)) break
    parts.push(part.raw.trim())
  }
  return parts.length === 0 ? null : parts.join(" ").replace(/\s+/g, " ")
}
