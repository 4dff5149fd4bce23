/**
 * `npm run bench -w @legible/server`: the BUILT server against a bare `node:http` server in the same run.
 *
 * For PGlite and for PostgreSQL (a fresh `legible_test_*` database): requests/s and p99 of `GET /v1/extractions/{id}`,
 * `GET /v1/extractions/{id}/detailed` of a one-page document of about 500 words (`dense-invoice.ts`),
 * `GET /v1/extractions?…` (20 completed extractions in the page) and `/healthz` (the HTTP stack alone) under
 * `CONNECTIONS` keep-alive loopback clients for `SECONDS` seconds, each against the bare server answering the same
 * JSON from memory (its own process too), the ratio, and the CPU time per request (µs, from `/proc/<pid>/stat`) of
 * each server process, of the PostgreSQL backends connected to the bench database and of the load generator (this
 * process, `process.cpuUsage`); on PostgreSQL also the by-id throughput with a second `serve --role api` process on
 * the same database, the connections split between the two. Then the latency from submit to `completado` of a 1-page
 * born-digital PDF and of a 1-page scan with the `local` model (`ROUNDS` each, sequential, polled every 10 ms;
 * BENCH_ROUNDS=0 skips it). Settings: BENCH_CONNECTIONS, BENCH_SECONDS, BENCH_ROUNDS, BENCH_ENGINES (default
 * `pglite,postgres`). The machine's load average is printed: figures taken on a busy machine are not comparable.
 */
import { spawn } from "node:child_process"
import { readdirSync, readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import * as Path from "node:path"
import { expect, it } from "vitest"
import * as Quickstart from "../src/internal/quickstart.js"
import { client, type Json, SAMPLE_PDF, SAMPLE_SCAN, token } from "../test/support/http.js"
import { ADMIN_URL, createDatabase, query } from "../test/support/postgres.js"
import { freePort, ROOT, type Running, SECRET, startServer, tempDir, waitFor } from "../test/support/process.js"
import { denseInvoicePdf } from "./dense-invoice.js"
import { type LoadResult, load } from "./load.js"

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const LIST_QUERY = "/v1/extractions?status=completado&limit=20&sort_by=fecha_creacion&sort_order=desc"
// BENCH_ENGINES=postgres (or pglite) runs one engine only.
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres").toLowerCase().split(",")

const fmt = (n: number, digits = 1) => n.toFixed(digits)

// The CPU time of a process, in microseconds: the nanoseconds on CPU of each of its threads (the first field of
// /proc/<pid>/task/<tid>/schedstat), far finer than the 10 ms ticks of /proc/<pid>/stat. A thread that ended in
// between is lost, so the figures are a floor.
const cpuMicros = (pid: number): number => {
  let nanos = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanos += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0])
    } catch {
      // the thread ended meanwhile
    }
  }
  return nanos / 1000
}

/** The pids of the PostgreSQL backends connected to `database` (none for PGlite). */
const backendPids = async (database: string | undefined): Promise<Array<number>> =>
  database === undefined
    ? []
    : (
        await query(
          ADMIN_URL,
          `SELECT pid FROM pg_stat_activity WHERE datname = '${database}' AND backend_type = 'client backend'`
        )
      ).map((row) => Number(row.pid))

// The CPU of the backends in `pids` that are still there; one that left is counted as 0 both times.
const backendsCpu = (pids: ReadonlyArray<number>): Map<number, number> => {
  const out = new Map<number, number>()
  for (const pid of pids) {
    try {
      out.set(pid, cpuMicros(pid))
    } catch {
      out.set(pid, 0)
    }
  }
  return out
}

// This process's CPU (the load generator, in the bench's process), in microseconds.
const ownCpu = () => {
  const usage = process.cpuUsage()
  return usage.user + usage.system
}

/**
 * A load run and the CPU spent on it, per request: by the serving process, by the PostgreSQL backends of `database`
 * (when given) and by the load generator.
 */
