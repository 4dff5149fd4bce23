/**
 * Legal forms in a business name (S.A., S.L., GmbH, SDN BHD, B.V., S.a.s., AB…): whether a text holds one, ends
 * with one or is one alone, and a name with its form as written (a form OCR misread restored).
 */
import { folded, ocrKey, tokens } from "./text.js"
import { CLOSING_LEGAL_FORMS, LEGAL_FORMS } from "./vocabulary.js"

const LEGAL = new Set(LEGAL_FORMS)
const CLOSING_FORM = new RegExp(`(?<=\\p{L}{2},?\\s)(?:${CLOSING_LEGAL_FORMS.join("|")})\\.?$`, "u")

const words = (text: string): ReadonlyArray<string> => tokens(folded(text)).map((t) => t.text)

// Four figures and two capitals, then a town's name: a Dutch postcode.
const DUTCH_POSTCODE = /(?<![\p{L}\d])\d{4}\s?\p{Lu}{2}(?=\s+\p{Lu})/gu

/**
 * Whether a text holds a legal form: a short token and the one-letter tokens after it joined (`S.A.` → `sa`,
 * `S.R.L.` → `srl`, `S.p.A.` → `spa`, `B.V.` → `bv`), from any of them (`& C. S.a.s.` → `sas`, not only `csas`).
 */
export const legalForm = (given: string): boolean => {
  // A Dutch postcode's letters are no form (`1400 SB Eindhoven`, `1012 BV Amsterdam`).
  const text = given.replace(DUTCH_POSTCODE, " ")
  // A comma ends a run of initials: `S.M.E., S.A.` (a state-owned company's) holds `S.A.`.
  return formIn(text) || (text.includes(",") && text.split(/,\s*/).some((part) => part !== text && formIn(part)))
}

const formIn = (text: string): boolean => {
  const list = words(text)
  const joined: Array<string> = []
  for (const [i, w] of list.entries()) {
    if (w.length > 2) continue
    // Inside a run of initials only a form of three letters or more is taken (`M. S. A.` holds no `sa`).
    const inside = i > 0 && list[i - 1]?.length === 1
    // Every step of a run is kept: `S.L. B-28012345` joins to `sl`, then `slb`.
    let run = w
    for (const next of list.slice(i + 1)) {
      if (next.length !== 1) break
      run += next
      if (!inside || run.length >= 3) joined.push(run)
    }
  }
  return (
    [...list, ...joined].some((w) => LEGAL.has(w)) ||
    CLOSING_FORM.test(text.trim()) ||
    /sdn\.?\s*bhd/.test(folded(text)) ||
    misreadForm(text) !== undefined
  )
}

/** Whether a folded word is a short form's word with at most one letter OCR misread (`bhi`, `sin` for `bhd`, `sdn`). */
const offByOne = (word: string, form: string): boolean => {
  const key = ocrKey(word)
  if (key.length !== form.length) return false
  let differ = 0
  for (let i = 0; i < key.length; i++) if (key[i] !== form[i]) differ++
  return differ <= 1
}

/**
 * A name's last words that are a legal form OCR misread, and how the form is written: `SDN BHI` and `SIN BHI` are
 * `SDN BHD` (each word one letter off at most: two words of three letters this close to the pair are no other
 * words), `(M) BHO` is `(M) BHD`, `GmbI` is `GmbH`, `S.r.1` is `S.r.l.`. Undefined when the name ends otherwise.
 */
const misreadForm = (name: string): { readonly words: number; readonly form: string } | undefined => {
  const list = name.split(/\s+/).map((w) => folded(w).replace(/[^\p{L}\d]/gu, ""))
  const [second, last] = [list.at(-2) ?? "", list.at(-1) ?? ""]
  const upper = /^[^\p{Ll}]*$/u.test(name.split(/\s+/).slice(-2).join(" "))
  if (offByOne(second, "sdn") && offByOne(last, "bhd") && `${second} ${last}` !== "sdn bhd")
    return { words: 2, form: upper ? "SDN BHD" : "Sdn Bhd" }
  // `BHD` alone after the company's `CO.` or `(M)` (`AEON CO. (M) BHO`).
  if ((second === "m" || second === "co") && last !== "bhd" && offByOne(last, "bhd"))
    return { words: 1, form: upper ? "BHD" : "Bhd" }
  if (last !== "gmbh" && offByOne(last, "gmbh") && last.startsWith("gmb")) return { words: 1, form: "GmbH" }
  const dotted = dottedForm(name.split(/\s+/).at(-1) ?? "")
  return dotted === undefined ? undefined : { words: 1, form: dotted }
}

