/**
 * The middleware of the contract: JWT security on the key and operator endpoints, API-key security on `/v1`, and
 * the request-error middleware every endpoint carries. Only their keys live here; `Auth` implements them.
 */
import type { ApiKeys, Directory } from "@legible/core"
import { Context, type Redacted } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import * as Errors from "./Errors.js"

/** The user a verified JWT names (claims `sub`, `name`, `email`, `client_id`, `role`). */
export class CurrentUser extends Context.Service<CurrentUser, Directory.User>()("@legible/adapters-http/CurrentUser") {}

/** The principal of a `/v1` call: the API key's client and sandbox, acting as the key's creator. */
export class CurrentCaller extends Context.Service<CurrentCaller, ApiKeys.Caller>()(
  "@legible/adapters-http/CurrentCaller"
) {}

/** `Authorization: Bearer <JWT>`: 401 `{msg}` when missing or invalid, 503 when the identity provider is down. */
export class JwtAuth extends HttpApiMiddleware.Service<JwtAuth, { provides: CurrentUser }>()(
  "@legible/adapters-http/JwtAuth",
  {
    error: [Errors.InvalidToken, Errors.ServiceUnavailable],
    security: {
      bearer: HttpApiSecurity.bearer.pipe(
        HttpApiSecurity.annotateMerge(
          OpenApi.annotations({
            description:
              "A JWT (HS256 with the shared secret, or RS256/ES256/EdDSA from the configured JWKS). Claims: `sub` " +
              "(user id), `client_id` (the client), optional `name`, `email` and `role` (`user` or `global_admin`); " +
              "`exp` is required; 30 s clock tolerance."
          })
        )
      )
    }
  }
) {}

/** `x-api-key: <API key>`: 401 `{error}` when missing, malformed, unknown or revoked; 500/503 if the lookup fails. */
export class ApiKeyAuth extends HttpApiMiddleware.Service<ApiKeyAuth, { provides: CurrentCaller }>()(
  "@legible/adapters-http/ApiKeyAuth",
  {
    error: [Errors.Unauthorized, Errors.InternalError, Errors.ServiceUnavailable],
    security: {
      apiKey: HttpApiSecurity.apiKey({ in: "header", key: "x-api-key" }).pipe(
        HttpApiSecurity.annotateMerge(
          OpenApi.annotations({ description: "An API key created through `POST /api/api-keys/`." })
        )
      )
    }
  }
) {}

/** The `x-api-key` a `/v1` read presented, not yet checked: the read checks it in its own query. */
export class PresentedKey extends Context.Service<PresentedKey, Redacted.Redacted<string>>()(
  "@legible/adapters-http/PresentedKey"
) {}

/**
 * `x-api-key` for the reads (single, detailed, list): the same scheme and 401 `{error}` as `ApiKeyAuth`, but the
 * key is checked by the read itself, in the statement that reads the row (one round trip instead of two).
 */
export class ApiKeyRead extends HttpApiMiddleware.Service<ApiKeyRead, { provides: PresentedKey }>()(
  "@legible/adapters-http/ApiKeyRead",
  {
    error: [Errors.Unauthorized, Errors.InternalError, Errors.ServiceUnavailable],
    security: { apiKey: ApiKeyAuth.security.apiKey }
  }
) {}

/**
 * Carried by every endpoint: a request that fails decoding becomes 400 `{error}` saying what is wrong (instead of
 * effect's empty 400), and the infrastructure failures every handler may meet are declared as 500 and 503 `{error}`.
 */
export class RequestErrors extends HttpApiMiddleware.Service<RequestErrors>()("@legible/adapters-http/RequestErrors", {
  error: [Errors.BadRequest, Errors.InternalError, Errors.ServiceUnavailable]
}) {}
