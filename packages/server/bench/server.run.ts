/**
 * `npm run bench -w @legible/server`: the BUILT server against a bare `node:http` server in the same run.
 *
 * For PGlite and for PostgreSQL (a fresh `legible_test_*` database): requests/s and p99 of `GET /v1/extractions/{id}`,
 * `GET /v1/extractions/{id}/detailed` of a one-page document of about 500 words (`dense-invoice.ts`),
 * `GET /v1/extractions?…` (20 completed extractions in the page) and `/healthz` (the HTTP stack alone) under
 * `CONNECTIONS` keep-alive loopback clients for `SECONDS` seconds, each against the bare server answering the same
 * JSON from memory (its own process too), the ratio, and each server process's CPU time per request (µs, from
 * `/proc/<pid>/stat`); on PostgreSQL also the by-id throughput with a second `serve --role api` process on the same
 * database, the connections split between the two. Then the latency from submit to `completado` of a 1-page
 * born-digital PDF and of a 1-page scan with the `local` model (`ROUNDS` each, sequential, polled every 10 ms;
 * BENCH_ROUNDS=0 skips it). Settings: BENCH_CONNECTIONS, BENCH_SECONDS, BENCH_ROUNDS. The machine's load average is
 * printed: figures taken on a busy machine are not comparable.
 */
import { spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import * as Path from "node:path"
import { expect, it } from "vitest"
import * as Quickstart from "../src/internal/quickstart.js"
import { client, type Json, SAMPLE_PDF, SAMPLE_SCAN, token } from "../test/support/http.js"
import { createDatabase } from "../test/support/postgres.js"
import { freePort, ROOT, type Running, SECRET, startServer, tempDir, waitFor } from "../test/support/process.js"
import { denseInvoicePdf } from "./dense-invoice.js"
import { type LoadResult, load } from "./load.js"

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const LIST_QUERY = "/v1/extractions?status=completado&limit=20&sort_by=fecha_creacion&sort_order=desc"

const fmt = (n: number, digits = 1) => n.toFixed(digits)

// utime + stime of a process, in microseconds (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of 10 ms).
const cpuMicros = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

/** A load run and the CPU the serving process spent on it, per request. */
const measured = async (pid: number, run: () => Promise<LoadResult>) => {
  const before = cpuMicros(pid)
  const result = await run()
  // The warm-up's requests are not counted, so its CPU is left out in proportion.
  const cpu = (cpuMicros(pid) - before) * (SECONDS / (SECONDS + 1))
  return { ...result, cpuUs: result.requests > 0 ? cpu / result.requests : Number.NaN }
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

type Measured = LoadResult & { readonly cpuUs: number }

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
      const legibleA = await measured(server.pid, () => run(server.url))
      const bareA = await measured(bare.pid, () => run(bare.url))
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
      ...(await measure("PGlite", pglite, dir.path, async () => {})),
      ...(await measure("PostgreSQL", postgres, dir.path, twoApis(postgres, scaling)))
    ]
    console.log(
      "\nengine      endpoint                     legible req/s  p99 ms  CPU µs/req | bare req/s  p99 ms  CPU µs/req | ratio req/s"
    )
    for (const row of rows) {
      console.log(
        `${row.engine.padEnd(11)} ${row.endpoint.padEnd(28)} ${fmt(row.legible.rps, 0).padStart(13)} ${fmt(row.legible.p99Ms, 2).padStart(7)} ${fmt(row.legible.cpuUs, 0).padStart(11)} | ` +
          `${fmt(row.bare.rps, 0).padStart(10)} ${fmt(row.bare.p99Ms, 2).padStart(7)} ${fmt(row.bare.cpuUs, 0).padStart(11)} | ${fmt(row.legible.rps / row.bare.rps, 3).padStart(11)}` +
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
    for (const [engine, env] of (ROUNDS <= 0
      ? []
      : [
          ["PGlite", { ...pglite, LEGIBLE_DATA_DIR: Path.join(dir.path, "pglite-latency") }],
          ["PostgreSQL", postgres]
        ]) as ReadonlyArray<readonly [string, Record<string, string>]>) {
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
