import { Schema } from "effect"

/** An infrastructure failure of a storage port (database, blob store, queue). Mapped to 500/503 at the edge. */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  reason: Schema.Literals(["Unavailable", "Conflict", "Corrupt", "Unknown"]),
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/** The API key given on `/v1` is missing, malformed, unknown or revoked. */
export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", {
  message: Schema.String
}) {}

/** No API key with this id belongs to the caller's client (also used for other clients' keys). */
export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", {
  id: Schema.String
}) {}

/** The caller's client has no skill with this slug or id. */
export class SkillNotFound extends Schema.TaggedError<SkillNotFound>()("SkillNotFound", {
  skill: Schema.String
}) {}

/** The caller's client has no catalog with this id. */
export class CatalogNotFound extends Schema.TaggedError<CatalogNotFound>()("CatalogNotFound", {
  id: Schema.String
}) {}

/** No extraction with this id is visible to the caller (missing, another client's, or the other sandbox). */
export class ExtractionNotFound extends Schema.TaggedError<ExtractionNotFound>()("ExtractionNotFound", {
  id: Schema.String
}) {}

/** The extraction exists but its stored document does not. */
export class DocumentNotFound extends Schema.TaggedError<DocumentNotFound>()("DocumentNotFound", {
  id: Schema.String
}) {}

/** The client's extraction quota for the current period is used up. */
export class QuotaExceeded extends Schema.TaggedError<QuotaExceeded>()("QuotaExceeded", {
  limit: Schema.Int,
  used: Schema.Int
}) {}

/** A request that the domain rejects as malformed (400-class): a bad field, value or combination. */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>()("InvalidRequest", {
  message: Schema.String
}) {}

/** The job's lease was lost (expired and taken by another worker): the stale worker must change nothing. */
export class LeaseLost extends Schema.TaggedError<LeaseLost>()("LeaseLost", {
  jobId: Schema.String
}) {}

/** An `Idempotency-Key` already used by the client for a request with another body (422). */
export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {
  key: Schema.String
}) {}

/**
 * The first request with this `Idempotency-Key` is still being handled (409), or a retry took the key over from a
 * request that stalled past the takeover bound (the stalled one then changes nothing).
 */
export class IdempotencyKeyInFlight extends Schema.TaggedError<IdempotencyKeyInFlight>()("IdempotencyKeyInFlight", {
  key: Schema.String
}) {}
