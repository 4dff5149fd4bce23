/**
 * The date a field asks for. Every date printed is classified by its nearest label (the words just before it on
 * its row, else the cell right above it): an issue date (Fecha, Date, Datum, Data…), or a due, expiry (CAE, valid
 * until), period, delivery or order date; a date joined to another by a range mark (`1 - 31 July`, `du … au`) is
 * a period. The field wants the kind its own name says (`fecha_vencimiento` a due date), else the issue date; a
 * date of that kind beats an unlabelled one, dates of other kinds are never taken. The literal is returned as
 * printed: whether `03/05/2024` is day or month first is decided per document by core's assembly, from the
 * document's own dates (`Values.dateOrderOf`).
 */
import { type Evidence, type Found, found } from "./evidence.js"
import { nameWords, type Target } from "./labels.js"
import { cellAt, cellStart, type Layout, overlap, type Row } from "./layout.js"
import { amounts, dates, type Match } from "./patterns.js"
import { doubted, type RowToken, rowTokens } from "./phrases.js"
import { folded, nearWords, tokens } from "./text.js"
import {
  DATE_LABELS,
  DATED_ONLY_WORDS,
  type DateKind,
  DOCUMENT_NOUNS,
  JOURNEY_DATE,
  NOTICE_DATE,
  OTHER_DATE_GROUPS
} from "./vocabulary.js"

const KINDS: ReadonlyArray<readonly [DateKind, ReadonlySet<string>]> = DATE_LABELS.map(([k, words]) => [
  k,
  new Set(words)
])

/** Words of a label that may sit between it and its date. */
const LABEL_REACH = 5

// Marks that join two dates into a range: `-`, `to`, `al`, `bis`, `au`, `tot`, `a`, `hasta`, `until`; the second date
// may be written with its article (`le 1 juin 2022 - le 28 juin 2022`).
const RANGE_BEFORE = /\d\s*(?:-|–|—|to|al|a|bis|au|tot|hasta|until|through|t\/m)\s*(?:(?:le|el|il|the|am|den)\s*)?$/u
const RANGE_AFTER =
  /^\s*(?:-|–|—|to|al|a|bis|au|tot|hasta|until|through|t\/m)\s*(?:(?:le|el|il|the|am|den)\s+)?\d{1,2}(?:\s*[/.-]\s*\d{1,2}|\.?\s+\p{L})/u

interface Dated {
  readonly match: Match
  readonly row: Row
  readonly kind: DateKind | "none"
  /** Where its label was: before it on its row, in the cell above it, or nowhere. */
  readonly label: "before" | "above" | "none"
  /** Words no label is printed before it (`Punktestand am`, `Geburtstag:`): a date of something else, unnamed. */
  readonly worded?: boolean
  /** Its label's words, where a label names it. */
  readonly words?: ReadonlyArray<Word>
  /** The end of a range it is (`del 01/02/2024 al 29/02/2024`). */
  readonly range?: Side
}

/** Which end of a period a date is, or a field asks for. */
type Side = "start" | "end"

// The words of a period's start and of its end, in labels (`Desde`, `Hasta`, `Leistungszeitraum von … bis`, `Fecha de
// inicio`) and in a field's name (`periodo_fin`, `Start date`, `Fin del periodo`).
const START_WORDS = new Set([
  "desde",
  "from",
  "du",
  "dal",
  "van",
  "von",
  "inicio",
  "start",
  "beginn",
  "begin",
  "debut",
  "inizio"
])
const END_WORDS = new Set([
  "hasta",
  "until",
  "bis",
  "jusqu",
  "fino",
  "ate",
  "au",
  "al",
  "tot",
  "fin",
  "end",
  "ende",
  "final",
  "fine"
])

/** The side of a period its words name, if only one. */
const sideOf = (words: ReadonlyArray<string>): Side | undefined => {
  const start = words.some((w) => START_WORDS.has(w))
  const end = words.some((w) => END_WORDS.has(w))
  return start === end ? undefined : start ? "start" : "end"
}

// The words a date is written after with no label in them: `le`, `el`, `il`, `am`, `on`, `op`, `em`, `the`.
const DATE_FILLERS = new Set(["le", "el", "il", "am", "on", "op", "em", "the", "den"])

const LABEL_WORDS = new Set(DATE_LABELS.flatMap(([, words]) => words))
const DATED_ONLY = new Set(DATED_ONLY_WORDS)
// A date's own word (`Fecha`, `Date`, `Datum`, `Data`), beside which a payment's word names a date.
const DATE_WORDS = new Set(["fecha", "date", "datum", "data", "dated", "fechas", "dates"])
const nearLabelWords = nearWords(LABEL_WORDS)

