/**
 * Vocabulary phrases found in a row's tokens: where each phrase of a list occurs, longest first, so that
 * `TOTAL A PAGAR` is read as that phrase and not as `TOTAL`. Offsets are mapped back to the row's text.
 */
import type { Row } from "./layout.js"
import { phraseTokens, sameToken, type Token, tokens } from "./text.js"

/** A token of a row with its offsets in the row's (unfolded) text. */
export interface RowToken {
  readonly text: string
  readonly start: number
  readonly end: number
}

/** The tokens of a row, with offsets in `row.text`. */
export const rowTokens = (row: Row): ReadonlyArray<RowToken> =>
  tokens(row.folded.text).map((t: Token) => ({
    text: t.text,
    start: row.folded.origin[t.start] ?? 0,
    end: (row.folded.origin[t.end - 1] ?? 0) + 1
  }))

/** A phrase found in a row: its tag, the index of its first token and one past its last. */
export interface PhraseHit<T> {
  readonly tag: T
  readonly from: number
  readonly to: number
}

/** A vocabulary as folded token lists with a tag each, longest first. */
export type Vocabulary<T> = ReadonlyArray<{ readonly tag: T; readonly tokens: ReadonlyArray<string> }>

/** Builds a vocabulary from tagged phrase lists. */
export const vocabulary = <T>(lists: ReadonlyArray<readonly [T, ReadonlyArray<string>]>): Vocabulary<T> =>
  lists
    .flatMap(([tag, phrases]) => phrases.map((p) => ({ tag, tokens: phraseTokens(p) })))
    .filter((p) => p.tokens.length > 0)
    .sort((a, b) => b.tokens.length - a.tokens.length)

/** The phrases of a vocabulary in a token list, longest first at each place, never overlapping. */
export const findPhrases = <T>(list: ReadonlyArray<RowToken>, vocab: Vocabulary<T>): Array<PhraseHit<T>> => {
  const hits: Array<PhraseHit<T>> = []
  let i = 0
  while (i < list.length) {
    const found = vocab.find(
      (p) => i + p.tokens.length <= list.length && p.tokens.every((t, k) => sameToken(t, list[i + k]?.text ?? ""))
    )
    if (found === undefined) i += 1
    else {
      hits.push({ tag: found.tag, from: i, to: i + found.tokens.length })
      i += found.tokens.length
    }
  }
  return hits
}

/** Whether any token of the list is one of the words (compared as folded tokens, OCR-tolerant). */
export const hasWord = (list: ReadonlyArray<RowToken>, words: ReadonlySet<string>): boolean =>
  list.some((t) => words.has(t.text))
