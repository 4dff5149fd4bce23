/**
 * Grounding: the OCR words that support a literal (spec 2.7 `word_ids`). Pure and per document: `index` folds every
 * word once, then each `ground` call searches the page text for the literal.
 *
 * How a literal is found: both sides are reduced to keys (NFKD, no accents, lower case, O→0 and l/i→1 folded,
 * letters and digits only), so the search ignores case, accents, punctuation and how the text was split into words
 * (`1.234,56` against `1.234,` `56`; `2024-0042` against `2024` `-` `0042`). The words' keys are concatenated in
 * reading order (across lines, not across pages) and searched with an approximate substring search (Sellers,
 * Levenshtein, Ukkonen's cut-off) for every place within the edit budget of the threshold; each place is widened to
 * whole words and scored by the optimal-string-alignment similarity of the literal to those words. Runs at or above
 * the threshold are occurrences; among those that score near the best, the one nearest the field's label (same line
 * to the right, then below) or the given anchor wins, else the first in reading order.
 */
import type { ReadDocument } from "../Document.js"
import { similarity } from "../EditDistance.js"
import { type SearchText, search } from "./groundingSearch.js"

/** Thresholds of grounding. */
export interface GroundingOptions {
  /** Least similarity (0–1) between the literal and a run of words. */
  readonly threshold: number
  /** Occurrences scoring within this of the best one count as the same value printed again. */
  readonly tie: number
  /** Literals longer than this (in key characters) are not searched. */
  readonly maxLength: number
}

/** The defaults: 0.8 lets a 10-character value carry two OCR errors and keeps 1–4 character values exact. */
export const defaultOptions: GroundingOptions = { threshold: 0.8, tie: 0.1, maxLength: 1_000 }

/** Where to look first: the field's labels, or the words of an anchor value (another value of the same row). */
export interface Hint {
  /** The field's name and aliases, found on the page by the same search. */
  readonly labels?: ReadonlyArray<string> | undefined
  /** Word ids of a value the literal sits beside (same row first), e.g. another column of a table line. */
  readonly near?: ReadonlyArray<string> | undefined
  /** Word ids that may not be used (already given to another item of the same list field). */
  readonly exclude?: ReadonlySet<string> | undefined
}

/** A found run of words. */
export interface Match {
  readonly wordIds: ReadonlyArray<string>
  readonly score: number
}