/** A label word as printed, or as a word the reader doubted may be read for (`Vencirniento`, `Daturn`). */
interface Word {
  readonly text: string
  readonly doubted: boolean
}

const printed = (text: string): Word => ({ text, doubted: false })

/** Words with a hotel's `check in` and `check out` (`Check-in`, `Check out date`) read as one word each. */
const checkJoined = (words: ReadonlyArray<Word>): ReadonlyArray<Word> =>
  words.flatMap((w, k) => {
    const next = words[k + 1]?.text
    if (w.text === "check" && (next === "in" || next === "out")) return [{ ...w, text: `check${next}` }]
    const previous = words[k - 1]?.text
    return previous === "check" && (w.text === "in" || w.text === "out") ? [] : [w]
  })

/**
 * The kind of date its label words say, the first kind in `DATE_LABELS` order one of them has; a word the reader
 * doubted is also read as the label word it is an OCR slip of (one that is no label word itself).
 */
const kindOf = (words: ReadonlyArray<Word>): DateKind | "none" => {
  const read = words.flatMap((w) =>
    LABEL_WORDS.has(w.text) || !w.doubted ? [...compounded(w.text)] : [w.text, ...nearLabelWords(w.text)]
  )
  // A German till's security module stamps the sale's start and end (`TSE-Start: 2024-03-07T14:22:30`): the sale's
  // own date as a bare one is, not a period's start.
  if (read.includes("tse")) return "none"
  // A payment's, an operation's or a leave's word names a date only beside a date's word (`Fecha de pago`), or in one
  // (`Zahlungsdatum`): alone it labels something else (`Forma de pago`, `Nº operación`).
  const dated = read.some((w) => DATE_WORDS.has(w) || dateCompound(w))
  const kept = dated ? read : read.filter((w) => !DATED_ONLY.has(w))
  for (const [kind, set] of KINDS) if (kept.some((w) => set.has(w))) return kind
  return "none"
}

/** Whether a word is a compound of a date word (`Buchungsdatum`, `Kaufdatum`, `Fälligkeitsdatum`). */
const dateCompound = (word: string): boolean => word.length >= 8 && /(?:datum|date|fecha)$/.test(word)

/**
 * A label word, and where it is a date word's compound no label lists (`Fälligkeitsdatum`) the label words it opens
 * with (`fallig`: a due date). One that opens with none (`Kaufdatum`, `Besteldatum`) names a date of a kind unknown.
 */
const compounded = (word: string): ReadonlyArray<string> =>
  LABEL_WORDS.has(word) || !dateCompound(word)
    ? [word]
    : [word, ...labelsOpening(word, 4).filter((w) => !dateCompound(w))]

const LABEL_LIST = [...LABEL_WORDS]

/** The label words of at least `length` letters a word opens with (`fallig` of `falligkeitsdatum`). */
const labelsOpening = (word: string, length: number): ReadonlyArray<string> =>
  LABEL_LIST.filter((w) => w.length >= length && word.startsWith(w))

/**
 * The label words nearest before a date on its row: back to the previous figure, at most a few words. A word
 * printed glued to figures is part of a code, not a label (`566832-U` of `Company Reg. No.: 566832-U  12-12-2018`);
 * a label word with a figure OCR read for one of its letters is the label (`Returns accepted unti1 20-12-2019`).
 */
const wordsBefore = (row: Row, list: ReadonlyArray<RowToken>, start: number): ReadonlyArray<Word> => {
  const text = row.text.slice(0, start)
  const before = list.filter((t) => t.end <= start)
  const out: Array<Word> = []
  for (let i = before.length - 1; i >= 0 && out.length < LABEL_REACH; i--) {
    const token = before[i]
    if (token === undefined) break
    const misread = misreadLabel(text, token)
    const chunk = chunkOf(text, token)
    if (/\d/.test(chunk) && !misread) break
    // A bracket or bar glued before a word is a letter OCR misread (`[ate` for `Date`): the word is none it reads.
    const cut = /^[[\]|{}]\p{L}/u.test(chunk)
    out.unshift({ text: cut ? chunk : token.text, doubted: misread || doubted(row, token) })
  }
  return checkJoined(out)
}

/**
 * Whether a token standing alone is a label word with a figure OCR confuses with a letter read for it (`unti1`); a
 * figure no letter looks like (`Fech4`) makes no label.
 */
