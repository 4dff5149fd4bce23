/**
 * The HTTP error bodies of spec 7 and the mapping of core's domain errors onto them. Domain errors carry no HTTP;
 * each is turned into one of these classes at the edge, whose status annotation picks the response status and
 * whose fields are exactly the response body.
 */
import type { Errors as CoreErrors, Quotas, Skills } from "@legible/core"
import { Effect, Schema } from "effect"

/** An error whose body is `{error}`: its status and the description of the response in the OpenAPI document. */
const ErrorBody = <Self>(identifier: string, status: number, description: string) =>
  Schema.Error<Self>(identifier)({ error: Schema.String }, { httpApiStatus: status, description })

/** 400 `{error}`: a body, query or value the client got wrong; `error` says what. */
export class BadRequest extends ErrorBody<BadRequest>(
  "BadRequest",
  400,
  "The request is malformed; `error` says what is wrong."
) {}

/** 401 `{error}` of the `/v1` endpoints: a missing, malformed, unknown or revoked API key. */
export class Unauthorized extends ErrorBody<Unauthorized>(
  "Unauthorized",
  401,
  "Missing or invalid API key (`x-api-key`)."
) {}

/** 401 `{msg}` of the JWT endpoints (spec 7): a missing, invalid or expired bearer token. */
export class InvalidToken extends Schema.Error<InvalidToken>("InvalidToken")(
  { msg: Schema.String },
  { httpApiStatus: 401, description: "Missing or invalid bearer token (JWT)." }
) {}

/** 402 `{error, limit, used}`: the client's extraction quota for the period is used up. */
export class QuotaExhausted extends Schema.Error<QuotaExhausted>("QuotaExhausted")(
  { error: Schema.String, limit: Schema.Int, used: Schema.Int },
  { httpApiStatus: 402, description: "The extraction quota of the current period is used up." }
) {}

/** 403 `{error}`: the caller's role does not allow the action (extensions only). */
export class Forbidden extends ErrorBody<Forbidden>(
  "Forbidden",
  403,
  "The caller's role does not allow this action."
) {}

/** 404 `{error}`: the resource does not exist or belongs to another client (the same body either way). */
export class NotFound extends ErrorBody<NotFound>(
  "NotFound",
  404,
  "Not found (also for another client's resources)."
) {}

/**
 * 409 `{error}`: the resource already exists (extensions), or the first request with this `Idempotency-Key` is still
 * being handled (retry later).
 */
export class Conflict extends ErrorBody<Conflict>(
  "Conflict",
  409,
  "The resource already exists, or the first request with this `Idempotency-Key` is still being handled."
) {}

/** 422 `{error}`: the `Idempotency-Key` was already used with another request body. */
export class UnprocessableEntity extends ErrorBody<UnprocessableEntity>(
  "UnprocessableEntity",
  422,
  "The `Idempotency-Key` was already used for a request with another body."
) {}

/** 413 `{error}`: the request body exceeds the configured limit. */
export class PayloadTooLarge extends ErrorBody<PayloadTooLarge>(
  "PayloadTooLarge",
  413,
  "The request body exceeds the configured size limit."
) {}

/** 500 `{error: "internal error"}`: a failure of ours; the details go to the log, never to the client. */
export class InternalError extends ErrorBody<InternalError>("InternalError", 500, "Internal error; retry later.") {}

/** 503 `{error}`: a dependency (database, identity provider) is unavailable; retry later. */
export class ServiceUnavailable extends ErrorBody<ServiceUnavailable>(
  "ServiceUnavailable",
  503,
  "A dependency is temporarily unavailable; retry later."
) {}

/** The body of every 500. */
export const INTERNAL_ERROR = "internal error"
/** The body of a 503 caused by the database. */
export const STORAGE_UNAVAILABLE = "the service is temporarily unavailable; retry later"

/** Shortens a client-supplied value before it is echoed in an error message. */
export const echo = (value: string, max = 100): string => (value.length > max ? `${value.slice(0, max)}…` : value)

/** The domain errors the edge maps. */
export type DomainError =
  | CoreErrors.InvalidApiKey
  | CoreErrors.InvalidRequest
  | CoreErrors.ApiKeyNotFound
  | CoreErrors.SkillNotFound
  | CoreErrors.CatalogNotFound
  | CoreErrors.ExtractionNotFound
  | CoreErrors.DocumentNotFound
  | CoreErrors.QuotaExceeded
  | CoreErrors.StorageError
  | Quotas.Forbidden
  | Skills.SkillExists
  | CoreErrors.IdempotencyKeyReused
  | CoreErrors.IdempotencyKeyInFlight

