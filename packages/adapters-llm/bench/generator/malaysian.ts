/**
 * A generated Malaysian till receipt (English, ringgit), as shops there print them: maybe a brand or branch code
 * above the name, a name with its legal form or trade word (`SDN BHD`, `(M) SDN BHD`, `ENTERPRISE`, `TRADING`),
 * the company's registration number, maybe the branch under it, an address
 * over two to four lines ending in a postcode and town and maybe a state, phone and GST lines, `TAX INVOICE`, the
 * maybe a business customer's name, the document number, day-first date and time, item lines with a tax code after the amount (`5.20 SR`), and a totals
 * block with GST: `Total Excl. GST`, `GST 6%`, `Total Incl. GST`, `Rounding Adj`, the rounded total, cash and
 * change, and a GST summary table. Its words are its own (the extractor's lexicon is not imported).
 */
import { fill, type GeneratedDocument, type GeneratedLine, Sheet } from "./page.js"
import type { Random } from "./random.js"
import type { Vocabulary } from "./vocabulary.js"

/** What Malaysian receipts print, by what it is: the choices apart by `|`. */
const WORDS = {
  // the letterhead and the document's data
  names:
    "SOON HUAT|LIAN HING|TECK SENG|HUP LEE|MAJU JAYA|KIM HENG|SRI MURNI|GUAN CHUAN|AIK HUAT|SHENG LI|WAH SENG|MUTIARA",
  trades: "HARDWARE|MACHINERY|STATIONERY|RESTAURANT|BOOK STORE|FLORIST|MINI MARKET|ELECTRICAL|TRADING|PHARMACY",
  forms: "SDN BHD|SDN BHD|(M) SDN BHD|ENTERPRISE|TRADING|S/B|SDN. BHD.",
  streets: "JALAN PUTRA|JALAN BESAR|JALAN PAHANG|JLN MEWAH|JALAN KANCIL|JALAN ANGSA|JALAN SS4C|JALAN IPOH",
  areas: "TAMAN SRI PUTRA|TAMAN MALURI|BANDAR BARU PERMAS JAYA|TMN SRI MUDA|KAWASAN PERINDUSTRIAN|SETAPAK",
  branches: "CHERAS|PUCHONG|MID VALLEY|SETAPAK|BANGSAR|KEPONG|AMPANG|SKUDAI",
  customerTrades: "ENGINEERING|CONSTRUCTION|LOGISTICS|MARKETING|DEVELOPMENT",
  titles: "TAX INVOICE|SIMPLIFIED TAX INVOICE|CASH SALES|TAX INVOICE",
  numberLabels: "INVOICE NO|RECEIPT #|DOC NO|BILL NO|Receipt No|SLIP NO",
  // the totals block
  totalExcl: "Total Excl. GST|TOTAL EXCLUDING GST|Total Amount (excl GST)|Sub Total",
  gst: "GST 6%|GST @6%|Total GST 6%|GST PAYABLE",
  totalIncl: "Total Incl. GST|TOTAL INCLUSIVE GST|Total Sales (Inclusive GST)|Total Amount Incl GST",
  rounding: "Rounding Adj|Rounding Adjustment|ROUNDING ADJ|Rounding",
  rounded: "Total Rounded|TOTAL|Grand Total|Total After Rounding|NET TOTAL",
  cash: "CASH|Cash|Tender Cash|PAID AMOUNT",
  change: "CHANGE|Change|Change Due",
  thanks: "THANK YOU. PLEASE COME AGAIN.|GOODS SOLD ARE NOT RETURNABLE|TERIMA KASIH|THANK YOU"
}

/** One of the choices of `WORDS[key]`. */
const choose = (random: Random, key: keyof typeof WORDS): string => random.pick(WORDS[key].split("|"))

const TOWNS: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
  ["KUALA LUMPUR", "5", ["", "MALAYSIA", "W.P. KUALA LUMPUR"]],
  ["SHAH ALAM", "40", ["SELANGOR", "SELANGOR DARUL EHSAN", ""]],
  ["PETALING JAYA", "46", ["SELANGOR DARUL EHSAN", "SELANGOR"]],
  ["JOHOR BAHRU", "81", ["JOHOR", "JOHOR DARUL TAKZIM", ""]],
  ["KLANG", "41", ["SELANGOR", ""]],
  ["IPOH", "30", ["PERAK", "PERAK DARUL RIDZUAN"]],
  ["GEORGETOWN", "10", ["PENANG", "PULAU PINANG"]],
  ["SERI KEMBANGAN", "43", ["SELANGOR", ""]]
]

const money = (cents: number) =>
  `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`