const misreadLabel = (text: string, token: RowToken): boolean =>
  /\d/.test(token.text) &&
  chunkOf(text, token).replace(/[^\p{L}\p{N}]/gu, "").length === token.text.length &&
  nearLabelWords(token.text).length > 0

/** The run of characters with no space in it that holds a token, in `text` (offsets as the token's). */
const chunkOf = (text: string, token: RowToken): string => {
  const from = text.slice(0, token.start).search(/\S*$/)
  const to = token.end + (text.slice(token.end).match(/^\S*/)?.[0].length ?? 0)
  return text.slice(from, to)
}

/** The most words a column header over a date has (`Fecha de emisión de factura`). */
const HEADER_WORDS = 5

/** The words of the cell right above a date (a column header, no figures), on one of the two rows above on its page. */
const wordsAbove = (layout: Layout, row: Row, start: number): ReadonlyArray<Word> => {
  const cell = cellAt(row, start)
  if (cell === undefined) return []
  const height = row.y1 - row.y0
  for (let order = row.order - 1; order >= Math.max(0, row.order - 2); order--) {
    const above = layout.rows[order]
    if (above === undefined || above.page !== row.page || row.y0 - above.y1 > 2 * height) break
    const over = above.cells.find((c) => overlap(c, cell) > 0.3)
    if (over === undefined) continue
    // A column header is words alone: a cell with figures (`Umtausch bis 15.05.2020`) labels its own, and a row
    // with an amount is a figure's label and value (`BALANCE DUE | 3.29` over a receipt's date), no header row.
    if (/\d/.test(over.text) || amounts(above.text).some((a) => a.decimals)) return []
    // Nor is a label with its value in the next cell (`Nº operación: | 23/441825` over a till's date).
    const next = above.cells[above.cells.indexOf(over) + 1]
    if (/:\s*$/.test(over.text) && next !== undefined && /\d/.test(next.text)) return []
    const start = cellStart(above, over)
    const words = rowTokens(above).filter((t) => t.start >= start && t.end <= start + over.text.length)
    // A header is a few words: a sentence over a receipt's date (`Thank you for shopping with us`) labels nothing,
    // whatever label its words, misread, may look like (`shopping` for `shipping`).
    if (words.length > HEADER_WORDS) return []
    return checkJoined(words.map((t) => ({ text: t.text, doubted: doubted(above, t) })))
  }
  return []
}

// A document's noun, its number and the word that dates it: `Facture n° 123 du`, `Fattura n. 7 del`, `Rechnung Nr.
// 5 vom`, `Factura 0005-123 de`, `Fatura FT 1/2 de`, `Factuur 42 van`, `Faktura VAT nr 3 z dnia`, `Invoice 12 of`.
const DATED = "(?:du|del|vom|de|do|da|van|of|z\\s+dnia)"
const DATED_BY_NUMBER = new RegExp(
  `(?<![a-z])(?:${DOCUMENT_NOUNS.join("|")})(?![a-z])[^\\d]{0,16}\\S*\\d\\S*\\s+${DATED}\\s*$`
)
const DATED_WORD = new RegExp(`^\\s*${DATED}\\s*$`)
// An invoice's own noun and the word that dates it, no number between (`Facture du`, `Votre facture` over `du 12 mars
// 2024`, `Fattura del`, `Your bill of`): only the nouns of an invoice, for a delivery note's or an order's date is
// another document's.
const DATED_INVOICE = new RegExp(
  `(?<![a-z])(?:factura|facture|fattura|fatura|factuur|rechnung|invoice|bill|faktura)\\s+${DATED}\\s*$`
)

/**
 * Whether a date is the one a document's number is given with, or the invoice itself (`Facture du`), its issue date
 * (though `du`, `dal` and `van` open periods too); the number may end the row above (`FACTURE FA190301234` over `du
 * 12 mars 2019`).
 */
const datedByNumber = (layout: Layout, row: Row, before: string): boolean => {
  const previous = layout.rows[row.order - 1]
  const text = folded(before)
  const dated =
    previous !== undefined && previous.page === row.page && DATED_WORD.test(text)
      ? `${folded(previous.text)} ${text}`
      : text
  return DATED_BY_NUMBER.test(dated) || DATED_INVOICE.test(dated)
}

/**
 * Whether a label names the issue date and a delivery or order date as one, joined by a slash
 * (`Rechnungsdatum/Lieferdatum`, `Invoice/Delivery date`): the date is both, the issue date among them.
 */
const issueAmong = (near: ReadonlyArray<Word>, before: string): boolean => {
  const kinds = near.map((w) => kindOf([w]))
  return (
    kinds.includes("issue") &&
    kinds.some((k) => k === "delivery" || k === "order") &&
    /\p{L}\s*\/\s*\p{L}[^/\d]*$/u.test(before)
  )
}

