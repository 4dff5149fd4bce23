/**
 * Text matching for the local extractor: accent- and case-folding with a map back to the original characters,
 * tokens, and an OCR-tolerant token equality (the characters OCR confuses made one, then one edit from five
 * letters, a letter more or less from six, two from eight).
 */
import { EditDistance } from "@legible/core"

/** A folded text and, for each folded character, the index of the original character it came from. */
export interface Folded {
  readonly text: string
  readonly origin: ReadonlyArray<number>
}

/** Folds one character: accents stripped, lower-cased; `º`/`°` read as `o` (as in `Nº`, `N°`). */
const foldChar = (c: string): string => {
  const code = c.charCodeAt(0)
  // ASCII (most of what documents print) folds without Unicode normalisation.
  if (code < 128) return code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : c
  if (c === "º" || c === "°") return "o"
  return c.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
}

/** Folds a text, keeping the way back to the original's offsets. */
export const fold = (text: string): Folded => {
  let out = ""
  const origin: Array<number> = []
  for (let i = 0; i < text.length; i++) {
    const f = foldChar(text[i] ?? "")
    out += f
    for (let k = 0; k < f.length; k++) origin.push(i)
  }
  return { text: out, origin }
}

/** Folds a text (accent- and case-insensitive form). */
export const folded = (text: string): string => {
  // ASCII text folds to its lower case; `º` and `°` are not ASCII.
  if (!/[^\p{ASCII}]/u.test(text)) return text.toLowerCase()
  let out = ""
  for (let i = 0; i < text.length; i++) out += foldChar(text[i] ?? "")
  return out
}

/** A token of a folded text, with its offsets in that folded text. */
export interface Token {
  readonly text: string
  readonly start: number
  readonly end: number
}

// "n.o", "nro", "num", "nº", "#" and Polish "numer" all say "number" on invoices and receipts.
const NUMBER_WORDS = new Set(["no", "nro", "num", "numero", "number", "numer", "nr", "#"])

/** The canonical form of a folded token (number words become `no`). */
export const canonical = (token: string): string => (NUMBER_WORDS.has(token) ? "no" : token)

