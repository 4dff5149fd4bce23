/**
 * List fields from tables: a header row is a row whose cells carry the labels of at least two sub-fields (or of the
 * field itself, for a list of simple values); the rows under it, until a totals row or a wide vertical gap, are
 * items, each word going to the header cell whose column holds its center (columns split halfway between
 * header cells). A row with text but none of the numeric columns continues the item above (wrapped descriptions).
 * Receipts without a header row, and quantities printed inside a description, are `receiptLines.ts`'s.
 */
import type { Extractor, Skill } from "@legible/core"
import type { Evidence } from "./evidence.js"
import { CODE_COLUMN_HEADER, findLabels, type Hit, labelsOf, POSITION_HEADER, type Target } from "./labels.js"
import { cellAt, cellStart, type Layout, type Row } from "./layout.js"
import { dates } from "./patterns.js"
import { rowTokens } from "./phrases.js"
import {
  completeItem,
  endsItems,
  headerlessLines,
  itemConcept,
  type LineRoles,
  makesAmount,
  onesMended,
  perUnitless,
  quantityOnly,
  rolesOf,
  unitless,
  weighed,
  withoutSpecks
} from "./receiptLines.js"
import { CARRIED_FORWARD, COUNT_WORDS, TOTAL_LABELS } from "./vocabulary.js"

type Dict = { readonly [name: string]: Extractor.ExtractedValue }

/** A column of a table: its header cell's span and the sub-field it feeds (none for unrelated columns). */
interface Column {
  readonly x0: number
  readonly x1: number
  readonly target: Target | undefined
}

const STOP =
  /^[^\p{L}]*(total|sub ?total|base imponible|iva|impuestos?|tax|observaciones|importe total|suma|neto|rounding|cash|change)(?![\p{L}])/u

// A count of the lines under them (`Qtde. total de itens  2`, `Total items: 4`, `Anzahl Artikel gesamt 3`): a count's
// word and a total's in the row's first cell.
const COUNTED = new Set(COUNT_WORDS)
const TOTAL_WORDS = new Set(TOTAL_LABELS.flatMap(([, phrases]) => phrases.filter((p) => !p.includes(" "))))
const countOfLines = (row: Row): boolean => {
  const tokens = rowTokens(row).filter((t) => cellAt(row, t.start) === row.cells[0])
  return tokens.some((t) => COUNTED.has(t.text)) && tokens.some((t) => TOTAL_WORDS.has(t.text))
}

// A page's sum carried to the next (`Übertrag 37,00` under a page's lines, over the next page's).
const CARRIED = new RegExp(`^[^\\p{L}]*(?:${CARRIED_FORWARD.join("|")})(?![\\p{L}])`, "u")

const numeric = (t: Target | undefined): boolean => t !== undefined && (t.type === "integer" || t.type === "float")

/** Whether a figures' column holds a figure in a row: digits that are no date. */
const figure = (text: string): boolean => /\d/.test(text) && dates(text).length === 0

// An amount whose thousands' and cents' marks are the same (`5.636.80`), which no amount prints.
const SAME_MARKS = /(?<![\d.,])\d{1,3}(?:([.,])\d{3})(?:\1\d{3})*\1\d{2}(?![\d.,])/u

/**
 * A figure as OCR misreads it in a numeric column: without a mark read after it (`8.`, `40,81.€`: a speck, before a
 * currency sign too; a trailing minus is a sign) or between the currency sign and an amount with its cents
 * (`€.1147,94`), a lone `I`, `l` or `|` for the one it stands for, an `f` before an amount with its pence for the
 * pound sign it stands for (`f 2,287.80`, as `amounts` reads it), and the thousands' marks of an amount whose cents'
 * mark is the same (`5.636.80`, `1,234,56`: a comma read as a dot, or the other way) as the other mark, the only one
 * they can be.
 */
