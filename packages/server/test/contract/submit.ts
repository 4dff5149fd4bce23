/**
 * Spec 4.3 submission over the socket: 202 with `Location`, `Idempotency-Key` replays (extension), and every
 * 400/402/404/422 (and the 413 of the configured body limit).
 */
import { expect, it } from "vitest"
import { type Json, SAMPLE_PDF, token } from "../support/http.js"
import { v1 } from "../support/typed.js"
import type { World } from "./setup.js"

const error = (body: unknown) => expect(body).toEqual({ error: expect.any(String) })

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

/** Registers the submission tests. */
export const submit = (world: () => World) => {
  it("POST /v1/extractions answers 202 {extraction_id} with its Location, and the extraction is queued", async () => {
    const { api, keys } = world()
    const r = await v1(api, keys.alice).submit({
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
    expect(r.headers.get("location")).toBe(`/v1/extractions/${id}`)
    const final = await api.awaitFinal(keys.alice, id)
    expect(final.status).toBe("completado")
    // The Location answers the read of the extraction.
    const located = await api.raw(r.headers.get("location") ?? "", { headers: { "x-api-key": keys.alice } })
    expect(((await located.json()) as Json).id).toBe(id)
  })

  it("an Idempotency-Key makes a retried submission replay its 202 (Idempotent-Replayed) instead of queueing again", async () => {
    const { api, keys } = world()
    const alice = v1(api, keys.alice)
    const body = { file_name: "reintento.pdf", skill: "factura-es", file_base64: base64(SAMPLE_PDF), model: "local" }
    const first = await alice.submit(body, "socket-retry-1")
    expect(first.status).toBe(202)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const retry = await alice.submit(body, "socket-retry-1")
    expect(retry.status).toBe(202)
    expect(retry.body).toEqual(first.body)
    expect(retry.headers.get("idempotent-replayed")).toBe("true")
    expect(retry.headers.get("location")).toBe(first.headers.get("location"))
    const reused = await alice.submit({ ...body, file_name: "otro.pdf" }, "socket-retry-1")
    expect(reused.status).toBe(422)
    error(reused.body)
    const named = (await alice.list("search=reintento")).body as Json
    expect(named.count).toBe(1)
  })

  it("a PDF whose %PDF- header is overwritten by junk is accepted (202) and read, as mupdf repairs it", async () => {
    const { api, keys } = world()
    const damaged = SAMPLE_PDF.slice()
    damaged.set(new TextEncoder().encode("JUNK!JUNK"), 0)
    const r = await v1(api, keys.alice).submit({
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
    const valid: Array<[string, typeof good & { model?: string }]> = [
      ["empty file", { ...good, file_base64: "" }],
      ["bad base64", { ...good, file_base64: "JVBERi0x*%%==" }],
      ["html", { ...good, file_base64: base64(new TextEncoder().encode("<html><script>alert(1)</script></html>")) }],
      ["unserved model", { ...good, model: "gpt-4o" }],
      ["unknown model", { ...good, model: "llama-3" }]
    ]
    for (const [what, body] of valid) {
      const r = await v1(api, keys.alice).submit(body)
      expect(r.status, what).toBe(400)
      error(r.body)
    }
    // The model refusal names what the server serves (only `local` here: no provider is configured).
    const unserved = await v1(api, keys.alice).submit({ ...good, model: "gpt-4o" })
    expect(unserved.body).toEqual({ error: "model 'gpt-4o' is not available on this server; available: local" })
    // Raw requests: the typed client refuses to encode these bodies before sending them.
    const malformed: Array<[string, unknown]> = [
      ["no file_base64", { file_name: "f.pdf", skill: "factura-es" }],
      ["no file_name", { skill: "factura-es", file_base64: good.file_base64 }],
      ["no skill", { file_name: "f.pdf", file_base64: good.file_base64 }],
      ["bad mode", { ...good, extraction_mode: "magic" }],
      ["not an object", [1, 2, 3]],
      ["malformed JSON", '{"file_name": ']
    ]
    for (const [what, body] of malformed) {
      const r = await api.key("POST", "/v1/extractions", keys.alice, body)
      expect(r.status, what).toBe(400)
      error(r.body)
    }
  })

  it("POST /v1/extractions answers 404 {error} for a skill the client does not have (another client's included)", async () => {
    const { api, keys, tokens } = world()
    const body = { file_name: "f.pdf", skill: "no-such-skill", file_base64: base64(SAMPLE_PDF) }
    const r = await v1(api, keys.alice).submit(body)
    expect(r.status).toBe(404)
    error(r.body)
    // A skill only bob has is missing for alice.
    const only = await api.send(
      api.as({ token: tokens.bob }).skills.create({
        payload: { slug: "solo-bob", name: "Solo Bob", fields: [{ name: "total", order: 1, type: "float" }] }
      })
    )
    expect(only.status).toBe(201)
    const foreign = await v1(api, keys.alice).submit({ ...body, skill: "solo-bob" })
    expect(foreign.status).toBe(404)
  })

  it("POST /v1/extractions answers 402 {error, limit, used} once the client's quota is used up", async () => {
    const { api, tokens } = world()
    const carol = { sub: "carol", clientId: "client-c", name: "Carol" }
    const jwt = token(carol)
    const key = await api.createKey(jwt, "carol")
    const carolApi = api.as({ token: jwt })
    const skill = await api.send(
      carolApi.skills.create({
        payload: { slug: "factura-es", name: "Factura", fields: [{ name: "total", order: 1, type: "float" }] }
      })
    )
    expect(skill.status).toBe(201)
    const setQuota = (client: typeof carolApi, payload: { limit: number; period?: "month" }) =>
      api.send(client.quotas.set({ params: { client_id: "client-c" }, payload }))
    const forbidden = await setQuota(carolApi, { limit: 1 })
    expect(forbidden.status).toBe(403)
    const set = await setQuota(api.as({ token: tokens.root }), { limit: 1, period: "month" })
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ client_id: "client-c", limit: 1, used: 0 })
    await api.submit(key, SAMPLE_PDF, "una.pdf")
    const over = await v1(api, key).submit({
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
    const r = await v1(api, keys.alice).submit(big)
    expect(r.status).toBe(413)
    error(r.body)
  })
}
