/**
 * Scoring candidates and deciding a catalog match (pure). A column read as an identifier matches by its folded
 * identifier (exact) or, in `aproximada`, by one edit; a text column matches exactly on its normalized key, or by a
 * blend of the full Damerau-Levenshtein ratio (fast-fuzzy's `fuzzy()` without substring matching) and the trigram
 * similarity; several key columns average their scores.
 */
import type { CatalogRecord } from "../Catalog.js"
import {
  charBuffer,
  type Identifier,
  identifierOf,
  type NormalizedText,
  normalizeText,
  stringOf,
  withinOneEdit
} from "./catalogText.js"
import { similarityToSorted, sortedTrigrams } from "./catalogTrigrams.js"

/** Weights of the text score: edit ratio and trigram similarity (they sum to 1). */
export const WEIGHTS = { edit: 0.85, trigram: 0.15 } as const

/** The least lead the best candidate needs over the runner-up (a record with other catalog values). */
export const RUNNER_UP_MARGIN = 0.03

/** The lead needed also grows with the best candidate's distance from a perfect score: 0.75 × (1 − best). */
export const RELATIVE_MARGIN = 0.75

/**
 * The lead over the runner-up that makes the best candidate "clearly ahead": a reading 0.95 from its record and
 * 0.86 from the next is clear; one 0.80 from its record and 0.72 from the next is not (the two errors it would
 * take are about as many as separate the records).
 */
export const leadNeeded = (best: number): number => Math.max(RUNNER_UP_MARGIN, RELATIVE_MARGIN * (1 - best))

/** Identifiers shorter than this (compact) match exactly only: one edit in a short code is another code. */
export const ONE_EDIT_MIN_LENGTH = 6

/** What was read for one key column, prepared for searching. */
export interface ColumnQuery {
  readonly column: string
  readonly value: string
  readonly text: NormalizedText
  /** The reading folded for scoring. */
  readonly prepared: PreparedText
  /** Present when the value reads as an identifier (then it matches as one). */
  readonly identifier: Identifier | undefined
}

/** The key columns that were read with something searchable, in key-column order. */
export const prepare = (
  keyColumns: ReadonlyArray<string>,
  extracted: Readonly<Record<string, string>>
): ReadonlyArray<ColumnQuery> =>
  keyColumns.flatMap((column) => {
    const value = extracted[column]
    if (value === undefined) return []
    const stored = storedValue(value)
    const text = stored.text
    const identifier = identifierIn(stored)
    if (text.key === "" && identifier === undefined) return []
    // Folded for scoring only when an approximate decision scores text (never for `exacta`).
    let prepared: PreparedText | undefined
    const query: ColumnQuery = {
      column,
      value,
      text,
      identifier,
      get prepared() {
        prepared ??= prepareText(text)
        return prepared
      }
    }
    return [query]
  })

/**
 * A catalog value as scoring reads it: normalized, its identifier reading and its folded sides, each made on first
 * use. A decision scores candidates twice (bounds first, then precisely the few that can matter), so values are
 * kept for the decision under way (`storedCache`, cleared as each decision starts: short-lived, so the garbage
 * collector never promotes them — a cache across decisions cost more in collection than it saved).
 */
interface StoredValue {
  readonly value: string
  readonly text: NormalizedText
  /** The identifier reading (`null` until first read: only identifier queries need it). */
  identifier: Identifier | undefined | null
  name: Side | undefined
  full: Side | undefined
}

/** Values kept at most during one decision (more only with many key columns; the oldest go first). */
const STORED_CACHE = 1_024

const storedCache = new Map<string, StoredValue>()

const storedValue = (value: string): StoredValue => {
  const cached = storedCache.get(value)
  if (cached !== undefined) return cached
  const made: StoredValue = {
    value,
    text: normalizeText(value),
    identifier: null,
    name: undefined,
    full: undefined
  }
  storedCache.set(value, made)
  if (storedCache.size > STORED_CACHE) {
    const oldest = storedCache.keys().next()
    if (oldest.done !== true) storedCache.delete(oldest.value)
  }
  return made
}

const identifierIn = (stored: StoredValue): Identifier | undefined => {
  if (stored.identifier === null) stored.identifier = identifierOf(stored.value)
  return stored.identifier
}

const nameSide = (stored: StoredValue): Side => {
  stored.name ??= side(stored.text.key)
  return stored.name
}

