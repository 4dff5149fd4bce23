/**
 * The issuer's address: the lines under the letterhead's name (`issuer.ts`), given only when bounded and ending as
 * addresses end (`addressText.ts`). Found by layout, not by a label (`evidence.ts`: `position`).
 */
import { addressEnd, addressLine, closesAddress, hasStreet, registration, STOP_PATTERN } from "./addressText.js"
import { type Found, found } from "./evidence.js"
import { cellBeside, companyParts, type Part, segmentsOf } from "./issuer.js"
import type { Layout } from "./layout.js"
import { folded } from "./text.js"

/** Below this confidence the reader doubts a word (text layers read 1). */
const DOUBTED = 0.9

/** Whether the reader doubted a word of a part. */
const doubted = (part: Part): boolean =>
  part.row.words.some((w) => w.x0 >= part.x0 - 0.5 && w.x1 <= part.x1 + 0.5 && w.confidence < DOUBTED)

/**
 * The issuer's address under the letterhead's name, or null. Position is its only evidence, so it is given only
 * when the block is bounded on both sides and ends as addresses end: under the name (a registration number
 * between them skipped), closed by a contact or tax line (`TEL`, `GST ID`, `FAX`), its last two lines holding a
 * postcode or ending in a state or country (`addressEnd`). A block the window or the line limit cut, or one that
 * runs into a column of other text, is not an address anyone can vouch for; nor one with a word the reader doubted
 * (an OCR slip in a street name or a postcode cannot be checked). A first line with no figure and no street word
 * (a branch name, `IKEA CHERAS`) is not part of it.
 */
export const address = (layout: Layout): Found | null => {
  const { parts: name, marked } = companyParts(layout)
  const last = name.at(-1)
  // Under a line no legal form or shop word marks as a name (a column's labels, a title) is no letterhead's address.
  if (last === undefined || !marked) return null
  const sender = senderAddress(last)
  if (sender !== undefined) return sender
  const parts: Array<Part> = []
  let closed = false
  for (const row of layout.rows.slice(last.row.order + 1, last.row.order + 10)) {
    if (row.page !== last.row.page || parts.length >= 5) break
    const part = cellBeside(row, last)
    if (part === undefined) break
    const text = folded(part.raw)
    // The contact may share the address's last line: `… 43000 KAJANG, SELANGOR. TEL: 03-1234567`.
    const start = closesAddress(text) ? (STOP_PATTERN.exec(text)?.index ?? 0) : 0
    const before = part.raw.slice(0, start).trim()
    if (start > 0 && /\p{L}{2}/u.test(before) && addressEnd(before) && !closesAddress(folded(before))) {
      parts.push({ ...part, raw: before, text: before })
      closed = true
      break
    }
    // Registration numbers and tax ids printed under the name come before the address: skip them.
    if (parts.length === 0 && (registration(text) || closesAddress(text))) continue
    if (closesAddress(text)) {
      closed = true
      break
    }
    // A line of figures alone (`60891`) is another column's value under the town: nothing closes the block.
    if (!/\p{L}{2}/u.test(text)) break
    parts.push(part)
  }
  while (parts.length > 1 && !/\d/.test(parts[0]?.raw ?? "") && !addressLine(parts[0]?.raw ?? "")) parts.shift()
  if (!closed || parts.length === 0 || parts.some(doubted)) return null
  if (!parts.slice(-2).some((p) => addressEnd(p.raw))) return null
  // A town alone (`21081 LEIPZIG`) is not the address: a street word or a second figure (a house number) is in it.
  const text = parts.map((p) => p.raw).join(" ")
  if (!hasStreet(text) && (text.match(/\d+/g) ?? []).length < 2) return null
  return found(
    parts
      .map((p) => p.raw.trim())
      .join(" ")
      .replace(/\s+/g, " "),
    "position"
  )
}

/**
 * The address a sender line prints after the name (`Müller Elektro GmbH · Bahnhofstr. 5 · 10115 Berlin`, the return
 * address over a window envelope's recipient), up to a contact or tax id, ending as addresses end; or undefined.
 */
const senderAddress = (part: Part): Found | undefined => {
  const [first, ...rest] = segmentsOf(part.raw)
  if (first === undefined || rest.length === 0 || !folded(first).includes(folded(part.text))) return undefined
  const end = rest.findIndex((s) => closesAddress(folded(s)))
  const segments = end < 0 ? rest : rest.slice(0, end)
  const text = segments.join(", ")
  if (segments.length === 0 || doubted(part) || !addressEnd(segments.at(-1) ?? "")) return undefined
  return hasStreet(text) || (text.match(/\d+/g) ?? []).length >= 2 ? found(text, "position") : undefined
}
