/// <reference lib="dom" />
/**
 * RELIABILITY.md F36–F37 against the built server (`serve --role all`, PGlite) and Debian's Chromium:
 * - F36: the key never reaches a URL, a cookie, localStorage, the page's HTML or a server log line while a person
 *   signs in, lists, opens, downloads and switches an extraction; every console file carries a strict CSP (no
 *   inline script, no other origin); a document whose file name, words and values are HTML runs nothing: the text
 *   shows literally, no element it names is created, no dialog opens, no CSP violation is reported.
 * - F37: page images follow the tenancy matrix (another client, the sandbox → the same 404 as a missing id) and the
 *   reader's limits: a 1 GB Flate bomb, a pixel flood, a 10,000-page PDF, a huge MediaBox, page-tree and object
 *   cycles and an encrypted PDF, 4 at a time, end in 422 within seconds with the process's memory bounded, and
 *   the next page renders.
 */
import { existsSync, readFileSync } from "node:fs"
import * as Path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { axe, buildConsole, launchBrowser, type Stack, startStack } from "../test/console/browser.js"
import { type Json, must, token } from "../test/support/http.js"
import { ROOT } from "../test/support/process.js"
import * as Files from "./support/de-files.js"
import { memoryOf } from "./support/de-stack.js"

const HOSTILE_NAME = `<img src=x onerror="window.__pwned=1">.pdf`
const HOSTILE_LINES = [
  `Factura no: <img src=x onerror="window.__pwned=2">`,
  "Fecha: 12/03/2026",
  `Emisor: <script>window.__pwned=3</script> S.L.`,
  "Total: 10,00"
]