const fullSide = (stored: StoredValue): Side => {
  if (stored.full === undefined)
    stored.full = stored.text.legal === "" ? nameSide(stored) : side(withLegal(stored.text))
  return stored.full
}

/**
 * The full Damerau-Levenshtein ratio of two normalized strings: 1 − distance / longer length. The same arithmetic as
 * fast-fuzzy's `fuzzy(a, b, { useSellers: false, useDamerau: true, ignoreCase: false, ignoreSymbols: false,
 * normalizeWhitespace: false, useSeparatedUnicode: true })` (a transposition costs what substituting its second
 * character would; trailing spaces dropped) on keys, which hold only `a-z`, `0-9` and spaces — without its per-call
 * option object, NFKD splitting and row arrays (the tests hold the two equal).
 */
export const editRatio = (a: string, b: string): number => {
  let la = a.length
  let lb = b.length
  while (la > 0 && a.charCodeAt(la - 1) === 32) la--
  while (lb > 0 && b.charCodeAt(lb - 1) === 32) lb--
  // A swap whose cost is zero never beats matching both characters, so fast-fuzzy's recurrence is the optimal string
  // alignment distance: symmetric, and bit-parallel with the shorter string as the pattern when it fits in a word.
  const distance =
    la <= lb
      ? la <= WORD && ascii(a, la)
        ? osaWord(a, la, b, lb)
        : osaRows(a, la, b, lb)
      : lb <= WORD && ascii(b, lb)
        ? osaWord(b, lb, a, la)
        : osaRows(a, la, b, lb)
  return 1 - distance / Math.max(la, lb)
}

/** Pattern lengths `osaWord` handles: one bit per character in a 32-bit word. */
const WORD = 32

const ascii = (text: string, length: number): boolean => {
  for (let i = 0; i < length; i++) if (text.charCodeAt(i) >= 128) return false
  return true
}

/** Bit masks of the pattern's positions per character code (scratch of `osaWord`: all zero between calls). */
const patternMasks = new Int32Array(128)

/**
 * The optimal string alignment distance of a pattern of 1–32 ASCII characters and a text, in one pass over the text
 * with the pattern's column as bit vectors (Hyyrö 2003, "A bit-vector algorithm for computing Levenshtein and
 * Damerau edit distances"). Carries and shifts only move bits upwards, so the bits above the pattern never reach
 * its last one, which tracks the distance.
 */
const osaWord = (pattern: string, m: number, text: string, n: number): number => {
  if (m === 0) return n
  const masks = patternMasks
  for (let i = 0; i < m; i++) masks[pattern.charCodeAt(i)]! |= 1 << i
  const last = 1 << (m - 1)
  let vp = -1
  let vn = 0
  let d0 = 0
  let previous = 0
  let distance = m
  for (let j = 0; j < n; j++) {
    const c = text.charCodeAt(j)
    const pm = c < 128 ? masks[c]! : 0
    const swap = ((~d0 & pm) << 1) & previous
    d0 = ((((pm & vp) >>> 0) + (vp >>> 0)) ^ vp) | pm | vn | swap
    let hp = vn | ~(d0 | vp)
    let hn = d0 & vp
    if ((hp & last) !== 0) distance++
    else if ((hn & last) !== 0) distance--
    hp = (hp << 1) | 1
    hn = hn << 1
    vp = hn | ~(d0 | hp)
    vn = hp & d0
    previous = pm
  }
  for (let i = 0; i < m; i++) masks[pattern.charCodeAt(i)] = 0
  return distance
}

