import { type CtcChar, isLetter, isLetterOrFigure, runsOf } from "./ctc.js"
import type { Lexicon } from "./lexicon.js"

/**
 * Which marks a page may carry, from the language it is written in. The Latin recognizer reads each character
 * alone and puts marks on English print ("wíll", "SELAÑGOR", "AEÒN": 2.9 % of FUNSD words, MEASUREMENTS.md,
 * "Languages and marks"); a reader of the page knows its language first and expects only that language's marks.
 * The language is told by function words (and the commonest words of invoices and receipts), read with their
 * marks taken off, so a mark the recognizer invented is no evidence.
 */

/** The Latin-script languages told apart. */
export type Language = "en" | "es" | "fr" | "de" | "it" | "pt" | "nl"

/**
 * Words frequent in every text of a language and rare in the others', lower case without marks, two letters or
 * more (a single letter is as often a stray mark, a unit or an initial). Left out on purpose: words that label
 * numbers on receipts in many languages ("no", "tel", "total", "iva", "numero"), which would count for Spanish on
 * a Malaysian receipt's "NO. 31G".
 */
const functionWords: Record<Language, ReadonlyArray<string>> = {
  en: [
    ..."the of and to in for is on that by with this be are from at or as an will not it was have has your you our".split(
      " "
    ),
    ..."we which all any if please thank shall been were their they there these other such may should would can its".split(
      " "
    ),
    ..."do does each who than invoice receipt amount cash change price tax address phone due paid balance payment".split(
      " "
    ),
    ..."customer signature rounding discount qty".split(" ")
  ],
  es: [
    ..."de la que el en los del las por con para una un al se su es lo como mas pero sus le ya este esta entre cuando".split(
      " "
    ),
    ..."muy sin sobre tambien hasta donde desde nos durante segun factura fecha importe cliente precio cantidad".split(
      " "
    ),
    ..."efectivo cambio gracias compra pago pagar direccion telefono venta ticket articulo".split(" ")
  ],
  fr: [
    ..."le la les de des du et en un une est pour que qui dans par sur au aux pas ne se ce il avec plus sont ou son sa".split(
      " "
    ),
    ..."ses nous vous votre facture montant prix ttc ht tva payer merci client quantite".split(" ")
  ],
  de: [
    ..."der die und in den von zu das mit sich des auf fur ist im dem nicht ein eine als auch es an werden aus er hat".split(
      " "
    ),
    ..."dass sie nach bei um am sind noch wie einem uber einen so zum zur oder summe betrag gesamt rechnung datum bar".split(
      " "
    ),
    ..."ruckgeld zahlen mwst preis menge vielen dank ihr ihre".split(" ")
  ],
  it: [
    ..."il di che la per un una in del della dei delle non sono con si da al alla le gli lo come anche piu questo nel".split(
      " "
    ),
    ..."nella ma ha fattura importo totale prezzo quantita grazie contanti resto pagare data".split(" ")
  ],
  pt: [
    ..."de que do da em um para com nao uma os se na por mais as dos como mas ao das ele seu sua ou quando muito nos".split(
      " "
    ),
    ..."ja tambem pelo pela fatura valor preco quantidade obrigado obrigada troco pagar nota fiscal data".split(" "),
    // A till receipt's words, as Spanish has its own: talão (receipt), contribuinte (the tax id's label), numerário
    // (cash), multibanco (card), morada (address), artigo, venda.
    ..."talao contribuinte telefone numerario multibanco morada artigo venda".split(" ")
  ],
  nl: [
    ..."de het een van en in is dat op te zijn met voor niet aan er om ook als bij of door maar naar dan wordt uit".split(
      " "
    ),
    ..."worden nog deze tot kan geen factuur bedrag totaal betalen datum prijs aantal btw bedankt klant wisselgeld".split(
      " "
    )
  ]
}

/** Every language told apart, in a fixed order. */
export const languages: ReadonlyArray<Language> = ["en", "es", "fr", "de", "it", "pt", "nl"]

/** The languages each function word counts for. */
const wordLanguages: ReadonlyMap<string, ReadonlyArray<Language>> = (() => {
  const map = new Map<string, Array<Language>>()
  for (const language of languages)
    for (const word of functionWords[language]) map.set(word, [...(map.get(word) ?? []), language])
  return map
})()

/**
 * The letters with marks each language writes (lower case; a capital is checked lowered). English writes none
 * (loanwords such as "café" are rare enough in documents that dropping them costs less than the inventions).
 */
const markedLetters: Record<Language, string> = {
  en: "",
  es: "áéíóúüñ",
  fr: "àâçéèêëîïôùûüÿ",
  de: "äöü",
  it: "àèéìíîòóùú",
  pt: "áâãàçéêíóôõúü",
  nl: "áéíóúèëïöü"
}

