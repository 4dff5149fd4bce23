/**
 * Assessment: every value of an assembled result gets its confidence and reasons (`Confidence`), from the signals
 * known of it — its grounding and the OCR confidence of its words, the extractor's certainty of its literal, whether
 * it parsed, its own check (identifier check digits, a plausible date) and the document's arithmetic, and for
 * catalog values the match score and margin — and the fields a skill's review setting requires are judged. Pure.
 */

import type { Matched } from "../CatalogMatch.js"
import * as Checks from "../Checks.js"
import * as CodeFacts from "../CodeFacts.js"
import * as Confidence from "../Confidence.js"
import { similarity } from "../EditDistance.js"
import type { ReadCode } from "../Extraction.js"
import type { CatalogValue, DetailedCatalogValue, DetailedField, DetailedSimpleValue, FieldOf } from "../Field.js"
import type { Review, SkillField } from "../Skill.js"
import * as Arithmetic from "./arithmetic.js"
import { key, readings, type WordIndex } from "./grounding.js"

/**
 * A read word as assessment needs it: its text and the reader's confidence in it — in its letters (`ReadWord.letters`)
 * where the reader tells, since a mark in doubt that the page settles is no doubt about the word.
 */
export interface WordInfo {
  readonly word: string
  readonly confidence: number
}

/** What assessment needs besides the fields. */
export interface AssessmentInput {
  readonly skill: ReadonlyArray<SkillField>
  /** The assembled fields; catalog values as the matcher returned them (with the runner-up's score). */
  readonly fields: ReadonlyArray<FieldOf<DetailedSimpleValue, CatalogValue | Matched>>
  readonly words: ReadonlyMap<string, WordInfo>
  /** The document's words indexed for search (`Grounding.index`), to find where a value repeats. */
  readonly index: WordIndex
  /** The machine-readable codes the reader found (fiscal QRs, embedded e-invoices), whose facts confirm values. */
  readonly codes?: ReadonlyArray<ReadCode> | undefined
  /** The extractor's probability of each literal, when it gave one. */
  readonly certainty?: ReadonlyMap<string, number> | undefined
  readonly model: Confidence.Model
  /** Today (`YYYY-MM-DD`) and the floor for plausible dates. */
  readonly dates: Checks.DateBounds
}

/** One value as assessed: where it is, its literal, its signals (none when empty), confidence and reasons. */
export interface Assessed {
  readonly path: string
  readonly field: SkillField
  readonly literal: string
  readonly signals: Confidence.Signals | undefined
  readonly confidence: number | null
  readonly reasons: ReadonlyArray<Confidence.Reason | { readonly code: "not_found"; readonly message: string }>
}

const NOT_FOUND = { code: "not_found" as const, message: "not found in the document" }

const isSimple = (v: unknown): v is DetailedSimpleValue =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "literal" in v && "parsed" in v

const isCatalog = (v: unknown): v is Matched =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "type" in v && v.type === "catalog" && "matching" in v

const round = (p: number) => Math.round(p * 1_000) / 1_000