/** The optimal string alignment distance by rows of the matrix, for patterns `osaWord` cannot take. */
const osaRows = (a: string, la: number, b: string, lb: number): number => {
  if (lb + 1 > editRows.prev.length) {
    const width = Math.max(lb + 1, 2 * editRows.prev.length)
    editRows.before = new Int32Array(width)
    editRows.prev = new Int32Array(width)
    editRows.row = new Int32Array(width)
  }
  // Three rolling rows of the (la + 1) × (lb + 1) matrix: `before` is row i − 1, `prev` row i, `row` row i + 1.
  let before = editRows.before
  let prev = editRows.prev
  let row = editRows.row
  for (let j = 0; j <= lb; j++) prev[j] = j
  for (let i = 0; i < la; i++) {
    const ai = a.charCodeAt(i)
    const aPrev = i > 0 ? a.charCodeAt(i - 1) : -1
    row[0] = i + 1
    for (let j = 0; j < lb; j++) {
      const bj = b.charCodeAt(j)
      const cost = ai === bj ? 0 : 1
      let min = row[j]! + 1
      let m = prev[j + 1]! + 1
      if (m < min) min = m
      m = prev[j]! + cost
      if (m < min) min = m
      if (i > 0 && j > 0 && ai === b.charCodeAt(j - 1) && aPrev === bj) {
        m = before[j - 1]! + cost
        if (m < min) min = m
      }
      row[j + 1] = min
    }
    const spare = before
    before = prev
    prev = row
    row = spare
  }
  editRows.before = before
  editRows.prev = prev
  editRows.row = row
  return prev[lb]!
}

/** Scratch rows of `osaRows` (synchronous: reused by every call, grown when a longer string comes). */
const editRows = { before: new Int32Array(64), prev: new Int32Array(64), row: new Int32Array(64) }

/** Character codes folded by `skeleton` (0→o, 1/i→l, 5→s, 8→b); every other code maps to itself. */
const SKELETON_CODES = (() => {
  const codes = new Uint16Array(128).map((_, c) => c)
  for (const [from, to] of [
    ["0", "o"],
    ["1", "l"],
    ["i", "l"],
    ["5", "s"],
    ["8", "b"]
  ] as const) {
    codes[from.charCodeAt(0)] = to.charCodeAt(0)
  }
  return codes
})()

/** Character codes folded by `lookalike` (e→c, u→v, t→f, a→o, n→h). */
const LOOKALIKE_CODES = (() => {
  const codes = new Uint16Array(128).map((_, c) => c)
  for (const [from, to] of [
    ["e", "c"],
    ["u", "v"],
    ["t", "f"],
    ["a", "o"],
    ["n", "h"]
  ] as const) {
    codes[from.charCodeAt(0)] = to.charCodeAt(0)
  }
  return codes
})()

const R = 114
const N = 110
const C = 99
const L = 108
const V = 118
const M = 109
const D = 100
const W = 119

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
    const next = i + 1 < n ? fold(i + 1) : -1
    if (c === R && next === N) {
      out[k++] = M
      i++
    } else if (c === C && next === L) {
      out[k++] = D
      i++
    } else if (c === V && next === V) {
      out[k++] = W
      i++
    } else out[k++] = c
  }
  return stringOf(out, k)
}

/** A normalized value with its legal form spelled out after the name (`acme sa de cv`). */
const withLegal = (text: NormalizedText): string => (text.legal === "" ? text.key : `${text.key} ${text.legal}`)

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

/**
 * One side of a comparison, folded once: its skeleton, and its lookalike fold when an edit ratio first needs it (the
 * bounds read the lookalike counts off the skeleton). A stored value's trigrams are counted against the reading's set
 * as they are compared; only a reading keeps its set (`ReadSide`).
 */
interface Side {
  readonly skeleton: string
  lookalike: string | undefined
}

/** A reading's side, with the skeleton's trigrams (every candidate is compared with them). */
interface ReadSide extends Side {
  readonly trigrams: Int32Array
}

const side = (text: string): Side => ({ skeleton: skeleton(text), lookalike: undefined })

const readSide = (text: string): ReadSide => {
  const folded = skeleton(text)
  return { skeleton: folded, lookalike: undefined, trigrams: sortedTrigrams(folded) }
}

const lookalikeOf = (side: Side): string => {
  side.lookalike ??= lookalike(side.skeleton)
  return side.lookalike
}

/**
 * An upper bound of both edit ratios of two same-fold strings without aligning them: every edit changes their
 * character counts by at most two, so distance ≥ (Σ |count difference|) / 2 (used to skip candidates that cannot
 * matter before calling `fuzzy()` on them).
 */
