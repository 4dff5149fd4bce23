/**
 * Catalog matching, the pure part: how catalog values and values read from documents are normalized, which searches
 * a `catalog` field makes (`CatalogQuery`, answered by `CatalogStore.search`), how candidates are scored, when one is
 * `found`, and the spec 2.5 value built from the outcome.
 *
 * Decisions where the issue and the spec are silent:
 * - Normalization: NFKD without marks, lower case, `&`/`+` read "y", apostrophes join, other symbols separate,
 *   dotted abbreviations join ("S.A." → `sa`, also glued to a word: "GijónS.A."). A trailing legal form
 *   (`LEGAL_FORMS`, also when the OCR misread it: "5.L.", "Lfda.", "S.A. DDE C.V.") goes to its own column, so
 *   "ACME S.A." and "Acme SA de CV" both compare on `acme`; then `ABBREVIATIONS` are expanded. Only `a-z`, `0-9` and
 *   spaces remain in a key (values in other scripts have an empty key and never match).
 * - A value is identifier-like by its shape (`identifierOf`), on both sides; it then matches on its compact form with
 *   O→0, I→1, L→1, S→5, B→8, Z→2, G→6 folded. One edit is accepted (`aproximada` only, 6+ characters) when exactly
 *   one record is one edit away and it is also the best candidate.
 * - `exacta`: equality of the normalized key (or folded identifier) on every key column read; score 1.0. Among equal
 *   records, those with the same raw identifier or legal form are preferred; still several distinct → `not_found`.
 * - `aproximada`: a candidate equal once OCR confusables are folded (0/o, 1/i/l, 5/s, 8/b, rn/m, cl/d) wins as in
 *   `exacta`, with score 1.0. Otherwise, per key column, 0.85 × edit ratio + 0.15 × trigram similarity on those
 *   folded keys — the edit ratio averaged with the one where e/c, u/v, t/f, a/o, n/h are folded too, so such a
 *   misreading costs half an edit; names with legal forms when that lines them up — averaged over key columns; `found` needs
 *   score ≥ threshold and a lead over the best record with other catalog values of max(0.03, 0.75 × (1 − score))
 *   (`leadNeeded`). `not_found` reports the best score. Weights, margins and `DEFAULT_THRESHOLD` (0.8): chosen on the
 *   catalog benchmark (`MEASUREMENTS.md`).
 * - Records with identical key and output values count as one (the lowest id is returned).
 * - Key columns with nothing read are left out; with none read at all the result is `not_found` with score 0.
 * - `matching` always carries `threshold_used` (null for `exacta`) and `key_columns`; `catalog_record_id` only
 *   when found. Scores are rounded to 4 decimals.
 */
import type { CatalogRecord } from "./Catalog.js"
import type { CatalogValue } from "./Field.js"
import type { Decision } from "./internal/catalogDecision.js"
import { identifierOf, normalizeText } from "./internal/catalogText.js"
import type { CatalogFieldConfig } from "./Skill.js"

/** The one-edit test of `NearIdentifier` searches (see `EditDistance.withinOneEdit`). */
export { withinOneEdit } from "./EditDistance.js"
export {
  type Decision,
  decideApproximate,
  decideExact,
  leadNeeded,
  RELATIVE_MARGIN,
  RUNNER_UP_MARGIN,
  retrievalFloor
} from "./internal/catalogDecision.js"
export { lookalike, skeleton } from "./internal/catalogFolds.js"
export {
  type ColumnQuery,
  editRatio,
  ONE_EDIT_MIN_LENGTH,
  prepare,
  textParts,
  WEIGHTS
} from "./internal/catalogScore.js"
export {
  ABBREVIATIONS,
  CONFUSABLES,
  type Identifier,
  identifierOf,
  LEGAL_FORMS,
  type NormalizedText,
  normalizeText as normalize
} from "./internal/catalogText.js"
export { forEachTrigram, similarity, similarityOf, TRIGRAM_CODES } from "./internal/catalogTrigrams.js"

