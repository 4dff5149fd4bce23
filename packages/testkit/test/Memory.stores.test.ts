import { assert, describe, it } from "@effect/vitest"
import { ApiKey, Ports, Quota } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer, Result } from "effect"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())

const withClients = Effect.gen(function* () {
  yield* TestTime.setFixedNow
  const directory = yield* Ports.Directory
  yield* directory.upsertClient(Fixtures.client)
  yield* directory.upsertClient(Fixtures.otherClient)
  yield* directory.upsertUser(Fixtures.user())
  yield* directory.upsertUser(Fixtures.otherUser())
})

describe("Memory Directory", () => {
  it.effect("a user of an unknown client creates the client, named after its id; upserts update", () =>
    Effect.gen(function* () {
      const directory = yield* Ports.Directory
      const user = Fixtures.user({ clientId: "client-nueva" })
      yield* directory.upsertUser(user)
      assert.deepStrictEqual(yield* directory.getClient("client-nueva"), { id: "client-nueva", name: "client-nueva" })
      yield* directory.upsertUser({ ...user, name: "Ana G." })
      assert.strictEqual((yield* directory.getUser(user.clientId, user.id))?.name, "Ana G.")
      yield* directory.upsertClient({ id: "client-nueva", name: "Nueva S.L." })
      assert.strictEqual((yield* directory.getClient("client-nueva"))?.name, "Nueva S.L.")
    }).pipe(Effect.provide(world))
  )
})

describe("Memory ApiKeyStore", () => {
  it.effect("stores hashes, lists the client's active keys newest first, revokes at once and only its own", () =>
    Effect.gen(function* () {
      yield* withClients
      const keys = yield* Ports.ApiKeyStore
      yield* keys.insert(Fixtures.storedKey())
      yield* keys.insert(Fixtures.storedTestKey({ createdAt: TestTime.at(1_000) }))
      assert.deepStrictEqual(
        (yield* keys.list(Fixtures.client.id)).map((k) => k.id),
        [Fixtures.ids.testKey, Fixtures.ids.liveKey]
      )
      assert.deepStrictEqual(yield* keys.list(Fixtures.otherClient.id), [])
      const found = yield* keys.findActive(ApiKey.hash(Fixtures.LIVE_KEY))
      assert.strictEqual(found?.key.id, Fixtures.ids.liveKey)
      assert.deepStrictEqual(found?.user, Fixtures.user())
      assert.isFalse(yield* keys.revoke(Fixtures.otherClient.id, Fixtures.ids.liveKey, TestTime.now))
      assert.isTrue(yield* keys.revoke(Fixtures.client.id, Fixtures.ids.liveKey, TestTime.now))
      assert.isUndefined(yield* keys.findActive(Fixtures.LIVE_KEY_HASH))
      assert.isFalse(yield* keys.revoke(Fixtures.client.id, Fixtures.ids.liveKey, TestTime.now), "already revoked")
      assert.deepStrictEqual(
        (yield* keys.list(Fixtures.client.id)).map((k) => k.id),
        [Fixtures.ids.testKey]
      )
    }).pipe(Effect.provide(world))
  )

  it.effect("refuses a duplicate hash and a key of an unknown user", () =>
    Effect.gen(function* () {
      yield* withClients
      const keys = yield* Ports.ApiKeyStore
      yield* keys.insert(Fixtures.storedKey())
      const duplicate = yield* Effect.flip(keys.insert(Fixtures.storedKey({ id: TestIds.uuid(9) })))
      assert.strictEqual(duplicate.reason, "Conflict")
      const orphan = yield* Effect.flip(
        keys.insert(Fixtures.storedKey({ id: TestIds.uuid(8), userId: "nadie", hash: "x" }))
      )
      assert.strictEqual(orphan.reason, "Conflict")
    }).pipe(Effect.provide(world))
  )

  it.effect("touch writes last_used at most once a minute", () =>
    Effect.gen(function* () {
      yield* withClients
      const keys = yield* Ports.ApiKeyStore
      yield* keys.insert(Fixtures.storedKey())
      const lastUsed = Effect.map(keys.list(Fixtures.client.id), (ks) => ks[0]?.lastUsed)
      yield* keys.touch(Fixtures.ids.liveKey, TestTime.now)
      assert.strictEqual(yield* lastUsed, TestTime.now)
      yield* keys.touch(Fixtures.ids.liveKey, TestTime.at(59_999))
      assert.strictEqual(yield* lastUsed, TestTime.now)
      yield* keys.touch(Fixtures.ids.liveKey, TestTime.at(60_000))
      assert.strictEqual(yield* lastUsed, TestTime.at(60_000))
    }).pipe(Effect.provide(world))
  )
})