const ratioBound = (a: string, b: string, fold: Uint16Array = IDENTITY_CODES): number => {
  const counts = boundCounts
  // Codes are folded below 128, then masked to 0–127: the indexing below is within bounds (hence the `!`).
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i)
    counts[c < 128 ? fold[c]! : c & 127]! += 1
  }
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i)
    counts[c < 128 ? fold[c]! : c & 127]! -= 1
  }
  // Sums the differences and clears the scratch counts on the way (only the codes the strings touched).
  let diff = 0
  for (let i = 0; i < a.length; i++) {
    const c = a.charCodeAt(i)
    const code = c < 128 ? fold[c]! : c & 127
    diff += Math.abs(counts[code]!)
    counts[code] = 0
  }
  for (let i = 0; i < b.length; i++) {
    const c = b.charCodeAt(i)
    const code = c < 128 ? fold[c]! : c & 127
    diff += Math.abs(counts[code]!)
    counts[code] = 0
  }
  const longer = Math.max(a.length, b.length)
  return longer === 0 ? 1 : 1 - diff / 2 / longer
}

/** Scratch counts of `ratioBound` (synchronous: all zero between calls). */
const boundCounts = new Int32Array(128)

/** Codes 0–127 mapped to themselves: `ratioBound` of the strings as they are. */
const IDENTITY_CODES = new Uint16Array(128).map((_, c) => c)

/** What was read, folded once for every candidate: the name alone and with its legal form. */
export interface PreparedText {
  readonly text: NormalizedText
  readonly name: ReadSide
  readonly full: ReadSide
}

/** Folds a normalized reading for scoring. */
export const prepareText = (text: NormalizedText): PreparedText => ({
  text,
  name: readSide(text.key),
  full: readSide(withLegal(text))
})

/** Edit ratio (mean of skeletons and lookalike folds) and trigram similarity (skeletons) of two texts. */
export const textParts = (a: string, b: string): { readonly edit: number; readonly trigram: number } => {
  const read = readSide(b)
  return { edit: editOf(side(a), read, true), trigram: similarityToSorted(skeleton(a), read.trigrams) }
}

/** The edit ratio of a stored side and a reading (mean of skeletons and lookalike folds), or its bound. */
const editOf = (stored: Side, read: Side, precise: boolean): number =>
  precise
    ? (editRatio(stored.skeleton, read.skeleton) + editRatio(lookalikeOf(stored), lookalikeOf(read))) / 2
    : (ratioBound(stored.skeleton, read.skeleton) + ratioBound(stored.skeleton, read.skeleton, LOOKALIKE_CODES)) / 2

/** The blended score of a stored side against a reading; `precise: false` bounds the edit ratio. */
const blendAgainst = (stored: Side, read: ReadSide, precise: boolean): number =>
  WEIGHTS.edit * editOf(stored, read, precise) + WEIGHTS.trigram * similarityToSorted(stored.skeleton, read.trigrams)

/**
 * The text score of a record's value against a prepared reading. Equal legal forms: the names with their legal forms
 * (never lower than the names alone). A legal form the record has and the reading lacks: the better of both, since
 * the OCR may have misread the form beyond recognition and left it in the key. Otherwise the names alone, so
 * different legal forms never lower the score of equal names.
 */
const scoreStored = (stored: StoredValue, read: PreparedText, precise = true): number => {
  const legal = read.text.legal
  if (legal !== "" && legal === stored.text.legal) return blendAgainst(fullSide(stored), read.full, precise)
  const name = blendAgainst(nameSide(stored), read.name, precise)
  if (legal === "" && stored.text.legal !== "") {
    return Math.max(name, blendAgainst(fullSide(stored), read.full, precise))
  }
  return name
}

/** The text score of a normalized value against a prepared reading (see `scoreStored`). */
export const scoreText = (stored: NormalizedText, read: PreparedText, precise = true): number =>
  scoreStored({ value: "", text: stored, identifier: undefined, name: undefined, full: undefined }, read, precise)

/** The text score of two normalized values (`b` is the reading). */
export const textScore = (a: NormalizedText, b: NormalizedText): number => scoreText(a, prepareText(b))

/** How one column of a record compares with what was read. */
export interface ColumnScore {
  readonly score: number
  /** Equal after normalization (text) or after folding confusables (identifier): what `exacta` accepts. */
  readonly exact: boolean
  /** Exact, or equal once OCR confusables are folded (text): an exact-tier candidate of `aproximada`. */
  readonly perfect: boolean
  /**
   * Ranks candidates that are equally exact: 2 for the raw reading (identifier before folding, text key before
   * folding confusables), plus 1 for the same legal form (or none read).
   */
  readonly preference: number
  /** An identifier one edit away. */
  readonly oneEdit: boolean
  /** Whether this column lets the record be `found`: identifiers against identifiers only when exact or one edit away. */
  readonly acceptable: boolean
}