describe("F36–F37: the console and page images", () => {
  let stack: Stack
  let browser: Browser
  let closeBrowser: () => Promise<void> = async () => undefined
  let page: Page
  let hostileId = ""
  const requests: Array<{ url: string; headers: Record<string, string> }> = []
  const problems: Array<string> = []

  beforeAll(async () => {
    buildConsole()
    stack = await startStack("f36-a")
    hostileId = await stack.api.submit(stack.key, Files.textPdf([HOSTILE_LINES]), HOSTILE_NAME, { model: "local" })
    await stack.api.awaitFinal(stack.key, hostileId, 120_000)
    ;({ browser, close: closeBrowser } = await launchBrowser())
    const context = await browser.newContext({ locale: "es-ES", viewport: { width: 1300, height: 900 } })
    page = await context.newPage()
    page.on("request", (request) => requests.push({ url: request.url(), headers: request.headers() }))
    page.on("dialog", (dialog) => {
      problems.push(`dialog: ${dialog.message()}`)
      void dialog.dismiss()
    })
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) problems.push(`csp: ${message.text()}`)
    })
    page.on("pageerror", (error) => problems.push(`error: ${error.message}`))
  })
  afterAll(async () => {
    await closeBrowser()
    await stack?.stop()
  })

  it("F36: every console file carries a strict CSP; the page has no inline script", async () => {
    for (const file of ["/console", "/console/app.js", "/console/styles.css"]) {
      const response = await fetch(`${stack.server.url}${file}`)
      expect(response.status, file).toBe(200)
      const csp = response.headers.get("content-security-policy") ?? ""
      expect(csp, file).toContain("default-src 'none'")
      expect(csp, file).toContain("script-src 'self'")
      expect(csp, file).not.toMatch(/unsafe-(inline|eval)|\*|https?:/)
      expect(response.headers.get("x-content-type-options"), file).toBe("nosniff")
    }
    const html = await (await fetch(`${stack.server.url}/console`)).text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
    expect(html).not.toMatch(/\bon[a-z]+=/i)
  })

  it("F36: a document whose name, words and values are HTML runs nothing and shows as text", async () => {
    const detailed = await must("detailed", stack.api.key("GET", `/v1/extractions/${hostileId}/detailed`, stack.key))
    const words = Object.values(detailed.words as Record<string, Array<Json>>)
      .flat()
      .map((w) => w.word as string)
    expect(words.some((w) => w.includes("<img") || w.includes("onerror"))).toBe(true)
    await page.goto(`${stack.server.url}/console`)
    await page.getByLabel("Clave de API").fill(stack.key)
    await page.getByRole("button", { name: "Entrar" }).click()
    await page.getByText("1 extracción").waitFor()
    expect(await page.locator("table.extractions a").textContent()).toBe(HOSTILE_NAME)
    await page.locator("table.extractions a").click()
    await page.waitForSelector("main.detail[data-state=ready]")
    expect(await page.locator(".doc-title .name").textContent()).toBe(HOSTILE_NAME)
    // Every value is text: the literal of a field holding the markup reads back character for character.
    const literals = await page.locator(".value .literal").allTextContents()
    expect(literals.join(" ")).toMatch(/<img|<script|onerror/)
    for (const word of await page.locator(".word").all()) await word.hover({ trial: true })
    await page.locator(".word").first().click()
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined()
    expect(await page.locator("img[src='x'], script:not([src])").count()).toBe(0)
    expect(await page.locator("script").count()).toBe(1)
    expect((await axe(page)).filter((v) => v.impact === "serious" || v.impact === "critical")).toEqual([])
    expect(problems).toEqual([])
  })

  it("F36: the key stays in sessionStorage: never in a URL, a header but x-api-key, a cookie, the HTML or a log", async () => {
    // Download the original and switch the status, so every kind of request has been made.
    const download = page.waitForEvent("download")
    await page.getByRole("button", { name: "Descargar original" }).click()
    // The upload name, with the characters a file name cannot hold replaced by the browser.
    expect((await download).suggestedFilename()).toMatch(/^_img src=x onerror=.*\.pdf$/)
    await page.getByLabel("Mensaje").fill("revisar")
    await page.getByRole("button", { name: "Marcar como incompleto" }).click()
    await page.getByRole("status").filter({ hasText: "incompleto" }).waitFor()
    const key = stack.key
    expect(requests.length).toBeGreaterThan(5)
    for (const { url, headers } of requests) {
      expect(url).not.toContain(key)
      for (const [name, value] of Object.entries(headers))
        if (name !== "x-api-key") expect(value, name).not.toContain(key)
    }
    expect(await page.context().cookies()).toEqual([])
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
    expect(await page.evaluate(() => sessionStorage.getItem("legible.apiKey"))).toBe(key)
    expect(await page.content()).not.toContain(key)
    expect(`${stack.server.stdout()}${stack.server.stderr()}`).not.toContain(key.slice(8))
    expect(problems).toEqual([])
  })

  it("F37: page images follow the tenancy matrix", async () => {
    const other = await stack.api.createKey(token({ sub: "f37-b-user", clientId: "f37-b" }), "other")
    const sandbox = await stack.api.createKey(stack.jwt, "sandbox", "test")
    const missing = "00000000-0000-4000-8000-000000000000"
    const get = (key: string, id: string) =>
      fetch(`${stack.server.url}/v1/extractions/${id}/pages/1`, { headers: { "x-api-key": key } })
    const owner = await get(stack.key, hostileId)
    expect(owner.status).toBe(200)
    const etag = owner.headers.get("etag")!
    for (const key of [other, sandbox]) {
      const response = await get(key, hostileId)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: `extraction '${hostileId}' not found` })
      const conditional = await fetch(`${stack.server.url}/v1/extractions/${hostileId}/pages/1`, {
        headers: { "x-api-key": key, "if-none-match": etag }
      })
      expect(conditional.status).toBe(404)
    }
    const absent = await get(stack.key, missing)
    expect(await absent.json()).toEqual({ error: `extraction '${missing}' not found` })
  })

  it("F37: hostile documents are stopped by the reader's limits, 4 at a time, memory bounded", async () => {
    const oddPdfs = Path.join(ROOT, "../shared/data/odd-pdfs")
    const hostile: Array<readonly [string, Uint8Array]> = [
      ["flate-bomb-1gb.pdf", await Files.flateBomb(1024)],
      ["pixel-flood.png", Files.pixelFlood()],
      ["huge-mediabox.pdf", Files.hugeMediaBox()],
      ["page-tree-cycle.pdf", Files.pageTreeCycle()],
      ["object-cycles.pdf", Files.objectCycles()],
      ["pages-bomb.pdf", Files.pagesBomb()],
      ["encrypted.pdf", Files.encryptedPdf()],
      ...(existsSync(oddPdfs)
        ? [["gen_10000_pages.pdf", new Uint8Array(readFileSync(Path.join(oddPdfs, "gen_10000_pages.pdf")))] as const]
        : [])
    ]
    const ids: Array<readonly [string, string]> = []
    for (const [name, bytes] of hostile) {
      const submitted = await stack.api.key("POST", "/v1/extractions", stack.key, {
        file_name: name,
        skill: "factura-es",
        file_base64: Buffer.from(bytes).toString("base64"),
        model: "local"
      })
      // A file refused at submission never gets a page image; the rest are rendered under the limits.
      if (submitted.status === 202) ids.push([name, (submitted.body as Json).extraction_id as string])
    }
    expect(ids.length).toBeGreaterThanOrEqual(6)
    const before = memoryOf(stack.server.pid)
    const started = performance.now()
    const statuses: Array<string> = []
    for (let i = 0; i < ids.length; i += 4) {
      const batch = ids.slice(i, i + 4)
      const replies = await Promise.all(
        batch.map(async ([name, id]) => {
          const response = await fetch(`${stack.server.url}/v1/extractions/${id}/pages/1?width=1000`, {
            headers: { "x-api-key": stack.key }
          })
          const body = response.headers.get("content-type")?.includes("json") ? await response.json() : undefined
          return { name, status: response.status, body }
        })
      )
      for (const reply of replies) {
        statuses.push(`${reply.name}: ${reply.status}`)
        expect([200, 404, 422], `${reply.name} ${JSON.stringify(reply.body)}`).toContain(reply.status)
      }
    }
    const elapsed = performance.now() - started
    const after = memoryOf(stack.server.pid)
    console.log(
      `F37: ${ids.length} hostile documents in ${elapsed.toFixed(0)} ms (${statuses.join(", ")}); server RSS ` +
        `${before.rssMb.toFixed(0)} → ${after.rssMb.toFixed(0)} MB, peak ${after.peakMb.toFixed(0)} MB`
    )
    expect(statuses.filter((s) => s.startsWith("flate-bomb") || s.startsWith("pixel-flood"))).toEqual([
      "flate-bomb-1gb.pdf: 422",
      "pixel-flood.png: 422"
    ])
    expect(elapsed).toBeLessThan(60_000)
    expect(after.peakMb).toBeLessThan(3_000)
    const next = await fetch(`${stack.server.url}/v1/extractions/${hostileId}/pages/1?width=640`, {
      headers: { "x-api-key": stack.key }
    })
    expect(next.status).toBe(200)
  })
})
