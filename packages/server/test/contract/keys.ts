/** Spec 4.2, 5 and 7 over the socket: the key endpoints, JWT failures, revocation on the next request. */
import { expect, it } from "vitest"
import { type Json, token } from "../support/http.js"
import { USERS, type World } from "./setup.js"

const msg = (body: unknown) => expect(body).toEqual({ msg: expect.any(String) })
const error = (body: unknown) => expect(body).toEqual({ error: expect.any(String) })

/** Registers the key tests. */
export const keys = (world: () => World) => {
  it("POST /api/api-keys/ creates a live key by default, returned once with every field of 2.1", async () => {
    const { api, tokens } = world()
    const created = await api.jwt("POST", "/api/api-keys/", tokens.alice, { nombre: "ci" })
    // The spec shows no success code here; 201 Created is this server's.
    expect(created.status).toBe(201)
    const body = created.body as Json
    expect(body.message).toEqual(expect.any(String))
    const key = body.api_key as Json
    expect(Object.keys(key).sort()).toEqual(["created_at", "id", "key", "nombre", "tipo"])
    expect(key).toMatchObject({ nombre: "ci", tipo: "live" })
    expect(key.key).toMatch(/^pk_live_/)
    expect(key.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/)
    const test = await api.jwt("POST", "/api/api-keys/", tokens.alice, { nombre: "sandbox", tipo: "test" })
    expect(((test.body as Json).api_key as Json).key).toMatch(/^pk_test_/)
  })

  it("POST /api/api-keys/ answers 400 {error} without nombre or with a bad tipo", async () => {
    const { api, tokens } = world()
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
      for (const [method, path, body] of [
        ["POST", "/api/api-keys/", { nombre: "x" }],
        ["GET", "/api/api-keys/", undefined],
        ["DELETE", "/api/api-keys/00000000-0000-4000-8000-000000000000", undefined]
      ] as const) {
        const r = await api.jwt(method, path, jwt, body)
        expect(r.status, `${method} ${path} ${jwt?.slice(0, 12)}`).toBe(401)
        msg(r.body)
      }
    }
  })

  it("GET /api/api-keys/ lists the client's keys with previews only", async () => {
    const { api, tokens, keys } = world()
    const listed = await api.jwt("GET", "/api/api-keys/", tokens.alice)
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
    const missing = await api.jwt("DELETE", "/api/api-keys/00000000-0000-4000-8000-000000000000", tokens.alice)
    expect(missing.status).toBe(404)
    error(missing.body)
    const notUuid = await api.jwt("DELETE", "/api/api-keys/nope", tokens.alice)
    expect(notUuid.status).toBe(404)
    error(notUuid.body)

    const key = await api.createKey(tokens.alice, "to revoke")
    expect((await api.key("GET", `/v1/extractions/${ids.alice1}`, key)).status).toBe(200)
    const listed = (await api.jwt("GET", "/api/api-keys/", tokens.alice)).body as Json
    const id = (listed.api_keys as Array<Json>).find((k) => k.nombre === "to revoke")?.id as string
    const foreign = await api.jwt("DELETE", `/api/api-keys/${id}`, tokens.bob)
    expect(foreign.status).toBe(404)
    // Another client's key reads exactly like a missing one.
    expect(JSON.stringify(foreign.body).replace(id, "ID")).toBe(
      JSON.stringify(missing.body).replace("00000000-0000-4000-8000-000000000000", "ID")
    )
    const revoked = await api.jwt("DELETE", `/api/api-keys/${id}`, tokens.alice)
    expect(revoked.status).toBe(200)
    expect(revoked.body).toEqual({ message: expect.any(String) })
    const after = await api.key("GET", `/v1/extractions/${ids.alice1}`, key)
    expect(after.status).toBe(401)
    const again = await api.jwt("DELETE", `/api/api-keys/${id}`, tokens.alice)
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
    const asPlain = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status?client_id=client-b`, plainKey, {
      status: "completado"
    })
    expect(asPlain.status, "the plain user's key must not act as the other client's global_admin").toBe(404)
    const asAdmin = await api.key("PATCH", `/v1/extractions/${ids.bob1}/status?client_id=client-b`, adminKey, {
      status: "completado"
    })
    expect(asAdmin.status).toBe(200)
    expect((asAdmin.body as Json).extraction).toMatchObject({ status: "completado", last_user_id: "ana" })
    // The acting user recorded is the admin's own client's ana.
    const listed = (await api.key("GET", "/v1/extractions", keys.bob)).body as Json
    const bob1 = (listed.extractions as Array<Json>).find((e) => e.id === ids.bob1)
    expect(bob1).toMatchObject({ last_user_id: "ana", last_user_name: "Ana B" })
    // Each client lists and revokes its own key only.
    const names = async (jwt: string) =>
      (((await api.jwt("GET", "/api/api-keys/", jwt)).body as Json).api_keys as Array<Json>).map((k) => k.nombre)
    expect(await names(plain)).toEqual(["ana de a"])
    expect(await names(admin)).toEqual(["ana de b"])
  })

  it("/v1 answers 401 without a key, with a malformed or unknown key", async () => {
    const { api, ids } = world()
    const unknown = `pk_live_${"A".repeat(43)}`
    for (const key of [undefined, "", "nonsense", unknown]) {
      for (const [method, path] of [
        ["GET", "/v1/extractions"],
        ["POST", "/v1/extractions"],
        ["GET", `/v1/extractions/${ids.alice1}`],
        ["GET", `/v1/extractions/${ids.alice1}/detailed`],
        ["GET", `/v1/extractions/${ids.alice1}/document`],
        ["PATCH", `/v1/extractions/${ids.alice1}/status`]
      ] as const) {
        const r = await api.key(method, path, key, method === "GET" ? undefined : { status: "incompleto" })
        expect(r.status, `${method} ${path} with ${String(key)}`).toBe(401)
      }
    }
  })
}
