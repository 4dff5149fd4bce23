/**
 * Support of the queue-and-worker promises (C11–C18) and the soak: small born-digital PDFs made on the spot (each
 * with its own tag, so documents differ and a fake provider can tell jobs apart), a fake OpenAI-compatible server
 * whose answer depends on the document it is sent, a deployment (`serve --role api` + N × `serve --role worker` on
 * one PostgreSQL database, with a client, a skill and a live key), and the queries that check the database's side
 * of every promise.
 */
import { readFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { deflateSync } from "node:zlib"
import { type Client, client, type Json, token } from "../../test/support/http.js"
import { query } from "../../test/support/postgres.js"
import {
  type Running,
  SECRET,
  type Server,
  startServer,
  startWorker,
  startWorkers,
  tempDir,
  waitFor
} from "../../test/support/process.js"

/** Statuses a job ends in. */
export const FINAL: ReadonlyArray<string> = ["completado", "incompleto", "error"]

const pdfText = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`)

/**
 * A one-page PDF whose text layer holds `lines` (Helvetica, one line each). Valid, born-digital and tiny
 * (~600 bytes); `compress` deflates the content stream (for very long pages).
 */
export const textPdf = (lines: ReadonlyArray<string>, options: { readonly compress?: boolean } = {}): Uint8Array => {
  const content = Buffer.from(
    lines.map((line, i) => `BT /F1 11 Tf 56 ${760 - (i % 60) * 12} Td (${pdfText(line)}) Tj ET`).join("\n"),
    "latin1"
  )
  return options.compress === true
    ? pdfWithStream(deflateSync(content), " /Filter /FlateDecode")
    : pdfWithStream(content, "")
}

/** A one-page PDF (Helvetica as /F1) whose page content is `stream`, its `/Filter` entry `filter`. */
const pdfWithStream = (stream: Uint8Array, filter: string): Uint8Array => {
  const objects: Array<Buffer> = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
    Buffer.from(
      "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>"
    ),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
    Buffer.concat([
      Buffer.from(`<< /Length ${stream.length}${filter} >>\nstream\n`),
      Buffer.from(stream),
      Buffer.from("\nendstream")
    ])
  ]
  const parts: Array<Buffer> = [Buffer.from("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", "latin1")]
  const offsets: Array<number> = []
  let length = parts[0]!.length
  objects.forEach((body, i) => {
    offsets.push(length)
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")])
    parts.push(chunk)
    length += chunk.length
  })
  const xref = [
    "xref",
    `0 ${objects.length + 1}`,
    "0000000000 65535 f ",
    ...offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n `),
    "trailer",
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    "startxref",
    String(length),
    "%%EOF",
    ""
  ].join("\n")
  parts.push(Buffer.from(xref))
  return new Uint8Array(Buffer.concat(parts))
}

/**
 * A parser bomb: one page whose (deflated, ~1.7 MB) content stream shows `words` tiny words, each placed on its own
 * spot — tens of megabytes of text operators that take the reader far past a short page time limit on every try.
 */
export const textBombPdf = (words = 600_000): Uint8Array => {
  const ops: Array<string> = ["BT /F1 2 Tf"]
  for (let i = 0; i < words; i++) ops.push(`1 0 0 1 ${(i * 7) % 580} ${(i * 3) % 830} Tm (w${i % 10}) Tj`)
  ops.push("ET")
  const content = deflateSync(Buffer.from(ops.join("\n"), "latin1"))
  return pdfWithStream(content, " /Filter /FlateDecode")
}

/** An invoice-like PDF tagged `tag` (found again in the text a provider is sent). */
export const invoicePdf = (tag: string): Uint8Array =>
  textPdf([
    "FACTURA",
    `Numero de factura: ${tag}`,
    "Fecha: 15/03/2026",
    "Emisor: Papeleria Ejemplo S.L.",
    "Concepto: material de oficina",
    "Total: 121,00 EUR"
  ])

/** The tag `invoicePdf` writes: `T` then letters, digits and dashes. */
export const TAG = /\bT-[A-Za-z0-9-]+-X\b/