// A credit note's reference to the invoice it corrects (`Rectifica a la factura Nº F-2024-0345 de fecha 10/01/2024`,
// `Storno zu Rechnung … vom`, `Corrects invoice … dated`): a date after it on its row is that invoice's.
const CORRECTS =
  /(?<![a-z])(?:rectifica|rectificada|rectifies|corrects|correcting|corrige|anula|annule|storniert|storno zu|rettifica|credit for invoice)(?![a-z])/

const classify = (layout: Layout, row: Row, list: ReadonlyArray<RowToken>, match: Match): Dated => {
  const before = row.text.slice(0, match.start)
  const after = row.text.slice(match.end)
  if (RANGE_BEFORE.test(folded(before))) return { match, row, kind: "period", label: "before", range: "end" }
  if (RANGE_AFTER.test(folded(after))) return { match, row, kind: "period", label: "before", range: "start" }
  if (CORRECTS.test(folded(before))) return { match, row, kind: "other", label: "before" }
  if (datedByNumber(layout, row, before)) return { match, row, kind: "issue", label: "before" }
  const near = wordsBefore(row, list, match.start)
  const kind = issueAmong(near, before) ? "issue" : kindOf(near)
  // Words before the date label it, unless they are only the article or preposition a date is written with
  // (`le 27 mars 2022`, `am 12.03.2020`, `on 3 May`): then the cell above may.
  const filler = near.every((w) => DATE_FILLERS.has(w.text))
  if (kind !== "none") return { match, row, kind, label: "before", words: near }
  // A place before the date (`Paderborn, 15.04.2020`, `Madrid, 12 de marzo`) dates the letter it heads.
  // A date word's compound of unknown kind (`Kaufdatum`) is no such word either: it names a date, as a bare one is.
  const above = () => kindOf(wordsAbove(layout, row, match.start))
  if (near.length > 0 && !filler) {
    // Words of another cell, under a date's header over the date's own (`VAT No. | 12/12/2021` under `Date`, the
    // tax id fallen to the next row): another column's label; the header names the date.
    const last = list.filter((t) => t.end <= match.start).at(-1)
    const apart = last !== undefined && cellAt(row, last.start) !== cellAt(row, match.start)
    const header = apart ? above() : "none"
    if (header !== "none")
      return { match, row, kind: header, label: "above", words: wordsAbove(layout, row, match.start) }
    const named = near.some((w) => dateCompound(w.text)) || /\p{L},\s*$/u.test(before)
    return { match, row, kind, label: "none", worded: !named }
  }
  const header = above()
  return header === "none"
    ? { match, row, kind: header, label: "none" }
    : { match, row, kind: header, label: "above", words: wordsAbove(layout, row, match.start) }
}

/**
 * A date literal's figures, a four-digit year as its last two digits and last: `14/03/2024`, `14.03.24` and
 * `2024-03-14` (a till's signature time, `TSE-Start: 2024-03-14T10:02:11`) are one date.
 */
const figures = (literal: string): string => {
  const numbers = (literal.match(/\d+/g) ?? []).map((n) => (n.length === 4 ? n.slice(2) : String(Number(n))))
  const yearFirst = /^\d{4}/.test(literal)
  return (yearFirst ? [...numbers.slice(1).reverse(), numbers[0]] : numbers).join(" ")
}

/** A label before the date on its row names it outright; one above it (a column header) less so; none, position. */
const evidenceOf = (d: Dated): Evidence =>
  d.label === "before" ? "exactLabel" : d.label === "above" ? "label" : "position"

// Each word of a date of another thing, to the group of what it dates (a birth, a start, a debit).
const OTHER_GROUP = new Map(OTHER_DATE_GROUPS.flatMap((group, k) => group.map((w) => [w, k] as const)))

/**
 * The kind of date a field asks for, from its own name and aliases (and its description when they say nothing), and
 * for a date of another kind (`fecha_nacimiento`, `Start date`) the words that name it: a date of that kind is one a
 * label with one of them names (a birth date is no start date), never the issue date.
 */
