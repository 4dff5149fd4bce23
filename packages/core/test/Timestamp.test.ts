import { assert, describe, it } from "@effect/vitest"
import { Timestamp } from "@legible/core"
import { Effect, Schema } from "effect"
import { TestClock } from "effect/testing"
import { seeded } from "./support.js"

/** Microseconds from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z: every instant the format can write. */
const Micros = Schema.BigInt.check(
  Schema.isBetweenBigInt({ minimum: -62_135_596_800_000_000n, maximum: 253_402_300_799_999_999n })
)

describe("Timestamp", () => {
  it.prop(
    "fromEpochMicros writes the spec format and toEpochMicros reads it back exactly",
    [Micros],
    ([micros]) => {
      const ts = Timestamp.fromEpochMicros(micros)
      assert.match(ts, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/)
      assert.isTrue(Schema.is(Timestamp.Timestamp)(ts))
      assert.strictEqual(Timestamp.toEpochMicros(ts), micros)
      // The text is the ISO instant of the same milliseconds, with the microseconds appended.
      const millis = Number(micros >= 0n ? micros / 1000n : -((-micros + 999n) / 1000n))
      assert.strictEqual(`${ts.slice(0, 23)}Z`, new Date(millis).toISOString())
    },
    seeded(701, 1_000)
  )

  it("known instants, before and after the epoch", () => {
    assert.strictEqual(Timestamp.fromEpochMicros(0n), "1970-01-01T00:00:00.000000+00:00")
    assert.strictEqual(Timestamp.fromEpochMicros(1n), "1970-01-01T00:00:00.000001+00:00")
    assert.strictEqual(Timestamp.fromEpochMicros(-1n), "1969-12-31T23:59:59.999999+00:00")
    assert.strictEqual(Timestamp.fromEpochMicros(-1_000_001n), "1969-12-31T23:59:58.999999+00:00")
    assert.strictEqual(Timestamp.fromEpochMicros(1_773_310_530_123_456n), "2026-03-12T10:15:30.123456+00:00")
    assert.strictEqual(Timestamp.fromMillis(Date.UTC(2024, 1, 29, 23, 59, 59, 999)), "2024-02-29T23:59:59.999000+00:00")
    assert.strictEqual(Timestamp.toMillis(Timestamp.fromEpochMicros(1_999n)), 1)
  })

  it("timestamps of the format sort as text in time order", () => {
    const instants = [-1_000_001n, -1n, 0n, 1n, 999_999n, 1_000_000n, 1_773_310_530_123_456n]
    const texts = instants.map(Timestamp.fromEpochMicros)
    assert.deepStrictEqual([...texts].sort(), texts)
  })

  it.effect("now reads Effect's Clock at microsecond precision", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(Date.UTC(2026, 2, 12, 10, 15, 30, 123))
      assert.strictEqual(yield* Timestamp.now, "2026-03-12T10:15:30.123000+00:00")
      yield* TestClock.adjust(1)
      assert.strictEqual(yield* Timestamp.now, "2026-03-12T10:15:30.124000+00:00")
    })
  )
})
