/**
 * A generated till receipt (80 mm wide): store block, maybe a number, date and time (at the top, or at the foot as
 * many tills print them), item lines with quantity × unit price patterns ("2 x 1,25", "1,250 kg x 2,99 €/kg", "2 UD
 * … 1,25 2,50") and maybe a tax class after each amount ("1,99 A"), and a totals block with subtotal, savings,
 * taxes, rounding, tendered amount and change. German ones may print a MwSt table (net, tax and gross per rate, and
 * their sum) and, paid by card, the terminal's slip under the receipt (`Betrag EUR`, its own date and time); four
 * in ten English ones are Malaysian (`malaysian.ts`).
 */
import { addDays, type Conventions, conventions } from "./format.js"
import { malaysianReceipt } from "./malaysian.js"
import { address, fill, type GeneratedDocument, type GeneratedLine, Sheet } from "./page.js"
import type { Random } from "./random.js"
import type { Language, Vocabulary } from "./vocabulary.js"

/** How multi-unit lines are printed. */
type LineStyle = "below" | "above" | "columns"

/**
 * A receipt in `language`, its `index`-th document. `till` draws the German till's habits (a currency column, an
 * item count, `Geg. BAR`) from a stream of its own, so that they leave every other draw as it was.
 */
export const receipt = (
  random: Random,
  v: Vocabulary,
  language: Language,
  index: number,
  till: Random
): GeneratedDocument => {
  // Four in ten English receipts are Malaysian (SROIE's kind).
  if (language === "en" && random.chance(0.4)) return malaysianReceipt(random, v, index)
  const c = conventions(random, v)
  const s = new Sheet(24)
  const left = 14
  const right = 212
  const centre = 113
  const colon = random.pick([":", ":", ""])
  const name = `${random.pick(v.storeNames)} ${random.pick(v.nameParts).toUpperCase()}`
  const form = random.chance(0.6) ? random.pick(v.legalForms) : ""
  const store = form === "" ? name : `${name} ${form}`
  const [street, city] = address(random, v, language)
  const centred = random.chance(0.5)
  const head = (text: string, bold = false) => {
    s.text(text, centred ? centre : left, { align: centred ? "center" : "left", bold, size: bold ? 10 : 8 })
    s.down(bold ? 13 : 10)
  }
  // A name too long for the 80 mm paper wraps before its legal form, as tills print it.
  if (store.length > 28 && form !== "") {
    head(name, true)
    head(form, true)
  } else head(store, true)
  head(street.toUpperCase())
  head(city.toUpperCase())
  head(`${random.pick(v.taxId)}${colon} ${fill(random, random.pick(v.taxIdPattern))}`)
  if (random.chance(0.5)) head(`${random.pick(v.phone)} ${fill(random, "999 999 999")}`)
  s.down(6)
  if (random.chance(0.5)) head(random.pick(v.receiptTitle), true)

  const date = `20${random.int(18, 25)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`
  const time = `${String(random.int(7, 21)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}`
  const number = random.chance(0.65)
    ? fill(random, random.pick(["9999-999-999999", "999999", "99/999999", "A999-99999"]))
    : null
  if (number !== null) {
    s.text(`${random.pick(v.receiptNumber)}${colon} ${number}`, left, { size: 8 })
    s.down(10)
  }
  const dateLabelled = random.chance(0.6)
  const dateLine = dateLabelled
    ? `${random.pick(v.issueDate)}${colon} ${c.date(date)}  ${random.pick(v.time)}${colon} ${time}`
    : `${c.date(date)}  ${time}`
  const dateAtFoot = random.chance(0.3)
  if (!dateAtFoot) {
    s.text(dateLine, left, { size: 8 })
    s.down(10)
  }
  if (random.chance(0.5)) {
    s.text(`${random.pick(v.cashier)}${colon} ${random.int(1, 40)}`, left, { size: 8 })
    s.down(10)
  }
  s.down(8)

  const style = random.pick<LineStyle>(["below", "above", "columns"])
  // Tills that print each line's tax class after its amount (`1,99 A`).
  const classed = random.chance(0.3)
  const lineAmount = (amount: string) => (classed ? `${amount} ${random.pick(["A", "B"])}` : amount)
  const unitWord = random.pick(v.units)
  const lines: Array<GeneratedLine> = []
  const count = random.int(2, 9)
  for (let i = 0; i < count; i++) {
    const description = random.pick(v.products)
    const weighed = random.chance(0.12)
    const quantity = weighed ? random.int(150, 2_500) : random.chance(0.6) ? 1000 : random.int(2, 6) * 1000
    const unit = random.int(35, 1_500)
    const cents = Math.round((quantity * unit) / 1000)
    lines.push({ description, quantity: quantity / 1000, unitPrice: unit / 100, lineTotal: cents / 100 })
    const amount = lineAmount(c.number(cents))
    if (weighed) {
      s.text(description, left, { size: 8 })
      if (style === "above") s.text(amount, right, { size: 8, align: "right" })
      s.down(10)
      const kg = `${c.quantity(quantity)} kg x ${c.number(unit)} ${c.money(0).replace(/[\d.,\s-]/g, "")}/kg`
      s.text(`  ${kg}`, left, { size: 8 })
      if (style !== "above") s.text(amount, right, { size: 8, align: "right" })
      s.down(10)
    } else if (style === "columns") {
      s.text(`${quantity / 1000}`, left, { size: 8 })
      s.text(description, left + 16, { size: 8 })
      s.text(c.number(unit), 170, { size: 8, align: "right" })
      s.text(amount, right, { size: 8, align: "right" })
      s.down(10)
    } else if (quantity === 1000) {
      s.text(description, left, { size: 8 })
      s.text(amount, right, { size: 8, align: "right" })
      s.down(10)
    } else {
      const pattern = `  ${quantity / 1000} ${unitWord} ${c.number(unit)}`
      if (style === "above") {
        s.text(pattern, left, { size: 8 })
        s.down(10)
      }
      s.text(description, left, { size: 8 })
      s.text(amount, right, { size: 8, align: "right" })
      s.down(10)
      if (style === "below") {
        s.text(pattern, left, { size: 8 })
        s.down(10)
      }
    }
  }
  s.down(6)

  const sum = lines.reduce((a, l) => a + Math.round(l.lineTotal * 100), 0)
  // German tills often print the currency in a column of its own between label and amount (`SUMME  EUR  15,69`),
  // the count of items above the totals (`Posten: 6`), and the tendered cash and change as `Geg. BAR`/`Rückgeld BAR`.
  const euroColumn = language === "de" && till.chance(0.5)
  if (language === "de" && till.chance(0.4)) {
    s.text(`${till.pick(["Posten", "Anzahl Artikel", "Artikel"])}: ${lines.length}`, left, { size: 8 })
    s.down(10)
  }
  const row = (label: string, cents: number, bold = false) => {
    const size = bold ? 10 : 8
    s.text(`${label}${colon}`, left, { size, bold })
    const money = random.chance(0.3)
    if (euroColumn) s.text("EUR", 130, { size, bold })
    s.text(money && !euroColumn ? c.money(cents) : c.number(cents), right, { size, bold, align: "right" })
    s.down(bold ? 13 : 10)
  }
  const tillWord = (word: string, german: ReadonlyArray<string>) => {
    const other = till.pick(german)
    return euroColumn ? other : word
  }
  const savings = random.chance(0.25) ? random.int(10, Math.max(11, Math.floor(sum / 5))) : 0
  if (savings > 0 || random.chance(0.4)) row(random.pick(v.subtotal), sum)
  if (savings > 0) row(random.pick(v.discount), -savings)
  const due = sum - savings
  const rounded = random.chance(0.15) ? Math.round(due / 5) * 5 : due
  if (rounded !== due) {
    row(random.pick(v.total), due)
    row(random.pick(v.rounding), rounded - due)
    row(random.pick(v.roundedTotal), rounded, true)
  } else row(random.pick(v.total), due, true)
  const cash = random.chance(0.5)
  if (cash) {
    const tendered = Math.ceil(rounded / 1000) * 1000 + (random.chance(0.5) ? 1000 : 0)
    row(tillWord(random.pick(v.cash), ["Geg. BAR", "Gegeben BAR", "BAR"]), tendered)
    row(tillWord(random.pick(v.change), ["Rückgeld BAR", "Rückgeld", "Zurück"]), tendered - rounded)
  } else row(random.pick(v.card), rounded)
  if (language === "de" && random.chance(0.5)) germanTaxTable(s, random, c, rounded, left, right)
  else if (random.chance(0.4)) {
    s.down(4)
    const rate = random.pick([7, 10, 19, 20, 21, 22, 23])
    const base = Math.round((rounded * 100) / (100 + rate))
    s.text(`${random.pick(v.tax)} ${rate}%  ${c.number(base)}  ${c.number(rounded - base)}`, left, { size: 8 })
    s.down(10)
  }
  // German card payments print the terminal's slip under the receipt, repeating the amount (`Betrag EUR`).
  if (language === "de" && !cash && random.chance(0.6)) cardSlip(s, random, c, date, time, rounded, left, right)
  if (random.chance(0.25)) {
    s.text(`${random.pick(v.expiry)}${colon} ${c.date(addDays(date, 30))}`, left, { size: 8 })
    s.down(10)
  }
  s.down(8)
  s.text(random.pick(v.thanks), centre, { size: 8, align: "center" })
  s.down(dateAtFoot ? 14 : 20)
  if (dateAtFoot) {
    s.text(dateLine, left, { size: 8 })
    s.down(20)
  }
  return {
    id: `gen-${String(index).padStart(3, "0")}-${language}-receipt`,
    index,
    language,
    kind: "receipt",
    truth: {
      issuer: store,
      address: `${street.toUpperCase()} ${city.toUpperCase()}`,
      number,
      date,
      dateLiteral: c.date(date),
      total: rounded / 100,
      items: lines
    },
    page: { width: 226, height: s.y, family: random.pick(["Courier", "Courier", "Helvetica"]), runs: s.runs }
  }
}