const stripMarks = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC")

/** A text's words as the language profiles count them: letter runs, lower case, marks taken off. */
export const profileWords = (text: string): Array<string> =>
  (
    stripMarks(text)
      .toLowerCase()
      .match(/\p{L}+/gu) ?? []
  ).filter((w) => w.length >= 2)

/**
 * How many of a text's words are function words of each language, a word shared by k languages counting 1/k for
 * each: English "in", "is", "of" are Dutch, German or Italian words too, and counted whole they made an English
 * form look Dutch as well (MEASUREMENTS.md, "Languages and marks").
 */
export const languageScores = (words: ReadonlyArray<string>): Map<Language, number> => {
  const scores = new Map<Language, number>(languages.map((l) => [l, 0]))
  for (const word of words) {
    const shared = wordLanguages.get(word) ?? []
    for (const l of shared) scores.set(l, scores.get(l)! + 1 / shared.length)
  }
  return scores
}

/** A page's languages: those it is written in, or none when its words do not tell. */
export interface LanguageDecision {
  readonly languages: ReadonlyArray<Language>
}

/** Fewer function words than this tell no language (one "in" or "de" in a name or code is no evidence). */
export const MIN_EVIDENCE = 2

/**
 * The languages of a text (`languageScores`): every language with at least `MIN_EVIDENCE` and at least half the
 * best one's score; none when no language has `MIN_EVIDENCE`. A text that two languages share (a bilingual page)
 * keeps both, and the marks of either may appear; a few two-letter words of OCR noise ("di", "le") make no second
 * language of an English page.
 */
export const decideLanguages = (words: ReadonlyArray<string>): LanguageDecision => {
  const scores = languageScores(words)
  const best = Math.max(...scores.values())
  const floor = Math.max(MIN_EVIDENCE, best / 2)
  return { languages: languages.filter((l) => scores.get(l)! >= floor) }
}

/** Whether a letter carries a mark (its NFD has a combining mark: á, ñ, ü, ç; not ß or ø). */
export const hasMark = (ch: string): boolean => /\p{M}/u.test(ch.normalize("NFD"))

/** Whether one of `decision`'s languages writes the letter `ch` (with its marks). */
export const writes = (decision: LanguageDecision, ch: string): boolean => {
  const lower = ch.toLowerCase()
  return decision.languages.some((l) => markedLetters[l].includes(lower))
}

/** The character with its marks taken off: "Ñ" → "N". */
const bare = (ch: CtcChar): CtcChar => ({ ...ch, text: stripMarks(ch.text) })

/**
 * A mark the page's languages do not write becomes the likeliest variant of the letter that they do (the bare
 * letter among them, `withAlternatives`), or the bare letter. On a page of no known language, a word keeps its
 * marks only where the lexicon (when there is one) lists it with them: a name or code in no word list
 * ("SELAÑGOR") is then read bare, and a listed word ("AZÚCAR") keeps its accent.
 */
export const ruleMarks = (
  chars: ReadonlyArray<CtcChar>,
  decision: LanguageDecision,
  lexicon: Lexicon | undefined
): Array<CtcChar> => {
  if (!chars.some((ch) => hasMark(ch.text))) return [...chars]
  if (decision.languages.length > 0)
    return chars.map((ch) => {
      if (!hasMark(ch.text) || writes(decision, ch.text)) return ch
      const allowed = (ch.alternatives ?? [])
        .filter((a) => !hasMark(a.text) || writes(decision, a.text))
        .sort((a, b) => b.prob - a.prob)[0]
      return allowed === undefined ? bare(ch) : { ...ch, text: allowed.text }
    })
  if (lexicon === undefined) return [...chars]
  const out = [...chars]
  for (const [start, end] of runsOf(chars, isLetter)) {
    const run = chars.slice(start, end)
    if (run.some((ch) => hasMark(ch.text)) && !lexicon.has(run.map((ch) => ch.text).join("")))
      for (let i = start; i < end; i++) out[i] = bare(chars[i]!)
  }
  return out
}

/**
 * Whether the page's languages settle the mark of a letter: none of them writes it with a mark (on a page that tells
 * no language, `ruleMarks` reads a word in no list bare: settled too).
 */
const markSettled = (ch: CtcChar, decision: LanguageDecision): boolean => {
  const letter = stripMarks(ch.text).toLowerCase()
  return !decision.languages.some((l) => [...markedLetters[l]].some((m) => stripMarks(m) === letter))
}

/**
 * The fewest timesteps a character's run spans where it is two like characters read as one: CTC merges a letter
 * repeated with no blank between (`Haag` read `Hag`, `Fällig` read `Fälig` on worn scans). A letter's run spans one
 * or two; of the 61,367 letters of the canonical benchmark's reads by OCR, 4 spanned three or four, each a doubled
 * letter read once (MEASUREMENTS.md, "Look-alikes read against their word, … doubled letters").
 */
