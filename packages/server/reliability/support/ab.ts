/**
 * Helpers of the A (keys, JWT), B (tenants, quota) and fuzz reliability tests: a served stack on a fresh PostgreSQL
 * database (the built `serve --role api`, optionally a `--role worker`), the demo skill seeded through the operator
 * endpoints, raw HTTP/1.1 over a socket (for bytes `fetch` refuses to send: non-ASCII and duplicated headers), a
 * bounded-concurrency map, and the one-line figure every test prints.
 */
import { createHash } from "node:crypto"
import { connect } from "node:net"
import { type Client, client } from "../../test/support/http.js"

import { createDatabase, query, type TestDatabase } from "../../test/support/postgres.js"
import { type Running, SECRET, type Server, startServer, startWorker, tempDir } from "../../test/support/process.js"

/** The one line a promise's test prints: its id and its measured figure. */
export const figure = (id: string, text: string): void => {
  console.log(`${id}: ${text}`)
}

/** `f` over `items` with at most `concurrency` in flight; results in input order. */
export const mapLimit = async <A, B>(
  items: ReadonlyArray<A>,
  concurrency: number,
  f: (item: A, index: number) => Promise<B>
): Promise<Array<B>> => {
  const results = new Array<B>(items.length)
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await f(items[index]!, index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane))
  return results
}

/** Milliseconds `f` took, with its value. */
export const timed = async <A>(f: () => Promise<A>): Promise<{ readonly value: A; readonly ms: number }> => {
  const started = performance.now()
  const value = await f()
  return { value, ms: performance.now() - started }
}

/** The `q` quantile (0..1) of numbers. */
export const quantile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

/** SHA-256 hex, as keys are stored. */
export const sha256 = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex")

/** A served stack: its database, the api process, an optional worker, a client. */
export interface Stack {
  readonly database: TestDatabase
  readonly env: Record<string, string>
  readonly server: Server
  readonly api: Client
  worker: Running | undefined
  /** Everything the processes of the stack wrote (stdout and stderr of api and worker). */
  readonly output: () => string
  /** Rows of a statement on the stack's database. */
  readonly sql: (statement: string) => Promise<ReadonlyArray<Record<string, unknown>>>
  readonly stop: () => Promise<void>
}

/** Starts `serve --role api` (and a worker when asked) on a fresh database with the tests' HS256 secret. */
export const startStack = async (
  options: { readonly env?: Record<string, string>; readonly worker?: boolean } = {}
): Promise<Stack> => {
  const database = await createDatabase()
  const data = tempDir("legible-rel-ab-")
  const env: Record<string, string> = {
    LEGIBLE_DATABASE_URL: database.url,
    LEGIBLE_DATA_DIR: data.path,
    LEGIBLE_JWT_SECRET: SECRET,
    LEGIBLE_DATABASE_MAX_CONNECTIONS: "8",
    LEGIBLE_OCR_WORKERS: "1",
    LEGIBLE_WORKER_POLL_SECONDS: "0.2",
    LEGIBLE_MAX_BODY_BYTES: String(2 * 1024 * 1024),
    ...options.env
  }
  const outputs: Array<Running> = []
  let server: Server | undefined
  try {
    server = await startServer({ env, args: ["serve", "--role", "api"] })
    outputs.push(server)
    const stack: Stack = {
      database,
      env,
      server,
      api: client(server.url),
      worker: undefined,
      output: () => outputs.map((p) => `${p.stdout()}\n${p.stderr()}`).join("\n"),
      sql: (statement) => query(database.url, statement),
      stop: async () => {
        await stack.worker?.stop("SIGKILL")
        await server?.stop("SIGKILL")
        await database.drop()
        data.dispose()
      }
    }
    if (options.worker === true) {
      stack.worker = await startWorker(env)
      outputs.push(stack.worker)
    }
    return stack
  } catch (error) {
    await server?.stop("SIGKILL")
    await database.drop()
    data.dispose()
    throw error
  }
}

/** (Re)starts the stack's worker. */
export const restartWorker = async (stack: Stack): Promise<void> => {
  await stack.worker?.stop("SIGKILL")
  stack.worker = await startWorker(stack.env)
}

/** A raw HTTP/1.1 answer: the status and the body text. */
export interface RawReply {
  readonly status: number
  readonly headers: string
  readonly body: string
}

/**
 * Sends `head` (the request line and header lines, without the final blank line) and `body` over a fresh socket
 * with `Connection: close` (and the body's `Content-Length` unless `contentLength` is false: the head then frames
 * the body itself), and reads the whole answer; fails after `timeoutMs`.
 */
export const rawRequest = (
  url: string,
  head: ReadonlyArray<string | Buffer>,
  body: Buffer = Buffer.alloc(0),
  timeoutMs = 10_000,
  contentLength = true
): Promise<RawReply> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname)
    const chunks: Array<Buffer> = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    socket.on("data", (chunk: Buffer) => chunks.push(chunk))
    socket.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    socket.on("close", () => {
      clearTimeout(timer)
      const text = Buffer.concat(chunks).toString("latin1")
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text)
      if (match === null) return reject(new Error(`not an HTTP answer: ${JSON.stringify(text.slice(0, 200))}`))
      const split = text.indexOf("\r\n\r\n")
      let payload = split === -1 ? "" : text.slice(split + 4)
      const headers = split === -1 ? text : text.slice(0, split)
      if (/\r\ntransfer-encoding: chunked/i.test(headers)) payload = dechunk(payload)
      resolve({ status: Number(match[1]), headers, body: Buffer.from(payload, "latin1").toString("utf8") })
    })
    socket.on("connect", () => {
      const crlf = Buffer.from("\r\n")
      const lines = [...head, "Connection: close", ...(contentLength ? [`Content-Length: ${body.byteLength}`] : [])]
      const bytes = lines.flatMap((l) => [typeof l === "string" ? Buffer.from(l, "latin1") : l, crlf])
      // No half-close (FIN) after the request: Node drops the answer of a request whose client half-closed.
      socket.write(Buffer.concat([...bytes, crlf, body]))
    })
  })

const dechunk = (payload: string): string => {
  let out = ""
  let rest = payload
  for (;;) {
    const end = rest.indexOf("\r\n")
    if (end === -1) return out
    const size = Number.parseInt(rest.slice(0, end), 16)
    if (!Number.isFinite(size) || size === 0) return out
    out += rest.slice(end + 2, end + 2 + size)
    rest = rest.slice(end + 2 + size + 2)
  }
}
