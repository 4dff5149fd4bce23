/**
 * Scoring candidates and deciding a catalog match (pure). A column read as an identifier matches by its folded
 * identifier (exact) or, in `aproximada`, by one edit; a text column matches exactly on its normalized key, or by a
 * blend of the full Damerau-Levenshtein ratio (fast-fuzzy's `fuzzy()` without substring matching) and the trigram
 * similarity; several key columns average their scores.
 */
import { fuzzy } from "fast-fuzzy"
import type { CatalogRecord } from "../Catalog.js"
import { type Identifier, identifierOf, type NormalizedText, normalizeText, withinOneEdit } from "./catalogText.js"
import { similarity } from "./catalogTrigrams.js"

/** Weights of the text score: edit ratio and trigram similarity (they sum to 1). */
export const WEIGHTS = { edit: 0.7, trigram: 0.3 } as const

/** The best candidate must lead the runner-up (a record with other catalog values) by this much to be `found`. */
export const RUNNER_UP_MARGIN = 0.05

/** Identifiers shorter than this (compact) match exactly only: one edit in a short code is another code. */
export const ONE_EDIT_MIN_LENGTH = 6

/** What was read for one key column, prepared for searching. */
export interface ColumnQuery {
  readonly column: string
  readonly value: string
  readonly text: NormalizedText
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
    const text = normalizeText(value)
    const identifier = identifierOf(value)
    return text.key === "" && identifier === undefined ? [] : [{ column, value, text, identifier }]
  })

/** The full Damerau-Levenshtein ratio of two normalized strings: 1 − distance / longer length. */
export const editRatio = (a: string, b: string): number =>
  fuzzy(a, b, {
    useSellers: false,
    useDamerau: true,
    ignoreCase: false,
    ignoreSymbols: false,
    normalizeWhitespace: false,
    useSeparatedUnicode: true
  })

/** The text score of two different normalized keys. */
export const textScore = (a: string, b: string): number =>
  WEIGHTS.edit * editRatio(a, b) + WEIGHTS.trigram * similarity(a, b)

/** How one column of a record compares with what was read. */
export interface ColumnScore {
  readonly score: number
  /** Equal after normalization (text) or after folding confusables (identifier). */
  readonly exact: boolean
  /** Equal before folding confusables too (identifier), or with the same legal form (text, when one was read). */
  readonly preferred: boolean
  /** An identifier one edit away. */
  readonly oneEdit: boolean
  /** Whether this column lets the record be `found`: identifiers against identifiers only when exact or one edit away. */
  readonly acceptable: boolean
}

const none: ColumnScore = { score: 0, exact: false, preferred: false, oneEdit: false, acceptable: false }

/** Scores one column of a record against what was read. */
export const scoreColumn = (query: ColumnQuery, stored: string | undefined): ColumnScore => {
  if (stored === undefined || stored.trim() === "") return none
  if (query.identifier !== undefined) {
    const mine = identifierOf(stored)
    if (mine !== undefined) {
      const q = query.identifier
      if (mine.folded === q.folded) {
        return { score: 1, exact: true, preferred: mine.compact === q.compact, oneEdit: false, acceptable: true }
      }
      const oneEdit = q.folded.length >= ONE_EDIT_MIN_LENGTH && withinOneEdit(mine.folded, q.folded)
      return { score: editRatio(mine.folded, q.folded), exact: false, preferred: false, oneEdit, acceptable: oneEdit }
    }
  }
  const text = normalizeText(stored)
  if (text.key === "" || query.text.key === "") return none
  if (text.key === query.text.key) {
    const preferred = query.text.legal === "" || query.text.legal === text.legal
    return { score: 1, exact: true, preferred, oneEdit: false, acceptable: true }
  }
  // Text, or an identifier read against a value that is not one (the column holds text): the threshold decides.
  return {
    score: textScore(text.key, query.text.key),
    exact: false,
    preferred: false,
    oneEdit: false,
    acceptable: true
  }
}

/** A candidate record with its scores per query column and overall. */
export interface Scored {
  readonly record: CatalogRecord
  readonly columns: ReadonlyArray<ColumnScore>
  /** The mean of the column scores. */
  readonly score: number
  readonly exact: boolean
  readonly preferred: boolean
  readonly acceptable: boolean
}

/** Scores a record on every query column. */
export const score = (queries: ReadonlyArray<ColumnQuery>, record: CatalogRecord): Scored => {
  const columns = queries.map((q) => scoreColumn(q, record.values[q.column]))
  return {
    record,
    columns,
    score: columns.length === 0 ? 0 : columns.reduce((sum, c) => sum + c.score, 0) / columns.length,
    exact: columns.length > 0 && columns.every((c) => c.exact),
    preferred: columns.every((c) => c.preferred),
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
  const seen = new Map<string, Scored>()
  for (const s of [...scored].sort(byId)) {
    const key = JSON.stringify(columns.map((c) => s.record.values[c] ?? null))
    if (!seen.has(key)) seen.set(key, s)
  }
  return [...seen.values()]
}

/** Keeps the preferred candidates when there are any (raw identifier equal, same legal form). */
const preferring = (scored: ReadonlyArray<Scored>): ReadonlyArray<Scored> => {
  const preferred = scored.filter((s) => s.preferred)
  return preferred.length > 0 ? preferred : scored
}

/** `exacta`: the one record equal on every key column read (after normalization); ties are not found. */
export const decideExact = (
  queries: ReadonlyArray<ColumnQuery>,
  candidates: ReadonlyArray<CatalogRecord>,
  columns: ReadonlyArray<string>
): Decision => {
  const exact = distinct(
    candidates.map((record) => score(queries, record)).filter((s) => s.exact),
    columns
  )
  const chosen = preferring(exact)
  return chosen.length === 1 && chosen[0] !== undefined ? { record: chosen[0].record, score: 1 } : noMatch(0)
}

const noMatch = (best: number): Decision => ({ record: undefined, score: best })

/**
 * `aproximada`: exact candidates win outright (as in `exacta`); otherwise the best-scored candidate is `found` when
 * it reaches `threshold`, leads the runner-up by `RUNNER_UP_MARGIN`, every identifier column of it is exact or one
 * edit away, and no other record is one edit away on such a column. Otherwise `not_found` with the best score.
 */
export const decideApproximate = (
  queries: ReadonlyArray<ColumnQuery>,
  candidates: ReadonlyArray<CatalogRecord>,
  columns: ReadonlyArray<string>,
  threshold: number
): Decision => {
  const scored = distinct(
    candidates.map((record) => score(queries, record)),
    columns
  )
  const exact = scored.filter((s) => s.exact)
  if (exact.length > 0) {
    const chosen = preferring(exact)
    return chosen.length === 1 && chosen[0] !== undefined ? { record: chosen[0].record, score: 1 } : noMatch(1)
  }
  const ranked = [...scored].sort((a, b) => b.score - a.score || byId(a, b))
  const [best, runnerUp] = ranked
  if (best === undefined) return noMatch(0)
  const ahead = runnerUp === undefined || best.score - runnerUp.score >= RUNNER_UP_MARGIN
  const uniqueEdits = queries.every(
    (_, i) => !(best.columns[i]?.oneEdit ?? false) || scored.filter((s) => s.columns[i]?.oneEdit).length === 1
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
