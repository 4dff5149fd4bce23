/** The transport's SSRF rules (ranges by ipaddr.js) and its behaviour against real local receivers. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { WebhookSender } from "../src/index.js"

describe("WebhookSender.isPublic", () => {
  it("refuses loopback, private, link-local, unique-local, metadata and mapped forms of them", () => {
    const blocked = [
      "127.0.0.1",
      "127.8.9.10",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.1.1",
      "169.254.169.254",
      "100.100.100.200",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fd00:ec2::254",
      "fc00::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:a9fe:a9fe",
      "64:ff9b::a9fe:a9fe",
      "2002:7f00:1::"
    ]
    for (const address of blocked) assert.isFalse(WebhookSender.isPublic(address), address)
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      assert.isTrue(WebhookSender.isPublic(address), address)
    }
    assert.isFalse(WebhookSender.isPublic("not an address"))
  })
})

const refused = (url: string, options: WebhookSender.Options = {}) =>
  Effect.gen(function* () {
    const exit = yield* Effect.exit(WebhookSender.make(options).check(url))
    assert.isTrue(Exit.isFailure(exit), url)
    return Exit.isFailure(exit) ? String(exit.cause) : ""
  })

describe("WebhookSender.check", () => {
  it.effect("refuses private hosts, names that resolve to loopback, http and credentials", () =>
    Effect.gen(function* () {
      for (const url of [
        "https://127.0.0.1/hook",
        "https://10.0.0.1/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://localhost/hook",
        "https://[::ffff:127.0.0.1]/hook"
      ]) {
        assert.include(yield* refused(url), "webhooks reach only public addresses")
      }
      assert.include(yield* refused("http://93.184.215.14/hook"), "url must use https")
      assert.include(yield* refused("ftp://93.184.215.14/hook", { allowHttp: true }), "https or http")
      assert.include(yield* refused("https://user:pw@93.184.215.14/hook"), "credentials")
      assert.include(yield* refused("not a url"), "absolute")
      assert.include(yield* refused("https://no-such-host.invalid/hook"), "does not resolve")
      yield* WebhookSender.make().check("https://93.184.215.14/hook")
      yield* WebhookSender.make({ allowPrivate: true, allowHttp: true }).check("http://127.0.0.1:9/hook")
    })
  )
})

interface Receiver {
  readonly url: string
  readonly requests: Array<{ headers: IncomingHttpHeaders; body: string }>
  readonly close: () => Promise<void>
}

const receiver = (
  answer: (n: number) => { status: number; headers?: Record<string, string>; body?: string } | "hang"
) =>
  new Promise<Receiver>((ready) => {
    const requests: Receiver["requests"] = []
    const server: Server = createServer((req, res) => {
      let body = ""
      req.on("data", (chunk) => {
        body += chunk
      })
      req.on("end", () => {
        requests.push({ headers: req.headers, body })
        const a = answer(requests.length)
        if (a === "hang") return
        res.writeHead(a.status, a.headers)
        res.end(a.body ?? "")
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      ready({
        url: `http://localhost:${port}/hook`,
        requests,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections()
            server.close(() => done())
          })
      })
    })
  })

const local = WebhookSender.make({ allowPrivate: true, allowHttp: true, timeoutMs: 500, maxResponseBytes: 64 })
const request = (url: string) => ({
  url,
  headers: { "webhook-id": "m1", "content-type": "application/json" },
  body: "{}"
})

describe("WebhookSender.send", () => {
  it.live("posts the body with the headers, follows no redirect, reads Retry-After and caps the body", () =>
    Effect.gen(function* () {
      const r = yield* Effect.promise(() =>
        receiver((n) =>
          n === 1
            ? { status: 302, headers: { location: "http://169.254.169.254/" } }
            : n === 2
              ? { status: 429, headers: { "retry-after": "120" } }
              : { status: 200, body: "x".repeat(1_000_000) }
        )
      )
      assert.deepStrictEqual(yield* local.send(request(r.url)), {
        _tag: "Answered",
        status: 302,
        retryAfterMs: undefined
      })
      assert.deepStrictEqual(yield* local.send(request(r.url)), {
        _tag: "Answered",
        status: 429,
        retryAfterMs: 120_000
      })
      assert.deepStrictEqual(yield* local.send(request(r.url)), {
        _tag: "Answered",
        status: 200,
        retryAfterMs: undefined
      })
      assert.lengthOf(r.requests, 3, "the redirect was not followed")
      assert.strictEqual(r.requests[0]?.body, "{}")
      assert.strictEqual(r.requests[0]?.headers["webhook-id"], "m1")
      yield* Effect.promise(r.close)
    })
  )

  it.live("a receiver that hangs times out; a closed port is a connection error; private is refused", () =>
    Effect.gen(function* () {
      const r = yield* Effect.promise(() => receiver(() => "hang"))
      const started = Date.now()
      const hung = yield* local.send(request(r.url))
      assert.deepStrictEqual(hung, { _tag: "NoAnswer", error: "no answer within 1 s" })
      assert.isBelow(Date.now() - started, 5_000)
      yield* Effect.promise(r.close)
      const closed = yield* local.send(request(r.url))
      assert.strictEqual(closed._tag, "NoAnswer")
      assert.include(closed._tag === "NoAnswer" ? closed.error : "", "ECONNREFUSED")
      const strict = yield* WebhookSender.make({ allowHttp: true }).send(request(r.url))
      assert.strictEqual(strict._tag, "NoAnswer")
      assert.include(strict._tag === "NoAnswer" ? strict.error : "", "refused")
    })
  )

  it("parseRetryAfter reads seconds and HTTP dates", () => {
    const now = Date.parse("2026-03-12T10:00:00Z")
    assert.strictEqual(WebhookSender.parseRetryAfter("30", now), 30_000)
    assert.strictEqual(WebhookSender.parseRetryAfter("Thu, 12 Mar 2026 10:01:00 GMT", now), 60_000)
    assert.isUndefined(WebhookSender.parseRetryAfter("soon", now))
    assert.isUndefined(WebhookSender.parseRetryAfter(undefined, now))
  })
})
