/**
 * `GET /v1/extractions/{id}/pages/{n}` against the built server (`serve --role api`, PGlite): every document type of
 * `../shared/data` and every page of a multi-page TIFF renders as a PNG of the asked width; tenancy and sandbox give
 * 404 like every other read; a page past the end 404, a bad width 400; the ETag gives 304; a decompression bomb,
 * a pixel flood and a 10,000-page PDF are refused by the reader's limits (422) in seconds, and the server goes on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { flateBomb, pixelFlood, textPdf } from "../reliability/support/de-files.js"
import { tiff } from "./support/files.js"
import { type Client, client, seedSkill, token } from "./support/http.js"
import { ROOT, SECRET, type Server, seedDataDir, startServer, tempDir } from "./support/process.js"

const DATA = Path.join(ROOT, "../shared/data")
const hasData = existsSync(DATA)

/** The first `n` files of a data folder with one of the extensions. */
const filesOf = (folder: string, extensions: ReadonlyArray<string>, n: number): Array<string> =>
  readdirSync(Path.join(DATA, folder))
    .filter((f) => extensions.some((e) => f.toLowerCase().endsWith(e)))
    .sort()
    .slice(0, n)
    .map((f) => Path.join(DATA, folder, f))

const pngSize = (bytes: Uint8Array) => {
  const view = Buffer.from(bytes)
  expect(view.subarray(1, 4).toString("latin1")).toBe("PNG")
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) }
}

