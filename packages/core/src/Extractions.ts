import { Effect, Result } from "effect"
import type { Caller } from "./ApiKeys.js"
import * as ApiKeys from "./ApiKeys.js"
import { DocumentNotFound, ExtractionNotFound, InvalidRequest, SkillNotFound } from "./Errors.js"
import * as Extraction from "./Extraction.js"
import { IdGenerator } from "./IdGenerator.js"
import * as ListQuery from "./ListQuery.js"
import { DocumentStore, ExtractionStore, type IdempotencyClaim, QuotaStore, type Scope, SkillStore } from "./Ports.js"
import * as StoredResult from "./StoredResult.js"
import * as Timestamp from "./Timestamp.js"
import * as Uuid from "./Uuid.js"

/** Longest accepted original file name, in characters. */
export const MAX_FILE_NAME = 255

/** A validated submission: the decoded document with its sniffed type, and the resolved model and mode. */
export interface SubmitInput {
  readonly fileName: string
  readonly skill: string
  readonly document: Uint8Array
  readonly mimeType: string
  readonly model: string
  readonly mode: Extraction.Mode
  /** Attempts the job gets before ending in `error`. */
  readonly maxAttempts: number
  /** The `Idempotency-Key` claim the submission answers (see `Idempotency.run`). */
  readonly idempotency?: IdempotencyClaim | undefined
}

/**
 * Queues an extraction (spec 4.3): the skill must exist (404), live keys reserve one unit of quota (402),
 * then the row, the document and the job are written together. A failed write gives the quota back.
 */
export const submit = Effect.fn("Extractions.submit")(function* (caller: Caller, input: SubmitInput) {
  const fileName = input.fileName.trim()
  if (fileName.length === 0) return yield* new InvalidRequest({ message: "file_name is required" })
  if (fileName.length > MAX_FILE_NAME) {
    return yield* new InvalidRequest({ message: `file_name must be at most ${MAX_FILE_NAME} characters` })
  }
  const skill = yield* (yield* SkillStore).findBySlug(caller.clientId, input.skill)
  if (skill === undefined) return yield* new SkillNotFound({ skill: input.skill })
  const now = yield* Timestamp.now
  const quotas = yield* QuotaStore
  if (!caller.sandbox) yield* quotas.reserve(caller.clientId, now)
  const id = (yield* IdGenerator).uuid()
  yield* (yield* ExtractionStore)
    .submit({
      record: {
        id,
        clientId: caller.clientId,
        skillId: skill.id,
        skillSlug: skill.slug,
        skillName: skill.name,
        skillVersion: skill.version,
        originName: fileName,
        mimeType: input.mimeType,
        sizeBytes: input.document.byteLength,
        sandbox: caller.sandbox,
        model: input.model,
        mode: input.mode,
        status: "en cola",
        errorMessage: null,
        createdAt: now,
        lastModification: now,
        lastUser: caller.user,
        archived: false,
        attempts: 0,
        result: null
      },
      document: input.document,
      maxAttempts: input.maxAttempts,
      idempotency: input.idempotency
    })
    .pipe(Effect.tapError(() => (caller.sandbox ? Effect.void : quotas.release(caller.clientId, now))))
  return { extraction_id: id }
})

/** Lists the caller's extractions (spec 4.3); `count` is the number of all matches, ignoring `limit`. */
export const list = Effect.fn("Extractions.list")(function* (caller: Caller, query: ListQuery.RawQuery) {
  const filter = ListQuery.parse(query)
  if (Result.isFailure(filter)) return yield* filter.failure
  if (filter.success.matchesNothing) return { extractions: [], count: 0 }
  const page = yield* (yield* ExtractionStore).list(caller, filter.success)
  return { extractions: page.items.map(Extraction.toSummary), count: page.count }
})

const find = Effect.fnUntraced(function* (scope: Scope, id: string) {
  const record = yield* (yield* ExtractionStore).get(scope, id)
  if (record === undefined) return yield* new ExtractionNotFound({ id })
  return record
})

/** The single read (spec 4.4). */
export const read = Effect.fn("Extractions.read")(function* (caller: Caller, id: string) {
  return Extraction.toExtraction(yield* find(caller, id))
})

/** The detailed read with OCR words (spec 4.4, 2.7). */
export const readDetailed = Effect.fn("Extractions.readDetailed")(function* (caller: Caller, id: string) {
  return Extraction.toDetailed(yield* find(caller, id))
})

