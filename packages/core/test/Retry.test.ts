import { assert, describe, it } from "@effect/vitest"
import { Retry } from "@legible/core"
import { Schema } from "effect"
import { seeded } from "./support.js"

const Policy = Schema.Struct({
  maxAttempts: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 20 })),
  baseMs: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 60_000 })),
  capMs: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3_600_000 }))
})
const Attempt = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 2_000 }))
/** A `Math.random()` result: [0, 1). */
const Unit = Schema.Number.check(Schema.isGreaterThanOrEqualTo(0), Schema.isLessThan(1))

describe("Retry.backoff", () => {
  it.prop(
    "is an integer within [0, min(cap, base · 2^(n-1)))",
    [Policy, Attempt, Unit],
    ([policy, attempt, r]) => {
      const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** (attempt - 1))
      const delay = Retry.backoff(policy, attempt, () => r)
      assert.isTrue(Number.isInteger(delay))
      assert.isAtLeast(delay, 0)
      assert.isBelow(delay, ceiling)
    },
    seeded(601, 500)
  )

  it("spans the whole range: 0 for r = 0 and ceiling − 1 for r just below 1", () => {
    const policy = Retry.defaultPolicy
    for (const [attempt, ceiling] of [
      [1, 2_000],
      [2, 4_000],
      [8, 256_000],
      [9, 300_000],
      [60, 300_000],
      [2_000, 300_000]
    ] as const) {
      assert.strictEqual(
        Retry.backoff(policy, attempt, () => 0),
        0
      )
      assert.strictEqual(
        Retry.backoff(policy, attempt, () => 1 - Number.EPSILON),
        ceiling - 1
      )
    }
  })

  it("allows exactly maxAttempts attempts", () => {
    const policy = { ...Retry.defaultPolicy, maxAttempts: 3 }
    assert.deepStrictEqual(
      [1, 2, 3, 4].map((n) => Retry.canRetry(policy, n)),
      [true, true, false, false]
    )
  })
})