const strayMark = (text: string): string =>
  /^[Il|]$/.test(text)
    ? "1"
    : text
        .replace(/(\d)[.,:;']+(?=\s?[€$£]?$)/u, "$1")
        .replace(/^f(?=\s?\d[\d.,' ]*[.,]\d{2}$)/u, "£")
        .replace(/^([€$£])[.,:;'`]\s?(?=\d[\d.,' ]*[.,]\d{2}$)/u, "$1 ")
        .replace(SAME_MARKS, (amount, mark: string) => {
          const cents = amount.length - 3
          return amount.slice(0, cents).replaceAll(mark, mark === "." ? "," : ".") + amount.slice(cents)
        })

/**
 * A count as OCR read it, mended where the line's arithmetic shows how, else left as read:
 * - with ones OCR lost or read twice (`1` for `11`, `11` for `1`): the count the amount makes at its unit price;
 * - with strokes among or for its figures (`1I1` for `11`, `1I`, a `T` for a `1`): the reading, each stroke a one or
 *   nothing, that makes the line's amount at its unit price;
 * - run into the unit price's cell (`1 1395,20€` under the count, nothing under the price): the two, when they make
 *   the amount;
 * - not read at all (a lone `1` is the glyph OCR loses most), in a table with a count column: one, when the unit
 *   price is the amount.
 */
const mendCount = (item: Record<string, string | null>, roles: LineRoles, countColumn: boolean): void => {
  const { quantity, price, amount } = roles
  const text = quantity === undefined ? null : item[quantity.name]
  const unit = price === undefined ? null : item[price.name]
  const total = amount === undefined ? null : item[amount.name]
  if (quantity === undefined || price === undefined || total == null) return
  if (text == null) {
    if (countColumn && unit != null && makesAmount("1", unit, total)) item[quantity.name] = "1"
    return
  }
  const run = /^(\d{1,4}(?:[.,]\d{1,3})?)\s+(\S.*)$/u.exec(text)
  if (unit == null && run?.[1] !== undefined && run[2] !== undefined && makesAmount(run[1], run[2], total)) {
    item[quantity.name] = run[1]
    item[price.name] = strayMark(run[2])
    return
  }
  if (unit == null) return
  // A one read as a zero or an `O` (`Maintenance mensuelle | 0 | 554.79 | 554,79`): no line counts nothing.
  if (/^[0Oo]$/.test(text) && makesAmount("1", unit, total)) {
    item[quantity.name] = "1"
    return
  }
  const ones = onesMended(text, unit, total)
  if (ones !== undefined) {
    item[quantity.name] = ones
    return
  }
  if (!/^[\dIl|!\]T]+$/.test(text) || !/[Il|!\]T]/.test(text)) return
  const mended = [text.replace(/[Il|!\]T]/g, "1"), text.replace(/[Il|!\]T]/g, "")].find(
    (q) => q !== "" && makesAmount(q, unit, total)
  )
  if (mended !== undefined) item[quantity.name] = mended
}

/** A piece of a header row: a cell, or the part of a cell where one sub-field's label starts. */
interface Unit {
  readonly x0: number
  readonly x1: number
  readonly start: number
  readonly end: number
}

/**
 * A header row's units: its cells, each split where the label of another sub-field starts inside it
 * (`QTA PREZZO UNITARIO` is two columns); the labels of a cell are taken longest first, without overlap, so that
 * `PRIX TOTAL` stays one.
 */
const unitsOf = (row: Row, hits: ReadonlyArray<readonly [Target, Hit]>): ReadonlyArray<Unit> =>
  row.cells.flatMap((c): ReadonlyArray<Unit> => {
    const from = cellStart(row, c)
    const inCell = hits
      .filter(([, h]) => h.start >= from && h.start < from + c.text.length)
      .sort((a, b) => b[1].label.tokens.length - a[1].label.tokens.length || a[1].start - b[1].start)
    const kept: Array<readonly [Target, Hit]> = []
    for (const hit of inCell) if (kept.every(([, h]) => hit[1].end <= h.start || hit[1].start >= h.end)) kept.push(hit)
    // A position's or a code's column header before a label in its cell (`Pos. Bezeichnung`, `Codigo Descricao`) is
    // a column of its own.
    const positioned = kept.filter(
      ([, h]) => row.text.slice(from, h.start).replace(POSITION_HEADER, "").replace(CODE_COLUMN_HEADER, "") === ""
    )
    const cuts = [
      ...new Set([...kept.filter(([t]) => kept.some(([u]) => u !== t)), ...positioned].map(([, h]) => h.start))
    ]
      .filter((at) => at > from)
      .sort((a, b) => a - b)
    const bounds = [from, ...cuts, from + c.text.length]
    return bounds.slice(0, -1).flatMap((at, k) => {
      const until = bounds[k + 1] ?? at
      const words = row.words.filter((_, w) => (row.starts[w] ?? -1) >= at && (row.starts[w] ?? -1) < until)
      const first = words[0]
      const last = words.at(-1)
      return first === undefined || last === undefined ? [] : [{ x0: first.x0, x1: last.x1, start: at, end: until }]
    })
  })

