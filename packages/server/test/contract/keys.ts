/** Spec 4.2, 5 and 7 over the socket: the key endpoints, JWT failures, revocation on the next request. */
import { expect, it } from "vitest"
import { type Json, SAMPLE_PDF, token } from "../support/http.js"
import { USERS, type World } from "./setup.js"

const msg = (body: unknown) => expect(body).toEqual({ msg: expect.any(String) })
const error = (body: unknown) => expect(body).toEqual({ error: expect.any(String) })

/** Registers the key tests. */
export const keys = (world: () => World) => {
  it("POST /api/api-keys/ creates a live key by default, returned once with every field of 2.1", async () => {
    const { api, tokens } = world()
    const alice = api.as({ token: tokens.alice })
    const created = await api.send(alice.keys.create({ payload: { nombre: "ci" } }))
    // The spec shows no success code here; 201 Created is this server's.
    expect(created.status).toBe(201)
    const body = created.body as Json
    expect(body.message).toEqual(expect.any(String))
    const key = body.api_key as Json
    expect(Object.keys(key).sort()).toEqual(["created_at", "id", "key", "nombre", "tipo"])
    expect(key).toMatchObject({ nombre: "ci", tipo: "live" })
    expect(key.key).toMatch(/^pk_live_/)
    expect(key.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/)
    const test = await api.send(alice.keys.create({ payload: { nombre: "sandbox", tipo: "test" } }))
    expect(((test.body as Json).api_key as Json).key).toMatch(/^pk_test_/)
  })

  it("POST /api/api-keys/ answers 400 {error} without nombre or with a bad tipo", async () => {
    const { api, tokens } = world()
    // Raw requests: the typed client refuses to encode these bodies before sending them.
    for (const body of [{}, { nombre: "" }, { nombre: "x", tipo: "gold" }, "not json"]) {
      const r = await api.jwt("POST", "/api/api-keys/", tokens.alice, body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      error(r.body)
    }
  })

  it("key endpoints answer 401 {msg} without a token, with a bad, expired or foreign-secret token", async () => {
    const { api } = world()
    const bad = [
      undefined,
      "not-a-token",
      token(USERS.alice, { ttl: -120 }),
      token(USERS.alice, { secret: "another-secret-of-at-least-thirty-two-bytes!!" })
    ]
    for (const jwt of bad) {
      const client = api.as(jwt === undefined ? {} : { token: jwt })
      for (const [what, call] of [
        ["POST /api/api-keys/", client.keys.create({ payload: { nombre: "x" } })],
        ["GET /api/api-keys/", client.keys.list()],
        [
          "DELETE /api/api-keys/{id}",
          client.keys.revoke({ params: { api_key_id: "00000000-0000-4000-8000-000000000000" } })
        ]
      ] as const) {
        const r = await api.send<unknown, unknown>(call)
        expect(r.status, `${what} ${jwt?.slice(0, 12)}`).toBe(401)
        msg(r.body)
      }
    }
  })

  it("GET /api/api-keys/ lists the client's keys with previews only", async () => {
    const { api, tokens, keys } = world()
    const listed = await api.send(api.as({ token: tokens.alice }).keys.list())
    expect(listed.status).toBe(200)
    const items = (listed.body as Json).api_keys as Array<Json>
    expect(items.length).toBeGreaterThanOrEqual(2)
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(["created_at", "id", "key_preview", "last_used", "nombre", "tipo"])
      expect(item.key_preview).toMatch(/…|\.\.\./)
      expect(JSON.stringify(item)).not.toContain(keys.alice)
    }
    expect(items.map((i) => i.nombre)).toContain("alice live")
    expect(items.map((i) => i.nombre)).not.toContain("bob live")
    // The key was used by the set-up's submissions.
    expect(items.find((i) => i.nombre === "alice live")?.last_used).toEqual(expect.any(String))
  })

  it("DELETE /api/api-keys/{id}: 404 {error} for a missing or another client's key; revocation is immediate", async () => {
    const { api, tokens, ids } = world()
    const alice = api.as({ token: tokens.alice })
    const revoke = (client: typeof alice, id: string) => api.send(client.keys.revoke({ params: { api_key_id: id } }))
    const read = (key: string) =>
      api.send(api.as({ apiKey: key }).extractions.read({ params: { extraction_id: ids.alice1 } }))
    const missing = await revoke(alice, "00000000-0000-4000-8000-000000000000")
    expect(missing.status).toBe(404)
    error(missing.body)
    const notUuid = await revoke(alice, "nope")
    expect(notUuid.status).toBe(404)
    error(notUuid.body)

    const key = await api.createKey(tokens.alice, "to revoke")
    expect((await read(key)).status).toBe(200)
    const listed = (await api.send(alice.keys.list())).body as Json
    const id = (listed.api_keys as Array<Json>).find((k) => k.nombre === "to revoke")?.id as string
    const foreign = await revoke(api.as({ token: tokens.bob }), id)
    expect(foreign.status).toBe(404)
    // Another client's key reads exactly like a missing one.
    expect(JSON.stringify(foreign.body).replace(id, "ID")).toBe(
      JSON.stringify(missing.body).replace("00000000-0000-4000-8000-000000000000", "ID")
    )
    const revoked = await revoke(alice, id)
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ message: expect.any(String) })
    const after = await read(key)
    expect(after.status).toBe(401)
    const again = await revoke(alice, id)
    expect(again.status).toBe(404)
  })

  it("the same sub in two clients is two users: one client's global_admin lends nothing to the other's keys", async () => {
    const { api, ids, keys } = world()
    // Two identity providers issue the sub "ana": a plain user of one client, then a global_admin of another.
    const plain = token({ sub: "ana", clientId: "client-sub-a", name: "Ana A", email: "ana@a.test" })
    const admin = token({ sub: "ana", clientId: "client-sub-b", name: "Ana B", role: "global_admin" })
    const plainKey = await api.createKey(plain, "ana de a")
    const adminKey = await api.createKey(admin, "ana de b")
    // bob1 is completado: asking for completado again changes no status, whoever succeeds.
    const complete = (key: string) =>
      api.send(
        api.as({ apiKey: key }).extractions.switchStatus({
          params: { extraction_id: ids.bob1 },
          query: { client_id: "client-b" },
          payload: { status: "completado" }
        })
      )
    const asPlain = await complete(plainKey)
    expect(asPlain.status, "the plain user's key must not act as the other client's global_admin").toBe(404)
    const asAdmin = await complete(adminKey)
    expect(asAdmin.status).toBe(200)
    expect((asAdmin.body as Json).extraction).toMatchObject({ status: "completado", last_user_id: "ana" })
    // The acting user recorded is the admin's own client's ana.
    const listed = (await api.send(api.as({ apiKey: keys.bob }).extractions.list({ query: {} }))).body as Json
    const bob1 = (listed.extractions as Array<Json>).find((e) => e.id === ids.bob1)
    expect(bob1).toMatchObject({ last_user_id: "ana", last_user_name: "Ana B" })
    // Each client lists and revokes its own key only.
    const names = async (jwt: string) =>
      (((await api.send(api.as({ token: jwt }).keys.list())).body as Json).api_keys as Array<Json>).map((k) => k.nombre)
    expect(await names(plain)).toEqual(["ana de a"])
    expect(await names(admin)).toEqual(["ana de b"])
  })

  it("/v1 answers 401 without a key, with a malformed or unknown key", async () => {
    const { api, ids } = world()
    const unknown = `pk_live_${"A".repeat(43)}`
    const params = { extraction_id: ids.alice1 }
    const payload = { file_name: "f.pdf", skill: "factura-es", file_base64: Buffer.from(SAMPLE_PDF).toString("base64") }
    for (const key of [undefined, "", "nonsense", unknown]) {
      const { extractions } = api.as(key === undefined ? {} : { apiKey: key })
      for (const [what, call] of [
        ["GET /v1/extractions", extractions.list({ query: {} })],
        ["POST /v1/extractions", extractions.submit({ payload, headers: {} })],
        ["GET /v1/extractions/{id}", extractions.read({ params })],
        ["GET /v1/extractions/{id}/detailed", extractions.readDetailed({ params })],
        ["GET /v1/extractions/{id}/document", extractions.download({ params })],
        [
          "PATCH /v1/extractions/{id}/status",
          extractions.switchStatus({ params, query: {}, payload: { status: "incompleto" } })
        ]
      ] as const) {
        const r = await api.send<unknown, unknown>(call)
        expect(r.status, `${what} with ${String(key)}`).toBe(401)
      }
    }
  })
}
