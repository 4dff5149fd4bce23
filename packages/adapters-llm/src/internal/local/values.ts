/**
 * One value per field: for each label found, the text to its right (rest of its cell, or the next cell of the row)
 * or, when nothing is to its right, in the cell below it, narrowed by the field's type (a date, an amount, a tax
 * id, a document number); the strongest label wins, then reading order. Concepts add their own rules: the total
 * (see `total`); a tax id, date or point-of-sale number with no label is the first one printed; a company or an
 * address with no label is read from the letterhead. Each value carries the certainty of its evidence
 * (`evidence.ts`): how its label matched, lowered when another candidate as strong gives another value.
 */

import { address } from "./address.js"
import { addressLine } from "./addressText.js"
import type { Role } from "./arithmetic.js"
import { asksForCurrency, currency } from "./currency.js"
import { date } from "./dates.js"
import { type Evidence, type Found, found, weaker } from "./evidence.js"
import { blockLabel, company, documentTitle, otherPartysRow, purchaseOrder, taxStatus } from "./issuer.js"
import {
  ALIAS,
  businessOf,
  type Concept,
  conceptOf,
  fieldWords,
  findLabels,
  type Hit,
  LEXICON,
  labelsOf,
  NAME,
  OWN_LEXICON,
  type Target,
  TOTAL_TRIGGERS
} from "./labels.js"
import { cellAt, cellBelow, cellStart, columnsApart, type Layout, type Row, restOfCell, spanOf } from "./layout.js"
import { legalForm, withLegalForm } from "./legalForms.js"
import { documentNumber } from "./numbers.js"
import { blockAddress, blockName, inRecipientBlock } from "./parties.js"
import {
  type Amount,
  amounts,
  codes,
  dates,
  emails,
  labelledTaxIds,
  type Match,
  phones,
  pointOfSaleNumbers,
  taxIds
} from "./patterns.js"
import { asksForPayment, paymentMethod } from "./payment.js"
import { folded, tokens } from "./text.js"
import { figureAmount, taxRate, total } from "./totals.js"
import { unitAmount } from "./units.js"
import {
  type BusinessKind,
  CHANGE_WORDS,
  DOCUMENT_NOUNS,
  DOCUMENT_TITLES,
  INCLUDED_AFTER_WORDS,
  INCLUDING_WORDS,
  NAME_WORDS,
  NET_WORDS,
  PARTY_WORDS,
  PAYING_WORDS,
  READER_WORDS,
  ROUNDING_WORDS,
  SAVING_WORDS,
  SUPPLIER_WORDS,
  TAX_WORDS,
  TENDER_WORDS,
  YES_NO_WORDS
} from "./vocabulary.js"

/** A value found, with how sure the rules are and where it was printed. */
interface Candidate {
  readonly text: string
  readonly score: number
  readonly evidence: Evidence
  readonly row: Row
  /** Reading-order position of the label (right of it before below it). */
  readonly order: number
  readonly amount?: number
  readonly decimals?: boolean
  /** Where its label is printed on its row (left and right edges). */
  readonly x0: number
  readonly x1: number
  /** Whether its label was read word for word (no OCR slip tolerated). */
  readonly exact: boolean
  /** Its label's words. */
  readonly label: ReadonlyArray<string>
}