describe("Memory SkillStore", () => {
  it.effect("a put of an existing slug stores the next version under the same id; every version stays readable", () =>
    Effect.gen(function* () {
      yield* withClients
      const skills = yield* Ports.SkillStore
      const v1 = yield* skills.put(Fixtures.skillInput(), TestTime.now)
      assert.strictEqual(v1.id, TestIds.uuid(1))
      assert.strictEqual(v1.version, 1)
      const v2 = yield* skills.put(Fixtures.skillInput({ name: "Factura v2" }), TestTime.at(1_000))
      assert.strictEqual(v2.id, v1.id)
      assert.strictEqual(v2.version, 2)
      assert.strictEqual(v2.createdAt, v1.createdAt)
      assert.strictEqual(v2.updatedAt, TestTime.at(1_000))
      assert.deepStrictEqual(yield* skills.findBySlug(Fixtures.client.id, "factura-es"), v2)
      assert.deepStrictEqual(yield* skills.findById(Fixtures.client.id, v1.id), v2)
      assert.deepStrictEqual(yield* skills.findById(Fixtures.client.id, v1.id, 1), v1)
      assert.isUndefined(yield* skills.findById(Fixtures.client.id, v1.id, 3))
      assert.deepStrictEqual(yield* skills.list(Fixtures.client.id), [v2])
    }).pipe(Effect.provide(world))
  )

  it.effect("skills are scoped by client; a removed skill disappears and its slug starts over", () =>
    Effect.gen(function* () {
      yield* withClients
      const skills = yield* Ports.SkillStore
      const mine = yield* skills.put(Fixtures.skillInput(), TestTime.now)
      const theirs = yield* skills.put(Fixtures.skillInput({ clientId: Fixtures.otherClient.id }), TestTime.now)
      assert.notStrictEqual(theirs.id, mine.id)
      assert.strictEqual(theirs.version, 1)
      assert.isUndefined(yield* skills.findById(Fixtures.otherClient.id, mine.id))
      assert.isFalse(yield* skills.remove(Fixtures.client.id, "no-existe"))
      assert.isTrue(yield* skills.remove(Fixtures.client.id, "factura-es"))
      assert.isUndefined(yield* skills.findBySlug(Fixtures.client.id, "factura-es"))
      assert.isUndefined(yield* skills.findById(Fixtures.client.id, mine.id))
      const again = yield* skills.put(Fixtures.skillInput(), TestTime.now)
      assert.strictEqual(again.version, 1)
      assert.notStrictEqual(again.id, mine.id)
      assert.deepStrictEqual(yield* skills.findBySlug(Fixtures.otherClient.id, "factura-es"), theirs)
    }).pipe(Effect.provide(world))
  )
})

describe("Memory CatalogStore", () => {
  it.effect("upserts records by id, refuses unknown columns atomically, and scopes by client", () =>
    Effect.gen(function* () {
      yield* withClients
      const catalogs = yield* Ports.CatalogStore
      yield* catalogs.create(Fixtures.catalog())
      assert.strictEqual(
        yield* catalogs.upsertRecords(Fixtures.client.id, Fixtures.ids.catalog, Fixtures.catalogRecords),
        3
      )
      const replaced = { id: Fixtures.ids.recordAcme, values: { cif: "B12345678", nombre: "Acme 2" } }
      yield* catalogs.upsertRecords(Fixtures.client.id, Fixtures.ids.catalog, [replaced])
      assert.deepStrictEqual(yield* catalogs.getRecord(Fixtures.client.id, Fixtures.ids.catalog, replaced.id), replaced)
      const bad = yield* Effect.flip(
        catalogs.upsertRecords(Fixtures.client.id, Fixtures.ids.catalog, [
          { id: TestIds.uuid(50), values: { cif: "X" } },
          { id: TestIds.uuid(51), values: { iban: "ES00" } }
        ])
      )
      assert.strictEqual(bad._tag, "InvalidRequest")
      const badId = yield* Effect.flip(
        catalogs.upsertRecords(Fixtures.client.id, Fixtures.ids.catalog, [{ id: "r-1", values: { cif: "X" } }])
      )
      assert.strictEqual(badId._tag, "InvalidRequest")
      const missing = yield* Effect.flip(catalogs.upsertRecords(Fixtures.client.id, TestIds.uuid(77), []))
      assert.strictEqual(missing._tag, "InvalidRequest")
      assert.strictEqual(yield* catalogs.countRecords(Fixtures.client.id, Fixtures.ids.catalog), 3)
      assert.isUndefined(yield* catalogs.get(Fixtures.otherClient.id, Fixtures.ids.catalog))
      assert.strictEqual(yield* catalogs.countRecords(Fixtures.otherClient.id, Fixtures.ids.catalog), 0)
      assert.isFalse(yield* catalogs.remove(Fixtures.otherClient.id, Fixtures.ids.catalog))
      assert.isTrue(yield* catalogs.remove(Fixtures.client.id, Fixtures.ids.catalog))
      assert.deepStrictEqual(yield* catalogs.list(Fixtures.client.id), [])
    }).pipe(Effect.provide(world))
  )
})

