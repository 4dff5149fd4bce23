/**
 * How the local benchmark decides that an extracted literal is right: it compares what the literal stands for, as a
 * person reading the document would take it, with the truth. Written apart from the extractor (and from core's
 * `values.ts`, which has no public surface and knows only Spanish and English month names): dates are read by a
 * general parser and an ambiguous day/month order is settled by the document's other dates; amounts by the decimal
 * separator the document uses; numbers and names after trimming and case/space normalisation (names also with any of
 * `. , ;` and `:` standing for each other). Pure.
 */

/** Month names and abbreviations in es, en, de, fr, it, pt and nl (accents folded, lower case), January first. */
const MONTH_NAMES: ReadonlyArray<string> = [
  "enero ene january jan januar janvier janv gennaio gen janeiro januari",
  "febrero feb february februar fevrier fevr fev febbraio fevereiro februari",
  "marzo mar march marz maerz mars mrt marco maart",
  "abril abr april apr avril avr aprile apr",
  "mayo may mai maggio mag maio mei",
  "junio jun june juni juin giugno giu junho",
  "julio jul july juli juillet juil luglio lug julho",
  "agosto ago august aug aout agosto augustus",
  "septiembre setiembre sep sept set september septembre settembre sett setembro",
  "octubre oct october oktober okt octobre ottobre ott outubro out",
  "noviembre nov november novembre novembro",
  "diciembre dic december dec dezember dez decembre dicembre dezembro"
]

const MONTHS: ReadonlyMap<string, number> = new Map(
  MONTH_NAMES.flatMap((names, i) => names.split(" ").map((name) => [name, i + 1] as const))
)

// Words a written date carries that say nothing about it: fillers and weekdays of the seven languages.
const FILLERS = new Set(
  [
    "de del of the am pm h hs le du den der des di do da van",
    "lunes martes miercoles jueves viernes sabado domingo monday tuesday wednesday thursday friday saturday sunday",
    "montag dienstag mittwoch donnerstag freitag samstag sonntag lundi mardi mercredi jeudi vendredi samedi dimanche",
    "lunedi martedi mercoledi giovedi venerdi sabato domenica segunda terca quarta quinta sexta feira",
    "maandag dinsdag woensdag donderdag vrijdag zaterdag zondag"
  ]
    .join(" ")
    .split(" ")
)

const fold = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[\u200B-\u200D\u2060\uFEFF]/g, "")
    .toLowerCase()

const pad = (n: number, width: number) => String(n).padStart(width, "0")

const daysIn = (y: number, m: number): number =>
  m === 2 ? ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31

const iso = (y: number, m: number, d: number): string | undefined =>
  y >= 1900 && y <= 2100 && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
    ? `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`
    : undefined

const year = (token: string): number | undefined =>
  /^\d{4}$/.test(token)
    ? Number(token)
    : /^\d{2}$/.test(token)
      ? 2000 + Number(token) - (Number(token) >= 70 ? 100 : 0)
      : undefined

type Token = { readonly number: string } | { readonly month: number }

/**
 * Every calendar date a date literal can stand for, as ISO `YYYY-MM-DD`: one for an unambiguous literal, two for
 * `03/04/2024` (day-first first), none when it is not a date (any word but a month name, a weekday or a filler).
 */