const DOUBLED_RUN = 3

/** How sure the reader is of a character read once over a doubled run, where no list says which it is: a toss. */
const DOUBLED_DOUBT = 0.5

/**
 * A line's characters with each character read once over a run as long as two (`DOUBLED_RUN`) read twice where the
 * page's lists hold its word so and not as read (`Hag` → `Haag`, a compound on a German or Dutch page too:
 * `betaldatum` → `betaaldatum`), each half of the run one of them; elsewhere its probability and `letter` are a
 * doubt (`DOUBLED_DOUBT`): one character or two, the reader cannot tell.
 */
export const readDoubles = (
  chars: ReadonlyArray<CtcChar>,
  decision: LanguageDecision,
  lexicon: Lexicon | undefined
): Array<CtcChar> => {
  if (!chars.some((ch) => ch.last - ch.first + 1 >= DOUBLED_RUN)) return [...chars]
  const compounds = decision.languages.some((l) => COMPOUNDING.includes(l))
  const listed = (word: string) => lexicon !== undefined && listedWord(lexicon, word, compounds)
  const out: Array<CtcChar> = []
  let at = 0
  for (const [start, end] of runsOf(chars, isLetterOrFigure)) {
    const run = chars.slice(start, end)
    const word = run.map((ch) => ch.text)
    const read = run.flatMap((ch, i): Array<CtcChar> => {
      if (ch.last - ch.first + 1 < DOUBLED_RUN) return [ch]
      const twice = [...word.slice(0, i), ch.text, ...word.slice(i)].join("")
      if (isLetter(ch.text) && !listed(word.join("")) && listed(twice)) {
        const middle = Math.floor((ch.first + ch.last) / 2)
        return [
          { ...ch, last: middle },
          { ...ch, first: middle + 1 }
        ]
      }
      return [{ ...ch, prob: Math.min(ch.prob, DOUBLED_DOUBT), letter: Math.min(ch.letter ?? ch.prob, DOUBLED_DOUBT) }]
    })
    out.push(...chars.slice(at, start), ...read)
    at = end
  }
  out.push(...chars.slice(at))
  return out
}

/** The fewest letters each word of a compound has (`listedWord`): `laan`, `weg` and `gracht` end street names. */
const COMPOUND_PART = 3

/** The languages that write their compounds as one word, and whose lists hold few of them. */
const COMPOUNDING: ReadonlyArray<Language> = ["de", "nl"]

/**
 * Whether the lists hold a word as read, or, on a page in a language that writes compounds as one word (`COMPOUNDING`),
 * as a compound of two words they hold (`TRANSPORTSTRAAT`, `Drukkerijgracht`). Elsewhere two short words make a name
 * of no language a "compound" (`HARTAMAS`, Spanish `harta` and `mas`).
 */
const listedWord = (lexicon: Lexicon, word: string, compounds: boolean): boolean => {
  if (lexicon.has(word)) return true
  if (!compounds) return false
  const letters = [...word]
  for (let k = COMPOUND_PART; k <= letters.length - COMPOUND_PART; k++)
    if (lexicon.has(letters.slice(0, k).join("")) && lexicon.has(letters.slice(k).join(""))) return true
  return false
}

/**
 * A line's characters with each letter's `letter` confidence (its marks summed, `withLetters`) kept only where the page
 * settles its mark: where none of the page's languages writes that letter with a mark (an English page's `A`, or any on
 * a page that tells no language: read bare by `ruleMarks`), or in a word the page's lists hold as read (a compound of
 * two of them too: `listedWord`). Elsewhere a mark in doubt is a doubt about the word as given, and `letter` falls back
 * to the sum without the marks (`kin`: the character's case or look-alike its word settles), else the character's own
 * probability: print may or may not keep a capital's accent (`BATIMENT` read for `BÂTIMENT`, `PRACA` for `PRAÇA`), and
 * a name's is in no list (`Lefêvre` for `Lefèvre`).
 */
export const settleLetters = (
  chars: ReadonlyArray<CtcChar>,
  decision: LanguageDecision,
  lexicon: Lexicon | undefined
): Array<CtcChar> => {
  const out = [...chars]
  const compounds = decision.languages.some((l) => COMPOUNDING.includes(l))
  for (const [start, end] of runsOf(chars, isLetter)) {
    const word = chars.slice(start, end).map((ch) => ch.text)
    if (lexicon !== undefined && listedWord(lexicon, word.join(""), compounds)) continue
    for (let i = start; i < end; i++) {
      const ch = chars[i]!
      if (ch.letter !== undefined && !markSettled(ch, decision)) out[i] = { ...ch, letter: ch.kin ?? ch.prob }
    }
  }
  return out
}
