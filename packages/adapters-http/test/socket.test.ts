/**
 * The application on a real socket (`NodeHttpServer` on port 0): the body limit as a client on the wire meets it,
 * and the headers as they are written.
 */
import { createServer } from "node:http"
import { connect } from "node:net"
import { NodeHttpServer } from "@effect/platform-node"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Fixtures, Memory } from "@legible/testkit"
import { parse as parseDisposition } from "content-disposition"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { Http } from "../src/index.js"
import { extractor, reader, SECRET, submission } from "./support.js"

const LIMIT = 256 * 1024

let scope: Scope.Closeable
let port = 0
const state = Memory.makeState()

beforeAll(async () => {
  await Effect.runPromise(Fixtures.seed.pipe(Effect.provideContext(Memory.context(state))))
  state.extractions.set(Fixtures.ids.extraction, Fixtures.extraction({ originName: 'fac"tura;\r\n日本語.pdf' }))
  state.documents.set(Fixtures.ids.extraction, { bytes: Fixtures.DOCUMENT, mimeType: "application/pdf" })
  const app = Http.layer({ auth: { _tag: "Secret", secret: SECRET }, bodyLimit: LIMIT }).pipe(
    Layer.provide(Layer.mergeAll(Layer.succeedContext(Memory.context(state)), reader, extractor))
  )
  const server = HttpRouter.serve(app, { disableLogger: true, disableListenLog: true }).pipe(
    Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" }))
  )
  scope = await Effect.runPromise(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(server, scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag === "UnixPathAddress") throw new Error("expected a TCP address")
  port = address.port
})

afterAll(() => Effect.runPromise(Scope.close(scope, Exit.void)))

/** The raw bytes a server sends back for `head` (and `body`, written in `chunks`), until it closes or `ms` pass. */
const exchange = (head: string, body: { readonly chunks: number; readonly size: number } | undefined, ms = 5000) =>
  new Promise<{ readonly response: string; readonly sent: number; readonly elapsed: number }>((resolve) => {
    const started = Date.now()
    const socket = connect(port, "127.0.0.1")
    let response = ""
    let sent = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      socket.destroy()
      resolve({ response, sent, elapsed: Date.now() - started })
    }
    socket.on("data", (data) => {
      response += data.toString("latin1")
      // A complete JSON response to this request is all a test needs.
      if (/\r\n\r\n[\s\S]*\}$/.test(response)) finish()
    })
    socket.on("close", finish)
    socket.on("error", finish)
    setTimeout(finish, ms)
    socket.write(head)
    if (body !== undefined) {
      const chunk = Buffer.alloc(body.size, 0x41)
      let n = 0
      const pump = () => {
        while (!done && n < body.chunks) {
          n++
          sent += chunk.length
          const frame = head.includes("chunked")
            ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")])
            : chunk
          if (!socket.write(frame)) {
            socket.once("drain", pump)
            return
          }
        }
      }
      pump()
    }
  })

const request = (method: string, path: string, headers: Record<string, string>) =>
  `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("")}\r\n`

const statusOf = (response: string) => Number(response.slice(9, 12))
const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4)) as unknown
const headerLines = (response: string, name: string) =>
  response
    .slice(0, response.indexOf("\r\n\r\n"))
    .split("\r\n")
    .filter((line) => line.toLowerCase().startsWith(`${name}:`))

describe("over a real socket", () => {
  it("answers a Content-Length above the limit with 413 {error} at once, without waiting for the body", async () => {
    const head = request("POST", "/v1/extractions", {
      "x-api-key": Fixtures.LIVE_KEY,
      "content-type": "application/json",
      "content-length": String(100 * 1024 * 1024)
    })
    const { response, elapsed } = await exchange(head, undefined)
    expect(statusOf(response)).toBe(413)
    expect(bodyOf(response)).toEqual({ error: `the request body exceeds the limit of ${LIMIT} bytes` })
    expect(headerLines(response, "connection")).toEqual(["connection: close"])
    expect(elapsed).toBeLessThan(2000)
  })

  it("cuts a chunked body off at the limit with 413 {error}, long before the client is done", async () => {
    const head = request("POST", "/v1/extractions", {
      "x-api-key": Fixtures.LIVE_KEY,
      "content-type": "application/json",
      "transfer-encoding": "chunked"
    })
    const { response, sent } = await exchange(head, { chunks: 4096, size: 16 * 1024 })
    expect(statusOf(response)).toBe(413)
    expect(bodyOf(response)).toEqual({ error: expect.stringContaining("limit") })
    // The client meant to send 64 MiB; the answer came while it was still sending (kernel buffers hold a few MiB).
    expect(sent).toBeLessThan(32 * 1024 * 1024)
    expect(state.extractions.size).toBe(1)
  })

  it("accepts a submission under the limit", async () => {
    const body = submission()
    const head = request("POST", "/v1/extractions", {
      "x-api-key": Fixtures.LIVE_KEY,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body))
    })
    const { response } = await exchange(head + body, undefined)
    expect(statusOf(response)).toBe(202)
    expect(bodyOf(response)).toEqual({ extraction_id: expect.any(String) })
  })

  it("writes one Content-Disposition that parses back to the stored name, nosniff, the type and the request id", async () => {
    const head = request("GET", `/v1/extractions/${Fixtures.ids.extraction}/document`, {
      "x-api-key": Fixtures.LIVE_KEY,
      "x-request-id": "socket-test-1",
      connection: "close"
    })
    const { response } = await exchange(head, undefined)
    expect(statusOf(response)).toBe(200)
    const disposition = headerLines(response, "content-disposition")
    expect(disposition).toHaveLength(1)
    expect(parseDisposition(disposition[0]!.slice("content-disposition:".length).trim()).parameters.filename).toBe(
      'fac"tura;\r\n日本語.pdf'
    )
    expect(headerLines(response, "x-content-type-options")).toEqual(["x-content-type-options: nosniff"])
    expect(headerLines(response, "content-type")).toEqual(["content-type: application/pdf"])
    expect(headerLines(response, "x-request-id")).toEqual(["x-request-id: socket-test-1"])
    expect(headerLines(response, "set-cookie")).toEqual([])
    expect(response.endsWith(new TextDecoder("latin1").decode(Fixtures.DOCUMENT))).toBe(true)
  })

  it("answers raw non-ASCII, duplicated and 15 KB API keys with 401 {error}; Node itself refuses 16 KB of headers", async () => {
    const raw = (key: string) => `x-api-key: ${key}\r\n`
    const cases = {
      utf8: `GET /v1/extractions HTTP/1.1\r\nhost: x\r\n${raw(Buffer.from("pk_live_ñandú", "utf8").toString("latin1"))}\r\n`,
      duplicated: `GET /v1/extractions HTTP/1.1\r\nhost: x\r\n${raw(Fixtures.LIVE_KEY)}${raw(Fixtures.LIVE_KEY)}\r\n`,
      large: `GET /v1/extractions HTTP/1.1\r\nhost: x\r\n${raw(`pk_live_${"A".repeat(15 * 1024)}`)}\r\n`
    }
    for (const [name, head] of Object.entries(cases)) {
      const { response } = await exchange(head, undefined)
      expect(statusOf(response), name).toBe(401)
      expect(bodyOf(response), name).toEqual({ error: "invalid API key" })
    }
    const { response } = await exchange(
      `GET /v1/extractions HTTP/1.1\r\nhost: x\r\n${raw(`pk_live_${"A".repeat(16 * 1024)}`)}\r\n`,
      undefined
    )
    expect(statusOf(response)).toBe(431)
  })
})
