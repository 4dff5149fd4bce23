import { assert, describe, it } from "@effect/vitest"
import { ApiKey, ApiKeys, Ports, type Timestamp } from "@legible/core"
import { Fake, Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())
const ana = Fixtures.user()
const bruno = Fixtures.otherUser()

const expectInvalid = (body: { readonly nombre?: unknown; readonly tipo?: unknown }, word: string) =>
  Effect.gen(function* () {
    const error = yield* Effect.flip(ApiKeys.create(ana, body))
    assert.strictEqual(error._tag, "InvalidRequest")
    if (error._tag === "InvalidRequest") assert.include(error.message, word)
  })

describe("ApiKeys.create", () => {
  it.effect("refuses a missing, blank, non-string or too long nombre and a bad tipo, storing nothing", () =>
    Effect.gen(function* () {
      yield* expectInvalid({}, "nombre")
      yield* expectInvalid({ nombre: "" }, "nombre")
      yield* expectInvalid({ nombre: "   \t\n" }, "nombre")
      yield* expectInvalid({ nombre: 42 }, "nombre")
      yield* expectInvalid({ nombre: null }, "nombre")
      yield* expectInvalid({ nombre: "x".repeat(ApiKeys.MAX_NAME + 1) }, "nombre")
      for (const tipo of ["prod", "LIVE", "", null, 1, true]) yield* expectInvalid({ nombre: "ERP", tipo }, "tipo")
      assert.deepStrictEqual(yield* ApiKeys.list(ana), [])
      assert.strictEqual((yield* Memory.MemoryState).apiKeys.size, 0)
    }).pipe(Effect.provide(world))
  )

  it.effect("creates a live key by default; the full key appears only in this result", () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      const created = yield* ApiKeys.create(ana, { nombre: "  Integración ERP  " })
      assert.deepStrictEqual(
        { ...created, key: "…" },
        { id: TestIds.uuid(1), nombre: "Integración ERP", key: "…", tipo: "live", created_at: TestTime.now }
      )
      assert.isTrue(ApiKey.isWellFormed(created.key))
      assert.isTrue(created.key.startsWith("pk_live_"))
      const listed = yield* ApiKeys.list(ana)
      assert.deepStrictEqual(listed, [
        {
          id: created.id,
          nombre: "Integración ERP",
          key_preview: ApiKey.preview(created.key),
          tipo: "live",
          created_at: TestTime.now,
          last_used: null
        }
      ])
      assert.notInclude(JSON.stringify(listed), created.key)
      // The store holds the hash, never the key.
      const state = yield* Memory.MemoryState
      const stored = state.apiKeys.get(created.id)
      assert.strictEqual(stored?.hash, ApiKey.hash(created.key))
      assert.notInclude(JSON.stringify([...state.apiKeys.values()]), created.key.slice("pk_live_".length))
      // The creator is recorded in the directory.
      assert.deepStrictEqual(yield* (yield* Ports.Directory).getUser(ana.clientId, ana.id), ana)
    }).pipe(Effect.provide(world))
  )

  it.effect("accepts tipo test and a nombre of exactly the maximum length", () =>
    Effect.gen(function* () {
      const created = yield* ApiKeys.create(ana, { nombre: "x".repeat(ApiKeys.MAX_NAME), tipo: "test" })
      assert.strictEqual(created.tipo, "test")
      assert.isTrue(created.key.startsWith("pk_test_"))
    }).pipe(Effect.provide(world))
  )
})

describe("ApiKeys.list and revoke", () => {
  it.effect("each client sees only its keys, newest first", () =>
    Effect.gen(function* () {
      const first = yield* ApiKeys.create(ana, { nombre: "primera" })
      yield* TestClock.adjust(1_000)
      const second = yield* ApiKeys.create(ana, { nombre: "segunda", tipo: "test" })
      const theirs = yield* ApiKeys.create(bruno, { nombre: "de Globex" })
      assert.deepStrictEqual(
        (yield* ApiKeys.list(ana)).map((k) => k.id),
        [second.id, first.id]
      )
      assert.deepStrictEqual(
        (yield* ApiKeys.list(bruno)).map((k) => k.id),
        [theirs.id]
      )
    }).pipe(Effect.provide(world))
  )

  it.effect("a revoked key stops authenticating at once, for good; another client's key is not found", () =>
    Effect.gen(function* () {
      const mine = yield* ApiKeys.create(ana, { nombre: "ERP" })
      const theirs = yield* ApiKeys.create(bruno, { nombre: "CRM" })
      assert.strictEqual((yield* ApiKeys.authenticate(mine.key)).keyId, mine.id)

      const foreign = yield* Effect.flip(ApiKeys.revoke(ana, theirs.id))
      assert.deepInclude(foreign, { _tag: "ApiKeyNotFound", id: theirs.id })
      assert.strictEqual((yield* ApiKeys.authenticate(theirs.key)).keyId, theirs.id, "untouched")

      yield* ApiKeys.revoke(ana, mine.id)
      assert.strictEqual((yield* Effect.flip(ApiKeys.authenticate(mine.key)))._tag, "InvalidApiKey")
      assert.deepStrictEqual(yield* ApiKeys.list(ana), [])
      assert.strictEqual((yield* Effect.flip(ApiKeys.revoke(ana, mine.id)))._tag, "ApiKeyNotFound")
      assert.strictEqual((yield* Effect.flip(ApiKeys.revoke(ana, TestIds.uuid(999))))._tag, "ApiKeyNotFound")
    }).pipe(Effect.provide(world))
  )
})