const none: ColumnScore = { score: 0, exact: false, perfect: false, preference: 0, oneEdit: false, acceptable: false }

/**
 * Scores one column of a record against what was read. With `precise: false` a text score is only an upper bound
 * (no `fuzzy()` call); every other member is exact.
 */
export const scoreColumn = (query: ColumnQuery, stored: string | undefined, precise = true): ColumnScore => {
  if (stored === undefined || stored.trim() === "") return none
  const value = storedValue(stored)
  if (query.identifier !== undefined) {
    const mine = identifierIn(value)
    if (mine !== undefined) {
      const q = query.identifier
      if (mine.folded === q.folded) {
        const preference = mine.compact === q.compact ? 2 : 0
        return { score: 1, exact: true, perfect: true, preference, oneEdit: false, acceptable: true }
      }
      const oneEdit = q.folded.length >= ONE_EDIT_MIN_LENGTH && withinOneEdit(mine.folded, q.folded)
      const score = editRatio(mine.folded, q.folded)
      return { score, exact: false, perfect: false, preference: 0, oneEdit, acceptable: oneEdit }
    }
  }
  const text = value.text
  if (text.key === "" || query.text.key === "") return none
  const legal = query.text.legal === "" || query.text.legal === text.legal ? 1 : 0
  if (text.key === query.text.key) {
    return { score: 1, exact: true, perfect: true, preference: 2 + legal, oneEdit: false, acceptable: true }
  }
  if (nameSide(value).skeleton === query.prepared.name.skeleton) {
    return { score: 1, exact: false, perfect: true, preference: legal, oneEdit: false, acceptable: true }
  }
  // Text, or an identifier read against a value that is not one (the column holds text): the threshold decides.
  const score = scoreStored(value, query.prepared, precise)
  return { score, exact: false, perfect: false, preference: 0, oneEdit: false, acceptable: true }
}

/** A candidate record with its scores per query column and overall. */
export interface Scored {
  readonly record: CatalogRecord
  readonly columns: ReadonlyArray<ColumnScore>
  /** The mean of the column scores. */
  readonly score: number
  readonly exact: boolean
  readonly perfect: boolean
  readonly preference: number
  readonly acceptable: boolean
}

/** Scores a record on every query column (`precise: false`: text scores are upper bounds). */
export const score = (queries: ReadonlyArray<ColumnQuery>, record: CatalogRecord, precise = true): Scored => {
  const columns = queries.map((q) => scoreColumn(q, record.values[q.column], precise))
  return {
    record,
    columns,
    score: columns.length === 0 ? 0 : columns.reduce((sum, c) => sum + c.score, 0) / columns.length,
    exact: columns.length > 0 && columns.every((c) => c.exact),
    perfect: columns.length > 0 && columns.every((c) => c.perfect),
    preference: columns.reduce((sum, c) => sum + c.preference, 0),
    acceptable: columns.every((c) => c.acceptable)
  }
}

/** The outcome of a search: the matched record, or none, and the score to report. */
export interface Decision {
  readonly record: CatalogRecord | undefined
  readonly score: number
}

/** The values a match returns for a record: its key and output columns (those it has). */
export const catalogValues = (
  record: CatalogRecord,
  keyColumns: ReadonlyArray<string>,
  outputColumns: ReadonlyArray<string>
): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const column of [...keyColumns, ...outputColumns]) {
    const value = record.values[column]
    if (value !== undefined) out[column] = value
  }
  return out
}

const byId = (a: Scored, b: Scored) => (a.record.id < b.record.id ? -1 : a.record.id > b.record.id ? 1 : 0)

/**
 * Candidates that differ for the client: records with the same key and output values are one (the lowest id
 * stands for them), so duplicates in a catalog never make a match ambiguous.
 */
const distinct = (scored: ReadonlyArray<Scored>, columns: ReadonlyArray<string>): Array<Scored> => {
  // Candidates mostly differ in their first column already: then each is its own group, and no key is built.
  const first = columns[0]
  const byFirst = new Map<string | undefined, Scored>()
  for (const s of scored) {
    const value = first === undefined ? undefined : s.record.values[first]
    if (byFirst.has(value)) return groupedOnEveryColumn(scored, columns)
    byFirst.set(value, s)
  }
  return [...byFirst.values()]
}

