import { Result, Schema } from "effect"
import type { ClientId } from "./Directory.js"
import { InvalidRequest } from "./Errors.js"
import { DetailedField, type DetailedField as DetailedFieldType, Field, sortFields, toPlain } from "./Field.js"
import { Timestamp } from "./Timestamp.js"

/** The statuses of an extraction (spec 3.1). */
export const Status = Schema.Literals(["en cola", "procesando", "completado", "incompleto", "error"])
export type Status = typeof Status.Type
export const statuses: ReadonlyArray<Status> = Status.literals

/** Statuses after which processing is over. */
export const isFinal = (status: Status): boolean => status !== "en cola" && status !== "procesando"

/** How the document reaches the model (DESIGN.md "Models and modes"). */
export const Mode = Schema.Literals(["ocr_pdf", "ocr_pipeline_md", "ocr_only", "pdf_only"])
export type Mode = typeof Mode.Type

/**
 * Usage figures of an extraction (spec 2.6). `duration` is the whole processing time in seconds: from when a worker
 * took the job to when its result was ready (reading, OCR, the model, catalogs, checks), not the time queued.
 */
export const Usage = Schema.Struct({
  tokens_consumidos: Schema.Int.annotate({ description: "Tokens consumed: prompt plus response." }),
  prompt_tokens: Schema.Int.annotate({ description: "Tokens sent to the model." }),
  response_tokens: Schema.Int.annotate({ description: "Tokens the model answered with." }),
  duration: Schema.Number.annotate({
    description:
      "Processing time in seconds, from when a worker took the extraction to when its result was ready (reading, " +
      "OCR, the model, catalog matching and checks); time spent queued is not counted."
  }),
  model: Schema.String.annotate({ description: "The model that extracted the values (`local`: rules, no model)." })
})
export type Usage = typeof Usage.Type

/** An OCR word (spec 2.7). Coordinates are PDF points with a top-left origin on the (rotated) page. */
export const Word = Schema.Struct({
  id: Schema.String,
  word: Schema.String,
  x0: Schema.Number,
  y0: Schema.Number,
  x1: Schema.Number,
  y1: Schema.Number,
  page: Schema.Int
})
export type Word = typeof Word.Type

/**
 * A page read with less than all of its content, and why (an image over the pixel cap left out of its render, a
 * page that could not be rendered): readers degrade such a page rather than refuse the document. Extension.
 */
export const DegradedPage = Schema.Struct({
  /** 1-based page number. */
  page: Schema.Int,
  /** What was left out, in a sentence. */
  reason: Schema.String
})
export type DegradedPage = typeof DegradedPage.Type

const nullable = <S extends Schema.Top>(schema: S) => Schema.NullOr(schema)

/**
 * What a decoded code or embedded e-invoice states, concept by concept (the same for every kind of code; mirrors
 * `@legible/codes`' `Codes.facts`): each member null when the code does not state it. Stored as read.
 */
export const CodeFacts = Schema.Struct({
  issuerTaxId: nullable(Schema.String),
  buyerTaxId: nullable(Schema.String),
  documentNumber: nullable(Schema.String),
  /** ISO date (YYYY-MM-DD). */
  issueDate: nullable(Schema.String),
  total: nullable(Schema.Finite),
  /** ISO 4217 code where the code states one (`ARS`, `EUR`…), else as written. */
  currency: nullable(Schema.String),
  iban: nullable(Schema.String)
})
export type CodeFacts = typeof CodeFacts.Type

/** A rectangle in the words' coordinates: PDF points, origin at the top-left corner of the displayed page. */
export const CodeBox = Schema.Struct({ x0: Schema.Finite, y0: Schema.Finite, x1: Schema.Finite, y1: Schema.Finite })
export type CodeBox = typeof CodeBox.Type

/**
 * A machine-readable code the reader found: a barcode or QR on a page, or an e-invoice file embedded in a PDF, with
 * what it decoded to. Plain data: core does not depend on the decoders. Extension.
 */
export const ReadCode = Schema.Struct({
  /** 1-based page; null for a file embedded in the document rather than printed or attached on a page. */
  page: nullable(Schema.Int),
  /** Where on the page; null for a file embedded in the document. */
  box: nullable(CodeBox),
  /** The barcode format (`QRCode`, `PDF417`…), or `embedded:<file name>` for an embedded file. */
  format: Schema.String,
  /** The payload as read (an embedded file: its first 4,096 characters). */
  text: Schema.String,
  /** What it decoded to: `Afip`, `VeriFactu`, `Cfdi`, `Sunat`, `Epc`, `Invoice`, or `Unknown` (kept raw). */
  kind: Schema.String,
  facts: CodeFacts,
  /** What could not be read, one line each (`truncated: …`); empty when the code read whole. */
  problems: Schema.Array(Schema.String)
})
export type ReadCode = typeof ReadCode.Type

