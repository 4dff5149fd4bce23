/**
 * The characters OCR confuses, folded the same way on both sides of a comparison: always (`skeleton`: a misreading
 * then costs nothing) or in a second fold that scoring averages with the first (`lookalike`: half an edit).
 */
import { charBuffer, stringOf } from "./catalogText.js"

/** Codes 0–127 mapped to themselves but for `pairs` (from → to). */
const foldTable = (pairs: ReadonlyArray<readonly [from: string, to: string]>): Uint16Array => {
  const codes = new Uint16Array(128).map((_, c) => c)
  for (const [from, to] of pairs) codes[from.charCodeAt(0)] = to.charCodeAt(0)
  return codes
}

/** Character codes folded by `skeleton` (0→o, 1/i→l, 5→s, 8→b); every other code maps to itself. */
const SKELETON_CODES = foldTable([
  ["0", "o"],
  ["1", "l"],
  ["i", "l"],
  ["5", "s"],
  ["8", "b"]
])

/** Character codes folded by `lookalike` (e→c, u→v, t→f, a→o, n→h). */
export const LOOKALIKE_CODES = foldTable([
  ["e", "c"],
  ["u", "v"],
  ["t", "f"],
  ["a", "o"],
  ["n", "h"]
])

/** Pairs of characters OCR reads for one (rn→m, cl→d, vv→w), by their first code: the second code, then the fold. */
const PAIRS = (() => {
  const second = new Uint16Array(128)
  const folded = new Uint16Array(128)
  for (const [pair, to] of [
    ["rn", "m"],
    ["cl", "d"],
    ["vv", "w"]
  ] as const) {
    second[pair.charCodeAt(0)] = pair.charCodeAt(1)
    folded[pair.charCodeAt(0)] = to.charCodeAt(0)
  }
  return { second, folded }
})()

/**
 * A key with the characters OCR confuses folded the same way on both sides before scoring (0→o, 1/i→l, 5→s, 8→b,
 * then rn→m, cl→d, vv→w): a misreading then costs nothing, and two records differing only there tie (so neither
 * is found over the other).
 */
export const skeleton = (key: string): string => {
  // One pass: characters folded first, so "garcia" and its misreading "garcla" both become "garda"; then the pairs,
  // left to right (they share no letter, so this is the same as replacing each pair in turn).
  const fold = (i: number) => {
    const c = key.charCodeAt(i)
    return c < 128 ? (SKELETON_CODES[c] ?? c) : c
  }
  const out = charBuffer
  let k = 0
  const n = key.length
  for (let i = 0; i < n; i++) {
    const c = fold(i)
    const second = c < 128 ? PAIRS.second[c]! : 0
    if (second !== 0 && i + 1 < n && fold(i + 1) === second) {
      out[k++] = PAIRS.folded[c]!
      i++
    } else out[k++] = c
  }
  return stringOf(out, k)
}

/**
 * A skeleton with the letters OCR confuses often but not always also folded (e/c, u/v, t/f, a/o, n/h): scoring
 * averages the edit ratios with and without this fold, so such a misreading costs half an edit — folding them
 * outright would make "Sador" and "Sadar" the same name.
 */
export const lookalike = (folded: string): string => {
  const out = charBuffer
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i)
    out[i] = c < 128 ? (LOOKALIKE_CODES[c] ?? c) : c
  }
  return stringOf(out, folded.length)
}
