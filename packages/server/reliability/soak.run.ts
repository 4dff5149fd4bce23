/**
 * The soak run (issue 7; `npm run soak`, not part of CI). Sustains mixed traffic — submissions, polls, lists,
 * downloads and status switches — for `LEGIBLE_SOAK_SECONDS` (default 120) against `serve --role api` and two
 * `serve --role worker` processes on a PostgreSQL server of its own, and injects faults during the run: a worker
 * killed (-9) and restarted, PostgreSQL stopped (immediate: a crash) and started again. Then it checks that every
 * accepted extraction reached a final state exactly once (a trigger logs every final transition of every job),
 * that every stored document is byte-identical to what was sent (SHA-256 of every row, and every download made
 * during the run), and that the resident memory of the api and of the surviving worker stayed flat; it prints
 * the figures: requests served by kind and status, extractions completed, faults injected, anything lost,
 * p50/p99 latencies per kind, RSS at start and end.
 */
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import { SAMPLE_PDF } from "../test/support/http.js"
import type { Running } from "../test/support/process.js"
import {
  awaitAllFinal,
  deploy,
  installClaimLog,
  invoicePdf,
  percentile,
  query,
  rssMiB,
  submission,
  tagOf
} from "./support/cQueue.js"
import { startPrivatePostgres } from "./support/privatePostgres.js"

const SECONDS = Number(process.env.LEGIBLE_SOAK_SECONDS ?? 120)
const LANES = Number(process.env.LEGIBLE_SOAK_LANES ?? 6)
const LOCAL = { model: "local", extraction_mode: "ocr_pipeline_md" }
/** Every request must be answered within this (a hang is a failure, whatever the status). */
const DEADLINE_MS = 15_000

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex")
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

type Kind = "submit" | "poll" | "list" | "download" | "status"

