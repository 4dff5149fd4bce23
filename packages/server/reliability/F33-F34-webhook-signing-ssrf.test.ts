/**
 * RELIABILITY.md F33 and F34 against the built server:
 * - F33: real deliveries verify with the Standard Webhooks reference library; the same requests with a tampered
 *   body, under a wrong secret or with a stale timestamp do not; after `rotate-secret` every delivery verifies with
 *   the old secret and with the new one;
 * - F34: without `LEGIBLE_WEBHOOKS_ALLOW_PRIVATE` the api refuses loopback, private, link-local, metadata and
 *   unique-local receivers (by address or by a name that resolves to one) and plain http; a worker without the flag
 *   refuses at delivery an endpoint that was allowed at registration (DNS may change); a redirect to such an address
 *   is never followed.
 */
import { Webhook as Receiver } from "standardwebhooks"
import { afterEach, describe, expect, it } from "vitest"
import { client } from "../test/support/http.js"
import { createDatabase } from "../test/support/postgres.js"
import { startServer } from "../test/support/process.js"
import { type Deployment, deploy, invoicePdf, query, submitMany, tagOf, waitFor } from "./support/cQueue.js"
import { register, startReceiver, unverified, webhookEnv } from "./support/webhooks.js"

const LOCAL = { model: "local", extraction_mode: "ocr_pipeline_md" }

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const deployed = async (name: string): Promise<{ d: Deployment; url: string }> => {
  const db = await createDatabase()
  cleanups.push(() => db.drop())
  const d = await deploy({ databaseUrl: db.url, name, env: webhookEnv() })
  cleanups.push(() => d.dispose())
  return { d, url: db.url }
}

const submit = (d: Deployment, tag: string, count: number) =>
  submitMany(d, count, (i) => ({ document: invoicePdf(tagOf(tag, i)), name: `${tag}-${i}.pdf`, extra: LOCAL }))

