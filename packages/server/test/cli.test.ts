/**
 * The operator commands of the BUILT CLI on one embedded data directory, then a server over what they wrote:
 * `migrate`, `catalogs import` (CSV, then JSON into the same catalog), `skills apply` (a catalog named by name; a
 * second apply is version 2), `keys create`, `token`; and configuration errors or a port in use that stop a start
 * with one line.
 */
import { writeFileSync } from "node:fs"
import { createServer } from "node:net"
import * as Path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { client, type Json, SAMPLE_PDF } from "./support/http.js"
import { freePort, runCli, SECRET, startServer, tempDir } from "./support/process.js"

const SKILL = {
  slug: "factura-es",
  name: "Factura",
  fields: [
    { name: "numero", order: 1, type: "string", aliases: ["Número de factura"] },
    { name: "total", order: 2, type: "float" },
    {
      name: "proveedor",
      order: 3,
      type: "catalog",
      aliases: ["CIF"],
      catalog: {
        catalogId: "Proveedores",
        keyColumns: ["cif"],
        outputColumns: ["nombre"],
        method: "exacta",
        threshold: 1
      }
    }
  ]
}

describe("the CLI", () => {
  const data = tempDir("legible-cli-")
  const env = { LEGIBLE_DATA_DIR: data.path, LEGIBLE_JWT_SECRET: SECRET, LEGIBLE_OCR_WORKERS: "1" }
  const file = (name: string, text: string) => {
    const path = Path.join(data.path, name)
    writeFileSync(path, text)
    return path
  }
  afterAll(() => data.dispose())

  it("migrate, catalogs import, skills apply, keys create and token prepare a client that serve then serves", async () => {
    // `token` opens no database: it runs beside the commands that do, one after the other, on the data directory.
    const minting = runCli(["token", "--sub", "ana", "--client", "acme", "--name", "Ana", "--ttl", "600"], env)
    const migrated = await runCli(["migrate"], env)
    expect(migrated).toMatchObject({ code: 0 })
    expect(migrated.stdout).toContain(`migrated ${data.path}`)

    const csv = file("proveedores.csv", "cif,nombre\nB12345674,Papelería Ejemplo S.L.\nA28017895,Otro S.A.\n")
    const imported = await runCli(["catalogs", "import", csv, "--client", "acme", "--name", "Proveedores"], env)
    expect(imported.code, imported.stderr).toBe(0)
    expect(imported.stdout).toMatch(
      /created catalog "Proveedores" \(id [0-9a-f-]{36}, columns cif, nombre\): 2 records/
    )
    const json = file("mas.json", JSON.stringify([{ cif: "B86543210", nombre: "Limpiezas Brillo S.L." }]))
    const more = await runCli(["catalogs", "import", json, "--client", "acme", "--name", "Proveedores"], env)
    expect(more.stdout).toContain('updated catalog "Proveedores"')
    expect(more.stdout).toContain("1 records imported")

    const skillFile = file("skill.json", JSON.stringify(SKILL))
    const applied = await runCli(["skills", "apply", skillFile, "--client", "acme"], env)
    expect(applied.code, applied.stderr).toBe(0)
    expect(applied.stdout).toMatch(/^factura-es: version 1 \(id [0-9a-f-]{36}\)/)
    const again = await runCli(["skills", "apply", skillFile, "--client", "acme"], env)
    expect(again.stdout).toMatch(/^factura-es: version 2 /)

    const created = await runCli(["keys", "create", "--client", "acme", "--user", "ana", "--name", "ci"], env)
    expect(created.code, created.stderr).toBe(0)
    const key = created.stdout.trim()
    expect(key).toMatch(/^pk_live_[A-Za-z0-9]+$/)
    expect(created.stderr).toContain("shown once")

    const minted = await minting
    const jwt = minted.stdout.trim()
    expect(jwt.split(".")).toHaveLength(3)
    const claims = JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString()) as Json
    expect(claims).toMatchObject({ sub: "ana", client_id: "acme", name: "Ana", role: "user" })
    expect((claims.exp as number) - (claims.iat as number)).toBe(600)

    const server = await startServer({ env })
    try {
      const api = client(server.url)
      const keys = (await api.jwt("GET", "/api/api-keys/", jwt)).body as Json
      expect((keys.api_keys as Array<Json>).map((k) => k.nombre)).toEqual(["ci"])
      const id = await api.submit(key, SAMPLE_PDF, "sample.pdf")
      const read = await api.awaitFinal(key, id)
      expect(read.status).toBe("completado")
      const proveedor = (read.fields as Array<Json>).find((f) => f.name === "proveedor")?.value as Json
      expect(proveedor.catalog_values).toEqual({ cif: "B12345674", nombre: "Papelería Ejemplo S.L." })
    } finally {
      expect(await server.stop()).toBe(0)
    }
  }, 180_000)

  it("a bad file or skill is refused with one line and exit code 1", async () => {
    const broken = file("broken.json", "{ nope")
    const bad = await runCli(["skills", "apply", broken, "--client", "acme"], env)
    expect(bad.code).toBe(1)
    expect(bad.stderr.trim()).toMatch(/^legible: the skill file is not valid JSON/)
    const invalid = file("invalid.json", JSON.stringify({ ...SKILL, fields: [] }))
    const refused = await runCli(["skills", "apply", invalid, "--client", "acme"], env)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain("legible: fields must not be empty")
    const missing = await runCli(["catalogs", "import", "/nonexistent.csv", "--client", "acme", "--name", "x"], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("cannot read /nonexistent.csv")
  }, 60_000)

  it("configuration errors stop a start with a message naming the variable", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ LEGIBLE_DATABASE_URL: "postgres://postgres@127.0.0.1:5432/postgres" }, "LEGIBLE_JWT_SECRET is required"],
      [{ LEGIBLE_PORT: "eighty" }, 'LEGIBLE_PORT: Expected a string representing a finite number (got "eighty")'],
      [{ LEGIBLE_JWT_SECRET: "short" }, "LEGIBLE_JWT_SECRET must be at least 32 bytes"],
      [{ LEGIBLE_JWT_JWKS_URL: "https://idp.example/jwks" }, "LEGIBLE_JWT_ISSUER and LEGIBLE_JWT_AUDIENCE"],
      [{ LEGIBLE_DATABASE_URL: "mysql://x" }, "LEGIBLE_DATABASE_URL: Expected a postgres://"],
      [{ LEGIBLE_LOG_LEVEL: "loud" }, 'LEGIBLE_LOG_LEVEL: Expected "All" | "Fatal"']
    ]
    // Each start stops at its configuration, before opening the data directory: they run at once.
    const [jwks, ...results] = await Promise.all([
      runCli(["token", "--sub", "a", "--client", "c"], {
        LEGIBLE_DATA_DIR: data.path,
        LEGIBLE_JWT_JWKS_URL: "https://idp.example/jwks",
        LEGIBLE_JWT_ISSUER: "https://idp.example/",
        LEGIBLE_JWT_AUDIENCE: "legible"
      }),
      ...cases.map(([extra]) => runCli(["serve"], { LEGIBLE_DATA_DIR: data.path, ...extra }))
    ])
    cases.forEach(([, message], i) => {
      const result = results[i]!
      expect(result.code, message).toBe(1)
      expect(result.stderr, message).toContain(message)
      expect(result.stderr.split("\n").filter((l) => l.length > 0)).toHaveLength(1)
    })
    expect(jwks.code).toBe(1)
    expect(jwks.stderr).toContain("get one from your identity provider")
  }, 60_000)

  it("a port already in use stops a start with one line naming the address and the system's reason", async () => {
    const port = await freePort()
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(port, "127.0.0.1", resolve))
    try {
      const result = await runCli(["serve", "--role", "api"], { ...env, LEGIBLE_PORT: String(port) })
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(
        `legible: cannot listen on 127.0.0.1:${port}: address already in use (EADDRINUSE); another process listens`
      )
      expect(result.stderr).not.toContain("ServeError {}")
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  }, 60_000)
})
