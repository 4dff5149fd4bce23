/** Spec 4.3 submission over the socket: 202, and every 400/402/404 (and the 413 of the configured body limit). */
import { expect, it } from "vitest"
import { type Json, SAMPLE_PDF, token } from "../support/http.js"
import type { World } from "./setup.js"

const error = (body: unknown) => expect(body).toEqual({ error: expect.any(String) })

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** Registers the submission tests. */
export const submit = (world: () => World) => {
  it("POST /v1/extractions answers 202 {extraction_id} and the extraction is queued", async () => {
    const { api, keys } = world()
    const r = await api.key("POST", "/v1/extractions", keys.alice, {
      file_name: "nueva.pdf",
      skill: "factura-es",
      file_base64: base64(SAMPLE_PDF),
      model: "local",
      extraction_mode: "ocr_only"
    })
    expect(r.status).toBe(202)
    expect(Object.keys(r.body as Json)).toEqual(["extraction_id"])
    const id = (r.body as Json).extraction_id as string
    expect(id).toMatch(/^[0-9a-f-]{36}$/)
    const final = await api.awaitFinal(keys.alice, id)
    expect(final.status).toBe("completado")
  })

  it("a PDF whose %PDF- header is overwritten by junk is accepted (202) and read, as mupdf repairs it", async () => {
    const { api, keys } = world()
    const damaged = SAMPLE_PDF.slice()
    damaged.set(new TextEncoder().encode("JUNK!JUNK"), 0)
    const r = await api.key("POST", "/v1/extractions", keys.alice, {
      file_name: "cabecera-rota.pdf",
      skill: "factura-es",
      file_base64: base64(damaged),
      model: "local",
      extraction_mode: "ocr_only"
    })
    expect(r.status).toBe(202)
    const id = (r.body as Json).extraction_id as string
    expect((await api.awaitFinal(keys.alice, id)).status).toBe("completado")
  })

  it("POST /v1/extractions answers 400 {error} for a missing field, bad Base64, a non-document, a bad mode or model", async () => {
    const { api, keys } = world()
    const good = { file_name: "f.pdf", skill: "factura-es", file_base64: base64(SAMPLE_PDF) }
    const bodies: Array<[string, unknown]> = [
      ["no file_base64", { file_name: "f.pdf", skill: "factura-es" }],
      ["no file_name", { skill: "factura-es", file_base64: good.file_base64 }],
      ["no skill", { file_name: "f.pdf", file_base64: good.file_base64 }],
      ["empty file", { ...good, file_base64: "" }],
      ["bad base64", { ...good, file_base64: "JVBERi0x*%%==" }],
      ["html", { ...good, file_base64: base64(new TextEncoder().encode("<html><script>alert(1)</script></html>")) }],
      ["bad mode", { ...good, extraction_mode: "magic" }],
      ["unserved model", { ...good, model: "gpt-4o" }],
      ["unknown model", { ...good, model: "llama-3" }],
      ["not an object", [1, 2, 3]],
      ["malformed JSON", '{"file_name": ']
    ]
    for (const [what, body] of bodies) {
      const r = await api.key("POST", "/v1/extractions", keys.alice, body)
      expect(r.status, what).toBe(400)
      error(r.body)
    }
  })

  it("POST /v1/extractions answers 404 {error} for a skill the client does not have (another client's included)", async () => {
    const { api, keys, tokens } = world()
    const body = { file_name: "f.pdf", skill: "no-such-skill", file_base64: base64(SAMPLE_PDF) }
    const r = await api.key("POST", "/v1/extractions", keys.alice, body)
    expect(r.status).toBe(404)
    error(r.body)
    // A skill only bob has is missing for alice.
    const only = await api.jwt("POST", "/api/skills", tokens.bob, {
      slug: "solo-bob",
      name: "Solo Bob",
      fields: [{ name: "total", order: 1, type: "float" }]
    })
    expect(only.status).toBe(201)
    const foreign = await api.key("POST", "/v1/extractions", keys.alice, { ...body, skill: "solo-bob" })
    expect(foreign.status).toBe(404)
  })

  it("POST /v1/extractions answers 402 {error, limit, used} once the client's quota is used up", async () => {
    const { api, tokens } = world()
    const carol = { sub: "carol", clientId: "client-c", name: "Carol" }
    const jwt = token(carol)
    const key = await api.createKey(jwt, "carol")
    const skill = await api.jwt("POST", "/api/skills", jwt, {
      slug: "factura-es",
      name: "Factura",
      fields: [{ name: "total", order: 1, type: "float" }]
    })
    expect(skill.status).toBe(201)
    const forbidden = await api.jwt("PUT", "/api/quotas/client-c", jwt, { limit: 1 })
    expect(forbidden.status).toBe(403)
    const set = await api.jwt("PUT", "/api/quotas/client-c", tokens.root, { limit: 1, period: "month" })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ client_id: "client-c", limit: 1, used: 0 })
    await api.submit(key, SAMPLE_PDF, "una.pdf")
    const over = await api.key("POST", "/v1/extractions", key, {
      file_name: "dos.pdf",
      skill: "factura-es",
      file_base64: base64(SAMPLE_PDF)
    })
    expect(over.status).toBe(402)
    expect(over.body).toEqual({ error: expect.any(String), limit: 1, used: 1 })
    // Test keys are a sandbox: they do not consume the live quota.
    const sandbox = await api.createKey(jwt, "carol test", "test")
    await api.submit(sandbox, SAMPLE_PDF, "prueba.pdf")
  })

  it("a body over LEGIBLE_MAX_BODY_BYTES is refused with 413 {error}", async () => {
    const { api, keys } = world()
    const big = { file_name: "big.pdf", skill: "factura-es", file_base64: "A".repeat(3 * 1024 * 1024) }
    const r = await api.key("POST", "/v1/extractions", keys.alice, big)
    expect(r.status).toBe(413)
    error(r.body)
  })
}
