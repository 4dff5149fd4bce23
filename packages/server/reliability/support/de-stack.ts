/**
 * The served stack of the D and E files: a fresh PostgreSQL database, `serve --role api` and `serve --role worker`
 * processes of the built server, a client with a live key and a skill (the quick-start invoice fields without the
 * catalog field), plus the probes these files need: a process's memory from /proc, raw requests that see every
 * header as sent, and the extraction rows as stored.
 */
import { readFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import type { Skill } from "@legible/core"
import * as Quickstart from "../../src/internal/quickstart.js"
import { type Client, client, type Json, token } from "../../test/support/http.js"
import { createDatabase, query, type TestDatabase } from "../../test/support/postgres.js"
import { type Running, SECRET, type Server, startServer, startWorker, tempDir } from "../../test/support/process.js"

/** The skill every submission of these files names. */
export const SKILL = "factura-es"

/** The quick-start invoice fields, less the catalog field (no catalog is seeded here). */
export const skillFields = (): ReadonlyArray<Skill.SkillField> =>
  Quickstart.skillFields("00000000-0000-4000-8000-000000000000").filter((f) => f.type !== "catalog")

/** A running stack. */
export interface Stack {
  readonly api: Client
  readonly server: Server
  readonly workers: Array<Running>
  readonly key: string
  readonly jwt: string
  readonly database: TestDatabase
  /** Where documents are stored (`LEGIBLE_DOCUMENTS_DIR`). */
  readonly documentsDir: string
  /** The environment the processes got. */
  readonly env: Record<string, string>
  /** Starts one more worker with the same environment. */
  readonly addWorker: () => Promise<Running>
  readonly stop: () => Promise<void>
}

/** Starts the api and `workers` worker processes on a fresh database, with `env` over the defaults. */
export const startStack = async (
  options: { readonly env?: Record<string, string>; readonly workers?: number } = {}
): Promise<Stack> => {
  const data = tempDir("legible-rel-de-")
  const database = await createDatabase()
  const documentsDir = `${data.path}/documents`
  const env: Record<string, string> = {
    LEGIBLE_DATABASE_URL: database.url,
    LEGIBLE_DATA_DIR: data.path,
    LEGIBLE_DOCUMENTS_DIR: documentsDir,
    LEGIBLE_JWT_SECRET: SECRET,
    LEGIBLE_DATABASE_MAX_CONNECTIONS: "4",
    LEGIBLE_OCR_WORKERS: "1",
    LEGIBLE_WORKER_CONCURRENCY: "2",
    LEGIBLE_WORKER_POLL_SECONDS: "0.2",
    LEGIBLE_LOG_LEVEL: "Info",
    ...options.env
  }
  const started: Array<Running> = []
  const stop = async () => {
    for (const p of started.reverse()) await p.stop("SIGKILL")
    await database.drop()
    data.dispose()
  }
  try {
    const server = await startServer({ env, args: ["serve", "--role", "api"] })
    started.push(server)
    const api = client(server.url)
    const jwt = token({ sub: "rel-de", clientId: "client-rel-de", name: "Reliability D/E", email: "de@rel.test" })
    const key = await api.createKey(jwt, "reliability-de")
    const skill = await api.jwt("POST", "/api/skills", jwt, { slug: SKILL, name: "Factura", fields: skillFields() })
    if (skill.status !== 201) throw new Error(`skill creation failed: ${skill.status} ${JSON.stringify(skill.body)}`)
    const workers: Array<Running> = []
    const addWorker = async () => {
      const worker = await startWorker(env)
      started.push(worker)
      workers.push(worker)
      return worker
    }
    for (let i = 0; i < (options.workers ?? 1); i++) await addWorker()
    return { api, server, workers, key, jwt, database, documentsDir, env, addWorker, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

/** A process's resident memory now and at its peak, in MB, from /proc/<pid>/status. */
export const memoryOf = (pid: number): { readonly rssMb: number; readonly peakMb: number } => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN)
  return { rssMb: kb("VmRSS") / 1024, peakMb: kb("VmHWM") / 1024 }
}

/** A response as it came over the socket: every header line as sent (duplicates kept), and the body. */
export interface RawReply {
  readonly status: number
  /** Header names lower-cased, in order, with duplicates. */
  readonly headers: ReadonlyArray<readonly [string, string]>
  readonly body: Buffer
}

/** A GET with `headers`, seen raw. */
export const rawGet = (url: string, headers: Record<string, string>): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "GET", headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (b: Buffer) => chunks.push(b))
      res.on("end", () => {
        const pairs: Array<readonly [string, string]> = []
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          pairs.push([res.rawHeaders[i]!.toLowerCase(), res.rawHeaders[i + 1]!])
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: Buffer.concat(chunks) })
      })
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

/** Submits without throwing: the status and body of `POST /v1/extractions`. */
export const submitRaw = (stack: Stack, document: Uint8Array, fileName: string, extra: Json = {}) =>
  stack.api.key("POST", "/v1/extractions", stack.key, {
    file_name: fileName,
    skill: SKILL,
    file_base64: Buffer.from(document).toString("base64"),
    ...extra
  })

/** The stored row of each extraction (status, error message, attempts, job state, stored location). */
export const rows = async (stack: Stack, ids: ReadonlyArray<string>): Promise<Map<string, Record<string, unknown>>> => {
  if (ids.length === 0) return new Map()
  const list = ids.map((id) => `'${id}'`).join(",")
  const found = await query(
    stack.database.url,
    `SELECT e.id::text AS id, e.status, e.error_message, e.attempts, e.origin_name, e.document_location,
            e.mime_type, j.state AS job_state, j.attempts AS job_attempts, j.last_error
     FROM extractions e LEFT JOIN jobs j ON j.extraction_id = e.id WHERE e.id IN (${list})`
  )
  return new Map(found.map((r) => [r.id as string, r]))
}

/** Final statuses. */
export const FINAL: ReadonlyArray<string> = ["completado", "incompleto", "error"]

/** Waits until every one of `ids` is final in the database; returns their rows. */
export const awaitAllFinal = async (
  stack: Stack,
  ids: ReadonlyArray<string>,
  timeoutMs: number
): Promise<Map<string, Record<string, unknown>>> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = await rows(stack, ids)
    const pending = ids.filter((id) => !FINAL.includes(found.get(id)?.status as string))
    if (pending.length === 0) return found
    if (Date.now() > deadline) {
      throw new Error(
        `${pending.length} of ${ids.length} not final after ${timeoutMs} ms, e.g. ${JSON.stringify(found.get(pending[0]!))}`
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Re-exported for the test files. */
export { type Json, query }
