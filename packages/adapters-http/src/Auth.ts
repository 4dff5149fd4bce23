/**
 * Authentication at the edge: JWTs (jose) for the key and operator endpoints, API keys (core `ApiKeys`) for `/v1`.
 *
 * JWT configuration is one of:
 * - `Secret`: HS256 with a shared secret of at least 32 bytes (optional `issuer` and `audience` are enforced);
 * - `Jwks`: RS256, ES256 or EdDSA with keys from a JWKS URL; `issuer` and `audience` are required.
 * Algorithms are pinned, `exp` and `sub` are required and the clock tolerance is 30 s. Claims map to the user:
 * `sub` → id, `client_id` → client, `name` (default: `sub`), `email` (default empty), `role` (`user` by default,
 * or `global_admin`). Every failure is a 401 `{msg}`; a JWKS endpoint that cannot be reached is a 503 `{error}`.
 */
import { ApiKeys, type Directory, Ports } from "@legible/core"
import { Clock, Effect, Layer, Redacted, Result, Schema } from "effect"
import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from "jose"
import * as Errors from "./Errors.js"
import { ApiKeyAuth, ApiKeyRead, CurrentCaller, CurrentUser, JwtAuth, PresentedKey } from "./Security.js"

/** The asymmetric algorithms accepted from a JWKS. */
export type JwksAlgorithm = "RS256" | "ES256" | "EdDSA"

/** How JWTs are verified. */
export type Config =
  | {
      readonly _tag: "Secret"
      /** The HS256 shared secret: at least 32 bytes of UTF-8. */
      readonly secret: Redacted.Redacted<string> | string
      readonly issuer?: string | undefined
      readonly audience?: string | undefined
    }
  | {
      readonly _tag: "Jwks"
      readonly url: string | URL
      readonly issuer: string
      readonly audience: string
      /** Default: all of RS256, ES256, EdDSA. */
      readonly algorithms?: ReadonlyArray<JwksAlgorithm> | undefined
      /** How long a JWKS fetch may take; default 5000 ms. */
      readonly timeoutMs?: number | undefined
    }

/** Shortest accepted HS256 secret, in bytes. */
export const MIN_SECRET_BYTES = 32
/** Clock skew tolerated on `exp`, `nbf` and `iat`, in seconds. */
export const CLOCK_TOLERANCE_SECONDS = 30
/** Longest token accepted for verification; longer ones are refused before any parsing. */
export const MAX_TOKEN_LENGTH = 8192
/** The claim names read from a token. */
export const CLAIMS = { id: "sub", clientId: "client_id", name: "name", email: "email", role: "role" } as const

/** The configuration of the HTTP layer (JWT verification, limits) is unusable: the layer fails with this message. */
export class ConfigError extends Schema.TaggedError<ConfigError>()("ConfigError", {
  message: Schema.String
}) {}

const JWKS_ALGORITHMS: ReadonlyArray<JwksAlgorithm> = ["RS256", "ES256", "EdDSA"]
/** 1 to 200 characters, none of them a control character. */
const isId = (value: unknown): value is string => {
  if (typeof value !== "string" || value.length === 0 || value.length > 200) return false
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return false
  }
  return true
}

const optionalString = (payload: JWTPayload, claim: string): Result.Result<string | undefined, string> => {
  const value = payload[claim]
  if (value === undefined) return Result.succeed(undefined)
  return typeof value === "string" && value.length <= 500
    ? Result.succeed(value)
    : Result.fail(`Invalid token: "${claim}" claim must be a string`)
}

/** The user a verified token names (see the module comment for the claims). */
export const userFromClaims = (payload: JWTPayload): Result.Result<Directory.User, string> => {
  const id = payload.sub
  const clientId = payload[CLAIMS.clientId]
  if (!isId(id)) return Result.fail('Invalid token: "sub" claim must be 1 to 200 characters')
  if (!isId(clientId)) {
    return Result.fail('Invalid token: "client_id" claim must be 1 to 200 characters')
  }
  const name = optionalString(payload, CLAIMS.name)
  if (Result.isFailure(name)) return Result.fail(name.failure)
  const email = optionalString(payload, CLAIMS.email)
  if (Result.isFailure(email)) return Result.fail(email.failure)
  const role = payload[CLAIMS.role] ?? "user"
  if (role !== "user" && role !== "global_admin") {
    return Result.fail('Invalid token: "role" claim must be "user" or "global_admin"')
  }
  return Result.succeed({ id, clientId, name: name.success ?? id, email: email.success ?? "", role })
}

/** A failure of the identity provider's JWKS endpoint (not the token's fault). */
class ProviderUnavailable {
  constructor(readonly cause: unknown) {}
}

const isProviderFailure = (error: unknown): boolean =>
  !(error instanceof errors.JOSEError) || error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid

