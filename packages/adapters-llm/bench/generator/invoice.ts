/**
 * A generated A4 invoice: issuer block (left or right, or beside the customer's under a seller's label, or only in
 * the footer when the letterhead is a logo), title (with the number in it, unlabelled, on some), labelled number and
 * dates (inline, in a column, above their value, or as a table of labels over values under the issuer), a customer
 * block with another company, a table of lines and a totals block.
 */
import { addDays, conventions } from "./format.js"
import { address, companyName, fill, type GeneratedDocument, type GeneratedLine, Sheet } from "./page.js"
import type { Random } from "./random.js"
import type { Language, Vocabulary } from "./vocabulary.js"

type LabelStyle = "inline" | "column" | "above"

/** Prints `label` and `value` in the document's style at `x`; returns the height used. */
const labelled = (s: Sheet, style: LabelStyle, label: string, value: string, x: number, colon: string): number => {
  if (style === "inline") {
    s.text(`${label}${colon} ${value}`, x)
    return 13
  }
  if (style === "column") {
    s.text(`${label}${colon}`, x)
    s.text(value, x + 105)
    return 13
  }
  s.text(label, x, { size: 7 })
  s.text(value, x, { y: s.y + 10 })
  return 24
}

const drawLines = (random: Random, v: Vocabulary): Array<GeneratedLine & { cents: number }> =>
  Array.from({ length: random.int(1, 7) }, () => {
    const quantity = random.chance(0.5) ? 1 : random.int(2, 24)
    const unit = random.int(150, 180_000)
    const cents = quantity * unit
    return {
      description: random.pick(v.services),
      quantity,
      unitPrice: unit / 100,
      lineTotal: cents / 100,
      cents
    }
  })

/**
 * An invoice in `language`, its `index`-th document. `layout` draws the layouts added after the first rounds from
 * a stream of its own, so that the documents printed the earlier ways stay as they were.
 */