describe("ApiKeys.authenticate", () => {
  const refused = [
    ["missing", undefined],
    ["empty", ""],
    ["malformed", "pk_live_short"],
    ["16 KB", `pk_live_${"A".repeat(16 * 1024)}`],
    ["non-ASCII", `pk_live_${"ñ".repeat(ApiKey.SECRET_LENGTH)}`],
    ["whitespace around", ` ${Fixtures.LIVE_KEY} `],
    ["wrong prefix", Fixtures.LIVE_KEY.replace("pk_", "sk_")]
  ] as const

  // The shape check comes before any lookup: a store that dies on every method proves no query was made.
  it.effect("refuses missing and malformed keys without touching the store", () =>
    Effect.gen(function* () {
      for (const [label, key] of refused) {
        const error = yield* Effect.flip(ApiKeys.authenticate(key))
        assert.strictEqual(error._tag, "InvalidApiKey", label)
      }
    }).pipe(Effect.provide(Fake.layer(Ports.ApiKeyStore, {})))
  )

  it.effect("refuses a well-formed unknown key", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      const unknown = `pk_live_${"Z".repeat(ApiKey.SECRET_LENGTH)}`
      assert.strictEqual((yield* Effect.flip(ApiKeys.authenticate(unknown)))._tag, "InvalidApiKey")
      assert.strictEqual(
        (yield* Effect.flip(ApiKeys.authenticate(Fixtures.LIVE_KEY.replace("live", "test"))))._tag,
        "InvalidApiKey"
      )
    }).pipe(Effect.provide(world))
  )

  it.effect("gives the key's client, sandbox, user and role", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      assert.deepStrictEqual(yield* ApiKeys.authenticate(Fixtures.LIVE_KEY), Fixtures.caller())
      assert.deepStrictEqual(
        yield* ApiKeys.authenticate(Fixtures.TEST_KEY),
        Fixtures.caller({ sandbox: true, keyId: Fixtures.ids.testKey })
      )
    }).pipe(Effect.provide(world))
  )

  it.effect("writes last_used on success only, at most once a minute (TestClock)", () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      yield* Fixtures.seed
      const lastUsed = Effect.map(
        ApiKeys.list(ana),
        (keys) => keys.find((k) => k.id === Fixtures.ids.liveKey)?.last_used
      )
      yield* Effect.flip(ApiKeys.authenticate(`pk_live_${"Z".repeat(ApiKey.SECRET_LENGTH)}`))
      assert.isNull(yield* lastUsed)

      yield* ApiKeys.authenticate(Fixtures.LIVE_KEY)
      assert.strictEqual(yield* lastUsed, TestTime.now)
      yield* TestClock.adjust(59_999)
      yield* ApiKeys.authenticate(Fixtures.LIVE_KEY)
      assert.strictEqual(yield* lastUsed, TestTime.now)
      yield* TestClock.adjust(1)
      yield* ApiKeys.authenticate(Fixtures.LIVE_KEY)
      assert.strictEqual(yield* lastUsed, TestTime.at(60_000))
      const testKey = (yield* ApiKeys.list(ana)).find((k) => k.id === Fixtures.ids.testKey)
      assert.isNull(testKey?.last_used ?? null, "other keys are untouched")
    }).pipe(Effect.provide(world))
  )

  // A store with no `touch` dies if one is sent: reading a fresh last_used must send no UPDATE at all.
  it.effect("sends no UPDATE for a key read with a last_used under a minute old, whoever wrote it (issue 22)", () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      const found = (lastUsed: Timestamp.Timestamp | null) => ({
        key: Fixtures.storedKey({ lastUsed }),
        user: ana
      })
      const touched: Array<string> = []
      const recording = Fake.make(Ports.ApiKeyStore, {
        touch: (id, now) => Effect.sync(() => void touched.push(`${id}@${now}`))
      })
      const accept = (lastUsed: Timestamp.Timestamp | null) =>
        ApiKeys.accept(found(lastUsed)).pipe(Effect.provideService(Ports.ApiKeyStore, recording))
      yield* ApiKeys.accept(found(TestTime.at(-59_999))).pipe(Effect.provide(Fake.layer(Ports.ApiKeyStore, {})))
      yield* accept(TestTime.at(-60_000))
      yield* accept(null)
      assert.deepStrictEqual(touched, [
        `${Fixtures.ids.liveKey}@${TestTime.now}`,
        `${Fixtures.ids.liveKey}@${TestTime.now}`
      ])
      assert.isTrue(ApiKeys.touches(null, TestTime.now))
      assert.isFalse(ApiKeys.touches(TestTime.at(1000), TestTime.now), "a last_used ahead of this clock is fresh")
    })
  )
})