/** A seeded generator (mulberry32): the same traffic mix on every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

describe("soak", () => {
  it(`mixed traffic for ${SECONDS} s with a worker and PostgreSQL killed and restarted: nothing lost`, async () => {
    const pg = await startPrivatePostgres({ database: "legible_soak" })
    const url = pg.url("legible_soak")
    const d = await deploy({ databaseUrl: url, name: "soak", env: { LEGIBLE_MAX_ATTEMPTS: "5" }, workers: 2 })
    try {
      await installClaimLog(url)
      const base = d.api.url
      const headers = { "x-api-key": d.key }
      const random = seeded(20261122)

      const sent = new Map<string, string>() // extraction id → SHA-256 of the bytes sent
      // Submissions answered 503 during the outage, by file name: one whose commit went through just as the server
      // died is stored though its client was not told (the outcome was unknown to the api).
      const unacknowledged = new Map<string, string>()
      const finalSeen: Array<string> = []
      const latencies: Record<Kind, Array<number>> = { submit: [], poll: [], list: [], download: [], status: [] }
      const statuses: Record<string, number> = {}
      const problems: Array<string> = []
      let downloadsChecked = 0
      let outage = false
      let outages503 = 0

      const call = async (kind: Kind, path: string, init: RequestInit = {}): Promise<Response | undefined> => {
        const start = Date.now()
        const wasOutage = outage
        try {
          const response = await fetch(`${base}${path}`, {
            ...init,
            headers: { ...headers, ...(init.headers ?? {}) },
            signal: AbortSignal.timeout(DEADLINE_MS)
          })
          const elapsed = Date.now() - start
          latencies[kind].push(elapsed)
          statuses[`${kind} ${response.status}`] = (statuses[`${kind} ${response.status}`] ?? 0) + 1
          if (response.status === 503 && (wasOutage || outage)) outages503 += 1
          else if (response.status >= 500) {
            problems.push(`${kind} ${path} → ${response.status} ${await response.text()}`)
            return undefined
          }
          return response
        } catch (error) {
          problems.push(`${kind} ${path} → no answer in ${DEADLINE_MS} ms (${String(error)})`)
          return undefined
        }
      }

      let n = 0
      const submit = async () => {
        const i = n++
        const document = i % 10 === 0 ? SAMPLE_PDF : invoicePdf(tagOf("soak", i))
        const response = await call("submit", "/v1/extractions", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(submission(document, `soak-${i}.pdf`, LOCAL))
        })
        if (response === undefined) return
        const body = (await response.json()) as { extraction_id?: string }
        if (response.status === 202 && body.extraction_id !== undefined) sent.set(body.extraction_id, sha256(document))
        else if (response.status === 503) unacknowledged.set(`soak-${i}.pdf`, sha256(document))
        else problems.push(`submit → ${response.status} ${JSON.stringify(body)}`)
      }
      const ids = () => [...sent.keys()]
      const pick = (from: ReadonlyArray<string>) => from[Math.floor(random() * from.length)]
      const poll = async () => {
        const id = pick(ids())
        if (id === undefined) return submit()
        const response = await call("poll", `/v1/extractions/${id}`)
        if (response?.status === 200) {
          const body = (await response.json()) as { status: string }
          if (body.status === "completado" && !finalSeen.includes(id)) finalSeen.push(id)
        } else if (response !== undefined && response.status !== 503) {
          problems.push(`poll ${id} → ${response.status}`)
          await response.arrayBuffer()
        } else await response?.arrayBuffer()
      }
      const list = async () => {
        const filters = ["", "?status=completado", "?limit=5&sort_by=status", "?search=soak-1", "?sort_order=asc"]
        const response = await call("list", `/v1/extractions${pick(filters) ?? ""}`)
        if (response !== undefined && response.status !== 200 && response.status !== 503) {
          problems.push(`list → ${response.status}`)
        }
        await response?.arrayBuffer()
      }
      const download = async () => {
        const id = pick(ids())
        if (id === undefined) return submit()
        const response = await call("download", `/v1/extractions/${id}/document`)
        if (response?.status === 200) {
          const bytes = new Uint8Array(await response.arrayBuffer())
          if (sha256(bytes) !== sent.get(id)) problems.push(`download ${id}: the bytes differ from those sent`)
          downloadsChecked += 1
        } else if (response !== undefined && response.status !== 503) {
          problems.push(`download ${id} → ${response.status}`)
          await response.arrayBuffer()
        } else await response?.arrayBuffer()
      }
      const switchStatus = async () => {
        const id = pick(finalSeen)
        if (id === undefined) return poll()
        const target = random() < 0.5 ? "incompleto" : "completado"
        const response = await call("status", `/v1/extractions/${id}/status`, {
          method: "PATCH",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ status: target, message: "soak" })
        })
        if (response !== undefined && response.status !== 200 && response.status !== 503) {
          problems.push(`status ${id} → ${response.status}`)
        }
        await response?.arrayBuffer()
      }
      const step = () => {
        const r = random()
        return r < 0.3 ? submit() : r < 0.6 ? poll() : r < 0.75 ? list() : r < 0.9 ? download() : switchStatus()
      }

      // Warm up (first reads start the OCR threads), then take the memory baseline.
      for (let i = 0; i < 20; i++) await submit()
      await awaitAllFinal(url, sent.size, 120_000)
      const survivor: Running = d.workers[1]!
      const rss = { api: [rssMiB(d.api.pid)], worker: [rssMiB(survivor.pid)] }
      const started = Date.now()
      const until = started + SECONDS * 1000
      const sampler = setInterval(() => {
        rss.api.push(rssMiB(d.api.pid))
        rss.worker.push(rssMiB(survivor.pid))
      }, 2000)
      // Faults, spread over the run; the traffic goes on until they are all over.
      const faults: Array<string> = []
      let faulting = true
      const traffic = Promise.all(
        Array.from({ length: LANES }, async () => {
          while (Date.now() < until || faulting) await step()
        })
      )
      const at = (fraction: number) => sleep(Math.max(0, started + SECONDS * 1000 * fraction - Date.now()))
      await at(0.25)
      const victim = d.workers[0]!
      victim.child.kill("SIGKILL")
      await victim.exited
      faults.push(`worker ${victim.pid} killed (-9) at ${((Date.now() - started) / 1000).toFixed(0)} s`)
      d.workers.splice(d.workers.indexOf(victim), 1)
      // Started again the way a supervisor would: a start that fails (PostgreSQL down at that moment) is retried.
      const supervise = async (): Promise<void> => {
        for (let tries = 1; ; tries++) {
          try {
            const w = await d.addWorker()
            faults.push(`worker ${w.pid} started in its place (start ${tries})`)
            return
          } catch (error) {
            if (tries >= 60) throw error
            await sleep(1000)
          }
        }
      }
      const replacement = sleep(2000).then(supervise)
      await at(0.5)
      outage = true
      pg.stop("immediate")
      const downAt = Date.now()
      await sleep(5000)
      pg.start()
      const downMs = Date.now() - downAt
      await sleep(3000) // requests started during the outage may still come back 503 for a moment
      outage = false
      faults.push(
        `PostgreSQL stopped (immediate) at ${((downAt - started) / 1000).toFixed(0)} s, up again after ${(downMs / 1000).toFixed(1)} s`
      )
      await replacement
      faulting = false
      await traffic
      clearInterval(sampler)
      rss.api.push(rssMiB(d.api.pid))
      rss.worker.push(rssMiB(survivor.pid))
      const trafficSeconds = (Date.now() - started) / 1000

      // Everything accepted reaches a final state, exactly once, with the bytes that were sent.
      await awaitAllFinal(url, sent.size, 300_000)
      const rows = await query(
        url,
        `SELECT e.id::text AS id, e.origin_name, e.status, encode(sha256(d.content), 'hex') AS sha,
                (SELECT count(*)::int FROM jobs j WHERE j.extraction_id = e.id) AS jobs,
                (SELECT count(*)::int FROM job_finals f WHERE f.extraction_id = e.id) AS finals
         FROM extractions e LEFT JOIN documents d ON d.extraction_id = e.id`
      )
      const stored = new Map(rows.map((r) => [r.id as string, r]))
      const lost = [...sent.keys()].filter((id) => !stored.has(id))
      const cutOff = rows.filter((r) => !sent.has(r.id as string) && unacknowledged.has(r.origin_name as string))
      for (const r of cutOff) sent.set(r.id as string, unacknowledged.get(r.origin_name as string)!)
      const unknown = rows.filter((r) => !sent.has(r.id as string))
      const notOnce = rows.filter((r) => r.jobs !== 1 || r.finals !== 1)
      const changed = rows.filter((r) => r.sha !== sent.get(r.id as string))
      const notFinal = rows.filter((r) => !["completado", "incompleto", "error"].includes(r.status as string))
      const [errors] = await query(url, "SELECT count(*)::int AS n FROM jobs WHERE state = 'failed'")
      const [done] = await query(url, "SELECT count(*)::int AS n FROM jobs WHERE state = 'done'")

      const served = Object.values(statuses).reduce((a, b) => a + b, 0)
      const mib = (v: number) => `${v.toFixed(0)} MiB`
      const flat = (series: ReadonlyArray<number>) => {
        const start = series[0]!
        const end = series.at(-1)!
        return { start, end, max: Math.max(...series) }
      }
      const apiRss = flat(rss.api)
      const workerRss = flat(rss.worker)
      const lines = [
        `SOAK ${trafficSeconds.toFixed(0)} s of traffic on ${LANES} lanes against api + 2 workers on PostgreSQL`,
        `SOAK requests served: ${served} (${(served / trafficSeconds).toFixed(1)}/s); by kind and status: ${JSON.stringify(statuses)}`,
        `SOAK 503 during the PostgreSQL outage: ${outages503}; other 5xx or unanswered: ${problems.length}`,
        `SOAK extractions accepted: ${sent.size}; completed: ${done?.n} done, ${errors?.n} error; downloads checked byte for byte: ${downloadsChecked}`,
        `SOAK faults injected: ${faults.length} — ${faults.join("; ")}`,
        `SOAK lost: ${lost.length}; unknown rows: ${unknown.length} (and ${cutOff.length} committed as PostgreSQL died, answered 503); not final: ${notFinal.length}; final not exactly once: ${notOnce.length}; stored bytes differing: ${changed.length}`,
        ...(Object.keys(latencies) as Array<Kind>).map(
          (kind) =>
            `SOAK latency ${kind}: n=${latencies[kind].length} p50 ${percentile(latencies[kind], 50)} ms, p99 ${percentile(latencies[kind], 99)} ms, max ${Math.max(0, ...latencies[kind])} ms`
        ),
        `SOAK RSS api: start ${mib(apiRss.start)}, end ${mib(apiRss.end)}, max ${mib(apiRss.max)}; ` +
          `worker (not killed): start ${mib(workerRss.start)}, end ${mib(workerRss.end)}, max ${mib(workerRss.max)}`
      ]
      for (const line of lines) console.log(line)
      for (const problem of problems.slice(0, 20)) console.log(`SOAK problem: ${problem}`)
      if (problems.length > 0) {
        const logged = d.api
          .stderr()
          .split("\n")
          .filter((line) => /"level":"(ERROR|FATAL)"/i.test(line))
        for (const line of logged.slice(-10)) console.log(`SOAK api log: ${line.slice(0, 1500)}`)
      }

      expect(problems).toEqual([])
      expect(lost).toEqual([])
      expect(unknown).toEqual([])
      expect(notFinal).toEqual([])
      expect(notOnce).toEqual([])
      expect(changed).toEqual([])
      expect(outages503).toBeGreaterThan(0)
      // Flat: no growth beyond a margin for the warm caches of a longer run.
      expect(apiRss.end).toBeLessThan(apiRss.start * 1.5 + 64)
      expect(workerRss.end).toBeLessThan(workerRss.start * 1.5 + 64)
    } finally {
      await d.dispose()
      pg.dispose()
    }
  })
})
