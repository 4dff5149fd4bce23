/**
 * JWT settings of a running server: the HS256 secret (configured, or generated once in the embedded data directory
 * with mode 0600 and reused), the `Auth.Config` of the HTTP layer, and HS256 tokens minted for local use.
 */
import { createHmac, randomBytes } from "node:crypto"
import * as Fs from "node:fs/promises"
import * as Path from "node:path"
import type { Auth } from "@legible/adapters-http"
import { Clock, Effect, Redacted, Schema } from "effect"
import type * as Config from "./Config.js"

/** The file of the generated secret, inside the data directory. */
export const SECRET_FILE = "jwt-secret"

/** Random bytes of a generated secret (base64url-encoded in its file). */
export const GENERATED_BYTES = 48

/** The secret file could not be read or written, or holds something unusable. */
export class SecretError extends Schema.TaggedError<SecretError>()("SecretError", {
  message: Schema.String
}) {}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error))

const readSecret = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      const stat = await Fs.stat(file)
      // Someone else could mint tokens with it: refuse a secret other users can read.
      if ((stat.mode & 0o077) !== 0) {
        throw new Error(`${file} is readable by other users (mode ${(stat.mode & 0o777).toString(8)}); chmod 600 it`)
      }
      return (await Fs.readFile(file, "utf8")).trim()
    },
    catch: (error) => new SecretError({ message: `cannot read the JWT secret: ${errorMessage(error)}` })
  })

/**
 * The secret generated in `dataDir` on first use (≥ 32 random bytes, mode 0600) and read back on every later start.
 * Two processes starting together agree: the file is created exclusively and the loser reads the winner's.
 */
export const generatedSecret = (dataDir: string): Effect.Effect<Redacted.Redacted<string>, SecretError> =>
  Effect.gen(function* () {
    const file = Path.join(dataDir, SECRET_FILE)
    const created = yield* Effect.tryPromise({
      try: async () => {
        await Fs.mkdir(dataDir, { recursive: true, mode: 0o700 })
        const secret = randomBytes(GENERATED_BYTES).toString("base64url")
        try {
          await Fs.writeFile(file, `${secret}\n`, { flag: "wx", mode: 0o600 })
          return secret
        } catch (error) {
          if (error instanceof Error && "code" in error && error.code === "EEXIST") return undefined
          throw error
        }
      },
      catch: (error) =>
        new SecretError({ message: `cannot create the JWT secret in ${dataDir}: ${errorMessage(error)}` })
    })
    const secret = created ?? (yield* readSecret(file))
    if (Buffer.byteLength(secret, "utf8") < 32) {
      return yield* new SecretError({ message: `${file} holds fewer than 32 bytes; delete it to generate a new one` })
    }
    return Redacted.make(secret, { label: "jwt-secret" })
  })

/** The HS256 secret of the settings (configured or generated); `undefined` when tokens are verified by a JWKS. */
export const secretOf = (
  settings: Config.Settings
): Effect.Effect<Redacted.Redacted<string> | undefined, SecretError> => {
  switch (settings.jwt._tag) {
    case "Secret":
      return Effect.succeed(settings.jwt.secret)
    case "Generated":
      return generatedSecret(settings.dataDir)
    case "Jwks":
      return Effect.succeed(undefined)
  }
}

/** The JWT configuration of the HTTP layer. */
export const authConfig = (settings: Config.Settings): Effect.Effect<Auth.Config, SecretError> => {
  const jwt = settings.jwt
  if (jwt._tag === "Jwks") {
    return Effect.succeed({ _tag: "Jwks", url: jwt.url, issuer: jwt.issuer, audience: jwt.audience })
  }
  return Effect.map(secretOf(settings), (secret) => ({
    _tag: "Secret" as const,
    secret: secret!,
    issuer: jwt.issuer,
    audience: jwt.audience
  }))
}

/** The claims of a minted token (see `Auth` in `@legible/adapters-http` for how they map to the user). */
export interface Claims {
  readonly sub: string
  readonly clientId: string
  readonly name?: string | undefined
  readonly email?: string | undefined
  readonly role?: "user" | "global_admin" | undefined
  readonly issuer?: string | undefined
  readonly audience?: string | undefined
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString("base64url")

/** Signs an HS256 JWT (pure): header, claims with `iat`/`exp` from `nowSeconds`, HMAC-SHA256 signature. */
export const sign = (secret: string, claims: Claims, nowSeconds: number, ttlSeconds: number): string => {
  const header = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }))
  const payload = base64url(
    JSON.stringify({
      sub: claims.sub,
      client_id: claims.clientId,
      ...(claims.name !== undefined ? { name: claims.name } : {}),
      ...(claims.email !== undefined ? { email: claims.email } : {}),
      role: claims.role ?? "user",
      ...(claims.issuer !== undefined ? { iss: claims.issuer } : {}),
      ...(claims.audience !== undefined ? { aud: claims.audience } : {}),
      iat: nowSeconds,
      exp: nowSeconds + ttlSeconds
    })
  )
  const signature = createHmac("sha256", secret).update(`${header}.${payload}`).digest("base64url")
  return `${header}.${payload}.${signature}`
}

/** Mints a token with the configured (or generated) secret; fails where tokens come from a JWKS. */
export const mint = (settings: Config.Settings, claims: Claims, ttlSeconds: number) =>
  Effect.gen(function* () {
    const secret = yield* secretOf(settings)
    if (secret === undefined) {
      return yield* new SecretError({
        message: "tokens are verified with LEGIBLE_JWT_JWKS_URL here: get one from your identity provider"
      })
    }
    const jwt = settings.jwt
    const issuer = jwt._tag === "Jwks" ? undefined : jwt.issuer
    const audience = jwt._tag === "Jwks" ? undefined : jwt.audience
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    return sign(Redacted.value(secret), { ...claims, issuer, audience }, now, ttlSeconds)
  })
