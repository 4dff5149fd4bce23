/**
 * Marks OCR invents on names: the recognizer decides each character alone, and on words no lexicon holds (names,
 * codes) it reads `SELAÑGOR`, `AEÒN`, `Tipografía`, `Bakkerïj` for what the page prints without the mark. A mark is
 * read as invented where the document's language does not write it there (`MARKED_LETTERS`): a letter the
 * language has no such mark on (English and Malay write none), Italian's accent before a word's last letter, `ñ`
 * before anything but a vowel, a diaeresis on `i` or `e` after anything but a vowel, `ü` in Spanish outside
 * `güe`/`güi`. Only text the reader recognised is repaired (a text layer prints what it prints); a mark the
 * language writes there stays, even when OCR invented it (`Atlántico` for the Portuguese `Atlântico` cannot be told).
 * Also the letters OCR reads for others where no word is written so: a capital I closing a word of small letters
 * (`deI`), and a size's figures (`1OST`, `SOOG`, `I, 5L`).
 */
import type { Layout } from "./layout.js"
import { outsideMarkedForms } from "./legalForms.js"
import { tokens } from "./text.js"
import { LANGUAGE_WORDS, type Language, MARKED_LETTERS } from "./vocabulary.js"

const WORDS: ReadonlyArray<readonly [Language, ReadonlySet<string>]> = LANGUAGE_WORDS.map(([l, w]) => [l, new Set(w)])

/** Hits a language needs, and its lead over the next, to be the document's language. */
const MIN_HITS = 3

/**
 * The language of a document: the one whose own words (`LANGUAGE_WORDS`) its rows print most, by a clear lead;
 * undefined when none leads (then only the rules every language shares apply).
 */
export const languageOf = (layout: Layout): Language | undefined => {
  const counts = new Map<Language, number>()
  for (const row of layout.rows)
    for (const t of tokens(row.folded.text))
      for (const [language, words] of WORDS)
        if (words.has(t.text)) counts.set(language, (counts.get(language) ?? 0) + 1)
  const [first, second] = [...counts].sort((a, b) => b[1] - a[1])
  if (first === undefined || first[1] < MIN_HITS || (second !== undefined && second[1] * 2 > first[1])) return undefined
  return first[0]
}

const VOWELS = /[aeiouyàâäáãèéêëìíîïòóôöõùúûü]/

/** Whether a lower-case letter with a mark (NFC) may stand at `i` of a lower-case word in a language. */
const written = (word: string, i: number, language: Language | undefined): boolean => {
  const c = word[i] ?? ""
  const before = word[i - 1] ?? ""
  const after = word[i + 1] ?? ""
  if (c === "ñ") return VOWELS.test(after) && (language === undefined || language === "es")
  if (c === "ï" || c === "ë")
    return VOWELS.test(before) && (language === undefined || MARKED_LETTERS[language].includes(c))
  if (language === undefined) return true
  if (!MARKED_LETTERS[language].includes(c)) return false
  if (language === "it") return !/\p{L}/u.test(after)
  if (language === "es" && c === "ü") return before === "g" && /[ei]/.test(after)
  return true
}

// Italian's prepositions `di` and `da` with the accent of the day and the verb (`dì`, `dà`), which no invoice or
// receipt writes: OCR puts it on them (`Spese dì spedizione`).
const ITALIAN_UNMARKED = new Set(["dì", "dà"])

/** A word with the marks its language does not write there taken off (the letter kept). */
const repairedWord = (word: string, language: Language | undefined): string => {
  const lower = word.toLowerCase()
  if (lower.length !== word.length) return word
  if (language === "it" && ITALIAN_UNMARKED.has(lower)) return word.normalize("NFD").replace(/\p{M}/gu, "")
  let out = ""
  for (let i = 0; i < word.length; i++) {
    const c = word[i] ?? ""
    const marked = c.normalize("NFD")
    out += marked.length > 1 && /\p{L}/u.test(c) && !written(lower, i, language) ? (marked[0] ?? c) : c
  }
  return out
}

/**
 * A text OCR read with the marks its language does not write where they stand taken off (pure); French's marked
 * legal forms (`S.à r.l.`) keep theirs in a document of any language.
 */
export const withoutInventedMarks = (text: string, language: Language | undefined): string =>
  /[^\p{ASCII}]/u.test(text)
    ? outsideMarkedForms(text.normalize("NFC"), /\p{L}+/gu, (w) => repairedWord(w, language))
    : text

// A capital I OCR read for the `l` that ends a word of small letters (`deI Sur`, `HoteI`, `CentraI`): no word is
// written so (an I before small letters is a name's own: `McIntosh`).
const CAPITAL_I_FOR_L = /(?<=(?<!\p{L})\p{Lu}?\p{Ll}{2,})I(?!\p{L})/gu

/** A text OCR read with its words' closing capital I that stands for an `l` read as that `l` (pure). */
export const withoutCapitalIForL = (text: string): string => text.replace(CAPITAL_I_FOR_L, "l")

// A capital O OCR read for a zero among a size's figures before its unit (`EIEREN 1OST`, `EIER 1OER`, `PASTA 5OOG`),
// or between figures (`1O5`): opened by a figure. One after figures alone may be an ordinal's (`2O PISO`, 2º).
const O_FOR_ZERO =
  /(?<![\p{L}\d])(?:\d[\dO]*O[\dO]*(?=(?:ST|STK|ER|G|GR|KG|ML|CL|L|X|PZ|UN|PK|PCS)(?![\p{L}\d]))|\d[\dO]*O[\dO]*\d(?![\p{L}\d]))/gu

// An S OCR read for a five before two zeros and a weight's or a volume's unit (`NUDELN SOOG`, 500G); never before
// one (`CERVEZA SOL`).
const S_FOR_FIVE = /(?<![\p{L}\d])S(?=[O0]{2,}(?:G|GR|ML)(?![\p{L}\d]))/gu

// A size with a decimal mark that OCR read with a space beside the mark, or an I or l for its one (`AGUA MINERAL I,
// 5L`, `0 ,75L`): the figures, the mark and the unit, glued.
const SPACED_SIZE = /(?<![\p{L}\d])(\d{1,2}|[Il])( ?[,.] | [,.])(\d{1,3}(?:L|ML|CL|KG|G|GR))(?![\p{L}\d])/gu

/**
 * A text OCR read with the O's it read for a size's zeros read as zeros, an S for its five, and a size's mark
 * without the space OCR read beside it (pure).
 */
export const withSizesMended = (text: string): string =>
  text
    .replace(S_FOR_FIVE, "5")
    .replace(O_FOR_ZERO, (m) => m.replaceAll("O", "0"))
    .replace(SPACED_SIZE, (_, whole: string, mark: string, rest: string) =>
      [/\d/.test(whole) ? whole : "1", mark.trim(), rest].join("")
    )
