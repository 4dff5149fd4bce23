/**
 * RELIABILITY.md C18: PostgreSQL restarted during a run of 500 jobs. The api and two workers run on a PostgreSQL
 * server of the test's own (the machine's shared one is never restarted); while it is down a prober keeps asking
 * the api (reads, submissions, `/readyz`): every request must be answered within a deadline, with 503 while the
 * database is away; once it is back the workers reconnect by themselves and all 500 extractions complete.
 */
import { afterAll, describe, expect, it } from "vitest"
import {
  awaitAllFinal,
  type Deployment,
  deploy,
  invoicePdf,
  jobRows,
  percentile,
  query,
  submission,
  submitMany,
  tagOf,
  waitFor
} from "./support/cQueue.js"
import { type PrivatePostgres, startPrivatePostgres } from "./support/privatePostgres.js"

const LOCAL = { model: "local", extraction_mode: "ocr_pipeline_md" }
const DEADLINE_MS = 10_000

/** One probe of the api: what was asked, when, and what came back (or `timeout`/`error`). */
interface Probe {
  readonly kind: string
  readonly start: number
  readonly end: number
  readonly status: number | "timeout" | "error"
  /** The file name a submission sent (unique per probe). */
  readonly name?: string
}

const probe = async (kind: string, request: () => Promise<Response>, name?: string): Promise<Probe> => {
  const start = Date.now()
  const named = name === undefined ? {} : { name }
  try {
    const response = await Promise.race([
      request(),
      new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), DEADLINE_MS))
    ])
    if (response === "timeout") return { kind, start, end: Date.now(), status: "timeout", ...named }
    await response.arrayBuffer()
    return { kind, start, end: Date.now(), status: response.status, ...named }
  } catch {
    return { kind, start, end: Date.now(), status: "error", ...named }
  }
}

