/**
 * The issuer's address: the lines under the letterhead's name (`issuer.ts`), given only when bounded and ending as
 * addresses end (`addressText.ts`). Found by layout, not by a label (`evidence.ts`: `position`).
 */
import { addressEnd, addressLine, closesAddress, hasStreet, registration, STOP_PATTERN } from "./addressText.js"
import { type Found, found } from "./evidence.js"
import { cellBeside, cleaned, companyParts, type Part, recipientCells, segmentsOf, title } from "./issuer.js"
import { type Layout, overlap, type Row, wordHeight } from "./layout.js"
import { folded } from "./text.js"

/** Below this confidence in its letters the reader doubts a word (text layers read 1). */
const DOUBTED = 0.9

/**
 * Whether the reader doubted a letter of a part's words (`letters`, not `confidence`): the recognizer splits a
 * letter's probability between its marks (`A`, `Á`) wherever a mark is in doubt, so a word read right had read as
 * doubted as one misread (`JALAN` 0.33, `MUBA` 0.39). Summed over the marks where the page settles them, most words
 * read right reach 0.9 and misread ones stay under it (`MUBA` 0.67, `FAHANG` 0.70); a mark the page does not settle
 * stays a doubt (`BATIMENT` for `BÂTIMENT`: MEASUREMENTS.md, "Letters and marks").
 */
const doubted = (part: Part): boolean =>
  part.row.words.some((w) => w.x0 >= part.x0 - 0.5 && w.x1 <= part.x1 + 0.5 && w.letters < DOUBTED)

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
  // Under a line no legal form or shop word marks as a name (a column's labels, a title) is no letterhead's address:
  // the letterhead may print none (a logo's).
  if (last === undefined || !marked) return headless(layout)
  return senderAddress(last) ?? blockFrom(layout, last.row.order + 1, last, true)
}

/**
 * The address block read down a column from row `from`, as the part `column` sets it, or null: see `address`.
 * `underName`: the block follows a name, so registration lines before it are skipped.
 */
const blockFrom = (layout: Layout, from: number, column: Part, underName: boolean): Found | null => {
  const parts: Array<Part> = []
  let closed = false
  for (const row of layout.rows.slice(from, from + 9)) {
    if (row.page !== column.row.page || parts.length >= 5) break
    const part = addressCell(layout, row, column)
    if (part === undefined) {
      if (interleaved(layout, row, parts.at(-1)?.row ?? column.row, column)) continue
      break
    }
    const text = folded(part.raw)
    // The contact may share the address's last line: `… 43000 KAJANG, SELANGOR. TEL: 03-1234567`.
    const start = closesAddress(text) ? (STOP_PATTERN.exec(text)?.index ?? 0) : 0
    const before = part.raw.slice(0, start).trim()
    if (start > 0 && /\p{L}{2}/u.test(before) && addressEnd(before) && !closesAddress(folded(before))) {
      parts.push({ ...part, raw: before, text: before })
      closed = true
      break
    }
    // Another party's label in the column (`To:`, `Bill to:`) ends the block: its lines are that party's.
    if (recipientCells(row).some((c) => overlap(c, part) > 0.3)) {
      closed = true
      break
    }
    // Registration numbers and tax ids printed under the name come before the address: skip them.
    if (underName && parts.length === 0 && (registration(text) || closesAddress(text))) continue
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
 * Whether a row with nothing in the address's column is another column's line the reader set between two of the
 * block's (`27530 Bologna | Fattura n.`, then `387913` alone under `Fattura n.`, then `P. IVA: …`: on an OCR page a
 * column's baseline sits a little off the other's): no cell of it over the column, and the column's next line follows
 * the block's last (`above`) within a line's height, as lines of one block do. A gap in the column ends the block.
 */
const interleaved = (layout: Layout, row: Row, above: Row, column: Part): boolean => {
  if (row.cells.some((c) => c.x1 > column.x0 && c.x0 < column.x1)) return false
  const next = layout.rows[row.order + 1]
  return (
    next !== undefined &&
    next.page === row.page &&
    cellBeside(next, column) !== undefined &&
    next.y0 - above.y1 < wordHeight(above.words)
  )
}

/** On an OCR page, a gap between cells narrower than this many word heights is read as a space (`addressCell`). */
const OCR_SPACE = 1.2

/**
 * The cell of a row under the address's column, as a part (`cellBeside`); on an OCR page, joined with the cells
 * on either side of it closer than `OCR_SPACE` word heights. There a word's box hugs its ink, so the space beside
 * narrow figures and stops opens wider than the layout's cell gap (0.8 heights) on a monospaced receipt: `RUA SILVA
 * | 111`, `NO.15, | JALAN SS4C 9,`, `AVDA. | CONSTRUCCIONES 198` (the name's column over the street's name alone)
 * had left the address without its house number, street or street's kind (a wrong value); another column's data
 * stands further off.
 */
const addressCell = (layout: Layout, row: Row, column: Part): Part | undefined => {
  const part = cellBeside(row, column)
  if (part === undefined || !layout.ocrPages.has(row.page)) return part
  const space = OCR_SPACE * wordHeight(row.words)
  const gap = (k: number) => (row.cells[k + 1]?.x0 ?? Number.POSITIVE_INFINITY) - (row.cells[k]?.x1 ?? 0)
  const at = row.cells.findIndex((c) => c.x0 === part.x0)
  if (at < 0) return part
  let first = at
  while (first > 0 && gap(first - 1) < space) first--
  let last = at
  while (gap(last) < space) last++
  if (first === at && last === at) return part
  const raw = row.cells
    .slice(first, last + 1)
    .map((c) => c.text)
    .join(" ")
  return { row, x0: row.cells[first]?.x0 ?? part.x0, x1: row.cells[last]?.x1 ?? part.x1, text: cleaned(raw), raw }
}

/** How many rows from the top of the first page a letterhead with no name (a logo's) may start its address at. */
const HEADLESS_ROWS = 4

/**
 * The address of a letterhead whose name is no text (a logo): a street line heading its column in the page's top
 * rows — no name, label or other text over it (a title aside) — read down as a block closed by a contact or tax
 * line (`Avda. del Sur 197 | 02752 Zaragoza | CIF: B22316525`). A recipient's block always has a name or a label
 * over it.
 */
const headless = (layout: Layout): Found | null => {
  const page = layout.rows[0]?.page
  const top = layout.rows.filter((r) => r.page === page).slice(0, HEADLESS_ROWS)
  for (const row of top)
    for (const cell of row.cells) {
      if (!addressLine(cell.text) || !/\d/.test(cell.text)) continue
      const part: Part = { row, x0: cell.x0, x1: cell.x1, text: cleaned(cell.text), raw: cell.text }
      const over = top.slice(0, top.indexOf(row)).flatMap((r) => r.cells.filter((c) => overlap(c, part) > 0.3))
      if (over.some((c) => !title(c.text))) return null
      return blockFrom(layout, row.order, part, false)
    }
  return null
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