/**
 * The single or detailed read (spec 4.4) for a presented API key, as the JSON to send (text or its UTF-8 bytes,
 * `StoredResult.Body`): the key is checked and the extraction read in one store call (`ExtractionStore.readAs`),
 * and the stored result is sent as stored. A
 * malformed, unknown or revoked key fails first (`InvalidApiKey`), whatever the id.
 */
export const readAs = Effect.fn("Extractions.readAs")(function* (
  key: string | undefined,
  id: string,
  view: StoredResult.View
) {
  const hash = ApiKeys.lookupHash(key)
  if (Result.isFailure(hash)) return yield* hash.failure
  // A path id that cannot exist names nothing: the key alone decides between 401 and 404.
  if (!Uuid.isUuid(id)) {
    yield* ApiKeys.authenticate(key)
    return yield* new ExtractionNotFound({ id })
  }
  const read = yield* (yield* ExtractionStore).readAs(hash.success, id.toLowerCase(), view)
  if (read === undefined) return yield* ApiKeys.unknownKey()
  yield* ApiKeys.accept(read.key)
  if (read.found === undefined) return yield* new ExtractionNotFound({ id })
  return StoredResult.render(read.found.record, read.found.stored, view)
})

/**
 * The list (spec 4.3) for a presented API key, as the JSON text to send: key and page in one store call
 * (`ExtractionStore.listAs`). The key is checked before the query, so a bad key is a 401 whatever the query.
 */
export const listAs = Effect.fn("Extractions.listAs")(function* (key: string | undefined, query: ListQuery.RawQuery) {
  const hash = ApiKeys.lookupHash(key)
  if (Result.isFailure(hash)) return yield* hash.failure
  const filter = ListQuery.parse(query)
  if (Result.isFailure(filter) || filter.success.matchesNothing) {
    yield* ApiKeys.authenticate(key)
    if (Result.isFailure(filter)) return yield* filter.failure
    return StoredResult.renderList({ items: [], count: 0 })
  }
  const listed = yield* (yield* ExtractionStore).listAs(hash.success, filter.success)
  if (listed === undefined) return yield* ApiKeys.unknownKey()
  yield* ApiKeys.accept(listed.key)
  return StoredResult.renderList(listed.found)
})

/** The original document, with the name used at upload (spec 4.4). */
export const download = Effect.fn("Extractions.download")(function* (caller: Caller, id: string) {
  yield* find(caller, id)
  const document = yield* (yield* DocumentStore).get(caller, id)
  if (document === undefined) return yield* new DocumentNotFound({ id })
  return document
})

/**
 * The scope a status switch acts in (spec 4.6): `client_id` is honoured only for a `global_admin`; anyone
 * else keeps their own client whatever they pass.
 */
export const scopeFor = (caller: Caller, clientIdParam: string | undefined): Scope =>
  caller.role === "global_admin" && clientIdParam !== undefined && clientIdParam.length > 0
    ? { clientId: clientIdParam, sandbox: caller.sandbox }
    : caller

/** Switches between `completado` and `incompleto` (spec 3.1, 4.6). */
export const switchStatus = Effect.fn("Extractions.switchStatus")(function* (
  caller: Caller,
  id: string,
  body: Extraction.StatusRequest,
  clientIdParam?: string
) {
  if (body.message !== undefined && typeof body.message !== "string") {
    return yield* new InvalidRequest({ message: "message must be a string" })
  }
  const scope = scopeFor(caller, clientIdParam)
  const store = yield* ExtractionStore
  // Compare-and-set: a concurrent switch between the read and the write is retried once against the new status.
  for (let round = 0; round < 2; round++) {
    const current = yield* find(scope, id)
    const change = Extraction.switchStatus(current.status, body, yield* Timestamp.now, {
      clientId: caller.clientId,
      id: caller.user.id
    })
    if (Result.isFailure(change)) return yield* change.failure
    const updated = yield* store.switchStatus(scope, id, current.status, change.success)
    if (updated !== undefined) {
      return {
        message: `extraction status changed to '${updated.status}'`,
        extraction: {
          id: updated.id,
          status: updated.status,
          last_modification: updated.lastModification,
          last_user_id: updated.lastUser.id,
          ...(updated.errorMessage !== null ? { error_message: updated.errorMessage } : {})
        }
      }
    }
  }
  return yield* new InvalidRequest({ message: "the extraction changed during the request; try again" })
})
