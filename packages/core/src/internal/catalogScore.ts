/**
 * Scoring what was read against catalog values (pure). A column read as an identifier scores by its folded
 * identifier (exact, or by the edit ratio); a text column matches exactly on its normalized key, or scores a blend of
 * the edit ratio (fast-fuzzy's `fuzzy()` without substring matching) and the trigram similarity of the keys with OCR
 * confusables folded; several key columns average their scores.
 */
import type { CatalogRecord } from "../Catalog.js"
import { osa, withinOneEdit } from "../EditDistance.js"
import { LOOKALIKE_CODES, lookalike, skeleton } from "./catalogFolds.js"
import { type Identifier, identifierOf, type NormalizedText, normalizeText } from "./catalogText.js"
import { similarityToSorted, sortedTrigrams } from "./catalogTrigrams.js"

/** Weights of the text score: edit ratio and trigram similarity (they sum to 1). */
export const WEIGHTS = { edit: 0.85, trigram: 0.15 } as const

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
 * The edit ratio of two normalized strings: 1 − `osa` / longer length, as fast-fuzzy's `fuzzy(a, b, { useSellers:
 * false, useDamerau: true, ignoreCase: false, ignoreSymbols: false, normalizeWhitespace: false, useSeparatedUnicode:
 * true })` computes it (trailing spaces dropped; NaN for two empty strings) on keys, which hold only `a-z`, `0-9` and
 * spaces. Why not `fuzzy()` itself: `MEASUREMENTS.md` (the tests hold the two equal).
 */
export const editRatio = (a: string, b: string): number => {
  const ta = withoutTrailingSpaces(a)
  const tb = withoutTrailingSpaces(b)
  return 1 - osa(ta, tb) / Math.max(ta.length, tb.length)
}

const withoutTrailingSpaces = (text: string): string => {
  let end = text.length
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--
  return end === text.length ? text : text.slice(0, end)
}

/** A normalized value with its legal form spelled out after the name (`acme sa de cv`). */
const withLegal = (text: NormalizedText): string => (text.legal === "" ? text.key : `${text.key} ${text.legal}`)

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
 * matter before aligning them).
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
const scoreStored = (stored: StoredValue, read: PreparedText, precise: boolean): number => {
  const legal = read.text.legal
  if (legal !== "" && legal === stored.text.legal) return blendAgainst(fullSide(stored), read.full, precise)
  const name = blendAgainst(nameSide(stored), read.name, precise)
  if (legal === "" && stored.text.legal !== "") {
    return Math.max(name, blendAgainst(fullSide(stored), read.full, precise))
  }
  return name
}

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
 * (nothing aligned); every other member is exact.
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

/** Clears the values kept for the previous decision (see `StoredValue`): each decision starts with none. */
export const forgetStoredValues = (): void => storedCache.clear()
