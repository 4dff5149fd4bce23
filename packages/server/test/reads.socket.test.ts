/**
 * The reads rebuilt for throughput (issue 22) over a real socket against the BUILT server, on both engines: the
 * stored result sent as stored — object-list items in the skill's order (`descripcion, cantidad, precio, importe`)
 * in the single and the detailed read, the plain read without words — and the key checked in the read's own
 * statement: a revoked key 401 at once, another client's id 404 like a missing one.
 */
import * as Path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, type Json, SAMPLE_PDF, seedSkill, token } from "./support/http.js"
import { createDatabase, type TestDatabase } from "./support/postgres.js"
import { SECRET, type Server, seedDataDir, startServer, tempDir } from "./support/process.js"

const ITEM_ORDER = ["descripcion", "cantidad", "precio", "importe"]

const lineItems = (text: string): Array<Json> => {
  const fields = (JSON.parse(text) as { fields: Array<{ name: string; value: Array<Json> }> }).fields
  return fields.find((field) => field.name === "lineas")?.value ?? []
}

for (const engine of ["pglite", "postgres"] as const) {
  describe(`reads over a socket on ${engine}`, () => {
    const data = tempDir("legible-reads-")
    let database: TestDatabase | undefined
    let server: Server | undefined
    let key = ""
    let other = ""
    let id = ""
    const api = () => client(server?.url ?? "")
    const raw = async (path: string, apiKey = key) => {
      const response = await api().raw(path, { headers: { "x-api-key": apiKey } })
      return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
    }

    beforeAll(async () => {
      database = engine === "postgres" ? await createDatabase() : undefined
      server = await startServer({
        env: {
          LEGIBLE_JWT_SECRET: SECRET,
          LEGIBLE_DATA_DIR:
            engine === "pglite" ? seedDataDir(Path.join(data.path, "data")) : Path.join(data.path, "data"),
          LEGIBLE_OCR_WORKERS: "1",
          ...(database === undefined ? {} : { LEGIBLE_DATABASE_URL: database.url })
        }
      })
      const jwt = token({ sub: "ana", clientId: "client-reads", name: "Ana" })
      key = await api().createKey(jwt, "reads")
      other = await api().createKey(token({ sub: "otro", clientId: "client-other", name: "Otro" }), "other")
      await seedSkill(api(), jwt)
      id = await api().submit(key, SAMPLE_PDF, "factura.pdf")
      await api().awaitFinal(key, id)
    }, 120_000)
    afterAll(async () => {
      await server?.stop()
      await database?.drop()
      data.dispose()
    })

    it("sends object-list items in the skill's order in both reads; the plain read carries no word", async () => {
      const plain = await raw(`/v1/extractions/${id}`)
      const detailed = await raw(`/v1/extractions/${id}/detailed`)
      for (const read of [plain, detailed]) {
        expect(read.status).toBe(200)
        expect(read.type).toContain("application/json")
        expect(lineItems(read.text)).toHaveLength(3)
        for (const item of lineItems(read.text)) expect(Object.keys(item)).toEqual(ITEM_ORDER)
      }
      expect(plain.text).not.toContain("word_ids")
      expect(Object.keys(JSON.parse(plain.text) as Json)).toEqual([
        "id",
        "origin_name",
        "extraction_date",
        "last_modification",
        "last_user_id",
        "last_user_name",
        "last_user_email",
        "status",
        "skill_name",
        "fields",
        "usage"
      ])
      expect(Object.keys((lineItems(detailed.text)[0]?.descripcion ?? {}) as Json)).toEqual(
        expect.arrayContaining(["literal", "parsed", "word_ids", "id", "type"])
      )
    })

    it("a status switch shows in the next read around the stored result", async () => {
      const before = await raw(`/v1/extractions/${id}`)
      const patched = await api().key("PATCH", `/v1/extractions/${id}/status`, key, {
        status: "incompleto",
        message: "revisar"
      })
      expect(patched.status).toBe(200)
      const after = JSON.parse((await raw(`/v1/extractions/${id}`)).text) as Json
      expect(after).toMatchObject({ status: "incompleto", error_message: "revisar" })
      expect(after.fields).toEqual((JSON.parse(before.text) as Json).fields)
      await api().key("PATCH", `/v1/extractions/${id}/status`, key, { status: "completado" })
    })

    it("another client's id is 404 like a missing one; a bad or revoked key is 401 {error} on every read", async () => {
      const theirs = await raw(`/v1/extractions/${id}`, other)
      const missing = await raw("/v1/extractions/00000000-0000-4000-8000-000000000000", other)
      expect(theirs.status).toBe(404)
      expect(missing.status).toBe(404)
      expect(JSON.parse(theirs.text)).toEqual({ error: expect.any(String) })
      expect((JSON.parse((await raw("/v1/extractions", other)).text) as Json).count).toBe(0)
      const jwt = token({ sub: "ana", clientId: "client-reads", name: "Ana" })
      const doomed = await api().createKey(jwt, "doomed")
      const doomedId = (((await api().jwt("GET", "/api/api-keys/", jwt)).body as Json).api_keys as Array<Json>).find(
        (k) => k.nombre === "doomed"
      )?.id as string
      expect((await raw(`/v1/extractions/${id}`, doomed)).status).toBe(200)
      expect((await api().jwt("DELETE", `/api/api-keys/${doomedId}`, jwt)).status).toBe(200)
      for (const path of [
        `/v1/extractions/${id}`,
        `/v1/extractions/${id}/detailed`,
        "/v1/extractions",
        "/v1/extractions/x"
      ]) {
        for (const bad of [doomed, "pk_live_nope", ""]) {
          const refused = await raw(path, bad)
          expect(refused.status, `${path} with ${bad.slice(0, 12)}`).toBe(401)
          expect(JSON.parse(refused.text)).toEqual({ error: expect.any(String) })
        }
      }
    })
  })
}