const wantedKind = (
  target: Target
): {
  readonly kind: DateKind
  readonly named: ReadonlySet<number>
  readonly side: Side | undefined
  /** Whether the document's own date serves where none of its kind is printed (a ticket's for a journey's). */
  readonly own: boolean
  /** The words of its name no date's label has (`consulta` of `fecha_consulta`): a label with one names it. */
  readonly qualifiers: ReadonlySet<string>
} => {
  // A field's name may write a German umlaut out (`faelligkeit`) and compound a label word (`Fälligkeitsdatum`,
  // `Lieferdatum`): each word also stands for the label words it spells that way or opens with.
  const forms = (word: string) => {
    const plain = word.replace(/ae/g, "a").replace(/oe/g, "o").replace(/ue/g, "u")
    return [word, plain, ...labelsOpening(word, 5), ...labelsOpening(plain, 5)]
  }
  const words = (texts: ReadonlyArray<string>) =>
    texts.flatMap((t) =>
      checkJoined(tokens(folded(t)).map((k) => printed(k.text))).flatMap((w) => forms(w.text).map(printed))
    )
  const ownWords = words([nameWords(target.name), ...target.aliases])
  const ownKind = kindOf(ownWords)
  const said = ownKind !== "none" ? ownWords : words([target.description])
  const kind = ownKind !== "none" ? ownKind : kindOf(said)
  const named = new Set(said.flatMap((w) => OTHER_GROUP.get(w.text) ?? []))
  const side =
    kind === "period"
      ? sideOf(words([nameWords(target.name), ...target.aliases, target.description]).map((w) => w.text))
      : undefined
  const own = kind === "other" && named.size === 1 && [...named].every((k) => OWN_DATED.has(k))
  const qualifiers = new Set(
    ownWords.map((w) => w.text).filter((w) => w.length >= 4 && !LABEL_WORDS.has(w) && !DATE_WORDS.has(w))
  )
  return { kind: kind === "none" ? "issue" : kind, named, side, own, qualifiers }
}

// The groups of dates a document's own date is where none is labelled so: a ticket's journey, a notice's.
const OWN_DATED = new Set([JOURNEY_DATE, NOTICE_DATE].map((group) => OTHER_DATE_GROUPS.indexOf(group)))

/** Whether a date is the side of a period a field asks for: as a range's end, or by its label's words. */
const onSide = (f: Dated, side: Side | undefined): boolean =>
  side === undefined || (f.range ?? sideOf((f.words ?? []).map((w) => w.text))) === side

/**
 * Whether a date's label names what a field's words name (a date of another thing: `DOB` for `Date of birth`, the
 * groups of `OTHER_DATE_GROUPS`).
 */
const namedBy = (f: Dated, named: ReadonlySet<number>): boolean =>
  f.words?.some((w) => compounded(w.text).some((c) => named.has(OTHER_GROUP.get(c) ?? -1))) === true

/** The date a field asks for and the rules' certainty of it, or null. */
export const date = (layout: Layout, target: Target): Found | null => {
  const all = layout.rows.flatMap((row) => {
    const list = rowTokens(row)
    return dates(row.text).map((m) => classify(layout, row, list, m))
  })
  const { kind: wanted, named, side, own, qualifiers } = wantedKind(target)
  // An unlabelled date: printed bare (a receipt's date and time) before one that other words name. A period's start
  // or end (`Fin del periodo`) may be labelled so as a date of its own (`Fecha de inicio`). A journey's or a notice's
  // date where none is labelled so: the ticket's or the notice's own, as an issue date would be.
  const issue = wanted === "issue" || own
  // A label with a word of the field's name no date's label has (`Fecha de la consulta` for `fecha_consulta`) names
  // the date it asks for before any other.
  const score = (f: Dated): number =>
    f.words?.some((w) => qualifiers.has(w.text)) === true
      ? 3
      : (f.kind === wanted && (wanted !== "other" || namedBy(f, named)) && onSide(f, side)) ||
          (side !== undefined && f.kind === "other" && onSide(f, side))
        ? 2
        : own && f.kind === "issue"
          ? 1.5
          : f.kind === "none" && issue
            ? f.worded === true
              ? 0.5
              : 1
            : 0
  const top = Math.max(0, ...all.map(score))
  const tied = all.filter((f) => top > 0 && score(f) === top)
  const best = [...tied].sort((a, b) => a.row.order - b.row.order || a.match.start - b.match.start)[0]
  if (best === undefined) return null
  // Another date of the same kind and label: the first printed was taken, not the only one.
  const competed = tied.some(
    (f) => evidenceOf(f) === evidenceOf(best) && figures(f.match.text) !== figures(best.match.text)
  )
  // Unlabelled dates that disagree, and no label says which is the issue date: reading order alone would choose
  // (a receipt's date and a return-by or best-before date printed bare). An empty field is better than a wrong one.
  if (competed && top < 2) return null
  return found(best.match.text, evidenceOf(best), competed)
}