/** The HTTP error each domain error becomes; any other error (already an HTTP error) is kept. */
export type ToHttp<E> = E extends CoreErrors.InvalidApiKey
  ? Unauthorized
  : E extends CoreErrors.InvalidRequest
    ? BadRequest
    : E extends
          | CoreErrors.ApiKeyNotFound
          | CoreErrors.SkillNotFound
          | CoreErrors.CatalogNotFound
          | CoreErrors.ExtractionNotFound
          | CoreErrors.DocumentNotFound
      ? NotFound
      : E extends CoreErrors.QuotaExceeded
        ? QuotaExhausted
        : E extends CoreErrors.StorageError
          ? InternalError | ServiceUnavailable
          : E extends Quotas.Forbidden
            ? Forbidden
            : E extends Skills.SkillExists | CoreErrors.IdempotencyKeyInFlight
              ? Conflict
              : E extends CoreErrors.IdempotencyKeyReused
                ? UnprocessableEntity
                : E

/** Maps one domain error to its HTTP error (statuses and bodies of spec 7; `Unavailable` storage → 503). */
export const toHttp = <E>(error: E): ToHttp<E> => {
  if (!isDomainError(error)) return error as ToHttp<E>
  const mapped = ((): DomainHttpError => {
    switch (error._tag) {
      case "InvalidApiKey":
        return new Unauthorized({ error: error.message })
      case "InvalidRequest":
        return new BadRequest({ error: error.message })
      case "ApiKeyNotFound":
        return new NotFound({ error: `API key '${echo(error.id)}' not found` })
      case "SkillNotFound":
        return new NotFound({ error: `skill '${echo(error.skill)}' not found` })
      case "CatalogNotFound":
        return new NotFound({ error: `catalog '${echo(error.id)}' not found` })
      case "ExtractionNotFound":
        return new NotFound({ error: `extraction '${echo(error.id)}' not found` })
      case "DocumentNotFound":
        return new NotFound({ error: `the document of extraction '${echo(error.id)}' was not found in storage` })
      case "QuotaExceeded":
        return new QuotaExhausted({
          error: "extraction quota exhausted for the current period",
          limit: error.limit,
          used: error.used
        })
      case "StorageError":
        return error.reason === "Unavailable"
          ? new ServiceUnavailable({ error: STORAGE_UNAVAILABLE })
          : new InternalError({ error: INTERNAL_ERROR })
      case "Forbidden":
        return new Forbidden({ error: error.message })
      case "SkillExists":
        return new Conflict({ error: `skill '${echo(error.slug)}' already exists; use PUT to store a new version` })
      case "IdempotencyKeyInFlight":
        return new Conflict({
          error: "a request with this Idempotency-Key is still being handled; retry once it has been answered"
        })
      case "IdempotencyKeyReused":
        return new UnprocessableEntity({
          error: "this Idempotency-Key was already used for a request with another body; use a new key"
        })
    }
  })()
  return mapped as ToHttp<E>
}

type DomainHttpError = ToHttp<DomainError>

const DOMAIN_TAGS: ReadonlySet<string> = new Set([
  "InvalidApiKey",
  "InvalidRequest",
  "ApiKeyNotFound",
  "SkillNotFound",
  "CatalogNotFound",
  "ExtractionNotFound",
  "DocumentNotFound",
  "QuotaExceeded",
  "StorageError",
  "Forbidden",
  "SkillExists",
  "IdempotencyKeyReused",
  "IdempotencyKeyInFlight"
])

const isDomainError = (error: unknown): error is DomainError =>
  typeof error === "object" &&
  error !== null &&
  "_tag" in error &&
  typeof error._tag === "string" &&
  DOMAIN_TAGS.has(error._tag)

/**
 * Maps the domain errors of a use case to HTTP errors (others pass through), logging infrastructure failures
 * (their message and reason, never request data) before they become a bare 500/503.
 */
export const respond = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, ToHttp<E>, R> =>
  effect.pipe(
    Effect.tapError((error) =>
      isDomainError(error) && error._tag === "StorageError"
        ? Effect.logError("storage failure").pipe(Effect.annotateLogs({ reason: error.reason, error: error.message }))
        : Effect.void
    ),
    Effect.mapError(toHttp)
  )
