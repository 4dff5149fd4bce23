/**
 * Field schemas shared by the contract. Every client string that may be stored is `Text`: PostgreSQL cannot hold a
 * NUL character in `text`, nor a lone surrogate in `jsonb`, so both are refused with a 400 at the edge instead of
 * failing as a 500 in the database.
 */
import { Schema } from "effect"

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g")

/** Whether a string is well-formed UTF-16 (no lone surrogate, which no UTF-8 text can hold). */
export const isWellFormed = (s: string): boolean => !LONE_SURROGATE.test(s)

/** The string with every lone surrogate replaced by U+FFFD. */
export const toWellFormed = (s: string): string => s.replace(LONE_SURROGATES, "\uFFFD")

/** Why a client string cannot be stored, or `undefined` when it can. */
export const textProblem = (s: string): string | undefined => {
  if (s.includes("\u0000")) return "must not contain NUL characters"
  if (!isWellFormed(s)) return "must be well-formed Unicode (no lone surrogates)"
  return undefined
}

const storable = Schema.makeFilter((s: string) => textProblem(s) ?? true, {
  description: "Text without NUL characters or lone surrogates."
})

/** A string that can be stored: no NUL character, no lone surrogate. */
export const Text = Schema.String.check(storable)

/**
 * `Text` with a description for the OpenAPI document. The description goes on the string before the check: one
 * annotated after a check does not reach the generated JSON schema.
 */
export const text = (description: string, examples?: ReadonlyArray<string>) =>
  Schema.String.annotate(examples === undefined ? { description } : { description, examples }).check(storable)

/** The path parameter of the endpoints on one extraction. */
export const ExtractionId = {
  extraction_id: Schema.String.annotate({ description: "The extraction's id (the `extraction_id` of its 202)." })
}

/** An integer with a description for the OpenAPI document (placed before the check, as for `text`). */
export const int = (description: string) => Schema.Number.annotate({ description }).check(Schema.isInt())
