/**
 * The quick start from a clean data directory, as `npm start` runs it after building: `bin.js quickstart` with no
 * database server, no key and no secret configured. The printed shell lines submit the sample invoice and poll it
 * to `completado` (run with bash and curl; with fetch where curl is missing); fields are grounded in words. A
 * second start reuses the data: no new key, the same generated secret. The data directory is locked meanwhile.
 */
import { execFileSync } from "node:child_process"
import { statSync } from "node:fs"
import * as Path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { client, type Json, SAMPLE_PDF } from "./support/http.js"
import { freePort, launch, type Running, runCli, tempDir, waitFor } from "./support/process.js"

const hasCurl = (() => {
  try {
    execFileSync("curl", ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
})()

const start = async (dataDir: string, port: number): Promise<Running> => {
  const running = launch(["quickstart"], { LEGIBLE_DATA_DIR: dataDir, LEGIBLE_PORT: String(port) })
  await waitFor(
    "the quick start's instructions",
    async () => {
      if (running.child.exitCode !== null) throw new Error(`exited: ${running.stderr()}`)
      return running.stdout().includes("poll its result") ? true : undefined
    },
    90_000
  ).catch(async (error) => {
    await running.stop("SIGKILL")
    throw new Error(`${String(error)}\n${running.stderr()}`)
  })
  return running
}

/** The shell lines printed after "Submit the sample invoice". */
const snippet = (stdout: string): Array<string> => {
  const lines = stdout.split("\n")
  const from = lines.findIndex((l) => l.startsWith("Submit the sample invoice"))
  return lines
    .slice(from + 1)
    .filter((l) => l.startsWith("  "))
    .map((l) => l.slice(2))
}

describe("quick start", () => {
  const data = tempDir("legible-quickstart-")
  const running: Array<Running> = []
  afterAll(async () => {
    for (const r of running) await r.stop("SIGKILL")
    data.dispose()
  })

  it("starts on embedded defaults, and the printed lines take the sample invoice to completado", async () => {
    const port = await freePort()
    const first = await start(data.path, port)
    running.push(first)
    const out = first.stdout()
    const key = /pk_live_[A-Za-z0-9]+/.exec(out)?.[0]
    expect(key).toBeDefined()
    expect(out).toContain(`http://127.0.0.1:${port}`)
    const lines = snippet(out)
    expect(lines).toHaveLength(4)

    let result: Json
    if (hasCurl) {
      const stdout = execFileSync("bash", ["-c", lines.join("\n")], { encoding: "utf8", timeout: 60_000 })
      result = JSON.parse(stdout) as Json
    } else {
      console.warn("quick start: curl is not installed; submitting the sample with fetch instead of the printed lines")
      const api = client(`http://127.0.0.1:${port}`)
      result = await api.awaitFinal(key!, await api.submit(key!, SAMPLE_PDF, "sample-invoice.pdf"))
    }
    expect(result.status).toBe("completado")
    const api = client(`http://127.0.0.1:${port}`)
    const detailed = (await api.key("GET", `/v1/extractions/${result.id as string}/detailed`, key)).body as Json
    const fields = detailed.fields as Array<Json>
    for (const name of ["numero", "fecha", "emisor", "total"]) {
      const value = fields.find((f) => f.name === name)?.value as Json
      expect((value.word_ids as Array<string>).length, name).toBeGreaterThan(0)
    }
    expect(fields.find((f) => f.name === "total")?.value).toMatchObject({ literal: "122,82", parsed: 122.82 })
    const proveedor = fields.find((f) => f.name === "proveedor")?.value as Json
    expect(proveedor.catalog_values).toEqual({ cif: "B12345674", nombre: "Papelería Ejemplo S.L." })

    // The generated secret is private to its owner.
    expect(statSync(Path.join(data.path, "jwt-secret")).mode & 0o777).toBe(0o600)

    // Only one process may open the embedded database.
    const locked = await runCli(["keys", "create", "--client", "demo", "--user", "demo-user"], {
      LEGIBLE_DATA_DIR: data.path
    })
    expect(locked.code).toBe(1)
    expect(locked.stderr).toContain(`is in use by process ${first.pid}`)

    expect(await first.stop("SIGTERM")).toBe(0)
  }, 180_000)

  it("a second start reuses the data: no new key, the same secret, the same demo skill", async () => {
    const port = await freePort()
    const second = await start(data.path, port)
    running.push(second)
    const out = second.stdout()
    expect(out).not.toMatch(/pk_live_/)
    expect(out).toContain("created on the first run")
    const jwt = /TOKEN='([^']+)'/.exec(out)?.[1]
    const api = client(`http://127.0.0.1:${port}`)
    const keys = await api.jwt("GET", "/api/api-keys/", jwt)
    expect(keys.status).toBe(200)
    expect(((keys.body as Json).api_keys as Array<Json>).map((k) => k.nombre)).toEqual(["quickstart"])
    const skills = (await api.jwt("GET", "/api/skills", jwt)).body as Json
    expect((skills.skills as Array<Json>).map((s) => [s.slug, s.version])).toEqual([["factura-es", 1]])
    expect(await second.stop("SIGTERM")).toBe(0)
  }, 120_000)
})
