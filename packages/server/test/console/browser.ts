/// <reference lib="dom" />
/**
 * What the console's browser tests share: the built console, the built server (`serve --role all` on PGlite) with a
 * client, its skill and its documents, and Debian's Chromium driven by playwright-core (no browser download).
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync } from "node:fs"
import * as Path from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { type Client, client, type Json, must, seedSkill, token } from "../support/http.js"
import { NODE, ROOT, SECRET, type Server, seedDataDir, startServer, tempDir } from "../support/process.js"

/** Debian's Chromium (`.ci/run` installs it when missing). */
export const CHROMIUM = "/usr/bin/chromium"

/** Where screenshots go (gitignored; kept as the run's artifacts). */
export const ARTIFACTS = Path.join(ROOT, "packages/console/test-artifacts")

/** Builds the console's static files (esbuild, ~0.1 s). */
export const buildConsole = (): void => {
  execFileSync(NODE, [Path.join(ROOT, "packages/console/build.mjs")], { stdio: "ignore" })
}

/** Headless Chromium; playwright gives every launch a fresh temporary profile (`--user-data-dir`) and removes it. */
export const launchBrowser = async (): Promise<{ browser: Browser; close: () => Promise<void> }> => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })
  return {
    browser,
    close: () => browser.close()
  }
}

/** A served legible with one client, its JWT, key and seeded skill. */
export interface Stack {
  readonly server: Server
  readonly api: Client
  readonly jwt: string
  readonly key: string
  readonly stop: () => Promise<void>
}

/** Starts the built server (`--role all`, one OCR worker) with a client and the demo invoice skill. */
export const startStack = async (clientId: string): Promise<Stack> => {
  const data = tempDir("legible-console-")
  const server = await startServer({
    env: {
      LEGIBLE_JWT_SECRET: SECRET,
      LEGIBLE_DATA_DIR: seedDataDir(data.path),
      LEGIBLE_OCR_WORKERS: "1",
      LEGIBLE_LOG_LEVEL: "Warn"
    },
    args: ["serve", "--role", "all"]
  })
  const api = client(server.url)
  const jwt = token({ sub: `${clientId}-user`, clientId, name: "Revisora", email: "revisora@example.com" })
  const key = await api.createKey(jwt, "console")
  await seedSkill(api, jwt)
  return {
    server,
    api,
    jwt,
    key,
    stop: async () => {
      await server.stop()
      data.dispose()
    }
  }
}

/** The id of the key named `nombre`, to revoke it. */
export const keyId = async (stack: Stack, nombre: string): Promise<string> => {
  const list = await must("keys", stack.api.jwt("GET", "/api/api-keys/", stack.jwt))
  const found = (list.api_keys as Array<Json>).find((k) => k.nombre === nombre)
  if (found === undefined) throw new Error(`no key named ${nombre}`)
  return found.id as string
}

/** Saves a full-page screenshot as an artifact. */
export const screenshot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: Path.join(ARTIFACTS, `${name}.png`), fullPage: false })
}

/** Runs axe-core on the page (evaluated through the DevTools protocol, which the page's CSP does not govern). */
export const axe = async (page: Page): Promise<Array<{ id: string; impact: string; nodes: number; help: string }>> => {
  const source = await import("node:fs").then((fs) =>
    fs.readFileSync(Path.join(ROOT, "node_modules/axe-core/axe.min.js"), "utf8")
  )
  await page.evaluate(source)
  return page.evaluate(async () => {
    const run = (globalThis as unknown as { axe: { run: (c: Document) => Promise<{ violations: Array<Json> }> } }).axe
    const result = await run.run(document)
    return result.violations.map((v) => ({
      id: String(v.id),
      impact: String(v.impact),
      nodes: (v.nodes as Array<unknown>).length,
      help: String(v.help)
    }))
  })
}

/** The median of `values`. */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN
}

/** The 95th percentile of `values`. */
export const p95 = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? Number.NaN
}
