/**
 * Webhook receivers for the F30–F34 tests: a real HTTP server on loopback that records every request (headers,
 * body, arrival time) and answers as the test scripts it, per `webhook-id` and attempt — or is down: it keeps its
 * port but resets every connection at once. Every delivery is verified with the Standard Webhooks reference library,
 * as a receiver would.
 */
import { createServer, type Server, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { Webhook as Receiver } from "standardwebhooks"
import type { Json } from "../../test/support/http.js"
import type { Deployment } from "./cQueue.js"

/** One request as the receiver saw it. */
export interface Received {
  readonly id: string
  readonly timestamp: string
  readonly signature: string
  readonly body: string
  /** Epoch milliseconds of its arrival. */
  readonly at: number
  /** Which request of this `webhook-id` it was, from 1. */
  readonly seen: number
  /** What the receiver answered (0: it hung up or never answered). */
  answered: number
}

/** How the receiver answers a request. */
export type Answer =
  | { readonly status: number; readonly headers?: Record<string, string>; readonly delayMs?: number }
  /** Never answers (the sender's timeout ends the attempt). */
  | "hang"

/** A running receiver. */
export interface WebhookReceiver {
  readonly url: string
  readonly received: Array<Received>
  /**
   * Goes down until `listen`: open connections and every new one are reset at once (TCP RST), so an attempt fails
   * with a network error and no status, like a refused connection. The port stays bound meanwhile: no other
   * process can take it and answer in the receiver's place.
   */
  readonly down: () => Promise<void>
  /** Answers requests again. */
  readonly listen: () => Promise<void>
  /** Requests per `webhook-id` answered 2xx. */
  readonly deliveredIds: () => Set<string>
  /** Closes the server and frees its port. */
  readonly close: () => Promise<void>
}

/**
 * Starts a receiver on a loopback port the system picks, answering with `decide`; with `listening: false` it starts
 * down (see `down`). The port is bound from the start until `close`.
 */
export const startReceiver = async (
  decide: (request: Received) => Answer = () => ({ status: 204 }),
  options: { readonly listening?: boolean; readonly path?: string } = {}
): Promise<WebhookReceiver> => {
  const received: Array<Received> = []
  const seen = new Map<string, number>()
  const sockets = new Set<Socket>()
  const hanging = new Set<ServerResponse>()
  let up = options.listening !== false

  const server: Server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const id = String(req.headers["webhook-id"] ?? "")
      const count = (seen.get(id) ?? 0) + 1
      seen.set(id, count)
      const request: Received = {
        id,
        timestamp: String(req.headers["webhook-timestamp"] ?? ""),
        signature: String(req.headers["webhook-signature"] ?? ""),
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        seen: count,
        answered: 0
      }
      received.push(request)
      const answer = decide(request)
      if (answer === "hang") {
        hanging.add(res)
        return
      }
      const send = () => {
        request.answered = answer.status
        res.writeHead(answer.status, answer.headers)
        res.end()
      }
      if (answer.delayMs === undefined) send()
      else setTimeout(send, answer.delayMs)
    })
  }).on("connection", (socket: Socket) => {
    // Down: reset before a byte is read, so no request reaches the handler.
    if (!up) return void socket.resetAndDestroy()
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  const resetAll = () => {
    for (const socket of sockets) socket.resetAndDestroy()
    hanging.clear()
  }

  await new Promise<void>((ready, fail) => {
    server.once("error", fail)
    server.listen(0, "127.0.0.1", () => ready())
  })
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}${options.path ?? "/hook"}`,
    received,
    down: async () => {
      up = false
      resetAll()
    },
    listen: async () => {
      up = true
    },
    deliveredIds: () => new Set(received.filter((r) => r.answered >= 200 && r.answered < 300).map((r) => r.id)),
    close: () =>
      new Promise<void>((done) => {
        up = false
        resetAll()
        server.close(() => done())
      })
  }
}

/** The variables that let a deployment deliver to a loopback receiver, with a short schedule and timeout. */
export const webhookEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  LEGIBLE_WEBHOOKS_ALLOW_PRIVATE: "true",
  LEGIBLE_WEBHOOKS_ALLOW_HTTP: "true",
  LEGIBLE_WEBHOOKS_TIMEOUT_SECONDS: "1",
  LEGIBLE_WEBHOOKS_SCHEDULE_SECONDS: "0.5,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1",
  LEGIBLE_WEBHOOKS_CONCURRENCY: "16",
  ...extra
})

/** Registers an endpoint through the api; returns its id and secret. */
export const register = async (
  d: Deployment,
  body: Json
): Promise<{ readonly id: string; readonly secret: string; readonly status: number; readonly body: unknown }> => {
  const created = await d.http.jwt("POST", "/api/webhooks", d.jwt, body)
  const json = created.body as Json
  return { id: json.id as string, secret: json.secret as string, status: created.status, body: created.body }
}

/** The requests that fail verification with `secret` (tampered, wrongly signed or stale), as the library says. */
export const unverified = (received: ReadonlyArray<Received>, secret: string): Array<string> => {
  const receiver = new Receiver(secret)
  const failures: Array<string> = []
  for (const r of received) {
    try {
      receiver.verify(r.body, {
        "webhook-id": r.id,
        "webhook-timestamp": r.timestamp,
        "webhook-signature": r.signature
      })
    } catch (error) {
      failures.push(`${r.id}: ${String(error)}`)
    }
  }
  return failures
}

/** The ids whose requests did not all carry the same body (a retry must resend the same bytes). */
export const changedBodies = (received: ReadonlyArray<Received>): Array<string> => {
  const bodies = new Map<string, string>()
  const changed = new Set<string>()
  for (const r of received) {
    const first = bodies.get(r.id)
    if (first === undefined) bodies.set(r.id, r.body)
    else if (first !== r.body) changed.add(r.id)
  }
  return [...changed]
}
