/**
 * The operator use cases on `@legible/testkit`'s in-memory ports with fixed ids, the JWT helpers (signature checked
 * with node:crypto, the generated secret's file), and the quick start's seed and printed lines.
 */
import { createHmac } from "node:crypto"
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { describe, expect, it, layer } from "@effect/vitest"
import { ApiKey, ApiKeys, Skills } from "@legible/core"
import { Memory, TestIds } from "@legible/testkit"
import { Effect, Layer, Redacted } from "effect"
import * as Quickstart from "../src/internal/quickstart.js"
import * as Jwt from "../src/Jwt.js"
import * as Operations from "../src/Operations.js"
import { ROOT } from "./support/process.js"

const world = Layer.mergeAll(Memory.layer, TestIds.layer(1))

layer(world)("Operations", (it) => {
  it.effect("imports a CSV into a new catalog (columns from the header), then JSON into the same one", () =>
    Effect.gen(function* () {
      const first = yield* Operations.importCatalog({
        clientId: "acme",
        name: "Proveedores",
        text: "id,cif,nombre\n5d1f0000-0000-4000-8000-000000000001,B12345674,Papelería\n,A28017895,Otro\n",
        format: "csv"
      })
      expect(first).toMatchObject({
        created: true,
        imported: 2,
        catalog: { name: "Proveedores", columns: ["cif", "nombre"] }
      })
      const second = yield* Operations.importCatalog({
        clientId: "acme",
        name: "Proveedores",
        text: JSON.stringify({
          id: "5d1f0000-0000-4000-8000-000000000001",
          cif: "B12345674",
          nombre: "Papelería S.L."
        }),
        format: "json"
      })
      expect(second).toMatchObject({ created: false, imported: 1, catalog: { id: first.catalog.id } })
      const bad = yield* Effect.flip(
        Operations.importCatalog({ clientId: "acme", name: "Proveedores", text: '[{"iban": "x"}]', format: "json" })
      )
      expect(bad.message).toContain('"iban" is not a column')
    })
  )

  it.effect("applies skills from JSON: catalogs by name, a new version on every apply, every problem reported", () =>
    Effect.gen(function* () {
      const skill = {
        slug: "factura",
        name: "Factura",
        fields: [
          { name: "total", order: 1, type: "float" },
          {
            name: "proveedor",
            order: 2,
            type: "catalog",
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
      const [first] = yield* Operations.applySkills("acme", JSON.stringify(skill))
      expect(first).toMatchObject({ slug: "factura", version: 1 })
      expect(first?.fields[1]?.catalog?.catalogId).toMatch(/^[0-9a-f-]{36}$/)
      const [second, other] = yield* Operations.applySkills("acme", JSON.stringify([skill, { ...skill, slug: "otra" }]))
      expect([second?.version, other?.slug]).toEqual([2, "otra"])
      expect((yield* Skills.list("acme")).map((s) => s.slug).sort()).toEqual(["factura", "otra"])
      const invalid = yield* Effect.flip(
        Operations.applySkills("acme", JSON.stringify({ slug: "x", name: "X", fields: [] }))
      )
      expect(invalid.message).toContain("fields must not be empty")
      const shapeless = yield* Effect.flip(Operations.applySkills("acme", JSON.stringify({ slug: "x" })))
      expect(shapeless.message).toContain("does not describe skills")
      const unknownCatalog = yield* Effect.flip(
        Operations.applySkills(
          "acme",
          JSON.stringify({
            ...skill,
            fields: [{ ...skill.fields[1], catalog: { ...skill.fields[1]?.catalog, catalogId: "Nope" } }]
          })
        )
      )
      expect(unknownCatalog._tag).toBe("InvalidRequest")
    })
  )

  it.effect("the README's skill file example applies as written (its catalog by name)", () =>
    Effect.gen(function* () {
      const readme = readFileSync(Path.join(ROOT, "README.md"), "utf8")
      const section = readme.slice(readme.indexOf("### Skill files"))
      const example = section.slice(section.indexOf("```json") + "```json".length, section.indexOf("```\n", 8))
      yield* Operations.importCatalog({
        clientId: "readme",
        name: "Proveedores",
        text: "cif,nombre\nB12345674,Papelería Ejemplo S.L.\n",
        format: "csv"
      })
      const [skill] = yield* Operations.applySkills("readme", example)
      expect(skill?.fields.map((field) => [field.name, field.type, field.isList])).toEqual([
        ["numero", "string", false],
        ["fecha", "date", false],
        ["total", "float", false],
        ["lineas", "object", true],
        ["proveedor", "catalog", false]
      ])
      expect(skill?.fields[4]?.catalog?.catalogId).toMatch(/^[0-9a-f-]{36}$/)
    })
  )

  it.effect("creates a key for a user of a client; only its hash is stored", () =>
    Effect.gen(function* () {
      const created = yield* Operations.createKey({
        user: { id: "ana", clientId: "acme", name: "Ana", email: "", role: "user" },
        nombre: "ci",
        tipo: "test"
      })
      expect(created.key).toMatch(/^pk_test_/)
      const state = yield* Memory.MemoryState
      expect(JSON.stringify([...state.apiKeys.values()])).not.toContain(created.key)
      expect([...state.apiKeys.values()].map((k) => k.hash)).toContain(ApiKey.hash(created.key))
    })
  )

  it.effect("the quick start seeds once: a second run creates no key and no new version", () =>
    Effect.gen(function* () {
      const first = yield* Quickstart.seed()
      expect(first.key).toMatch(/^pk_live_/)
      expect(first.skill.fields.map((f) => f.name)).toEqual([
        "numero",
        "fecha",
        "emisor",
        "total",
        "lineas",
        "proveedor"
      ])
      const second = yield* Quickstart.seed()
      expect(second.key).toBeUndefined()
      expect(second.skill.version).toBe(1)
      expect((yield* ApiKeys.list(Quickstart.USER)).map((k) => k.nombre)).toEqual(["quickstart"])
    })
  )
})

describe("Jwt", () => {
  it("signs HS256 tokens that verify with the secret and carry the claims", () => {
    const token = Jwt.sign("s".repeat(32), { sub: "u", clientId: "c", role: "global_admin", audience: "a" }, 1000, 60)
    const [header, payload, signature] = token.split(".")
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "HS256", typ: "JWT" })
    expect(JSON.parse(Buffer.from(payload!, "base64url").toString())).toEqual({
      sub: "u",
      client_id: "c",
      role: "global_admin",
      aud: "a",
      iat: 1000,
      exp: 1060
    })
    expect(signature).toBe(createHmac("sha256", "s".repeat(32)).update(`${header}.${payload}`).digest("base64url"))
  })

  it.effect("generates the embedded secret once (mode 0600, ≥ 32 bytes) and reads it back", () =>
    Effect.gen(function* () {
      const dir = mkdtempSync(Path.join(tmpdir(), "legible-jwt-"))
      try {
        const data = Path.join(dir, "data")
        const first = yield* Jwt.generatedSecret(data)
        const again = yield* Jwt.generatedSecret(data)
        expect(Redacted.value(again)).toBe(Redacted.value(first))
        expect(Buffer.from(Redacted.value(first), "base64url").byteLength).toBe(Jwt.GENERATED_BYTES)
        const file = Path.join(data, Jwt.SECRET_FILE)
        expect(statSync(file).mode & 0o777).toBe(0o600)
        expect(readFileSync(file, "utf8").trim()).toBe(Redacted.value(first))
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  )
})

describe("Quickstart lines", () => {
  it("submit the sample with the key and poll until a final status", () => {
    const lines = Quickstart.curlLines("http://127.0.0.1:8080", "pk_live_x", "/repo/examples/sample-invoice.pdf")
    expect(lines[0]).toBe("KEY='pk_live_x'")
    expect(lines[1]).toContain("curl -s http://127.0.0.1:8080/v1/extractions")
    expect(lines[1]).toContain("base64 < '/repo/examples/sample-invoice.pdf'")
    expect(lines[2]).toContain('"status":"(completado|incompleto|error)"')
    expect(lines[3]).toBe('curl -s http://127.0.0.1:8080/v1/extractions/$ID -H "x-api-key: $KEY"')
  })
})

// The file the quick start prints in its curl line.
it("ships the sample invoice the quick start submits", () => {
  expect(statSync(Quickstart.samplePath()).size).toBeGreaterThan(1000)
})
