/**
 * The `local` `FieldExtractor`: deterministic rules over the read words, with no network and no key (test keys
 * and the quick start use it). Labels come from the skill (field names, aliases, descriptions) and, for common
 * concepts, vocabularies in es, en, de, fr, it, pt and nl; values sit to the right of or below their label and are
 * narrowed by type (dates, amounts, tax ids, document numbers); list fields come from table rows under a header
 * row, or a receipt's lines. Dates are returned as printed: core's assembly reads their day/month order from the
 * document. Usage reports zero tokens and the model `local`.
 */
import { type Document, type Extractor, Ports, type Skill } from "@legible/core"
import { Clock, Effect, Layer } from "effect"
import { conceptOf, type Target } from "./internal/local/labels.js"
import { type Layout, layout } from "./internal/local/layout.js"
import { listValue } from "./internal/local/tables.js"
import { simpleValue } from "./internal/local/values.js"
import { LOCAL_MODEL } from "./Provider.js"

/** The model name this extractor serves. */
export const MODEL = LOCAL_MODEL

const catalogValue = (l: Layout, field: Skill.SkillField): Extractor.ExtractedValue => {
  const columns = field.catalog?.keyColumns ?? []
  const values = Object.fromEntries(
    columns.map((column) => {
      // With one key column the field's own words (aliases, description) describe that column.
      const target: Target =
        columns.length === 1
          ? { name: column, type: "string", aliases: field.aliases, description: field.description }
          : { name: column, type: "string", aliases: [], description: "" }
      return [column, simpleValue(l, target, conceptOf(target))]
    })
  )
  return Object.values(values).every((v) => v === null) ? null : values
}

const fieldValue = (l: Layout, field: Skill.SkillField): Extractor.ExtractedValue => {
  if (field.isList) return listValue(l, field)
  if (field.type === "object")
    return Object.fromEntries((field.fields ?? []).map((sub) => [sub.name, fieldValue(l, sub)]))
  if (field.type === "catalog") return catalogValue(l, field)
  return simpleValue(l, field)
}

/** The literal values the rules find for a skill's fields in a read document (pure). */
export const extractFields = (
  fields: ReadonlyArray<Skill.SkillField>,
  document: Document.ReadDocument
): Extractor.ExtractedFields => {
  const l = layout(document)
  return Object.fromEntries(fields.map((field) => [field.name, fieldValue(l, field)]))
}

/** The local extractor: serves the model `local`. */
export const make: Effect.Effect<Ports.FieldExtractor["Service"]> = Effect.succeed(
  Ports.FieldExtractor.of({
    supports: (model) => model === MODEL,
    extract: Effect.fn("Local.extract")(function* (request: Extractor.ExtractRequest) {
      const started = yield* Clock.currentTimeMillis
      const values = extractFields(request.skill.fields, request.document)
      const finished = yield* Clock.currentTimeMillis
      return {
        values,
        usage: {
          tokens_consumidos: 0,
          prompt_tokens: 0,
          response_tokens: 0,
          duration: (finished - started) / 1000,
          model: MODEL
        }
      }
    })
  })
)

/** The local extractor as the `FieldExtractor`. */
export const layer: Layer.Layer<Ports.FieldExtractor> = Layer.effect(Ports.FieldExtractor, make)
