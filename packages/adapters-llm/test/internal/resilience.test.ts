import { assert, describe, it } from "@effect/vitest"
import { classify, retryAfterMs, retryDelayMs, settings } from "../../src/internal/resilience.js"

const headers = (entries: Record<string, string>) => new Headers(entries)

describe("resilience", () => {
  it("retry-after: milliseconds, seconds, an HTTP date; absent or unreadable is undefined", () => {
    const now = Date.parse("2026-03-12T10:00:00Z")
    assert.strictEqual(retryAfterMs(headers({ "retry-after-ms": "250" }), now), 250)
    assert.strictEqual(retryAfterMs(headers({ "retry-after": "2" }), now), 2_000)
    assert.strictEqual(retryAfterMs(headers({ "retry-after": "0.5" }), now), 500)
    assert.strictEqual(retryAfterMs(headers({ "retry-after": "Thu, 12 Mar 2026 10:00:30 GMT" }), now), 30_000)
    assert.strictEqual(retryAfterMs(headers({ "retry-after": "Thu, 12 Mar 2026 09:00:00 GMT" }), now), 0)
    assert.isUndefined(retryAfterMs(headers({ "retry-after": "soon" }), now))
    assert.isUndefined(retryAfterMs(headers({}), now))
    assert.isUndefined(retryAfterMs(undefined, now))
  })

  it("the wait: the server's, capped; else full jitter under the doubling ceiling", () => {
    const s = settings(
      { backoffBase: 1_000, backoffCap: 8_000, retryAfterCap: 30_000 },
      { maxRequestBytes: 1, maxImages: 1 }
    )
    assert.strictEqual(retryDelayMs(s, 1, 5_000, 0.5), 5_000)
    assert.strictEqual(retryDelayMs(s, 1, 3_600_000, 0.5), 30_000)
    assert.strictEqual(retryDelayMs(s, 1, undefined, 0.5), 500)
    assert.strictEqual(retryDelayMs(s, 3, undefined, 0.5), 2_000)
    assert.strictEqual(retryDelayMs(s, 10, undefined, 0.999), 7_992)
    assert.strictEqual(retryDelayMs(s, 2, undefined, 0), 0)
  })

  it("what is retried and what is permanent", () => {
    const of = (status: number | undefined, timeout = false) =>
      classify("P", { status, headers: undefined, message: "m", timeout })
    for (const status of [408, 409, 429, 500, 502, 503, 504, 529]) assert.isTrue(of(status).retryable, `${status}`)
    assert.isTrue(of(undefined).retryable)
    assert.strictEqual(of(undefined, true).error.reason, "Timeout")
    assert.strictEqual(of(429).error.reason, "RateLimited")
    assert.strictEqual(of(529).error.reason, "Unavailable")
    for (const status of [400, 401, 403, 404, 413, 422]) {
      assert.isFalse(of(status).retryable, `${status}`)
      assert.isTrue(of(status).error.permanent, `${status}`)
    }
    assert.strictEqual(of(413).error.reason, "TooLarge")
    assert.strictEqual(of(401).error.message, "P: m")
  })

  it("defaults: 60 s timeout, 4 attempts, 30 s retry-after cap, 4 in flight, 4096 then 16384 tokens", () => {
    const s = settings({}, { maxRequestBytes: 30_000_000, maxImages: 20 })
    assert.deepStrictEqual(s, {
      timeoutMs: 60_000,
      policy: { maxAttempts: 4, baseMs: 1_000, capMs: 20_000 },
      retryAfterCapMs: 30_000,
      concurrency: 4,
      maxTokens: 4_096,
      maxTokensRetry: 16_384,
      budget: { maxBytes: 30_000_000, maxImages: 20, maxChars: 400_000 }
    })
  })
})
