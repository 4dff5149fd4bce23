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
 *   (`leadNeeded`). `not_found` reports the best score. Weights, margins and `DEFAULT_THRESHOLD` (0.8) were chosen on
 *   the benchmark's generator at a tenth of its size (1k/10k/100k catalogs), then measured at full size.
 * - Records with identical key and output values count as one (the lowest id is returned).
 * - Key columns with nothing read are left out; with none read at all the result is `not_found` with score 0.
 * - `matching` always carries `threshold_used` (null for `exacta`) and `key_columns`; `catalog_record_id` only
 *   when found. Scores are rounded to 4 decimals.
 */
import type { CatalogRecord } from "./Catalog.js"
import type { CatalogValue } from "./Field.js"
import * as Score from "./internal/catalogScore.js"
import * as Text from "./internal/catalogText.js"
import * as Trigrams from "./internal/catalogTrigrams.js"
import type { CatalogFieldConfig } from "./Skill.js"

/** The threshold benchmarks and clients use when they have no reason to choose another. */
export const DEFAULT_THRESHOLD = 0.8

/** Candidates retrieved per approximate search (re-ranked in core). */
export const CANDIDATES = 50

/** Records retrieved per exact search: enough to see duplicates and prefer among them. */
export const EXACT_CANDIDATES = 20

/** Longest key the SQL store indexes (longer keys are compared on this prefix, then checked in full). */
export const INDEXED_KEY_LENGTH = 512

/** Legal forms by canonical name, with the spellings (dots and spaces removed) each absorbs. */
export const LEGAL_FORMS = Text.LEGAL_FORMS
/** Abbreviations expanded word by word (after the legal form is split off). */
export const ABBREVIATIONS = Text.ABBREVIATIONS
/** OCR confusables folded in identifiers. */
export const CONFUSABLES = Text.CONFUSABLES
/** Weights of the text score. */
export const WEIGHTS = Score.WEIGHTS
/** The least lead the best candidate needs over the runner-up. */
export const RUNNER_UP_MARGIN = Score.RUNNER_UP_MARGIN
/** The part of the best candidate's distance from 1 that its lead must also reach. */
export const RELATIVE_MARGIN = Score.RELATIVE_MARGIN
/** The lead over the runner-up a best score needs: max(`RUNNER_UP_MARGIN`, `RELATIVE_MARGIN` × (1 − best)). */
export const leadNeeded: (best: number) => number = Score.leadNeeded
/** Folds the characters OCR confuses (0→o, 1/i→l, 5→s, 8→b, then rn→m, cl→d, vv→w) in a normalized key. */
export const skeleton: (key: string) => string = Score.skeleton
/** Folds the lookalikes OCR confuses less reliably (e→c, u→v, t→f, a→o, n→h) in a skeleton. */
export const lookalike: (folded: string) => string = Score.lookalike
/** Identifiers shorter than this match exactly only. */
export const ONE_EDIT_MIN_LENGTH = Score.ONE_EDIT_MIN_LENGTH

/** A value as compared: its key without the legal form, and the legal form. */
export type NormalizedText = Text.NormalizedText
/** An identifier-like value: compact and with confusables folded. */
export type Identifier = Text.Identifier
/** What was read for one key column, prepared for searching. */
export type ColumnQuery = Score.ColumnQuery
/** A search outcome: the matched record or none, and the score to report. */
export type Decision = Score.Decision

/** Normalizes a value (key and legal form). */
export const normalize: (value: string) => NormalizedText = Text.normalizeText
/** The identifier reading of a value, or `undefined` when it does not look like an identifier. */
export const identifierOf: (value: string) => Identifier | undefined = Text.identifierOf
/** Whether two strings are at most one edit apart (substitution, insertion, deletion, neighbour swap). */
export const withinOneEdit: (a: string, b: string) => boolean = Text.withinOneEdit
/** `pg_trgm`'s `similarity()` of two normalized keys. */
export const similarity: (a: string, b: string) => number = Trigrams.similarity
/** The full Damerau-Levenshtein ratio (fast-fuzzy `fuzzy()`, whole strings). */
export const editRatio: (a: string, b: string) => number = Score.editRatio
/** The text score of two normalized values (OCR confusables folded, legal forms lined up when that helps). */
export const textScore: (a: NormalizedText, b: NormalizedText) => number = Score.textScore
/** Edit ratio and trigram similarity of two keys with OCR confusables folded. */
export const textParts = Score.textParts
/** The key columns read with something searchable. */
export const prepare: (
  keyColumns: ReadonlyArray<string>,
  extracted: Readonly<Record<string, string>>
) => ReadonlyArray<ColumnQuery> = Score.prepare
/** `exacta`: the one record equal on every key column read. */
export const decideExact = Score.decideExact
/** `aproximada`: exact first, else the best candidate above the threshold and clearly ahead. */
export const decideApproximate = Score.decideApproximate
/** The trigram similarity below which a candidate cannot reach `threshold − RUNNER_UP_MARGIN`. */
export const retrievalFloor: (threshold: number) => number = Score.retrievalFloor

/** A compact in-process trigram index of one catalog column (see `TrigramIndexBuilder`). */
export type TrigramIndex = Trigrams.TrigramIndex
/** A hit of an index search. */
export type IndexHit = Trigrams.IndexHit
/** The typed arrays of a `TrigramIndex`, transferable between threads. */
export type TrigramIndexParts = Trigrams.TrigramIndexParts
/** The index over built parts (e.g. transferred back from the worker thread that built them). */
export const trigramIndexOf: (parts: TrigramIndexParts) => TrigramIndex = Trigrams.fromParts
/** Collects records and builds a `TrigramIndex`. */
export const TrigramIndexBuilder = Trigrams.TrigramIndexBuilder
/** The type of a `TrigramIndexBuilder`. */
export type TrigramIndexBuilder = Trigrams.TrigramIndexBuilder

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
  const text = Text.normalizeText(value)
  return { key: text.key, legal: text.legal, identifier: Text.identifierOf(value)?.folded }
}

/** The catalog a value refers to (`undefined` when it is gone: the value then names only its id). */
export interface CatalogInfo {
  readonly id: string
  readonly name: string
}

const round = (score: number) => Math.round(score * 10_000) / 10_000

/** The spec 2.5 value of a `catalog` field from the decision. */
export const catalogValue = (
  catalog: CatalogInfo,
  config: CatalogFieldConfig,
  extracted: Readonly<Record<string, string>>,
  decision: Decision
): CatalogValue => {
  const extractedValues: Record<string, string> = {}
  for (const column of config.keyColumns) {
    const value = extracted[column]
    if (value !== undefined) extractedValues[column] = value
  }
  const record: CatalogRecord | undefined = decision.record
  return {
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
    catalog_values: record === undefined ? {} : Score.catalogValues(record, config.keyColumns, config.outputColumns),
    catalog_info: { id: catalog.id, name: catalog.name, output_columns: [...config.outputColumns] }
  }
}
