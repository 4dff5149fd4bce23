/** How a generated document writes its numbers and dates: one convention per document, drawn from its language. */
import type { Random } from "./random.js"
import type { Vocabulary } from "./vocabulary.js"

/** A document's writing conventions. */
export interface Conventions {
  /** An amount in cents, without currency (`1.234,56`). */
  readonly number: (cents: number) => string
  /** An amount in cents with the document's currency (`1.234,56 €`, `$1,234.56`). */
  readonly money: (cents: number) => string
  /** A quantity (`2`, `1,250`). */
  readonly quantity: (thousandths: number) => string
  /** An ISO date as the document prints dates. */
  readonly date: (iso: string) => string
  /** The decimal separator. */
  readonly decimal: string
}

const group = (whole: string, separator: string) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator)

const pad2 = (n: number) => String(n).padStart(2, "0")

/** Draws a document's conventions from its language's. */
export const conventions = (random: Random, vocabulary: Vocabulary): Conventions => {
  const [thousands, decimal] = random.pick(vocabulary.numbers)
  const [currency, before] = random.pick(vocabulary.currencies)
  const spaced = currency.length > 1 || random.chance(0.5)
  const number = (cents: number) => {
    const sign = cents < 0 ? "-" : ""
    const abs = Math.abs(cents)
    return `${sign}${group(String(Math.floor(abs / 100)), thousands)}${decimal}${pad2(abs % 100)}`
  }
  const money = (cents: number) => {
    const n = number(cents)
    return before ? `${currency}${spaced ? " " : ""}${n}` : `${n}${spaced ? " " : ""}${currency}`
  }
  const quantity = (thousandths: number) =>
    thousandths % 1000 === 0
      ? String(thousandths / 1000)
      : `${Math.floor(thousandths / 1000)}${decimal}${String(thousandths % 1000).padStart(3, "0")}`
  const order = random.pick(vocabulary.dateOrders)
  const style = random.int(0, 9)
  const separator = random.pick(["/", ".", "-"])
  const spacedDate = random.chance(0.15)
  const shortYear = random.chance(0.3)
  const written = random.pick(vocabulary.writtenDate)
  const date = (iso: string) => {
    const [y = 0, m = 1, d = 1] = iso.split("-").map(Number)
    // Three in ten documents write the month's name; the others write numbers.
    if (style < 2)
      return written
        .replace("{d}", String(d))
        .replace("{m}", vocabulary.months[m - 1] ?? "")
        .replace("{y}", String(y))
    if (style === 2)
      return written
        .replace("{d}", pad2(d))
        .replace("{m}", vocabulary.monthsShort[m - 1] ?? "")
        .replace("{y}", String(y))
        .replace(" de ", " ")
    const year = shortYear && order !== "ymd" ? pad2(y % 100) : String(y)
    const parts =
      order === "dmy" ? [pad2(d), pad2(m), year] : order === "mdy" ? [pad2(m), pad2(d), year] : [year, pad2(m), pad2(d)]
    const sep = order === "ymd" ? "-" : separator
    return parts.join(spacedDate ? ` ${sep} ` : sep)
  }
  return { number, money, quantity, date, decimal }
}

/** An ISO date `days` after `iso`. */
export const addDays = (iso: string, days: number): string => {
  const t = new Date(`${iso}T12:00:00Z`).getTime() + days * 86_400_000
  return new Date(t).toISOString().slice(0, 10)
}
