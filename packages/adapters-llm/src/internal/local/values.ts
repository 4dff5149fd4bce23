/**
 * One value per field: for each label found, the text to its right (rest of its cell, or the next cell of the row)
 * or, when nothing is to its right, in the cell below it, narrowed by the field's type (a date, an amount, a tax
 * id, a document number); the strongest label wins, then reading order. Concepts add their own rules: the total
 * (see `total`); a tax id, date or point-of-sale number with no label is the first one printed; a company or an
 * address with no label is read from the letterhead. Each value carries the certainty of its evidence
 * (`evidence.ts`): how its label matched, lowered when another candidate as strong gives another value.
 */

import { date } from "./dates.js"
import { type Evidence, type Found, found, weaker } from "./evidence.js"
import { address, blockLabel, company, taxStatus, withLegalForm } from "./issuer.js"
import { ALIAS, type Concept, conceptOf, findLabels, type Hit, LEXICON, labelsOf, NAME, type Target } from "./labels.js"
import { cellAt, cellBelow, cellStart, type Layout, type Row } from "./layout.js"
import { documentNumber } from "./numbers.js"
import { type Amount, amounts, codes, dates, type Match, pointOfSaleNumbers, taxIds } from "./patterns.js"
import { folded } from "./text.js"
import { total } from "./totals.js"

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
  const under = cellBelow(layout, hit.row, hit.start)
  return under === undefined ? "" : clean(under.text)
}

const numbers = (text: string): ReadonlyArray<Match> => {
  const pair = pointOfSaleNumbers(text)
  return pair.length > 0 ? pair : codes(text)
}

const typed = (concept: Concept, type: Target["type"]): ((text: string) => ReadonlyArray<Match>) | undefined => {
  if (concept === "taxId") return taxIds
  if (concept === "date" || type === "date") return dates
  if (concept === "number") return numbers
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

// "COMPANY NO", "COMPANY REG NO": the label of a registration number, not of the name.
const numberLabel = (hit: Hit): boolean =>
  /^[\s:.]*(no|nro|reg|id|#)(?![a-z])/.test(folded(hit.row.text.slice(hit.end)))

const candidates = (layout: Layout, target: Target, concept: Concept): Array<Candidate> =>
  findLabels(layout, labelsOf(target, concept)).flatMap((hit): Array<Candidate> => {
    if ((concept === "company" || concept === "address") && numberLabel(hit)) return []
    const order = hit.row.order * 10_000 + hit.start
    const beside = typed(concept, target.type) === undefined && concept !== "total" ? rightOf(hit) : restOfRow(hit)
    const right = pick(concept, target.type, beside)
    const evidence = labelEvidence(hit)
    if (right !== undefined)
      return [{ text: right.text, score: hit.label.strength, evidence, row: hit.row, order, ...amountOf(right) }]
    // The line below serves only a label with nothing to its right (column headers, labels on their own line).
    const under = pick(concept, target.type, below(layout, hit))
    if (under === undefined) return []
    const score = hit.label.strength * 0.9
    return [{ text: under.text, score, evidence: weaker(evidence), row: hit.row, order: order + 1, ...amountOf(under) }]
  })

/**
 * The evidence of a label: an alias or a vocabulary phrase word for word names the value outright; with an OCR
 * slip, or the field's own name, less so; the field's description weakly (`labels.ts` strengths).
 */
const labelEvidence = (hit: Hit): Evidence => {
  const { strength } = hit.label
  if (strength === ALIAS || strength === LEXICON) return hit.exact ? "exactLabel" : "label"
  return strength === NAME ? "label" : "weakLabel"
}

const amountOf = (m: Match): { readonly amount?: number; readonly decimals?: boolean } =>
  "value" in m && typeof m.value === "number" && "decimals" in m && typeof m.decimals === "boolean"
    ? { amount: m.value, decimals: m.decimals }
    : {}

const best = (list: ReadonlyArray<Candidate>): Candidate | undefined =>
  [...list].sort((a, b) => b.score - a.score || a.order - b.order)[0]

/** The first match of a typed pattern anywhere in the document (reading order), by position alone. */
const firstInDocument = (layout: Layout, finder: (text: string) => ReadonlyArray<Match>): Found | null => {
  for (const row of layout.rows) {
    const match = finder(row.text)[0]
    if (match !== undefined) return found(match.text, "position")
  }
  return null
}

/** The value of a simple (or catalog key column) field and the rules' certainty of it, or null. */
export const simpleValue = (layout: Layout, target: Target, concept: Concept = conceptOf(target)): Found | null => {
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
      !blockLabel(c.text))
  const all = candidates(layout, target, concept).filter(named)
  const chosen = best(all)
  if (chosen !== undefined) {
    // Another value under a label as strong: reading order chose, not the label.
    const competed = all.some((c) => c.score === chosen.score && c.text !== chosen.text)
    return found(concept === "company" ? withLegalForm(chosen.text) : chosen.text, chosen.evidence, competed)
  }
  if (concept === "taxId") return firstInDocument(layout, taxIds)
  if (concept === "company") return company(layout)
  if (concept === "address") return address(layout)
  return null
}
