import { assert, describe, it } from "@effect/vitest"
import { Webhook } from "@legible/core"

const MINUTE = 60_000
const policy: Webhook.DeliveryPolicy = { schedule: Webhook.STANDARD_SCHEDULE_MS, disableAfterMs: 5 * 24 * 60 * MINUTE }
const now = Date.parse("2026-03-12T10:00:00Z")

describe("Webhook.retryDelay", () => {
  it("follows the Standard Webhooks schedule with ±20 % jitter, then stops", () => {
    assert.deepStrictEqual(Webhook.STANDARD_SCHEDULE_MS.slice(0, 3), [5_000, 5 * MINUTE, 30 * MINUTE])
    for (let attempt = 1; attempt <= 9; attempt++) {
      const base = Webhook.STANDARD_SCHEDULE_MS[attempt - 1]!
      assert.strictEqual(
        Webhook.retryDelay(Webhook.STANDARD_SCHEDULE_MS, attempt, () => 0),
        Math.round(base * 0.8)
      )
      assert.strictEqual(
        Webhook.retryDelay(Webhook.STANDARD_SCHEDULE_MS, attempt, () => 0.5),
        base
      )
      assert.isBelow(Webhook.retryDelay(Webhook.STANDARD_SCHEDULE_MS, attempt, () => 0.999_999)!, base * 1.2 + 1)
    }
    assert.isUndefined(
      Webhook.retryDelay(Webhook.STANDARD_SCHEDULE_MS, 10, () => 0.5),
      "10 attempts in all"
    )
  })

  it("a Retry-After lengthens the wait, never shortens it, and is capped at 24 h", () => {
    assert.strictEqual(
      Webhook.retryDelay([1_000], 1, () => 0.5, 60_000),
      60_000
    )
    assert.strictEqual(
      Webhook.retryDelay([10_000], 1, () => 0.5, 1),
      10_000
    )
    assert.strictEqual(
      Webhook.retryDelay([1_000], 1, () => 0.5, 10 ** 12),
      Webhook.MAX_RETRY_AFTER_MS
    )
  })
})

describe("Webhook.decide", () => {
  const answered = (status: number, retryAfterMs?: number): Webhook.Response => ({
    _tag: "Answered",
    status,
    retryAfterMs
  })

  it("2xx delivers; 410 disables; 3xx, 4xx, 5xx and no answer retry on the schedule", () => {
    assert.deepStrictEqual(
      Webhook.decide(policy, answered(204), 1, null, now, () => 0.5),
      { _tag: "Delivered" }
    )
    const gone = Webhook.decide(policy, answered(410), 1, null, now, () => 0.5)
    assert.strictEqual(gone._tag, "Failed")
    assert.include(gone._tag === "Failed" ? gone.disable : "", "410")
    for (const response of [answered(302), answered(400), answered(500), { _tag: "NoAnswer", error: "x" } as const]) {
      assert.deepStrictEqual(
        Webhook.decide(policy, response, 2, now - MINUTE, now, () => 0.5),
        {
          _tag: "Retry",
          delayMs: 5 * MINUTE
        }
      )
    }
  })

  it("Retry-After counts on 429 and 503 only", () => {
    const hour = 60 * MINUTE
    assert.deepStrictEqual(
      Webhook.decide(policy, answered(429, hour), 1, null, now, () => 0.5),
      {
        _tag: "Retry",
        delayMs: hour
      }
    )
    assert.deepStrictEqual(
      Webhook.decide(policy, answered(503, hour), 1, null, now, () => 0.5),
      {
        _tag: "Retry",
        delayMs: hour
      }
    )
    assert.deepStrictEqual(
      Webhook.decide(policy, answered(500, hour), 1, null, now, () => 0.5),
      {
        _tag: "Retry",
        delayMs: 5_000
      }
    )
  })

  it("an endpoint failing for the configured time is disabled; the schedule used up fails the delivery", () => {
    const failing = Webhook.decide(policy, answered(500), 3, now - policy.disableAfterMs, now, () => 0.5)
    assert.strictEqual(failing._tag, "Failed")
    assert.match(failing._tag === "Failed" ? (failing.disable ?? "") : "", /failed for 432000 s/)
    assert.deepStrictEqual(
      Webhook.decide(policy, answered(500), 10, now - MINUTE, now, () => 0.5),
      {
        _tag: "Failed",
        disable: null
      }
    )
  })
})

describe("Webhook events and secrets", () => {
  it("eventTypeOf: completed from processing, failed on error, status_changed for PATCHes and incompleto", () => {
    assert.strictEqual(Webhook.eventTypeOf("procesando", "completado"), "extraction.completed")
    assert.strictEqual(Webhook.eventTypeOf("procesando", "error"), "extraction.failed")
    assert.strictEqual(Webhook.eventTypeOf("procesando", "incompleto"), "extraction.status_changed")
    assert.strictEqual(Webhook.eventTypeOf("incompleto", "completado"), "extraction.status_changed")
    assert.strictEqual(Webhook.eventTypeOf("completado", "incompleto"), "extraction.status_changed")
    assert.isUndefined(Webhook.eventTypeOf("en cola", "procesando"))
    assert.isUndefined(Webhook.eventTypeOf("procesando", "en cola"))
  })

  it("secrets are whsec_ + base64 of 32 random bytes, all distinct", () => {
    const secrets = new Set(Array.from({ length: 200 }, () => Webhook.generateSecret()))
    assert.strictEqual(secrets.size, 200)
    for (const secret of secrets) {
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
      assert.strictEqual(Buffer.from(secret.slice(6), "base64").length, 32)
    }
  })

  it("the body is {type, timestamp, data} with data's members in the documented order", () => {
    const body = Webhook.body({
      id: "e",
      type: "extraction.failed",
      timestamp: "2026-03-12T10:15:30.123456+00:00" as never,
      clientId: "c",
      sandbox: false,
      data: {
        last_modification: "2026-03-12T10:15:30.000001+00:00" as never,
        origin_name: "f.pdf",
        habilidad_id: "s",
        skill_name: "Factura",
        previous_status: "procesando",
        status: "error",
        extraction_id: "x"
      }
    })
    assert.strictEqual(
      body,
      '{"type":"extraction.failed","timestamp":"2026-03-12T10:15:30.123456+00:00","data":{"extraction_id":"x",' +
        '"status":"error","previous_status":"procesando","skill_name":"Factura","habilidad_id":"s",' +
        '"origin_name":"f.pdf","last_modification":"2026-03-12T10:15:30.000001+00:00"}}'
    )
  })
})