const measured = async (pid: number, database: string | undefined, run: () => Promise<LoadResult>) => {
  const pidsBefore = await backendPids(database)
  const pgBefore = backendsCpu(pidsBefore)
  const before = cpuMicros(pid)
  const clientBefore = ownCpu()
  const result = await run()
  const clientAfter = ownCpu()
  const after = cpuMicros(pid)
  const pgAfter = backendsCpu([...new Set([...pidsBefore, ...(await backendPids(database))])])
  let pg = 0
  for (const [backend, cpu] of pgAfter) pg += cpu - (pgBefore.get(backend) ?? 0)
  // The warm-up's requests are not counted, so its CPU is left out in proportion.
  const share = SECONDS / (SECONDS + 1)
  const perRequest = (micros: number) => (result.requests > 0 ? (micros * share) / result.requests : Number.NaN)
  return {
    ...result,
    cpuUs: perRequest(after - before),
    pgUs: perRequest(pg),
    clientUs: perRequest(clientAfter - clientBefore)
  }
}

const startBare = async (
  routes: Record<string, string>,
  key: string,
  dir: string
): Promise<Running & { url: string }> => {
  const file = Path.join(dir, "routes.json")
  writeFileSync(file, JSON.stringify({ key, routes }))
  const port = await freePort()
  const child = spawn(process.execPath, [Path.join(ROOT, "packages/server/bench/bare-server.ts"), file, String(port)], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  let out = ""
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk
  })
  await waitFor("the bare server", async () => (out.includes("listening") ? true : undefined), 20_000)
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? ""))
  )
  return {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => "",
    exited,
    stop: async () => {
      child.kill("SIGKILL")
      return exited
    },
    url: `http://127.0.0.1:${port}`
  }
}

type Measured = LoadResult & { readonly cpuUs: number; readonly pgUs: number; readonly clientUs: number }

interface Row {
  readonly engine: string
  readonly endpoint: string
  readonly legible: Measured
  readonly bare: Measured
}

/** The by-id read with one and with two api processes (PostgreSQL). */
interface Scaling {
  readonly one: LoadResult
  readonly two: LoadResult
}

const measure = async (
  engine: string,
  env: Record<string, string>,
  database: string | undefined,
  dir: string,
  scaling: (readPath: string, key: string) => Promise<void>
): Promise<Array<Row>> => {
  const server = await startServer({ env: { ...env, LEGIBLE_LOG_LEVEL: "Warn" } })
  const bareServers: Array<Running> = []
  try {
    const api = client(server.url)
    const jwt = token({ sub: "bench", clientId: "client-bench", name: "Bench" })
    const key = await api.createKey(jwt, "bench")
    const catalog = (
      await api.jwt("POST", "/api/catalogs", jwt, { name: Quickstart.CATALOG, columns: ["cif", "nombre"] })
    ).body as Json
    await api.jwt("POST", `/api/catalogs/${catalog.id as string}/records`, jwt, Quickstart.SUPPLIERS)
    await api.jwt("POST", "/api/skills", jwt, {
      slug: Quickstart.SKILL,
      name: "Factura",
      fields: Quickstart.skillFields(catalog.id as string)
    })
    const dense = await api.submit(key, denseInvoicePdf(), "factura-densa.pdf")
    await api.awaitFinal(key, dense)
    const ids: Array<string> = []
    for (let i = 0; i < 20; i++)
      ids.push(await api.submit(key, SAMPLE_PDF, `factura-${String(i).padStart(2, "0")}.pdf`))
    for (const id of ids) await api.awaitFinal(key, id)
    // The dense page is submitted first: the list's 20 newest are the sample invoices either way.
    const readPath = `/v1/extractions/${ids[0]}`
    const detailedPath = `/v1/extractions/${dense}/detailed`
    const routes: Record<string, string> = {}
    for (const path of [readPath, detailedPath, LIST_QUERY, "/healthz"]) {
      const response = await api.raw(path, { headers: { "x-api-key": key } })
      expect(response.status).toBe(200)
      routes[path] = await response.text()
    }
    const detailed = JSON.parse(routes[detailedPath] ?? "{}") as { words?: Record<string, Array<unknown>> }
    const words = Object.values(detailed.words ?? {}).reduce((n, page) => n + page.length, 0)
    console.log(
      `${engine}: detailed read of ${words} words on ${Object.keys(detailed.words ?? {}).length} page(s), ` +
        `${Buffer.byteLength(routes[detailedPath] ?? "")} bytes; plain read ${Buffer.byteLength(routes[readPath] ?? "")} bytes`
    )
    expect((JSON.parse(routes[LIST_QUERY] ?? "{}") as Json).count).toBeGreaterThanOrEqual(20)
    const bare = await startBare(routes, key, dir)
    bareServers.push(bare)
    const rows: Array<Row> = []
    for (const [endpoint, path] of [
      ["GET /v1/extractions/{id}", readPath],
      ["GET …/{id}/detailed (~500 w)", detailedPath],
      ["GET /v1/extractions?…", LIST_QUERY],
      ["GET /healthz (no database)", "/healthz"]
    ] as const) {
      const run = (base: string) =>
        load({
          url: `${base}${path}`,
          headers: { "x-api-key": key },
          connections: CONNECTIONS,
          seconds: SECONDS,
          warmupSeconds: 1
        })
      // Alternate the targets so a drift of the machine's load touches both.
      const legibleA = await measured(server.pid, database, () => run(server.url))
      const bareA = await measured(bare.pid, undefined, () => run(bare.url))
      rows.push({ engine, endpoint, legible: legibleA, bare: bareA })
    }
    await scaling(readPath, key)
    return rows
  } finally {
    for (const bare of bareServers) await bare.stop()
    await server.stop()
  }
}

