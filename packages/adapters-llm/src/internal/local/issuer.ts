/**
 * The issuer's name from the letterhead: on the first page's top rows, above the recipient's block
 * (Facturar a, Bill to, Rechnungsempfänger, Destinataire…) and the document's title printed alone under a name,
 * each cell apart (a title or the invoice's data may share the name's row), the first cell with a legal form (S.A.,
 * S.L., GmbH, SDN BHD, B.V.…) or a shop word (`SHOP_WORDS`) — never a document title, a tax-status line (IVA
 * Responsable Inscripto), an address line (a street word, a postcode; unless the name ends in its legal form) or a
 * greeting — with its wrapped lines. A recipient label with cells only left of it (`Seller: | Bill To:`) ends the
 * letterhead in its own column only. A letterhead with no such mark gives no name (position alone is too weak),
 * unless the footer names the business over its register line (a logo for a letterhead). Found by layout, not by a
 * label (`evidence.ts`: `layout`, `position`). The address under the name is `address.ts`'s; the other parties'
 * blocks, `parties.ts`'s.
 */
import { addressEnd, addressLine, closesAddress } from "./addressText.js"
import { type Found, found } from "./evidence.js"
import { type Cell, cellBelow, cellStart, columnsApart, type Layout, overlap, type Row } from "./layout.js"
import { endsWithForm, formAlone, legalForm, withLegalForm } from "./legalForms.js"
import { amounts, dates, taxIds } from "./patterns.js"
import { findPhrases, type RowToken, rowTokens, TOTAL_PHRASES, vocabulary } from "./phrases.js"
import { fold, folded, nearWords, ocrKey, tokens, wordLike } from "./text.js"
import {
  COPY_MARKS,
  COURTESY_TITLES,
  DATE_LABELS,
  DOCUMENT_TITLES,
  NUMBER_WORDS,
  RECIPIENT_LABELS,
  REGISTER_WORDS,
  SELLER_LABELS,
  SHOP_WORDS,
  TAX_ID_WORDS,
  TAX_STATUS_WORDS
} from "./vocabulary.js"

const TAX_STATUS = new Set(TAX_STATUS_WORDS)
const TITLES = new Set(DOCUMENT_TITLES)
const RECIPIENT = vocabulary(RECIPIENT_LABELS.map((phrase) => ["recipient", [phrase]] as const))
const RECIPIENT_FIRST = new Set(RECIPIENT.byFirst.keys())
const SELLER = new Set(SELLER_LABELS)
const COURTESY = new Set(COURTESY_TITLES)
const BLOCK_LABELS = new Set([...SELLER_LABELS, ...RECIPIENT_LABELS])

/** Whether a text is only the label over a party's block (`Bill To:`, `Facturar a`, `Seller:`): it names no one. */
export const blockLabel = (text: string): boolean => BLOCK_LABELS.has(words(text).join(" "))

const words = (text: string): ReadonlyArray<string> => tokens(folded(text)).map((t) => t.text)

/** Whether a text (a row, or a value found by a label) is a tax status or tax registration line. */
export const taxStatus = (text: string): boolean => words(text).some((w) => TAX_STATUS.has(w))

const SHOP = new Set(SHOP_WORDS)
const NUMBER_WORD = new Set(NUMBER_WORDS)
// A branch or a till, numbered on a receipt's first lines.
const BRANCH = new Set(["filiale", "sucursal", "branch", "succursale", "filiaal", "outlet", "kasse", "caja", "till"])

/** Whether a text has a shop or trade word (`PANADERÍA`, `Apotheke`, `HARDWARE`) or a legal form. */
const business = (text: string): boolean => {
  const read = text.replace(WEB_ADDRESS, " ")
  return legalForm(read) || words(read).some((w) => SHOP.has(w)) || /(?<![a-z])(s\/b|co\.)/.test(folded(read))
}