const headerColumns = (
  row: Row,
  targets: ReadonlyArray<Target>,
  hits: ReadonlyMap<Target, ReadonlyArray<Hit>>
): ReadonlyArray<Column> | undefined => {
  const onRow = targets.flatMap((target) =>
    (hits.get(target) ?? []).filter((h) => h.row === row).map((h) => [target, h] as const)
  )
  const units = unitsOf(row, onRow)
  const claims: Array<{ target: Target; cell: number; strength: number; length: number }> = []
  for (const [target, hit] of onRow) {
    const cell = units.findIndex((u) => hit.start >= u.start && hit.start < u.end)
    if (cell >= 0) claims.push({ target, cell, strength: hit.label.strength, length: hit.label.tokens.length })
  }
  // Strongest claims first, the longest label among equals (`PRIX TOTAL` is the amount, `PRIX` the price); each
  // cell and each target is taken once.
  claims.sort((a, b) => b.strength - a.strength || b.length - a.length || a.cell - b.cell)
  const byCell = new Map<number, Target>()
  for (const claim of claims) {
    if (byCell.has(claim.cell) || [...byCell.values()].includes(claim.target)) continue
    byCell.set(claim.cell, claim.target)
  }
  if (byCell.size < Math.min(2, targets.length)) return undefined
  // A table's last column is its lines' amount when no header said so (`Prezzo unitario | Prezzo`); a price's
  // header over it, with no quantity's column, heads the amount a till's line costs (`DESCRIZIONE | IVA |
  // Prezzo(€)`).
  const { amount, price, quantity } = rolesOf(targets)
  const lastCell = units.length - 1
  const claimed = [...byCell.values()]
  const priceLast =
    price !== undefined && byCell.get(lastCell) === price && (quantity === undefined || !claimed.includes(quantity))
  if (amount !== undefined && !claimed.includes(amount) && lastCell > 0 && (!byCell.has(lastCell) || priceLast))
    byCell.set(lastCell, amount)
  return units.map((u, i) => ({ x0: u.x0, x1: u.x1, target: byCell.get(i) }))
}

const columnOf = (columns: ReadonlyArray<Column>, x: number): number => {
  for (let i = 0; i < columns.length - 1; i++) {
    const current = columns[i]
    const next = columns[i + 1]
    if (current !== undefined && next !== undefined && x < (current.x1 + next.x0) / 2) return i
  }
  return columns.length - 1
}

/**
 * A row's text per column: cell by cell when the row has as many cells as the header (figures aligned right under
 * headers aligned left would otherwise fall in the next column), else each word in the column that holds its
 * center; but a cell of the description's column (`described`) that reaches past the middle of the gap to the
 * next header stays whole there when its own center is in it: a description runs on to the right of a short header
 * (`Biglietti da visita 500 pz` under `Descrizione`, the `500 pz` nearer `Quantità`).
 */
const cellsOfRow = (row: Row, columns: ReadonlyArray<Column>, described = -1): Array<string> => {
  if (row.cells.length === columns.length) return row.cells.map((c) => c.text.replace(/\s+/g, " "))
  const texts = columns.map(() => [] as Array<string>)
  for (const cell of row.cells) {
    const whole = described >= 0 && columnOf(columns, (cell.x0 + cell.x1) / 2) === described
    for (const word of row.words.slice(cell.from, cell.to))
      texts[whole ? described : columnOf(columns, (word.x0 + word.x1) / 2)]?.push(word.text)
  }
  return texts.map((t) => t.join(" "))
}