/**
 * A German till's tax table: a class letter, rate, net, tax and gross per rate (`A 19%  10,00  1,90  11,90`), and
 * maybe a sum row of the three.
 */
const germanTaxTable = (s: Sheet, random: Random, c: Conventions, gross: number, left: number, right: number) => {
  s.down(4)
  // Net and tax right-aligned clear of the class and rate (`A 19%`) on their left.
  const columns = [left + 95, left + 145, right] as const
  s.text(random.pick(["MwSt", "USt", "Steuer"]), left, { size: 8 })
  for (const [i, heading] of ["Netto", "MwSt", "Brutto"].entries())
    s.text(heading, columns[i] ?? right, { size: 8, align: "right" })
  s.down(10)
  const reduced = random.chance(0.5) ? Math.round(gross * random.pick([0.3, 0.5, 0.7])) : 0
  let nets = 0
  for (const [letter, rate, part] of [
    ["A", 19, gross - reduced],
    ["B", 7, reduced]
  ] as const) {
    if (part <= 0) continue
    const net = Math.round((part * 100) / (100 + rate))
    nets += net
    s.text(`${letter} ${rate}%`, left, { size: 8 })
    for (const [i, cents] of [net, part - net, part].entries())
      s.text(c.number(cents), columns[i] ?? right, { size: 8, align: "right" })
    s.down(10)
  }
  // The table's own sum row: net, tax and gross of every rate, the net first.
  if (random.chance(0.5)) {
    s.text(random.pick(["Summe", "Gesamt", "Gesamtbetrag", "Total"]), left, { size: 8 })
    for (const [i, cents] of [nets, gross - nets, gross].entries())
      s.text(c.number(cents), columns[i] ?? right, { size: 8, align: "right" })
    s.down(10)
  }
}

