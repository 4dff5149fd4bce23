/**
 * RELIABILITY.md F30 and F31 against the built server (api + worker processes, PostgreSQL):
 * - F30: every state change that is an event commits with its event, and only a committed change has one;
 * - F31: a receiver that is down (its port held, every connection reset: a network error, no status, as when
 *   refused), then answers 500, 503 with `Retry-After`, then hangs past the timeout, gets every event in the end,
 *   every request signed (verified with `standardwebhooks`), one `webhook-id` per event, the waits at least the
 *   schedule's (jitter included) and the `Retry-After`.
 */
import { afterEach, describe, expect, it } from "vitest"
import { createDatabase } from "../test/support/postgres.js"
import { type Deployment, deploy, invoicePdf, percentile, query, submitMany, tagOf, waitFor } from "./support/cQueue.js"
import { changedBodies, register, startReceiver, unverified, webhookEnv } from "./support/webhooks.js"

const LOCAL = { model: "local", extraction_mode: "ocr_pipeline_md" }
const EVENTS = 12
const RETRY_AFTER_S = 2

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const deployed = async (env: Record<string, string>, workers = 1): Promise<{ d: Deployment; url: string }> => {
  const db = await createDatabase()
  cleanups.push(() => db.drop())
  const d = await deploy({ databaseUrl: db.url, name: "f31", env: webhookEnv(env), workers })
  cleanups.push(() => d.dispose())
  return { d, url: db.url }
}