describe("page images over a socket", () => {
  const data = tempDir("legible-pages-")
  let server: Server | undefined
  let api: Client
  let keyA = ""
  let keyB = ""
  let testKeyA = ""
  const ids = new Map<string, string>()

  const page = (key: string, id: string, n: number | string, query = "", headers: Record<string, string> = {}) =>
    fetch(`${api.base}/v1/extractions/${id}/pages/${n}${query}`, { headers: { "x-api-key": key, ...headers } })

  beforeAll(async () => {
    server = await startServer({
      env: { LEGIBLE_JWT_SECRET: SECRET, LEGIBLE_DATA_DIR: seedDataDir(data.path), LEGIBLE_LOG_LEVEL: "Warn" },
      args: ["serve", "--role", "api"]
    })
    api = client(server.url)
    const jwtA = token({ sub: "pa", clientId: "pages-a" })
    keyA = await api.createKey(jwtA)
    testKeyA = await api.createKey(jwtA, "sandbox", "test")
    keyB = await api.createKey(token({ sub: "pb", clientId: "pages-b" }))
    await seedSkill(api, jwtA)
    const documents: Array<readonly [string, Uint8Array]> = [
      ["text.pdf", textPdf([["Factura A-1"], ["Pagina 2"]])],
      [
        "two-pages.tiff",
        tiff([
          [300, 400],
          [500, 250]
        ])
      ],
      ["bomb.pdf", await flateBomb(80)],
      ["flood.png", pixelFlood(100_000, 100_000)]
    ]
    if (hasData) {
      for (const file of [
        ...filesOf("invoices-ar", [".pdf"], 5),
        ...filesOf("receipts-es", [".pdf"], 2),
        ...filesOf("invoice2data", [".pdf"], 2),
        ...filesOf("invoice2data", [".png"], 1),
        ...filesOf("sroie", [".jpg"], 1),
        ...filesOf("funsd", [".png"], 1),
        ...filesOf("receipts-de", [".jpg", ".jpeg"], 1),
        Path.join(DATA, "odd-pdfs/gen_10000_pages.pdf")
      ]) {
        documents.push([Path.basename(file), new Uint8Array(readFileSync(file))])
      }
    }
    for (const [name, bytes] of documents) ids.set(name, await api.submit(keyA, bytes, name, { model: "local" }))
  })
  afterAll(async () => {
    await server?.stop()
    data.dispose()
  })

  it("renders page 1 of every document type of the shared data as a PNG of the asked width", async () => {
    if (!hasData) console.warn("../shared/data is absent: only the generated documents are rendered")
    const real = [...ids].filter(([name]) => !["bomb.pdf", "flood.png", "gen_10000_pages.pdf"].includes(name))
    for (const [name, id] of real) {
      const response = await page(keyA, id, 1, "?width=600")
      expect(response.status, name).toBe(200)
      expect(response.headers.get("content-type")).toBe("image/png")
      expect(response.headers.get("cache-control")).toBe("private, no-cache")
      expect(response.headers.get("etag")).toMatch(/^"[\w-]+"$/)
      expect(Number(response.headers.get("x-page-width")), name).toBeGreaterThan(0)
      const size = pngSize(new Uint8Array(await response.arrayBuffer()))
      expect(size.width, name).toBe(600)
      const aspect = Number(response.headers.get("x-page-height")) / Number(response.headers.get("x-page-width"))
      expect(size.height / size.width, name).toBeCloseTo(aspect, 1)
    }
  })

  it("renders every page of a multi-page TIFF and of a PDF, and 404s past the end", async () => {
    const tiffId = ids.get("two-pages.tiff")!
    const first = await page(keyA, tiffId, 1, "?width=300")
    const second = await page(keyA, tiffId, 2, "?width=300")
    expect([first.status, second.status]).toEqual([200, 200])
    expect(first.headers.get("x-page-count")).toBe("2")
    // 300 × 400 then 500 × 250 pixels: the aspect follows each frame.
    expect(pngSize(new Uint8Array(await first.arrayBuffer())).height).toBe(400)
    expect(pngSize(new Uint8Array(await second.arrayBuffer())).height).toBe(150)
    const past = await page(keyA, tiffId, 3)
    expect(past.status).toBe(404)
    expect(await past.json()).toEqual({ error: "page 3 not found: the document has 2" })
    for (const bad of ["0", "-1", "x", "1.5"]) expect((await page(keyA, ids.get("text.pdf")!, bad)).status).toBe(404)
    expect((await page(keyA, ids.get("text.pdf")!, 2)).status).toBe(200)
  })

  it("refuses a bad width with 400 {error}", async () => {
    const id = ids.get("text.pdf")!
    for (const width of ["0", "63", "2001", "abc", "1e3", "", "-5", "100000"]) {
      const response = await page(keyA, id, 1, `?width=${width}`)
      expect(response.status, width).toBe(400)
      expect(await response.json()).toEqual({ error: "width must be a whole number of pixels from 64 to 2000" })
    }
    expect(pngSize(new Uint8Array(await (await page(keyA, id, 1)).arrayBuffer())).width).toBe(1000)
  })

  it("gives another client, the sandbox, a missing id and no key nothing", async () => {
    const id = ids.get("text.pdf")!
    const missing = "00000000-0000-4000-8000-000000000000"
    for (const [key, target] of [
      [keyB, id],
      [testKeyA, id],
      [keyA, missing]
    ] as const) {
      const response = await page(key, target, 1)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: `extraction '${target}' not found` })
    }
    // Even with the ETag of a page already rendered for its owner.
    const etag = (await page(keyA, id, 1)).headers.get("etag")!
    expect((await page(keyB, id, 1, "", { "if-none-match": etag })).status).toBe(404)
    expect((await fetch(`${api.base}/v1/extractions/${id}/pages/1`)).status).toBe(401)
  })

  it("answers 304 to the page's ETag and 200 to another width's", async () => {
    const id = ids.get("text.pdf")!
    const etag = (await page(keyA, id, 1, "?width=800")).headers.get("etag")!
    const again = await page(keyA, id, 1, "?width=800", { "if-none-match": etag })
    expect(again.status).toBe(304)
    expect(again.headers.get("etag")).toBe(etag)
    const other = await page(keyA, id, 1, "?width=801", { "if-none-match": etag })
    expect(other.status).toBe(200)
    expect(other.headers.get("etag")).not.toBe(etag)
  })

  it("stops a decompression bomb, a pixel flood and a 10,000-page PDF with the reader's limits, in seconds", async () => {
    const hostile = ["bomb.pdf", "flood.png", ...(hasData ? ["gen_10000_pages.pdf"] : [])]
    for (const name of hostile) {
      const started = performance.now()
      const response = await page(keyA, ids.get(name)!, 1)
      const body = (await response.json()) as { error: string }
      expect(response.status, name).toBe(422)
      expect(body.error, name).toMatch(/^the page cannot be rendered \((Corrupt|TooManyPixels|TooManyPages)\)/)
      expect(performance.now() - started, name).toBeLessThan(10_000)
    }
    // The server renders the next page as usual.
    expect((await page(keyA, ids.get("text.pdf")!, 2, "?width=500")).status).toBe(200)
  })
})
