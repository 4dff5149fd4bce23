/**
 * How sure the local rules are of a value (issue 18's extractor certainty): the evidence that found it, as one of
 * a few ordered levels, lowered when another candidate of the same level gives a different value. The levels are
 * ordered, not calibrated: core fits a logistic calibration on top of them (`Confidence`), so only their order
 * matters. Every rule module says which level each of its findings gets; this table is the only place with numbers.
 *
 * - `confirmed`: a labelled value the document's own figures confirm (a total that tendered − change or subtotal +
 *   taxes make: `arithmetic.ts`);
 * - `exactLabel`: a label that names the value outright, matched word for word — an amount-due, issue-date or
 *   document-number phrase of the vocabulary, or the skill's own alias (`TOTAL A PAGAR`, `Factura Nº`, `Fecha:`),
 *   or a plain `Total:` that is its whole label cell;
 * - `label`: a label matched with an OCR slip, a plain total label among other words, the field's own name, a
 *   vocabulary label with a colon only (`Ticket: 1234`), a date under its column header;
 * - `weakLabel`: a label found only through the field's description, a value read under its label instead of
 *   beside it, a bare number word (`Nº:`);
 * - `layout`: no label, but the layout and a mark of the kind agree: a letterhead name with a legal form or a shop
 *   word, line items of a receipt with no header row;
 * - `position`: position or pattern alone: the first tax id or point-of-sale number printed, an unlabelled date,
 *   the address under the letterhead's name.
 */

/** The evidence levels, strongest first. */
export type Evidence = "confirmed" | "exactLabel" | "label" | "weakLabel" | "layout" | "position"

/** Each level's certainty, in (0, 1), decreasing. */
export const LEVELS: Readonly<Record<Evidence, number>> = {
  confirmed: 0.97,
  exactLabel: 0.92,
  label: 0.8,
  weakLabel: 0.65,
  layout: 0.5,
  position: 0.3
}

/** The factor a competing candidate of the same level (a different value) applies. */
export const COMPETED = 0.7

const ORDER: ReadonlyArray<Evidence> = ["confirmed", "exactLabel", "label", "weakLabel", "layout", "position"]

/** The level below one (position stays position). */
export const weaker = (evidence: Evidence): Evidence => ORDER[ORDER.indexOf(evidence) + 1] ?? "position"

/** A value the rules found and how sure they are of it. */
export interface Found {
  readonly text: string
  readonly certainty: number
}

/** A found value at an evidence level, lowered when a competitor of that level gives another value. */
export const found = (text: string, evidence: Evidence, competed = false): Found => ({
  text,
  certainty: LEVELS[evidence] * (competed ? COMPETED : 1)
})
