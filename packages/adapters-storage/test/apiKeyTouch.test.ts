/**
 * The in-process throttle of `last_used` (issue 22): a store that wrote a key's `last_used` less than a minute ago
 * sends no UPDATE for it; another store (another api process) still writes once, and after a minute this one
 * writes again. The stored value is moved back between touches, so a write that was sent would show.
 */
import { assert, layer } from "@effect/vitest"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as SqlApiKeyStore from "../src/internal/apiKeyStore.js"
import * as SqlDirectory from "../src/internal/directory.js"
import { at, idOf } from "./contracts/support.js"
import { pglite } from "./support/databases.js"

layer(pglite)("ApiKeyStore: last_used throttled in process", (it) => {
  it.effect("no UPDATE within a minute of this process's own write; other processes and later minutes write", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* (yield* SqlDirectory.make).upsertUser(Fixtures.user())
      const id = idOf(7, 1)
      const thisProcess = yield* SqlApiKeyStore.make
      const otherProcess = yield* SqlApiKeyStore.make
      yield* thisProcess.insert(Fixtures.storedKey({ id }))
      const lastUsed = Effect.map(
        thisProcess.list(Fixtures.client.id),
        (keys) => keys.find((k) => k.id === id)?.lastUsed ?? null
      )
      const longAgo = at(-3_600_000)
      const setLongAgo = sql`UPDATE api_keys SET last_used = ${longAgo}::timestamptz WHERE id = ${id}`

      yield* thisProcess.touch(id, at(0))
      assert.strictEqual(yield* lastUsed, at(0))
      yield* setLongAgo
      yield* thisProcess.touch(id, at(59_000))
      assert.strictEqual(yield* lastUsed, longAgo, "written by this process 59 s ago: no UPDATE sent")
      yield* otherProcess.touch(id, at(59_000))
      assert.strictEqual(yield* lastUsed, at(59_000), "another process writes its own first use")
      yield* setLongAgo
      yield* thisProcess.touch(id, at(60_000))
      assert.strictEqual(yield* lastUsed, at(60_000), "a minute after its last write, this process writes again")
    })
  )
})
