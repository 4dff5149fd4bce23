/**
 * The console's static files (`Console.layer`) and the page image endpoint of a server without a `PageRenderer`,
 * in process: every console file carries the strict CSP, unknown files are 404 `{error}`, and page images are
 * 503 `{error}` (not a 500) where no renderer is configured, after the tenancy check.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { Fixtures } from "@legible/testkit"
import { HttpRouter } from "effect/http"
import { describe, expect, it } from "vitest"
import { Console } from "../src/index.js"
import { apiKey, putExtraction, withApp } from "./support.js"

describe("Console.layer", () => {
  it("serves the built files with the CSP, and 404 {error} for anything else", async () => {
    const directory = mkdtempSync(Path.join(tmpdir(), "legible-console-files-"))
    writeFileSync(Path.join(directory, "index.html"), "<!doctype html><title>x</title>")
    writeFileSync(Path.join(directory, "app.js"), "export {}")
    writeFileSync(Path.join(directory, "notes.txt"), "not served")
    const { handler, dispose } = HttpRouter.toWebHandler(Console.layer({ directory }), { disableLogger: true })
    try {
      const get = (path: string) => handler(new Request(new URL(path, "http://legible.test")))
      for (const [path, type] of [
        ["/console", "text/html; charset=utf-8"],
        ["/console/app.js", "text/javascript; charset=utf-8"]
      ] as const) {
        const response = await get(path)
        expect(response.status, path).toBe(200)
        expect(response.headers.get("content-type"), path).toBe(type)
        expect(response.headers.get("content-security-policy"), path).toBe(Console.CONTENT_SECURITY_POLICY)
        expect(response.headers.get("x-frame-options"), path).toBe("DENY")
      }
      expect(await (await get("/console")).text()).toContain("<title>x</title>")
      for (const path of ["/console/notes.txt", "/console/missing.js"]) {
        const response = await get(path)
        expect(response.status, path).toBe(404)
        expect(await response.json()).toEqual({ error: "not found" })
      }
      expect(Console.CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*/)
    } finally {
      await dispose()
      rmSync(directory, { recursive: true, force: true })
    }
  })
})

describe("page images without a renderer", () => {
  it(
    "checks the extraction, then answers 503 {error}",
    withApp(async (app) => {
      const { id } = putExtraction(app, Fixtures.extraction())
      const headers = apiKey(Fixtures.LIVE_KEY)
      const page = await app.fetch(`/v1/extractions/${id}/pages/1`, { headers })
      expect(page.status).toBe(503)
      expect(await page.json()).toEqual({ error: "page images are not configured on this server" })
      const missing = "00000000-0000-4000-8000-000000000000"
      const absent = await app.fetch(`/v1/extractions/${missing}/pages/1`, { headers })
      expect(absent.status).toBe(404)
    })
  )
})
