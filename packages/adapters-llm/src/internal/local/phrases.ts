/**
 * Vocabulary phrases found in a row's tokens: where each phrase of a list occurs, longest first, so that
 * `TOTAL A PAGAR` is read as that phrase and not as `TOTAL`. Offsets are mapped back to the row's text.
 */
import { type Row, wordAt } from "./layout.js"
import { nearWords, phraseTokens, sameToken, type Token, tokens } from "./text.js"
import { EXCLUDING_WORDS, INCLUDING_WORDS, TOTAL_LABELS } from "./vocabulary.js"

/** A token of a row with its offsets in the row's (unfolded) text. */
export interface RowToken {
  readonly text: string
  readonly start: number
  readonly end: number
}

// Every rule reads a row's tokens: they are cut once per row (rows are immutable; the maps hold no row alive).
const ROW_TOKENS = new WeakMap<Row, ReadonlyArray<RowToken>>()
const FOLDED_TOKENS = new WeakMap<Row, ReadonlyArray<Token>>()

/** The tokens of a row's folded text, with offsets in that folded text. */
export const foldedTokens = (row: Row): ReadonlyArray<Token> => {
  const known = FOLDED_TOKENS.get(row)
  if (known !== undefined) return known
  const list = tokens(row.folded.text)
  FOLDED_TOKENS.set(row, list)
  return list
}

/** The tokens of a row, with offsets in `row.text`. */
export const rowTokens = (row: Row): ReadonlyArray<RowToken> => {
  const known = ROW_TOKENS.get(row)
  if (known !== undefined) return known
  const list = foldedTokens(row).map((t: Token) => ({
    text: t.text,
    start: row.folded.origin[t.start] ?? 0,
    end: (row.folded.origin[t.end - 1] ?? 0) + 1
  }))
  ROW_TOKENS.set(row, list)
  return list
}

/**
 * A label's tokens with each run of one-letter tokens joined into the word it spells: `T.V.A.` → `tva`, `S U M M E`
 * (printed spaced out for emphasis) → `summe`.
 */
export const lettersJoined = (list: ReadonlyArray<RowToken>): ReadonlyArray<RowToken> => {
  if (!list.some((t, i) => t.text.length === 1 && list[i + 1]?.text.length === 1)) return list
  const out: Array<RowToken> = []
  let run: Array<RowToken> = []
  const flush = () => {
    const [first, last] = [run[0], run.at(-1)]
    if (run.length > 1 && first !== undefined && last !== undefined)
      out.push({ text: run.map((t) => t.text).join(""), start: first.start, end: last.end })
    else out.push(...run)
    run = []
  }
  for (const t of list) {
    if (t.text.length === 1 && /\p{L}/u.test(t.text)) run.push(t)
    else {
      flush()
      out.push(t)
    }
  }
  flush()
  return out
}

/**
 * A label's tokens with a long word OCR split in two joined again, where the halves make one of the vocabulary's
 * words of eight letters or more and neither half is one (`Zwi schensumme` → `zwischensumme`).
 */
export const splitsJoined = (
  list: ReadonlyArray<RowToken>,
  vocab: { readonly words: ReadonlySet<string> }
): ReadonlyArray<RowToken> => {
  const out: Array<RowToken> = []
  for (let i = 0; i < list.length; i++) {
    const [a, b] = [list[i], list[i + 1]]
    if (a === undefined) continue
    const joined = b === undefined ? "" : a.text + b.text
    if (
      b !== undefined &&
      joined.length >= 8 &&
      vocab.words.has(joined) &&
      !vocab.words.has(a.text) &&
      !vocab.words.has(b.text)
    ) {
      out.push({ text: joined, start: a.start, end: b.end })
      i++
    } else out.push(a)
  }
  return out
}

/** Whether the reader doubted the word a token of a row is in (confidence under 1; text layers read 1). */
export const doubted = (row: Row, token: RowToken): boolean => (wordAt(row, token.start)?.confidence ?? 1) < 1

/** A phrase found in a row: its tag, the index of its first token and one past its last. */
export interface PhraseHit<T> {
  readonly tag: T
  readonly from: number
  readonly to: number
  /** Whether its words are the phrase's word for word (no OCR slip tolerated). */
  readonly exact: boolean
}