describe("Memory QuotaStore", () => {
  it.effect("no quota row means unlimited", () =>
    Effect.gen(function* () {
      yield* withClients
      const quotas = yield* Ports.QuotaStore
      assert.isUndefined(yield* quotas.reserve(Fixtures.client.id, TestTime.now))
    }).pipe(Effect.provide(world))
  )

  it.effect("concurrent reservations never overshoot the limit", () =>
    Effect.gen(function* () {
      yield* withClients
      const quotas = yield* Ports.QuotaStore
      yield* quotas.set(Fixtures.client.id, 5, "month", TestTime.now)
      const results = yield* Effect.forEach(
        Array.from({ length: 40 }, (_, i) => i),
        () => Effect.result(quotas.reserve(Fixtures.client.id, TestTime.now)),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(results.filter(Result.isSuccess).length, 5)
      const refusals = results.filter(Result.isFailure).map((r) => r.failure)
      assert.strictEqual(refusals.length, 35)
      for (const refusal of refusals) assert.deepInclude(refusal, { _tag: "QuotaExceeded", limit: 5, used: 5 })
      const error = yield* Effect.flip(quotas.reserve(Fixtures.client.id, TestTime.now))
      assert.deepInclude(error, { _tag: "QuotaExceeded", limit: 5, used: 5 })
      assert.strictEqual((yield* quotas.get(Fixtures.client.id))?.used, 5)
    }).pipe(Effect.provide(world))
  )

  it.effect("the period rolls over at the start of the next calendar month (UTC); release gives back", () =>
    Effect.gen(function* () {
      yield* withClients
      const quotas = yield* Ports.QuotaStore
      const endOfMarch = TestTime.of("2026-03-31T23:59:59.999Z")
      yield* quotas.set(Fixtures.client.id, 1, "month", endOfMarch)
      yield* quotas.reserve(Fixtures.client.id, endOfMarch)
      assert.deepInclude(yield* Effect.flip(quotas.reserve(Fixtures.client.id, endOfMarch)), { limit: 1, used: 1 })
      yield* quotas.release(Fixtures.client.id, endOfMarch)
      const regranted = yield* quotas.reserve(Fixtures.client.id, endOfMarch)
      assert.strictEqual(regranted?.used, 1)
      const april = yield* quotas.reserve(Fixtures.client.id, TestTime.of("2026-04-01T00:00:00Z"))
      assert.deepStrictEqual(april, {
        clientId: Fixtures.client.id,
        limit: 1,
        period: "month",
        periodStart: TestTime.of("2026-04-01T00:00:00Z"),
        used: 1
      })
      yield* quotas.release(Fixtures.client.id, endOfMarch)
      assert.strictEqual(
        (yield* quotas.get(Fixtures.client.id))?.used,
        1,
        "a March reservation is not given back in April"
      )
    }).pipe(Effect.provide(world))
  )

  it.effect("set keeps the usage of the current period", () =>
    Effect.gen(function* () {
      yield* withClients
      const quotas = yield* Ports.QuotaStore
      yield* quotas.set(Fixtures.client.id, 10, "month", TestTime.now)
      yield* quotas.reserve(Fixtures.client.id, TestTime.now)
      yield* quotas.reserve(Fixtures.client.id, TestTime.now)
      const updated = yield* quotas.set(Fixtures.client.id, null, "month", TestTime.now)
      assert.strictEqual(updated.used, 2)
      assert.strictEqual(updated.periodStart, Quota.periodStart("month", TestTime.now))
    }).pipe(Effect.provide(world))
  )
})