export const dateReadings = (literal: string): ReadonlyArray<string> => {
  const s = fold(literal)
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .trim()
  const isoForm = /^(\d{4})\s*[-/.]\s*(\d{1,2})\s*[-/.]\s*(\d{1,2})(?:[t\s].*)?$/.exec(s)
  if (isoForm !== null) return [iso(Number(isoForm[1]), Number(isoForm[2]), Number(isoForm[3]))].flatMap((d) => d ?? [])
  const tokens: Array<Token> = []
  for (const raw of s.split(/[\s/\-.,'’]+/)) {
    if (raw === "" || FILLERS.has(raw) || /^\d{1,2}[:h]\d{2}(?::\d{2})?$/.test(raw)) continue
    const ordinal = /^(\d{1,2})(?:st|nd|rd|th|er|e|o|a|º|ª)$/.exec(raw)
    if (/^\d+$/.test(raw) || ordinal !== null) tokens.push({ number: ordinal?.[1] ?? raw })
    else {
      const month = MONTHS.get(raw)
      if (month === undefined) return []
      tokens.push({ month })
    }
  }
  if (tokens.length !== 3) return []
  const [a, b, c] = tokens as [Token, Token, Token]
  const num = (t: Token) => ("number" in t && t.number.length <= 2 ? Number(t.number) : undefined)
  const yearOf = (t: Token) => ("number" in t ? year(t.number) : undefined)
  const out = (y: number | undefined, m: number | undefined, d: number | undefined) =>
    y === undefined || m === undefined || d === undefined ? [] : [iso(y, m, d)].flatMap((x) => x ?? [])
  // A written month takes a two-digit year set apart by spaces or glued by a mark (`05 Mar 24`, `5-Mar-24`), never
  // across a spaced dash: `1 - July 31` is a period, not 1 July 2031.
  const written = (t: Token) =>
    /\s-|-\s/.test(s) ? ("number" in t && t.number.length === 4 ? Number(t.number) : undefined) : yearOf(t)
  if ("month" in b) return out(written(c), b.month, num(a))
  if ("month" in a) return out(written(c), a.month, num(b))
  if ("month" in c) return []
  if (a.number.length === 4) return out(Number(a.number), num(b), num(c))
  const dayFirst = out(yearOf(c), num(b), num(a))
  const monthFirst = out(yearOf(c), num(a), num(b))
  return [...new Set([...dayFirst, ...monthFirst])]
}

/**
 * The day/month order the document's numeric dates show: `dmy` when one of them has a first part over 12, `mdy`
 * when one has a second part over 12, `undefined` when none (or both) do.
 */
export const dateOrderOf = (text: string): "dmy" | "mdy" | undefined => {
  let dmy = false
  let mdy = false
  for (const m of text.matchAll(/(?<![\d.,])(\d{1,2})\s*([/.-])\s*(\d{1,2})\s*\2\s*(\d{2}|\d{4})(?![\d.,]\d)/g)) {
    const first = Number(m[1])
    const second = Number(m[3])
    if (first > 12 && second <= 12) dmy = true
    if (second > 12 && first <= 12) mdy = true
  }
  return dmy === mdy ? undefined : dmy ? "dmy" : "mdy"
}

/**
 * Whether a date literal stands for the truth's ISO date. An ambiguous literal takes the order the document's other
 * dates show; with no such evidence either reading counts (the literal is the right one; no reader could do better).
 */
export const dateRight = (literal: string | undefined, truth: string, documentText: string): boolean => {
  if (literal === undefined) return false
  const readings = dateReadings(literal)
  if (readings.length < 2) return readings[0] === truth
  const order = dateOrderOf(documentText)
  if (order === undefined) return readings.includes(truth)
  const [dayFirst, monthFirst] = readings
  return (order === "dmy" ? dayFirst : monthFirst) === truth
}

/** The decimal separator a document uses: the one most often followed by exactly two digits at a number's end. */
export const decimalSeparatorOf = (text: string): "." | "," => {
  const commas = text.match(/\d,\d{2}(?![\d.,]?\d)/g)?.length ?? 0
  const dots = text.match(/\d\.\d{2}(?![\d.,]?\d)/g)?.length ?? 0
  return commas > dots ? "," : "."
}

// Currency codes, names and units an amount may carry (folded); any other word makes the literal no amount.
const UNITS = new Set(
  "rm eur euro euros usd us gbp chf pln zl zł inr rs myr ars mxn clp cop ars dkk sek nok kg g gr l ml lt ud uds un st stk pcs pc ea".split(
    " "
  )
)

/**
 * The value of an amount literal: currency symbols, codes and units around it ignored (`RM 9.00`, `12,50 €`,
 * `1,000 kg`), signs as `-`, `(…)` or a trailing `-`. A lone separator is read as `decimal` (the document's
 * decimal separator) except in a thousands grouping of `decimal`'s other (`1.234,56`, `1,234.56`, `1 234,56`); one
 * followed by other than three digits is decimal whatever the document's (`65,04` on a page read as using points:
 * no grouping has two digits), as the service's own reading of an amount takes it.
 */
export const amountValue = (literal: string, decimal: "." | "," = "."): number | undefined => {
  let s = fold(literal)
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[€$£¥]|\p{L}+\.?/gu, (word) => (UNITS.has(word.replace(/\.$/, "")) || /^[€$£¥]$/.test(word) ? " " : "?"))
    .replace(/\/\s*$/, "")
    .trim()
  let negative = false
  if (/^\(.*\)$/.test(s)) {
    negative = true
    s = s.slice(1, -1).trim()
  }
  if (s.startsWith("-") || s.endsWith("-")) {
    negative = !negative
    s = s.replace(/^-|-$/g, "").trim()
  }
  if (!/^\d[\d.,\s'’]*$/.test(s)) return undefined
  const other = decimal === "," ? "." : ","
  const lastDot = s.lastIndexOf(".")
  const lastComma = s.lastIndexOf(",")
  // Both marks: the last one is decimal, whatever the document says.
  const lone = lastDot >= 0 ? (lastComma >= 0 ? undefined : ".") : lastComma >= 0 ? "," : undefined
  const mark =
    lastDot >= 0 && lastComma >= 0
      ? lastDot > lastComma
        ? "."
        : ","
      : lone !== undefined && s.split(lone).length === 2 && !/^\d{3}$/.test(s.split(lone)[1] ?? "")
        ? lone
        : decimal
  const grouping = mark === decimal ? other : decimal
  const [whole = "", fraction, ...rest] = s.split(mark)
  if (rest.length > 0) return undefined
  const digits = whole.replace(/[\s'’]/g, "").split(grouping)
  if (digits.length > 1 && !digits.slice(1).every((g) => /^\d{3}$/.test(g))) return undefined
  if (!digits.every((g) => /^\d+$/.test(g)) || (fraction !== undefined && !/^\d+$/.test(fraction))) return undefined
  const value = Number(`${digits.join("")}.${fraction ?? "0"}`)
  return negative ? -value : value
}

/** Whether an amount literal stands for the truth's number (to the cent). */
export const amountRight = (literal: string | undefined, truth: number, decimal: "." | ","): boolean => {
  const value = literal === undefined ? undefined : amountValue(literal, decimal)
  return value !== undefined && Math.abs(value - truth) < 0.005
}

/** A document number as compared: trimmed, spaces collapsed, a leading `#`, `Nº`, `N°`, `No.`, `Nr.` label removed. */
export const documentNumber = (literal: string): string =>
  literal
    .replace(/\s+/g, " ")
    .trim()
    .replace(/^(?:#|n[º°o]\.?|nr\.?|no\.|num\.?|nro\.?)\s*:?\s*/i, "")
    .replace(/^#\s*/, "")

/**
 * A name as compared: Unicode-normalised, lower case, without spaces or trailing punctuation, and with any of `. , ;
 * :` standing for each other. Annotators type the spacing around punctuation their own way ("NO. 53" for a printed
 * "NO.53", "SELANGOR ." for "SELANGOR."), and their own mark between an address's parts ("BATU VILLAGE, JALAN IPOH"
 * for a printed "BATU VILLAGE. JALAN IPOH"); where a mark is printed still counts ("CO." is not "CO").
 */
export const name = (literal: string): string =>
  literal
    .normalize("NFC")
    .toLowerCase()
    .replace(/\s+/g, "")
    .replace(/[.,;:]+$/, "")
    .replace(/[.,;:]+/g, ",")

/** Whether `needle` is printed in `text`, both as `name` compares them (a field is "present" when it is). */
export const printed = (needle: string, text: string): boolean =>
  needle.trim() !== "" && name(text).includes(name(needle))

// Legal forms an annotator may spell out where the page abbreviates them (invoice2data's Orlen: `spółka akcyjna` for
// the printed `S.A.`), at the end of a name, with their abbreviations.
const SPELLED_FORMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(?:sociedade? an[oó]nima|soci[eé]t[eé] anonyme|sp[oó][lł]ka akcyjna)$/u, "sa"],
  [/sp[oó][lł]ka z ograniczon[aą] odpowiedzialno[sś]ci[aą]$/u, "spzoo"],
  [/gesellschaft mit beschr[aä]nkter haftung$/u, "gmbh"],
  [/aktiengesellschaft$/u, "ag"],
  [/sendirian berhad$/u, "sdnbhd"],
  [/private limited$/u, "pvtltd"],
  [/besloten vennootschap$/u, "bv"],
  [/naamloze vennootschap$/u, "nv"],
  [/sociedad limitada$/u, "sl"],
  [/societ[aà] per azioni$/u, "spa"],
  [/societ[aà] a responsabilit[aà] limitata$/u, "srl"]
]

const spelledForm = (literal: string): boolean => {
  const lower = literal.normalize("NFC").toLowerCase().trim()
  return SPELLED_FORMS.some(([form]) => form.test(lower))
}

/** A name with its legal form abbreviated and undotted: `… ORLEN spółka akcyjna` and `… ORLEN S.A.` are one name. */
const withFormAbbreviated = (literal: string): string =>
  SPELLED_FORMS.reduce(
    (text, [form, short]) => text.replace(form, short),
    literal.normalize("NFC").toLowerCase().trim()
  ).replace(/[\s.]+/g, "")

/**
 * Whether two names are one: equal as `name` compares them, or, where either spells its legal form out, equal with
 * the form abbreviated (the names themselves still compared letter by letter).
 */
export const sameName = (got: string, truth: string): boolean =>
  name(got) === name(truth) ||
  ((spelledForm(got) || spelledForm(truth)) && withFormAbbreviated(got) === withFormAbbreviated(truth))