/** `distinct` when two candidates share their first column's value: grouped on every column. */
const groupedOnEveryColumn = (scored: ReadonlyArray<Scored>, columns: ReadonlyArray<string>): Array<Scored> => {
  // The lowest id of each group, without sorting them all (callers never depend on the order returned).
  const seen = new Map<string, Scored>()
  for (const s of scored) {
    const key = JSON.stringify(columns.map((c) => s.record.values[c] ?? null))
    const kept = seen.get(key)
    if (kept === undefined || byId(s, kept) < 0) seen.set(key, s)
  }
  return [...seen.values()]
}

/** Keeps the most preferred of equally exact candidates (raw reading equal, then the same legal form). */
const preferring = (scored: ReadonlyArray<Scored>): ReadonlyArray<Scored> => {
  const top = Math.max(...scored.map((s) => s.preference))
  return scored.filter((s) => s.preference === top)
}

/** `exacta`: the one record equal on every key column read (after normalization); ties are not found. */
export const decideExact = (
  queries: ReadonlyArray<ColumnQuery>,
  candidates: ReadonlyArray<CatalogRecord>,
  columns: ReadonlyArray<string>
): Decision => {
  storedCache.clear()
  const exact = distinct(
    candidates.map((record) => score(queries, record)).filter((s) => s.exact),
    columns
  )
  const chosen = preferring(exact)
  return chosen.length === 1 && chosen[0] !== undefined ? { record: chosen[0].record, score: 1 } : noMatch(0)
}

const noMatch = (best: number): Decision => ({ record: undefined, score: best })

/**
 * `aproximada`: candidates equal once OCR confusables are folded win outright (preferring as in `exacta`); otherwise
 * the best-scored candidate is `found` when it reaches `threshold`, leads the runner-up by `leadNeeded`, every
 * identifier column of it is exact or one edit away, and no other record is one edit away on such a column.
 * Otherwise `not_found` with the best score.
 */
export const decideApproximate = (
  queries: ReadonlyArray<ColumnQuery>,
  candidates: ReadonlyArray<CatalogRecord>,
  columns: ReadonlyArray<string>,
  threshold: number
): Decision => {
  storedCache.clear()
  const bounded = distinct(
    candidates.map((record) => score(queries, record, false)),
    columns
  )
  const perfect = bounded.filter((s) => s.perfect)
  if (perfect.length > 0) {
    const chosen = preferring(perfect)
    return chosen.length === 1 && chosen[0] !== undefined ? { record: chosen[0].record, score: 1 } : noMatch(1)
  }
  // Precise scores (with `fuzzy()`) best bound first, until a bound falls below what could still be the best or
  // block it: the rest can be neither.
  const scored: Array<Scored> = []
  let top = Number.NEGATIVE_INFINITY
  for (const candidate of [...bounded].sort((a, b) => b.score - a.score || byId(a, b))) {
    if (scored.length >= 2 && candidate.score < top - leadNeeded(top)) break
    const precise = score(queries, candidate.record)
    scored.push(precise)
    top = Math.max(top, precise.score)
  }
  const ranked = scored.sort((a, b) => b.score - a.score || byId(a, b))
  const [best, runnerUp] = ranked
  if (best === undefined) return noMatch(0)
  const ahead = runnerUp === undefined || best.score - runnerUp.score >= leadNeeded(best.score)
  // One-edit flags are exact in the bounded scores too: count them over every candidate.
  const uniqueEdits = queries.every(
    (_, i) => !(best.columns[i]?.oneEdit ?? false) || bounded.filter((s) => s.columns[i]?.oneEdit).length === 1
  )
  return best.score >= threshold && ahead && best.acceptable && uniqueEdits
    ? { record: best.record, score: best.score }
    : noMatch(best.score)
}

/**
 * The lowest trigram similarity a candidate needs to be worth retrieving: below it, even a perfect edit ratio leaves
 * its text score under `threshold − RUNNER_UP_MARGIN`, so it could be neither the match nor a runner-up that blocks
 * it (exact for one key column; a heuristic with several).
 */
export const retrievalFloor = (threshold: number): number =>
  Math.min(0.9, Math.max(0.2, (threshold - RUNNER_UP_MARGIN - WEIGHTS.edit) / WEIGHTS.trigram))
