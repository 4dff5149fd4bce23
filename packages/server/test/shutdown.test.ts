/**
 * Graceful stops of `serve --role worker` on PostgreSQL (a fresh `legible_test_*` database): on SIGTERM a worker
 * stops claiming and finishes the job in flight within `LEGIBLE_SHUTDOWN_GRACE_SECONDS`, then exits 0; with no grace
 * left the job is released at once (its attempt not counted) and another worker finishes it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, client, type Json, SAMPLE_SCAN, token } from "./support/http.js"
import { createDatabase, query, type TestDatabase } from "./support/postgres.js"
import { type Running, SECRET, type Server, startServer, startWorker, tempDir, waitFor } from "./support/process.js"

describe("graceful worker stops", () => {
  const data = tempDir("legible-shutdown-")
  const processes: Array<Running> = []
  let database: TestDatabase | undefined
  let server: Server | undefined
  let api: Client | undefined
  let key = ""
  let env: Record<string, string> = {}

  beforeAll(async () => {
    database = await createDatabase()
    env = {
      LEGIBLE_DATABASE_URL: database.url,
      LEGIBLE_DATA_DIR: data.path,
      LEGIBLE_JWT_SECRET: SECRET,
      LEGIBLE_DATABASE_MAX_CONNECTIONS: "3",
      LEGIBLE_OCR_WORKERS: "1",
      LEGIBLE_WORKER_CONCURRENCY: "1"
    }
    server = await startServer({ env, args: ["serve", "--role", "api"] })
    processes.push(server)
    api = client(server.url)
    const jwt = token({ sub: "ops", clientId: "client-ops" })
    key = await api.createKey(jwt, "ops")
    const skill = await api.jwt("POST", "/api/skills", jwt, {
      slug: "factura-es",
      name: "Factura",
      fields: [{ name: "total", order: 1, type: "float" }]
    })
    expect(skill.status).toBe(201)
  })

  afterAll(async () => {
    for (const p of processes) await p.stop("SIGKILL")
    await database?.drop()
    data.dispose()
  })

  const processing = (id: string) =>
    waitFor(
      `extraction ${id} to be processing`,
      async () =>
        ((await api!.key("GET", `/v1/extractions/${id}`, key)).body as Json).status === "procesando" || undefined,
      60_000,
      20
    )

  const attempts = async (id: string) =>
    (await query(database!.url, `SELECT attempts FROM jobs WHERE extraction_id = '${id}'`))[0]?.attempts

  it("SIGTERM lets the job in flight finish, then the worker exits 0", async () => {
    const worker = await startWorker({ ...env, LEGIBLE_SHUTDOWN_GRACE_SECONDS: "60" })
    processes.push(worker)
    // The scan takes seconds of OCR: long enough to stop the worker in the middle of it.
    const id = await api!.submit(key, SAMPLE_SCAN, "scan.jpg")
    await processing(id)
    expect(await worker.stop("SIGTERM", 90_000)).toBe(0)
    const stopping = worker
      .stderr()
      .split("\n")
      .find((line) => line.includes('"worker stopping"'))
    expect(JSON.parse(stopping ?? "{}")).toMatchObject({ annotations: { inFlight: 1, graceSeconds: 60 } })
    const read = (await api!.key("GET", `/v1/extractions/${id}`, key)).body as Json
    expect(read.status).toBe("completado")
    expect(await attempts(id)).toBe(1)
  }, 120_000)

  it("with no grace the job is released at once, uncounted, and another worker finishes it", async () => {
    const worker = await startWorker({ ...env, LEGIBLE_SHUTDOWN_GRACE_SECONDS: "0" })
    processes.push(worker)
    const id = await api!.submit(key, SAMPLE_SCAN, "scan-2.jpg")
    await processing(id)
    expect(await worker.stop("SIGTERM", 30_000)).toBe(0)
    const released = (await api!.key("GET", `/v1/extractions/${id}`, key)).body as Json
    expect(released.status).toBe("en cola")
    expect(await attempts(id)).toBe(0)
    const next = await startWorker(env)
    processes.push(next)
    const final = await api!.awaitFinal(key, id, 90_000)
    expect(final.status).toBe("completado")
    expect(await attempts(id)).toBe(1)
  }, 150_000)
})
