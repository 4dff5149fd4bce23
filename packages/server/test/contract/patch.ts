/** Spec 3.1 and 4.6 over the socket: the status switch, its 400s and 404s, and the `global_admin` scope. */
import type { Extensions } from "@legible/adapters-http"
import { expect, it } from "vitest"
import { type Json, must, SAMPLE_PDF } from "../support/http.js"
import { v1 } from "../support/typed.js"
import type { World } from "./setup.js"

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/

/** Registers the status-switch tests. */
export const patch = (world: () => World) => {
  it("a skill with review ends incompleto naming the field and why; PATCH completado is the approval", async () => {
    const { api, keys, tokens } = world()
    const { skills } = api.as({ token: tokens.alice })
    const demo = await api.send(skills.read({ params: { slug: "factura-es" }, query: {} }))
    expect(demo.status).toBe(200)
    const fields: ReadonlyArray<Extensions.SkillFieldInput> = [
      ...(demo.value?.fields ?? []),
      { name: "iban", order: 99, type: "string", description: "IBAN de la cuenta de abono" }
    ]
    const created = await must(
      "review skill",
      api.send(
        skills.create({
          payload: {
            slug: "factura-revision",
            name: "Factura con revisión",
            fields,
            review: { threshold: 0.5, required: ["total", "iban"] }
          }
        })
      ),
      201
    )
    expect(created.review).toEqual({ threshold: 0.5, required: ["total", "iban"] })
    const id = await api.submit(keys.alice, SAMPLE_PDF, "revision.pdf", { skill: "factura-revision" })
    const read = await api.awaitFinal(keys.alice, id)
    expect(read.status).toBe("incompleto")
    expect(read.error_message).toBe("iban: not found in the document")
    // The same document under the demo skill, which has no review, ended completado (the suite's set-up).
    const approved = await v1(api, keys.alice).patch(id, { status: "completado" })
    expect(approved.status).toBe(200)
    expect((approved.body as Json).extraction).toMatchObject({ id, status: "completado" })
    expect(((await v1(api, keys.alice).read(id)).body as Json).status).toBe("completado")
  })

  it("completado → incompleto stores the message; incompleto → completado clears it; both stamp the change", async () => {
    const { api, keys, ids } = world()
    const before = (await v1(api, keys.alice).read(ids.alice1)).body as Json
    const down = await v1(api, keys.alice).patch(ids.alice1, {
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
    const read = (await v1(api, keys.alice).read(ids.alice1)).body as Json
    expect(read.status).toBe("incompleto")
    // The fields stay readable while incompleto.
    expect((read.fields as Array<unknown>).length).toBe(6)

    const up = await v1(api, keys.alice).patch(ids.alice1, {
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
      // Raw requests: the typed client refuses to encode these bodies before sending them.
      const r = await api.key("PATCH", `/v1/extractions/${ids.alice2}/status`, keys.alice, body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body).toEqual({ error: expect.any(String) })
    }
  })

  it("answers 404 {error} for a missing or another client's extraction; client_id is ignored for normal users", async () => {
    const { api, keys, ids } = world()
    const missing = await v1(api, keys.alice).patch("00000000-0000-4000-8000-000000000000", {
      status: "incompleto"
    })
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: expect.any(String) })
    const foreign = await v1(api, keys.alice).patch(ids.bob1, { status: "incompleto" })
    expect(foreign.status).toBe(404)
    const pretending = await v1(api, keys.alice).patch(
      ids.bob1,
      {
        status: "incompleto"
      },
      "client-b"
    )
    expect(pretending.status).toBe(404)
    const bob = (await v1(api, keys.bob).read(ids.bob1)).body as Json
    expect(bob.status).toBe("completado")
  })

  it("a global_admin switches another client's extraction only by naming it with client_id", async () => {
    const { api, keys, ids } = world()
    const without = await v1(api, keys.root).patch(ids.bob1, { status: "incompleto" })
    expect(without.status).toBe(404)
    const wrongClient = await v1(api, keys.root).patch(
      ids.bob1,
      {
        status: "incompleto"
      },
      "client-a"
    )
    expect(wrongClient.status).toBe(404)
    const named = await v1(api, keys.root).patch(
      ids.bob1,
      {
        status: "incompleto",
        message: "revisar"
      },
      "client-b"
    )
    expect(named.status).toBe(200)
    expect((named.body as Json).extraction).toMatchObject({ status: "incompleto", last_user_id: "root" })
    const seen = (await v1(api, keys.bob).read(ids.bob1)).body as Json
    expect(seen).toMatchObject({ status: "incompleto", last_user_id: "root" })
    // The admin's own reads stay scoped to its own client.
    expect((await v1(api, keys.root).read(ids.bob1)).status).toBe(404)
    const back = await v1(api, keys.root).patch(
      ids.bob1,
      {
        status: "completado"
      },
      "client-b"
    )
    expect(back.status).toBe(200)
  })
}
