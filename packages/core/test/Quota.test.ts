import { assert, describe, it } from "@effect/vitest"
import { Quota, Timestamp } from "@legible/core"
import { TestTime } from "@legible/testkit"
import { Arbitrary, Schema } from "effect"
import { seeded } from "./support.js"

/** Instants from 1970 to 2200, in epoch milliseconds. */
const Instant = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Date.UTC(2200, 0, 1) }))
const ts = TestTime.of

const quota = (overrides: Partial<Quota.Quota> = {}): Quota.Quota => ({
  clientId: "client-acme",
  limit: 3,
  period: "month",
  periodStart: Quota.periodStart("month", TestTime.now),
  used: 0,
  ...overrides
})

describe("Quota periods", () => {
  it.prop(
    "periodStart ≤ now < periodEnd, both at UTC midnight, and periods tile time",
    [Instant, Quota.Period],
    ([millis, period]) => {
      const now = Timestamp.fromMillis(millis)
      const start = Quota.periodStart(period, now)
      const end = Quota.periodEnd(period, now)
      assert.isAtMost(Timestamp.toMillis(start), millis)
      assert.isBelow(millis, Timestamp.toMillis(end))
      for (const edge of [start, end]) assert.match(edge, /T00:00:00\.000000\+00:00$/)
      if (period === "month") {
        assert.match(start, /^\d{4}-\d{2}-01T/)
        assert.match(end, /^\d{4}-\d{2}-01T/)
      }
      // The next period starts where this one ends, and the last instant of this one still belongs to it.
      assert.strictEqual(Quota.periodStart(period, end), end)
      assert.strictEqual(Quota.periodStart(period, Timestamp.fromMillis(Timestamp.toMillis(end) - 1)), start)
    },
    seeded(401, 500)
  )

  it("month boundaries, leap years and December → January", () => {
    const cases: ReadonlyArray<[string, string, string]> = [
      ["2024-02-29T23:59:59.999Z", "2024-02-01T00:00:00Z", "2024-03-01T00:00:00Z"],
      ["2023-02-28T12:00:00Z", "2023-02-01T00:00:00Z", "2023-03-01T00:00:00Z"],
      ["2100-02-28T23:59:59.999Z", "2100-02-01T00:00:00Z", "2100-03-01T00:00:00Z"],
      ["2000-02-29T00:00:00Z", "2000-02-01T00:00:00Z", "2000-03-01T00:00:00Z"],
      ["2025-12-31T23:59:59.999Z", "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z"],
      ["2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"],
      ["2026-04-30T23:59:59.999Z", "2026-04-01T00:00:00Z", "2026-05-01T00:00:00Z"]
    ]
    for (const [now, start, end] of cases) {
      assert.strictEqual(Quota.periodStart("month", ts(now)), ts(start), now)
      assert.strictEqual(Quota.periodEnd("month", ts(now)), ts(end), now)
    }
    assert.strictEqual(Quota.periodEnd("day", ts("2024-02-28T10:00:00Z")), ts("2024-02-29T00:00:00Z"))
    assert.strictEqual(Quota.periodEnd("day", ts("2025-12-31T23:59:59.999Z")), ts("2026-01-01T00:00:00Z"))
  })
})

describe("Quota.reserve and release", () => {
  it("refuses at the limit with the limit and the usage; null limit is unlimited", () => {
    const full = quota({ used: 3 })
    assert.deepStrictEqual(Quota.reserve(full, TestTime.now), { _tag: "Exhausted", limit: 3, used: 3 })
    const unlimited = Quota.reserve(quota({ limit: null, used: 10_000 }), TestTime.now)
    assert.strictEqual(unlimited._tag === "Granted" ? unlimited.quota.used : -1, 10_001)
    assert.deepStrictEqual(Quota.reserve(quota({ limit: 0 }), TestTime.now), { _tag: "Exhausted", limit: 0, used: 0 })
  })

  it("a new period starts from zero; a release of the previous period gives nothing back", () => {
    const march = quota({ used: 3, periodStart: ts("2026-03-01T00:00:00Z") })
    const april = Quota.reserve(march, ts("2026-04-01T00:00:00Z"))
    assert.deepStrictEqual(april, {
      _tag: "Granted",
      quota: { ...march, periodStart: ts("2026-04-01T00:00:00Z"), used: 1 }
    })
    assert.strictEqual(Quota.usedAt(march, ts("2026-04-15T00:00:00Z")), 0)
    if (april._tag === "Granted") {
      assert.strictEqual(Quota.release(april.quota, ts("2026-03-31T23:59:59Z")).used, 1)
      assert.strictEqual(Quota.release(april.quota, ts("2026-04-01T00:00:01Z")).used, 0)
    }
  })

  const Op = Schema.Struct({
    kind: Schema.Literals(["reserve", "release"]),
    /** Milliseconds into a two-month window starting 2026-03-01, so some operations cross into April. */
    offset: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 61 * 86_400_000 - 1 }))
  })
  const Ops = Arbitrary.schema(Schema.Array(Op)).pipe(
    Arbitrary.map((ops) => [...ops].sort((a, b) => a.offset - b.offset))
  )
  const Limit = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 5 }))

  it.prop(
    "over any sequence in time, usage never exceeds the limit nor drops below zero, and refusals are exact",
    [Ops, Limit],
    ([ops, limit]) => {
      const base = Date.UTC(2026, 2, 1)
      let q = quota({ limit, periodStart: Quota.periodStart("month", Timestamp.fromMillis(base)) })
      // The model: a count per calendar month, and the reservation instants still outstanding.
      const granted = new Map<string, number>()
      for (const op of ops) {
        const at = Timestamp.fromMillis(base + op.offset)
        const month = at.slice(0, 7)
        if (op.kind === "reserve") {
          const outcome = Quota.reserve(q, at)
          const used = granted.get(month) ?? 0
          if (used >= limit) {
            assert.deepStrictEqual(outcome, { _tag: "Exhausted", limit, used })
          } else {
            assert.strictEqual(outcome._tag, "Granted")
            if (outcome._tag === "Granted") q = outcome.quota
            granted.set(month, used + 1)
          }
        } else {
          q = Quota.release(q, at)
          if (q.periodStart.slice(0, 7) === month) granted.set(month, Math.max(0, (granted.get(month) ?? 0) - 1))
        }
        assert.isAtMost(Quota.usedAt(q, at), limit)
        assert.isAtLeast(q.used, 0)
        assert.strictEqual(Quota.usedAt(q, at), q.periodStart.slice(0, 7) === month ? (granted.get(month) ?? 0) : 0)
      }
    },
    seeded(402, 300)
  )
})