const latency = async (env: Record<string, string>): Promise<Record<string, Array<number>>> => {
  const server = await startServer({ env: { ...env, LEGIBLE_LOG_LEVEL: "Warn", LEGIBLE_WORKER_POLL_SECONDS: "1" } })
  try {
    const api = client(server.url)
    const jwt = token({ sub: "bench", clientId: "client-latency", name: "Bench" })
    const key = await api.createKey(jwt, "bench")
    await api.jwt("POST", "/api/skills", jwt, {
      slug: Quickstart.SKILL,
      name: "Factura",
      fields: Quickstart.skillFields("5d1f0000-0000-4000-8000-00000000ffff").filter((f) => f.type !== "catalog")
    })
    // One warm-up of each kind: the first read starts the OCR thread and loads the models.
    await api.awaitFinal(key, await api.submit(key, SAMPLE_PDF, "warm.pdf"))
    await api.awaitFinal(key, await api.submit(key, SAMPLE_SCAN, "warm.jpg"))
    const out: Record<string, Array<number>> = { "born-digital PDF (1 page)": [], "scan, JPEG 200 DPI (1 page)": [] }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [label, bytes, name] of [
        ["born-digital PDF (1 page)", SAMPLE_PDF, "f.pdf"],
        ["scan, JPEG 200 DPI (1 page)", SAMPLE_SCAN, "f.jpg"]
      ] as const) {
        const started = performance.now()
        const id = await api.submit(key, bytes, name)
        await waitFor(
          "completado",
          async () => {
            const read = await api.key("GET", `/v1/extractions/${id}`, key)
            return (read.body as Json).status === "completado" ? true : undefined
          },
          120_000,
          10
        )
        out[label]?.push(performance.now() - started)
      }
    }
    return out
  } finally {
    await server.stop()
  }
}

/**
 * The by-id read on one `serve --role api` process with every connection, then on two such processes on the same
 * database with the connections split evenly.
 */
const twoApis = (env: Record<string, string>, out: Array<Scaling>) => async (readPath: string, key: string) => {
  const api = () => startServer({ env: { ...env, LEGIBLE_LOG_LEVEL: "Warn" }, args: ["serve", "--role", "api"] })
  const run = (base: string, connections: number) =>
    load({ url: `${base}${readPath}`, headers: { "x-api-key": key }, connections, seconds: SECONDS, warmupSeconds: 1 })
  const first = await api()
  try {
    const one = await run(first.url, CONNECTIONS)
    const second = await api()
    try {
      const half = Math.max(1, Math.floor(CONNECTIONS / 2))
      const [a, b] = await Promise.all([run(first.url, half), run(second.url, CONNECTIONS - half)])
      out.push({
        one,
        two: {
          requests: a.requests + b.requests,
          errors: a.errors + b.errors,
          seconds: SECONDS,
          rps: a.rps + b.rps,
          p50Ms: Math.max(a.p50Ms, b.p50Ms),
          p99Ms: Math.max(a.p99Ms, b.p99Ms)
        }
      })
    } finally {
      await second.stop()
    }
  } finally {
    await first.stop()
  }
}

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

