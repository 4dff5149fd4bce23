/**
 * Deciding a catalog match from scored candidates (pure): `exacta` takes the one record equal on every key column,
 * `aproximada` the best-scored record when it reaches the threshold and is clearly ahead of the runner-up.
 */
import type { CatalogRecord } from "../Catalog.js"
import { type ColumnQuery, forgetStoredValues, type Scored, score, WEIGHTS } from "./catalogScore.js"

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

/** The outcome of a search: the matched record, or none, and the score to report. */
export interface Decision {
  readonly record: CatalogRecord | undefined
  readonly score: number
  /** The score of the best other candidate, when one was scored (how close the match came to being ambiguous). */
  readonly runnerUp?: number | undefined
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
  forgetStoredValues()
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
  forgetStoredValues()
  const bounded = distinct(
    candidates.map((record) => score(queries, record, false)),
    columns
  )
  const perfect = bounded.filter((s) => s.perfect)
  if (perfect.length > 0) {
    const chosen = preferring(perfect)
    return chosen.length === 1 && chosen[0] !== undefined ? { record: chosen[0].record, score: 1 } : noMatch(1)
  }
  // Precise scores (edit distances aligned) best bound first, until a bound falls below what could still be the best or
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
    ? { record: best.record, score: best.score, runnerUp: runnerUp?.score }
    : noMatch(best.score)
}

/**
 * The lowest trigram similarity a candidate needs to be worth retrieving: below it, even a perfect edit ratio leaves
 * its text score under `threshold − RUNNER_UP_MARGIN`, so it could be neither the match nor a runner-up that blocks
 * it (exact for one key column; a heuristic with several).
 */
export const retrievalFloor = (threshold: number): number =>
  Math.min(0.9, Math.max(0.2, (threshold - RUNNER_UP_MARGIN - WEIGHTS.edit) / WEIGHTS.trigram))