/**
 * Whether a quantity and unit price make an item's amount, its price not read: they are given to the item (its count
 * of one, if any, was the till's).
 */
const given = (
  item: Record<string, string | null>,
  only: { readonly quantity: string; readonly price: string },
  roles: LineRoles
): boolean => {
  const { quantity, price, amount } = roles
  const total = amount === undefined ? null : item[amount.name]
  if (quantity === undefined || price === undefined || total == null || item[price.name] != null) return false
  if (!makesAmount(only.quantity, only.price, total)) return false
  item[quantity.name] = only.quantity
  item[price.name] = only.price
  return true
}

/** A list field's items and the evidence of every value in them. */
export interface ListFound {
  readonly items: ReadonlyArray<string | Dict>
  /** Under a header row whose cells are the sub-fields' labels: `label`; a receipt's lines with no header: `layout`. */
  readonly evidence: Evidence
}

/** The items of a list field found under its header rows, in reading order. */
export const listValue = (layout: Layout, field: Skill.SkillField): ListFound => {
  const targets: ReadonlyArray<Target> =
    field.type === "object"
      ? (field.fields ?? [])
      : field.type === "catalog"
        ? (field.catalog?.keyColumns ?? []).map((c) => ({ name: c, type: "string", aliases: [], description: "" }))
        : [field]
  const hits = new Map(targets.map((t) => [t, findLabels(layout, labelsOf(t, itemConcept(t)), true)] as const))
  const roles = rolesOf(targets)
  const descriptionTarget = roles.description
  const anyNumeric = targets.some(numeric)
  const items: Array<Record<string, string | null>> = []
  let i = 0
  while (i < layout.rows.length) {
    const header = layout.rows[i]
    const columns = header === undefined ? undefined : headerColumns(header, targets, hits)
    i += 1
    if (header === undefined || columns === undefined) continue
    let last: Row = header
    let previous: Record<string, string | null> | undefined
    // A weighed article's name and weight, read on the row over its figures' row.
    let weighedAbove: ReturnType<typeof weighed>
    // A quantity and unit price on a row of their own that made no line's amount above them.
    let countAbove: ReturnType<typeof quantityOnly>
    // The item whose description the last rows of words went on with, as it was before them.
    let wrapped: { item: Record<string, string | null>; before: string | null; rows: Array<Row> } | undefined
    const described = descriptionTarget === undefined ? -1 : columns.findIndex((c) => c.target === descriptionTarget)
    for (; i < layout.rows.length; i++) {
      const row = layout.rows[i]
      if (row === undefined || row.page !== header.page) break
      if (
        row.y0 - last.y1 > 3 * (header.y1 - header.y0) ||
        STOP.test(row.folded.text) ||
        endsItems(row) ||
        countOfLines(row)
      )
        break
      if (CARRIED.test(row.folded.text)) {
        last = row
        continue
      }
      const texts = cellsOfRow(row, columns, described)
      const weight = weighedAbove
      weighedAbove = undefined
      const filled = columns.flatMap((c, k) => (c.target !== undefined && texts[k] !== "" ? [c] : []))
      if (filled.length === 0) continue
      if (anyNumeric && !filled.some((c) => numeric(c.target) && figure(texts[columns.indexOf(c)] ?? ""))) {
        // Text without figures under an item: the item's description wrapped onto another line. A date that ran
        // into a figures' column (`Order ref 12345, delivered 01/03/2024`) is the description's too.
        // A weighed article's name over its weight's row (`1 PLATANO` over `0,856 kg  2,10 €/kg  1,80`) is the next
        // item's, not this one's.
        const next = layout.rows[i + 1]
        const name = texts[described]
        const under = next === undefined ? undefined : cellsOfRow(next, columns, described)[described]
        weighedAbove = name === undefined || under === undefined ? undefined : weighed(name, under)
        if (weighedAbove !== undefined) {
          last = row
          continue
        }
        // A weight and its price per unit under a line that prints only its amount (`TOMATE RAMA KG  2,34` over
        // `1,170 KG X 2,00 E/KG`): the line's quantity and price, where they make its amount; else the next line's,
        // printed over it (`2 X 0,89` over `AH KOMKOMMER  1,78`), where they make that one's.
        const only = quantityOnly(row.text)
        if (only !== undefined && (previous === undefined || row.y0 - last.y1 <= 1.5 * (row.y1 - row.y0))) {
          if (previous === undefined || !given(previous, only, roles)) countAbove = only
          last = row
          continue
        }
        if (previous === undefined) continue
        if (row.y0 - last.y1 > 1.5 * (row.y1 - row.y0)) break
        const before = descriptionTarget === undefined ? undefined : previous[descriptionTarget.name]
        for (const c of filled) {
          const into = numeric(c.target) && descriptionTarget !== undefined ? descriptionTarget : c.target
          const name = into?.name ?? ""
          const extra = texts[columns.indexOf(c)] ?? ""
          // A speck OCR read in a figures' column (a letter or a mark alone) is nobody's text.
          if (numeric(c.target) && !/\p{L}{2}|\d/u.test(extra)) continue
          previous[name] =
            previous[name] === null || previous[name] === undefined ? extra : `${previous[name]} ${extra}`
        }
        const going = wrapped?.item === previous ? wrapped : undefined
        wrapped = { item: previous, before: going?.before ?? before ?? null, rows: [...(going?.rows ?? []), row] }
        last = row
        continue
      }
      // Figures with no description under a table are its totals (`Subtotal: 27449,28`), and a label is no line.
      if (described >= 0 && (texts[described] === "" || /:\s*$/.test(texts[described] ?? ""))) break
      const item: Record<string, string | null> = Object.fromEntries(targets.map((t) => [t.name, null]))
      columns.forEach((c, k) => {
        const text = texts[k] ?? ""
        if (c.target !== undefined && text !== "")
          item[c.target.name] = numeric(c.target)
            ? c.target === roles.quantity
              ? unitless(strayMark(text))
              : strayMark(text)
            : c.target === descriptionTarget
              ? withoutSpecks(text)
              : text
      })
      if (weight !== undefined && descriptionTarget !== undefined) {
        item[descriptionTarget.name] = weight.description
        if (roles.quantity !== undefined && item[roles.quantity.name] === null)
          item[roles.quantity.name] = weight.quantity
        if (roles.price !== undefined && item[roles.price.name] !== null)
          item[roles.price.name] = perUnitless(item[roles.price.name] ?? "")
      }
      mendCount(
        item,
        roles,
        columns.some((c) => c.target === roles.quantity)
      )
      if (countAbove !== undefined) given(item, countAbove, roles)
      countAbove = undefined
      // A description that goes on from the rows of words over it (`Biglietti da visita` over `(stampa 500 pz, …)  2
      // 60,00  108,00`): opening with a bracket or a small letter, it is no item's first line; those rows are its.
      const text = descriptionTarget === undefined ? null : item[descriptionTarget.name]
      const over = wrapped
      if (
        over !== undefined &&
        over.item === previous &&
        descriptionTarget !== undefined &&
        text != null &&
        /^[(\p{Ll}]/u.test(text)
      ) {
        const name = descriptionTarget.name
        const moved = over.rows
          .map((r) => cellsOfRow(r, columns, described)[described] ?? "")
          .join(" ")
          .trim()
        if (moved !== "" && over.before !== null) {
          over.item[name] = over.before
          item[name] = `${moved} ${text}`
        }
      }
      wrapped = undefined
      items.push(item)
      previous = item
      last = row
    }
  }
  if (field.type !== "object")
    return {
      items: field.type === "catalog" ? items : items.flatMap((item) => item[field.name] ?? []),
      evidence: "label"
    }
  const names = targets.map((t) => t.name)
  // A receipt with no header row: its lines are the rows above its first total.
  if (items.length > 0) return { items: items.map((item) => completeItem(item, roles)), evidence: "label" }
  return { items: headerlessLines(layout, roles, names).map((item) => completeItem(item, roles)), evidence: "layout" }
}