/** A code as the detailed read shows it (snake_case members, like the rest of the API). Extension. */
export const CodeFound = Schema.Struct({
  page: nullable(Schema.Int),
  box: nullable(CodeBox),
  format: Schema.String,
  text: Schema.String,
  kind: Schema.String,
  facts: Schema.Struct({
    issuer_tax_id: nullable(Schema.String),
    buyer_tax_id: nullable(Schema.String),
    document_number: nullable(Schema.String),
    issue_date: nullable(Schema.String),
    total: nullable(Schema.Finite),
    currency: nullable(Schema.String),
    iban: nullable(Schema.String)
  }),
  problems: Schema.Array(Schema.String)
})
export type CodeFound = typeof CodeFound.Type

/** The API form of a stored code. */
export const toCodeFound = ({ facts, ...code }: ReadCode): CodeFound => ({
  ...code,
  facts: {
    issuer_tax_id: facts.issuerTaxId,
    buyer_tax_id: facts.buyerTaxId,
    document_number: facts.documentNumber,
    issue_date: facts.issueDate,
    total: facts.total,
    currency: facts.currency,
    iban: facts.iban
  }
})

/** An item of the list response (spec 2.2). */
export const Summary = Schema.Struct({
  id: Schema.String,
  origin_name: Schema.String,
  extraction_date: Timestamp,
  last_modification: Timestamp,
  last_user_id: Schema.String,
  last_user_name: Schema.String,
  last_user_email: Schema.String,
  status: Status,
  skill_name: Schema.String,
  habilidad_id: Schema.String
})
export type Summary = typeof Summary.Type

// Spec 2.3 lists the summary's members without `habilidad_id`: the single reads carry exactly those.
const { habilidad_id: _skillId, ...readMembers } = Summary.fields

const resultMembers = {
  ...readMembers,
  /** legible includes the stored message of `incompleto` and `error` extractions (spec leaves it open). */
  error_message: Schema.optionalKey(Schema.String)
}

/** The single read (spec 2.3): `fields` and `usage` are omitted while queued or processing. */
export const Extraction = Schema.Struct({
  ...resultMembers,
  fields: Schema.optionalKey(Schema.Array(Field)),
  usage: Schema.optionalKey(Usage)
})
export type Extraction = typeof Extraction.Type

/** The detailed read (spec 2.7). */
export const DetailedExtraction = Schema.Struct({
  ...resultMembers,
  fields: Schema.optionalKey(Schema.Array(DetailedField)),
  usage: Schema.optionalKey(Usage),
  words: Schema.optionalKey(Schema.Record(Schema.String, Schema.Array(Word))),
  full_text: Schema.optionalKey(Schema.String),
  num_pages: Schema.optionalKey(Schema.Int),
  degraded_pages: Schema.optionalKey(
    Schema.Array(DegradedPage).annotate({
      description:
        "Extension: the pages read with part of their content left out (an image over the pixel cap left out of " +
        "the page's render, a page that could not be rendered), each with its number and why; absent when none."
    })
  ),
  codes: Schema.optionalKey(
    Schema.Array(CodeFound).annotate({
      description:
        "Extension: the machine-readable codes the document carries — QR codes and 2D barcodes found on its pages " +
        "(page, box in the words' coordinates, format, text) and e-invoice XML files embedded in a PDF (format " +
        "`embedded:<name>`, no page) — each with what it decoded to: its kind (`Afip`, `VeriFactu`, `Cfdi`, " +
        "`Sunat`, `Epc`, `Invoice`, `Unknown`), the facts it states and what could not be read; absent when none."
    })
  )
})
export type DetailedExtraction = typeof DetailedExtraction.Type

/** What processing produces: the stored result of a finished extraction. */
export interface ExtractionResult {
  readonly fields: ReadonlyArray<DetailedFieldType>
  readonly usage: Usage
  readonly words: Readonly<Record<string, ReadonlyArray<Word>>>
  readonly fullText: string
  readonly numPages: number
  /** The reader's degraded pages (absent from results stored before they were recorded, and when none). */
  readonly degradedPages?: ReadonlyArray<DegradedPage>
  /** The reader's codes (absent from results stored before they were recorded, and when none). */
  readonly codes?: ReadonlyArray<ReadCode>
  /**
   * Why the skill's review setting sends the result to a person: the extraction then ends `incompleto` with this as
   * its `error_message` (kept there, not in the stored result). Absent: it ends `completado`.
   */
  readonly needsReview?: string | undefined
}

