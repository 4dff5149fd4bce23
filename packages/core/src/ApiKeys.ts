import { Effect, Result } from "effect"
import * as ApiKey from "./ApiKey.js"
import type { Role, User } from "./Directory.js"
import { ApiKeyNotFound, InvalidApiKey, InvalidRequest } from "./Errors.js"
import type { Actor } from "./Extraction.js"
import { IdGenerator } from "./IdGenerator.js"
import { ApiKeyStore, type AuthenticatedKey, Directory, type Scope } from "./Ports.js"
import * as Timestamp from "./Timestamp.js"

/** Longest accepted key name. */
export const MAX_NAME = 200

/** The principal of a `/v1` call: the key's client and sandbox, acting as the user who created the key. */
export interface Caller extends Scope {
  readonly keyId: string
  readonly user: Actor
  readonly role: Role
}

/** Creates a key for the user's client (spec 4.2). The full key is in the result and nowhere else. */
export const create = Effect.fn("ApiKeys.create")(function* (
  user: User,
  body: { readonly nombre?: unknown; readonly tipo?: unknown }
) {
  const nombre = typeof body.nombre === "string" ? body.nombre.trim() : ""
  if (nombre.length === 0) return yield* new InvalidRequest({ message: "nombre is required" })
  if (nombre.length > MAX_NAME) {
    return yield* new InvalidRequest({ message: `nombre must be at most ${MAX_NAME} characters` })
  }
  if (body.tipo !== undefined && body.tipo !== "live" && body.tipo !== "test") {
    return yield* new InvalidRequest({ message: "tipo must be 'live' or 'test'" })
  }
  const tipo: ApiKey.KeyType = body.tipo ?? "live"
  yield* (yield* Directory).upsertUser(user)
  const key = ApiKey.generate(tipo)
  const id = (yield* IdGenerator).uuid()
  const createdAt = yield* Timestamp.now
  yield* (yield* ApiKeyStore).insert({
    id,
    clientId: user.clientId,
    userId: user.id,
    nombre,
    tipo,
    hash: ApiKey.hash(key),
    preview: ApiKey.preview(key),
    createdAt,
    lastUsed: null,
    revokedAt: null
  })
  return { id, nombre, key, tipo, created_at: createdAt } satisfies ApiKey.CreatedApiKey
})

/** Lists the active keys of the user's client, with previews only (spec 4.2). */
export const list = Effect.fn("ApiKeys.list")(function* (user: User) {
  const keys = yield* (yield* ApiKeyStore).list(user.clientId)
  return keys.map(
    (k): ApiKey.ApiKeyListItem => ({
      id: k.id,
      nombre: k.nombre,
      key_preview: k.preview,
      tipo: k.tipo,
      created_at: k.createdAt,
      last_used: k.lastUsed
    })
  )
})

/** Revokes a key of the user's client, at once and for good; another client's key is "not found". */
export const revoke = Effect.fn("ApiKeys.revoke")(function* (user: User, id: string) {
  const revoked = yield* (yield* ApiKeyStore).revoke(user.clientId, id, yield* Timestamp.now)
  if (!revoked) return yield* new ApiKeyNotFound({ id })
})

/** The hash to look a presented key up by, or why it is refused before any lookup (missing or malformed). */
export const lookupHash = (key: string | undefined): Result.Result<string, InvalidApiKey> => {
  if (key === undefined || key.length === 0) return Result.fail(new InvalidApiKey({ message: "missing API key" }))
  if (!ApiKey.isWellFormed(key)) return Result.fail(new InvalidApiKey({ message: "invalid API key" }))
  return Result.succeed(ApiKey.hash(key))
}

/** The key presented was not found active (unknown or revoked). */
export const unknownKey = (): InvalidApiKey => new InvalidApiKey({ message: "invalid API key" })

/** How long a key's `last_used` stands before a use writes it again (A5: at most one write per key per minute). */
export const LAST_USED_INTERVAL_MS = 60_000

/**
 * Whether a use at `now` writes `last_used`, given the value the key was just read with: not when it is less than
 * a minute old, whichever process wrote it. A pure decision; the store's UPDATE keeps the same guard for races.
 */
export const touches = (lastUsed: Timestamp.Timestamp | null, now: Timestamp.Timestamp): boolean =>
  lastUsed === null || Timestamp.toMillis(now) - Timestamp.toMillis(lastUsed) >= LAST_USED_INTERVAL_MS

/**
 * The caller of a key found active, after recording its use: `last_used` is written at most once a minute per key,
 * only on success, and a key read with a `last_used` less than a minute old sends no UPDATE at all (`touches`).
 */
export const accept = Effect.fn("ApiKeys.accept")(function* (found: AuthenticatedKey) {
  const now = yield* Timestamp.now
  if (touches(found.key.lastUsed, now)) yield* (yield* ApiKeyStore).touch(found.key.id, now)
  return {
    clientId: found.key.clientId,
    sandbox: found.key.tipo === "test",
    keyId: found.key.id,
    user: { id: found.user.id, name: found.user.name, email: found.user.email },
    role: found.user.role
  } satisfies Caller
})

/** Authenticates the `x-api-key` of a `/v1` call: a shape check, then one lookup by hash (see `accept`). */
export const authenticate = Effect.fn("ApiKeys.authenticate")(function* (key: string | undefined) {
  const hash = lookupHash(key)
  if (Result.isFailure(hash)) return yield* hash.failure
  const found = yield* (yield* ApiKeyStore).findActive(hash.success)
  if (found === undefined) return yield* unknownKey()
  return yield* accept(found)
})