describe("F. webhooks: outbox and retries", () => {
  it("F30 every event commits with its state change: completed, failed, status_changed; a rolled-back change has none", async () => {
    // One attempt per job: the broken document ends in `error` at once.
    const { d, url } = await deployed({ LEGIBLE_MAX_ATTEMPTS: "1" })
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const endpoint = await register(d, { url: receiver.url })
    expect(endpoint.status).toBe(201)
    const ids = await submitMany(d, 5, (i) => ({
      document: invoicePdf(tagOf("f30", i)),
      name: `f30-${i}.pdf`,
      extra: LOCAL
    }))
    const [broken] = await submitMany(d, 1, () => ({
      document: invoicePdf(tagOf("f30", 99)).slice(0, 300),
      name: "broken.pdf",
      extra: LOCAL
    }))
    await waitFor(
      "every extraction final",
      async () => {
        const [row] = await query(
          url,
          "SELECT count(*)::int AS n FROM extractions WHERE status IN ('completado', 'incompleto', 'error')"
        )
        return row?.n === 6 ? true : undefined
      },
      120_000,
      200
    )
    const patched = await d.http.key("PATCH", `/v1/extractions/${ids[0]}/status`, d.key, {
      status: "incompleto",
      message: "revisar"
    })
    expect(patched.status).toBe(200)
    // A change that never commits: no event may appear for it.
    await query(url, "BEGIN", `UPDATE extractions SET status = 'incompleto' WHERE id = '${ids[1]}'`, "ROLLBACK")
    const mismatched = await query(
      url,
      `SELECT e.id::text, e.status,
         (SELECT count(*)::int FROM webhook_events v WHERE v.extraction_id = e.id
            AND v.type = CASE e.status WHEN 'completado' THEN 'extraction.completed'
              WHEN 'error' THEN 'extraction.failed' ELSE 'extraction.status_changed' END) AS final_events
       FROM extractions e WHERE e.id <> '${ids[0]}'`
    )
    expect(mismatched.filter((r) => r.final_events !== 1)).toEqual([])
    const events = await query(
      url,
      "SELECT extraction_id::text AS id, type, status, previous_status FROM webhook_events ORDER BY seq"
    )
    expect(events).toHaveLength(7)
    expect(events.filter((e) => e.id === ids[1])).toHaveLength(1)
    expect(events.at(-1)).toEqual({
      id: ids[0],
      type: "extraction.status_changed",
      status: "incompleto",
      previous_status: "completado"
    })
    const [brokenStatus] = await query(url, `SELECT status FROM extractions WHERE id = '${broken}'`)
    await waitFor("all 7 events delivered", async () => (receiver.deliveredIds().size === 7 ? true : undefined), 30_000)
    expect(unverified(receiver.received, endpoint.secret)).toEqual([])
    console.log(
      `F30 6 extractions (5 + 1 broken, ended ${String(brokenStatus?.status)}) + 1 PATCH + 1 rolled-back UPDATE → ` +
        `7 events, one per committed change; ${receiver.received.length} deliveries, all verified`
    )
  })

  it("F31 a receiver down, then 500, 503 + Retry-After, then hanging, gets every event; waits follow the schedule", async () => {
    const receiver = await startReceiver(
      (r) =>
        r.seen === 1
          ? { status: 500 }
          : r.seen === 2
            ? { status: 503, headers: { "retry-after": String(RETRY_AFTER_S) } }
            : r.seen === 3
              ? "hang"
              : { status: 200 },
      { listening: false }
    )
    cleanups.push(() => receiver.close())
    const { d, url } = await deployed({})
    const endpoint = await register(d, { url: receiver.url, events: ["extraction.completed"] })
    expect(endpoint.status).toBe(201)
    await submitMany(d, EVENTS, (i) => ({ document: invoicePdf(tagOf("f31", i)), name: `f31-${i}.pdf`, extra: LOCAL }))
    // Down (every connection reset; the port stays the receiver's) until the first attempts have failed.
    await waitFor(
      "attempts without a status",
      async () => {
        const [row] = await query(url, "SELECT count(*)::int AS n FROM webhook_attempts WHERE status_code IS NULL")
        return (row?.n as number) >= 3 ? true : undefined
      },
      120_000,
      100
    )
    await receiver.listen()
    await waitFor(
      `all ${EVENTS} events delivered`,
      async () => {
        const [events] = await query(url, "SELECT count(*)::int AS n FROM webhook_events")
        return events?.n === EVENTS && receiver.deliveredIds().size === EVENTS ? true : undefined
      },
      180_000,
      200
    )
    const eventIds = (await query(url, "SELECT id::text AS id FROM webhook_events")).map((r) => r.id as string)
    expect(receiver.deliveredIds()).toEqual(new Set(eventIds))
    expect(unverified(receiver.received, endpoint.secret)).toEqual([])
    expect(changedBodies(receiver.received)).toEqual([])

    // The attempt log: each wait at least 0.8 × its scheduled wait, and the Retry-After's whole.
    const attempts = await query(
      url,
      `SELECT event_id::text AS id, attempt, status_code, error, outcome,
         (extract(epoch FROM created_at) * 1000)::float8 AS at FROM webhook_attempts ORDER BY event_id, attempt`
    )
    const schedule = [500, 1000]
    const waits: Array<number> = []
    const short: Array<string> = []
    const retryAfterWaits: Array<number> = []
    for (let i = 1; i < attempts.length; i++) {
      const [prev, next] = [attempts[i - 1]!, attempts[i]!]
      if (prev.id !== next.id) continue
      const wait = (next.at as number) - (prev.at as number)
      waits.push(wait)
      const scheduled = schedule[Math.min((prev.attempt as number) - 1, 1)]!
      if (wait < 0.8 * scheduled - 50) short.push(`${prev.id} after attempt ${prev.attempt}: ${wait} ms`)
      if (prev.status_code === 503) retryAfterWaits.push(wait)
    }
    expect(short).toEqual([])
    expect(retryAfterWaits).toHaveLength(EVENTS)
    expect(Math.min(...retryAfterWaits)).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50)
    const outcomes = new Set(attempts.map((a) => `${a.status_code ?? a.error}`))
    for (const expectedOutcome of ["500", "503", "200", "no answer within 1 s"]) {
      expect(outcomes).toContain(expectedOutcome)
    }
    const failed = [...outcomes].filter((o) => o.startsWith("connection failed"))
    expect(failed).not.toEqual([])
    const delivered = attempts.filter((a) => a.outcome === "delivered")
    expect(delivered).toHaveLength(EVENTS)
    const log = await d.http.jwt("GET", `/api/webhooks/${endpoint.id}/deliveries?limit=100`, d.jwt)
    expect(log.status).toBe(200)
    expect((log.body as { deliveries: Array<unknown> }).deliveries.length).toBe(Math.min(100, attempts.length))
    const perEvent = attempts.length / EVENTS
    console.log(
      `F31 ${EVENTS} events: ${attempts.length} attempts (${perEvent.toFixed(1)} per event: ` +
        `${failed.join(" or ")}, 500, 503, timeout, 200), ${receiver.received.length} requests received, ` +
        `all verified, one webhook-id per event; waits p50 ${percentile(waits, 50).toFixed(0)} ms, ` +
        `min after 503 Retry-After ${RETRY_AFTER_S} s: ${Math.min(...retryAfterWaits).toFixed(0)} ms`
    )
  })
})
