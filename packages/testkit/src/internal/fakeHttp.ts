/**
 * A scripted HTTP server on 127.0.0.1 (ephemeral port) for the fake LLM providers: every request is recorded, then
 * answered with the next scripted reply (in arrival order), rendered into the provider's wire format by the caller.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, type Scope } from "effect"
import type { RecordedRequest, Server } from "../FakeServer.js"

/** What the server does with one request. */
export type HttpReply =
  | {
      readonly _tag: "Respond"
      readonly status: number
      readonly headers?: Readonly<Record<string, string>> | undefined
      readonly body: unknown
    }
  | { readonly _tag: "Hang" }

/** How a provider's fake renders its replies and the cases nobody scripted. */
export interface Dialect<R> {
  readonly name: string
  /** What the SDK's base URL adds to the origin (`""`, or `"/v1"` where the SDK appends the rest). */
  readonly basePath: string
  /** Whether the server serves this method and path (otherwise `notFound`). */
  accepts(method: string, path: string): boolean
  notFound(method: string, path: string): HttpReply
  /** `index`: the request's 0-based arrival number, for ids. */
  render(reply: R, request: RecordedRequest, index: number): HttpReply
  /** The answer when the script is empty: a status the clients under test do not retry, so a test fails fast. */
  unscripted(index: number): HttpReply
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const parse = (text: string): unknown => {
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const flatHeaders = (request: IncomingMessage): Record<string, string> => {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value
  }
  return out
}

const send = (response: ServerResponse, reply: Extract<HttpReply, { _tag: "Respond" }>): void => {
  const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body)
  response.writeHead(reply.status, {
    "content-type": typeof reply.body === "string" ? "text/plain; charset=utf-8" : "application/json",
    "content-length": Buffer.byteLength(body),
    ...reply.headers
  })
  response.end(body)
}

/** Starts a scripted server; it is closed, hanging connections included, when the scope closes. */
export const serve = <R>(dialect: Dialect<R>): Effect.Effect<Server<R>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const queue: Array<R> = []
    const recorded: Array<RecordedRequest> = []
    const waiters: Array<{ readonly count: number; readonly resolve: () => void }> = []
    let inFlight = 0
    let maxInFlight = 0
    let gate: { readonly opened: Promise<void>; readonly open: () => void } | undefined

    const notify = () => {
      for (const waiter of waiters.filter((w) => recorded.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
    }

    const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
      const method = request.method ?? "GET"
      const path = (request.url ?? "/").split("?")[0] ?? "/"
      const entry: RecordedRequest = {
        method,
        path,
        headers: flatHeaders(request),
        body: parse(await readBody(request)),
        at: Date.now()
      }
      const index = recorded.length
      recorded.push(entry)
      inFlight += 1
      maxInFlight = Math.max(maxInFlight, inFlight)
      response.on("close", () => {
        inFlight -= 1
      })
      notify()
      let reply: HttpReply
      if (!dialect.accepts(method, path)) reply = dialect.notFound(method, path)
      else {
        const next = queue.shift()
        reply = next === undefined ? dialect.unscripted(index) : dialect.render(next, entry, index)
      }
      if (reply._tag === "Hang") return
      if (gate !== undefined) await gate.opened
      send(response, reply)
    }

    const server = createServer((request, response) => {
      handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) send(response, { _tag: "Respond", status: 500, body: { error: String(error) } })
      })
    })
    yield* Effect.acquireRelease(
      Effect.callback<void>((resume) => {
        server.listen(0, "127.0.0.1", () => resume(Effect.void))
      }),
      () =>
        Effect.callback<void>((resume) => {
          gate?.open()
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
    )
    const { port } = server.address() as AddressInfo

    return {
      url: `http://127.0.0.1:${port}${dialect.basePath}`,
      script: (...replies) =>
        Effect.sync(() => {
          queue.push(...replies)
        }),
      requests: Effect.sync(() => [...recorded]),
      awaitRequests: (count) =>
        Effect.callback<ReadonlyArray<RecordedRequest>>((resume) => {
          const done = () => resume(Effect.sync(() => [...recorded]))
          if (recorded.length >= count) return done()
          const waiter = { count, resolve: done }
          waiters.push(waiter)
          return Effect.sync(() => {
            if (waiters.includes(waiter)) waiters.splice(waiters.indexOf(waiter), 1)
          })
        }),
      maxInFlight: Effect.sync(() => maxInFlight),
      hold: Effect.sync(() => {
        if (gate !== undefined) return
        let open = () => {}
        const opened = new Promise<void>((resolve) => {
          open = resolve
        })
        gate = { opened, open }
      }),
      release: Effect.sync(() => {
        gate?.open()
        gate = undefined
      })
    }
  })

/** The `model` of a request body, or `fallback` when it names none. */
export const modelOf = (request: RecordedRequest, fallback: string): string => {
  const body = request.body
  if (typeof body === "object" && body !== null && "model" in body && typeof body.model === "string") return body.model
  return fallback
}

/** The headers of a scripted error: the test's own, and `retry-after` when it set one. */
export const errorHeaders = (options: {
  readonly retryAfter?: string
  readonly headers?: Record<string, string>
}): Readonly<Record<string, string>> => ({
  ...options.headers,
  ...(options.retryAfter === undefined ? {} : { "retry-after": options.retryAfter })
})
