/**
 * Migration 3_users_per_client on a database written under the old schema (users keyed by `sub` alone): every key
 * keeps working as its own client's user, and a key whose user row another client had already taken over stops
 * acting with that client's role. Run on PostgreSQL and PGlite, each from an unmigrated database.
 */
import { assert, describe } from "@effect/vitest"
import { ApiKey, type Directory } from "@legible/core"
import { TestIds } from "@legible/testkit"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Migrator from "effect/sql/Migrator"
import * as Database from "../src/Database.js"
import * as SqlApiKeyStore from "../src/internal/apiKeyStore.js"
import * as SqlDirectory from "../src/internal/directory.js"
import { migrations } from "../src/internal/migrations.js"
import { migrationsFrom, onUnmigratedEngines } from "./support/databases.js"

const secret = (n: number) => `pk_live_${String(n).padStart(43, "M")}`
const keyId = (n: number) => TestIds.uuid(0x3a00_0000 + n)

/** The schema as it was before the migration. */
const before = Migrator.make({})({
  loader: Migrator.fromRecord({
    "1_initial": migrations["1_initial"],
    "2_catalog_search": migrations["2_catalog_search"]
  }),
  table: Database.migrationsTable
})

const anaOfA: Directory.User = {
  id: "ana",
  clientId: "mig-a",
  name: "Ana A",
  email: "ana@a.test",
  role: "global_admin"
}
const bobOfB: Directory.User = { id: "bob", clientId: "mig-b", name: "Bob", email: "bob@b.test", role: "user" }
// "eva" is a sub of both clients; under the old schema B's token rewrote the one row, so A's key points at B's admin.
const evaOfB: Directory.User = {
  id: "eva",
  clientId: "mig-b",
  name: "Eva B",
  email: "eva@b.test",
  role: "global_admin"
}

const scenario = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* before
  yield* sql`INSERT INTO clients (id, name) VALUES ('mig-a', 'A'), ('mig-b', 'B')`
  for (const user of [anaOfA, bobOfB, evaOfB]) {
    yield* sql`INSERT INTO users (id, client_id, name, email, role)
      VALUES (${user.id}, ${user.clientId}, ${user.name}, ${user.email}, ${user.role})`
  }
  for (const [n, clientId, userId] of [
    [1, "mig-a", "ana"],
    [2, "mig-b", "bob"],
    [3, "mig-a", "eva"],
    [4, "mig-b", "eva"]
  ] as const) {
    yield* sql`INSERT INTO api_keys (id, client_id, user_id, nombre, tipo, key_hash, key_preview, created_at)
      VALUES (${keyId(n)}, ${clientId}, ${userId}, ${`clave ${n}`}, 'live', ${ApiKey.hash(secret(n))},
        ${ApiKey.preview(secret(n))}, now())`
  }

  const ran = yield* Database.migrate
  assert.deepStrictEqual(
    ran.map(([, name]) => name),
    migrationsFrom("users_per_client")
  )

  const keys = yield* SqlApiKeyStore.make
  const directory = yield* SqlDirectory.make
  const userOf = (n: number) => Effect.map(keys.findActive(ApiKey.hash(secret(n))), (found) => found?.user)
  assert.deepStrictEqual(yield* userOf(1), anaOfA)
  assert.deepStrictEqual(yield* userOf(2), bobOfB)
  assert.deepStrictEqual(yield* userOf(4), evaOfB)
  assert.deepStrictEqual(
    yield* userOf(3),
    { id: "eva", clientId: "mig-a", name: "", email: "", role: "user" },
    "A's key no longer acts as B's global_admin"
  )
  assert.deepStrictEqual((yield* keys.list("mig-a")).map((k) => k.id).sort(), [keyId(1), keyId(3)].sort())

  // After the migration the same sub in the other client is another user.
  yield* directory.upsertUser({ ...anaOfA, clientId: "mig-b", name: "Ana B", role: "user" })
  assert.deepStrictEqual(yield* directory.getUser("mig-a", "ana"), anaOfA)
  assert.deepStrictEqual(yield* userOf(1), anaOfA)
  yield* directory.upsertUser({ ...evaOfB, clientId: "mig-a", name: "Eva A", email: "eva@a.test", role: "user" })
  assert.strictEqual((yield* userOf(3))?.name, "Eva A", "the next token of A's eva fills in A's row")
  assert.deepStrictEqual(yield* userOf(4), evaOfB)
})

describe("migration 3_users_per_client", () => {
  onUnmigratedEngines(
    "keeps the keys of a database written under the old schema working, each as its own client's user",
    scenario
  )
})