/** The threshold benchmarks and clients use when they have no reason to choose another. */
export const DEFAULT_THRESHOLD = 0.8

/** Candidates retrieved per approximate search (re-ranked in core). */
export const CANDIDATES = 50

/** Records retrieved per exact search: enough to see duplicates and prefer among them. */
export const EXACT_CANDIDATES = 20

/** Longest key the SQL store indexes (longer keys are compared on this prefix, then checked in full). */
export const INDEXED_KEY_LENGTH = 512

/**
 * One search of a catalog column, as `CatalogStore.search` answers it. Results are records of the catalog, at most
 * `limit`, in the order given.
 * - `Key`: the records whose value normalizes to `key`; by id.
 * - `Identifier`: the records whose value is identifier-like with this folded form; by id. With `orKey`, when no
 *   record has that identifier, the records whose value normalizes to `orKey` instead (as `Key` would return them):
 *   an identifier reading's whole exact lookup in one search.
 * - `NearIdentifier`: the records whose folded identifier is exactly one edit from `identifier`; by trigram
 *   similarity of the identifiers (lower-cased), best first, then id.
 * - `Similar`: the records whose key has trigram similarity ≥ `minSimilarity` with `text`; best first, then id.
 */
export type CatalogQuery =
  | { readonly _tag: "Key"; readonly column: string; readonly key: string; readonly limit: number }
  | {
      readonly _tag: "Identifier"
      readonly column: string
      readonly identifier: string
      readonly orKey?: string | undefined
      readonly limit: number
    }
  | { readonly _tag: "NearIdentifier"; readonly column: string; readonly identifier: string; readonly limit: number }
  | {
      readonly _tag: "Similar"
      readonly column: string
      readonly text: string
      readonly minSimilarity: number
      readonly limit: number
    }

/** What a store writes for one value of a record (the normalized columns). */
export interface IndexedValue {
  readonly key: string
  readonly legal: string
  /** The folded identifier, when the value is identifier-like. */
  readonly identifier: string | undefined
}

/** The normalized columns of a value, as the stores write them on upsert. */
export const indexedValue = (value: string): IndexedValue => {
  const text = normalizeText(value)
  return { key: text.key, legal: text.legal, identifier: identifierOf(value)?.folded }
}

/** The catalog a value refers to (`undefined` when it is gone: the value then names only its id). */
export interface CatalogInfo {
  readonly id: string
  readonly name: string
}

/** The values a match returns for a record: its key and output columns (those it has). */
const catalogValues = (
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

const round = (score: number) => Math.round(score * 10_000) / 10_000

/**
 * A catalog value as a match returns it: spec 2.5's value, and the runner-up's score when one was scored, which
 * processing turns into the value's confidence and drops (it is never stored or served).
 */
export type Matched = CatalogValue & { readonly runnerUp?: number | undefined }

/** The spec 2.5 value of a `catalog` field from the decision. */
export const catalogValue = (
  catalog: CatalogInfo,
  config: CatalogFieldConfig,
  extracted: Readonly<Record<string, string>>,
  decision: Decision
): Matched => {
  const extractedValues: Record<string, string> = {}
  for (const column of config.keyColumns) {
    const value = extracted[column]
    if (value !== undefined) extractedValues[column] = value
  }
  const record: CatalogRecord | undefined = decision.record
  return {
    ...(decision.runnerUp === undefined ? {} : { runnerUp: decision.runnerUp }),
    type: "catalog",
    matching: {
      status: record === undefined ? "not_found" : "found",
      method: config.method,
      score: round(decision.score),
      threshold_used: config.method === "exacta" ? null : config.threshold,
      extracted_values: extractedValues,
      ...(record === undefined ? {} : { catalog_record_id: record.id }),
      key_columns: [...config.keyColumns]
    },
    catalog_values: record === undefined ? {} : catalogValues(record, config.keyColumns, config.outputColumns),
    catalog_info: { id: catalog.id, name: catalog.name, output_columns: [...config.outputColumns] }
  }
}
