/**
 * The `local` `FieldExtractor`: deterministic rules over the read words, with no network and no key (test keys
 * and the quick start use it). Labels come from the skill (field names, aliases, descriptions) and, for common
 * concepts, vocabularies in es, en, de, fr, it, pt and nl; values sit to the right of or below their label and are
 * narrowed by type (dates, amounts, tax ids, document numbers, e-mail addresses, phone numbers); list fields come
 * from table rows under a header row, or a receipt's lines. A field that names a party (`nif_cliente`, `Supplier
 * email`, `Customer name`, `Delivery address`) takes its value in that party's block: the recipient's or the
 * delivery's under its label (`Bill To:`, `Cliente:`, `Ship To:`), the issuer's out of them; never another's. An amount field that names the tax or the net amount (`cuota_iva`, `VAT
 * amount`, `base_imponible`, `Net amount`) takes that figure of the totals block, where one value is printed. Dates are returned as printed: core's assembly reads their day/month order from the
 * document. Read through OCR, label words match within a slip (`T0TAL`, `Surnme`), and misread dates and amounts
 * (`14.1O.2019`, `14-10`) are read back; the total is cross-checked by the document's own arithmetic (tendered −
 * change, subtotal + taxes, rounding: `internal/local/arithmetic.ts`). Each literal comes with the rules' certainty
 * of it, from the evidence that found it (figures that confirm it, a label word for word, a weaker label, the
 * layout, position alone; lowered by a competing candidate: `internal/local/evidence.ts`). A field a fiscal QR code
 * or embedded e-invoice on the document states takes the code's value as the page prints it, or in the code's own
 * form where the rules find nothing on the page. Text OCR read loses the marks its language does not write where OCR
 * put them (`SELAÑGOR`, `Tipografía` on an Italian invoice: `internal/local/orthography.ts`).
 * Usage reports zero tokens and the model `local`.
 */
import { type Document, type Extractor, Ports, type Skill } from "@legible/core"
import { Clock, Effect, Layer } from "effect"
import { fromCodes } from "./internal/local/codes.js"
import { type Found, LEVELS } from "./internal/local/evidence.js"
import { conceptOf, type Target } from "./internal/local/labels.js"
import { type Layout, layout } from "./internal/local/layout.js"
import { languageOf, withoutCapitalIForL, withoutInventedMarks, withSizesMended } from "./internal/local/orthography.js"
import { listValue } from "./internal/local/tables.js"
import { everyValue, simpleValue } from "./internal/local/values.js"
import { LOCAL_MODEL } from "./Provider.js"

/** The model name this extractor serves. */
export const MODEL = LOCAL_MODEL

/** A field's value and the certainty of each literal in it (trimmed, as `ExtractResponse.certainty` keys them). */
interface Valued {
  readonly value: Extractor.ExtractedValue
  readonly certainty: ReadonlyArray<readonly [string, number]>
}

const NONE: Valued = { value: null, certainty: [] }

const single = (f: Found | null): Valued =>
  f === null ? NONE : { value: f.text, certainty: [[f.text.trim(), f.certainty]] }

/** Every literal of a list's items, each at the list's evidence level. */
const literalsOf = (value: Extractor.ExtractedValue): ReadonlyArray<string> => {
  if (typeof value === "string") return [value.trim()]
  if (Array.isArray(value)) return value.flatMap(literalsOf)
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(literalsOf)
  return []
}

const catalogValue = (l: Layout, field: Skill.SkillField): Valued => {
  const columns = field.catalog?.keyColumns ?? []
  const found = columns.map((column) => {
    // With one key column the field's own words (aliases, description) describe that column.
    const target: Target =
      columns.length === 1
        ? { name: column, type: "string", aliases: field.aliases, description: field.description }
        : { name: column, type: "string", aliases: [], description: "" }
    return [column, single(simpleValue(l, target, conceptOf(target)))] as const
  })
  if (found.every(([, v]) => v.value === null)) return NONE
  return {
    value: Object.fromEntries(found.map(([column, v]) => [column, v.value])),
    certainty: found.flatMap(([, v]) => v.certainty)
  }
}

/** How a text field's literal is finished: OCR's invented marks taken off (`orthography.ts`), or as found. */
type Finish = (text: string) => string

const AS_FOUND: Finish = (text) => text

/** A list's items with their text sub-fields finished. */
const finishedItems = (items: Extractor.ExtractedValue, field: Skill.SkillField, finish: Finish) => {
  if (finish === AS_FOUND || !Array.isArray(items)) return items
  const text = new Set((field.fields ?? []).filter((f) => f.type === "string").map((f) => f.name))
  return items.map((item) =>
    item !== null && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item).map(([k, v]) => [k, text.has(k) && typeof v === "string" ? finish(v) : v])
        )
      : item
  )
}

