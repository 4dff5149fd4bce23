/**
 * The `ApiKeyStore` port over SQL. Only the SHA-256 of a key and its preview are stored; lookups go through the
 * unique hash index and read the revocation every time (no cache), so a revoked key fails on its next request.
 * A key's user is the one of the key's own client (users are keyed by client and id).
 */
import { type ApiKey, type Directory, Ports, type Timestamp, Uuid } from "@legible/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mapSqlError } from "./errors.js"
import { ts } from "./sql.js"

interface KeyRow {
  readonly id: string
  readonly client_id: string
  readonly user_id: string
  readonly nombre: string
  readonly tipo: ApiKey.KeyType
  readonly key_hash: string
  readonly key_preview: string
  readonly created_at: Timestamp.Timestamp
  readonly last_used: Timestamp.Timestamp | null
  readonly revoked_at: Timestamp.Timestamp | null
}

interface AuthenticatedRow extends KeyRow {
  readonly user_name: string
  readonly user_email: string
  readonly user_role: Directory.Role
  readonly user_client_id: string
}

const keyColumns = [
  "k.id",
  "k.client_id",
  "k.user_id",
  "k.nombre",
  "k.tipo",
  "k.key_hash",
  "k.key_preview",
  ts("k.created_at", "created_at"),
  ts("k.last_used", "last_used"),
  ts("k.revoked_at", "revoked_at")
].join(", ")

const toKey = (row: KeyRow): ApiKey.StoredApiKey => ({
  id: row.id,
  clientId: row.client_id,
  userId: row.user_id,
  nombre: row.nombre,
  tipo: row.tipo,
  hash: row.key_hash,
  preview: row.key_preview,
  createdAt: row.created_at,
  lastUsed: row.last_used,
  revokedAt: row.revoked_at
})

/** The columns of key `k` and its user `u` for a read that authenticates in the same statement (`key_` names). */
export const keyedColumns = [
  "k.id AS key_id",
  "k.client_id AS key_client_id",
  "k.user_id AS key_user_id",
  "k.nombre AS key_nombre",
  "k.tipo AS key_tipo",
  "k.key_preview AS key_preview",
  ts("k.created_at", "key_created_at"),
  ts("k.last_used", "key_last_used"),
  "u.name AS key_user_name",
  "u.email AS key_user_email",
  "u.role AS key_user_role"
].join(", ")

/** The joins and condition of such a read: the active key `k` with this hash and its user `u`. */
export const keyedFrom = "api_keys k JOIN users u ON u.client_id = k.client_id AND u.id = k.user_id"

/** A row read with `keyedColumns`. */
export interface KeyedRow {
  readonly key_id: string
  readonly key_client_id: string
  readonly key_user_id: string
  readonly key_nombre: string
  readonly key_tipo: ApiKey.KeyType
  readonly key_preview: string
  readonly key_created_at: Timestamp.Timestamp
  readonly key_last_used: Timestamp.Timestamp | null
  readonly key_user_name: string
  readonly key_user_email: string
  readonly key_user_role: Directory.Role
}

/** The key and user of a row read with `keyedColumns` (found by `hash`, so not revoked). */
export const toAuthenticated = (row: KeyedRow, hash: string): Ports.AuthenticatedKey => ({
  key: {
    id: row.key_id,
    clientId: row.key_client_id,
    userId: row.key_user_id,
    nombre: row.key_nombre,
    tipo: row.key_tipo,
    hash,
    preview: row.key_preview,
    createdAt: row.key_created_at,
    lastUsed: row.key_last_used,
    revokedAt: null
  },
  user: {
    id: row.key_user_id,
    clientId: row.key_client_id,
    name: row.key_user_name,
    email: row.key_user_email,
    role: row.key_user_role
  }
})

/** Builds the SQL `ApiKeyStore` over the `SqlClient` in context. */
export const make: Effect.Effect<Ports.ApiKeyStore["Service"], never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(keyColumns)

  const insert = Effect.fn("ApiKeyStore.insert")(function* (key: ApiKey.StoredApiKey) {
    yield* sql`
      INSERT INTO api_keys (id, client_id, user_id, nombre, tipo, key_hash, key_preview, created_at, last_used,
        revoked_at)
      VALUES (${key.id}, ${key.clientId}, ${key.userId}, ${key.nombre}, ${key.tipo}, ${key.hash}, ${key.preview},
        ${key.createdAt}::timestamptz, ${key.lastUsed}::timestamptz, ${key.revokedAt}::timestamptz)`.pipe(
      mapSqlError("ApiKeyStore.insert")
    )
  })

  const list = Effect.fn("ApiKeyStore.list")(function* (clientId: string) {
    const rows = yield* sql<KeyRow>`
      SELECT ${columns} FROM api_keys k
      WHERE k.client_id = ${clientId} AND k.revoked_at IS NULL
      ORDER BY k.created_at DESC, k.id DESC`.pipe(mapSqlError("ApiKeyStore.list"))
    return rows.map(toKey)
  })

  const revoke = Effect.fn("ApiKeyStore.revoke")(function* (clientId: string, id: string, now: Timestamp.Timestamp) {
    if (!Uuid.isUuid(id)) return false
    const rows = yield* sql<{ id: string }>`
      UPDATE api_keys SET revoked_at = ${now}::timestamptz
      WHERE id = ${id} AND client_id = ${clientId} AND revoked_at IS NULL
      RETURNING id`.pipe(mapSqlError("ApiKeyStore.revoke"))
    return rows.length > 0
  })

  const findActive = Effect.fn("ApiKeyStore.findActive")(function* (hash: string) {
    const rows = yield* sql<AuthenticatedRow>`
      SELECT ${columns}, u.name AS user_name, u.email AS user_email, u.role AS user_role,
        u.client_id AS user_client_id
      FROM api_keys k JOIN users u ON u.client_id = k.client_id AND u.id = k.user_id
      WHERE k.key_hash = ${hash} AND k.revoked_at IS NULL`.pipe(mapSqlError("ApiKeyStore.findActive"))
    const row = rows[0]
    if (row === undefined) return undefined
    const user: Directory.User = {
      id: row.user_id,
      clientId: row.user_client_id,
      name: row.user_name,
      email: row.user_email,
      role: row.user_role
    }
    return { key: toKey(row), user }
  })

  // The throttle lives in the WHERE clause: most requests of a busy key update nothing and write no row version.
  // (Core sends no UPDATE at all for a key it read with a `last_used` less than a minute old: `ApiKeys.touches`.)
  const touch = Effect.fn("ApiKeyStore.touch")(function* (id: string, now: Timestamp.Timestamp) {
    if (!Uuid.isUuid(id)) return
    yield* sql`
      UPDATE api_keys SET last_used = ${now}::timestamptz
      WHERE id = ${id}
        AND (last_used IS NULL OR last_used <= ${now}::timestamptz - interval '1 minute')`.pipe(
      mapSqlError("ApiKeyStore.touch")
    )
  })

  return Ports.ApiKeyStore.of({ insert, list, revoke, findActive, touch })
})

/** Provides `ApiKeyStore` over the `SqlClient` in context. */
export const layer: Layer.Layer<Ports.ApiKeyStore, never, SqlClient.SqlClient> = Layer.effect(Ports.ApiKeyStore, make)
