/**
 * The submission guards that run before core's `Extractions.submit`: strict Base64, the file name, the type sniffed
 * from the bytes (never the name), the extraction mode and the model. Every refusal is a 400 `{error}`.
 */
import { type ApiKeys, type Extraction, type Extractions, type Idempotency, Ports, Skills } from "@legible/core"
import { Effect, Result } from "effect"
import * as Errors from "../Errors.js"
import * as Base64 from "./base64.js"
import { textProblem } from "./schemas.js"

/** The model every submission of a `test` key (the sandbox) runs: local rules, never a paid provider. */
export const SANDBOX_MODEL = "local"
/** Longest accepted `model` value. */
export const MAX_MODEL = 100
/** Longest accepted `file_name`, in characters. */
export const MAX_FILE_NAME = 255

/** The decoded body of `POST /v1/extractions`. */
export interface Body {
  readonly file_name: string
  readonly skill: string
  readonly file_base64: string
  readonly model?: string | null
  readonly extraction_mode?: Extraction.Mode | null
}

/** What the guards need from the server's configuration. */
export interface Settings {
  /** The model used when a live submission names none. */
  readonly defaultModel: string
  /** Attempts a job gets before it ends in `error`. */
  readonly maxAttempts: number
  /** The models this server serves, as named to a client whose model is not among them. */
  readonly models: ReadonlyArray<string>
  /** How long `Idempotency-Key`s are kept, and when an unfinished claim may be taken over. */
  readonly idempotency: Idempotency.Settings
}

const bad = (error: string) => Effect.fail(new Errors.BadRequest({ error }))

/** Validates a submission body into core's `SubmitInput`, in the order of the spec's checks. */
export const prepare = Effect.fn("Submission.prepare")(function* (
  caller: ApiKeys.Caller,
  body: Body,
  settings: Settings
) {
  const fileName = body.file_name.trim()
  if (fileName.length === 0) return yield* bad("file_name is required")
  if (fileName.length > MAX_FILE_NAME) return yield* bad(`file_name must be at most ${MAX_FILE_NAME} characters`)
  const problem = textProblem(fileName)
  if (problem !== undefined) return yield* bad(`file_name ${problem}`)
  if (body.skill.trim().length === 0) return yield* bad("skill is required")
  const decoded = Base64.decode(body.file_base64)
  if (Result.isFailure(decoded)) return yield* bad(decoded.failure)
  const document = decoded.success
  const mimeType = yield* (yield* Ports.DocumentReader)
    .identify(document)
    .pipe(
      Effect.catchTag("DocumentError", (error) =>
        error.permanent
          ? bad(`invalid file: ${error.message}`)
          : Effect.logError("document type sniffing failed").pipe(
              Effect.annotateLogs({ reason: error.reason }),
              Effect.andThen(Effect.fail(new Errors.InternalError({ error: Errors.INTERNAL_ERROR })))
            )
      )
    )
  const mode: Extraction.Mode = body.extraction_mode ?? "ocr_pdf"
  const requested = body.model ?? undefined
  if (requested !== undefined && (requested.length === 0 || requested.length > MAX_MODEL)) {
    return yield* bad(`model must be 1 to ${MAX_MODEL} characters`)
  }
  const model = caller.sandbox ? SANDBOX_MODEL : (requested ?? settings.defaultModel)
  if (!(yield* Ports.FieldExtractor).supports(model)) {
    return yield* bad(
      caller.sandbox
        ? `the sandbox model '${SANDBOX_MODEL}' is not available on this server`
        : `model '${Errors.echo(model)}' is not available on this server; available: ${settings.models.join(", ")}`
    )
  }
  // A value that cannot be a slug names no skill: 404 without a lookup.
  if (!Skills.isSlug(body.skill))
    return yield* new Errors.NotFound({ error: `skill '${Errors.echo(body.skill)}' not found` })
  return {
    fileName,
    skill: body.skill,
    document,
    mimeType,
    model,
    mode,
    maxAttempts: settings.maxAttempts
  } satisfies Extractions.SubmitInput
})