/** A tag for job `i` of a test `name`. */
export const tagOf = (name: string, i: number): string => `T-${name}-${i}-X`

/** The skill the suite submits to: two plain fields, no catalog. */
export const SKILL = {
  slug: "factura-c",
  name: "Factura (reliability C)",
  fields: [
    { name: "numero", order: 1, type: "string", isList: false, description: "Numero de la factura", aliases: [] },
    { name: "total", order: 2, type: "float", isList: false, description: "Importe total", aliases: ["Total"] }
  ]
} as const

// ---------------------------------------------------------------------------------------------------------------
// A fake OpenAI-compatible provider

/** One request the fake received. */
export interface LlmRequest {
  /** The tag found in the request body (the document's), if any. */
  readonly tag: string | undefined
  /** Which request of that tag this is (0-based). */
  readonly n: number
  /** `Date.now()` when it arrived. */
  readonly at: number
}

/** What the fake does with a request. */
export type LlmAnswer =
  | { readonly _tag: "Values"; readonly delayMs?: number }
  | { readonly _tag: "Error"; readonly status: number; readonly message: string; readonly delayMs?: number }

/** A running fake provider. */
export interface FakeLlm {
  /** The base URL for `LEGIBLE_OPENAI_BASE_URL` (`…/v1`). */
  readonly url: string
  readonly requests: ReadonlyArray<LlmRequest>
  /** Requests received per tag, in order. */
  readonly byTag: (tag: string) => ReadonlyArray<LlmRequest>
  readonly close: () => Promise<void>
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const sendJson = (response: ServerResponse, status: number, body: unknown): void => {
  const text = JSON.stringify(body)
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "x-request-id": "req_fake_c"
  })
  response.end(text)
}

/**
 * Starts a fake Chat Completions server: each request is answered per `decide(request)`, with OpenAI's body for a
 * completion (the skill's two values, as the document prints them) or for an error status.
 */
export const startFakeLlm = (decide: (request: LlmRequest) => LlmAnswer): Promise<FakeLlm> => {
  const requests: Array<LlmRequest> = []
  const counts = new Map<string, number>()
  let index = 0
  const server = createServer((request, response) => {
    void readBody(request).then(async (text) => {
      if (request.method !== "POST" || !(request.url ?? "").endsWith("/chat/completions")) {
        return sendJson(response, 404, { error: { message: "no route", type: "invalid_request_error", code: null } })
      }
      const tag = TAG.exec(text)?.[0]
      const key = tag ?? ""
      const n = counts.get(key) ?? 0
      counts.set(key, n + 1)
      const entry: LlmRequest = { tag, n, at: Date.now() }
      requests.push(entry)
      const answer = decide(entry)
      if ((answer.delayMs ?? 0) > 0) await new Promise((r) => setTimeout(r, answer.delayMs))
      if (response.destroyed) return
      if (answer._tag === "Error") {
        return sendJson(response, answer.status, {
          error: { message: answer.message, type: "invalid_request_error", param: null, code: null }
        })
      }
      index += 1
      sendJson(response, 200, {
        id: `chatcmpl-c-${index}`,
        object: "chat.completion",
        created: 1_767_225_600,
        model: "gpt-4o-mini",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: JSON.stringify({ numero: tag ?? null, total: "121,00" }),
              refusal: null,
              annotations: []
            },
            logprobs: null,
            finish_reason: "stop"
          }
        ],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
        system_fingerprint: "fp_fake"
      })
    })
  })
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        requests,
        byTag: (tag) => requests.filter((r) => r.tag === tag),
        close: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })
}

// ---------------------------------------------------------------------------------------------------------------
// A deployment

/** The api process, its client, the key and skill the tests submit with, and the workers started so far. */
export interface Deployment {
  readonly env: Record<string, string>
  readonly api: Server
  readonly http: Client
  readonly jwt: string
  readonly key: string
  readonly clientId: string
  readonly workers: Array<Running>
  /** Starts one more `serve --role worker` (extra variables over the deployment's). */
  readonly addWorker: (extra?: Record<string, string>) => Promise<Running>
  /** Starts `count` more workers at once (their start-ups overlap). */
  readonly addWorkers: (count: number) => Promise<ReadonlyArray<Running>>
  /** Stops every process (SIGKILL) and removes the data directory. */
  readonly dispose: () => Promise<void>
}