/** A phrase of a vocabulary: its tag and folded tokens. */
export interface Phrase<T> {
  readonly tag: T
  readonly tokens: ReadonlyArray<string>
}

/**
 * A vocabulary as folded token lists with a tag each, longest first, indexed by first token: a row token looks up
 * its own phrases, and only a long one (where OCR slips are tolerated) compares itself with the long first tokens.
 */
export interface Vocabulary<T> {
  readonly phrases: ReadonlyArray<Phrase<T>>
  readonly byFirst: ReadonlyMap<string, ReadonlyArray<Phrase<T>>>
  /** The first tokens a row token may be read for up to OCR slips. */
  readonly nearFirsts: (token: string) => ReadonlyArray<string>
  /** Words read as themselves, never as a slip of another: the phrases' own and the known words given. */
  readonly words: ReadonlySet<string>
}

/**
 * Builds a vocabulary from tagged phrase lists; `known` are words printed beside its phrases that are no slip of
 * them (`including`, two letters from `excluding`).
 */
export const vocabulary = <T>(
  lists: ReadonlyArray<readonly [T, ReadonlyArray<string>]>,
  known: ReadonlyArray<string> = []
): Vocabulary<T> => {
  const phrases = lists
    .flatMap(([tag, list]) => list.map((p) => ({ tag, tokens: phraseTokens(p) })))
    .filter((p) => p.tokens.length > 0)
    .sort((a, b) => b.tokens.length - a.tokens.length)
  const byFirst = new Map<string, Array<Phrase<T>>>()
  for (const p of phrases) {
    const first = p.tokens[0] ?? ""
    byFirst.set(first, [...(byFirst.get(first) ?? []), p])
  }
  const words = new Set([...phrases.flatMap((p) => p.tokens), ...known.flatMap(phraseTokens)])
  return { phrases, byFirst, nearFirsts: nearWords(byFirst.keys()), words }
}

/** The phrases that may start at a token: its own, and those whose long first token it equals up to OCR slips. */
const startingWith = <T>(vocab: Vocabulary<T>, token: string): ReadonlyArray<Phrase<T>> => {
  const own = vocab.byFirst.get(token) ?? []
  const near = vocab.nearFirsts(token)
  if (near.length === 0) return own
  return [...own, ...near.flatMap((f) => vocab.byFirst.get(f) ?? [])].sort((a, b) => b.tokens.length - a.tokens.length)
}

/** Whether a row's token reads as a phrase's: the same, or a slip of it unless it is a word of its own. */
const read = <T>(vocab: Vocabulary<T>, phrase: string, token: string): boolean =>
  phrase === token || (!vocab.words.has(token) && sameToken(phrase, token))

/** The phrases of a vocabulary in a token list, longest first at each place, never overlapping. */
export const findPhrases = <T>(list: ReadonlyArray<RowToken>, vocab: Vocabulary<T>): Array<PhraseHit<T>> => {
  const hits: Array<PhraseHit<T>> = []
  let i = 0
  while (i < list.length) {
    const found = startingWith(vocab, list[i]?.text ?? "").find(
      (p) => i + p.tokens.length <= list.length && p.tokens.every((t, k) => read(vocab, t, list[i + k]?.text ?? ""))
    )
    if (found === undefined) i += 1
    else {
      const exact = found.tokens.every((t, k) => t === list[i + k]?.text)
      hits.push({ tag: found.tag, from: i, to: i + found.tokens.length, exact })
      i += found.tokens.length
    }
  }
  return hits
}

/** Whether any token of the list is one of the words (compared as folded tokens, OCR-tolerant). */
export const hasWord = (list: ReadonlyArray<RowToken>, words: ReadonlySet<string>): boolean =>
  list.some((t) => words.has(t.text))

/** The amounts' labels by rank; the words that say a total includes or excludes a tax read as themselves. */
export const TOTAL_PHRASES = vocabulary(TOTAL_LABELS, [...INCLUDING_WORDS, ...EXCLUDING_WORDS])