/** Assesses every value; returns the fields with `confidence` and `reasons`, and every value assessed. */
export const assess = (
  input: AssessmentInput
): { readonly fields: Array<DetailedField>; readonly assessed: ReadonlyArray<Assessed> } => {
  const arithmetic = Arithmetic.verdicts(input.skill, input.fields as ReadonlyArray<DetailedField>)
  const assessed: Array<Assessed> = []

  const groundingOf = (v: DetailedSimpleValue): { grounding: number | null; ocr?: number } => {
    const words = v.word_ids.map((id) => input.words.get(id)).filter((w): w is WordInfo => w !== undefined)
    if (words.length === 0) return { grounding: null }
    return {
      grounding: similarity(key(v.literal), key(words.map((w) => w.word).join(""))),
      ocr: Math.min(...words.map((w) => w.confidence))
    }
  }

  const checkOf = (field: SkillField, v: DetailedSimpleValue): Confidence.Signals["check"] => {
    if (v.type === "date" && typeof v.parsed === "string") {
      const verdict = Checks.plausibleDate(v.parsed, input.dates)
      return {
        passed: verdict === undefined,
        code: "implausible_date",
        message:
          verdict === "future"
            ? `${v.parsed} is too far ahead`
            : `${v.parsed} is before ${input.dates.floor ?? Checks.DEFAULT_DATE_FLOOR}`
      }
    }
    const identifier = Checks.checkOf(field)
    if (identifier === undefined) return undefined
    const verdict = Checks.identifier(identifier, v.literal)
    return {
      passed: verdict === undefined,
      code: "checksum_failed",
      message:
        verdict === "format" ? `not a ${identifier.toUpperCase()}` : `${identifier.toUpperCase()} check digit fails`
    }
  }

  // An identifier printed more than once (a tax id on each copy of an invoice) should read the same each time.
  const repeatsOf = (field: SkillField, v: DetailedSimpleValue): Confidence.Signals["repeats"] => {
    if (Checks.checkOf(field) === undefined) return undefined
    const found = readings(input.index, v.literal)
    if (found.length < 2) return undefined
    const own = key(v.literal)
    const other = found.find((r) => r.key !== own)
    return {
      passed: other === undefined,
      code: "repeat_mismatch",
      message: other === undefined ? "reads the same wherever it is printed" : `read as "${other.text}" elsewhere`
    }
  }

  const simple = (field: SkillField, v: DetailedSimpleValue, path: string): DetailedSimpleValue => {
    if (v.literal === "") {
      assessed.push({ path, field, literal: "", signals: undefined, confidence: null, reasons: [NOT_FOUND] })
      return { ...v, confidence: null, reasons: [NOT_FOUND] }
    }
    const signals: Confidence.Signals = {
      ...groundingOf(v),
      certainty: input.certainty?.get(v.literal),
      parsed: v.parsed !== null,
      check: checkOf(field, v),
      arithmetic: arithmetic.get(v.id),
      repeats: repeatsOf(field, v),
      code: CodeFacts.verdict(field, v, input.codes ?? [])
    }
    const { confidence, reasons } = Confidence.assess(input.model, signals)
    assessed.push({ path, field, literal: v.literal, signals, confidence: round(confidence), reasons })
    return { ...v, confidence: round(confidence), reasons }
  }

  const catalog = (field: SkillField, v: Matched, path: string): DetailedCatalogValue => {
    const { runnerUp, ...value } = v
    const literal = Object.values(v.matching.extracted_values).join(" ")
    if (v.matching.status === "not_found") {
      const reasons = [{ code: "not_found" as const, message: "no catalog record matched" }]
      assessed.push({ path, field, literal, signals: undefined, confidence: null, reasons })
      return { ...value, confidence: null, reasons }
    }
    const certainties = Object.values(v.matching.extracted_values).map((l) => input.certainty?.get(l))
    const known = certainties.filter((c): c is number => c !== undefined)
    // A catalog value is grounded through its record, not the words: "not found in the words" is not its reason.
    const signals: Confidence.Signals = {
      grounding: 1,
      certainty: known.length === 0 ? undefined : Math.min(...known),
      parsed: true,
      catalog: { score: v.matching.score, margin: runnerUp === undefined ? 1 : v.matching.score - runnerUp }
    }
    const { confidence, reasons } = Confidence.assess(input.model, signals)
    assessed.push({ path, field, literal, signals, confidence: round(confidence), reasons })
    return { ...value, confidence: round(confidence), reasons }
  }

  const item = (field: SkillField, v: unknown, path: string): unknown => {
    if (isCatalog(v)) return catalog(field, v, path)
    if (isSimple(v)) return simple(field, v, path)
    if (typeof v === "object" && v !== null && !Array.isArray(v)) {
      const subs = new Map((field.fields ?? []).map((s) => [s.name, s]))
      return Object.fromEntries(
        Object.entries(v).map(([name, sub]) => {
          const subField = subs.get(name)
          return [name, subField === undefined ? sub : item(subField, sub, `${path}.${name}`)]
        })
      )
    }
    return v
  }

  const level = (
    skill: ReadonlyArray<SkillField>,
    fields: ReadonlyArray<FieldOf<DetailedSimpleValue, CatalogValue | Matched>>,
    prefix: string
  ): Array<DetailedField> =>
    fields.map((f): DetailedField => {
      const field = skill.find((s) => s.name === f.name)
      const path = `${prefix}${f.name}`
      if (field === undefined || f.value === null) return f as DetailedField
      if (Array.isArray(f.value)) {
        if (!field.isList) return { ...f, value: level(field.fields ?? [], f.value as never, `${path}.`) }
        return { ...f, value: f.value.map((v, i) => item(field, v, `${path}[${i}]`)) as DetailedField["value"] }
      }
      return { ...f, value: item(field, f.value, path) as DetailedField["value"] }
    })

  return { fields: level(input.skill, input.fields, ""), assessed }
}

/**
 * What a review setting finds wrong with an assessed result: each required field that is empty, under the
 * threshold or failing a check, with why — `undefined` when nothing is (the extraction is `completado`).
 */
export const review = (setting: Review, assessed: ReadonlyArray<Assessed>): string | undefined => {
  const problems: Array<string> = []
  const required = new Set(setting.required)
  const topName = (path: string) => path.split(/[.[]/)[0] ?? path
  for (const name of setting.required) {
    const values = assessed.filter((a) => topName(a.path) === name)
    if (values.length === 0 || values.every((a) => a.literal === ""))
      problems.push(`${name}: not found in the document`)
  }
  for (const a of assessed) {
    if (!required.has(topName(a.path)) || a.literal === "") continue
    const failed = a.reasons.filter(
      (r) =>
        r.code === "checksum_failed" ||
        r.code === "implausible_date" ||
        r.code === "sum_mismatch" ||
        r.code === "repeat_mismatch" ||
        r.code === "code_mismatch"
    )
    if (failed.length > 0) problems.push(`${a.path}: ${failed.map((r) => r.message).join("; ")}`)
    else if (a.confidence !== null && a.confidence < setting.threshold)
      problems.push(
        `${a.path}: confidence ${a.confidence.toFixed(2)} under ${setting.threshold}` +
          (a.reasons.length === 0 ? "" : ` (${a.reasons.map((r) => r.message).join("; ")})`)
      )
  }
  return problems.length === 0 ? undefined : problems.join("; ")
}
