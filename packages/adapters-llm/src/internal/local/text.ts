/**
 * Text matching for the local extractor: accent- and case-folding with a map back to the original characters,
 * tokens, and an OCR-tolerant token equality (one edit from five letters, a letter more or less from six, two
 * from eight).
 */
import { EditDistance } from "@legible/core"

/** A folded text and, for each folded character, the index of the original character it came from. */
export interface Folded {
  readonly text: string
  readonly origin: ReadonlyArray<number>
}

/** Folds one character: accents stripped, lower-cased; `º`/`°` read as `o` (as in `Nº`, `N°`). */
const foldChar = (c: string): string => {
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
export const folded = (text: string): string => fold(text).text

/** A token of a folded text, with its offsets in that folded text. */
export interface Token {
  readonly text: string
  readonly start: number
  readonly end: number
}

// "n.o", "nro", "num", "nº" and "#" all say "number" on invoices and receipts.
const NUMBER_WORDS = new Set(["no", "nro", "num", "numero", "number", "nr", "#"])

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

/** Whether two folded tokens are the same word, allowing OCR slips in longer words. */
export const sameToken = (a: string, b: string): boolean => {
  if (a === b) return true
  const shorter = Math.min(a.length, b.length)
  if (shorter < 5 || /\d/.test(a) || /\d/.test(b)) return false
  // A short word one letter longer is another word (`issue`, `issuer`; `total`, `totale`), not a slip.
  if (shorter < 6 && a.length !== b.length) return false
  return EditDistance.levenshtein(a, b) <= (shorter >= 8 ? 2 : 1)
}
