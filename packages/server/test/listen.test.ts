/** `Serve.listenError`: Node's `listen` failures as one line naming the address, the reason and what to change. */
import { describe, expect, it } from "vitest"
import * as Serve from "../src/Serve.js"

const nodeError = (message: string, code: string) => Object.assign(new Error(message), { code })

describe("Serve.listenError", () => {
  it("names the address, the system's reason and its code, and what to set", () => {
    const cases: Array<[Error, string]> = [
      [
        nodeError("listen EADDRINUSE: address already in use 127.0.0.1:8080", "EADDRINUSE"),
        "cannot listen on 127.0.0.1:8080: address already in use (EADDRINUSE); another process listens there: stop it or set LEGIBLE_PORT"
      ],
      [
        nodeError("listen EACCES: permission denied 127.0.0.1:80", "EACCES"),
        "cannot listen on 127.0.0.1:80: permission denied (EACCES); ports below 1024 need privileges: set LEGIBLE_PORT"
      ],
      [
        nodeError("listen EADDRNOTAVAIL: address not available 10.9.9.9:8080", "EADDRNOTAVAIL"),
        "cannot listen on 10.9.9.9:8080: address not available (EADDRNOTAVAIL); set LEGIBLE_HOST to an address of this machine"
      ],
      [
        nodeError("getaddrinfo ENOTFOUND nohost.invalid", "ENOTFOUND"),
        "cannot listen on nohost.invalid:8080: no such host (ENOTFOUND); set LEGIBLE_HOST to an address of this machine"
      ]
    ]
    for (const [error, message] of cases) {
      const [host, port] = message.slice("cannot listen on ".length).split(":")
      expect(Serve.listenError(host!, Number(port), error).message).toBe(message)
    }
  })

  it("keeps an unknown failure's own words", () => {
    expect(Serve.listenError("127.0.0.1", 8080, "boom").message).toBe("cannot listen on 127.0.0.1:8080: boom")
  })
})
