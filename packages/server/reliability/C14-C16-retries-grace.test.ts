/**
 * RELIABILITY.md C14–C16: retries and graceful stops of the queue's workers, end to end (the BUILT server as real
 * processes on a fresh PostgreSQL database each, a fake OpenAI-compatible provider on loopback). Their assertions
 * bound wall-clock times — C14/C15's retry gaps, C16's drain and release within the grace — so this file runs alone,
 * after the others (`vitest.reliability.config.ts`). C11–C13 and C17 are in C-queue-workers.test.ts.
 */
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "vitest"
import { ROOT } from "../test/support/process.js"
import {
  awaitAllFinal,
  heldBy,
  installClaimLog,
  invoicePdf,
  jobRows,
  LOCAL,
  perTest,
  query,
  REMOTE,
  remoteEnv,
  submitMany,
  tagOf,
  textBombPdf,
  waitFor
} from "./support/cQueue.js"

/** The odd PDFs of the shared corpus (by path, never copied). */
const ODD = Path.join(ROOT, "../shared/data/odd-pdfs")

const { database, deployment, fakeLlm } = perTest()

describe("C. queue and workers: retries and graces", () => {
  it("C14 transient failures retry with exponential backoff + full jitter up to the max; permanent failures end after 1 attempt", async () => {
    const fake = await fakeLlm((r) => {
      if (r.tag?.startsWith("T-transient-") === true)
        return { _tag: "Error", status: 500, message: "upstream overloaded" }
      if (r.tag?.startsWith("T-flaky-") === true && r.n < 2) return { _tag: "Error", status: 503, message: "try later" }
      if (r.tag?.startsWith("T-reject-") === true)
        return { _tag: "Error", status: 400, message: "Invalid image: the document could not be processed" }
      return { _tag: "Values" }
    })
    const db = await database()
    const d = await deployment({
      databaseUrl: db.url,
      name: "c14",
      env: remoteEnv(fake, { LEGIBLE_MAX_ATTEMPTS: "4", LEGIBLE_WORKER_CONCURRENCY: "8" }),
      workers: 2
    })
    const transient = await submitMany(d, 16, (i) => ({
      document: invoicePdf(tagOf("transient", i)),
      name: `t-${i}.pdf`,
      extra: REMOTE
    }))
    const flaky = await submitMany(d, 4, (i) => ({
      document: invoicePdf(tagOf("flaky", i)),
      name: `f-${i}.pdf`,
      extra: REMOTE
    }))
    const rejected = await submitMany(d, 2, (i) => ({
      document: invoicePdf(tagOf("reject", i)),
      name: `r-${i}.pdf`,
      extra: REMOTE
    }))
    const odd = (name: string) => readFileSync(Path.join(ODD, name))
    const files = [
      { name: "print_protection.pdf", why: /encrypt|password/i },
      { name: "bug1020226.pdf", why: /could not be read/i },
      { name: "gen_zero_pages.pdf", why: /page/i }
    ]
    const permanent = await submitMany(d, files.length, (i) => ({
      document: odd(files[i]!.name),
      name: files[i]!.name,
      extra: LOCAL
    }))
    const all = [...transient, ...flaky, ...rejected, ...permanent]
    await awaitAllFinal(db.url, all.length, 120_000)
    const rows = new Map((await jobRows(db.url)).map((r) => [r.id, r]))

    // Transient: 4 attempts each, the waits growing (ceilings 2 s, 4 s, 8 s) and jittered.
    const gaps: Array<Array<number>> = [[], [], []]
    for (const [i, id] of transient.entries()) {
      const row = rows.get(id)!
      expect(row, id).toMatchObject({ status: "error", state: "failed", attempts: 4 })
      expect(row.error_message).toMatch(/upstream overloaded.*gave up after 4 attempts/)
      const calls = fake.byTag(tagOf("transient", i))
      expect(calls).toHaveLength(4)
      for (let k = 0; k < 3; k++) gaps[k]!.push(calls[k + 1]!.at - calls[k]!.at)
    }
    // Each wait is at most its ceiling (plus the time to claim and read the file again, generous under load).
    const slackMs = 2500
    gaps.forEach((g, k) => {
      for (const gap of g) expect(gap, `wait after attempt ${k + 1}`).toBeLessThanOrEqual(2000 * 2 ** k + slackMs)
    })
    const mean = (g: ReadonlyArray<number>) => g.reduce((a, b) => a + b, 0) / g.length
    const spread = (g: ReadonlyArray<number>) => Math.max(...g) - Math.min(...g)
    // Exponential: the mean wait grows (expected 1 s → 2 s → 4 s); full jitter: waits spread over their range.
    expect(mean(gaps[2]!)).toBeGreaterThan(mean(gaps[0]!) * 1.5)
    expect(spread(gaps[2]!)).toBeGreaterThan(2000)
    for (const [i, id] of flaky.entries()) {
      expect(rows.get(id), id).toMatchObject({ status: "completado", attempts: 3 })
      expect(fake.byTag(tagOf("flaky", i))).toHaveLength(3)
    }
    for (const [i, id] of rejected.entries()) {
      const row = rows.get(id)!
      expect(row, id).toMatchObject({ status: "error", state: "failed", attempts: 1 })
      expect(row.error_message).toMatch(/Invalid image: the document could not be processed/)
      expect(fake.byTag(tagOf("reject", i))).toHaveLength(1)
    }
    for (const [i, id] of permanent.entries()) {
      const row = rows.get(id)!
      expect(row, files[i]!.name).toMatchObject({ status: "error", state: "failed", attempts: 1 })
      expect(row.error_message, files[i]!.name).toMatch(files[i]!.why)
    }
    // The API shows the same, with the message.
    const read = await d.http.key("GET", `/v1/extractions/${permanent[0]}`, d.key)
    expect(read.body).toMatchObject({ status: "error" })
    const figure = gaps.map(
      (g, k) =>
        `after attempt ${k + 1}: mean ${(mean(g) / 1000).toFixed(2)} s, range ${(Math.min(...g) / 1000).toFixed(2)}–${(Math.max(...g) / 1000).toFixed(2)} s (ceiling ${2 * 2 ** k} s)`
    )
    console.log(
      `C14 16 transient jobs: 4 attempts each, waits ${figure.join("; ")}; 4 flaky → completado on attempt 3; ` +
        `permanent after 1 attempt: provider 400 ×2, ${files.map((f) => f.name).join(", ")}`
    )
    for (const [i, id] of permanent.entries()) console.log(`C14 ${files[i]!.name}: ${rows.get(id)!.error_message}`)
  })
  it("C15 a file that breaks the parser on every attempt ends in error after the retry limit; 100 normal jobs beside it complete", async () => {
    const db = await database()
    const d = await deployment({
      databaseUrl: db.url,
      name: "c15",
      env: { LEGIBLE_OCR_PAGE_TIMEOUT_SECONDS: "1", LEGIBLE_MAX_ATTEMPTS: "3" },
      workers: 2
    })
    await installClaimLog(db.url)
    const bomb = textBombPdf()
    const [bombId] = await submitMany(d, 1, () => ({ document: bomb, name: "bomb.pdf", extra: LOCAL }))
    const started = Date.now()
    const normal = await submitMany(d, 100, (i) => ({
      document: invoicePdf(tagOf("c15", i)),
      name: `c15-${i}.pdf`,
      extra: LOCAL
    }))
    await waitFor(
      "the 100 normal jobs to complete",
      async () => {
        const [row] = await query(
          db.url,
          `SELECT count(*)::int AS n FROM extractions WHERE status = 'completado' AND origin_name LIKE 'c15-%'`
        )
        return row?.n === 100 ? true : undefined
      },
      240_000,
      250
    )
    const seconds = (Date.now() - started) / 1000
    await awaitAllFinal(db.url, 101, 240_000)
    const bombSeconds = (Date.now() - started) / 1000
    const rows = new Map((await jobRows(db.url)).map((r) => [r.id, r]))
    const poisoned = rows.get(bombId!)!
    expect(poisoned).toMatchObject({ status: "error", state: "failed", attempts: 3, jobs: 1 })
    expect(poisoned.error_message).toMatch(/gave up after 3 attempts|interrupted 3 times/)
    const claims = await query(
      db.url,
      `SELECT count(*)::int AS n FROM job_claims c JOIN jobs j ON j.id = c.job_id WHERE j.extraction_id = '${bombId}'`
    )
    expect(claims[0]?.n).toBe(3)
    expect(normal.filter((id) => rows.get(id)?.status !== "completado")).toEqual([])
    // The parser broke, the worker processes did not.
    for (const w of d.workers) expect(w.child.exitCode, w.stderr().slice(-2000)).toBe(null)
    console.log(
      `C15 parser bomb (${(bomb.length / 1024).toFixed(0)} KB, 600 k text operators): error after 3 attempts ` +
        `("${poisoned.error_message}"); 100/100 normal jobs completado in ${seconds.toFixed(1)} s, the bomb final after ${bombSeconds.toFixed(1)} s; ` +
        "2/2 worker processes alive"
    )
  })
  it("C16 SIGTERM: no new claims, in-flight jobs finish (long grace) or are released (short grace), exit 0 within the grace", async () => {
    const fake = await fakeLlm((r) => ({
      _tag: "Values",
      delayMs: r.tag?.startsWith("T-slow-") === true ? 8000 : 2000
    }))
    const db = await database()
    const d = await deployment({
      databaseUrl: db.url,
      name: "c16",
      env: remoteEnv(fake, { LEGIBLE_LEASE_SECONDS: "5" })
    })
    await installClaimLog(db.url)

    // Long grace (10 s): the two jobs in flight (2 s each) finish; the 6 waiting are not claimed.
    const draining = await d.addWorker({ LEGIBLE_SHUTDOWN_GRACE_SECONDS: "10" })
    const ids = await submitMany(d, 8, (i) => ({
      document: invoicePdf(tagOf("c16", i)),
      name: `c16-${i}.pdf`,
      extra: REMOTE
    }))
    const held = await waitFor(
      "two jobs in flight",
      async () => {
        const jobs = await heldBy(db.url, draining.pid)
        return jobs.length === 2 && fake.requests.length >= 1 ? jobs : undefined
      },
      60_000,
      20
    )
    const termAt = (await query(db.url, "SELECT clock_timestamp()::text AS now"))[0]?.now as string
    const t0 = Date.now()
    draining.child.kill("SIGTERM")
    const code = await draining.exited
    const drainMs = Date.now() - t0
    expect(code).toBe(0)
    expect(drainMs).toBeLessThan(10_000 + 3000)
    const lateClaims = await query(
      db.url,
      `SELECT count(*)::int AS n FROM job_claims WHERE at > '${termAt}'::timestamptz`
    )
    expect(lateClaims[0]?.n).toBe(0)
    const finished = await query(db.url, `SELECT extraction_id::text AS id FROM job_finals WHERE state = 'done'`)
    expect(new Set(finished.map((r) => r.id))).toEqual(new Set(held))
    const [waiting] = await query(db.url, "SELECT count(*)::int AS n FROM jobs WHERE state = 'queued' AND attempts = 0")
    expect(waiting?.n).toBe(6)

    // Short grace (1 s): the jobs in flight (8 s each) are released at once, their attempt given back.
    const slow = await submitMany(d, 2, (i) => ({
      document: invoicePdf(tagOf("slow", i)),
      name: `slow-${i}.pdf`,
      extra: REMOTE
    }))
    await query(
      db.url,
      `UPDATE jobs SET run_at = now() + interval '1 hour' WHERE extraction_id IN (${ids.map((id) => `'${id}'`).join(",")}) AND state = 'queued'`
    )
    const releasing = await d.addWorker({ LEGIBLE_SHUTDOWN_GRACE_SECONDS: "1" })
    await waitFor(
      "the slow jobs in flight",
      async () => ((await heldBy(db.url, releasing.pid)).length === 2 ? true : undefined),
      60_000,
      20
    )
    const t1 = Date.now()
    releasing.child.kill("SIGTERM")
    expect(await releasing.exited).toBe(0)
    const releaseMs = Date.now() - t1
    expect(releaseMs).toBeLessThan(1000 + 3000)
    const released = await query(
      db.url,
      `SELECT state, attempts, locked_by FROM jobs WHERE extraction_id IN ('${slow[0]}','${slow[1]}')`
    )
    expect(released).toEqual([
      { state: "queued", attempts: 0, locked_by: null },
      { state: "queued", attempts: 0, locked_by: null }
    ])
    // Another worker takes everything left and finishes it.
    await query(db.url, "UPDATE jobs SET run_at = now() WHERE state = 'queued'")
    await d.addWorker()
    await awaitAllFinal(db.url, 10, 90_000)
    const rows = await jobRows(db.url)
    expect(rows.filter((r) => r.status !== "completado")).toEqual([])
    console.log(
      `C16 SIGTERM with 2 jobs in flight: exit 0 after ${(drainMs / 1000).toFixed(1)} s (grace 10 s), both finished, ` +
        `0 claims after the signal, 6 left queued; short grace: exit 0 after ${(releaseMs / 1000).toFixed(1)} s (grace 1 s), ` +
        "2 released (attempts given back), then 10/10 completado"
    )
  })
})
