/**
 * `npm run bench -w @legible/server`: the BUILT server against a bare `node:http` server in the same run.
 *
 * For PGlite and for PostgreSQL (a fresh `legible_test_*` database): requests/s and p99 of `GET /v1/extractions/{id}`,
 * `GET /v1/extractions?…` (20 completed extractions in the list) and `/healthz` (the HTTP stack alone) under
 * `CONNECTIONS` keep-alive loopback clients for `SECONDS` seconds, each against the bare server answering the same
 * JSON from memory (its own process too), and the ratio; then the latency from submit to `completado` of a 1-page born-digital PDF and of a 1-page scan with the
 * `local` model (`ROUNDS` each, sequential, polled every 10 ms). Settings: BENCH_CONNECTIONS, BENCH_SECONDS,
 * BENCH_ROUNDS. The machine's load average is printed: figures taken on a busy machine are not comparable.
 */
import { spawn } from "node:child_process"
import { writeFileSync } from "node:fs"
import { loadavg } from "node:os"
import * as Path from "node:path"
import { expect, it } from "vitest"
import * as Quickstart from "../src/internal/quickstart.js"
import { client, type Json, SAMPLE_PDF, SAMPLE_SCAN, token } from "../test/support/http.js"
import { createDatabase } from "../test/support/postgres.js"
import { freePort, ROOT, type Running, SECRET, startServer, tempDir, waitFor } from "../test/support/process.js"
import { type LoadResult, load } from "./load.js"

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const LIST_QUERY = "/v1/extractions?status=completado&limit=20&sort_by=fecha_creacion&sort_order=desc"

const fmt = (n: number, digits = 1) => n.toFixed(digits)

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

interface Row {
  readonly engine: string
  readonly endpoint: string
  readonly legible: LoadResult
  readonly bare: LoadResult
}

const measure = async (engine: string, env: Record<string, string>, dir: string): Promise<Array<Row>> => {
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
    const ids: Array<string> = []
    for (let i = 0; i < 20; i++)
      ids.push(await api.submit(key, SAMPLE_PDF, `factura-${String(i).padStart(2, "0")}.pdf`))
    for (const id of ids) await api.awaitFinal(key, id)
    const readPath = `/v1/extractions/${ids[0]}`
    const routes: Record<string, string> = {}
    for (const path of [readPath, LIST_QUERY, "/healthz"]) {
      const response = await api.raw(path, { headers: { "x-api-key": key } })
      expect(response.status).toBe(200)
      routes[path] = await response.text()
    }
    expect((JSON.parse(routes[LIST_QUERY] ?? "{}") as Json).count).toBe(20)
    const bare = await startBare(routes, key, dir)
    bareServers.push(bare)
    const rows: Array<Row> = []
    for (const [endpoint, path] of [
      ["GET /v1/extractions/{id}", readPath],
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
      const legibleA = await run(server.url)
      const bareA = await run(bare.url)
      rows.push({ engine, endpoint, legible: legibleA, bare: bareA })
    }
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
    const rows = [...(await measure("PGlite", pglite, dir.path)), ...(await measure("PostgreSQL", postgres, dir.path))]
    console.log("\nengine      endpoint                     legible req/s  p99 ms | bare req/s  p99 ms | ratio req/s")
    for (const row of rows) {
      console.log(
        `${row.engine.padEnd(11)} ${row.endpoint.padEnd(28)} ${fmt(row.legible.rps, 0).padStart(13)} ${fmt(row.legible.p99Ms, 2).padStart(7)} | ` +
          `${fmt(row.bare.rps, 0).padStart(10)} ${fmt(row.bare.p99Ms, 2).padStart(7)} | ${fmt(row.legible.rps / row.bare.rps, 3).padStart(11)}` +
          (row.legible.errors + row.bare.errors > 0 ? `  (errors: ${row.legible.errors}/${row.bare.errors})` : "")
      )
      expect(row.legible.errors).toBe(0)
    }
    for (const [engine, env] of [
      ["PGlite", { ...pglite, LEGIBLE_DATA_DIR: Path.join(dir.path, "pglite-latency") }],
      ["PostgreSQL", postgres]
    ] as const) {
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
