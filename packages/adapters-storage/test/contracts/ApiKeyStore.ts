/**
 * The `ApiKeyStore` contract: hash lookups, scoping, immediate revocation, throttled `last_used`, and users keyed
 * by client (the same `sub` in two clients is two users, each key acting as its own client's).
 */
import { assert, layer } from "@effect/vitest"
import { ApiKey, ApiKeys, Ports } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import { at, exact, idOf, type StoresLayer, tenant } from "./support.js"

const id = (n: number) => idOf(1, n)

/** A key of the tenant, stored from a real secret (only its hash and preview reach the store). */
const keyOf = (n: number, clientId: string, userId: string, secret: string, createdAt = at(n * 1000)) =>
  Fixtures.storedKey({
    id: id(n),
    clientId,
    userId,
    nombre: `Clave ${n}`,
    hash: ApiKey.hash(secret),
    preview: ApiKey.preview(secret),
    createdAt
  })

const secret = (n: number) => `pk_live_${String(n).padStart(43, "K")}`

/** Runs the `ApiKeyStore` contract against `stores`. */
export const apiKeyStoreContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`ApiKeyStore contract: ${name}`, (it) => {
    it.effect("findActive finds a key by the hash of its secret, with its user", () =>
      Effect.gen(function* () {
        const { client, user } = yield* tenant("keys-find")
        const keys = yield* Ports.ApiKeyStore
        const key = keyOf(1, client.id, user.id, secret(1))
        yield* keys.insert(key)
        const found = yield* keys.findActive(ApiKey.hash(secret(1)))
        assert.deepStrictEqual(found, { key, user })
        assert.isUndefined(yield* keys.findActive(ApiKey.hash(secret(999))))
        assert.isUndefined(yield* keys.findActive(secret(1)), "the secret itself is not a lookup key")
      })
    )

    it.effect("list: the client's active keys, newest first; never another client's", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("keys-list")
        const theirs = yield* tenant("keys-list-other")
        const keys = yield* Ports.ApiKeyStore
        yield* keys.insert(keyOf(10, mine.client.id, mine.user.id, secret(10), at(1000)))
        yield* keys.insert(keyOf(11, mine.client.id, mine.user.id, secret(11), at(3000)))
        yield* keys.insert(keyOf(12, mine.client.id, mine.user.id, secret(12), at(2000)))
        yield* keys.insert(keyOf(13, theirs.client.id, theirs.user.id, secret(13), at(4000)))
        yield* keys.revoke(mine.client.id, id(12), at(5000))
        const listed = yield* keys.list(mine.client.id)
        assert.deepStrictEqual(
          listed.map((k) => k.id),
          [id(11), id(10)]
        )
      })
    )

    it.effect("revocation is immediate, once, and only by the owning client", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("keys-revoke")
        const theirs = yield* tenant("keys-revoke-other")
        const keys = yield* Ports.ApiKeyStore
        yield* keys.insert(keyOf(20, mine.client.id, mine.user.id, secret(20)))
        assert.isFalse(yield* keys.revoke(theirs.client.id, id(20), at(1)), "another client cannot revoke it")
        assert.isDefined(yield* keys.findActive(ApiKey.hash(secret(20))))
        assert.isTrue(yield* keys.revoke(mine.client.id, id(20), at(2)))
        assert.isUndefined(yield* keys.findActive(ApiKey.hash(secret(20))), "rejected on the very next lookup")
        assert.isFalse(yield* keys.revoke(mine.client.id, id(20), at(3)), "already revoked")
        assert.isFalse(yield* keys.revoke(mine.client.id, id(21), at(3)), "missing")
        assert.isFalse(yield* keys.revoke(mine.client.id, "not-a-uuid", at(3)), "not a UUID: not found")
      })
    )

    it.effect("touch writes last_used at most once a minute", () =>
      Effect.gen(function* () {
        const { client, user } = yield* tenant("keys-touch")
        const keys = yield* Ports.ApiKeyStore
        yield* keys.insert(keyOf(30, client.id, user.id, secret(30)))
        const lastUsed = Effect.map(keys.findActive(ApiKey.hash(secret(30))), (found) => found?.key.lastUsed)
        assert.isNull(yield* lastUsed)
        yield* keys.touch(id(30), at(60_000))
        assert.strictEqual(yield* lastUsed, at(60_000))
        yield* keys.touch(id(30), at(60_000 + 59_999))
        assert.strictEqual(yield* lastUsed, at(60_000), "less than a minute later: unchanged")
        yield* keys.touch(id(30), at(120_000))
        assert.strictEqual(yield* lastUsed, at(120_000), "a minute later: written")
        yield* keys.touch("not-a-uuid", at(200_000))
        yield* keys.touch(id(31), at(200_000))
      })
    )

    it.effect("a second key with the same hash is refused as a conflict", () =>
      Effect.gen(function* () {
        const { client, user } = yield* tenant("keys-dup")
        const keys = yield* Ports.ApiKeyStore
        yield* keys.insert(keyOf(40, client.id, user.id, secret(40)))
        const error = yield* Effect.flip(keys.insert(keyOf(41, client.id, user.id, secret(40))))
        assert.strictEqual(error.reason, "Conflict")
      })
    )

    it.effect("the same sub in two clients is two users: each key keeps its own client's user and role", () =>
      Effect.gen(function* () {
        const directory = yield* Ports.Directory
        const keys = yield* Ports.ApiKeyStore
        // The identity providers of two clients both issue the sub "ana"; A's is a global_admin, B's is not.
        const anaOfA = Fixtures.user({
          id: "ana",
          clientId: "client-same-sub-a",
          name: "Ana de A",
          email: "ana@a.test",
          role: "global_admin"
        })
        const anaOfB = Fixtures.user({
          id: "ana",
          clientId: "client-same-sub-b",
          name: "Ana de B",
          email: "ana@b.test"
        })
        const ofA = yield* ApiKeys.create(anaOfA, { nombre: "clave de A" })
        const ofB = yield* ApiKeys.create(anaOfB, { nombre: "clave de B" })

        // B's creation wrote B's user only: A's row is as A's token left it.
        assert.deepStrictEqual(yield* directory.getUser(anaOfA.clientId, "ana"), anaOfA)
        assert.deepStrictEqual(yield* directory.getUser(anaOfB.clientId, "ana"), anaOfB)

        const callerA = yield* ApiKeys.authenticate(ofA.key)
        assert.deepStrictEqual(
          { clientId: callerA.clientId, user: callerA.user, role: callerA.role },
          {
            clientId: anaOfA.clientId,
            user: { id: "ana", name: "Ana de A", email: "ana@a.test" },
            role: "global_admin"
          }
        )
        const callerB = yield* ApiKeys.authenticate(ofB.key)
        assert.deepStrictEqual(
          { clientId: callerB.clientId, user: callerB.user, role: callerB.role },
          { clientId: anaOfB.clientId, user: { id: "ana", name: "Ana de B", email: "ana@b.test" }, role: "user" },
          "B's key never acts as A's global_admin"
        )
        assert.deepStrictEqual((yield* keys.findActive(ApiKey.hash(ofB.key)))?.user, anaOfB)

        // A later token of A's ana (demoted, renamed) changes A's user only, and B's new key still acts as B's.
        const demoted = { ...anaOfA, name: "Ana A.", role: "user" as const }
        yield* directory.upsertUser(demoted)
        assert.strictEqual((yield* ApiKeys.authenticate(ofA.key)).role, "user")
        assert.deepStrictEqual(yield* directory.getUser(anaOfB.clientId, "ana"), anaOfB)

        // Listing and revoking stay per client.
        assert.deepStrictEqual(
          (yield* ApiKeys.list(anaOfA)).map((k) => k.id),
          [ofA.id]
        )
        assert.deepStrictEqual(
          (yield* ApiKeys.list(anaOfB)).map((k) => k.id),
          [ofB.id]
        )
        const foreign = yield* Effect.flip(ApiKeys.revoke(anaOfB, ofA.id))
        assert.strictEqual(foreign._tag, "ApiKeyNotFound")
        assert.strictEqual((yield* ApiKeys.authenticate(ofA.key)).clientId, anaOfA.clientId)
        yield* ApiKeys.revoke(anaOfA, ofA.id)
        assert.strictEqual((yield* Effect.flip(ApiKeys.authenticate(ofA.key)))._tag, "InvalidApiKey")
        assert.strictEqual((yield* ApiKeys.authenticate(ofB.key)).clientId, anaOfB.clientId, "B's key unaffected")
      })
    )

    it.effect("a key refers to a user of its own client: the same id in another client does not do", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("keys-own-user")
        const theirs = yield* tenant("keys-own-user-other")
        const keys = yield* Ports.ApiKeyStore
        const error = yield* Effect.flip(keys.insert(keyOf(60, mine.client.id, theirs.user.id, secret(60))))
        assert.strictEqual(error.reason, "Conflict")
        assert.isUndefined(yield* keys.findActive(ApiKey.hash(secret(60))))
      })
    )

    it.effect("timestamps keep their microseconds", () =>
      Effect.gen(function* () {
        const { client, user } = yield* tenant("keys-micros")
        const keys = yield* Ports.ApiKeyStore
        const key = keyOf(50, client.id, user.id, secret(50), exact("2026-03-12T10:15:30.123456+00:00"))
        yield* keys.insert(key)
        const [listed] = yield* keys.list(client.id)
        assert.strictEqual(listed?.createdAt, key.createdAt)
      })
    )
  })