interface Box {
  readonly page: number
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

interface IndexedWord extends Box {
  readonly id: string
  /** The word normalised (for symbol words, which have an empty key). */
  readonly text: string
  readonly key: string
  readonly line: number
}

/** A document's words, folded once for any number of `ground` calls. */
export interface WordIndex extends SearchText {
  readonly words: ReadonlyArray<IndexedWord>
  /** Every word's key in reading order, a page break as `PAGE_BREAK`. */
  readonly text: Uint16Array
  /** `text` as a string, for the exact searches of the filter. */
  readonly string: string
  /** The word of each character of `text` (`-1` for page breaks). */
  readonly charWord: Int32Array
  readonly wordById: ReadonlyMap<string, number>
  /** Label occurrences already searched for, by key (per index: never shared between documents). */
  readonly labels: Map<string, ReadonlyArray<Box>>
}

// A code no key contains, so no match runs across pages without paying for it (and rescoring refuses it).
const PAGE_BREAK = 0xffff

const QUOTES = /[\u2018\u2019\u201A\u201B\u2032`\u00B4]/g
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB]/g
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g

/** Text compared without accents or case, with one kind of quote and dash and single spaces. */
export const normalize = (s: string): string =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(DASHES, "-")
    .replace(/\s+/gu, " ")
    .trim()

const fold = (normalized: string): string =>
  normalized
    .replace(/[^\p{L}\p{N}]/gu, "")
    .replace(/o/g, "0")
    .replace(/[li]/g, "1")

/** The search key of a text: normalised letters and digits only, with OCR look-alikes folded (o→0, l→1, i→1). */
export const key = (s: string): string => fold(normalize(s))

/** Folds every word of the document once, in reading order (pages, lines, words). */
export const index = (document: Pick<ReadDocument, "pages">): WordIndex => {
  const words: Array<IndexedWord> = []
  const codes: Array<number> = []
  const owners: Array<number> = []
  let line = 0
  document.pages.forEach((page, p) => {
    if (p > 0) {
      codes.push(PAGE_BREAK)
      owners.push(-1)
    }
    for (const l of page.lines) {
      for (const w of l.words) {
        const text = normalize(w.word)
        const k = fold(text)
        const at = words.length
        words.push({ id: w.id, page: page.page, x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1, text, key: k, line })
        for (let c = 0; c < k.length; c++) {
          codes.push(k.charCodeAt(c))
          owners.push(at)
        }
      }
      line++
    }
  })
  const text = Uint16Array.from(codes)
  let string = ""
  // In slices: spreading a whole document's codes into one call could exceed the engine's argument limit.
  for (let at = 0; at < text.length; at += 8_192) string += String.fromCharCode(...text.subarray(at, at + 8_192))
  return {
    words,
    text,
    string,
    charWord: Int32Array.from(owners),
    wordById: new Map(words.map((w, i) => [w.id, i])),
    labels: new Map()
  }
}

interface Run {
  readonly first: number
  readonly last: number
  readonly score: number
}

const runKey = (words: ReadonlyArray<IndexedWord>, first: number, last: number): string => {
  let s = ""
  for (let w = first; w <= last; w++) s += words[w]!.key
  return s
}

/** Every run of whole words that matches `pattern` at or above `threshold`, non-overlapping, in reading order. */
const findRuns = (
  idx: WordIndex,
  pattern: string,
  options: GroundingOptions,
  containment: boolean
): ReadonlyArray<Run> => {
  const m = pattern.length
  if (m === 0 || m > options.maxLength) return []
  // Amounts, dates and ids differ from their neighbours by one digit: a short numeral must match exactly, a long
  // one (a tax id, an account number) may carry one OCR error.
  const numeral = /^\d+$/.test(pattern)
  const k = numeral ? (m >= 8 ? 1 : 0) : Math.floor(m * (1 - options.threshold) + 1e-9)
  // Whole words around a numeral may not add digits either (`2024` is not `20245`).
  const least = numeral ? Math.max(options.threshold, 1 - k / m) : options.threshold
  // The first and last hit ending in each word: the runs ending at that word start somewhere between.
  const firstEnd = new Map<number, number>()
  const lastEnd = new Map<number, number>()
  search(idx, pattern, k, (end) => {
    const w = idx.charWord[end]!
    // A match may end on a page break (counted as an insertion): that is no word's run.
    if (w < 0) return
    if (!firstEnd.has(w)) firstEnd.set(w, end)
    lastEnd.set(w, end)
  })
  const runs: Array<Run> = []
  for (const [last, from] of firstEnd) {
    const to = lastEnd.get(last) ?? from
    const lastWord = idx.words[last]!
    let best: Run | undefined
    const starts = new Set<number>()
    for (let s = Math.max(0, from - m - k + 1); s <= Math.min(to, to - m + k + 1); s++) {
      const w = idx.charWord[s]!
      if (w >= 0 && w <= last && idx.words[w]!.page === lastWord.page) starts.add(w)
    }
    for (const first of starts) {
      const candidate = runKey(idx.words, first, last)
      let score = similarity(pattern, candidate)
      // A value printed glued to its label or unit (`Total:1.234,56`) still grounds to that word, at the least
      // accepted score, when it covers at least half of it.
      if (
        containment &&
        score < least &&
        first === last &&
        m >= 4 &&
        m * 2 >= candidate.length &&
        candidate.includes(pattern)
      ) {
        score = least
      }
      if (score >= least && (best === undefined || score > best.score)) best = { first, last, score }
    }
    if (best !== undefined) runs.push(best)
  }
  // Overlapping runs are one place: keep the better, then read them in order.
  runs.sort((a, b) => b.score - a.score || a.first - b.first || a.last - b.last)
  const taken: Array<Run> = []
  const used = new Uint8Array(idx.words.length)
  for (const run of runs) {
    if (used.subarray(run.first, run.last + 1).includes(1)) continue
    used.fill(1, run.first, run.last + 1)
    taken.push(run)
  }
  return taken.sort((a, b) => a.first - b.first)
}

const boxOf = (words: ReadonlyArray<IndexedWord>, first: number, last: number): Box => {
  let x0 = Number.POSITIVE_INFINITY
  let y0 = Number.POSITIVE_INFINITY
  let x1 = Number.NEGATIVE_INFINITY
  let y1 = Number.NEGATIVE_INFINITY
  const line = words[first]!.line
  // The first line of a run is where its value starts: a label is beside or above that.
  for (let w = first; w <= last && words[w]!.line === line; w++) {
    const word = words[w]!
    x0 = Math.min(x0, word.x0)
    y0 = Math.min(y0, word.y0)
    x1 = Math.max(x1, word.x1)
    y1 = Math.max(y1, word.y1)
  }
  return { page: words[first]!.page, x0, y0, x1, y1 }
}

const height = (b: Box): number => Math.max(b.y1 - b.y0, 1)

const sameRow = (a: Box, b: Box): boolean =>
  Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) >= 0.5 * Math.min(height(a), height(b))

/**
 * How far a value is from its label, in label heights. Same row to the right costs little whatever the gap (forms
 * and receipts put the label left and the amount far right); below means under the label's own span; anything
 * else costs its distance plus a penalty that keeps it behind both.
 */
const labelCost = (label: Box, value: Box): number => {
  if (label.page !== value.page) return Number.POSITIVE_INFINITY
  const h = height(label)
  if (sameRow(label, value) && value.x0 >= label.x1 - h) return (0.05 * Math.max(0, value.x0 - label.x1)) / h
  const under = value.x0 <= label.x1 + h && value.x1 >= label.x0 - h
  if (under && value.y0 >= label.y1 - 0.5 * h) {
    return 1 + Math.max(0, value.y0 - label.y1) / h + (0.1 * Math.abs(value.x0 - label.x0)) / h
  }
  const dx = (value.x0 + value.x1 - label.x0 - label.x1) / 2
  const dy = (value.y0 + value.y1 - label.y0 - label.y1) / 2
  return 10 + Math.hypot(dx, dy) / h
}

/** How far a value is from an anchor value: the same row wins, then vertical distance. */
const anchorCost = (anchor: Box, value: Box): number => {
  if (anchor.page !== value.page) return Number.POSITIVE_INFINITY
  const h = height(anchor)
  const dx = Math.abs((value.x0 + value.x1 - anchor.x0 - anchor.x1) / 2) / h
  if (sameRow(anchor, value)) return dx / 1_000
  return 1 + Math.abs((value.y0 + value.y1 - anchor.y0 - anchor.y1) / 2) / h + dx / 1_000
}

const labelBoxes = (idx: WordIndex, labels: ReadonlyArray<string>, options: GroundingOptions): ReadonlyArray<Box> => {
  const boxes: Array<Box> = []
  for (const label of labels) {
    const k = key(label.replace(/_+/g, " "))
    if (k.length === 0) continue
    const cacheKey = `${options.threshold}:${k}`
    let found = idx.labels.get(cacheKey)
    if (found === undefined) {
      // No containment for labels: `total` must not be found inside `subtotal`.
      found = findRuns(idx, k, options, false).map((r) => boxOf(idx.words, r.first, r.last))
      idx.labels.set(cacheKey, found)
    }
    boxes.push(...found)
  }
  return boxes
}

/** Widens a run over neighbouring symbol-only words (`€`, `%`, `$`) of its lines that the literal contains. */
const widen = (idx: WordIndex, run: Run, literal: string): Run => {
  const text = normalize(literal)
  const symbol = (w: number, line: number) => {
    const word = idx.words[w]
    return word !== undefined && word.key === "" && word.line === line && word.text !== "" && text.includes(word.text)
  }
  let first = run.first
  let last = run.last
  while (symbol(first - 1, idx.words[first]!.line)) first--
  while (symbol(last + 1, idx.words[last]!.line)) last++
  return { first, last, score: run.score }
}

/** How far an occurrence is from where the hint says to look; `undefined` when the hint locates nothing. */
const costFunction = (idx: WordIndex, hint: Hint, options: GroundingOptions): ((run: Run) => number) | undefined => {
  const anchorWords = (hint.near ?? []).flatMap((id) => {
    const w = idx.wordById.get(id)
    return w === undefined ? [] : [w]
  })
  if (anchorWords.length > 0) {
    const anchor = boxOf(idx.words, Math.min(...anchorWords), Math.max(...anchorWords))
    return (run) => anchorCost(anchor, boxOf(idx.words, run.first, run.last))
  }
  const labels = labelBoxes(idx, hint.labels ?? [], options)
  if (labels.length === 0) return undefined
  return (run) => {
    const value = boxOf(idx.words, run.first, run.last)
    let lowest = Number.POSITIVE_INFINITY
    for (const label of labels) lowest = Math.min(lowest, labelCost(label, value))
    return lowest
  }
}

/** The best supported run of words for `literal`, or `undefined` when none reaches the threshold. */
export const match = (
  idx: WordIndex,
  literal: string,
  hint: Hint = {},
  options: GroundingOptions = defaultOptions
): Match | undefined => {
  const excluded = (run: Run) => {
    if (hint.exclude === undefined || hint.exclude.size === 0) return false
    for (let w = run.first; w <= run.last; w++) if (hint.exclude.has(idx.words[w]!.id)) return true
    return false
  }
  const runs = findRuns(idx, key(literal), options, true).filter((r) => !excluded(r))
  if (runs.length === 0) return undefined
  const best = runs.reduce((high, r) => Math.max(high, r.score), 0)
  const occurrences = runs.filter((r) => r.score >= best - options.tie)
  let chosen = occurrences[0]!
  if (occurrences.length > 1) {
    const cost = costFunction(idx, hint, options)
    if (cost !== undefined) {
      let lowest = Number.POSITIVE_INFINITY
      for (const run of occurrences) {
        const c = cost(run)
        if (c < lowest) {
          lowest = c
          chosen = run
        }
      }
    }
  }
  const widened = widen(idx, chosen, literal)
  const wordIds: Array<string> = []
  for (let w = widened.first; w <= widened.last; w++) wordIds.push(idx.words[w]!.id)
  return { wordIds, score: chosen.score }
}

/**
 * Every place the document prints `literal` or something within the threshold of it, as the words read there
 * (their keys, in reading order): where a value repeats, whether it reads the same each time.
 */
export const readings = (
  idx: WordIndex,
  literal: string,
  options: GroundingOptions = defaultOptions
): ReadonlyArray<{ readonly key: string; readonly text: string }> =>
  findRuns(idx, key(literal), options, true).map((run) => {
    const widened = widen(idx, run, literal)
    const words = idx.words.slice(widened.first, widened.last + 1)
    return { key: runKey(idx.words, run.first, run.last), text: words.map((w) => w.text).join(" ") }
  })

/** The ids of the OCR words that support `literal`, in reading order; empty when it is not found. */
export const ground = (
  idx: WordIndex,
  literal: string,
  hint: Hint = {},
  options: GroundingOptions = defaultOptions
): ReadonlyArray<string> => match(idx, literal, hint, options)?.wordIds ?? []
