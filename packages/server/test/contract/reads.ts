/** Spec 2.3, 2.7, 4.4 over the socket: reads, the detailed read, the byte-identical download, tenancy, probes. */
import { Api } from "@legible/adapters-http"
import { expect, it } from "vitest"
import { type Json, SAMPLE_PDF } from "../support/http.js"
import { v1 } from "../support/typed.js"
import { TRICKY_NAME, type World } from "./setup.js"

const error = (body: unknown) => expect(body).toEqual({ error: expect.any(String) })

const SUMMARY = [
  "extraction_date",
  "id",
  "last_modification",
  "last_user_email",
  "last_user_id",
  "last_user_name",
  "origin_name",
  "skill_name",
  "status"
]

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/

/** Registers the read tests. */
export const reads = (world: () => World) => {
  it("GET /v1/extractions/{id} returns 2.3: fields sorted by order, usage, no detailed members", async () => {
    const { api, keys, ids } = world()
    const r = await v1(api, keys.alice).read(ids.alice1)
    expect(r.status).toBe(200)
    const body = r.body as Json
    expect(Object.keys(body).sort()).toEqual([...SUMMARY, "fields", "usage"].sort())
    expect(body).toMatchObject({
      id: ids.alice1,
      origin_name: TRICKY_NAME,
      status: "completado",
      skill_name: "Factura (España)",
      last_user_id: "alice",
      last_user_name: "Alice Martín",
      last_user_email: "alice@a.test"
    })
    expect(body.extraction_date).toMatch(TIMESTAMP)
    const fields = body.fields as Array<Json>
    expect(fields.map((f) => f.name)).toEqual(["numero", "fecha", "emisor", "total", "lineas", "proveedor"])
    expect(fields.map((f) => f.order)).toEqual([1, 2, 3, 4, 5, 6])
    expect(fields[1]).toEqual({
      name: "fecha",
      order: 2,
      type: "date",
      value: { literal: "12/03/2026", parsed: "2026-03-12" }
    })
    expect(fields[3]?.value).toEqual({ literal: "122,82", parsed: 122.82 })
    expect(fields[4]?.value).toHaveLength(3)
    const proveedor = fields[5]?.value as Json
    expect(proveedor.type).toBe("catalog")
    expect(proveedor.matching).toMatchObject({
      status: "found",
      method: "aproximada",
      extracted_values: { cif: "B12345674" }
    })
    expect(proveedor.catalog_values).toEqual({ cif: "B12345674", nombre: "Papelería Ejemplo S.L." })
    expect(body.usage).toEqual({
      tokens_consumidos: 0,
      prompt_tokens: 0,
      response_tokens: 0,
      duration: expect.any(Number),
      model: "local"
    })
    // `duration` is the whole processing (read and OCR included), in seconds: more than nothing, and within the time
    // from submission to the last change (both stamped by this server, to the microsecond).
    const duration = (body.usage as Json).duration as number
    const elapsed = (Date.parse(body.last_modification as string) - Date.parse(body.extraction_date as string)) / 1000
    expect(duration).toBeGreaterThan(0)
    expect(duration).toBeLessThanOrEqual(elapsed + 0.001)
  })

  it("GET /v1/extractions/{id}/detailed adds words, full_text, num_pages and word_ids/id/type on simple values", async () => {
    const { api, keys, ids } = world()
    const r = await v1(api, keys.alice).detailed(ids.alice1)
    expect(r.status).toBe(200)
    const body = r.body as Json
    expect(body.num_pages).toBe(1)
    expect(body.full_text).toContain("F-2026-0042")
    const words = (body.words as Record<string, Array<Json>>)["1"] ?? []
    expect(words.length).toBeGreaterThan(40)
    for (const w of words) {
      expect(Object.keys(w).sort()).toEqual(["id", "page", "word", "x0", "x1", "y0", "y1"])
      expect(w.page).toBe(1)
    }
    const byId = new Map(words.map((w) => [w.id as string, w.word as string]))
    const total = (body.fields as Array<Json>).find((f) => f.name === "total")?.value as Json
    expect(total).toMatchObject({ literal: "122,82", parsed: 122.82, type: "float", id: expect.any(String) })
    expect((total.word_ids as Array<string>).map((id) => byId.get(id))).toEqual(["122,82"])
    const numero = (body.fields as Array<Json>).find((f) => f.name === "numero")?.value as Json
    expect((numero.word_ids as Array<string>).map((id) => byId.get(id))).toEqual(["F-2026-0042"])
    // Extensions: every value's confidence and reasons; the plain read has neither.
    expect(total.confidence).toEqual(expect.any(Number))
    expect(total.confidence as number).toBeGreaterThan(0.5)
    expect(total.reasons).toEqual([])
    const proveedor = (body.fields as Array<Json>).find((f) => f.name === "proveedor")?.value as Json
    expect(proveedor.confidence).toEqual(expect.any(Number))
    const plain = (await v1(api, keys.alice).read(ids.alice1)).body as Json
    const plainTotal = (plain.fields as Array<Json>).find((f) => f.name === "total")?.value as Json
    expect(Object.keys(plainTotal).sort()).toEqual(["literal", "parsed"])
    expect(Object.keys((plain.fields as Array<Json>).find((f) => f.name === "proveedor")?.value as Json)).not.toContain(
      "confidence"
    )
  })

  it("GET /v1/extractions/{id}/document returns the uploaded bytes as an attachment with the uploaded name", async () => {
    const { api, keys, ids } = world()
    const response = await v1(api, keys.alice).download(ids.alice1)
    expect(response.status).toBe(200)
    const bytes = response.value ?? new Uint8Array()
    expect(Buffer.compare(Buffer.from(bytes), Buffer.from(SAMPLE_PDF))).toBe(0)
    expect(response.headers.get("content-type")).toBe("application/pdf")
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    const disposition = response.headers.get("content-disposition") ?? ""
    expect(disposition).toMatch(/^attachment;/)
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent(TRICKY_NAME).replace(/'/g, "%27")}`)
    expect(disposition).not.toMatch(/[\r\n]/)
  })

  it("missing ids, malformed ids and other clients' ids answer the same 404 {error} on every read", async () => {
    const { api, keys, ids } = world()
    const missing = "00000000-0000-4000-8000-000000000000"
    const alice = v1(api, keys.alice)
    for (const read of [alice.read, alice.detailed, alice.download]) {
      const none = await read(missing)
      expect(none.status).toBe(404)
      error(none.body)
      const malformed = await read("not-a-uuid")
      expect(malformed.status).toBe(404)
      const foreign = await read(ids.bob1)
      expect(foreign.status).toBe(404)
      expect(JSON.stringify(foreign.body).replace(ids.bob1, "ID")).toBe(
        JSON.stringify(none.body).replace(missing, "ID")
      )
    }
  })

  it("test keys are a sandbox: live and test extractions never see each other", async () => {
    const { api, keys, ids } = world()
    expect((await v1(api, keys.alice).read(ids.aliceTest1)).status).toBe(404)
    expect((await v1(api, keys.aliceTest).read(ids.alice1)).status).toBe(404)
    const sandbox = (await v1(api, keys.aliceTest).list()).body as Json
    expect((sandbox.extractions as Array<Json>).map((e) => e.id)).toContain(ids.aliceTest1)
    expect((sandbox.extractions as Array<Json>).map((e) => e.id)).not.toContain(ids.alice1)
    const read = (await v1(api, keys.aliceTest).read(ids.aliceTest1)).body as Json
    expect((read.usage as Json).model).toBe("local")
  })

  it("a queued extraction's read omits fields and usage (split roles: read before any worker ran)", async () => {
    const { queuedRead, ids, engine } = world()
    if (queuedRead === undefined) {
      expect(engine).toBe("pglite")
      return
    }
    expect(queuedRead).toMatchObject({ id: ids.alice1, status: "en cola" })
    expect(Object.keys(queuedRead).sort()).toEqual(SUMMARY)
  })

  it("serves the probes, the OpenAPI document and the docs page; unknown routes are 404 JSON", async () => {
    const { api, keys } = world()
    const { system } = api.as()
    expect((await api.send(system.health())).status).toBe(200)
    expect((await api.send(system.ready())).status).toBe(200)
    // Outside the contract (documents and unknown routes): raw requests.
    const openapi = (await (await api.raw("/openapi.json")).json()) as Json
    expect(openapi.openapi).toMatch(/^3\.1/)
    expect(Object.keys(openapi.paths as Json)).toEqual(
      expect.arrayContaining(["/api/api-keys/", "/v1/extractions", "/v1/extractions/{extraction_id}/status"])
    )
    // The documentation's submission example works as it is against the real reader.
    const [example] = (Api.SubmitBody.ast.annotations?.examples ?? []) as ReadonlyArray<typeof Api.SubmitBody.Type>
    if (example === undefined) throw new Error("the submission schema has no example")
    const submitted = await v1(api, keys.alice).submit(example)
    expect(submitted.status).toBe(202)
    expect((await api.awaitFinal(keys.alice, submitted.value?.body.extraction_id ?? "")).status).toBe("completado")
    expect(JSON.stringify(openapi)).toContain(JSON.stringify(example.file_base64))
    const root = await api.raw("/", { redirect: "manual" })
    expect(root.status).toBe(302)
    expect(root.headers.get("location")).toBe("/docs")
    const docs = await api.raw("/docs")
    expect(docs.status).toBe(200)
    expect(docs.headers.get("content-type")).toContain("text/html")
    const unknown = await api.key("GET", "/v2/nothing", undefined)
    expect(unknown.status).toBe(404)
    error(unknown.body)
  })
}