/** A Malaysian receipt, the `index`-th document (English products and units from `v`). */
export const malaysianReceipt = (random: Random, v: Vocabulary, index: number): GeneratedDocument => {
  const s = new Sheet(24)
  const left = 14
  const right = 212
  const centre = 113
  const centred = random.chance(0.6)
  const head = (text: string, bold = false) => {
    s.text(text, centred ? centre : left, { align: centred ? "center" : "left", bold, size: bold ? 10 : 8 })
    s.down(bold ? 13 : 10)
  }
  const brand = choose(random, "names")
  // One name in four has no legal form, its trade word alone (`SOON HUAT HARDWARE`).
  const store = `${brand} ${choose(random, "trades")}${random.chance(0.75) ? ` ${choose(random, "forms")}` : ""}`
  // A brand or a branch code printed above the company (`GHEE HIANG` over `GH DISTRIBUTOR … SDN BHD`).
  if (random.chance(0.25)) head(random.chance(0.5) ? brand : fill(random, "9999999"), true)
  head(store, true)
  if (random.chance(0.7)) head(`(${fill(random, random.pick(["999999-A", "9999999-A", "JM9999999-A"]))})`)
  // The branch, under the company (`IKEA CHERAS`).
  if (random.chance(0.2)) head(`${brand.split(" ")[0]} ${choose(random, "branches")}`)
  const [town, prefix, states] = random.pick(TOWNS)
  const postcode = `${prefix}${fill(random, "9".repeat(5 - prefix.length))}`
  const number = random.int(1, 299)
  const lines: Array<string> = [
    random.chance(0.5)
      ? `NO.${number}, ${choose(random, "streets")} ${random.int(1, 9)},`
      : `${number}, ${choose(random, "streets")},`
  ]
  if (random.chance(0.6)) lines.push(`${choose(random, "areas")},`)
  const state = random.pick(states)
  if (state !== "" && random.chance(0.5)) lines.push(`${postcode} ${town}, ${state}`)
  else {
    lines.push(`${postcode} ${town}${random.chance(0.3) ? "." : ""}`)
    if (state !== "") lines.push(state)
  }
  for (const line of lines) head(line)
  head(
    `TEL : 0${random.int(3, 9)}-${fill(random, "999 9999")}${random.chance(0.3) ? ` FAX : 0${random.int(3, 9)}-${fill(random, "9999999")}` : ""}`
  )
  head(`${random.pick(["GST ID", "GST REG NO", "GST NO."])} : ${fill(random, "000999999999")}`)
  s.down(6)
  head(choose(random, "titles"), true)
  // A business customer's name under the title (`GOGIANT ENGINEERING (M) SDN BHD`).
  if (random.chance(0.2)) {
    s.text(`${choose(random, "names")} ${choose(random, "customerTrades")} (M) SDN BHD`, left, { size: 8 })
    s.down(10)
  }

  const date = `20${random.int(15, 18)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(random.int(1, 28)).padStart(2, "0")}`
  const [y, m, d] = date.split("-")
  const dateLiteral = random.chance(0.6) ? `${d}/${m}/${y}` : `${d}-${m}-${y?.slice(2)}`
  const time = `${String(random.int(1, 12)).padStart(2, "0")}:${String(random.int(0, 59)).padStart(2, "0")}${random.pick([" PM", " AM", ":00"])}`
  const docNumber = random.chance(0.8)
    ? fill(random, random.pick(["CS00099999", "99999/999/A9999", "CS9999/99999"]))
    : null
  if (docNumber !== null) {
    s.text(`${choose(random, "numberLabels")} : ${docNumber}`, left, { size: 8 })
    s.down(10)
  }
  s.text(random.chance(0.6) ? `DATE : ${dateLiteral}  TIME : ${time}` : `${dateLiteral} ${time}`, left, { size: 8 })
  s.down(10)
  if (random.chance(0.5)) {
    s.text(`CASHIER : ${random.pick(["USER", "ADMIN", "01", "MANAGER"])}`, left, { size: 8 })
    s.down(10)
  }
  s.down(6)

  const items: Array<GeneratedLine> = []
  for (let i = random.int(1, 6); i > 0; i--) {
    const description = random.pick(v.products)
    const quantity = random.chance(0.6) ? 1 : random.int(2, 5)
    const unit = random.int(50, 4_000)
    items.push({ description, quantity, unitPrice: unit / 100, lineTotal: (quantity * unit) / 100 })
    s.text(description, left, { size: 8 })
    s.text(`${money(quantity * unit)} SR`, right, { size: 8, align: "right" })
    s.down(10)
    if (quantity > 1) {
      s.text(`  ${quantity} x ${money(unit)}`, left, { size: 8 })
      s.down(10)
    }
  }
  s.down(6)
  const sum = items.reduce((a, l) => a + Math.round(l.lineTotal * 100), 0)
  const base = Math.round(sum / 1.06)
  const rounded = Math.round(sum / 5) * 5
  const row = (label: string, cents: number, bold = false) => {
    s.text(`${label} :`, left, { size: bold ? 10 : 8, bold })
    s.text(random.chance(0.2) ? `RM${money(cents)}` : money(cents), right, {
      size: bold ? 10 : 8,
      bold,
      align: "right"
    })
    s.down(bold ? 13 : 10)
  }
  if (random.chance(0.7)) {
    row(choose(random, "totalExcl"), base)
    row(choose(random, "gst"), sum - base)
  }
  row(choose(random, "totalIncl"), sum, rounded === sum)
  if (rounded !== sum || random.chance(0.3)) {
    row(choose(random, "rounding"), rounded - sum)
    row(choose(random, "rounded"), rounded, true)
  }
  const tendered = Math.ceil(rounded / 1000) * 1000 + (random.chance(0.5) ? 1000 : 0)
  row(choose(random, "cash"), tendered)
  row(choose(random, "change"), tendered - rounded)
  if (random.chance(0.6)) {
    s.down(4)
    s.text("GST Summary", left, { size: 8 })
    s.text("Amount(RM)", 150, { size: 8, align: "right" })
    s.text("Tax(RM)", right, { size: 8, align: "right" })
    s.down(10)
    s.text("SR @ 6%", left, { size: 8 })
    s.text(money(base), 150, { size: 8, align: "right" })
    s.text(money(sum - base), right, { size: 8, align: "right" })
    s.down(10)
  }
  s.down(8)
  s.text(choose(random, "thanks"), centre, { size: 8, align: "center" })
  s.down(20)
  return {
    id: `gen-${String(index).padStart(3, "0")}-en-receipt`,
    index,
    language: "en",
    kind: "receipt",
    truth: {
      issuer: store,
      address: lines.join(" "),
      number: docNumber,
      date,
      dateLiteral,
      total: rounded / 100,
      items
    },
    page: { width: 226, height: s.y, family: random.pick(["Courier", "Courier", "Helvetica"]), runs: s.runs }
  }
}
