/** Spec 3.1 and 4.6 over the socket: the status switch, its 400s and 404s, and the `global_admin` scope. */
import { expect, it } from "vitest"
import { type Json, must, SAMPLE_PDF } from "../support/http.js"
import type { World } from "./setup.js"

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/

/** Registers the status-switch tests. */
export const patch = (world: () => World) => {
  it("a skill with review ends incompleto naming the field and why; PATCH completado is the approval", async () => {
    const { api, keys, tokens } = world()
    const demo = await must("skill", api.jwt("GET", "/api/skills/factura-es", tokens.alice))
    const fields = [
      ...(demo.fields as Array<Json>),
      { name: "iban", order: 99, type: "string", description: "IBAN de la cuenta de abono" }
    ]
    const created = await must(
      "review skill",
      api.jwt("POST", "/api/skills", tokens.alice, {
        slug: "factura-revision",
        name: "Factura con revisión",
        fields,
        review: { threshold: 0.5, required: ["total", "iban"] }
      }),
      201
    )
    expect(created.review).toEqual({ threshold: 0.5, required: ["total", "iban"] })
    const id = await api.submit(keys.alice, SAMPLE_PDF, "revision.pdf", { skill: "factura-revision" })
    const read = await api.awaitFinal(keys.alice, id)
    expect(read.status).toBe("incompleto")
    expect(read.error_message).toBe("iban: not found in the document")
    // The same document under the demo skill, which has no review, ended completado (the suite's set-up).
    const approved = await api.key("PATCH", `/v1/extractions/${id}/status`, keys.alice, { status: "completado" })
    expect(approved.status).toBe(200)
    expect((approved.body as Json).extraction).toMatchObject({ id, status: "completado" })
    expect(((await api.key("GET", `/v1/extractions/${id}`, keys.alice)).body as Json).status).toBe("completado")
  })

  it("completado → incompleto stores the message; incompleto → completado clears it; both stamp the change", async () => {
    const { api, keys, ids } = world()
    const before = (await api.key("GET", `/v1/extractions/${ids.alice1}`, keys.alice)).body as Json
    const down = await api.key("PATCH", `/v1/extractions/${ids.alice1}/status`, keys.alice, {
      status: "incompleto",
      message: "falta el total"
    })
    expect(down.status).toBe(200)
    const body = down.body as Json
    expect(body.message).toEqual(expect.any(String))
    expect(body.extraction).toEqual({
      id: ids.alice1,
      status: "incompleto",
      last_modification: expect.stringMatching(TIMESTAMP),
      last_user_id: "alice",
      error_message: "falta el total"
    })
    expect(((body.extraction as Json).last_modification as string) > (before.last_modification as string)).toBe(true)
    const read = (await api.key("GET", `/v1/extractions/${ids.alice1}`, keys.alice)).body as Json
    expect(read.status).toBe("incompleto")
    // The fields stay readable while incompleto.
    expect((read.fields as Array<unknown>).length).toBe(6)

    const up = await api.key("PATCH", `/v1/extractions/${ids.alice1}/status`, keys.alice, {
      status: "completado",
      message: "ignored"
    })
    expect(up.status).toBe(200)
    expect((up.body as Json).extraction).toEqual({
      id: ids.alice1,
      status: "completado",
      last_modification: expect.stringMatching(TIMESTAMP),
      last_user_id: "alice"
    })
  })

  it("answers 400 {error} for any other status, a missing status or a bad message", async () => {
    const { api, keys, ids } = world()
    for (const body of [
      { status: "error" },
      { status: "procesando" },
      { status: "en cola" },
      { status: "COMPLETADO" },
      {},
      { status: "incompleto", message: 42 },
      "nope"
    ]) {
      const r = await api.key("PATCH", `/v1/extractions/${ids.alice2}/status`, keys.alice, body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body).toEqual({ error: expect.any(String) })
    }
  })

  it("answers 404 {error} for a missing or another client's extraction; client_id is ignored for normal users", async () => {
    const { api, keys, ids } = world()
    const missing = await api.key("PATCH", "/v1/extractions/00000000-0000-4000-8000-000000000000/status", keys.alice, {
      status: "incompleto"
    })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: expect.any(String) })
    const foreign = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status`, keys.alice, { status: "incompleto" })
    expect(foreign.status).toBe(404)
    const pretending = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status?client_id=client-b`, keys.alice, {
      status: "incompleto"
    })
    expect(pretending.status).toBe(404)
    const bob = (await api.key("GET", `/v1/extractions/${ids.bob1}`, keys.bob)).body as Json
    expect(bob.status).toBe("completado")
  })

  it("a global_admin switches another client's extraction only by naming it with client_id", async () => {
    const { api, keys, ids } = world()
    const without = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status`, keys.root, { status: "incompleto" })
    expect(without.status).toBe(404)
    const wrongClient = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status?client_id=client-a`, keys.root, {
      status: "incompleto"
    })
    expect(wrongClient.status).toBe(404)
    const named = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status?client_id=client-b`, keys.root, {
      status: "incompleto",
      message: "revisar"
    })
    expect(named.status).toBe(200)
    expect((named.body as Json).extraction).toMatchObject({ status: "incompleto", last_user_id: "root" })
    const seen = (await api.key("GET", `/v1/extractions/${ids.bob1}`, keys.bob)).body as Json
    expect(seen).toMatchObject({ status: "incompleto", last_user_id: "root" })
    // The admin's own reads stay scoped to its own client.
    expect((await api.key("GET", `/v1/extractions/${ids.bob1}`, keys.root)).status).toBe(404)
    const back = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status?client_id=client-b`, keys.root, {
      status: "completado"
    })
    expect(back.status).toBe(200)
  })
}
