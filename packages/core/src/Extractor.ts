import { Schema } from "effect"
import type { ReadDocument } from "./Document.js"
import type { Mode, Usage } from "./Extraction.js"
import type { Skill } from "./Skill.js"

/**
 * The literal text an extractor found for one field, before parsing, grounding and catalog matching:
 * - a simple field: the literal as printed, or `null` when absent;
 * - an `object` field: its sub-fields by name;
 * - a list field (`isList`): an array of literals, or of sub-field dictionaries for a list of objects;
 * - a `catalog` field: the literal read for each key column (what goes to `matching.extracted_values`).
 */
export type ExtractedValue =
  | string
  | null
  | { readonly [name: string]: ExtractedValue }
  | ReadonlyArray<string | { readonly [name: string]: ExtractedValue }>

/** The values found, by top-level field name. A field the extractor did not find is absent or `null`. */
export type ExtractedFields = { readonly [name: string]: ExtractedValue }

/** Why an extraction attempt failed; `permanent` failures (a provider's 400, a document too large) are not retried. */
export class ExtractorError extends Schema.TaggedError<ExtractorError>()("ExtractorError", {
  reason: Schema.Literals([
    "NotConfigured",
    "Unavailable",
    "RateLimited",
    "Timeout",
    "Rejected",
    "TooLarge",
    "Refused",
    "InvalidOutput"
  ]),
  message: Schema.String,
  permanent: Schema.Boolean
}) {}

/** What an extraction needs: the skill, the document as read, its original bytes (for `pdf_only`), mode and model. */
export interface ExtractRequest {
  readonly skill: Skill
  readonly document: ReadDocument
  readonly original: Uint8Array
  readonly mode: Mode
  readonly model: string
}

/** The literal values found and the usage figures of the call(s) that found them. */
export interface ExtractResponse {
  readonly values: ExtractedFields
  readonly usage: Usage
  /**
   * The extractor's own probability that it wrote each literal right, by literal (trimmed, as in `values`): token
   * log-probabilities for models that give them, label evidence for the local rules. Absent when the extractor
   * cannot tell (e.g. Anthropic), and a literal may be missing from it.
   */
  readonly certainty?: ReadonlyMap<string, number> | undefined
}