/** The variables of every process: PostgreSQL at `databaseUrl`, short leases, quick polls, JSON logs. */
export const baseEnv = (databaseUrl: string, dataDir: string, extra: Record<string, string> = {}) => ({
  LEGIBLE_DATABASE_URL: databaseUrl,
  LEGIBLE_DATA_DIR: dataDir,
  LEGIBLE_JWT_SECRET: SECRET,
  LEGIBLE_DATABASE_MAX_CONNECTIONS: "4",
  LEGIBLE_OCR_WORKERS: "1",
  LEGIBLE_WORKER_CONCURRENCY: "2",
  LEGIBLE_LEASE_SECONDS: "3",
  LEGIBLE_MAX_ATTEMPTS: "3",
  LEGIBLE_WORKER_POLL_SECONDS: "1",
  LEGIBLE_SHUTDOWN_GRACE_SECONDS: "10",
  ...extra
})

/**
 * Starts the api on `databaseUrl` (which migrates it), creates a client (through its first JWT), a live key and
 * the suite's skill, then `workers` worker processes.
 */
export const deploy = async (options: {
  readonly databaseUrl: string
  readonly env?: Record<string, string>
  readonly workers?: number
  readonly name?: string
}): Promise<Deployment> => {
  const data = tempDir("legible-c-")
  const env = baseEnv(options.databaseUrl, data.path, options.env)
  const workers: Array<Running> = []
  let api: Server | undefined
  const dispose = async () => {
    await Promise.all([...workers, ...(api === undefined ? [] : [api])].map((p) => p.stop("SIGKILL")))
    data.dispose()
  }
  try {
    api = await startServer({ env, args: ["serve", "--role", "api"] })
    const http = client(api.url)
    const clientId = `client-${options.name ?? "c"}`
    const jwt = token({ sub: `user-${options.name ?? "c"}`, clientId, name: "Reliability C", email: "c@example.com" })
    const key = await http.createKey(jwt, "reliability-c")
    const skill = await http.jwt("POST", "/api/skills", jwt, SKILL)
    if (skill.status !== 201) throw new Error(`skill creation failed: ${skill.status} ${JSON.stringify(skill.body)}`)
    const addWorkers = async (count: number) => {
      const started = await startWorkers(env, count)
      workers.push(...started)
      return started
    }
    const addWorker = async (extra: Record<string, string> = {}) => {
      const worker = await startWorker({ ...env, ...extra })
      workers.push(worker)
      return worker
    }
    await addWorkers(options.workers ?? 0)
    return { env, api, http, jwt, key, clientId, workers, addWorker, addWorkers, dispose }
  } catch (error) {
    await dispose()
    throw error
  }
}

/** The body of a submission of `document` to the suite's skill. */
export const submission = (document: Uint8Array, fileName: string, extra: Json = {}): Json => ({
  file_name: fileName,
  skill: SKILL.slug,
  file_base64: Buffer.from(document).toString("base64"),
  ...extra
})

/** Submits `count` documents, `concurrency` at a time; returns the extraction ids in order (fails unless 202). */
export const submitMany = async (
  deployment: Deployment,
  count: number,
  make: (i: number) => { readonly document: Uint8Array; readonly name: string; readonly extra?: Json },
  concurrency = 8
): Promise<Array<string>> => {
  const ids: Array<string> = new Array(count)
  let next = 0
  const lane = async () => {
    while (next < count) {
      const i = next++
      const item = make(i)
      const reply = await deployment.http.key(
        "POST",
        "/v1/extractions",
        deployment.key,
        submission(item.document, item.name, item.extra)
      )
      if (reply.status !== 202) throw new Error(`submission ${i}: ${reply.status} ${JSON.stringify(reply.body)}`)
      ids[i] = (reply.body as Json).extraction_id as string
    }
  }
  await Promise.all(Array.from({ length: concurrency }, lane))
  return ids
}

