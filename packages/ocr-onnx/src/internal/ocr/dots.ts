import { type CtcChar, isLetter, runsOf } from "./ctc.js"
import type { Lexicon } from "./lexicon.js"

/**
 * Dots read as marks or as letters. On worn scans the recognizer reads the two dots of Dutch "ij" as a mark on the
 * `i` ("Bakkerïj", "Drukkeríj") or as a second `i` ("Díijkstra", "Stukpríijs"), an `i` beside an `i` it read
 * with a mark ("Napolií", "bonifíico"), and a letter with a diaeresis twice ("Rechnungsempfáänger"). None of these
 * is written in the languages read: no `i` with a mark comes before a `j`, no `i` is doubled before one, two `i`
 * side by side carry one mark only in a word a list holds ("chiíta"), and no letter with a diaeresis follows or
 * precedes the same letter with a mark. MEASUREMENTS.md, "Marks on worn scans".
 */

const BARE_I: Readonly<Record<string, string>> = { í: "i", ì: "i", ï: "i", î: "i", Í: "I", Ì: "I", Ï: "I", Î: "I" }
const DIAERESIS = new Set(["ä", "ë", "ï", "ö", "ü", "ÿ", "Ä", "Ë", "Ï", "Ö", "Ü", "Ÿ"])

const isI = (ch: CtcChar | undefined): boolean =>
  ch !== undefined && (ch.text === "i" || ch.text === "I" || BARE_I[ch.text] !== undefined)
const isJ = (ch: CtcChar | undefined): boolean => ch?.text === "j" || ch?.text === "J"
const markedI = (ch: CtcChar): boolean => BARE_I[ch.text] !== undefined
const bareI = (ch: CtcChar): CtcChar => ({ ...ch, text: BARE_I[ch.text] ?? ch.text })

const base = (text: string): string => text.normalize("NFD").replace(/\p{M}/gu, "")

/** One letter read twice with marks on both, one of them a diaeresis ("ää", "áä"): the one with it is kept. */
const twiceWithDiaeresis = (a: CtcChar, b: CtcChar): boolean =>
  (DIAERESIS.has(a.text) || DIAERESIS.has(b.text)) &&
  base(a.text) === base(b.text) &&
  a.text !== base(a.text) &&
  b.text !== base(b.text)

/** A run of letters with its dots mended, or undefined when none was. */
const mendRun = (letters: ReadonlyArray<CtcChar>): Array<CtcChar> | undefined => {
  const out: Array<CtcChar> = []
  let changed = false
  for (let k = 0; k < letters.length; k++) {
    const ch = letters[k]!
    const next = letters[k + 1]
    if (isI(ch) && next !== undefined && isI(next) && (isJ(letters[k + 2]) || markedI(ch) !== markedI(next))) {
      // Two `i` where one is printed: the bare one is kept ("Díijkstra" → "Dijkstra", "Napolií" → "Napoli").
      out.push(bareI(markedI(ch) && !markedI(next) ? next : ch))
      k++
    } else if (markedI(ch) && isJ(next)) out.push(bareI(ch))
    else if (next !== undefined && twiceWithDiaeresis(ch, next)) {
      out.push(DIAERESIS.has(ch.text) ? ch : next)
      k++
    } else {
      out.push(ch)
      continue
    }
    changed = true
  }
  return changed ? out : undefined
}

/**
 * A line's characters with the dots mended in each run of letters that `lexicon` (the page's word lists, when it
 * has any) does not hold; other characters are kept, and every character kept keeps its position.
 */
export const mendDots = (chars: ReadonlyArray<CtcChar>, lexicon: Lexicon | undefined): Array<CtcChar> => {
  const out: Array<CtcChar> = []
  let at = 0
  for (const [start, end] of runsOf(chars, isLetter)) {
    const run = chars.slice(start, end)
    const mended = lexicon?.has(run.map((ch) => ch.text).join("")) === true ? undefined : mendRun(run)
    out.push(...chars.slice(at, start), ...(mended ?? run))
    at = end
  }
  out.push(...chars.slice(at))
  return out
}