/** The stored result and the status and message it ends in. */
export const settled = (
  result: ExtractionResult
): {
  readonly status: "completado" | "incompleto"
  readonly errorMessage: string | null
  readonly result: ExtractionResult
} => {
  const { needsReview, ...stored } = result
  return needsReview === undefined
    ? { status: "completado", errorMessage: null, result: stored }
    : { status: "incompleto", errorMessage: needsReview, result: stored }
}

/** The user an action is recorded against (`last_user_*`). */
export interface Actor {
  readonly id: string
  readonly name: string
  readonly email: string
}

/** An extraction as stored. */
export interface ExtractionRecord {
  readonly id: string
  readonly clientId: ClientId
  readonly skillId: string
  readonly skillSlug: string
  readonly skillName: string
  readonly skillVersion: number
  readonly originName: string
  readonly mimeType: string
  readonly sizeBytes: number
  /** Sandbox flag: created with a `test` key; visible only to test keys (DESIGN.md). */
  readonly sandbox: boolean
  readonly model: string
  readonly mode: Mode
  readonly status: Status
  readonly errorMessage: string | null
  readonly createdAt: Timestamp
  readonly lastModification: Timestamp
  readonly lastUser: Actor
  readonly archived: boolean
  readonly attempts: number
  readonly result: ExtractionResult | null
}

/** The list item of a stored extraction. */
export const toSummary = (r: ExtractionRecord): Summary => ({
  id: r.id,
  origin_name: r.originName,
  extraction_date: r.createdAt,
  last_modification: r.lastModification,
  last_user_id: r.lastUser.id,
  last_user_name: r.lastUser.name,
  last_user_email: r.lastUser.email,
  status: r.status,
  skill_name: r.skillName,
  habilidad_id: r.skillId
})

const withResult = (r: ExtractionRecord) => {
  const { habilidad_id: _skillId, ...members } = toSummary(r)
  return {
    ...members,
    ...(r.errorMessage !== null && (r.status === "incompleto" || r.status === "error")
      ? { error_message: r.errorMessage }
      : {})
  }
}

/** The single read of a stored extraction; fields sorted by `order` at every depth (spec 4.5), whoever stored them. */
export const toExtraction = (r: ExtractionRecord): Extraction =>
  r.result === null || !isFinal(r.status) || r.status === "error"
    ? withResult(r)
    : { ...withResult(r), fields: toPlain(sortFields(r.result.fields)), usage: r.result.usage }

/** The detailed read of a stored extraction; fields sorted like the single read. */
export const toDetailed = (r: ExtractionRecord): DetailedExtraction =>
  r.result === null || !isFinal(r.status) || r.status === "error"
    ? withResult(r)
    : {
        ...withResult(r),
        fields: sortFields(r.result.fields),
        usage: r.result.usage,
        words: r.result.words,
        full_text: r.result.fullText,
        num_pages: r.result.numPages,
        ...(r.result.degradedPages !== undefined && r.result.degradedPages.length > 0
          ? { degraded_pages: r.result.degradedPages }
          : {}),
        ...(r.result.codes !== undefined && r.result.codes.length > 0 ? { codes: r.result.codes.map(toCodeFound) } : {})
      }

/** The body of `PATCH …/status` (spec 4.6), before validation. */
export interface StatusRequest {
  readonly status: unknown
  readonly message?: string | undefined
}

/** The state a status switch writes. */
export interface StatusChange {
  readonly status: "completado" | "incompleto"
  readonly errorMessage: string | null
  readonly lastModification: Timestamp
  readonly lastUserId: string
  /**
   * The acting user's own client: users are keyed by (client, id), and a `global_admin` may act in another
   * client's scope, so the scope does not say which client's user acted.
   */
  readonly lastUserClientId: string
}

/**
 * The status switch of spec 3.1. Only `completado` ⇄ `incompleto` may be requested, and only on an
 * extraction that is `completado` or `incompleto`; switching to `incompleto` stores `message` (or none),
 * switching to `completado` clears it. A request for the current status is applied the same way (PATCH is
 * idempotent), so it refreshes `last_modification` and the message.
 */
export const switchStatus = (
  current: Status,
  request: StatusRequest,
  now: Timestamp,
  user: { readonly clientId: string; readonly id: string }
): Result.Result<StatusChange, InvalidRequest> => {
  if (request.status !== "completado" && request.status !== "incompleto") {
    return Result.fail(new InvalidRequest({ message: "status must be 'completado' or 'incompleto'" }))
  }
  if (current !== "completado" && current !== "incompleto") {
    return Result.fail(
      new InvalidRequest({
        message: `an extraction in status '${current}' cannot be switched; only 'completado' and 'incompleto' can`
      })
    )
  }
  return Result.succeed({
    status: request.status,
    errorMessage: request.status === "incompleto" ? (request.message ?? null) : null,
    lastModification: now,
    lastUserId: user.id,
    lastUserClientId: user.clientId
  })
}