export const invoice = (
  random: Random,
  v: Vocabulary,
  language: Language,
  index: number,
  layout: Random
): GeneratedDocument => {
  const c = conventions(random, v)
  const s = new Sheet(60)
  const left = 50
  const right = 545
  const colon = random.pick([":", ":", ""])
  const style = random.pick<LabelStyle>(["inline", "column", "above"])
  const issuer = companyName(random, v)
  const customer = companyName(random, v)
  const [street, city] = address(random, v, language)
  const [customerStreet, customerCity] = address(random, v, language)
  const number = fill(random, random.pick(["A-9999-999", "9999/99999", "AAA-999999", "F99-9999", "999999", "A 99999"]))
  const date = `20${random.int(18, 25)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`
  const upper = random.chance(0.3)
  const label = (words: ReadonlyArray<string>) => (upper ? random.pick(words).toUpperCase() : random.pick(words))

  // Issuer block on the left, the document's data on the right; or the other way round. One invoice in four prints
  // the seller's block beside the buyer's under the document's data instead (`Seller: | Bill To:`, or the seller's
  // name on the buyer's label row), as many European invoices do.
  const issuerLeft = random.chance(0.6)
  const sideBySide = layout.chance(0.25)
  // One invoice in five prints its number in its title (`Factuur 2021-0001`, `INVOICE INV-0042`), with no label.
  const titled = layout.chance(0.2)
  // One in five has its name on top only as a logo (no text) and prints it in the footer, over its register line
  // (`del Sur Ibérica S.Coop.` over `Inscrita en el R.M. de Valencia, Hoja V-68451`).
  const footer = !sideBySide && layout.chance(0.2)
  const issuerX = issuerLeft || sideBySide ? left : 330
  const dataX = issuerLeft || sideBySide ? 330 : left
  const top = s.y
  const issuerLines = [
    street,
    city,
    `${random.pick(v.taxId)}${colon} ${fill(random, random.pick(v.taxIdPattern))}`,
    ...(random.chance(0.5) ? [`${random.pick(v.phone)} ${fill(random, "999 999 999")}`] : [])
  ]
  if (!sideBySide) {
    // The name fits its column too: to the page's edge, or to the data's column at 330.
    const room = (issuerX === left ? dataX - 20 : right) - issuerX
    if (!footer) s.text(issuer, issuerX, { size: Math.min(13, Math.floor(room / (0.62 * issuer.length))), bold: true })
    s.down(16)
    for (const line of issuerLines) {
      s.text(line, issuerX)
      s.down(12)
    }
  }
  const issuerBottom = s.y
  s.y = top
  const heading = label(v.invoiceTitle)
  // A title with its number fits its column (the page's edge, or the issuer's block at 330 when the data is on the
  // left): bold Helvetica capitals run to about 0.72 em a character, so a long one is set smaller, never clipped.
  const title = titled ? `${heading} ${number}` : heading
  const titleRoom = (dataX === left ? issuerX - 20 : right) - dataX
  s.text(title, dataX, { size: Math.min(16, Math.floor(titleRoom / (0.72 * title.length))), bold: true })
  s.down(24)
  const numberField = [label(v.invoiceNumber), number] as const
  const fields: Array<readonly [string, string]> = [
    ...(titled ? [] : [numberField]),
    [label(v.issueDate), c.date(date)]
  ]
  if (random.chance(0.7)) fields.push([label(v.dueDate), c.date(addDays(date, random.pick([15, 30, 45, 60])))])
  if (random.chance(0.3)) fields.push([label(v.deliveryDate), c.date(addDays(date, -random.int(1, 20)))])
  if (random.chance(0.4)) fields.push([label(v.orderNumber), fill(random, "99999")])
  if (random.chance(0.4)) fields.push([label(v.customerNumber), fill(random, "9999")])
  if (random.chance(0.2)) {
    const start = `${date.slice(0, 8)}01`
    fields.push([label(v.period), `${c.date(start)} - ${c.date(addDays(start, 27))}`])
  }
  const shuffled = random.chance(0.5) ? fields : [fields[1], fields[0], ...fields.slice(2)]
  // One invoice in four prints its data as a table under the issuer: a row of labels, the values in the cells under
  // them (`Invoice # | Date | Due Date` over `F-1234 | 03/05/2024 | …`), as many billing systems do.
  const table = random.chance(0.25)
  if (!table)
    for (const field of shuffled) if (field !== undefined) s.down(labelled(s, style, field[0], field[1], dataX, colon))
  s.y = Math.max(s.y, issuerBottom) + 24
  if (table) {
    const cells = shuffled.filter((f) => f !== undefined).slice(0, 4)
    const width = (right - left) / cells.length
    for (const [i, [name]] of cells.entries()) s.text(name, left + i * width, { size: 8, bold: true })
    s.down(12)
    for (const [i, [, value]] of cells.entries()) s.text(value, left + i * width)
    s.down(26)
  }

  // The buyer's label is drawn before its lines, as the first layouts drew it.
  const billTo = label(v.billTo)
  const customerLines = [
    customer,
    customerStreet,
    customerCity,
    `${random.pick(v.taxId)} ${fill(random, random.pick(v.taxIdPattern))}`
  ]
  if (!sideBySide) {
    s.text(billTo, left, { bold: true })
    s.down(13)
    for (const line of customerLines) {
      s.text(line, left)
      s.down(12)
    }
  } else {
    // The buyer's label over its block on the right; on the left the seller's label, or the seller's name itself.
    const sellerLabel = layout.chance(0.5)
    s.text(sellerLabel ? `${label(v.seller)}${colon}` : issuer, left, { bold: true, size: sellerLabel ? 10 : 13 })
    s.text(`${billTo}${colon}`, 330, { bold: true })
    s.down(sellerLabel ? 14 : 16)
    const seller = sellerLabel ? [issuer, ...issuerLines] : issuerLines
    for (let i = 0; i < Math.max(seller.length, customerLines.length); i++) {
      const mine = seller[i]
      const theirs = customerLines[i]
      if (mine !== undefined) s.text(mine, left, { bold: sellerLabel && i === 0 })
      if (theirs !== undefined) s.text(theirs, 330)
      s.down(12)
    }
  }
  s.down(18)

  const lines = drawLines(random, v)
  const columns = [left, 360, 450, right] as const
  const headings = [label(v.description), label(v.quantity), label(v.unitPrice), label(v.amount)]
  for (const [i, h] of headings.entries())
    s.text(h, columns[i] ?? left, { bold: true, align: i === 0 ? "left" : "right" })
  s.down(16)
  const currencyInLines = random.chance(0.4)
  for (const line of lines) {
    s.text(line.description, left)
    s.text(String(line.quantity), columns[1], { align: "right" })
    const money = (cents: number) => (currencyInLines ? c.money(cents) : c.number(cents))
    s.text(money(Math.round(line.unitPrice * 100)), columns[2], { align: "right" })
    s.text(money(line.cents), columns[3], { align: "right" })
    s.down(14)
  }
  s.down(16)

  const net = lines.reduce((a, l) => a + l.cents, 0)
  const discount = random.chance(0.25) ? Math.round(net * random.pick([0.05, 0.1, 0.15])) : 0
  const base = net - discount
  const rate = random.pick([4, 5, 6, 7, 9, 10, 13, 19, 20, 21, 22, 23])
  const tax = Math.round((base * rate) / 100)
  const total = base + tax
  const totalsLabelX = 430
  const totalRow = (name: string, cents: number, bold = false) => {
    s.text(`${name}${colon}`, totalsLabelX, { align: "right", bold })
    s.text(c.money(cents), right, { align: "right", bold })
    s.down(bold ? 18 : 14)
  }
  totalRow(label(v.subtotal), net)
  if (discount > 0) totalRow(`${label(v.discount)}`, -discount)
  totalRow(`${label(v.tax)} ${rate} %`, tax)
  totalRow(random.pick(v.total), total, true)
  s.down(30)
  s.text(random.pick(v.payment), left, { size: 8 })
  s.down(11)
  s.text(`IBAN ${fill(random, "AA99 9999 9999 9999 9999 99")}`, left, { size: 8 })
  if (footer) {
    s.y = 790
    s.text(issuer, 297, { size: 8, bold: true, align: "center" })
    s.down(10)
    s.text(fill(layout, layout.pick(v.register)), 297, { size: 7, align: "center" })
  }
  return {
    id: `gen-${String(index).padStart(3, "0")}-${language}-invoice`,
    index,
    language,
    kind: "invoice",
    truth: {
      issuer,
      address: `${street} ${city}`,
      number,
      date,
      dateLiteral: c.date(date),
      total: total / 100,
      items: lines.map(({ description, quantity, unitPrice, lineTotal }) => ({
        description,
        quantity,
        unitPrice,
        lineTotal
      }))
    },
    page: { width: 595, height: 842, family: random.pick(["Helvetica", "Times"]), runs: s.runs }
  }
}