/** An EC/girocard slip: card, terminal, the payment's date and time as the terminal prints them, `Betrag EUR`. */
const cardSlip = (
  s: Sheet,
  random: Random,
  c: Conventions,
  iso: string,
  time: string,
  cents: number,
  left: number,
  right: number
) => {
  const [y = "", m = "", d = ""] = iso.split("-")
  s.down(12)
  const line = (text: string) => {
    s.text(text, left, { size: 8 })
    s.down(10)
  }
  line(random.pick(["Kundenbeleg", "*** Kundenbeleg ***", "Kartenzahlung", "EC-Cash"]))
  line(random.pick(["girocard", "Girocard kontaktlos", "Debit Mastercard", "VISA"]))
  line(`Terminal-ID: ${fill(random, "99999999")}`)
  line(`Trace-Nr. ${fill(random, "999999")}`)
  const year = random.chance(0.5) ? y : y.slice(2)
  line(`Datum: ${d}.${m}.${year}  Uhrzeit: ${time}:${String(random.int(0, 59)).padStart(2, "0")}`)
  s.text(random.pick(["Betrag EUR", "BETRAG EUR", "Betrag"]), left, { size: 8 })
  s.text(random.chance(0.5) ? c.number(cents) : c.money(cents), right, { size: 8, align: "right" })
  s.down(10)
  line(random.pick(["Zahlung erfolgt", "Bitte Beleg aufbewahren", "GENEHMIGT"]))
}
