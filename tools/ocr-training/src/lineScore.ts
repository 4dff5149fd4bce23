/**
 * Scores a head on cached line features the way the reader decodes them: softmax, greedy CTC (`ctcDecode`), the
 * model's own spaces at `spaceProb` (`modelSpaces`), a line under `minLineScore` mean character probability dropped,
 * words split on spaces and joined by one.
 */

import { editDistance, multisetHits, normalize, special, total } from "@legible/ocr-onnx/bench/metrics.ts"
import { ctcDecode, defaultOcrConfig, modelSpaces } from "@legible/ocr-onnx/training"
import { logSoftmax } from "./ctc.ts"

/** Row-wise softmax of logits [T, C]. */
export const softmax = (z: Float32Array, t: number, c: number): Float32Array =>
  Float32Array.from(logSoftmax(z, t, c), Math.exp)

/** Decoding thresholds (defaults: the Latin recognizer's in the reader). */
export interface DecodeOptions {
  readonly spaceProb: number
  readonly minLineScore: number
}

/** The reader's thresholds for the Latin head (`recognizerConfig` in engine.ts, `defaultOcrConfig`). */
export const latinDecode: DecodeOptions = { spaceProb: 0.1, minLineScore: defaultOcrConfig.minLineScore }

/** The text the reader would give for a line's logits ("" for a line it drops). */
export const readLine = (
  z: Float32Array,
  t: number,
  labels: ReadonlyArray<string>,
  options: DecodeOptions = latinDecode
): string => {
  const c = labels.length
  const probs = softmax(z, t, c)
  const decoded = ctcDecode(probs, t, c, labels)
  const chars = options.spaceProb > 0 ? modelSpaces(decoded, probs, c, options.spaceProb) : decoded
  if (chars.length === 0) return ""
  const score = chars.reduce((acc, ch) => acc + ch.prob, 0) / chars.length
  if (score < options.minLineScore) return ""
  return normalize(chars.map((ch) => ch.text).join(""))
}

/** Scores of a head on a set of lines. */
export interface LineScores {
  readonly lines: number
  /** Character error rate (edit distance over truth characters). */
  readonly cer: number
  /** Non-ASCII characters of the truth found in the line read (multiset), and how many there were. */
  readonly special: number
  readonly specialTotal: number
  /** Non-ASCII characters read beyond those of the truth (on English lines: all of them are wrong). */
  readonly strayNonAscii: number
  readonly exact: number
}

/** Scores texts read against their truths; `upper` compares both in upper case (SROIE's labels are). */
export const scoreTexts = (
  pairs: ReadonlyArray<{ readonly truth: string; readonly read: string }>,
  upper = false
): LineScores => {
  const scored = pairs.map((pair) => {
    const truth = upper ? normalize(pair.truth).toUpperCase() : normalize(pair.truth)
    const read = upper ? pair.read.toUpperCase() : pair.read
    const truthSpecial = special(truth)
    const readSpecial = special(read)
    const hits = multisetHits(truthSpecial, readSpecial)
    return {
      errors: editDistance(read, truth),
      length: Array.from(truth).length,
      exact: read === truth,
      specialTotal: truthSpecial.length,
      hits,
      stray: readSpecial.length - hits
    }
  })
  const specialTotal = total(scored, (s) => s.specialTotal)
  return {
    lines: pairs.length,
    cer:
      total(scored, (s) => s.errors) /
      Math.max(
        1,
        total(scored, (s) => s.length)
      ),
    special: total(scored, (s) => s.hits) / Math.max(1, specialTotal),
    specialTotal,
    strayNonAscii: total(scored, (s) => s.stray),
    exact: scored.filter((s) => s.exact).length / Math.max(1, pairs.length)
  }
}

/** One line of a score table. */
export const formatScores = (name: string, r: LineScores): string =>
  `${name}: CER ${(r.cer * 100).toFixed(2)} %, special ${(r.special * 100).toFixed(1)} % of ${r.specialTotal}, ` +
  `stray non-ASCII ${r.strayNonAscii}, lines exact ${(r.exact * 100).toFixed(1)} % (${r.lines} lines)`
