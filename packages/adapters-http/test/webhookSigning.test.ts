/** Standard Webhooks signing, verified with the reference library (`standardwebhooks`) as a receiver would. */
import { assert, describe, it } from "@effect/vitest"
import { Webhook } from "@legible/core"
import { Webhook as Receiver } from "standardwebhooks"

const payload = '{"type":"extraction.completed","timestamp":"2026-03-12T10:15:30.123456+00:00","data":{}}'
const id = "9f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b"

const signedNow = (secrets: ReadonlyArray<string>, body = payload) =>
  Webhook.headers(secrets, id, Math.floor(Date.now() / 1000), body)

describe("Webhook.headers", () => {
  it("verifies with the reference library; our signature equals its own", () => {
    const secret = Webhook.generateSecret()
    const headers = signedNow([secret])
    assert.deepStrictEqual(new Receiver(secret).verify(payload, headers), JSON.parse(payload))
    const at = new Date(Number(headers["webhook-timestamp"]) * 1000)
    assert.strictEqual(headers["webhook-signature"], new Receiver(secret).sign(id, at, payload))
    assert.strictEqual(headers["webhook-id"], id)
    assert.strictEqual(headers["content-type"], "application/json")
  })

  it("a tampered body, a wrong secret or a stale timestamp fail verification", () => {
    const secret = Webhook.generateSecret()
    const headers = signedNow([secret])
    assert.throws(() => new Receiver(secret).verify(payload.replace("completed", "failed"), headers))
    assert.throws(() => new Receiver(Webhook.generateSecret()).verify(payload, headers))
    const stale = Webhook.headers([secret], id, Math.floor(Date.now() / 1000) - 10 * 60, payload)
    assert.throws(() => new Receiver(secret).verify(payload, stale), /timestamp/i)
    const future = Webhook.headers([secret], id, Math.floor(Date.now() / 1000) + 10 * 60, payload)
    assert.throws(() => new Receiver(secret).verify(payload, future), /timestamp/i)
    assert.throws(() => new Receiver(secret).verify(payload, { ...headers, "webhook-id": "other" }))
  })

  it("during a rotation both secrets verify the same delivery", () => {
    const [next, previous] = [Webhook.generateSecret(), Webhook.generateSecret()]
    const headers = signedNow([next, previous])
    assert.lengthOf(headers["webhook-signature"]!.split(" "), 2)
    assert.doesNotThrow(() => new Receiver(next).verify(payload, headers))
    assert.doesNotThrow(() => new Receiver(previous).verify(payload, headers))
    assert.throws(() => new Receiver(Webhook.generateSecret()).verify(payload, headers))
  })
})