it("server benchmark", async () => {
  const dir = tempDir("legible-bench-")
  const database = await createDatabase()
  try {
    const base = { LEGIBLE_JWT_SECRET: SECRET, LEGIBLE_OCR_WORKERS: "1" }
    const pglite = { ...base, LEGIBLE_DATA_DIR: Path.join(dir.path, "pglite") }
    const postgres = { ...base, LEGIBLE_DATA_DIR: Path.join(dir.path, "pg"), LEGIBLE_DATABASE_URL: database.url }
    console.log(
      `server bench: ${CONNECTIONS} keep-alive connections, ${SECONDS} s per target after 1 s warm-up; ` +
        `load average before: ${loadavg()
          .map((l) => fmt(l, 2))
          .join(" ")}`
    )
    const scaling: Array<Scaling> = []
    const rows = [
      ...(ENGINES.includes("pglite") ? await measure("PGlite", pglite, undefined, dir.path, async () => {}) : []),
      ...(ENGINES.includes("postgres")
        ? await measure("PostgreSQL", postgres, database.name, dir.path, twoApis(postgres, scaling))
        : [])
    ]
    // CPU µs/req: the serving process (api), the PostgreSQL backends of the bench database (pg), the load generator.
    console.log(
      "\nengine      endpoint                     legible req/s  p99 ms  CPU µs/req: api    pg  load | bare req/s  p99 ms  CPU µs/req: bare  load | ratio req/s"
    )
    for (const row of rows) {
      console.log(
        `${row.engine.padEnd(11)} ${row.endpoint.padEnd(28)} ${fmt(row.legible.rps, 0).padStart(13)} ${fmt(row.legible.p99Ms, 2).padStart(7)} ${fmt(row.legible.cpuUs, 0).padStart(16)} ${fmt(row.legible.pgUs, 0).padStart(5)} ${fmt(row.legible.clientUs, 0).padStart(5)} | ` +
          `${fmt(row.bare.rps, 0).padStart(10)} ${fmt(row.bare.p99Ms, 2).padStart(7)} ${fmt(row.bare.cpuUs, 0).padStart(17)} ${fmt(row.bare.clientUs, 0).padStart(5)} | ${fmt(row.legible.rps / row.bare.rps, 3).padStart(11)}` +
          (row.legible.errors + row.bare.errors > 0 ? `  (errors: ${row.legible.errors}/${row.bare.errors})` : "")
      )
      expect(row.legible.errors).toBe(0)
    }
    for (const { one, two } of scaling) {
      console.log(
        `PostgreSQL  GET /v1/extractions/{id}: 1 api process ${fmt(one.rps, 0)} req/s (p99 ${fmt(one.p99Ms, 2)} ms), ` +
          `2 api processes ${fmt(two.rps, 0)} req/s (worse p99 ${fmt(two.p99Ms, 2)} ms), ×${fmt(two.rps / one.rps, 2)}` +
          (two.errors > 0 ? `  (errors: ${two.errors})` : "")
      )
      expect(two.errors).toBe(0)
    }
    const latencyRuns: ReadonlyArray<readonly [string, string, Record<string, string>]> = [
      ["pglite", "PGlite", { ...pglite, LEGIBLE_DATA_DIR: Path.join(dir.path, "pglite-latency") }],
      ["postgres", "PostgreSQL", postgres]
    ]
    for (const [, engine, env] of latencyRuns.filter(([key]) => ROUNDS > 0 && ENGINES.includes(key))) {
      const figures = await latency(env)
      for (const [label, values] of Object.entries(figures)) {
        console.log(
          `${engine.padEnd(11)} submit → completado, ${label}: median ${fmt(median(values), 0)} ms, ` +
            `min ${fmt(Math.min(...values), 0)}, max ${fmt(Math.max(...values), 0)} (${values.length} rounds)`
        )
      }
    }
    console.log(
      `load average after: ${loadavg()
        .map((l) => fmt(l, 2))
        .join(" ")}`
    )
  } finally {
    await database.drop()
    dir.dispose()
  }
})
