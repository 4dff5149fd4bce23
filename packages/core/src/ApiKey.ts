import { createHash, getRandomValues } from "node:crypto"
import { Schema } from "effect"
import type { ClientId } from "./Directory.js"
import { Timestamp } from "./Timestamp.js"

/** `live` keys run real providers and count against the quota; `test` keys are the sandbox (DESIGN.md). */
export const KeyType = Schema.Literals(["live", "test"])
export type KeyType = typeof KeyType.Type

/** The response item of a key creation (spec 2.1, 4.2): the only place the full `key` ever appears. */
export const CreatedApiKey = Schema.Struct({
  id: Schema.String,
  nombre: Schema.String,
  key: Schema.String,
  tipo: KeyType,
  created_at: Timestamp
})
export type CreatedApiKey = typeof CreatedApiKey.Type

/** An item of the key list (spec 2.1, 4.2). `last_used` is `null` for a key never used. */
export const ApiKeyListItem = Schema.Struct({
  id: Schema.String,
  nombre: Schema.String,
  key_preview: Schema.String,
  tipo: KeyType,
  created_at: Timestamp,
  last_used: Schema.NullOr(Timestamp)
})
export type ApiKeyListItem = typeof ApiKeyListItem.Type

/** A key as stored: the secret's hash and preview, never the secret. */
export interface StoredApiKey {
  readonly id: string
  readonly clientId: ClientId
  /** The user who created the key: `/v1` calls made with it act as this user. */
  readonly userId: string
  readonly nombre: string
  readonly tipo: KeyType
  readonly hash: string
  readonly preview: string
  readonly createdAt: Timestamp
  readonly lastUsed: Timestamp | null
  readonly revokedAt: Timestamp | null
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
/** Characters of the random part: 43 base62 characters carry log2(62) × 43 ≈ 256 bits. */
export const SECRET_LENGTH = 43
const KEY_PATTERN = /^pk_(live|test)_[0-9A-Za-z]{43}$/

/** The bytes source for key generation; a CSPRNG in production, replaceable only for tests. */
export type RandomBytes = (size: number) => Uint8Array
const cryptoRandom: RandomBytes = (size) => getRandomValues(new Uint8Array(size))

/**
 * Generates a new key: `pk_live_` or `pk_test_` followed by 43 base62 characters drawn uniformly
 * (rejection sampling, no modulo bias) from a CSPRNG.
 */
export const generate = (tipo: KeyType, random: RandomBytes = cryptoRandom): string => {
  let out = `pk_${tipo}_`
  let remaining = SECRET_LENGTH
  while (remaining > 0) {
    for (const byte of random(remaining * 2)) {
      // 248 = 4 × 62: bytes at or above it would bias the first characters.
      if (byte < 248 && remaining > 0) {
        out += ALPHABET[byte % 62]
        remaining--
      }
    }
  }
  return out
}

/** Whether a string has the shape of a legible key (checked before any lookup). */
export const isWellFormed = (key: string): boolean => KEY_PATTERN.test(key)

/** The key type a well-formed key announces in its prefix. */
export const typeOf = (key: string): KeyType => (key.startsWith("pk_test_") ? "test" : "live")

/** SHA-256 of the key, hex: what is stored and looked up. The key has ≥128 random bits, so no salt is needed. */
export const hash = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

/** A preview that identifies a key without revealing it: the prefix and 4 characters, an ellipsis, the last 4. */
export const preview = (key: string): string => {
  const prefixLength = key.indexOf("_", 3) + 1
  return `${key.slice(0, prefixLength + 4)}…${key.slice(-4)}`
}
