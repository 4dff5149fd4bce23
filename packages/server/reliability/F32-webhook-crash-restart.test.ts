/**
 * RELIABILITY.md F32 against the built server: a dispatching worker killed with `kill -9` mid-delivery and
 * PostgreSQL restarted mid-run (a server of the test's own) lose no event — duplicates only with the same
 * `webhook-id` and body — and 1,000 extractions give exactly 1,000 `extraction.completed` events, each delivered at
 * least once, with the commit-to-delivery latency on loopback printed.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { createDatabase } from "../test/support/postgres.js"
import { type Deployment, deploy, invoicePdf, percentile, query, submitMany, tagOf, waitFor } from "./support/cQueue.js"
import { type PrivatePostgres, startPrivatePostgres } from "./support/privatePostgres.js"
import { changedBodies, register, startReceiver, unverified, webhookEnv } from "./support/webhooks.js"

const LOCAL = { model: "local", extraction_mode: "ocr_pipeline_md" }

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

let pg: PrivatePostgres | undefined
afterAll(() => pg?.dispose())

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const completedEvents = async (url: string) =>
  (await query(url, "SELECT id::text AS id FROM webhook_events WHERE type = 'extraction.completed'")).map(
    (r) => r.id as string
  )

describe("F32 webhooks survive crashes and restarts", () => {
  it("F32 kill -9 of the dispatching worker mid-delivery, then a PostgreSQL restart: every event delivered, duplicates only with the same webhook-id", async () => {
    pg = await startPrivatePostgres({ database: "legible_f32" })
    const url = pg.url("legible_f32")
    const EXTRACTIONS = 40
    // The first request of each event is answered after 1.5 s: deliveries are always in flight.
    const receiver = await startReceiver((r) => (r.seen === 1 ? { status: 200, delayMs: 1500 } : { status: 200 }))
    cleanups.push(() => receiver.close())
    const d: Deployment = await deploy({
      databaseUrl: url,
      name: "f32",
      env: webhookEnv({ LEGIBLE_WEBHOOKS_TIMEOUT_SECONDS: "2" }),
      workers: 2
    })
    cleanups.push(() => d.dispose())
    const endpoint = await register(d, { url: receiver.url, events: ["extraction.completed"] })
    expect(endpoint.status).toBe(201)
    await submitMany(d, EXTRACTIONS, (i) => ({
      document: invoicePdf(tagOf("f32", i)),
      name: `f32-${i}.pdf`,
      extra: LOCAL
    }))

    // kill -9 the first worker while it holds deliveries whose requests the receiver has already got.
    const victim = d.workers[0]!
    const held = await waitFor(
      "the first worker to hold deliveries",
      async () => {
        const rows = await query(
          url,
          `SELECT count(*)::int AS n FROM webhook_deliveries
           WHERE state = 'running' AND locked_by LIKE '%-${victim.pid}-%'`
        )
        return (rows[0]?.n as number) >= 2 ? (rows[0]?.n as number) : undefined
      },
      120_000,
      20
    )
    victim.child.kill("SIGKILL")
    await victim.exited
    const killedAt = Date.now()

    // PostgreSQL crashes at once, with the victim's deliveries unsettled and extractions still running; the other
    // worker rides it out, and a replacement starts once it is back.
    const [pendingAtStop] = await query(
      url,
      `SELECT (SELECT count(*)::int FROM webhook_deliveries WHERE state <> 'delivered') AS deliveries,
         (SELECT count(*)::int FROM extractions WHERE status <> 'completado') AS extractions`
    )
    pg.stop("immediate")
    await sleep(3000)
    pg.start()
    const upAt = Date.now()
    await d.addWorker()

    await waitFor(
      `${EXTRACTIONS} completed events delivered`,
      async () => {
        const ids = await completedEvents(url)
        const delivered = receiver.deliveredIds()
        return ids.length === EXTRACTIONS && ids.every((id) => delivered.has(id)) ? true : undefined
      },
      240_000,
      250
    )
    const doneAt = Date.now()
    const events = await completedEvents(url)
    const [done] = await query(url, "SELECT count(*)::int AS n FROM extractions WHERE status = 'completado'")
    expect(done?.n).toBe(EXTRACTIONS)
    expect(new Set(events).size).toBe(EXTRACTIONS)
    expect(pendingAtStop?.deliveries as number).toBeGreaterThanOrEqual(held)
    const known = new Set(events)
    expect(receiver.received.filter((r) => !known.has(r.id))).toEqual([])
    expect(unverified(receiver.received, endpoint.secret)).toEqual([])
    expect(changedBodies(receiver.received)).toEqual([])
    const duplicates = receiver.received.length - new Set(receiver.received.map((r) => r.id)).size
    for (const w of d.workers.slice(1)) expect(w.child.exitCode, w.stderr().slice(-2000)).toBe(null)
    console.log(
      `F32 ${EXTRACTIONS} events, a worker killed holding ${held} deliveries, PostgreSQL down 3 s with ` +
        `${String(pendingAtStop?.deliveries)} deliveries unsettled and ${String(pendingAtStop?.extractions)} extractions ` +
        "unfinished: " +
        `${EXTRACTIONS}/${EXTRACTIONS} delivered (${receiver.received.length} requests, ${duplicates} duplicates, ` +
        `each with its event's webhook-id and body), all ${((doneAt - upAt) / 1000).toFixed(1)} s after the restart ` +
        `(${((doneAt - killedAt) / 1000).toFixed(1)} s after the kill)`
    )
  })

  it("F32 1,000 extractions → exactly 1,000 extraction.completed events, each delivered at least once", async () => {
    const db = await createDatabase()
    cleanups.push(() => db.drop())
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const d = await deploy({
      databaseUrl: db.url,
      name: "f32k",
      env: webhookEnv({ LEGIBLE_WORKER_CONCURRENCY: "4" }),
      workers: 2
    })
    cleanups.push(() => d.dispose())
    const endpoint = await register(d, { url: receiver.url, events: ["extraction.completed"] })
    const started = Date.now()
    await submitMany(
      d,
      1000,
      (i) => ({ document: invoicePdf(tagOf("f32k", i)), name: `f32k-${i}.pdf`, extra: LOCAL }),
      16
    )
    await waitFor(
      "1,000 completed events delivered",
      async () => {
        const ids = await completedEvents(db.url)
        return ids.length === 1000 && receiver.deliveredIds().size === 1000 ? true : undefined
      },
      300_000,
      250
    )
    const seconds = (Date.now() - started) / 1000
    const events = await query(
      db.url,
      `SELECT id::text AS id, (extract(epoch FROM created_at) * 1000)::float8 AS at
       FROM webhook_events WHERE type = 'extraction.completed'`
    )
    expect(events).toHaveLength(1000)
    const [others] = await query(
      db.url,
      "SELECT count(*)::int AS n FROM webhook_events WHERE type <> 'extraction.completed'"
    )
    expect(others?.n).toBe(0)
    expect(receiver.deliveredIds()).toEqual(new Set(events.map((e) => e.id as string)))
    expect(unverified(receiver.received, endpoint.secret)).toEqual([])
    const firstArrival = new Map<string, number>()
    for (const r of receiver.received) if (!firstArrival.has(r.id)) firstArrival.set(r.id, r.at)
    const latency = events.map((e) => firstArrival.get(e.id as string)! - (e.at as number))
    console.log(
      `F32 1000 extractions → 1000 extraction.completed events, ${receiver.received.length} deliveries, all verified; ` +
        `commit-to-delivery on loopback p50 ${percentile(latency, 50).toFixed(0)} ms, p99 ` +
        `${percentile(latency, 99).toFixed(0)} ms, max ${Math.max(...latency).toFixed(0)} ms; ${seconds.toFixed(1)} s in all`
    )
  })
})