const tokenMessage = (error: unknown): string => {
  if (error instanceof errors.JWTExpired) return "Token has expired"
  if (error instanceof errors.JWSSignatureVerificationFailed) return "Signature verification failed"
  if (error instanceof errors.JWTClaimValidationFailed) {
    return error.reason === "missing"
      ? `Invalid token: "${error.claim}" claim is missing`
      : `Invalid token: "${error.claim}" claim check failed`
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return "Invalid token: algorithm not allowed"
  return "Invalid token"
}

/** Verifies a bearer token and returns the user it names. */
export type Verifier = (token: string) => Effect.Effect<Directory.User, Errors.InvalidToken | Errors.ServiceUnavailable>

interface Prepared {
  readonly key: Uint8Array | JWTVerifyGetKey
  readonly algorithms: Array<string>
  readonly issuer: string | undefined
  readonly audience: string | undefined
}

const prepare = (config: Config): Result.Result<Prepared, string> => {
  if (config._tag === "Secret") {
    const secret = typeof config.secret === "string" ? config.secret : Redacted.value(config.secret)
    const bytes = new TextEncoder().encode(secret)
    if (bytes.byteLength < MIN_SECRET_BYTES) {
      return Result.fail(
        `the JWT secret must be at least ${MIN_SECRET_BYTES} bytes long (got ${bytes.byteLength}); generate one ` +
          "with e.g. `openssl rand -base64 48`"
      )
    }
    return Result.succeed({ key: bytes, algorithms: ["HS256"], issuer: config.issuer, audience: config.audience })
  }
  let url: URL
  try {
    url = new URL(config.url)
  } catch {
    return Result.fail(`the JWKS URL is not a valid URL: ${String(config.url)}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return Result.fail("the JWKS URL must be http(s)")
  if (config.issuer.length === 0) return Result.fail("a JWKS configuration needs the expected issuer")
  if (config.audience.length === 0) return Result.fail("a JWKS configuration needs the expected audience")
  const algorithms = config.algorithms ?? JWKS_ALGORITHMS
  if (algorithms.length === 0 || algorithms.some((a) => !JWKS_ALGORITHMS.includes(a))) {
    return Result.fail(`JWKS algorithms must be a non-empty subset of ${JWKS_ALGORITHMS.join(", ")}`)
  }
  const remote = createRemoteJWKSet(url, { timeoutDuration: config.timeoutMs ?? 5000 })
  const key: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remote(header, token)
    } catch (error) {
      throw isProviderFailure(error) ? new ProviderUnavailable(error) : error
    }
  }
  return Result.succeed({ key, algorithms: [...algorithms], issuer: config.issuer, audience: config.audience })
}

/** Builds the verifier of a configuration; a missing or short secret, or an incomplete JWKS setup, fails. */
export const makeVerifier = (config: Config): Effect.Effect<Verifier, ConfigError> => {
  const prepared = prepare(config)
  if (Result.isFailure(prepared)) return Effect.fail(new ConfigError({ message: prepared.failure }))
  const { key, algorithms, issuer, audience } = prepared.success
  return Effect.succeed((token) =>
    Effect.gen(function* () {
      if (token.length === 0) return yield* new Errors.InvalidToken({ msg: "Missing Authorization Header" })
      if (token.length > MAX_TOKEN_LENGTH) return yield* new Errors.InvalidToken({ msg: "Invalid token" })
      const now = yield* Clock.currentTimeMillis
      const verified = yield* Effect.tryPromise({
        try: () =>
          jwtVerify(token, key, {
            algorithms,
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
            currentDate: new Date(now),
            requiredClaims: ["exp", "sub"],
            ...(issuer !== undefined ? { issuer } : {}),
            ...(audience !== undefined ? { audience } : {})
          }),
        catch: (error) =>
          error instanceof ProviderUnavailable
            ? new Errors.ServiceUnavailable({ error: "the identity provider is unavailable; retry later" })
            : new Errors.InvalidToken({ msg: tokenMessage(error) })
      }).pipe(
        Effect.tapError((error) =>
          error instanceof Errors.ServiceUnavailable ? Effect.logWarning("JWKS endpoint unavailable") : Effect.void
        )
      )
      const user = userFromClaims(verified.payload)
      if (Result.isFailure(user)) return yield* new Errors.InvalidToken({ msg: user.failure })
      return user.success
    })
  )
}

/** The JWT security middleware: verifies the bearer token and provides `CurrentUser`. */
export const layerJwt = (config: Config): Layer.Layer<JwtAuth, ConfigError> =>
  Layer.effect(
    JwtAuth,
    Effect.map(makeVerifier(config), (verify) =>
      JwtAuth.of({
        bearer: (httpEffect, { credential }) =>
          Effect.flatMap(verify(Redacted.value(credential)), (user) =>
            Effect.provideService(httpEffect, CurrentUser, user)
          )
      })
    )
  )

/**
 * The read endpoints' API-key middleware: a missing or malformed key is refused here, before the request is decoded;
 * a well-formed one is passed on, and the read checks it in its own statement.
 */
export const layerApiKeyRead: Layer.Layer<ApiKeyRead> = Layer.succeed(
  ApiKeyRead,
  ApiKeyRead.of({
    apiKey: (httpEffect, { credential }) => {
      const hash = ApiKeys.lookupHash(Redacted.value(credential))
      return Result.isFailure(hash)
        ? Effect.fail(new Errors.Unauthorized({ error: hash.failure.message }))
        : Effect.provideService(httpEffect, PresentedKey, credential)
    }
  })
)

/** The API-key security middleware: one hashed lookup (core `ApiKeys.authenticate`), providing `CurrentCaller`. */
export const layerApiKey: Layer.Layer<ApiKeyAuth, never, Ports.ApiKeyStore> = Layer.effect(
  ApiKeyAuth,
  Effect.map(Effect.service(Ports.ApiKeyStore), (store) =>
    ApiKeyAuth.of({
      apiKey: (httpEffect, { credential }) =>
        ApiKeys.authenticate(Redacted.value(credential)).pipe(
          Effect.provideService(Ports.ApiKeyStore, store),
          Effect.catchTag("InvalidApiKey", (error) => Effect.fail(new Errors.Unauthorized({ error: error.message }))),
          Errors.respond,
          Effect.flatMap((caller) => Effect.provideService(httpEffect, CurrentCaller, caller))
        )
    })
  )
)
