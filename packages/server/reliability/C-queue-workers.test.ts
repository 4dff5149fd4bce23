/**
 * RELIABILITY.md C11–C17: the job queue and its workers, end to end. The BUILT server runs as real processes
 * (`serve --role api` + `serve --role worker` × N) on a fresh PostgreSQL database each; extractions are submitted
 * over HTTP; workers are killed (-9), paused (SIGSTOP) and stopped (SIGTERM) for real. A trigger installed in the
 * test database records every claim and every final state, so "exactly once" is read from the database itself.
 * The `local` model needs no network; jobs that must take a while (to be caught mid-flight) or fail in a given way
 * go to a fake OpenAI-compatible server on loopback. C18 (PostgreSQL restarted) is in C18-postgres-restart.test.ts.
 */
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import type { Json } from "../test/support/http.js"
import { createDatabase, type TestDatabase } from "../test/support/postgres.js"
import { ROOT } from "../test/support/process.js"
import {
  awaitAllFinal,
  type Deployment,
  deploy,
  type FakeLlm,
  FINAL,
  heldBy,
  installClaimLog,
  invoicePdf,
  jobRows,
  query,
  startFakeLlm,
  submission,
  submitMany,
  tagOf,
  textBombPdf,
  waitFor
} from "./support/cQueue.js"

/** The `local` model on the text layer alone (no page images): a job costs a few milliseconds of parsing. */
const LOCAL = { model: "local", extraction_mode: "ocr_pipeline_md" }
/** The fake OpenAI-compatible provider, text only. */
const REMOTE = { model: "gpt-4o-mini", extraction_mode: "ocr_only" }

