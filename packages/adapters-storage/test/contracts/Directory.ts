/** The `Directory` contract: clients and users upserted and read back. */
import { assert, layer } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import type { StoresLayer } from "./support.js"

/** Runs the `Directory` contract against `stores`. */
export const directoryContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`Directory contract: ${name}`, (it) => {
    it.effect("upsertClient creates, then renames; unknown clients are undefined", () =>
      Effect.gen(function* () {
        const directory = yield* Ports.Directory
        assert.isUndefined(yield* directory.getClient("dir-nobody"))
        assert.deepStrictEqual(yield* directory.upsertClient({ id: "dir-c1", name: "Primero" }), {
          id: "dir-c1",
          name: "Primero"
        })
        yield* directory.upsertClient({ id: "dir-c1", name: "Renombrado S.L." })
        assert.deepStrictEqual(yield* directory.getClient("dir-c1"), { id: "dir-c1", name: "Renombrado S.L." })
      })
    )

    it.effect("upsertUser creates its client (named after its id) and keeps the latest name, email and role", () =>
      Effect.gen(function* () {
        const directory = yield* Ports.Directory
        const user = Fixtures.user({ id: "dir-u1", clientId: "dir-c2", name: "Ana", email: "ana@dir.test" })
        assert.deepStrictEqual(yield* directory.upsertUser(user), user)
        assert.deepStrictEqual(yield* directory.getClient("dir-c2"), { id: "dir-c2", name: "dir-c2" })
        const changed = { ...user, name: "Ana María", email: "ana.maria@dir.test", role: "global_admin" as const }
        yield* directory.upsertUser(changed)
        assert.deepStrictEqual(yield* directory.getUser("dir-c2", "dir-u1"), changed)
        assert.isUndefined(yield* directory.getUser("dir-c2", "dir-nobody"))
      })
    )

    it.effect("the same user id in two clients is two users: upserting one never touches the other", () =>
      Effect.gen(function* () {
        const directory = yield* Ports.Directory
        const ofA = Fixtures.user({ id: "dir-ana", clientId: "dir-c5", name: "Ana A", role: "global_admin" })
        const ofB = Fixtures.user({ id: "dir-ana", clientId: "dir-c6", name: "Ana B", email: "ana@b.test" })
        yield* directory.upsertUser(ofA)
        yield* directory.upsertUser(ofB)
        assert.deepStrictEqual(yield* directory.getUser("dir-c5", "dir-ana"), ofA)
        assert.deepStrictEqual(yield* directory.getUser("dir-c6", "dir-ana"), ofB)
        yield* directory.upsertUser({ ...ofA, name: "Ana A.", role: "user" })
        assert.deepStrictEqual(yield* directory.getUser("dir-c6", "dir-ana"), ofB)
        assert.isUndefined(yield* directory.getUser("dir-c7", "dir-ana"), "unknown in a third client")
      })
    )

    it.effect("a known client keeps its name when one of its users is upserted", () =>
      Effect.gen(function* () {
        const directory = yield* Ports.Directory
        yield* directory.upsertClient({ id: "dir-c3", name: "Nombre Real S.A." })
        yield* directory.upsertUser(Fixtures.user({ id: "dir-u3", clientId: "dir-c3" }))
        assert.deepStrictEqual(yield* directory.getClient("dir-c3"), { id: "dir-c3", name: "Nombre Real S.A." })
      })
    )

    it.effect("concurrent first tokens of one new client both succeed", () =>
      Effect.gen(function* () {
        const directory = yield* Ports.Directory
        const users = Array.from({ length: 8 }, (_, i) => Fixtures.user({ id: `dir-race-${i}`, clientId: "dir-c4" }))
        yield* Effect.forEach(users, (user) => directory.upsertUser(user), { concurrency: "unbounded" })
        for (const user of users) assert.deepStrictEqual(yield* directory.getUser(user.clientId, user.id), user)
      })
    )
  })