// A web or mail address (`www.gadgetzone.co.uk`, `billing@acme.com`): its `co.` is no company's.
const WEB_ADDRESS =
  /\S*(?:[wW]{3}\.|:\/\/|@)\S*|[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.(?:com|net|org|info|biz|io|eu|uk|de|fr|es|it|nl|pt|be|at|ch|my|in|ar|mx)(?![\p{L}\p{N}])/gu

// Greetings and copy marks printed at the top of receipts and invoices.
const GREETINGS = ["welcome", "bienvenido", "bienvenue", "willkommen", "benvenuto", "bem-vindo", "welkom"]
const NOT_A_NAME = new RegExp(`(?<![a-z])(${["tax invoice", ...COPY_MARKS, ...GREETINGS].join("|")})(?![a-z])`)

/** A piece of the letterhead: one cell of a row (the whole row when it has one cell). */
export interface Part {
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
  // A title and the number word after it (`FACTURE N°`, `Fattura n.`), or a copy mark (`Rechnung (Original)`).
  const isTitle = (w: string | undefined) =>
    w !== undefined &&
    words(w).length > 0 &&
    words(w).every((t) => TITLES.has(t) || COPY_MARK.has(t) || t === "no" || t === "n")
  while (list.length > 1 && isTitle(list[0])) list.shift()
  while (list.length > 1 && isTitle(list.at(-1))) list.pop()
  return list.join(" ")
}

/** The parts of a line set apart by a dash, a dot or a bar between spaces (a sender line, a footer's register line). */
export const segmentsOf = (text: string): ReadonlyArray<string> => text.split(/\s+[-–·|•]\s+/u)

/**
 * A sender line's name without its address: `QualityHosting AG - Uferweg 40-42 - D-63571 Gelnhausen`; after commas
 * only where the name ends in its legal form (`Acme Widgets, Inc., 12 High Street, London`: a name may hold commas).
 */
const senderName = (text: string): string => {
  const segments = segmentsOf(text)
  if (segments.length > 1 && segments.slice(1).some(addressLine)) return segments[0] ?? text
  const parts = text.split(/,\s+/)
  for (let k = 1; k < parts.length; k++) {
    const name = parts.slice(0, k).join(", ")
    if (endsWithForm(name) && parts.slice(k).some(addressLine)) return name
  }
  return text
}

/**
 * A name without a label before it (`Sold By : WS Retail Services Pvt. Ltd.,`, `Nombre de la empresa: …`) and its
 * trailing punctuation.
 */
export const unlabelled = (text: string): string =>
  text.replace(/^\s*(?:[\p{L}.]+\s*){1,4}:\s*(?=\p{L}{2})/u, "").replace(/[\s,;:]+$/u, "")

/**
 * A name without the buyer's label the reader ran into its cell (`Druckerei Elektro UG (haftungsbeschränkt)
 * Rechnungsempfänger`): cut only where what is left ends in its legal form.
 */
const withoutBlockLabel = (text: string): string => {
  const list = text.trim().split(/\s+/)
  // The longest label first: `Bill To`, not its `To` alone.
  for (let n = Math.min(3, list.length - 1); n >= 1; n--) {
    const kept = list.slice(0, -n).join(" ")
    if (blockLabel(list.slice(-n).join(" ")) && endsWithForm(kept)) return kept
  }
  return text
}

/**
 * A name without the tax id printed after it on its line (`Woolworths Group Limited ABN 88 000 014 675`, `ACME SDN
 * BHD (Co. Reg. No. 123456-X)`): it ends before the id's label, a figure within the label's next three words.
 */
const withoutTaxId = (text: string): string => {
  const list = text.trim().split(/\s+/)
  const opener = (w: string) => TAX_ID_OPENERS.has(words(w)[0] ?? "")
  const k = list.findIndex((w, i) => i > 0 && opener(w) && /\d/.test(list.slice(i + 1, i + 4).join(" ")))
  if (k < 0) return text
  // `Co. Reg.`: the company's registration, the `Co.` no legal form of the name.
  const from = /^\(?co\.?$/i.test(list[k - 1] ?? "") && /^reg/i.test(list[k] ?? "") ? k - 1 : k
  const kept = list
    .slice(0, from)
    .join(" ")
    .replace(/[\s(\-–,;:]+$/u, "")
  return /\p{L}{3}/u.test(kept) ? kept : text
}

/** A name without a lone character OCR read after its legal form (a speck: `MINI MARKET NORTHERN Inc. I`). */
const withoutSpeck = (text: string): string => {
  const kept = text.replace(/\s+[\p{L}|!]$/u, "")
  return kept !== text && endsWithForm(kept) ? kept : text
}

export const cleaned = (text: string): string =>
  unlabelled(senderName(withoutBlockLabel(withoutTitle(withoutSpeck(withoutTaxId(text))))))

/**
 * Where a name read as a whole row ends: at a cell before the last that ends with a legal form, unless a bracket
 * or another form goes on with it (`WEBER UG | (haftungsbeschränkt)`, `GmbH & Co. | KG`); what follows is not the
 * name (`Padaria SA | aft tura`).
 */
const nameEnd = (row: Row): number => {
  const k = row.cells.slice(0, -1).findIndex((c) => legalForm(c.text.split(/\s+/).slice(-2).join(" ")))
  const next = row.cells[k + 1]?.text ?? ""
  // The partner's `& Co.` may be read as cells of its own (`GmbH | & | Co. | KG`).
  const partner = /^\s*&\s*(?:co|cie)\b/i.test(
    row.cells
      .slice(k + 1, k + 3)
      .map((c) => c.text)
      .join(" ")
  )
  return k < 0 || /^\s*\(/.test(next) || partner || (words(next).length <= 2 && legalForm(next))
    ? row.cells.length - 1
    : k
}

/** A part of a row from its first cell to its `last`. */
const partUpTo = (row: Row, last: number): Part => {
  const raw = row.cells
    .slice(0, last + 1)
    .map((c) => c.text)
    .join(" ")
  return { row, x0: row.cells[0]?.x0 ?? 0, x1: row.cells[last]?.x1 ?? 0, text: cleaned(raw), raw }
}

/**
 * A row as one part, up to its legal form, when it reads as a name as a whole and its cells are near (`BAKERY
 * LOGISTICS | LLC`); else its cells, each without a title at its ends. Cells across the page are columns: a misread
 * title (`atura` for `Fatura`) on the left is no word of the name on the right.
 */
const partsOf = (row: Row): ReadonlyArray<Part> =>
  row.cells.length <= 1
    ? [{ row, x0: row.words[0]?.x0 ?? 0, x1: row.words.at(-1)?.x1 ?? 0, text: cleaned(row.text), raw: row.text }]
    : nameLike(row.text) && near(row)
      ? [partUpTo(row, nameEnd(row))]
      : row.cells.map((c: Cell) => ({ row, x0: c.x0, x1: c.x1, text: cleaned(c.text), raw: c.text }))

/** Whether a row's cells are at most eight line heights apart (a column gap is more). */
const near = (row: Row): boolean =>
  row.cells.every((cell, i) => i === 0 || !columnsApart(row, row.cells[i - 1] ?? cell, cell))

/**
 * The cell of a row that opens the recipient's block: a recipient label alone in it, or before a colon and a name
 * (`Cliente nº: 4795` labels a customer number, not the block); with `figures`, before a colon and anything
 * (`Cliente: Ana García, 12345678Z`).
 */
export const recipientCell = (row: Row, figures = false): Cell | undefined => recipientCells(row, figures)[0]

/** The recipient's label phrase opening a cell (`Cliente`, `Bill To`, `Spett.le`) and where it ends, if one does. */
const openingLabel = (row: Row, cell: Cell): { readonly phrase: string; readonly end: number } | undefined => {
  const start = cellStart(row, cell)
  const inCell = rowTokens(row).filter((t: RowToken) => t.start >= start && t.end <= start + cell.text.length)
  const hit = findPhrases(inCell, RECIPIENT)[0]
  if (hit === undefined || hit.from !== 0) return undefined
  const phrase = inCell
    .slice(hit.from, hit.to)
    .map((t) => t.text)
    .join(" ")
  return { phrase, end: inCell[hit.to - 1]?.end ?? start }
}

/** The rest of a cell after the courtesy title that opens it (`Spett.le Bianchi Luca`: `Bianchi Luca`), if one does. */
export const afterCourtesy = (row: Row, cell: Cell): string | undefined => {
  const label = openingLabel(row, cell)
  return label === undefined || !COURTESY.has(label.phrase)
    ? undefined
    : row.text.slice(label.end, cellStart(row, cell) + cell.text.length).replace(/^[\s.:,]+/u, "")
}

/** Every cell of a row that opens a party's block (`Bill To: | Ship To:`), as `recipientCell` tells. */
export const recipientCells = (row: Row, figures = false): ReadonlyArray<Cell> => {
  if (!row.cells.some((cell) => RECIPIENT_FIRST.has(words(cell.text.slice(0, 24))[0] ?? "") || splitLabel(cell)))
    return []
  return row.cells.filter((cell) => {
    if (splitLabel(cell)) return true
    const label = openingLabel(row, cell)
    if (label === undefined) return false
    // The label alone in its cell, or before a colon: `AN NUR ENTERPRISE` is a name, `An` and `Cliente:` labels.
    // A plural's ending in brackets may follow it (`Señor(es):`, `Cliente(s)`).
    const rest = row.text.slice(label.end, cellStart(row, cell) + cell.text.length).replace(/^\(\p{L}{1,2}\)/u, "")
    // A courtesy title opens the block with the name after it: `Spett.le Bianchi S.r.l.`.
    if (COURTESY.has(label.phrase)) return true
    // A bracket may close it: `Exmo.(s) Sr.(s)`; or hold the label again in other words, as Indian invoices print
    // it (`Buyer (Bill to)`, `Consignee (Ship to)`).
    return (
      /^[\s.)]*$/.test(rest) ||
      (/^[\s)]*:/.test(rest) && (figures || !/\d/.test(rest))) ||
      /^\s*\([\p{L}\s'’.]{2,24}\)\s*:?\s*$/u.test(rest)
    )
  })
}

// Recipient labels long enough that OCR splits a word of them with a space (`RECHNUNGSEMPF ÄNGER`, `DA TOS DEL
// CLIENTE`): their letters alone, and how many words they have.
const SPLIT_LABELS = new Map(
  RECIPIENT_LABELS.map((label) => [label.replace(/\s+/g, ""), label.split(/\s+/).length] as const).filter(([letters]) =>
    /^\p{L}{8,}$/u.test(letters)
  )
)

/**
 * Whether a cell is a recipient label OCR read with one more space, alone in it (a colon may follow): its words one
 * more than the label's.
 */
const splitLabel = (cell: Cell): boolean => {
  const parts = cell.text.replace(/:\s*$/, "").trim().split(/\s+/)
  return SPLIT_LABELS.get(folded(parts.join(""))) === parts.length - 1
}

/**
 * The first page's top rows, down to the recipient's block, as parts. A recipient label with cells only left of
 * it (`ACME Ltd | Bill to:`, `Sprzedawca: | Nabywca:`) opens a block in its own column: the letterhead goes on in
 * the columns left of it (a seller's block printed beside the buyer's), down to the first amount or title.
 */
const letterheadParts = (layout: Layout): ReadonlyArray<Part> => {
  const first = layout.rows[0]?.page
  const height = first === undefined ? 0 : (layout.pageHeight.get(first) ?? 0)
  const top = layout.rows.filter((r) => r.page === first && (height === 0 || r.y0 < 0.4 * height))
  // The letterhead ends at the recipient's block, at the first amount (a receipt's lines), or at the document's
  // title printed alone on a row under a name (`TAX INVOICE`: what follows is the document's, a customer's too).
  const priced = (r: Row) => /\d[.,]\s?\d{2}/.test(r.text) && amounts(r.text).some((a) => a.decimals)
  // A name is more than the particle a label leaves without its title words (`de` of `N° de facture`).
  const titled = (r: Row, i: number) =>
    titleRow(r) &&
    top.slice(0, i).some((above) => partsOf(above).some((p) => nameLike(p.text) && /\p{L}{3}/u.test(p.text)))
  // So does a row of another party's tax id (a buyer's block with no label of ours: `CUIT: 30500017704 | Apellido y
  // Nombre / Razón Social: LA SEGUNDA COOPERATIVA LTDA`).
  // So does a receipt's stamp under a name, a date and a time alone on their row (`03/12/2019 10:42 AM`): the
  // department or cashier after it (`GROCERY`) is the sale's.
  const stamped = (r: Row, i: number) =>
    stampRow(r) && top.slice(0, i).some((above) => partsOf(above).some((p) => nameLike(p.text)))
  const end = top.findIndex(
    (r, i) => recipientCell(r) !== undefined || priced(r) || titled(r, i) || stamped(r, i) || otherPartysRow(layout, r)
  )
  if (end < 0) return top.flatMap(partsOf)
  const parts = top.slice(0, end).flatMap(partsOf)
  const row = top[end] as Row
  const label = recipientCell(row)
  const others = row.cells.filter((c) => c !== label)
  if (label === undefined || others.length === 0) return parts
  const rest = top.slice(end)
  const stop = rest.findIndex((r, i) => i > 0 && (priced(r) || titled(r, end + i)))
  const beside = (stop < 0 ? rest : rest.slice(0, stop)).flatMap((r) =>
    r.cells.map((c: Cell) => ({ row: r, x0: c.x0, x1: c.x1, text: cleaned(c.text), raw: c.text }))
  )
  // A seller's label beside the recipient's (`Cliente: | Emisor:`): its column is the seller's block.
  const seller = others.find((c) => c.x0 > label.x1 && SELLER.has(words(c.text).join(" ")))
  if (seller !== undefined) return [...parts, ...formsJoined(beside.filter((p) => p.x0 >= seller.x0 - 1))]
  // Only cells left of the label: a cell right of it is as often its value (`Bill to: | Acme Ltd`).
  if (!others.every((c) => c.x1 <= label.x0)) return parts
  return [...parts, ...formsJoined(beside.filter((p) => p.x1 <= label.x0))]
}

/**
 * Parts with a legal form alone in its cell (`formOnly`) joined to the name before it on its row, as OCR reads a wide gap
 * (`Bâtiment Boulange | SA | Facturé à`: `SA` alone had been given as the name).
 */
const formsJoined = (parts: ReadonlyArray<Part>): ReadonlyArray<Part> =>
  parts.reduce<Array<Part>>((out, part) => {
    const last = out.at(-1)
    if (last !== undefined && last.row === part.row && formOnly(part.text) && !columnsApart(part.row, last, part))
      out.splice(-1, 1, { ...last, x1: part.x1, text: `${last.text} ${part.text}`, raw: `${last.raw} ${part.raw}` })
    else out.push(part)
    return out
  }, [])

/**
 * Whether a name opens with its legal form, words of its own after it (`SARL Boulangerie Martin`, French style); a
 * legal form alone (`UG (haftungsbeschränkt)`, `GmbH & Co. KG`) is none.
 */
const opensWithForm = (text: string): boolean => {
  const [first, ...rest] = text.trim().split(/\s+/)
  const own = rest.filter((w) => !/^\(.*\)$/.test(w)).join(" ")
  return first !== undefined && legalForm(first) && /\p{L}{3}/u.test(own) && !legalForm(own)
}

/** Whether a name is trade words and a legal form, and nothing else (`Stores Ltd`, `Supermercados, S.A.`). */
const tradeOnly = (text: string): boolean => {
  const list = words(text).filter((w) => !legalForm(w))
  return list.length > 0 && list.every((w) => SHOP.has(w))
}

/** Whether a row is a date and a time alone (`03/12/2019 10:42 AM`, `12.03.19 - 10:42:11`). */
const stampRow = (row: Row): boolean => {
  const [date] = dates(row.text)
  if (date === undefined) return false
  const rest = `${row.text.slice(0, date.start)} ${row.text.slice(date.end)}`
  return /^[\s,-]*\d{1,2}:\d{2}(?::\d{2})?\s*(?:am|pm|h|uhr)?[\s.]*$/iu.test(rest)
}

const taxIdFigures = (row: Row): ReadonlyArray<string> => taxIds(row.text).map((m) => m.text.replace(/\D/g, ""))

// The document's first tax id (its figures) and the row it is printed on, read once per layout.
const FIRST_TAX_IDS = new WeakMap<Layout, { readonly order: number; readonly figures: string } | null>()

const firstTaxId = (layout: Layout): { readonly order: number; readonly figures: string } | null => {
  const known = FIRST_TAX_IDS.get(layout)
  if (known !== undefined) return known
  const row = layout.rows.find((r) => taxIdFigures(r).length > 0)
  const first = row === undefined ? null : { order: row.order, figures: taxIdFigures(row)[0] ?? "" }
  FIRST_TAX_IDS.set(layout, first)
  return first
}

/**
 * Whether a row holds only tax ids other than the document's first, printed on a row above it (the issuer's, in its
 * letterhead): a name labelled on it is another party's (`Razón Social: GOMEZ MARIA | C.U.I.T.: 27-22333444-5`
 * under the seller's `C.U.I.T.: 20-12345678-6`), whatever its label says.
 */
export const otherPartysRow = (layout: Layout, row: Row): boolean => {
  const first = firstTaxId(layout)
  if (first === null || first.order >= row.order) return false
  const own = taxIdFigures(row)
  return own.length > 0 && !own.includes(first.figures)
}

// Words that make a title word a field's label (`Invoice Number`, `Datum factuur`, `Fatura n.º`), not a title.
const LABEL_WORD = new Set([
  ...NUMBER_WORDS,
  "number",
  "nro",
  ...DATE_LABELS.flatMap(([, list]) => list).filter((w) => !TITLES.has(w))
])
const COPY_MARK = new Set(COPY_MARKS)

export const title = (text: string): boolean => words(text).some((w) => TITLES.has(w))

const nearLabel = nearWords(LABEL_WORD)

/**
 * Whether a row is the document's title alone: one cell of a few words, a title word among them and no business
 * word (`SIMPLIFIED TAX INVOICE`, `-TAX INVOICE-`, `FACTURA SIMPLIFICADA`). With a number word it is a number's
 * label (`Albarán nº`, `Fatura n.º` over its number), not a title.
 */
const titleRow = (row: Row): boolean =>
  row.cells.length === 1 &&
  words(row.text).length <= 4 &&
  title(row.text) &&
  !business(row.text) &&
  !/\d/.test(row.text) &&
  // A label word OCR read with a slip is one too (`Datun factuur`).
  !words(row.text).some((w) => LABEL_WORD.has(w) || (!TITLES.has(w) && nearLabel(w).length > 0))

/**
 * The document's title as printed (`FACTURA SIMPLIFICADA`, `GUTSCHRIFT`, `Tax Invoice`): the first cell in the top
 * half of the first page that is a title alone, as `titleRow` reads one (no label's or total's word: `Total invoice
 * EUR` is none), its framing marks left off (`-TAX INVOICE-`).
 */
export const documentTitle = (layout: Layout): Found | null => {
  const page = layout.rows[0]?.page
  const height = page === undefined ? 0 : (layout.pageHeight.get(page) ?? 0)
  for (const row of layout.rows) {
    if (row.page !== page || row.y0 > height / 2) break
    for (const cell of row.cells) {
      const text = cell.text.trim()
      if (words(text).length > 4 || !title(text) || business(text) || /\d/.test(text)) continue
      if (words(text).some((w) => LABEL_WORD.has(w))) continue
      const inCell = rowTokens(row).filter(
        (t) => t.start >= cellStart(row, cell) && t.end <= cellStart(row, cell) + cell.text.length
      )
      if (findPhrases(inCell, TOTAL_PHRASES).length > 0) continue
      return found(text.replace(/^[\s\-–*=#:]+|[\s\-–*=#:]+$/gu, ""), "layout")
    }
  }
  return null
}

// A purchase order's title alone in its cell (`PURCHASE ORDER`, `PEDIDO DE COMPRA`, `Bestellung`, `Bon de commande`).
const ORDER_TITLE =
  /^(?:purchase order|orden de compra|pedido(?: de compra)?|nota de pedido|bestellung|bon de commande|ordine d acquisto|ordem de compra|nota de encomenda|inkooporder|bestelling)$/

/**
 * Whether the document is a purchase order by its title (a cell alone in the top half of the first page): its
 * letterhead is the buyer's, not the supplier's.
 */
export const purchaseOrder = (layout: Layout): boolean => {
  const page = layout.rows[0]?.page
  const height = page === undefined ? 0 : (layout.pageHeight.get(page) ?? 0)
  return layout.rows.some(
    (row) =>
      row.page === page &&
      row.y0 <= height / 2 &&
      row.cells.some((cell) => ORDER_TITLE.test(words(cell.text).join(" ")))
  )
}

export const nameLike = (text: string): boolean => {
  if (!/\p{L}{2}/u.test(text)) return false
  // Codes alone are no name, whatever letters they open with (`SAU-903783`, an invoice number).
  if (
    text
      .trim()
      .split(/\s+/)
      .every((chunk) => /\d/.test(chunk))
  )
    return false
  const f = folded(text)
  if (NOT_A_NAME.test(f) || REGISTRATION_LABEL.test(f) || ATTENTION.test(f)) return false
  const list = tokens(f).map((t) => t.text)
  // A branch's number is no name: `STORE #1234`, `Filiale 0815`, `Tienda nº 45` (trade and number words, figures).
  if (/\d/.test(text) && list.every((w) => /\d/.test(w) || SHOP.has(w) || NUMBER_WORD.has(w) || BRANCH.has(w)))
    return false
  // A seller's label over its block (`Seller:`, `CEDENTE`, `Sprzedawca`) names no one.
  if (SELLER.has(list.join(" "))) return false
  // A street word in a name that ends with its legal form is the name's (`LA PLAZA, S.L.`, `Harbour Road Ltd`): an
  // address line never ends with one.
  return !list.some((w) => TITLES.has(w) || TAX_STATUS.has(w)) && (!addressLine(text) || endsWithForm(text))
}

const close = (upper: Row, lower: Row) => lower.y0 - upper.y1 < 0.5 * Math.min(upper.y1 - upper.y0, lower.y1 - lower.y0)

/**
 * Whether a line under another is within a line's height of it: OCR boxes hold the ink alone, so a name's legal
 * form set on its own line under a larger name is further than `close` from it (`FRUTTA E VERDURA SERVIZI` over
 * `S.n.c.`), where a text layer's boxes touch.
 */
export const within = (upper: Row, lower: Row) =>
  lower.y0 - upper.y1 < Math.max(upper.y1 - upper.y0, lower.y1 - lower.y0)

/** The part of a neighbouring row under or over a part (its column), if any. */
export const partBeside = (row: Row | undefined, part: Part): Part | undefined =>
  row === undefined ? undefined : partsOf(row).find((p) => overlap(p, part) > 0.3)

/**
 * The cell of a row under a part (its column), as a part: an address line is read cell by cell, never joined
 * with the document's data beside it (`Factuurdatum | 9212 MD Den Haag`).
 */
export const cellBeside = (row: Row, part: Part): Part | undefined =>
  row.cells
    .map((c: Cell) => ({ row, x0: c.x0, x1: c.x1, text: cleaned(c.text), raw: c.text }))
    .find((p) => overlap(p, part) > 0.3)

/** The letterhead's name: its parts, and whether a legal form or a shop word marks it (else position alone). */
interface Letterhead {
  readonly parts: ReadonlyArray<Part>
  readonly marked: boolean
}

// The name and the address both start from the letterhead: it is read once per layout.
const LETTERHEADS = new WeakMap<Layout, Letterhead>()

/** The letterhead parts that name the business (read once per layout). */
export const companyParts = (layout: Layout): Letterhead => {
  const known = LETTERHEADS.get(layout)
  if (known !== undefined) return known
  const letterhead = readLetterhead(layout)
  LETTERHEADS.set(layout, letterhead)
  return letterhead
}

// A company's registration number as Malaysia prints it under or after the name: `(126926-H)`, `002043319-W`,
// `(JM0352019-K)`, `CO. REG. NO: 860671-D`, `(1074617K)`. Stricter than `registration`, which only lets the
// address skip a code line: to mark a name, the number must end in its check letter.
const REGISTRATION_LABEL = /^\W*co(?:mpany)?\W*reg(?:istration)?(?![a-z])/
const REGISTRATION_NUMBER = "[a-z]{0,2}\\d{4,12}(?:-[a-z]|[a-z](?=\\s*\\)))"
const REGISTRATION_ROW = new RegExp(
  `^\\W*(?:co(?:mpany)?\\W*reg(?:istration)?\\W*(?:no)?\\W*)?\\(?${REGISTRATION_NUMBER}\\)?\\W*$`
)
const REGISTRATION_AFTER = new RegExp(`\\(\\s*${REGISTRATION_NUMBER}\\s*\\)\\W*$`)

/**
 * Whether the company's registration number marks a part as its name: printed after it on its line, or alone on
 * the line right under it, or under the trade a sole trader prints under the name in running words (`Laura Gómez
 * Ruiz` over `Diseño gráfico y web` over `NIF: 12345678Z`). A business with no legal form or trade word in its name
 * still prints it there.
 */
const registered = (layout: Layout, part: Part): boolean => {
  const raw = folded(part.raw)
  if (REGISTRATION_AFTER.test(raw)) return !/\d/.test(raw.replace(REGISTRATION_AFTER, ""))
  if (/\d/.test(part.text)) return false
  const registration = (upper: Part, depth: number): boolean => {
    const below = partBeside(layout.rows[upper.row.order + 1], upper)
    if (below === undefined || below.row.page !== upper.row.page || !within(upper.row, below.row)) return false
    if (REGISTRATION_ROW.test(folded(below.raw)) || taxIdRow(below.raw)) return true
    return depth === 0 && !/\d|@|:/.test(below.raw) && casing(below.text) === "sentence" && registration(below, 1)
  }
  return registration(part, 0)
}

/** Whether a part stands right under a seller's label alone in its cell (`Datos del emisor`, `Seller:`). */
const underSeller = (layout: Layout, part: Part): boolean => {
  const above = partBeside(layout.rows[part.row.order - 1], part)
  return above !== undefined && above.row.page === part.row.page && SELLER.has(words(above.raw).join(" "))
}

// A business's VAT condition as an Argentine letterhead prints it under the name (`IVA RESPONSABLE INSCRIPTO`,
// `Responsable Monotributo`, `IVA Exento`), folded.
const TAX_CONDITION = /(?<![a-z])(?:inscripto|monotributo|monotributista|exento)(?![a-z])/

/**
 * Whether the column under a part, down its block (up to six rows, none four lines below the last, before a
 * recipient's label or another party's tax id), declares a business's VAT condition (`IVA RESPONSABLE INSCRIPTO`):
 * a seller's block, which a buyer's under its own label never opens. A tax id there is no such mark: a logo's word
 * over an address has one too (`HOLLAND` of `TOKO HOLLAND`), and so does a document's heading no title list holds
 * (`Order Confirmation` over the seller's address and VAT number); right under the name it is (`registered`).
 */
const declaresTax = (layout: Layout, part: Part): boolean => {
  let upper = part.row
  for (const row of layout.rows.slice(part.row.order + 1, part.row.order + 7)) {
    if (row.page !== part.row.page || row.y0 - upper.y1 > 4 * (row.y1 - row.y0)) return false
    if (recipientCell(row) !== undefined || otherPartysRow(layout, row)) return false
    // The condition may follow its label in the next cell (`Condición frente al IVA: | Responsable Monotributo`).
    const under = partBeside(row, part)
    const next = under === undefined ? undefined : row.cells.find((c) => c.x0 >= under.x1)
    if (under !== undefined && TAX_CONDITION.test(folded(`${under.raw} ${next?.text ?? ""}`))) return true
    upper = row
  }
  return false
}

const TAX_ID_OPENERS = new Set(TAX_ID_WORDS.filter((w) => w !== "st" && w !== "company" && w !== "business"))

/** Whether a text is a tax id and its label alone (`NIF: 12345678Z`, `VAT Reg No: GB 123 4567 89`, `GST ID: 0006…`). */
const taxIdRow = (text: string): boolean => {
  const list = words(text)
  return (
    TAX_ID_OPENERS.has(list[0] ?? "") &&
    list.length <= 7 &&
    (text.match(/\d/g) ?? []).length >= 7 &&
    !/@|www/.test(text)
  )
}

const PARTICLES = new Set(["and", "the", "for", "und", "der", "den", "het", "des", "del", "las", "los", "van", "von"])

/**
 * How a line is set: in capitals, with a small letter opening a word of its own (a sentence: `Creative studio`), or
 * with capitals opening its words (`Bluewave Design Ltd`, `Frutta e Verdura`).
 */
const casing = (text: string): "capitals" | "sentence" | "title" => {
  if (!/\p{Ll}/u.test(text)) return "capitals"
  const lower = text.match(/(?<!\p{L})\p{Ll}\p{L}{2,}/gu) ?? []
  return lower.some((w) => !PARTICLES.has(w)) ? "sentence" : "title"
}

// A line that sends a letter to someone's attention (`z. Hd. Frau Meier`, `Attn: J. Smith`, `A la atención de`,
// `t.a.v.`, `c/o`), folded.
const ATTENTION =
  /^\W*(?:z\.?\s?hd\b|zu\s+handen|attn\b|attention\b|a\s+la\s+atencion|a\s+l\W?attention|all\W?attenzione|t\.?\s?a\.?\s?v\.|c\/o\b|ter\s+attentie)/

/**
 * Whether a part is the name of the letter's addressee: a line sending it to someone's attention right under it
 * (`Firma` or `Herrn` over it is a recipient's label: the letterhead ends there).
 */
const addressee = (layout: Layout, part: Part): boolean => {
  const below = partBeside(layout.rows[part.row.order + 1], part)
  return below !== undefined && below.row.page === part.row.page && ATTENTION.test(folded(below.raw))
}

/** The letterhead parts that name the business: the first with a business word, with its wrapped lines. */
const readLetterhead = (layout: Layout): Letterhead => {
  // A line holding a date is no name (`DATUM 20 dec 2024 1400 SB Eindhoven`, the date's cells and an address's).
  const parts = letterheadParts(layout).filter(
    (p) =>
      nameLike(p.text) &&
      !ATTENTION.test(folded(p.raw)) &&
      !seal(p.text) &&
      !capitalLine(p.text) &&
      dates(p.text).length === 0
  )
  // A letter's addressee is no candidate; checked last, on the few parts a search reaches.
  const find = (test: (p: Part) => boolean) => parts.find((p) => test(p) && !addressee(layout, p))
  const plainIn = (text: string) => dates(text).length === 0 && !/\d|@|www|\.com/.test(text)
  const firstPlain = find((p) => plainIn(p.text))
  // A registration number marks only the first plain line (but for its number): printed under the address, it is
  // the address's last line that it follows (`MALAYSIA` over `Company Reg No. : 75495-V`).
  const named = find((p) => plainIn(nameOnly(p.text)))
  const registeredName = named !== undefined && registered(layout, named) ? named : undefined
  // So does a seller's label over it (`Datos del emisor`, `Seller:`, `Lieferant`).
  // So does its block's tax line, for the first plain line only.
  // Not a sentence (a slogan over the name: `Todo para el hogar`), a title with a word left (`Order` of `Order
  // Confirmation`), nor a line opening with `de` (`DE JUAN PEREZ`, a shop's owner, or `DE MARCO JUAN`, a surname:
  // nothing says which).
  const declared =
    firstPlain !== undefined &&
    casing(firstPlain.text) !== "sentence" &&
    !title(firstPlain.raw) &&
    !/^\s*d[ei]l?\s/i.test(firstPlain.raw) &&
    declaresTax(layout, firstPlain)
      ? firstPlain
      : undefined
  // So does the document's web address, for the first plain line only (`Bluewave Design` and
  // `www.bluewavedesign.com`): the name spelled as its domain. Not a mail address: a customer's is printed in its
  // block (`accounts@northwindtraders.com` under `Northwind Traders`), a web address seldom.
  const domained =
    firstPlain !== undefined &&
    casing(firstPlain.text) !== "sentence" &&
    !title(firstPlain.raw) &&
    letters(firstPlain).length >= 4 &&
    domainLabels(layout, firstPlain.row.page).has(letters(firstPlain))
      ? firstPlain
      : undefined
  const marked =
    find((p) => business(p.text) || formUnder(layout, p) || ownedUnder(layout, p)) ??
    registeredName ??
    find((p) => plainIn(p.text) && underSeller(layout, p)) ??
    declared ??
    domained
  const first = marked ?? firstPlain
  if (first === undefined) return { parts: [], marked: false }
  const block = [first]
  // A label over the name (`From:`, `Sprzedawca:`, `Seller:`) ends with its colon: it is no line of the name.
  const plain = (p: Part) => nameLike(p.text) && !/\d|@|www|\.com/.test(folded(p.text)) && !/:\s*$/.test(p.raw)
  // A name wrapped over lines: the lines right above it without figures, and below it until its legal form.
  for (;;) {
    const top = block[0] as Part
    const above = partBeside(layout.rows[top.row.order - 1], top)
    if (above === undefined || above.row.page !== top.row.page || !close(above.row, top.row) || !plain(above)) break
    // The document's title over the name is no line of it, though its cleaned text keeps a word (`TAX` of `TAX
    // INVOICE`).
    if (title(above.raw) || NOT_A_NAME.test(folded(above.raw)) || addressee(layout, above)) break
    // The row that opens the recipient's block labels the blocks under it (`CEDENTE | INTESTATARIO`).
    if (recipientCell(above.row) !== undefined) break
    // A brand printed over the name that repeats its first words (`TECK SENG` over `TECK SENG TRADING SDN BHD`),
    // however it spaces and dots them (`MR.D.I.Y` over `MR. D.I.Y. (M) SDN BHD`).
    if (letters(above).length >= 3 && letters(top).startsWith(letters(above))) break
    // A logo's word or a slogan set in another case (`BLUEWAVE`, `Creative studio` over `Bluewave Design Ltd`):
    // the lines of one name are set alike; but a trade's words and a legal form alone are no name without the
    // brand over them (`TESCO` over `Stores Ltd`).
    if (casing(above.text) !== casing(top.text) && !tradeOnly(top.text)) break
    // A line that opens with a legal form names a company of its own, not a name's second line (`SARL LPB` under
    // the sign `LE PETIT BISTROT`), as below.
    if (opensWithForm(top.text)) break
    // Nor is a sign whose own word the name ended by its legal form repeats (`E.S. LOS PINOS` over `ESTACIONES DE
    // SERVICIO PINOS, S.L.`), as below.
    if (signOf(above.text, top.text)) break
    block.unshift(above)
  }
  for (;;) {
    const bottom = block[block.length - 1] as Part
    if (legalForm(block.map((p) => p.text).join(" "))) break
    const below = partBeside(layout.rows[bottom.row.order + 1], bottom)
    if (below === undefined || below.row.page !== bottom.row.page) break
    if (!close(bottom.row, below.row) && !(formAlone(below.text) && within(bottom.row, below.row))) break
    if (title(below.text) || NOT_A_NAME.test(folded(below.text)) || addressLine(below.text)) break
    if (addressee(layout, below)) break
    // `CO. REG. NO: 123456-A` under the name is its registration, not its legal form (`Co.`); nor is a legal form
    // with its capital (`SARL AU CAPITAL DE 10 000 EUR`) a name of its own.
    if (REGISTRATION_LABEL.test(folded(below.raw)) || capitalLine(below.text)) break
    // A line ending in a house number is the street, whatever trade its name says (`BÄCKEREI RING 161`).
    if (/\d+\s?\p{L}?$/u.test(below.text.trim()) && !legalForm(below.text)) break
    if (!business(below.text)) break
    // A line that opens with a legal form names a company of its own (`SAS DISTRIBUTION DU CENTRE` under the
    // shop's sign `CARREFOUR MARKET`): the company that issues, not the name's second line.
    // So does a line that repeats the name above it as its first words (`dm-drogerie markt` over `dm-drogerie
    // markt GmbH + Co. KG`): the brand's sign, then its company's full name.
    // So does a name ended by its legal form that repeats a word of the sign's own (`Miramar Hoteles y Turismo, S.L.`
    // under `Hotel Miramar`, `Paco Martín e Hijos, S.L.` under `CASA PACO`): the company the sign is named for. A
    // brand over a company it does not name goes on with it (`GHEE HIANG` over `GH DISTRIBUTOR & MARKETING SDN BHD`,
    // as SROIE's annotators join them), and so do a trade's words (`REWE` over `Markt GmbH`).
    const sign = block.map(letters).join("")
    if (
      opensWithForm(below.text) ||
      (sign.length >= 3 && letters(below).startsWith(sign)) ||
      signOf(block.map((p) => p.text).join(" "), below.text)
    ) {
      block.splice(0, block.length, below)
      break
    }
    block.push(below)
  }
  // A legal form on a line of its own under the name (`FRUTTA E VERDURA LOMBARDA` over `S.r.l.`) marks it too.
  return { parts: block, marked: marked !== undefined || business(block.map((p) => p.text).join(" ")) }
}

/**
 * The labels of the web addresses a page prints, their hyphens dropped (`www.bluewave-design.co.uk`:
 * `bluewavedesign`, `co`, `uk`).
 */
const domainLabels = (layout: Layout, page: number): ReadonlySet<string> =>
  new Set(
    layout.rows
      .filter((r) => r.page === page)
      .flatMap((r) => [...folded(r.text).matchAll(/(?:www\.|:\/\/)([\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+)/gu)])
      .flatMap((m) => (m[1] ?? "").split("."))
      .map((label) => label.replace(/-/g, ""))
  )

/**
 * Whether a legal form alone on the line right under a part ends its name (`FRUTAS HERMANOS GARCÍA` over `C.B.`): it
 * marks it before a shop word further down does (`Mercado Central, puesto 14`, the stall's address).
 */
const formUnder = (layout: Layout, part: Part): boolean => {
  const below = partBeside(layout.rows[part.row.order + 1], part)
  return (
    below !== undefined &&
    below.row.page === part.row.page &&
    within(part.row, below.row) &&
    (formOnly(below.text) || capitalLine(below.text))
  )
}

/**
 * Whether a line is a legal form and its capital or register entry alone (`SARL AU CAPITAL DE 10 000 EUR`, `EURL au
 * capital de 5 000 €`): the name over it is the company's, and the line no name.
 */
const capitalLine = (text: string): boolean => registerLine(text) && formOnly(beforeRegister(text))

// The owner of a business with no legal form, named on the line under its name: `Inh. Peter Holzmann`, `Inhaberin:
// …`, `Prop. J. Smith`, `Proprietor: …`, `Eigenaar: …`, `Titular: …`, `Titolare: …` (folded).
const OWNER_LABEL =
  /^\W*(?:inh\.|inh:|inhaber(?:in)?|prop\.|proprietor|proprietress|eigenaar|eigenaresse|titular|titolare)[\s:]+\p{L}/u

/**
 * Whether the line right under a part names the business's owner (`Schreinerei Holzmann` over `Inh. Peter
 * Holzmann`): the part is the name the business trades under, whatever its words.
 */
const ownedUnder = (layout: Layout, part: Part): boolean => {
  const next = partBeside(layout.rows[part.row.order + 1], part)
  // A craft's seal may stand between them (`Holzwerk Bauer` over `Meisterbetrieb` over `Inh. Thomas Bauer`).
  const sealed = next !== undefined && seal(next.text)
  const upper = sealed ? next.row : part.row
  const below = sealed ? partBeside(layout.rows[part.row.order + 2], part) : next
  return (
    below !== undefined &&
    below.row.page === part.row.page &&
    within(part.row, upper) &&
    within(upper, below.row) &&
    OWNER_LABEL.test(folded(below.raw))
  )
}

/**
 * Whether a line is the sign of a company whose name, ended by its legal form, repeats one of the sign's own words
 * (not a trade's, a legal form's or a particle): `Hotel Miramar` of `Miramar Hoteles y Turismo, S.L.`.
 */
const signOf = (sign: string, name: string): boolean => {
  const own = (text: string) =>
    words(text).filter((w) => w.length >= 4 && !SHOP.has(w) && !legalForm(w) && !PARTICLES.has(w))
  const named = new Set(own(name))
  return endsWithForm(name) && own(sign).some((w) => named.has(w))
}

// A German craft's seal printed under its name (`Meisterbetrieb`, `Fachbetrieb`, `Innungsbetrieb`): no name's word.
const SEAL = /^\W*(?:meister|fach|innungs|familien|ausbildungs|handwerks)betrieb\W*$/

/** Whether a line is a craft's seal alone (`Meisterbetrieb`). */
const seal = (text: string): boolean => SEAL.test(folded(text))

/** Whether a text is a legal form's words and nothing of a name's (`S.A. DE C.V.`, `GmbH & Co. KG`, `SA`). */
const formOnly = (text: string): boolean =>
  formAlone(text) &&
  !text
    .split(/\s+/)
    .filter((w) => !legalForm(w))
    .some((w) => /\p{L}{3}/u.test(w))

/** A part's letters and figures, folded: how a brand and the name it opens are compared, however spaced and dotted. */
const letters = (part: Part): string => lettersOf(part.text)

const lettersOf = (text: string): string => folded(text).replace(/[^\p{L}\p{N}]/gu, "")

/**
 * A business name without the registration number or tax id printed after it: "AEON CO. (M) BHD (126926-H)",
 * "SUPERMERCADOS LA PLAZA, S.L. B-28012345".
 */
const nameOnly = (name: string): string =>
  name
    .replace(/\s*\([^)]*\d{4}[^)]*\).*$/u, "")
    .replace(/[\s,]+\p{Lu}{0,2}-?\d[\d.-]{6,}\p{Lu}?$/u, "")
    .trim()

/**
 * Whether a word of a part that the reader doubted is a word misread: a digit OCR confuses with a letter between
 * two letters (`ST0RE`, `HARDWAR5S`). Such a name is not given: a misread letter is a wrong name.
 */
const misread = (part: Part): boolean =>
  part.row.words.some(
    (w) => w.x0 >= part.x0 - 0.5 && w.x1 <= part.x1 + 0.5 && w.confidence < 1 && /\p{L}[015]\p{L}/u.test(w.text)
  )

/**
 * The issuer's name by the letterhead, or null. Only a name a legal form or a shop word marks is given: the first
 * plain line of a page is as often the recipient, a brand or a slogan as the issuer (an empty field is better than
 * a wrong one).
 */
export const company = (layout: Layout): Found | null => {
  const { parts, marked } = companyParts(layout)
  if (parts.length === 0 || !marked) return senderLineName(layout) ?? footerName(layout) ?? payeeName(layout)
  if (parts.some(misread)) return null
  const joined = parts.map((p) => p.text.trim()).join(" ")
  // A name with its own legal form is the company's, whatever partners the line under it names (`PANIFICIO F.LLI
  // ESPOSITO S.N.C.` over `di Esposito Mario & C.`).
  const name =
    (endsWithForm(joined) ? undefined : ownerUnder(layout, parts.at(-1) as Part)) ?? ownedName(layout, joined, parts)
  const registered = beforeRegister(name)
  const named = endsWithForm(registered) ? registered : name
  return found(withLegalForm(nameOnly(named).replace(/\s+/g, " ")), "layout")
}

// The small `di` or `de` a shop's owner opens with under its sign (`TRATTORIA DA MARIO` over `di Mario Rossi & C.
// s.a.s.`): of whom the sign is, no word of the name.
const OWNED = /^\s*d[ei]\s+(?=\p{Lu})/u

/** A name that opens with an owner's `di` or `de` under a sign (a plain line over it): the owner's, without it. */
const ownedName = (layout: Layout, name: string, parts: ReadonlyArray<Part>): string => {
  const first = parts[0]
  if (first === undefined || !OWNED.test(name)) return name
  const sign = partBeside(layout.rows[first.row.order - 1], first)
  const signed = sign !== undefined && sign.row.page === first.row.page && close(sign.row, first.row)
  return signed && nameLike(sign.text) && !/\d/.test(sign.text) ? name.replace(OWNED, "") : name
}

// A trading name's owner on the line under it, as Argentine, Spanish and Italian shops print it (`EL TALLER DEL
// AUTO` over `de Pérez Juan Carlos`, `Bar Sport` over `di Rossi Mario & C.`): a small `de` or `di`, then two
// capitalised words or more (particles between them).
const OWNER =
  /^\s*d[ei]\s+((?:\p{Lu}[\p{L}'’.]*|de|del|la|y|e|&|C\.|Cía\.)(?:\s+(?:\p{Lu}[\p{L}'’.]*|de|del|la|y|e|&|C\.|Cía\.)){1,5})\s*$/u

/** The owner a trading name's next line names (`de Pérez Juan Carlos`): the business's legal name. */
const ownerUnder = (layout: Layout, last: Part): string | undefined => {
  const below = partBeside(layout.rows[last.row.order + 1], last)
  if (below === undefined || below.row.page !== last.row.page || !within(last.row, below.row)) return undefined
  const name = OWNER.exec(below.raw)?.[1]
  return name !== undefined && (name.match(/\p{Lu}\p{Ll}*/gu) ?? []).length >= 2 ? name : undefined
}

/**
 * Whether a text names a company register or its entry (`Registro Mercantil …, Folio 87`, `RCS Lyon …`, `KvK`),
 * its long words read up to an OCR slip (`Compuny No. 03646416`, a figure for a letter: `Capitale s0ciale`).
 */
export const registerLine = (text: string): boolean => {
  const read = folded(text)
  if (REGISTER.test(read)) return true
  const mended = read.replace(/[\p{L}\p{N}]{5,}/gu, (w) => {
    if (!/\p{L}/u.test(w) || !wordLike(w) || REGISTER_WORD.has(w)) return w
    // One near word, or the one read alike but for figures OCR reads for letters (`s0ciale`: `sociale`, not `social`).
    const near = nearRegister(w)
    const alike = near.filter((n) => ocrKey(n) === ocrKey(w))
    return (alike.length === 1 ? alike[0] : near.length === 1 ? near[0] : undefined) ?? w
  })
  return mended !== read && REGISTER.test(mended)
}

const REGISTER = new RegExp(`(?<![a-z])(?:${REGISTER_WORDS.map((w) => w.replace(/\s+/g, "\\s+")).join("|")})(?![a-z])`)
const REGISTER_WORD = new Set(REGISTER_WORDS.flatMap((w) => w.split(/\s+/)))
const nearRegister = nearWords(REGISTER_WORD)

/**
 * The name a letterhead without one (a logo) leaves to the footer: the line right over the first page's legal
 * line (`NETPRESSE` over `Siège social : 16 rue Mollien …`, `Sarl au capital de …`), a short name alone, given only
 * when a legal form or a shop word marks it or the document prints it again (`Titulaire du compte : NETPRESSE`).
 */
const footerName = (layout: Layout): Found | null => {
  const first = layout.rows[0]?.page
  const height = first === undefined ? 0 : (layout.pageHeight.get(first) ?? 0)
  if (height === 0) return null
  const footer = layout.rows.filter((r) => r.page === first && r.y0 > 0.75 * height)
  const legal = footer.find((r) => registerLine(r.text))
  if (legal === undefined) return contactLineName(footer)
  const inLine = registerLineName(legal.text)
  if (inLine !== undefined) return found(withLegalForm(inLine), "position")
  // Its parts apart by commas, the name ended by its legal form before an address (`Fabrikam Supplies Ltd, Unit 4
  // Riverside Park, Bradford BD1 1AA. Company No. 01234567`), as a contact line's (`contactLineName`).
  const sender = senderName(legal.text).trim()
  if (sender !== legal.text.trim() && formedName(sender)) return found(withLegalForm(sender), "position")
  // The name may stand over two lines of its address or contacts (`Koffiehuis B.V.`, `Weena 664`, `3012 CN
  // Rotterdam`, `KvK …`): lines with figures, which no name has.
  let below = legal
  let above = layout.rows[legal.order - 1]
  const close = (row: Row | undefined): row is Row =>
    row !== undefined &&
    row.page === first &&
    row.y0 > 0.75 * height &&
    below.y0 - row.y1 <= 1.5 * (below.y1 - below.y0)
  for (let skipped = 0; skipped < 2 && close(above) && /\d/.test(above.text); skipped += 1) {
    // …or open a contact line of its own over the register's (`Musterhandel GmbH · Hauptstraße 1 · 10115 Berlin`).
    const opening = registerLineName(above.text)
    if (opening !== undefined) return found(withLegalForm(opening), "position")
    below = above
    above = layout.rows[above.order - 1]
  }
  if (!close(above) || above.cells.length !== 1) return null
  const name = above.text.trim()
  if (!nameLike(name) || /\d|@/.test(name) || name.split(/\s+/).length > 6 || closesAddress(folded(name))) return null
  const again = new RegExp(`(?<![\\p{L}\\p{N}])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`, "iu")
  const repeated = layout.rows.some((r) => r !== above && again.test(r.text))
  return business(name) || repeated ? found(withLegalForm(name), "position") : null
}

// Where cheques are made out to (`Please make all checks payable to Brightline Web Services Inc.`, `Chèques à
// l'ordre de …`, `a la orden de …`): the business that asks to be paid, whatever its letterhead.
const PAYEE =
  /(?:payable\s+to|(?:à|a)\s+(?:la\s+|l['’])?ord(?:re|en|em)\s+d[ei]|all['’]ordine\s+di):?\s+(.+?)[,;]?\s*$/iu

// The holder of the account a transfer is to be paid to (`Kontoinhaber: Muster GmbH`, `Account name: Acme Ltd`,
// `Bénéficiaire : Dupont SARL`, `Titular de la cuenta: Suministros Norte S.L.`, `Intestatario: Rossi Srl`,
// `Rekeninghouder`, `t.n.v.`) or the remittance's (`Remit to: Acme Ltd`), its name in the label's cell, the next
// or under it: the business that asks to be paid. Not the beneficiary's bank (`Beneficiary bank: Commerzbank AG`).
const HOLDER =
  /^\W*(?:kontoinhaber(?:in)?|account\s+(?:name|holder)|beneficiary(?:\s+name)?(?!\s*(?:'s\s+)?bank)|b[ée]n[ée]ficiaire(?!\s*banque)|titular(?:\s+de\s+la\s+cuenta)?|titulaire(?:\s+du\s+compte)?|intestatario|intestato\s+a|rekeninghouder|ten\s+name\s+van|t\.n\.v\.|remit\s+to|payee)\s*:?\s*(.*?)[,;]?\s*$/iu

/** The business cheques are to be made out to or a transfer paid to, its name ended by its legal form. */
const payeeName = (layout: Layout): Found | null => {
  for (const row of layout.rows) {
    const name = PAYEE.exec(row.text)?.[1]?.trim()
    if (name !== undefined && formedName(name)) return found(withLegalForm(name), "position")
    for (const [k, cell] of row.cells.entries()) {
      const held = HOLDER.exec(cell.text)?.[1]?.trim()
      // The label alone: its name in the next cell, else right under it (`Remit To:` over `Acme Widgets LLC`).
      const holder =
        held !== "" ? held : (row.cells[k + 1] ?? cellBelow(layout, row, cellStart(row, cell)))?.text.trim()
      if (holder !== undefined && formedName(holder)) return found(withLegalForm(holder), "position")
    }
  }
  return null
}

/**
 * The name a footer's contact line opens with, where no register line is printed (`Acme Web Services LLC · 500
 * Market St, San Francisco, CA 94105 · billing@acmeweb.com`): its first part, ended by its legal form, the others
 * an address or a contact.
 */
const contactLineName = (footer: ReadonlyArray<Row>): Found | null => {
  for (const row of footer) {
    const name = registerLineName(row.text)
    const contact = (part: string) =>
      addressLine(part) || /@|www\.|(?<![a-z])(?:tel|phone|fax)(?![a-z])/.test(folded(part))
    if (name !== undefined && segmentsOf(row.text).slice(1).some(contact)) return found(withLegalForm(name), "position")
    // Its parts apart by commas, the name ended by its legal form before an address (`Muster Software GmbH,
    // Beispielweg 3, 20095 Hamburg, USt-IdNr. …`).
    const sender = senderName(row.text)
    if (sender !== row.text && formedName(sender.trim())) return found(withLegalForm(sender.trim()), "position")
  }
  return null
}

/**
 * The name a window envelope's sender line opens with (`Berger Müller · Goethestraße 14 · 60313 Frankfurt`, over the
 * recipient's block), where the page prints it again in a cell of its own (its letterhead): a name printed twice,
 * once with its address after it, is the sender's, whatever its words.
 */
const senderLineName = (layout: Layout): Found | null => {
  const page = layout.rows[0]?.page
  const rows = layout.rows.filter((r) => r.page === page)
  for (const row of rows) {
    const [first = "", ...rest] = segmentsOf(row.text)
    const name = first.trim()
    if (rest.length < 2 || /\d|@|:/.test(name) || !nameLike(name) || !rest.some(addressLine)) continue
    if (!rest.some((segment) => addressEnd(segment))) continue
    const key = lettersOf(name)
    if (key.length < 4) continue
    const again = rows.some((r) => r !== row && r.cells.some((c) => lettersOf(c.text) === key))
    if (again) return found(name, "layout")
  }
  return null
}

/**
 * The name a register line opens with, its parts apart by dots or bars (`Koffiehuis B.V. · Weena 664 · 3012 CN
 * Rotterdam · KvK 24275051`, `Muster GmbH | Amtsgericht Berlin HRB 12345`): given only when it ends in its legal
 * form, for the other parts of such a line are an address, a register entry or a manager's name.
 */
const registerLineName = (text: string): string | undefined => {
  const segments = segmentsOf(text)
  const name = segments[0]?.trim() ?? ""
  // A part of its own: a name the register's words follow in one part (`Télécom Exemple SAS au capital de …`) is
  // not taken (measured: it gave a wrong issuer on a document no rule was written against).
  return segments.length > 1 && formedName(name) ? name : undefined
}

/** A text up to the register's words it goes on with (`… SAS au capital de 1 000 000 €`: `… SAS`), or all of it. */
const beforeRegister = (text: string): string => {
  const read = fold(text)
  const register = REGISTER.exec(read.text)
  return register === null
    ? text
    : text.slice(0, read.origin[register.index]).replace(/[\s,]+(?:au|con|mit|with)?[\s,]*$/iu, "")
}

/**
 * Whether a text is a name ended by its legal form, nothing else: a legal form alone names no one (`SARL`), nor does
 * a label's line (`Bankverbindung: Commerzbank AG`), a sentence (`Paiement par virement à BNP Paribas SA`) or a
 * parent company's line (`Ein Unternehmen der Beispiel Holding AG`).
 */
const formedName = (name: string): boolean => {
  const words = name.split(/\s+/)
  return (
    words.some((w) => !legalForm(w)) &&
    endsWithForm(name) &&
    nameLike(name) &&
    !/\d|@|:/.test(name) &&
    !registerLine(name) &&
    casing(words.slice(0, -2).join(" ")) !== "sentence" &&
    !GROUP.test(folded(name))
  )
}

// A parent company's line: `Ein Unternehmen der …`, `A member of …`, `Une société du groupe …`.
const GROUP =
  /^(?:ein(?:e)? (?:unternehmen|tochter)|an? (?:member|company|subsidiary|division) of|part of|une (?:societe|filiale)|membre d|una (?:empresa|sociedad|filial)|un'azienda|onderdeel van|uma empresa)/
