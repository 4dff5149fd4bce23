/**
 * The document's own number, read only next to a label that names it: a document noun with a number word
 * (`Factura Nº`, `Invoice No`, `Comp. Nro`, `Nº de factura`, `Facture n°`), a compound (`Rechnungsnummer`), or a
 * document noun right before a colon (`Factura simplificada: 3893-020-160319`, `Ticket: 1234`). A label that
 * names another document's number (order, customer, CAE, page) does not count, and a bare `No.` never does
 * (`NO.53 JALAN PUTRA` is a street number). The value is the first code after the label (rest of its cell, the
 * next cell, else the cell under it); a point of sale and number (`0005-00011643`) is kept whole. Where no label
 * shows one, a title with a code right after it (`Factuur 2021-0001`) gives it, weakest of all.
 */

import { hasStreet } from "./addressText.js"
import { type Evidence, type Found, found } from "./evidence.js"
import { registerLine } from "./issuer.js"
import { fieldWords, findLabels, type Label, labelsOf, type Target } from "./labels.js"
import { type Cell, cellAt, cellBelow, cellStart, columnsApart, type Layout, type Row, restOfCell } from "./layout.js"
import { codes, dates, type Match, pointOfSaleNumbers } from "./patterns.js"
import { doubted, type RowToken, rowTokens } from "./phrases.js"
import { FIGURE_FOR, folded, phraseTokens, tokens, wordLike, wordMatcher } from "./text.js"
import {
  COPY_MARKS,
  DATE_LABELS,
  DOCUMENT_NOUNS,
  DOCUMENT_TITLES,
  NUMBER_COMPOUNDS,
  NUMBER_WORDS,
  OTHER_NUMBER_GROUPS,
  OTHER_NUMBER_WORDS,
  TAX_ID_WORDS,
  TITLE_KINDS
} from "./vocabulary.js"

const NOUNS = new Set(DOCUMENT_NOUNS)
// OCR reads `Facturnr.` for `Factuurnr.`, `Involce` for `Invoice`: long label words match up to a slip.
const isNoun = wordMatcher(DOCUMENT_NOUNS)
const isCompound = wordMatcher(NUMBER_COMPOUNDS)
const NUMBER = new Set(NUMBER_WORDS)
const OTHER = new Set(OTHER_NUMBER_WORDS)
const TAX_ID = new Set(TAX_ID_WORDS)
// Date words (not the document nouns, which also label issue dates): `Invoice Date:` labels a date, not a number.
const DATE_WORDS = new Set(DATE_LABELS.flatMap(([, words]) => words).filter((w) => !NOUNS.has(w)))

/**
 * Nouns that label a number only after their number word: `N. op.` (numero operazione), where `OP#` before a
 * number is a till's operator on a receipt (`ST# 05483 OP# 009044 TE# 44`).
 */
const AFTER_NUMBER_WORD = new Set(["op"])

/** Words that may stand between a document noun and its number word (`Factura A Nº`, `Nº de factura`). */
const GAP = 2

/** A label found in a row: where its tokens end, how strong it is. */
interface NumberLabel {
  readonly row: Row
  readonly first: RowToken
  readonly last: RowToken
  readonly strength: number
}

const isCode = (word: string) => /\d/.test(word)

/** A word with figures OCR reads for letters, and three letters or more (`inv0ice`, `n0mero`). */
const misreadWord = (word: string) => wordLike(word) && /\p{L}{3}/u.test(word)

/** Whether two tokens of a row may be one label: in one cell, or in the next cell within three line heights. */
const oneLabel = (row: Row, a: RowToken, b: RowToken): boolean => {
  const first = cellAt(row, a.start)
  const second = cellAt(row, b.start)
  if (first === undefined || second === undefined || first === second) return first === second
  return row.cells.indexOf(second) === row.cells.indexOf(first) + 1 && second.x0 - first.x1 < 3 * (row.y1 - row.y0)
}

/**
 * Whether a number word is no label where it is printed: the head of a code, a hyphen and figures glued to it
 * (`N-2897-989`), or the first letter of a dotted abbreviation (`N.I.F.W84348296`, a tax id OCR ran into its value).
 */