/** Settings that send `gpt-*` models to `fake`, one provider call per job attempt. */
const remoteEnv = (fake: FakeLlm, extra: Record<string, string> = {}) => ({
  LEGIBLE_OPENAI_API_KEY: "sk-fake",
  LEGIBLE_OPENAI_BASE_URL: fake.url,
  LEGIBLE_LLM_MAX_ATTEMPTS: "1",
  LEGIBLE_LLM_TIMEOUT_SECONDS: "60",
  ...extra
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A quota row for the client (limit `limit`, this month), so reservations are counted in `used`. */
const setQuota = (url: string, clientId: string, limit: number) =>
  query(
    url,
    `INSERT INTO quotas (client_id, quota_limit, period, period_start, used)
     VALUES ('${clientId}', ${limit}, 'month', date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', 0)
     ON CONFLICT (client_id) DO UPDATE SET quota_limit = excluded.quota_limit, used = 0`
  )

const quotaUsed = async (url: string, clientId: string): Promise<number> =>
  (await query(url, `SELECT used FROM quotas WHERE client_id = '${clientId}'`))[0]?.used as number

/** The odd PDFs of the shared corpus (by path, never copied). */
const ODD = Path.join(ROOT, "../shared/data/odd-pdfs")

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const database = async (): Promise<TestDatabase> => {
  const db = await createDatabase()
  cleanups.push(() => db.drop())
  return db
}

const deployment = async (options: Parameters<typeof deploy>[0]): Promise<Deployment> => {
  const d = await deploy(options)
  cleanups.push(() => d.dispose())
  return d
}

const fakeLlm = async (decide: Parameters<typeof startFakeLlm>[0]): Promise<FakeLlm> => {
  const fake = await startFakeLlm(decide)
  cleanups.push(() => fake.close())
  return fake
}

/** Claims per job from the trigger's log. */
const claimsPerJob = async (url: string) =>
  query(
    url,
    `SELECT j.extraction_id::text AS id, count(c.*)::int AS claims, count(DISTINCT c.worker)::int AS workers,
            count(DISTINCT c.attempt)::int AS attempts_seen, max(c.attempt) AS max_attempt,
            (SELECT count(*)::int FROM job_finals f WHERE f.job_id = j.id) AS finals
     FROM jobs j LEFT JOIN job_claims c ON c.job_id = j.id GROUP BY j.id, j.extraction_id`
  )

describe("C. queue and workers", () => {
  it("C11 1,000 jobs on 4 workers: each processed exactly once to a final state, no job claimed twice", async () => {
    const db = await database()
    const d = await deployment({ databaseUrl: db.url, name: "c11", env: { LEGIBLE_WORKER_CONCURRENCY: "2" } })
    await installClaimLog(db.url)
    await d.addWorkers(4)
    const started = Date.now()
    const ids = await submitMany(
      d,
      1000,
      (i) => ({
        document: invoicePdf(tagOf("c11", i)),
        name: `c11-${i}.pdf`,
        extra: LOCAL
      }),
      16
    )
    expect(new Set(ids).size).toBe(1000)
    await awaitAllFinal(db.url, 1000, 300_000)
    const seconds = (Date.now() - started) / 1000

    const rows = await jobRows(db.url)
    expect(rows).toHaveLength(1000)
    const notDone = rows.filter((r) => r.status !== "completado" || r.state !== "done" || r.jobs !== 1)
    expect(notDone, JSON.stringify(notDone.slice(0, 3))).toEqual([])
    const claims = await claimsPerJob(db.url)
    const twice = claims.filter((c) => c.claims !== 1 || c.finals !== 1)
    expect(twice, JSON.stringify(twice.slice(0, 3))).toEqual([])
    // Every worker took part: the jobs were contended, not served by one process.
    const perWorker = await query(db.url, "SELECT worker, count(*)::int AS n FROM job_claims GROUP BY worker")
    expect(perWorker).toHaveLength(4)
    for (const w of perWorker) expect(w.n as number).toBeGreaterThan(0)
    // Final means final: a status read after the end is the same.
    const again = await jobRows(db.url)
    expect(again.filter((r) => r.status !== "completado")).toEqual([])
    console.log(
      `C11 1000/1000 completado, 1000 claims (1 per job), 1000 final transitions, 4 workers ` +
        `(${perWorker.map((w) => w.n).join("/")} claims), ${seconds.toFixed(1)} s`
    )
  })
  it("C12 kill -9 a worker mid-job 20 times: every extraction final exactly once, attempts +1 per crash, quota charged once", async () => {
    // Every provider call takes 1.5 s, so a worker always has jobs in flight when it is killed.
    const fake = await fakeLlm(() => ({ _tag: "Values", delayMs: 1500 }))
    const db = await database()
    const d = await deployment({
      databaseUrl: db.url,
      name: "c12",
      env: remoteEnv(fake, { LEGIBLE_LEASE_SECONDS: "4", LEGIBLE_MAX_ATTEMPTS: "6", LEGIBLE_WORKER_CONCURRENCY: "2" })
    })
    await installClaimLog(db.url)
    await setQuota(db.url, d.clientId, 10_000)
    // Three workers: while a killed one's replacement starts, two others hold jobs for the next round.
    await d.addWorkers(3)
    const ids: Array<string> = []
    const submit = async (count: number) => {
      const base = ids.length
      ids.push(
        ...(await submitMany(
          d,
          count,
          (i) => ({ document: invoicePdf(tagOf("c12", base + i)), name: `c12-${base + i}.pdf`, extra: REMOTE }),
          4
        ))
      )
    }
    await submit(8)
    const started = Date.now()
    const killed: Array<number> = []
    const replacements: Array<Promise<unknown>> = []
    while (killed.length < 20) {
      // Keep work waiting, so the next victim has something in flight.
      const [open] = await query(db.url, "SELECT count(*)::int AS n FROM jobs WHERE state IN ('queued','running')")
      if ((open?.n as number) < 6) await submit(6)
      const victim = await waitFor(
        `a worker holding a job (kill ${killed.length + 1})`,
        async () => {
          for (const w of d.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null)) {
            if ((await heldBy(db.url, w.pid)).length > 0) return w
          }
          return undefined
        },
        60_000,
        20
      )
      victim.child.kill("SIGKILL")
      expect(await victim.exited).toBe("SIGKILL")
      killed.push(victim.pid)
      d.workers.splice(d.workers.indexOf(victim), 1)
      // The replacement starts while the next round goes on with the workers still alive.
      replacements.push(d.addWorker())
    }
    await Promise.all(replacements)
    await awaitAllFinal(db.url, ids.length, 180_000)
    const seconds = (Date.now() - started) / 1000

    const rows = await jobRows(db.url)
    expect(rows).toHaveLength(ids.length)
    const claims = new Map((await claimsPerJob(db.url)).map((c) => [c.id as string, c]))
    // A crashed attempt: a claim by a killed worker that did not complete the job (the kill came first; the
    // reaper's final transition still names the last, dead, holder).
    const crashedRows = await query(
      db.url,
      `SELECT c.extraction_id::text AS id, count(*)::int AS n FROM job_claims c
       WHERE (${killed.map((pid) => `c.worker LIKE '%-${pid}-%'`).join(" OR ")})
         AND NOT EXISTS (SELECT 1 FROM job_finals f WHERE f.job_id = c.job_id AND f.worker = c.worker AND f.state = 'done')
       GROUP BY c.extraction_id`
    )
    const crashes = new Map(crashedRows.map((r) => [r.id as string, r.n as number]))
    // An attempt a live worker gave up (its lease lapsed under load): not a crash, but it costs an attempt too.
    const abandonedRows = await query(
      db.url,
      `SELECT c.extraction_id::text AS id, count(*)::int AS n FROM job_claims c
       WHERE NOT (${killed.map((pid) => `c.worker LIKE '%-${pid}-%'`).join(" OR ")})
         AND NOT EXISTS (SELECT 1 FROM job_finals f WHERE f.job_id = c.job_id AND f.worker = c.worker AND f.state = 'done')
       GROUP BY c.extraction_id`
    )
    const abandoned = new Map(abandonedRows.map((r) => [r.id as string, r.n as number]))
    const crashedAttempts = [...crashes.values()].reduce((a, b) => a + b, 0)
    // Every kill cost at least one job an attempt (the victim held one).
    expect(crashedAttempts).toBeGreaterThanOrEqual(20)
    for (const row of rows) {
      const crashed = crashes.get(row.id) ?? 0
      const lapsed = abandoned.get(row.id) ?? 0
      expect(FINAL, row.id).toContain(row.status)
      expect(row.jobs, row.id).toBe(1)
      const claim = claims.get(row.id)!
      expect(claim.finals, `${row.id}: final transitions`).toBe(1)
      // One attempt per crash, plus the one that finished it (or, with every attempt crashed, the reaper's error).
      if (row.status === "completado") {
        expect(row.attempts, `${row.id} crashed ${crashed}×, abandoned ${lapsed}×`).toBe(crashed + lapsed + 1)
        expect(row.state).toBe("done")
      } else {
        expect(row.status, `${row.id}: ${row.error_message}`).toBe("error")
        expect(row.attempts).toBe(6)
        expect(crashed + lapsed).toBe(6)
        expect(row.error_message).toMatch(/interrupted 6 times/)
      }
      expect(claim.claims, row.id).toBe(row.attempts)
      expect(row.e_attempts, row.id).toBe(row.attempts)
    }
    expect(rows.filter((r) => r.status === "procesando" || r.status === "en cola")).toEqual([])
    expect(await quotaUsed(db.url, d.clientId)).toBe(ids.length)
    const completed = rows.filter((r) => r.status === "completado").length
    console.log(
      `C12 20 × kill -9 mid-job: ${crashes.size} jobs lost ${crashedAttempts} attempts to the kills; ` +
        `${ids.length}/${ids.length} final exactly once (${completed} completado, attempts = crashes + 1 each; ` +
        `${[...abandoned.values()].reduce((a, b) => a + b, 0)} attempts abandoned by a live worker whose lease lapsed), ` +
        `0 procesando, quota used ${ids.length} for ${ids.length} submissions, ${seconds.toFixed(1)} s`
    )
  })

  it("C13 a worker paused (SIGSTOP) past its lease while another finished the job changes 0 rows after SIGCONT", async () => {
    // The first call for the job takes 6 s (the paused worker's), the next ones are quick.
    const fake = await fakeLlm((r) => ({ _tag: "Values", delayMs: r.n === 0 ? 6000 : 0 }))
    const db = await database()
    const d = await deployment({
      databaseUrl: db.url,
      name: "c13",
      env: remoteEnv(fake, { LEGIBLE_LEASE_SECONDS: "1" })
    })
    const stale = await d.addWorker()
    const [id] = await submitMany(d, 1, () => ({
      document: invoicePdf(tagOf("c13", 0)),
      name: "c13.pdf",
      extra: REMOTE
    }))
    await waitFor(
      "the first worker to hold the job",
      async () => ((await heldBy(db.url, stale.pid)).length > 0 ? true : undefined),
      60_000,
      20
    )
    await waitFor("the provider call", async () => (fake.requests.length > 0 ? true : undefined), 30_000, 20)
    stale.child.kill("SIGSTOP")
    const other = await d.addWorker()
    await waitFor(
      "the other worker to finish the job",
      async () => {
        const [row] = await query(db.url, `SELECT status FROM extractions WHERE id = '${id}'`)
        return row?.status === "completado" ? true : undefined
      },
      60_000
    )
    const snapshot = `SELECT e.status, e.result::text, e.error_message, e.attempts, e.last_modification::text,
                             j.state, j.attempts AS job_attempts, j.locked_by, j.lease_token::text, j.updated_at::text, j.last_error
                      FROM extractions e JOIN jobs j ON j.extraction_id = e.id WHERE e.id = '${id}'`
    const before = await query(db.url, snapshot)
    stale.child.kill("SIGCONT")
    // Long enough for its provider answer to arrive and its heartbeat to run several times.
    await waitFor(
      "the stale worker to notice",
      async () => (/lease lost/.test(stale.stderr()) ? true : undefined),
      20_000
    )
    await sleep(3000)
    const after = await query(db.url, snapshot)
    expect(after).toEqual(before)
    expect(before[0]).toMatchObject({ status: "completado", state: "done", job_attempts: 2 })
    // The stale worker lives on and still works: with the other one stopped, it completes the next job.
    const stopping = Date.now()
    expect(await other.stop("SIGTERM")).toBe(0)
    const stopMs = Date.now() - stopping
    const nextAt = Date.now()
    const [next] = await submitMany(d, 1, () => ({
      document: invoicePdf(tagOf("c13", 1)),
      name: "c13-next.pdf",
      extra: LOCAL
    }))
    expect((await d.http.awaitFinal(d.key, next!, 60_000)).status).toBe("completado")
    expect(stale.child.exitCode).toBe(null)
    console.log(
      "C13 stale worker woken after its lease: 0 rows changed (job and extraction identical), lease lost logged; " +
        `then it completed the next job alone in ${((Date.now() - nextAt) / 1000).toFixed(1)} s ` +
        `(the other worker stopped in ${(stopMs / 1000).toFixed(1)} s)`
    )
  })

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

  it("C17 row and job in one transaction: api killed mid-burst and a failure injected mid-insert → no 202 without a job, no job without a row", async () => {
    const db = await database()
    const d = await deployment({ databaseUrl: db.url, name: "c17" })
    await setQuota(db.url, d.clientId, 100_000)
    // A failure mid-insert: the job insert raises for documents named poison-*, after the row and document went in.
    await query(
      db.url,
      `CREATE FUNCTION c17_fail() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         IF (SELECT origin_name FROM extractions WHERE id = NEW.extraction_id) LIKE 'poison-%' THEN
           RAISE EXCEPTION 'injected failure inserting the job';
         END IF;
         RETURN NEW;
       END $$`,
      "CREATE TRIGGER c17_fail BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION c17_fail()"
    )
    const poison = await d.http.key(
      "POST",
      "/v1/extractions",
      d.key,
      submission(invoicePdf("T-poison-X"), "poison-1.pdf", LOCAL)
    )
    expect(poison.status).toBe(500)
    expect(Object.keys(poison.body as Json)).toEqual(["error"])
    const [poisoned] = await query(
      db.url,
      "SELECT count(*)::int AS n FROM extractions WHERE origin_name LIKE 'poison-%'"
    )
    expect(poisoned?.n).toBe(0)
    expect(await quotaUsed(db.url, d.clientId)).toBe(0)

    // A burst of 200 submissions (40 at a time, a poisoned one every 10th); the api is killed in the middle.
    const accepted: Array<string> = []
    const statuses = new Map<string, number>()
    let sent = 0
    const lane = async () => {
      while (sent < 200) {
        const i = sent++
        const name = i % 10 === 9 ? `poison-${i}.pdf` : `c17-${i}.pdf`
        try {
          const reply = await d.http.key(
            "POST",
            "/v1/extractions",
            d.key,
            submission(invoicePdf(tagOf("c17", i)), name, LOCAL)
          )
          statuses.set(String(reply.status), (statuses.get(String(reply.status)) ?? 0) + 1)
          if (reply.status === 202) accepted.push((reply.body as Json).extraction_id as string)
        } catch {
          statuses.set("no answer", (statuses.get("no answer") ?? 0) + 1)
        }
      }
    }
    const burst = Promise.all(Array.from({ length: 40 }, lane))
    await waitFor("20 accepted submissions", async () => (accepted.length >= 20 ? true : undefined), 60_000, 5)
    d.api.child.kill("SIGKILL")
    await burst
    const rows = await jobRows(db.url)
    const withoutJob = rows.filter((r) => r.jobs !== 1)
    expect(withoutJob).toEqual([])
    const stored = new Set(rows.map((r) => r.id))
    expect(accepted.filter((id) => !stored.has(id))).toEqual([])
    const [orphans] = await query(
      db.url,
      "SELECT count(*)::int AS n FROM jobs j WHERE NOT EXISTS (SELECT 1 FROM extractions e WHERE e.id = j.extraction_id)"
    )
    expect(orphans?.n).toBe(0)
    const [docs] = await query(
      db.url,
      "SELECT count(*)::int AS n FROM extractions e WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.extraction_id = e.id)"
    )
    expect(docs?.n).toBe(0)
    expect(rows.filter((r) => r.id.length > 0 && r.status !== "en cola")).toEqual([])
    const [poisonRows] = await query(
      db.url,
      "SELECT count(*)::int AS n FROM extractions WHERE origin_name LIKE 'poison-%'"
    )
    expect(poisonRows?.n).toBe(0)
    console.log(
      `C17 api killed after ${accepted.length} × 202 of a 200-submission burst (answers ${JSON.stringify(Object.fromEntries(statuses))}): ` +
        `${rows.length} rows, each with its job and document, every 202 stored, 0 orphan jobs; injected insert failure → 500, no row, quota given back`
    )
  })
})