const fieldValue = (l: Layout, field: Skill.SkillField & { readonly parent?: string }, finish: Finish): Valued => {
  if (field.isList) {
    // A list of e-mails or phones: every one the pages print, not a column's cells.
    const every = everyValue(l, field)
    if (every.length > 0)
      return { value: every, certainty: every.map((literal) => [literal, LEVELS.position] as const) }
    const list = listValue(l, field)
    const level = LEVELS[list.evidence]
    const items = finishedItems(list.items, field, finish)
    return { value: items, certainty: literalsOf(items).map((literal) => [literal, level] as const) }
  }
  if (field.type === "object") {
    // A sub-field names the party its object does (`cliente.nombre`, `emisor.nif`).
    const parent = [field.name, ...field.aliases, field.description].join(" ")
    const subs = (field.fields ?? []).map((sub) => [sub.name, fieldValue(l, { ...sub, parent }, finish)] as const)
    return {
      value: Object.fromEntries(subs.map(([name, v]) => [name, v.value])),
      certainty: subs.flatMap(([, v]) => v.certainty)
    }
  }
  if (field.type === "catalog") return catalogValue(l, field)
  const f = simpleValue(l, field)
  return single(f === null || field.type !== "string" ? f : { ...f, text: finish(f.text) })
}

/**
 * The literal values the rules find for a skill's fields in a read document, and the rules' certainty of each
 * literal (`evidence.ts`): a literal found twice keeps the lower one (pure).
 */
export const extract = (
  fields: ReadonlyArray<Skill.SkillField>,
  document: Document.ReadDocument
): { readonly values: Extractor.ExtractedFields; readonly certainty: ReadonlyMap<string, number> } => {
  const l = layout(document)
  // Marks OCR invents on names are taken off where the document's language does not write them, a capital I it
  // read for a word's last `l` is that `l`, a size's figures it misread are mended; a text layer's words are as
  // printed.
  const read = document.pages.some((p) => p.source === "ocr")
  const language = read ? languageOf(l) : undefined
  const finish: Finish = read
    ? (text) => withoutInventedMarks(withSizesMended(withoutCapitalIForL(text)), language)
    : AS_FOUND
  const pictured = picturedWords(document)
  let withPictures: Layout | undefined
  // A field a machine-readable code on the document states takes the code's value as the page prints it; in the
  // code's own form only where the rules found nothing on the page (`internal/local/codes.ts`).
  const found = fields.map((field) => {
    const coded = fromCodes(field, document)
    if (coded?.printed === true) return [field.name, single(coded.value)] as const
    const ruled = fieldValue(l, field, finish)
    if (coded !== undefined && ruled.value === null) return [field.name, single(coded.value)] as const
    // A name printed only in a picture (a letterhead's logo: `NORDWIND LOGISTIK GmbH`), where the page's text gives
    // none: the rules again with the pictures' words, a name all of whose words are theirs.
    if (ruled.value !== null || pictured.size === 0 || field.type !== "string") return [field.name, ruled] as const
    withPictures ??= layout(document, { pictures: true })
    const fromPicture = fieldValue(withPictures, field, finish)
    const text = typeof fromPicture.value === "string" ? fromPicture.value : ""
    const words = text.split(/\s+/).filter((w) => w !== "")
    return [field.name, words.length > 0 && words.every((w) => pictured.has(w)) ? fromPicture : ruled] as const
  })
  const certainty = new Map<string, number>()
  for (const [, v] of found)
    for (const [literal, c] of v.certainty)
      if (literal !== "") certainty.set(literal, Math.min(c, certainty.get(literal) ?? 1))
  return { values: Object.fromEntries(found.map(([name, v]) => [name, v.value])), certainty }
}

/** The words a reader read from the pictures of pages read from their text layers (`ReadWord.pictured`). */
const picturedWords = (document: Document.ReadDocument): ReadonlySet<string> =>
  new Set(
    document.pages.flatMap((p) =>
      p.lines.flatMap((l) => l.words.filter((w) => w.pictured === true).map((w) => w.word.trim()))
    )
  )

/** The literal values the rules find for a skill's fields in a read document (pure). */
export const extractFields = (
  fields: ReadonlyArray<Skill.SkillField>,
  document: Document.ReadDocument
): Extractor.ExtractedFields => extract(fields, document).values

/** The local extractor: serves the model `local`. */
export const make: Effect.Effect<Ports.FieldExtractor["Service"]> = Effect.succeed(
  Ports.FieldExtractor.of({
    supports: (model) => model === MODEL,
    extract: Effect.fn("Local.extract")(function* (request: Extractor.ExtractRequest) {
      const started = yield* Clock.currentTimeMillis
      const { values, certainty } = extract(request.skill.fields, request.document)
      const finished = yield* Clock.currentTimeMillis
      return {
        values,
        certainty,
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