describe("C18 PostgreSQL restarted", () => {
  let pg: PrivatePostgres | undefined
  let d: Deployment | undefined
  afterAll(async () => {
    await d?.dispose()
    pg?.dispose()
  })

  it("C18 PostgreSQL restarted during a run of 500 jobs: 503 meanwhile (no hang), workers reconnect, 500/500 finish", async () => {
    pg = await startPrivatePostgres({ database: "legible_c18" })
    const url = pg.url("legible_c18")
    d = await deploy({ databaseUrl: url, name: "c18", workers: 2 })
    const deployment = d
    const ids = await submitMany(
      deployment,
      500,
      (i) => ({ document: invoicePdf(tagOf("c18", i)), name: `c18-${i}.pdf`, extra: LOCAL }),
      16
    )
    expect(new Set(ids).size).toBe(500)
    await waitFor(
      "50 extractions done before the restart",
      async () => {
        const [row] = await query(url, "SELECT count(*)::int AS n FROM extractions WHERE status = 'completado'")
        return (row?.n as number) >= 50 ? true : undefined
      },
      120_000,
      100
    )

    // The prober: reads, submissions and readiness, one after another on 3 lanes, until told to stop.
    const probes: Array<Probe> = []
    let probing = true
    const base = deployment.api.url
    const headers = { "x-api-key": deployment.key }
    const lanes = [
      async () => {
        let i = 0
        while (probing) {
          const id = ids[i++ % ids.length]
          probes.push(await probe("read", () => fetch(`${base}/v1/extractions/${id}`, { headers })))
        }
      },
      async () => {
        let i = 0
        while (probing) {
          const name = `probe-${i}.pdf`
          const body = JSON.stringify(submission(invoicePdf(tagOf("c18-probe", i++)), name, LOCAL))
          probes.push(
            await probe(
              "submit",
              () =>
                fetch(`${base}/v1/extractions`, {
                  method: "POST",
                  headers: { ...headers, "content-type": "application/json" },
                  body
                }),
              name
            )
          )
        }
      },
      async () => {
        while (probing) {
          probes.push(await probe("readyz", () => fetch(`${base}/readyz`)))
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }
    ]
    const prober = Promise.all(lanes.map((lane) => lane()))
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const downAt = Date.now()
    pg.stop("immediate")
    const stoppedAt = Date.now()
    await new Promise((resolve) => setTimeout(resolve, 8000))
    const restartAt = Date.now()
    pg.start()
    const upAt = Date.now()
    // The api answers again by itself.
    const recovered = await waitFor(
      "the api to answer reads again",
      async () => {
        const read = await fetch(`${base}/v1/extractions/${ids[0]}`, { headers })
        return read.status === 200 ? Date.now() : undefined
      },
      60_000,
      100
    )
    await new Promise((resolve) => setTimeout(resolve, 1000))
    probing = false
    await prober

    const unanswered = probes.filter((p) => typeof p.status !== "number")
    expect(unanswered, JSON.stringify(unanswered.slice(0, 5))).toEqual([])
    // While it was surely down (after the stop returned, before the start began): 503 and nothing else.
    const during = probes.filter((p) => p.start >= stoppedAt && p.end <= restartAt)
    expect(during.length).toBeGreaterThan(10)
    const statuses = [...new Set(during.map((p) => p.status))]
    expect(statuses).toEqual([503])
    expect(new Set(during.map((p) => p.kind))).toEqual(new Set(["read", "submit", "readyz"]))
    // No 5xx other than 503 at any time, before, during or after.
    const other5xx = probes.filter((p) => typeof p.status === "number" && p.status >= 500 && p.status !== 503)
    // On failure, the api's error lines say which failure became a 500.
    const apiErrors = () => {
      const lines = deployment.api.stderr().split("\n")
      const at = lines.findIndex((line) => line.includes('"status":500'))
      return lines
        .slice(Math.max(0, at - 6), at + 1)
        .filter((line) => line.includes('"ERROR"') || line.includes('"FATAL"'))
        .join("\n")
    }
    expect(other5xx, `${JSON.stringify(other5xx.slice(0, 5))}\n${other5xx.length > 0 ? apiErrors() : ""}`).toEqual([])
    const slowest = Math.max(...during.map((p) => p.end - p.start))

    // Submissions accepted by the prober (before and after the outage) are extractions too: every 202 is stored.
    const submits = new Map(probes.filter((p) => p.kind === "submit").map((p) => [p.name!, p]))
    const accepted = [...submits.values()].filter((p) => p.status === 202).length
    const stored = (await query(url, "SELECT origin_name FROM extractions WHERE origin_name LIKE 'probe-%'")).map(
      (r) => submits.get(r.origin_name as string)!
    )
    expect([...submits.values()].filter((p) => p.status === 202 && !stored.includes(p))).toEqual([])
    // A row whose answer was not 202: its commit was cut off by the crash (the outcome was unknown to the api,
    // which answered 503): only a submission in flight at the moment the server went down can be one.
    const unacknowledged = stored.filter((p) => p.status !== 202)
    for (const p of unacknowledged) {
      expect(p.status).toBe(503)
      expect(p.start).toBeLessThanOrEqual(stoppedAt)
      expect(p.end).toBeGreaterThanOrEqual(downAt)
    }
    const [total] = await query(url, "SELECT count(*)::int AS n FROM extractions")
    expect(total?.n).toBe(500 + stored.length)
    await awaitAllFinal(url, 500 + stored.length, 240_000)
    const rows = await jobRows(url)
    const notDone = rows.filter((r) => r.status !== "completado" || r.state !== "done" || r.jobs !== 1)
    expect(notDone, JSON.stringify(notDone.slice(0, 3))).toEqual([])
    // The workers reconnected: both are alive and both claimed jobs after the restart.
    for (const w of deployment.workers) expect(w.child.exitCode, w.stderr().slice(-2000)).toBe(null)
    const latency = during.map((p) => p.end - p.start)
    console.log(
      `C18 PostgreSQL down ${((restartAt - downAt) / 1000).toFixed(1)} s (restart took ${((upAt - restartAt) / 1000).toFixed(1)} s): ` +
        `${during.length} requests while down → ${during.length} × 503 (p99 ${percentile(latency, 99)} ms, max ${slowest} ms), ` +
        `0 unanswered of ${probes.length}; reads OK ${((recovered - upAt) / 1000).toFixed(1)} s after it was back; ` +
        `${500 + stored.length}/${500 + stored.length} completado (${accepted} × 202 to the prober, ` +
        `${unacknowledged.length} committed as the server died and answered 503)`
    )
  })
})