/** One row per extraction with its job: what the promises are checked against. */
export interface JobRow {
  readonly id: string
  readonly status: string
  readonly error_message: string | null
  readonly e_attempts: number
  readonly state: string | null
  readonly attempts: number | null
  readonly jobs: number
  readonly has_result: boolean
}

/** Every extraction of the database with its job (`state` null: no job). */
export const jobRows = async (databaseUrl: string): Promise<Array<JobRow>> =>
  (await query(
    databaseUrl,
    `SELECT e.id::text AS id, e.status, e.error_message, e.attempts AS e_attempts, j.state, j.attempts,
            (SELECT count(*)::int FROM jobs k WHERE k.extraction_id = e.id) AS jobs, e.result IS NOT NULL AS has_result
     FROM extractions e LEFT JOIN jobs j ON j.extraction_id = e.id`
  )) as unknown as Array<JobRow>

/** Counts of extractions by status. */
export const statusCounts = async (databaseUrl: string): Promise<Record<string, number>> => {
  const rows = await query(databaseUrl, "SELECT status, count(*)::int AS n FROM extractions GROUP BY status")
  return Object.fromEntries(rows.map((r) => [r.status as string, r.n as number]))
}

/** Waits until every extraction of the database is final (polling the database); returns the count. */
export const awaitAllFinal = (databaseUrl: string, expected: number, timeoutMs: number): Promise<number> =>
  waitFor(
    `${expected} extractions to be final`,
    async () => {
      const [row] = await query(
        databaseUrl,
        `SELECT count(*) FILTER (WHERE status IN ('completado','incompleto','error'))::int AS final,
                count(*)::int AS total FROM extractions`
      )
      return (row?.final as number) >= expected && row?.final === row?.total ? (row?.final as number) : undefined
    },
    timeoutMs,
    250
  )

/**
 * Records every claim: a trigger on `jobs` writes a row to `job_claims` each time a job turns `running` with a
 * new lease token (who claimed it, which attempt), and one to `job_finals` each time it turns `done`/`failed`.
 */
export const installClaimLog = (databaseUrl: string): Promise<unknown> =>
  query(
    databaseUrl,
    `CREATE TABLE job_claims (job_id uuid NOT NULL, extraction_id uuid NOT NULL, worker text NOT NULL,
       attempt integer NOT NULL, lease_token uuid NOT NULL, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    `CREATE TABLE job_finals (job_id uuid NOT NULL, extraction_id uuid NOT NULL, state text NOT NULL,
       worker text, at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    `CREATE FUNCTION record_job_claim() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF NEW.state = 'running' AND NEW.lease_token IS DISTINCT FROM OLD.lease_token THEN
         INSERT INTO job_claims (job_id, extraction_id, worker, attempt, lease_token)
         VALUES (NEW.id, NEW.extraction_id, NEW.locked_by, NEW.attempts, NEW.lease_token);
       END IF;
       IF NEW.state IN ('done', 'failed') AND OLD.state NOT IN ('done', 'failed') THEN
         INSERT INTO job_finals (job_id, extraction_id, state, worker) VALUES (NEW.id, NEW.extraction_id, NEW.state, OLD.locked_by);
       END IF;
       RETURN NEW;
     END $$`,
    `CREATE TRIGGER record_job_claim AFTER UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION record_job_claim()`
  )

/** The ids of the jobs a process (by pid) holds now. */
export const heldBy = async (databaseUrl: string, pid: number): Promise<Array<string>> =>
  (
    await query(
      databaseUrl,
      `SELECT extraction_id::text AS id FROM jobs WHERE state = 'running' AND locked_by LIKE '%-${pid}-%'`
    )
  ).map((r) => r.id as string)

/** The resident memory of a process in MiB (from /proc), or NaN when it is gone. */
export const rssMiB = (pid: number): number => {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8")
    const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1]
    return kb === undefined ? Number.NaN : Number(kb) / 1024
  } catch {
    return Number.NaN
  }
}

/** The p-th percentile (0–100) of `values` (nearest rank); NaN when empty. */
export const percentile = (values: ReadonlyArray<number>, p: number): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!
}

export { query, waitFor }