const glued = (row: Row, token: RowToken): boolean =>
  /^(?:-\d|\.(?![oº°])\p{L}\.)/iu.test(row.text.slice(token.end, token.end + 3))

/**
 * A row's tokens, a number word glued to its value or to its document's noun by its ordinal sign cut from it:
 * `n°12345678` (folded `no12345678`) is `no` and `12345678`, as `No.12345678` is; `Nºfacture` (the space OCR lost)
 * is `no` and `facture`.
 */
const labelTokens = (row: Row): ReadonlyArray<RowToken> =>
  rowTokens(row).flatMap((t) => {
    const cut = t.start + 2
    return (/^no\d/.test(t.text) || (/^no\p{L}/u.test(t.text) && NOUNS.has(t.text.slice(2)))) &&
      /[º°]/u.test(row.text[t.start + 1] ?? "")
      ? [
          { text: "no", start: t.start, end: cut },
          { text: t.text.slice(2), start: cut, end: t.end }
        ]
      : [t]
  })

/** Number labels of a row from the vocabulary. */
const rowLabels = (row: Row): Array<NumberLabel> => {
  const list = labelTokens(row)
  const out: Array<NumberLabel> = []
  // Another document's word in the label, or just before it in its cell (`Customer Invoice No`), or opening a word
  // (`Kundennummer`) that is not the document's own (`Kassenbon-Nr.` opens as `Kasse`, a till's, does); a column
  // beside it is another label's (`KLANTNUMMER | FACTUURNUMMER`).
  const other = (from: number, to: number) => {
    const cell = cellAt(row, list[from]?.start ?? 0)
    return list
      .slice(Math.max(0, from - 2), to + 1)
      .filter((t, k) => k >= Math.min(2, from) || cellAt(row, t.start) === cell)
      .some(
        (t) => OTHER.has(t.text) || (!ownNoun(t.text) && [...OTHER].some((o) => t.text.startsWith(o) && o.length >= 5))
      )
  }
  for (let i = 0; i < list.length; i++) {
    const token = list[i]
    // A word the reader doubted may hold a figure OCR read for a letter (`INV0ICE NO:`): it may be a label's.
    if (token === undefined || (isCode(token.text) && !(doubted(row, token) && misreadWord(token.text)))) continue
    const push = (from: number, to: number, strength: number) => {
      const first = list[from]
      const last = list[to]
      if (first === undefined || last === undefined) return
      // Labels are whole words: `invoice_number_1` is a value, not a label and its value.
      const joined = /_/.test(row.text[first.start - 1] ?? "") || /_/.test(row.text[last.end] ?? "")
      if (!joined && !other(from, to)) out.push({ row, first, last, strength })
    }
    // A label read with an OCR slip names the number less surely than one printed word for word.
    const printed = NOUNS.has(token.text) || COMPOUND_SET.has(token.text)
    // A slip is tolerated only where the reader may have made it: a word it doubted (text layers read 1).
    const slip = !printed && doubted(row, token)
    const sure = printed ? 1 : SLIPPED
    // A compound's number word may follow it (`Rechnungs-Nr. I 86023`): the label ends after it, so that the value
    // is read from there, a series' letter and all.
    if (COMPOUND_SET.has(token.text) || (slip && isCompound(token.text))) {
      const next = list[i + 1]
      // A compound that names the number itself (`Factuurnummer`, `Rechnungsnummer`) has no number word after it:
      // a capital `N` alone before figures is the series' letter (`Factuurnummer N 62670`).
      const series =
        next?.text === "n" &&
        /(?:nummer|number|numero|nr)$/.test(token.text) &&
        /^N\s\d/.test(row.text.slice(next.start))
      push(i, next !== undefined && NUMBER.has(next.text) && !glued(row, next) && !series ? i + 1 : i, sure)
    }
    if (printed ? NOUNS.has(token.text) && !AFTER_NUMBER_WORD.has(token.text) : slip && isNoun(token.text)) {
      // `Factura Nº`, `Factura A Nº`: the noun, then its number word a word or two later; the title's kind is no
      // word between them (`Factura electrónica de venta No.`).
      const kinds = list.slice(i + 1).findIndex((t) => !KINDS.has(t.text))
      const k = list
        .slice(i + 1, i + 2 + GAP + Math.max(0, kinds))
        .findIndex((t) => NUMBER.has(t.text) && !glued(row, t))
      if (k >= 0 && !list.slice(i + 1, i + 1 + k).some((t) => isCode(t.text))) push(i, i + 1 + k, sure)
      // `Factura simplificada: 3893-…`: a colon or `#` right after the noun (or one word after it), unless a
      // date word is part of the label (`Invoice Date:`, `Data da fatura:`). A two-letter abbreviation needs its
      // number word (`N. op.`, `FS n.º`): alone it is as often another word's (`OP: 4`, the operator).
      else if (token.text.length > 2) {
        for (let j = i; j <= Math.min(i + 1, list.length - 1); j++) {
          const end = list[j]?.end ?? 0
          if (/^\s*[:#]/.test(row.text.slice(end))) {
            if (!list.slice(Math.max(0, i - 2), j + 1).some((t) => DATE_WORDS.has(t.text)))
              push(i, j, Math.min(sure, 0.8))
            break
          }
        }
      }
    }
    // A column header that is a document's noun alone, in a row of headers with a date's (`Invoice | Date |
    // Customer` over `INV-0042 | 12/03/2023 | C-991`): the code under it, weakly.
    if (printed && TITLE_WORDS.has(token.text) && headerNoun(row, token)) push(i, i, BARE)
    // `Tax ID GB960…`, `VAT No. …`: a number word right after a tax id's word labels the tax id.
    if (NUMBER.has(token.text) && !glued(row, token) && !TAX_ID.has(list[i - 1]?.text ?? "")) {
      // `Nº de factura`, `Numéro de facture`, `Number of invoice`, in one cell or two close ones (`N.º | documento`,
      // as OCR splits it): a column header `No.` beside `Invoice Date` is no `No. Invoice`.
      const k = list
        .slice(i + 1, i + 2 + GAP)
        .findIndex((t) => oneLabel(row, token, t) && (NOUNS.has(t.text) || (doubted(row, t) && isNoun(t.text))))
      // A code between them is the number word's value (`St.-Nr. DE498056123  RE.-NR. L 18779`), not a gap.
      if (k >= 0 && !list.slice(i + 1, i + 1 + k).some((t) => isCode(t.text))) push(i, i + 1 + k, 1)
      // A number word that is a whole label cell (`Nº:`, `NUMMER`), weakest: its value must be a code alone.
      else if (opensCell(row, token) && bareValue(restOfCell(row, token))) push(i, i, BARE)
    }
  }
  return out
}

/**
 * Whether a document noun is a column header alone in its cell, in a row of headers (no figures) one of which
 * labels a date.
 */
const headerNoun = (row: Row, token: RowToken): boolean =>
  row.cells.length >= 2 &&
  opensCell(row, token) &&
  /^[\s:.]*$/.test(restOfCell(row, token)) &&
  !/\d/.test(row.text) &&
  rowTokens(row).some((t) => DATE_WORDS.has(t.text))

/** The strength of a bare number word as a label (`Nº:` alone in its cell). */
const BARE = 0.5

/** The strength of a document's title with its number right after it (`Factuur 2021-0001`), weakest of all. */
const TITLED = 0.4

// The titles of the documents whose number is asked (not a delivery note's or a quotation's), compounds ending in
// one too (`Verkoopfactuur`, `Verkaufsrechnung`); and a German till's words for its slip, printed before its number
// as a title is, though no title (`Kasse 2  Bon 0815`, `Beleg 34512`).
const TITLE_WORDS = new Set([
  ...DOCUMENT_TITLES.filter(
    (w) => !OTHER.has(w) && (NOUNS.has(w) || [...NOUNS].some((n) => n.length >= 6 && w.endsWith(n)))
  ),
  "bon",
  "beleg"
])

// A folded word as printed, with or without the accents on its vowels (`electronica`: `ELECTRÓNICA`).
const accented = (word: string): string =>
  word.replace(/[aeiou]/g, (v) => `[${v}${{ a: "áà", e: "éè", i: "í", o: "ó", u: "ú" }[v] ?? ""}]`)

// Spaces, then copy marks or the title's kinds (bracketed or not, one or more: `BOLETA DE VENTA ELECTRÓNICA`) and
// the spaces after them.
const COPY_MARK_GAP = new RegExp(
  `^(?:[\\s:#]+\\(?(?:${[...COPY_MARKS, ...TITLE_KINDS].map(accented).join("|")})\\)?)+[\\s:#]+`,
  "iu"
)
const KINDS = new Set(TITLE_KINDS)

/**
 * A document's title with its number right after it, no number word between (`Factuur 2021-0001`, `INVOICE
 * INV-0042`, `Ihre Rechnung 2021-117 vom …`): the code must hold three figures or more and be no year alone (`Invoice
 * 2021`), no page (`1/2`), no date and no amount. Only a title word printed as such counts, never an OCR slip of one.
 */
const titledNumbers = (layout: Layout, row: Row): ReadonlyArray<string> => {
  return rowTokens(row).flatMap((token) => {
    if (!TITLE_WORDS.has(token.text)) return []
    const rest = row.text.slice(token.end)
    // A title alone (its kind or a copy mark may follow), its number alone right under it (`FACTURA ELECTRÓNICA`
    // over `F001-00001234`).
    const titleOnly = /^[\s:#]*$/.test(rest) || (COPY_MARK_GAP.exec(`${rest} `)?.[0].length ?? 0) >= rest.length
    if (titleOnly && opensCell(row, token)) {
      const under = cellBelow(layout, row, token.start)
      const alone = under === undefined ? undefined : numberAlone(under.text)
      return alone !== undefined && plausibleTitled(alone) ? [alone] : []
    }
    // A copy mark or a kind between them is part of the title (`FACTURA ORIGINAL 985752`, `RECHNUNG (ORIGINAL)
    // U-7408-377`, `Factura completa 931938`).
    const gap = (COPY_MARK_GAP.exec(rest) ?? /^[\s:#]+/.exec(rest))?.[0].length ?? 0
    // A series before the number, apart from it (`INVOICE Q 46803`).
    const series = SERIES_START.exec(rest.slice(gap))?.[0]
    const code = codes(rest)[0]
    if (gap === 0 || code === undefined || (code.start !== gap && series === undefined)) return []
    // A code across a column's gap is the other column's (`Número de factura | 75537 Valencia`, a postcode).
    const [own, other] = [cellAt(row, token.start), cellAt(row, token.end + code.start)]
    if (own !== undefined && other !== undefined && own !== other && columnsApart(row, own, other)) return []
    // Figures in groups (`Ticket 0012 345 6789`): the first group alone is no number (`SPACED`).
    if (series === undefined && /^\d+$/.test(code.text) && /^ \d{2,}(?![.,]\d)/.test(rest.slice(code.end))) return []
    const text = series ?? code.text
    return plausibleTitled(text) ? [text] : []
  })
}

/** Whether a code after a title can be its number: three figures or more, no year alone (`Invoice 2021`). */
const plausibleTitled = (text: string): boolean => text.replace(/\D/g, "").length >= 3 && !/^(19|20)\d{2}$/.test(text)

/** The strength of a label whose document noun was read with an OCR slip (`Facturnr.`). */
const SLIPPED = 0.8
const COMPOUND_SET = new Set(NUMBER_COMPOUNDS)
const ownNoun = (word: string): boolean => NOUNS.has(word) || COMPOUND_SET.has(word)

const opensCell = (row: Row, token: RowToken): boolean => {
  const cell = cellAt(row, token.start)
  return cell !== undefined && cellStart(row, cell) === token.start
}

/** Whether what follows a bare number word in its cell leaves it a label: nothing, or a number alone. */
const bareValue = (rest: string): boolean => /^[\s:.ºo°]*$/iu.test(rest) || numberAlone(rest) !== undefined

/**
 * The first document number in a text: a point of sale and number kept whole, else the first code of two
 * characters or more (a lone figure is no document's number: `Bon-Nr.2 25/169788` is OCR's `2` for a colon).
 */
const numberIn = (text: string): Match | undefined => {
  const pair = pointOfSaleNumbers(text)[0]
  const code = codes(text).find((c) => c.text.replace(/[^\p{L}\p{N}]/gu, "").length >= 2)
  if (pair !== undefined && (code === undefined || pair.start <= code.start)) return pair
  return code
}

// A series of one to three capitals before the number, apart from it (`Q 46803`, `E 24166`), or a document type's
// code before its series and number (Portugal's `FT A/245`, `FR FR2024/12`).
const SERIES_CODE = "\\p{Lu}{1,3} (?:\\d[\\p{L}\\p{N}\\-/._]*|[\\p{L}\\p{N}\\-._]+/\\d+)"
const SERIES = new RegExp(`^${SERIES_CODE}$`, "u")
const SERIES_START = new RegExp(`^${SERIES_CODE}(?<![-/._])(?![\\p{L}\\p{N}])`, "u")

// Figures in groups, maybe after a few capitals (`INV 2023 0042`, `TVA 545 207 881 80705`): as often a tax id, a
// SIREN or a phone number as a document's number, and the first group alone is none of them. No value.
const SPACED = /^(?:\p{Lu}{1,4} )?\d{2,}(?: \d{2,})+$/u

/** A value's text without the label's marks before it (`: `, `º`) and the punctuation after it. */
const bareText = (text: string): string => text.replace(/^[\s:#.º°ª]+|[\s:;,.]+$/gu, "")

/**
 * The number a cell other than the label's holds, only when it holds nothing else: `53969 Lille` (a postcode and
 * its town) and `Manchester HJ4 1HR` are another column's text, not the number; nor is a tax id (`TVA 799`).
 */
const numberAlone = (text: string): string | undefined => {
  // A word before a colon is a label's, whatever figure OCR read in it (`No operaci6n: C486-10047`).
  if (/:\s*$/.test(text)) return undefined
  const value = bareText(text)
  // A tax's letters before figures are a tax id's (`Nº | TVA 799 | 217 …`, French `N° TVA` read in cells), no series.
  if (SERIES.test(value)) return TAX_ID.has(folded(value.split(" ")[0] ?? "")) ? undefined : value
  const code = numberIn(value)
  return code !== undefined && code.start === 0 && code.end === value.length ? code.text : undefined
}

/**
 * The value after a label: the rest of its cell, else the next cell, else the cell under the label. A bare
 * number word takes only a number alone (`NO.53 JALAN PUTRA` is an address), and only from a cell near it.
 */
const valueAfter = (
  layout: Layout,
  row: Row,
  labelStart: number,
  labelEnd: number,
  bare = false
): string | undefined => {
  const cell = cellAt(row, labelEnd - 1)
  if (cell === undefined) return undefined
  const rest = row.text.slice(labelEnd, cellStart(row, cell) + cell.text.length)
  // An amount is no number (`El IVA de esta boleta es: $1.106`, a sentence with a noun and a colon).
  if (SPACED.test(bareText(rest)) || /^[\s:#]*\p{Sc}/u.test(rest)) return undefined
  const inRest = bare ? numberAlone(rest) : (numberAlone(rest) ?? numberIn(rest)?.text)
  if (inRest !== undefined) return inRest
  if (/[\p{L}\p{N}]/u.test(rest.replace(/\b(no|nr|nro|n)\b|[º°ª]/giu, ""))) return undefined
  const next = nextCell(row, cell)
  // A bare number word's value is near it: a cell across a column's gap is the other column's (`Nº | 27101`, a
  // postcode whose town OCR set on the next row), and the value is under the label.
  const far = next !== undefined && bare && columnsApart(row, cell, next)
  const beside = next === undefined || far ? undefined : numberAlone(next.text)
  if (beside !== undefined) return beside
  return numberUnder(layout, row, labelStart)
}

/**
 * The number alone in the cell under a label's, unless that cell is part of a date its row prints: the day of `19
 * janvier 2021` under a `N°` whose value the reader cut is no document's number.
 */
const numberUnder = (layout: Layout, row: Row, offset: number): string | undefined => {
  const under = cellBelow(layout, row, offset)
  if (under === undefined) return undefined
  const next = layout.rows.slice(row.order + 1, row.order + 3).find((r) => r.cells.includes(under))
  const start = next === undefined ? 0 : cellStart(next, under)
  const end = start + under.text.length
  return next !== undefined && dates(next.text).some((d) => d.start < end && d.end > start)
    ? undefined
    : numberAlone(under.text)
}

/**
 * The rest of a label's cell and the next cell: where its value is. A street in a column beyond them
 * (`Nummer: | F-7577-561 | Dijkstraweg 12`) is the letterhead's, not the label's row.
 */
const cellsAfter = (row: Row, token: RowToken): string => {
  const cell = cellAt(row, token.start)
  return `${restOfCell(row, token)} ${(cell === undefined ? undefined : nextCell(row, cell))?.text ?? ""}`
}

/**
 * The cell after a label's with any letter or figure: a colon the reader set apart in a cell of its own (`SLIP NO | :
 * | 94232/580/D6404`) stands between them.
 */
const nextCell = (row: Row, cell: Cell): Cell | undefined =>
  row.cells.slice(row.cells.indexOf(cell) + 1).find((c) => /[\p{L}\p{N}]/u.test(c.text))

/**
 * The labels of the other document a field names (`Número de albarán`, `order_number`): its noun with a number word
 * before or after it, as documents print them (`Nº Albarán`, `Albarán nº`, `Nº de albarán`, `Order No.`).
 */
const otherNumberLabels = (target: Target): ReadonlyArray<Label> => {
  const nouns = [...new Set([...fieldWords(target)].filter((w) => OTHER.has(w)).flatMap(othersOf))]
  return [
    ...nouns
      // with its number word apart, or compounded (`Bestellnr.`, `Kundennummer`)
      .flatMap((w) => [[w, "no"], ["no", w], ["no", "de", w], [`${w}nr`], [`${w}nummer`]])
      .map((list) => ({ tokens: list, strength: 1 })),
    // the noun alone opening its cell (`Su pedido: PED-7781`): a number's label less so
    ...nouns.map((w) => ({ tokens: [w], strength: NOUN_ALONE }))
  ]
}

const NOUN_ALONE = 0.5

/** Another document's noun, and where it names one thing across the languages, the others' (`pedido`: `order`). */
const othersOf = (word: string): ReadonlyArray<string> =>
  OTHER_NUMBER_GROUPS.find((group) => group.includes(word)) ?? [word]

/** Whether a field asks for another document's number (an order, a customer): then its own labels serve. */
const asksForOther = (target: Target): boolean => {
  const words = (text: string) => tokens(folded(text)).map((t) => t.text)
  if (words([target.name.replace(/[_\-.]+/g, " "), ...target.aliases].join(" ")).some((w) => OTHER.has(w))) return true
  // Its description, where it names another document and none whose number is the document's (`Número de albarán`
  // for a generic `numero`; not `Número de factura, no el del pedido`).
  const described = words(target.description)
  return described.some((w) => OTHER.has(w)) && !described.some((w) => NOUNS.has(w))
}

/**
 * The evidence of a number label's strength: an alias or a noun with its number word names it outright, a noun
 * before a colon less so, a bare number word weakly.
 */
const evidenceOf = (strength: number): Evidence =>
  strength >= 1 ? "exactLabel" : strength > BARE ? "label" : "weakLabel"

const comparable = (text: string): string => text.replace(/[\s.\-/]/g, "").toLowerCase()

/** The document number and the rules' certainty of it, or null. */
export const documentNumber = (layout: Layout, target: Target): Found | null => {
  const aliasLabels: ReadonlyArray<Label> = (
    asksForOther(target)
      ? [...labelsOf(target, "none"), ...otherNumberLabels(target)]
      : target.aliases.map((a) => ({ tokens: phraseTokens(a), strength: 2 }))
  ).filter((l) => l.tokens.length > 0 && !(l.tokens.length === 1 && NUMBER.has(l.tokens[0] ?? "")))
  const candidates: Array<{ text: string; strength: number; order: number; page: number }> = []
  for (const hit of findLabels(layout, aliasLabels)) {
    const text = valueAfter(layout, hit.row, hit.start, hit.end)
    if (text !== undefined)
      candidates.push({ text, strength: 2 + hit.label.strength, order: hit.row.order, page: hit.row.page })
  }
  if (!asksForOther(target))
    // A footer's register entry (`Registro Mercantil de Madrid, Tomo 0014, Folio 87`) numbers no document.
    for (const row of layout.rows)
      for (const label of footerRegister(layout, row) ? [] : rowLabels(row)) {
        // A bare number word on a row that names a street is a house number, however the reader cut the row
        // into cells (`NO.221, | JALAN ANGSA 4,`).
        if (label.strength === BARE && hasStreet(cellsAfter(row, label.last))) continue
        const text = valueAfter(layout, row, label.first.start, label.last.end, label.strength === BARE)
        if (text !== undefined) candidates.push({ text, strength: label.strength, order: row.order, page: row.page })
      }
  if (!asksForOther(target) && candidates.length === 0)
    for (const row of layout.rows)
      for (const text of titledNumbers(layout, row))
        candidates.push({ text, strength: TITLED, order: row.order, page: row.page })
  const best = candidates.sort((a, b) => b.strength - a.strength || a.page - b.page || a.order - b.order)[0]
  if (best !== undefined) {
    // Another number under a label as strong: the first page's first was taken, not the only one.
    const competed = candidates.some(
      (c) => c.strength === best.strength && comparable(c.text) !== comparable(best.text)
    )
    const read = layout.rows[best.order]?.words.some((w) => w.confidence < 1) === true
    return found(read ? digitsReadBack(best.text) : best.text, evidenceOf(best.strength), competed)
  }
  const pair = asksForOther(target) ? undefined : pointOfSaleIn(layout)
  return pair === undefined ? null : found(pair, "position")
}

/**
 * A number read by OCR with the letters it read for figures between two figures (`50s380`, `2O23-0042`) given back
 * as those figures: codes print none there; so is an O between a series' one letter and figures alone (`FO9-4819`).
 * A capital `S` may be a series' own (`12S-0042`), but not one alone between runs of figures in a number of figures
 * only (`50S380`). A small letter alone in a code, of those whose capital has the same shape, is that capital; so is
 * a small l beside capitals (`IVl-591738`: an I).
 */
const digitsReadBack = (text: string): string => {
  // A series' letter, then an O before figures only: the zero a series' figures open with (`FO9-4819`, `F09-4819`).
  const opened = /^[A-Z]O\d[\d\-/.]*$/.test(text) ? `${text[0]}0${text.slice(2)}` : text
  const back = opened.replace(/(?<=\d)[OolIs](?=\d)/g, (c) => FIGURE_FOR[c] ?? c)
  const figures = /^\d{2,}S\d{2,}$/.test(back) ? back.replace("S", "5") : back
  // A capital whose small letter has its shape (`x849-86638` for `X849-86638`) in a code of no other small letter;
  // a small l beside capitals in a code of no other small letter is the capital I it looks like (`IVl-591738`).
  if (/\d/.test(figures) && /^[^a-z]*[cosuvwxz][^a-z]*$/.test(figures)) return figures.toUpperCase()
  return /\d/.test(figures) && /^[^a-z]*$/.test(figures.replace(/l/g, ""))
    ? figures.replace(/(?<=[A-Z])l|l(?=[A-Z])/g, "I")
    : figures
}

/** Whether a row is a register's entry in its page's footer (its bottom quarter). */
const footerRegister = (layout: Layout, row: Row): boolean =>
  row.y0 > 0.75 * (layout.pageHeight.get(row.page) ?? Number.POSITIVE_INFINITY) && registerLine(row.text)

/** The first point-of-sale and number pair printed, when no label shows the number. */
const pointOfSaleIn = (layout: Layout): string | undefined => {
  for (const row of layout.rows) {
    const pair = pointOfSaleNumbers(row.text)[0]
    if (pair !== undefined) return pair.text
  }
  return undefined
}
