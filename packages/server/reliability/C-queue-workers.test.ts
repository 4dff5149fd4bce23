/**
 * RELIABILITY.md C11–C13 and C17: the job queue and its workers, end to end. The BUILT server runs as real processes
 * (`serve --role api` + `serve --role worker` × N) on a fresh PostgreSQL database each; extractions are submitted
 * over HTTP; workers are killed (-9), paused (SIGSTOP) and stopped (SIGTERM) for real. A trigger installed in the
 * test database records every claim and every final state, so "exactly once" is read from the database itself.
 * The `local` model needs no network; jobs that must take a while (to be caught mid-flight) go to a fake
 * OpenAI-compatible server on loopback. No assertion here bounds a wall-clock time (a lease lapsed under load is
 * counted, not failed), so this file runs beside the others; C14–C16, which bound retry gaps and graces, are in
 * C14-C16-retries-grace.test.ts, C18 (PostgreSQL restarted) in C18-postgres-restart.test.ts.
 */
import { describe, expect, it } from "vitest"
import type { Json } from "../test/support/http.js"
import {
  awaitAllFinal,
  FINAL,
  heldBy,
  installClaimLog,
  invoicePdf,
  jobRows,
  LOCAL,
  perTest,
  query,
  REMOTE,
  remoteEnv,
  submission,
  submitMany,
  tagOf,
  waitFor
} from "./support/cQueue.js"

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

const { database, deployment, fakeLlm } = perTest()

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