describe("F. webhooks: signatures and SSRF", () => {
  it("F33 deliveries verify; tampered, wrongly signed or stale ones do not; both secrets verify during a rotation", async () => {
    const { d } = await deployed("f33")
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const endpoint = await register(d, { url: receiver.url })
    await d.addWorker()
    await submit(d, "f33a", 3)
    await waitFor("3 deliveries", async () => (receiver.deliveredIds().size === 3 ? true : undefined), 120_000)
    const rotated = await d.http.jwt("POST", `/api/webhooks/${endpoint.id}/rotate-secret`, d.jwt)
    expect(rotated.status).toBe(200)
    const next = (rotated.body as { secret: string }).secret
    expect(next).not.toBe(endpoint.secret)
    await submit(d, "f33b", 3)
    await waitFor("6 deliveries", async () => (receiver.deliveredIds().size === 6 ? true : undefined), 120_000)

    const before = receiver.received.slice(0, 3)
    const after = receiver.received.slice(3)
    expect(unverified(before, endpoint.secret)).toEqual([])
    expect(unverified(before, next)).toHaveLength(3)
    expect(unverified(after, endpoint.secret)).toEqual([])
    expect(unverified(after, next)).toEqual([])
    for (const r of after) expect(r.signature.split(" ")).toHaveLength(2)

    const sample = after[0]!
    const headers = {
      "webhook-id": sample.id,
      "webhook-timestamp": sample.timestamp,
      "webhook-signature": sample.signature
    }
    const verify = (secret: string, body: string, h: Record<string, string>) => () =>
      new Receiver(secret).verify(body, h)
    expect(verify(next, sample.body, headers)).not.toThrow()
    expect(verify(next, sample.body.replace("completado", "incompleto"), headers)).toThrow()
    expect(verify(next, `${sample.body} `, headers)).toThrow()
    expect(verify(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, sample.body, headers)).toThrow()
    const stale = { ...headers, "webhook-timestamp": String(Number(sample.timestamp) - 600) }
    expect(verify(next, sample.body, stale)).toThrow(/timestamp/i)
    expect(verify(next, sample.body, { ...headers, "webhook-id": "msg_other" })).toThrow()
    console.log(
      `F33 ${receiver.received.length} deliveries verified with standardwebhooks (3 before the rotation: old secret ` +
        "only; 3 after: old and new); tampered body, extra byte, wrong secret, 10-minute-old timestamp, other id: refused"
    )
  })

  it("F34 no receiver on loopback, private, link-local, metadata or unique-local addresses, at registration or delivery; no redirects", async () => {
    const { d, url } = await deployed("f34")
    // An api with the defaults (no private addresses, https only), on the same database.
    const strict = await startServer({
      env: { ...d.env, LEGIBLE_WEBHOOKS_ALLOW_PRIVATE: "false", LEGIBLE_WEBHOOKS_ALLOW_HTTP: "false" },
      args: ["serve", "--role", "api"]
    })
    cleanups.push(() => strict.stop("SIGKILL"))
    const http = client(strict.url)
    const refusals: Array<string> = []
    for (const target of [
      "https://127.0.0.1/hook",
      "https://10.0.0.1/hook",
      "https://172.16.0.1/hook",
      "https://192.168.1.10/hook",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::1]/hook",
      "https://[fd00:ec2::254]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://localhost/hook",
      "http://93.184.215.14/hook"
    ]) {
      const reply = await http.jwt("POST", "/api/webhooks", d.jwt, { url: target })
      expect(reply.status, target).toBe(400)
      refusals.push(`${target} → ${(reply.body as { error: string }).error}`)
    }
    expect((await http.jwt("GET", "/api/webhooks", d.jwt)).body).toEqual({ webhooks: [] })

    // Allowed at registration (the permissive api), refused at delivery by a worker with the defaults.
    const target = await startReceiver()
    cleanups.push(() => target.close())
    const landing = await startReceiver()
    cleanups.push(() => landing.close())
    const redirecting = await startReceiver(() => ({ status: 302, headers: { location: landing.url } }))
    cleanups.push(() => redirecting.close())
    const direct = await register(d, { url: target.url })
    const redirect = await register(d, { url: redirecting.url })
    expect([direct.status, redirect.status]).toEqual([201, 201])
    const strictWorker = await d.addWorker({ LEGIBLE_WEBHOOKS_ALLOW_PRIVATE: "false" })
    await submit(d, "f34", 2)
    const refusedAtDelivery = await waitFor(
      "refused deliveries",
      async () => {
        const rows = await query(
          url,
          `SELECT error FROM webhook_attempts WHERE endpoint_id = '${direct.id}' AND error LIKE 'refused:%'`
        )
        return rows.length >= 2 ? rows : undefined
      },
      120_000,
      100
    )
    expect(target.received).toEqual([])
    expect(redirecting.received).toEqual([])
    await strictWorker.stop("SIGKILL")

    // A worker that may reach loopback: the direct endpoint now gets its events; the redirect is not followed.
    await d.addWorker()
    await waitFor(
      "the direct endpoint served",
      async () => (target.deliveredIds().size === 2 ? true : undefined),
      60_000
    )
    await waitFor("two redirects answered", async () => (redirecting.received.length >= 4 ? true : undefined), 60_000)
    expect(landing.received).toEqual([])
    const redirects = await query(
      url,
      `SELECT DISTINCT status_code, outcome FROM webhook_attempts
       WHERE endpoint_id = '${redirect.id}' AND status_code IS NOT NULL`
    )
    expect(redirects).toEqual([{ status_code: 302, outcome: "retrying" }])
    console.log(
      `F34 registration refused (400): ${refusals.join("; ")}. At delivery: "${String(refusedAtDelivery[0]?.error)}", ` +
        `0 requests reached the receiver; a 302 to loopback: ${redirecting.received.length} requests, ` +
        `0 followed (retried as a failure)`
    )
  })
})
