/**
 * The api role's Node server accepts request heads up to `Serve.MAX_HEADER_BYTES`: a 16 KB `x-api-key` reaches the
 * application (which answers 401), where Node's default 16 KiB limit answered 431 on its own.
 */
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Serve from "../src/Serve.js"

describe("Serve.httpServer", () => {
  const server = Serve.httpServer()
  let base = ""
  beforeAll(async () => {
    server.on("request", (request, response) => {
      response.writeHead(200, { "content-type": "text/plain" })
      response.end(String(request.headers["x-api-key"]?.length ?? 0))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it("passes a 16 KB header (and a 60 KB one) to the application", async () => {
    for (const size of [16_384, 60_000]) {
      const response = await fetch(base, { headers: { "x-api-key": "k".repeat(size) } })
      expect(response.status).toBe(200)
      expect(await response.text()).toBe(String(size))
    }
  })

  it("refuses a head above MAX_HEADER_BYTES with 431 before the application", async () => {
    const response = await fetch(base, { headers: { "x-api-key": "k".repeat(Serve.MAX_HEADER_BYTES + 1) } })
    expect(response.status).toBe(431)
  })
})