/** The tokens (runs of letters and digits, and `#`) of a folded text. */
export const tokens = (foldedText: string): ReadonlyArray<Token> => {
  const out: Array<Token> = []
  for (const match of foldedText.matchAll(/[\p{L}\p{N}]+|#/gu)) {
    const start = match.index ?? 0
    out.push({ text: canonical(match[0]), start, end: start + match[0].length })
  }
  return out
}

/** The tokens of a label phrase (folded and canonical). */
export const phraseTokens = (phrase: string): ReadonlyArray<string> => tokens(folded(phrase)).map((t) => t.text)

// Characters OCR confuses in words: `0`/`o`, `1`/`l`/`i`, `5`/`s`, and `rn` read for `m`. A token with letters and
// these digits (`T0TAL`, `5UBTOTAL`) is a word misread, not a code.
const OCR_SAME: Readonly<Record<string, string>> = { "0": "o", "1": "l", i: "l", "5": "s" }

/** The letters OCR reads for figures, and the figure each stands for (`5O.OO`, `50s380`, `14,1O`). */
export const FIGURE_FOR: Readonly<Record<string, string>> = { O: "0", o: "0", l: "1", I: "1", S: "5", s: "5" }

/** A word's form with the characters OCR confuses made one (`t0tal` and `total`, `surnme` and `summe` agree). */
export const ocrKey = (token: string): string => {
  let out = ""
  for (let i = 0; i < token.length; i++) {
    const c = token[i] as string
    if (c === "r" && token[i + 1] === "n") {
      out += "m"
      i++
    } else out += OCR_SAME[c] ?? c
  }
  return out
}

/** Whether a token is a word OCR may have misread: letters, or letters with the digits OCR confuses with them. */
export const wordLike = (token: string): boolean =>
  !/\d/.test(token) || (/\p{L}/u.test(token) && !/[2-46-9]/.test(token))

const sameChar = (x: string | undefined, y: string | undefined): boolean =>
  x !== undefined && y !== undefined && (OCR_SAME[x] ?? x) === (OCR_SAME[y] ?? y)

/**
 * A quick refusal: one edit leaves the first two or the last two characters of a word of five and more in place,
 * so two words of under eight letters (one edit allowed) that differ at both ends are not one slip apart. Words with
 * `rn` or `m` (one read for the other shifts the letters) are left to the full comparison.
 */
const farApart = (a: string, b: string): boolean => {
  if (Math.min(a.length, b.length) >= 8 || /rn|m/.test(a) || /rn|m/.test(b)) return false
  const head = sameChar(a[0], b[0]) && sameChar(a[1], b[1])
  const tail = sameChar(a.at(-1), b.at(-1)) && sameChar(a.at(-2), b.at(-2))
  return !head && !tail
}

/**
 * Whether two folded tokens are the same word, allowing OCR slips in longer words: from five letters, one edit
 * after the confusable characters are made one (`T0TAL`, `5ubtotal`, `Surnme`); a letter more or less from six, two
 * edits from eight.
 */
export const sameToken = (a: string, b: string): boolean => {
  if (a === b) return true
  const shorter = Math.min(a.length, b.length)
  if (shorter < 5 || Math.abs(a.length - b.length) > 3 || farApart(a, b) || !wordLike(a) || !wordLike(b)) return false
  const ka = ocrKey(a)
  const kb = ocrKey(b)
  if (Math.min(ka.length, kb.length) < 5) return false
  if (ka === kb) return true
  const keyShorter = Math.min(ka.length, kb.length)
  // A short word one letter longer is another word (`issue`, `issuer`; `total`, `totale`), not a slip; so is a long
  // one that goes on past the other's end other than by a plural's ending (`asegurado`, `aseguradora`).
  if (keyShorter < 6 && ka.length !== kb.length) return false
  const [short, long] = ka.length < kb.length ? [ka, kb] : [kb, ka]
  if (long.startsWith(short) && !PLURAL_ENDINGS.has(long.slice(short.length))) return false
  return EditDistance.levenshtein(ka, kb) <= (keyShorter >= 8 ? 2 : 1)
}

// What a plural adds to a word (`importes`, `clientes`): the same label word.
const PLURAL_ENDINGS = new Set(["s", "es"])

/** The forms of a key with up to `depth` characters left out (and the key itself): keys within that many edits share one. */
const deletions = (key: string, depth: number): ReadonlyArray<string> => {
  const out = [key]
  for (let i = 0; i < key.length; i++)
    if (i === 0 || key[i] !== key[i - 1]) out.push(key.slice(0, i) + key.slice(i + 1))
  if (depth < 2) return out
  const second = new Set(out)
  for (const k of out.slice(1)) for (let i = 0; i < k.length; i++) second.add(k.slice(0, i) + k.slice(i + 1))
  return [...second]
}

/** The edits `sameToken` tolerates for a word of this length: one from five letters, two from eight. */
const depthOf = (length: number): number => (length >= 8 ? 2 : 1)

/**
 * The long words of a list (five letters and more) a token may be read for up to OCR slips (`sameToken`). The words
 * are indexed by their keys with up to their budget of characters left out, and a token looks up its key with one
 * left out, instead of comparing itself with every word: a long word misread twice in the same token
 * (two substitutions) is not found this way (the same figures on every set; a quarter of the time).
 */
export const nearWords = (words: Iterable<string>): ((token: string) => ReadonlyArray<string>) => {
  const index = new Map<string, Array<string>>()
  // One edit leaves a key's first two or last two characters in place: a short token sharing neither with any word
  // is near none (most tokens of a page), without generating its forms.
  const ends = new Set<string>()
  for (const w of new Set(words))
    if (w.length >= 5 && wordLike(w)) {
      const key = ocrKey(w)
      ends.add(`^${key.slice(0, 2)}`).add(`${key.slice(-2)}$`)
      for (const d of deletions(key, depthOf(w.length))) index.set(d, [...(index.get(d) ?? []), w])
    }
  return (token) => {
    if (token.length < 5 || !wordLike(token)) return []
    const key = ocrKey(token)
    if (key.length < 8 && !ends.has(`^${key.slice(0, 2)}`) && !ends.has(`${key.slice(-2)}$`)) return []
    const out = new Set<string>()
    for (const d of deletions(key, 1))
      for (const w of index.get(d) ?? []) if (w !== token && sameToken(w, token)) out.add(w)
    return [...out]
  }
}

/** Whether a token is one of a list's words: exactly, or a long one (five letters and more) up to OCR slips. */
export const wordMatcher = (words: ReadonlyArray<string>): ((token: string) => boolean) => {
  const exact = new Set(words)
  const near = nearWords(exact)
  return (token) => exact.has(token) || near(token).length > 0
}