/**
 * A dotted form whose `l` OCR read as a one (`S.r.1` for `S.r.l.`, `S.R.1` for `S.R.L.`), or as a capital `I` among
 * small letters (`S.r.I.`), written as the form with its last dot; undefined for any other word.
 */
const dottedForm = (word: string): string | undefined => {
  const letters = word.split(".").filter((c) => c !== "")
  if (letters.length < 2 || !letters.every((c) => c.length === 1)) return undefined
  const upper = letters.filter((c) => /\p{L}/u.test(c)).every((c) => c === c.toUpperCase())
  if (!letters.includes("1") && (upper || !letters.includes("I"))) return undefined
  const read = letters.map((c) => (c === "1" ? (upper ? "L" : "l") : c === "I" && !upper ? "l" : c))
  return LEGAL.has(read.join("").toLowerCase()) ? `${read.join(".")}.` : undefined
}

// The words of legal forms, which no language writes with a mark (`UG`, `Lda.`, `Unipessoal`).
const UNMARKED_FORMS = new Set([...LEGAL_FORMS, "unipessoal"])

/** A word of a legal form without the marks OCR invented on it (`ÜG`, `Únipessoal`); other words as read. */
const unmarked = (word: string): string =>
  /[^\p{ASCII}]/u.test(word) && UNMARKED_FORMS.has(folded(word).replace(/[^\p{L}\d]/gu, ""))
    ? word.normalize("NFD").replace(/\p{M}/gu, "")
    : word

// The legal forms French writes with a mark, in a document of any language: `S.à r.l.`, Switzerland's `Sàrl`.
const MARKED_FORM = /(?<!\p{L})S\.?\s?à\.?\s?r\.?\s?l(?!\p{L})|(?<!\p{L})Sàrl(?!\p{L})/giu

/**
 * A text with `repair` applied to each match of `pattern` (a global pattern without groups: words, runs of letters),
 * but to none inside a legal form French writes with a mark, which keeps it (`S.à r.l.`, `Sàrl`).
 */
export const outsideMarkedForms = (text: string, pattern: RegExp, repair: (word: string) => string): string => {
  const forms = [...text.matchAll(MARKED_FORM)].map((m) => [m.index, m.index + m[0].length] as const)
  return text.replace(pattern, (word: string, at: number) =>
    forms.some(([from, to]) => at >= from && at < to) ? word : repair(word)
  )
}

/**
 * A name with its legal form as written: a form OCR misread restored (`WAHIN HARDWARE SIN BHI`), the marks it
 * invented on a form's words dropped (`Müller Schneider ÜG`), and the stray dot OCR adds after a form never
 * abbreviated with one dropped (`GmbH.`).
 */
export const withLegalForm = (name: string): string => {
  const misread = misreadForm(name)
  const restored =
    misread === undefined ? name : [...name.split(/\s+/).slice(0, -misread.words), misread.form].join(" ")
  return outsideMarkedForms(restored, /[^ ]+/gu, unmarked).replace(
    /(?<![\p{L}.])(GmbH|AG|UG|KG|BHD|Bhd|SARL|SRL|SpA)\.$/u,
    "$1"
  )
}

/** Whether a text's last words are a legal form (`…, S.L.`, `… GmbH`, `… SDN BHD`). */
export const endsWithForm = (text: string): boolean => legalForm(text.trim().split(/\s+/).slice(-2).join(" "))

/** Whether a line is a legal form alone (`S.n.c.`, `GmbH & Co. KG`, `SDN BHD`). */
export const formAlone = (text: string): boolean => legalForm(text) && !/\d/.test(text) && words(text).length <= 4
