/**
 * The blocks of the parties other than the issuer, under their labels (`Bill To:`, `Cliente:`, `Ship To:`,
 * `Lieferadresse`): whether a place on the page is in the recipient's block, and a block's name and address. A
 * field that names another party than the issuer (`nif_cliente`, `Customer name`, `Delivery address`) is read
 * there, never from the letterhead (`values.ts`).
 */

import { addressEnd, addressLine, closesAddress } from "./addressText.js"
import { type Found, found } from "./evidence.js"
import {
  afterCourtesy,
  cleaned,
  nameLike,
  type Part,
  partBeside,
  recipientCell,
  recipientCells,
  unlabelled,
  within
} from "./issuer.js"
import type { Layout, Row } from "./layout.js"
import { withLegalForm } from "./legalForms.js"
import { folded } from "./text.js"
import { DELIVERY_LABELS } from "./vocabulary.js"

/**
 * Whether a row's span from `x0` to `x1` is in the recipient's block: on the row of a recipient's label (`Cliente:
 * Papelería Globex S.A.`, right of the label), or on one of the next six rows under the label's cell, up to a gap of
 * two lines.
 */
export const inRecipientBlock = (layout: Layout, row: Row, x0: number, x1: number): boolean => {
  for (let i = row.order; i >= Math.max(0, row.order - 6); i--) {
    const above = layout.rows[i]
    if (above === undefined || above.page !== row.page) return false
    // Its values may follow the label in its cell (`Cliente: Ana García, 12345678Z`).
    const label = recipientCell(above, true)
    if (label !== undefined) return i === row.order ? x0 >= label.x0 - 1 : x1 > label.x0 && x0 < label.x0 + 200
    const next = layout.rows[i - 1]
    if (next !== undefined && above.y0 - next.y1 > 2 * (above.y1 - above.y0)) return false
  }
  return false
}

// A cell that opens with a delivery's label (folded).
const DELIVERY = new RegExp(`^\\W*(?:${DELIVERY_LABELS.map((l) => l.replace(/ /g, "\\s+")).join("|")})(?![a-z])`)

/** A party's block under its label: the bill-to's (`recipient`) or the ship-to's (`delivery`). */
export type Block = "recipient" | "delivery"

/**
 * The lines of a party's block: after its label in the label's cell (`Cliente: Papelería Globex S.A.`), then the
 * lines right under the label, to a gap of two lines, a contact or tax line, or five lines. The billing block is
 * the first recipient's label that is no delivery's; the delivery's, a delivery's label.
 */
const blockLines = (layout: Layout, block: Block): ReadonlyArray<string> => {
  for (const row of layout.rows) {
    const label = recipientCells(row, true).find((c) => DELIVERY.test(folded(c.text)) === (block === "delivery"))
    if (label === undefined) continue
    // The label alone in its cell leaves its lines to the rows under it; a courtesy title is followed by the name
    // (`Spett.le Bianchi Luca`).
    const colon = label.text.indexOf(":")
    const rest = colon < 0 ? (afterCourtesy(row, label)?.trim() ?? "") : unlabelled(label.text.slice(colon + 1)).trim()
    const lines = rest === "" ? [] : [rest]
    let above: Part = { row, x0: label.x0, x1: label.x1, text: label.text, raw: label.text }
    while (lines.length < 5) {
      const next = partBeside(layout.rows[above.row.order + 1], above)
      if (next === undefined || next.row.page !== row.page || !within(above.row, next.row)) break
      if (closesAddress(folded(next.raw))) break
      lines.push(cleaned(next.raw).trim())
      above = next
    }
    return lines
  }
  return []
}

/** The name of a party's block: its first line, when it reads as a name (no address, no figures). */
export const blockName = (layout: Layout, block: Block): Found | null => {
  const name = blockLines(layout, block)[0] ?? ""
  return nameLike(name) && !/\d/.test(name) && !addressLine(name) ? found(withLegalForm(name), "label") : null
}

/**
 * The address of a party's block: its lines after the name, when they end as addresses end (a postcode, a state or
 * a country in the last two).
 */
export const blockAddress = (layout: Layout, block: Block): Found | null => {
  const lines = blockLines(layout, block)
  const named = lines[0] !== undefined && !/\d/.test(lines[0]) && !addressLine(lines[0])
  const rest = named ? lines.slice(1) : lines
  if (rest.length === 0 || !rest.slice(-2).some(addressEnd)) return null
  return found(rest.join(" ").replace(/\s+/g, " "), "label")
}
