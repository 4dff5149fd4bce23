/** A generated document: its page as runs of text, and its truth. */
import type { Random } from "./random.js"
import type { Language, Vocabulary } from "./vocabulary.js"

/** A run of text on the page, in points (`y` is the baseline, from the top). */
export interface Run {
  readonly text: string
  readonly x: number
  readonly y: number
  readonly size: number
  readonly bold: boolean
  readonly align: "left" | "right" | "center"
}

/** The font families the renderer draws with (mupdf's built-in base-14 fonts). */
export type Family = "Helvetica" | "Times" | "Courier"

/** A page to draw. */
export interface Page {
  readonly width: number
  readonly height: number
  readonly family: Family
  readonly runs: ReadonlyArray<Run>
}

/** A line item as the generator printed it. */
export interface GeneratedLine {
  readonly description: string
  readonly quantity: number
  readonly unitPrice: number
  readonly lineTotal: number
}

/** What the page says, as the generator knows it. */
export interface GeneratedTruth {
  readonly issuer: string
  /** The issuer's address as printed, its lines joined by spaces. */
  readonly address: string
  /** `null`: the document prints no number. */
  readonly number: string | null
  readonly date: string
  /** The issue date as printed. */
  readonly dateLiteral: string
  readonly total: number
  readonly items: ReadonlyArray<GeneratedLine>
}

/** A generated invoice or receipt. */
export interface GeneratedDocument {
  readonly id: string
  readonly index: number
  readonly language: Language
  readonly kind: "invoice" | "receipt"
  readonly truth: GeneratedTruth
  readonly page: Page
}

/** Collects runs top to bottom. */
export class Sheet {
  readonly runs: Array<Run> = []
  y: number
  constructor(top: number) {
    this.y = top
  }
  text(text: string, x: number, options: { size?: number; bold?: boolean; align?: Run["align"]; y?: number } = {}) {
    this.runs.push({
      text,
      x,
      y: options.y ?? this.y,
      size: options.size ?? 9,
      bold: options.bold ?? false,
      align: options.align ?? "left"
    })
  }
  down(points: number) {
    this.y += points
  }
}

/** A pattern filled in: `9` a digit, `A` an upper-case letter. */
export const fill = (random: Random, pattern: string): string =>
  pattern.replace(/[9A]/g, (c) => (c === "9" ? String(random.int(0, 9)) : String.fromCharCode(65 + random.int(0, 25))))

/** A company name with a legal form, in the language's way. */
export const companyName = (random: Random, v: Vocabulary): string => {
  const first = random.pick(v.nameParts)
  let second = random.pick(v.nameParts)
  while (second === first) second = random.pick(v.nameParts)
  return `${first} ${second} ${random.pick(v.legalForms)}`
}

/** A street address with its number, and the city line. */
export const address = (random: Random, v: Vocabulary, language: Language): readonly [string, string] => {
  const street = random.pick(v.streets)
  const name = random.pick(v.nameParts)
  const number = String(random.int(1, 240))
  const line =
    language === "en" || language === "fr"
      ? `${number} ${name} ${street}`
      : language === "de" || language === "nl"
        ? `${name.replace(/\s+/g, "")}${street.startsWith("Str") || /^[a-z]/.test(street) ? street.toLowerCase() : ` ${street}`} ${number}`
        : `${street} ${name} ${number}`
  return [line, fill(random, random.pick(v.cities))]
}
