/**
 * `POST /v1/extractions` with its optional `Idempotency-Key` (IETF httpapi draft): the guards, then core's submission
 * either directly or once per key through `Idempotency.run`, answered 202 with `Location` (and
 * `Idempotent-Replayed: true` on a replay).
 */
import { createHash } from "node:crypto"
import { type ApiKeys, Errors as CoreErrors, Extractions, Idempotency, type Ports } from "@legible/core"
import { Effect } from "effect"
import { HttpApiSchema } from "effect/http-api"
import * as Submission from "./submission.js"

/**
 * The fingerprint of a submission body as decoded, so it does not change when the same request is encoded anew
 * (member order, whitespace, escapes, `null` for an absent optional member, line breaks in the Base64, which the
 * server ignores): SHA-256 over the JSON of the named members and then the Base64 text itself.
 */
export const fingerprint = (body: Submission.Body): string =>
  createHash("sha256")
    .update(JSON.stringify([body.file_name, body.skill, body.model ?? null, body.extraction_mode ?? null]))
    .update("\n")
    .update(body.file_base64.replace(/[\r\n]/g, ""))
    .digest("hex")

const answer = (extractionId: string, replayed: boolean) =>
  HttpApiSchema.withHeaders({
    body: { extraction_id: extractionId },
    headers: {
      location: `/v1/extractions/${extractionId}`,
      ...(replayed ? { "idempotent-replayed": "true" as const } : {})
    }
  })

/** The services a submission uses. */
export type Services =
  | Ports.IdempotencyStore
  | Ports.SkillStore
  | Ports.QuotaStore
  | Ports.ExtractionStore
  | Ports.DocumentReader
  | Ports.FieldExtractor

/** Validates and queues a submission, once per `Idempotency-Key` when the header is given. */
export const submit = Effect.fn("Submission.submit")(function* (
  caller: ApiKeys.Caller,
  body: Submission.Body,
  keyHeader: string | undefined,
  settings: Submission.Settings
) {
  const key = keyHeader === undefined ? undefined : Idempotency.parseKey(keyHeader)
  if (key instanceof CoreErrors.InvalidRequest) return yield* key
  const queue = (claim?: Ports.IdempotencyClaim) =>
    Submission.prepare(caller, body, settings).pipe(
      Effect.flatMap((input) => Extractions.submit(caller, { ...input, idempotency: claim })),
      Effect.map((submitted) => submitted.extraction_id)
    )
  if (key === undefined) return answer(yield* queue(), false)
  // The key is claimed before the body is checked: a replay costs no Base64 decoding and no type sniffing, and a
  // refused body releases the key like any other failure.
  const outcome = yield* Idempotency.run(caller, key, fingerprint(body), settings.idempotency, queue)
  return answer(outcome.extractionId, outcome.replayed)
})