const SEPARATORS = /^[\s:;=#\-–—.)(/|$€]+/u

const clean = (text: string): string =>
  text
    .replace(SEPARATORS, "")
    .replace(/[\s:;,|]+$/u, "")
    .trim()

/**
 * The text to the right of a label: the rest of its cell, else the next cell. A party's name or address is never
 * across a column gap (eight line heights) from its label: that cell is another column's (`Razón Social: | … |
 * Nº 0005-00011643`, the name printed under the label).
 */
const rightOf = (hit: Hit, concept: Concept): string => {
  const { row } = hit
  const cell = cellAt(row, hit.start)
  if (cell === undefined) return ""
  const raw = restOfCell(row, hit)
  // A label that goes on to a colon (`Domicilio fiscal:`, `Dirección de envío:`): its words are no value; the value
  // is what follows the colon in the cell (`Nombre y apellidos: Juan Pérez García`), if anything.
  const rest = clean(LABEL_GOES_ON.test(raw) ? "" : (LABEL_GOES_ON_TO.exec(raw)?.[1] ?? raw))
  if (rest !== "") return rest
  const next = row.cells[row.cells.indexOf(cell) + 1]
  if (next === undefined || headerRow(row)) return ""
  const party = concept === "company" || concept === "address"
  return party && columnsApart(row, cell, next) ? "" : clean(next.text)
}

/**
 * Whether a row is a header's: three cells or more of words alone, no figure and no colon (`Rechnungsdatum |
 * Lieferdatum | Kundennr. | Rechnungsnr.`): the cell beside a label is the next column's label, its value under it.
 */
const headerRow = (row: Row): boolean => row.cells.length >= 3 && !/[\d:]/.test(row.text)

// The rest of a label's cell when the label goes on in it up to a colon: a few words and nothing after the colon;
// or a few words with no figure (`y apellidos`, `of patient`), the colon and its value.
const LABEL_GOES_ON = /^\s+\p{L}[^:]{0,30}:\s*$/u
const LABEL_GOES_ON_TO = /^\s+\p{L}[^:\d]{0,30}:\s+(\S.*)$/u

/**
 * The rest of the label's row after it (for typed values that may sit a few cells away); for an amount other than
 * the total, up to the next label in it (`Bultos: 3    Peso: 24,5 kg`: the parcels' count is no weight).
 */
const restOfRow = (hit: Hit, concept: Concept): string => {
  const rest = hit.row.text.slice(hit.end)
  return concept === "total" ? rest : rest.replace(NEXT_LABEL, "")
}

// Another label further on a row: a gap, then words without figures up to a colon or another figure (`Gross pay
// 3,440.00 | Total deductions 826.04`), and what follows.
const NEXT_LABEL = /(?<=\d[^\s]*)\s{2,}\p{L}[^\d:]{0,30}(?::|(?=\s\S*\d)).*$/u

/** The cell under a label, on one of the next two rows of the page. */
const below = (layout: Layout, hit: Hit): string => {
  const under = cellBelow(layout, hit.row, hit.start)
  return under === undefined ? "" : clean(under.text)
}

const numbers = (text: string): ReadonlyArray<Match> => {
  const pair = pointOfSaleNumbers(text)
  return pair.length > 0 ? pair : codes(text)
}

const typed = (concept: Concept, type: Target["type"]): ((text: string) => ReadonlyArray<Match>) | undefined => {
  if (concept === "taxId") return labelledTaxIds
  if (concept === "email") return emails
  if (concept === "phone") return phones
  if (concept === "date" || type === "date") return dates
  if (concept === "number") return numbers
  if (type === "float" || type === "integer") return amounts
  if (type === "boolean") return yesOrNo
  return undefined
}

const YES_NO = new Set(YES_NO_WORDS)

/** A yes or a no opening a text (`NO`, `Sí`, `Yes`, `Ja`, `[X]`, `☑`), as printed. */
const yesOrNo = (text: string): ReadonlyArray<Match> => {
  const mark = /^\s*(\[\s*[xX]?\s*\]|[✓✔☑☒☐])/u.exec(text)
  if (mark?.[1] !== undefined) return [{ text: mark[1], start: mark.index, end: mark.index + mark[0].length }]
  const first = tokens(folded(text))[0]
  return first === undefined || !YES_NO.has(first.text)
    ? []
    : [{ text: text.slice(first.start, first.end), start: first.start, end: first.end }]
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

// "COMPANY NO", "COMPANY REG NO": the label of a registration number, not of the name, by the text `beside` it (a
// number word in a cell across the page is another label's: `Razón Social: | Nº 0005-00011643`).
const numberLabel = (hit: Hit, beside: string): boolean =>
  /^[\s:.]*#/.test(hit.row.text.slice(hit.end)) || /^(no|nro|reg|id)(?![a-z])/.test(folded(beside))

/**
 * Whether a party's label goes on in its cell up to a colon with another party's word (`Dirección de envío:`,
 * `Razón social del cliente:`): a label of the recipient's or the delivery's, for a field that asks for neither.
 * Its words are no value (`de envío` had been given as the issuer's address), nor is what follows.
 */
const othersLabel = (hit: Hit, target: Target): boolean => {
  const rest = restOfCell(hit.row, hit)
  const party = partyOf(target)
  if (!LABEL_GOES_ON.test(rest) || party === "recipient" || party === "delivery") return false
  return tokens(folded(rest)).some((t) => PARTIES.recipient.has(t.text) || PARTIES.delivery.has(t.text))
}

/**
 * Whether a one-word name label opens a name rather than labels one: the first word of its cell, nothing between it
 * and the next word, and a legal form in the rest (`EMPRESA EJEMPLO S.A. DE C.V.`, `COMPANY SHOP SDN BHD`) or alone
 * on the line under it (`EMPRESA EJEMPLO` over `S.A. DE C.V.`).
 */
const nameOpening = (layout: Layout, hit: Hit): boolean => {
  const cell = cellAt(hit.row, hit.start)
  if (cell === undefined || hit.label.tokens.length !== 1) return false
  const start = cellStart(hit.row, cell)
  const rest = hit.row.text.slice(hit.end, start + cell.text.length)
  const under = below(layout, hit)
  const formUnder = legalForm(under) && !/\d/.test(under) && under.split(/\s+/).length <= 4
  return hit.start === start && /^ \p{L}/u.test(rest) && (legalForm(rest) || formUnder)
}

const SUPPLIER = new Set(SUPPLIER_WORDS)

/** Whether a field asks for the supplier (`proveedor`, `Vendor name`), whom a purchase order addresses. */
const asksForSupplier = (target: Target): boolean => [...fieldWords(target)].some((w) => SUPPLIER.has(w))

/**
 * The letterhead's name where it shows the kind of business a field names (`HOTEL MIRAMAR PLAYA S.A.` for `hotel`),
 * or its first rows do; none where they show another kind: an expense skill's `hotel` on a fuel receipt, `banco` on
 * an invoice (its payment details' bank).
 */
const businessName = (layout: Layout, kind: BusinessKind): Found | null => {
  const name = company(layout)
  if (name === null) return null
  const words = new Set(kind.named)
  const top = layout.rows.slice(0, 3).map((row) => row.text)
  return [name.text, ...top].some((text) => tokens(folded(text)).some((t) => words.has(t.text))) ? name : null
}

const TITLES = new Set([...DOCUMENT_TITLES, ...DOCUMENT_NOUNS])

/** Whether a text is a document's noun alone (`FOLIO`, `Invoice`). */
const titleOnly = (text: string): boolean => {
  const words = tokens(folded(text))
  return words.length > 0 && words.length <= 2 && words.every((w) => TITLES.has(w.text))
}

/** The text of a label's cell from the label on: the name a one-word label opens. */
const nameFrom = (hit: Hit): string | undefined => {
  const cell = cellAt(hit.row, hit.start)
  return cell === undefined
    ? undefined
    : clean(hit.row.text.slice(hit.start, cellStart(hit.row, cell) + cell.text.length))
}

// A number's word after a label, before the figures it introduces (`Room No. 502`, `Zimmer Nr. 31`, `Habitación nº
// 214`): no part of the value.
const NUMBER_WORD = /^(?:n[º°o]|nr|no|num|number|numero|número|nummer)(?:\.\s*:?|\s*:|\s)\s*(?=\S*\d)/iu

/**
 * Whether a label a number's word follows (`Employee No: 10442`, `Room No. 502`) labels a number a field does not
 * ask for: one no concept reads that asks for no number (`trabajador`: the number is no employee's name; not
 * `habitacion` described `Número de habitación`, nor an integer).
 */
const otherNumber = (hit: Hit, target: Target, concept: Concept): boolean =>
  concept === "none" &&
  NUMBER_WORD.test(restOfCell(hit.row, hit).trimStart()) &&
  target.type !== "integer" &&
  ![...fieldWords(target)].some((w) => NUMBERS.has(w))

/** The text beside a label without a number's word that opens it (`No: 502`), for a field no concept reads. */
const numbered = (text: string, concept: Concept): string => (concept === "none" ? text.replace(NUMBER_WORD, "") : text)

// A field's words for a number (`numero`, `number`, `Nr.` are read as `no`; `N°` as `n`).
const NUMBERS = new Set(["no", "n", "nummer"])

const candidates = (layout: Layout, target: Target, concept: Concept): Array<Candidate> =>
  findLabels(layout, labelsOf(target, concept)).flatMap((hit): Array<Candidate> => {
    const plain = typed(concept, target.type) === undefined && concept !== "total"
    if (otherNumber(hit, target, concept)) return []
    const opening = (concept === "company" || plain) && nameOpening(layout, hit)
    if (concept === "company" && opening) return []
    // A word of the field's opening a business's name (`HOTEL MIRAMAR PLAYA S.A.` for `hotel`): the name is the value.
    const named = plain && opening ? nameFrom(hit) : undefined
    const beside = named ?? (plain ? numbered(rightOf(hit, concept), concept) : restOfRow(hit, concept))
    if ((concept === "company" || concept === "address") && (numberLabel(hit, beside) || othersLabel(hit, target)))
      return []
    // A document's title the label's word opens (`GUEST FOLIO`, `CUSTOMER INVOICE`): no value of the field.
    if (concept === "none" && plain && titleOnly(beside)) return []
    const order = hit.row.order * 10_000 + hit.start
    const right = pick(concept, target.type, beside)
    const evidence = labelEvidence(hit)
    const [x0, x1] = spanOf(hit.row, hit.start, hit.end)
    const at = { row: hit.row, x0, x1, exact: hit.exact, label: hit.label.tokens }
    if (right !== undefined)
      return [{ text: right.text, score: hit.label.strength, evidence, order, ...at, ...amountOf(right) }]
    // The line below serves only a label with nothing to its right (column headers, labels on their own line).
    const under = pick(concept, target.type, below(layout, hit))
    if (under === undefined) return []
    const score = hit.label.strength * 0.9
    return [{ text: under.text, score, evidence: weaker(evidence), order: order + 1, ...at, ...amountOf(under) }]
  })

/**
 * The evidence of a label: an alias or a vocabulary phrase word for word names the value outright; with an OCR
 * slip, or the field's own name, less so; the field's description weakly (`labels.ts` strengths).
 */
const labelEvidence = (hit: Hit): Evidence => {
  const { strength } = hit.label
  if (strength === ALIAS || strength === LEXICON || strength === OWN_LEXICON) return hit.exact ? "exactLabel" : "label"
  return strength === NAME ? "label" : "weakLabel"
}

const amountOf = (m: Match): { readonly amount?: number; readonly decimals?: boolean } =>
  "value" in m && typeof m.value === "number" && "decimals" in m && typeof m.decimals === "boolean"
    ? { amount: m.value, decimals: m.decimals }
    : {}

/** The strongest label's value; between labels as strong, one read word for word, then the first printed. */
const best = (list: ReadonlyArray<Candidate>): Candidate | undefined =>
  [...list].sort((a, b) => b.score - a.score || Number(b.exact) - Number(a.exact) || a.order - b.order)[0]

/**
 * The first match of a typed pattern anywhere in the document (reading order), by position alone, where `where`
 * takes its place.
 */
const firstInDocument = (
  layout: Layout,
  finder: (text: string) => ReadonlyArray<Match>,
  where: (row: Row, x0: number, x1: number) => boolean
): Found | null => {
  for (const row of layout.rows)
    for (const match of finder(row.text)) {
      const [x0, x1] = spanOf(row, match.start, match.end)
      if (where(row, x0, x1)) return found(match.text, "position")
    }
  return null
}

const NET = new Set(NET_WORDS)
const CHANGE = new Set(CHANGE_WORDS)
// A word of paying names the total paid as often (`Importe pagado`): the money handed over is named otherwise.
const TENDER = new Set(TENDER_WORDS.filter((w) => !PAYING_WORDS.includes(w)))
const SAVING = new Set(SAVING_WORDS)
const ROUNDING = new Set(ROUNDING_WORDS)
const TAX = new Set(TAX_WORDS)
const TOTALS = new Set(TOTAL_TRIGGERS)
const RATE_WORDS = new Set(["rate", "tipo", "porcentaje", "percent", "percentage", "pct", "satz", "steuersatz", "taux"])
const INCLUDING = new Set([...INCLUDING_WORDS, ...INCLUDED_AFTER_WORDS, "incluidas", "incluidos"])

/**
 * The figure of the totals block an amount field asks for: the net amount (`base_imponible`, `Net amount`, `total
 * sin IVA`; `total neto` stays a total, as receipts print it), the tax (`cuota_iva`, `VAT amount`, `Total IVA`;
 * `total con IVA` is the total), the tax's rate (`tipo_iva`, `VAT rate`), the change, the money handed over, a
 * discount or the rounding (`cambio`, `Importe entregado`, `descuento`). Its name and aliases say it first; its
 * description only when they name neither a figure nor a total (`total` described `Importe total, impuestos
 * incluidos` is the total). Where the totals block prints no single such figure, the field's labels are read.
 */
const figureRole = (target: Target): Exclude<Role, "charge"> | "rate" | undefined => {
  if (target.type !== "float" && target.type !== "integer") return undefined
  const words = [...fieldWords(target)]
  // A tax's rate (`tax_rate`, `tipo_iva`, `Steuersatz`) is no amount of the totals block: its percentage.
  if (words.some((w) => RATE_WORDS.has(w)))
    return words.some((w) => TAX.has(w) || w === "steuersatz") ? "rate" : undefined
  const roleIn = (list: ReadonlyArray<string>): Exclude<Role, "charge"> | "total" | undefined => {
    const has = (set: ReadonlySet<string>) => list.some((w) => set.has(w))
    if (has(NET) && !(list.includes("total") && list.includes("neto"))) return "subtotal"
    if (has(TAX) && !has(INCLUDING)) return "tax"
    // The money handed over, the change given back, a discount, the rounding (`entregado`, `Cambio`, `descuento`,
    // `Rounding adj`): the figure so labelled; a total paid (`total_pagado`) is the total.
    if (has(CHANGE)) return "change"
    if (has(TOTALS)) return "total"
    if (has(TENDER)) return "tendered"
    if (has(SAVING)) return "discount"
    return has(ROUNDING) ? "rounding" : undefined
  }
  const role = roleIn([...fieldWords({ ...target, description: "" })]) ?? roleIn(words)
  return role === "total" ? undefined : role
}

const PARTIES = {
  recipient: new Set(PARTY_WORDS.recipient),
  issuer: new Set(PARTY_WORDS.issuer),
  delivery: new Set(PARTY_WORDS.delivery)
}

/** The party a field names (`nif_cliente`, `Supplier VAT number`, `Delivery address`), if one. */
const partyOf = (target: Target): "recipient" | "issuer" | "delivery" | undefined => {
  const named = (words: ReadonlySet<string>) => {
    const list = [...words]
    const parties = (["delivery", "recipient", "issuer"] as const).filter((p) => list.some((w) => PARTIES[p].has(w)))
    // A delivery is the recipient's (`Customer delivery address`): it names the block.
    return parties[0] === "delivery" ? "delivery" : parties.length === 1 ? parties[0] : undefined
  }
  return named(fieldWords(target))
}

/** The party a sub-field's object names (`cliente`, `Datos del emisor`), where the sub-field names none itself. */
const parentParty = (target: Target): "recipient" | "issuer" | "delivery" | undefined =>
  target.parent === undefined || partyOf(target) !== undefined
    ? undefined
    : partyOf({ name: target.parent, type: target.type, aliases: [], description: "" })

const YOUR = new Set(READER_WORDS)

/** Whether the cell at `x0` opens with a word that addresses the reader: its values are the recipient's. */
const addressedToReader = (row: Row, x0: number): boolean => {
  const cell = row.cells.find((c) => x0 >= c.x0 - 0.5 && x0 <= c.x1 + 0.5)
  return cell !== undefined && YOUR.has(tokens(folded(cell.text))[0]?.text ?? "")
}

/** The value of a simple (or catalog key column) field and the rules' certainty of it, or null. */
export const simpleValue = (layout: Layout, target: Target, concept: Concept = conceptOf(target)): Found | null => {
  if (asksForCurrency(target)) return currency(layout, target)
  const figure = figureRole(target)
  if (figure === "rate") return taxRate(layout)
  // A figure the totals block does not print may be labelled by the field's own words (`neto` described `Líquido a
  // percibir` on a payslip): its labels then find it.
  const figured = figure === undefined ? null : figureAmount(layout, figure)
  if (figured !== null) return figured
  if (concept === "total") return total(layout, target)
  if (concept === "date") return date(layout, target)
  if (concept === "number") return documentNumber(layout, target)
  // "COMPANY NO : 734055-M" is a registration number, not the company's name.
  const named = (c: Candidate) =>
    (concept !== "company" && concept !== "address") ||
    (/\p{L}{3}/u.test(c.text) &&
      // A letter OCR added before it (`Company I Reg. No.:`) leaves it a registration's label.
      !/^(?:[a-z]\s+)?(no|reg|nro|id)(?![a-z])/.test(folded(c.text)) &&
      !taxStatus(c.text) &&
      // The cell beside `Seller:` may be the buyer's label (`Seller: | Bill To:`), not a name.
      !blockLabel(c.text) &&
      // A store's label may give its number and address (`Tienda 1234 - C/ Alcalá 300 Madrid`): no name but a
      // company's with its legal form is an address line.
      (concept !== "company" || !addressLine(c.text) || legalForm(c.text)))
  // A tax id, e-mail or name of one party (`NIF del cliente`, `Supplier email`, `Customer name`): in its block, or
  // out of the recipient's.
  // A sub-field that names no party takes its object's (`cliente.nif`, `emisor.nombre`), as a preference: a value
  // its labels find out of that party's block still serves where none is in it.
  const inherited = parentParty(target)
  const party = partyOf(target) ?? inherited
  const side =
    concept === "taxId" || concept === "email" || concept === "phone" || concept === "company" || concept === "address"
      ? party
      : undefined
  const ofParty = (row: Row, x0: number, x1: number) =>
    side === undefined || (inRecipientBlock(layout, row, x0, x1) || addressedToReader(row, x0)) === (side !== "issuer")
  // The issuer's name is never on a row of another party's tax id.
  const issuers = (c: Candidate) =>
    concept !== "company" || side === "recipient" || side === "delivery" || !otherPartysRow(layout, c.row)
  // A purchase order's supplier (`Vendor:`, `Proveedor:`) is no issuer's: the buyer issues it.
  const ordered = concept === "company" && !asksForSupplier(target) && purchaseOrder(layout)
  const issuing = (c: Candidate) => !ordered || !c.label.some((w) => SUPPLIER.has(w))
  const labelled = candidates(layout, target, concept).filter(named).filter(issuers).filter(issuing)
  const sided = labelled.filter((c) => ofParty(c.row, c.x0, c.x1))
  const all = inherited !== undefined && sided.length === 0 ? labelled : sided
  // Another party's address is its block's lines under its label (`Adresse de livraison` over a name and two lines
  // of address), not the label's one cell under it: the block's own reading comes first.
  const blockOf = party === "recipient" || party === "delivery" ? party : undefined
  const blockAddressed = concept === "address" && blockOf !== undefined ? blockAddress(layout, blockOf) : null
  if (blockAddressed !== null) return blockAddressed
  const chosen = best(all)
  if (chosen !== undefined) {
    // Another value under a label as strong: reading order chose, not the label.
    const competed = all.some((c) => c.score === chosen.score && c.text !== chosen.text)
    return found(concept === "company" ? withLegalForm(chosen.text) : chosen.text, chosen.evidence, competed)
  }
  if (concept === "taxId") return firstInDocument(layout, taxIds, ofParty)
  if (concept === "email") return firstInDocument(layout, emails, ofParty)
  if (concept === "phone") return firstInDocument(layout, phonesOnly, ofParty)
  // A kind of business's name (`hotel`, `banco`): the letterhead's where it shows that kind.
  const business = concept === "company" && blockOf === undefined ? businessOf(target) : undefined
  if (business !== undefined) return businessName(layout, business)
  // A purchase order's letterhead is the buyer's: its supplier is only where a label names it.
  if (concept === "company" && blockOf === undefined && asksForSupplier(target) && purchaseOrder(layout)) return null
  // Another party's name or address is in its block under its label, never the letterhead's.
  if (concept === "company") return blockOf === undefined ? company(layout) : blockName(layout, blockOf)
  if (concept === "address") return blockOf === undefined ? address(layout) : blockAddress(layout, blockOf)
  if (concept === "none" && blockOf !== undefined && target.type === "string" && namesOne(target, blockOf))
    return blockName(layout, blockOf)
  // The issuer's name (`Nome do emitente`, `emisor.nombre`): the letterhead's.
  if (concept === "none" && party === "issuer" && target.type === "string" && namesOne(target, "issuer"))
    return company(layout)
  // An amount by its unit (`litros`, `Consumo en kWh`): the one printed with it (`45,20 l`).
  const measured = unitAmount(layout, target)
  if (measured !== null) return measured
  // How it was paid, where no label says: the tender row under the totals.
  if (target.type === "string" && asksForPayment(target)) return paymentMethod(layout)
  // What kind of document it is (`tipo_documento`, `Document type`): its title.
  if (target.type === "string" && asksForDocumentType(target)) return documentTitle(layout)
  return null
}

/**
 * Every e-mail address or phone number the document prints, in reading order and each once, for a list field that
 * asks for them (`emails`, `Teléfonos`): what the pages print of that kind is the list.
 */
export const everyValue = (layout: Layout, target: Target): ReadonlyArray<string> => {
  // A list of objects (a document's lines) asks for none: its concept is not read.
  if (target.type !== "string") return []
  const concept = conceptOf(target)
  const finder = concept === "email" ? emails : concept === "phone" ? phonesOnly : undefined
  if (finder === undefined) return []
  return [...new Set(layout.rows.flatMap((row) => finder(row.text).map((m) => m.text)))]
}

/**
 * The phone numbers of a text, not a phone's figures inside an account's number or a tax id (`GB29 NWBK 6016 1331
 * 9268 19`, `SIRET 732 829 320 00074`).
 */
const phonesOnly = (text: string): ReadonlyArray<Match> => {
  const spans = [
    ...[...text.matchAll(ACCOUNT)].map((m) => ({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length })),
    ...labelledTaxIds(text)
  ]
  return phones(text).filter((m) => !spans.some((span) => m.start < span.end && m.end > span.start))
}

// An IBAN as printed, in groups or not (`GB29 NWBK 6016 1331 9268 19`, `ES9121000418450200051332`).
const ACCOUNT = /(?<![A-Z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?(?![A-Z0-9])/g

// A field's words for a kind (`tipo`, `type`, `Art`) and for a document, or one that says both (`Belegart`).
const KIND_WORDS = new Set(["tipo", "type", "typ", "kind", "clase", "classe", "soort", "art", "genre"])
const DOCUMENT_WORDS = new Set(["documento", "document", "dokument", "doc", "comprobante", "beleg", "documenttype"])
const DOCUMENT_KIND = new Set(["dokumentart", "belegart", "dokumenttyp", "belegtyp", "documenttype", "doctype"])

/** Whether a field asks what kind of document it is (`tipo_documento`, `Document type`, `Belegart`). */
const asksForDocumentType = (target: Target): boolean => {
  const words = [...fieldWords(target)]
  return (
    words.some((w) => DOCUMENT_KIND.has(w)) ||
    (words.some((w) => KIND_WORDS.has(w)) && words.some((w) => DOCUMENT_WORDS.has(w)))
  )
}

const NAMES = new Set(NAME_WORDS)

/** Whether a field asks for a party's name (`customer_name`, `Nombre del cliente`, or the party alone: `cliente`). */
const namesOne = (target: Target, party: "recipient" | "delivery" | "issuer"): boolean => {
  const list = [...fieldWords(target)].filter((w) => !EITHER.has(w))
  return list.some((w) => NAMES.has(w)) || list.every((w) => PARTIES[party].has(w))
}

// The words between a party's two names in a description (`Cliente o receptor`, `Buyer or customer`).
const EITHER = new Set(["o", "u", "or", "oder", "ou", "of", "y", "and", "e", "et", "und", "en"])
