/**
 * The `Directory` port over SQL: clients and users, upserted as users present their tokens. Users are keyed by
 * (client_id, id), so the same `sub` in two clients is two rows.
 */
import { type Directory, Ports } from "@legible/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mapSqlError } from "./errors.js"

interface UserRow {
  readonly id: string
  readonly client_id: string
  readonly name: string
  readonly email: string
  readonly role: Directory.Role
}

const toUser = (row: UserRow): Directory.User => ({
  id: row.id,
  clientId: row.client_id,
  name: row.name,
  email: row.email,
  role: row.role
})

/** Builds the SQL `Directory` over the `SqlClient` in context. */
export const make: Effect.Effect<Ports.Directory["Service"], never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  const upsertClient = Effect.fn("Directory.upsertClient")(function* (client: Directory.Client) {
    yield* sql`
      INSERT INTO clients (id, name) VALUES (${client.id}, ${client.name})
      ON CONFLICT (id) DO UPDATE SET name = excluded.name`.pipe(mapSqlError("Directory.upsertClient"))
    return { id: client.id, name: client.name }
  })

  const getClient = Effect.fn("Directory.getClient")(function* (id: string) {
    const rows = yield* sql<Directory.Client>`SELECT id, name FROM clients WHERE id = ${id}`.pipe(
      mapSqlError("Directory.getClient")
    )
    return rows[0]
  })

  // One statement: the client row (named after its id when new) and the user row, so a first token never
  // races another request creating the same client.
  const upsertUser = Effect.fn("Directory.upsertUser")(function* (user: Directory.User) {
    yield* sql`
      WITH client AS (
        INSERT INTO clients (id, name) VALUES (${user.clientId}, ${user.clientId}) ON CONFLICT (id) DO NOTHING
      )
      INSERT INTO users (id, client_id, name, email, role, updated_at)
      VALUES (${user.id}, ${user.clientId}, ${user.name}, ${user.email}, ${user.role}, now())
      ON CONFLICT (client_id, id) DO UPDATE SET name = excluded.name, email = excluded.email,
        role = excluded.role, updated_at = excluded.updated_at`.pipe(mapSqlError("Directory.upsertUser"))
    return { ...user }
  })

  const getUser = Effect.fn("Directory.getUser")(function* (clientId: string, id: string) {
    const rows = yield* sql<UserRow>`
      SELECT id, client_id, name, email, role FROM users WHERE client_id = ${clientId} AND id = ${id}`.pipe(
      mapSqlError("Directory.getUser")
    )
    const row = rows[0]
    return row === undefined ? undefined : toUser(row)
  })

  return Ports.Directory.of({ upsertClient, getClient, upsertUser, getUser })
})

/** Provides `Directory` over the `SqlClient` in context. */
export const layer: Layer.Layer<Ports.Directory, never, SqlClient.SqlClient> = Layer.effect(Ports.Directory, make)
