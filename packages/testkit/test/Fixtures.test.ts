import { assert, describe, it } from "@effect/vitest"
import { ApiKey, Catalog, Extraction, Field, IdGenerator, Skill, Timestamp } from "@legible/core"
import { Fixtures, TestIds, TestTime } from "@legible/testkit"
import { Effect, Schema } from "effect"

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

describe("Fixtures", () => {
  it("keys are well formed, and their stored rows carry the right hash and preview", () => {
    for (const [key, hash, row] of [
      [Fixtures.LIVE_KEY, Fixtures.LIVE_KEY_HASH, Fixtures.storedKey()],
      [Fixtures.TEST_KEY, Fixtures.TEST_KEY_HASH, Fixtures.storedTestKey()]
    ] as const) {
      assert.isTrue(ApiKey.isWellFormed(key))
      assert.strictEqual(ApiKey.typeOf(key), row.tipo)
      assert.strictEqual(ApiKey.hash(key), hash)
      assert.strictEqual(row.hash, hash)
      assert.strictEqual(row.preview, ApiKey.preview(key))
    }
  })

  it("the skill, catalog, result and records satisfy core's schemas and rules", () => {
    assert.deepStrictEqual(Skill.validateFields(Fixtures.invoiceFields), [])
    Schema.decodeUnknownSync(Skill.Skill)(Fixtures.skill())
    Schema.decodeUnknownSync(Catalog.Catalog)(Fixtures.catalog())
    for (const record of Fixtures.catalogRecords) {
      Schema.decodeUnknownSync(Catalog.CatalogRecord)(record)
      assert.includeMembers([...Fixtures.catalog().columns], Object.keys(record.values))
    }
    Schema.decodeUnknownSync(Schema.Array(Field.DetailedField))(Fixtures.invoiceResultFields)
    assert.deepStrictEqual(Field.sortFields(Fixtures.invoiceResultFields), [...Fixtures.invoiceResultFields])
    Schema.decodeUnknownSync(Extraction.DetailedExtraction)(Extraction.toDetailed(Fixtures.completedExtraction()))
    Schema.decodeUnknownSync(Extraction.Summary)(Extraction.toSummary(Fixtures.extraction()))
  })

  it("fixed ids are distinct UUIDs outside the TestIds.layer sequence", () => {
    const ids = Object.values(Fixtures.ids)
    assert.strictEqual(new Set(ids).size, ids.length)
    for (const id of ids) assert.match(id, UUID_V4)
    assert.notInclude(ids, TestIds.uuid(1))
  })

  it("builders are deterministic and take overrides", () => {
    assert.deepStrictEqual(Fixtures.extraction(), Fixtures.extraction())
    assert.strictEqual(Fixtures.extraction({ status: "error" }).status, "error")
    assert.strictEqual(Fixtures.user().clientId, Fixtures.client.id)
    assert.strictEqual(Fixtures.otherUser().clientId, Fixtures.otherClient.id)
    assert.strictEqual(Fixtures.admin().role, "global_admin")
  })
})

describe("TestIds", () => {
  it("uuid(n) is a v4-shaped UUID, distinct per n; negative or fractional n is refused", () => {
    assert.strictEqual(TestIds.uuid(1), "00000000-0000-4000-8000-000000000001")
    assert.strictEqual(TestIds.uuid(255), "00000000-0000-4000-8000-0000000000ff")
    for (const n of [0, 1, 2 ** 40]) assert.match(TestIds.uuid(n), UUID_V4)
    assert.throws(() => TestIds.uuid(-1))
    assert.throws(() => TestIds.uuid(1.5))
  })

  it.effect("the layer provides IdGenerator with a fresh sequence per build", () =>
    Effect.gen(function* () {
      const draw = Effect.map(IdGenerator.IdGenerator, (ids) => [ids.uuid(), ids.uuid()])
      assert.deepStrictEqual(yield* draw.pipe(Effect.provide(TestIds.layer())), [TestIds.uuid(1), TestIds.uuid(2)])
      assert.deepStrictEqual(yield* draw.pipe(Effect.provide(TestIds.layer(10))), [TestIds.uuid(10), TestIds.uuid(11)])
      assert.deepStrictEqual(yield* draw.pipe(Effect.provide(TestIds.layer())), [TestIds.uuid(1), TestIds.uuid(2)])
    })
  )
})

describe("TestTime", () => {
  it.effect("setNow drives Effect's clock to the fixture instant", () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      assert.strictEqual(TestTime.now, "2026-03-12T10:15:30.000000+00:00")
      assert.strictEqual(yield* Timestamp.now, TestTime.now)
      yield* TestTime.setNow(TestTime.of("2024-02-29T12:00:00Z"))
      assert.strictEqual(yield* Timestamp.now, "2024-02-29T12:00:00.000000+00:00")
      assert.strictEqual(TestTime.at(1_500), "2026-03-12T10:15:31.500000+00:00")
      assert.throws(() => TestTime.of("yesterday"))
    })
  )
})
