import { describe, expect, it } from "@effect/vitest"
import { ApiKey } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { apiKey, bearer, read, token, withApp } from "./support.js"

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/

describe("POST /api/api-keys/", () => {
  it(
    "creates a live key by default: 201 {message, api_key{id, nombre, key, tipo, created_at}}",
    withApp(async (app) => {
      const response = await app.fetch("/api/api-keys/", {
        method: "POST",
        headers: bearer(await token()),
        body: JSON.stringify({ nombre: "ERP" })
      })
      const { status, body } = await read(response)
      expect(status).toBe(201)
      expect(body).toEqual({
        message: expect.any(String),
        api_key: {
          id: expect.any(String),
          nombre: "ERP",
          key: expect.any(String),
          tipo: "live",
          created_at: expect.any(String)
        }
      })
      const created = (body as { api_key: { key: string; created_at: string } }).api_key
      expect(created.key).toMatch(/^pk_live_[A-Za-z0-9]+$/)
      expect(created.created_at).toMatch(TIMESTAMP)
      // The key works on /v1 at once, and the store holds only its hash.
      expect((await app.fetch("/v1/extractions", { headers: apiKey(created.key) })).status).toBe(200)
      expect(JSON.stringify([...app.state.apiKeys.values()])).not.toContain(created.key)
      expect(app.logs.join("\n")).not.toContain(created.key)
    })
  )

  it(
    "creates a test key with tipo test",
    withApp(async (app) => {
      const { status, body } = await read(
        await app.fetch("/api/api-keys/", {
          method: "POST",
          headers: bearer(await token()),
          body: JSON.stringify({ nombre: "Pruebas", tipo: "test" })
        })
      )
      expect(status).toBe(201)
      expect((body as { api_key: { key: string; tipo: string } }).api_key.key).toMatch(/^pk_test_/)
    })
  )

  it(
    "answers 400 {error} for a missing, blank or non-string nombre, a bad tipo, a non-object or malformed body",
    withApp(async (app) => {
      const jwt = await token()
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["{}", "nombre is required"],
        [JSON.stringify({ nombre: "   " }), "nombre"],
        [JSON.stringify({ nombre: 42 }), "nombre"],
        [JSON.stringify({ nombre: "x".repeat(201) }), "nombre"],
        [JSON.stringify({ nombre: "ERP", tipo: "prod" }), "tipo"],
        ["[1, 2]", "object"],
        ["null", "object"],
        ['{"nombre": ', "JSON"],
        ["", "object"]
      ]
      for (const [body, word] of cases) {
        const response = await app.fetch("/api/api-keys/", { method: "POST", headers: bearer(jwt), body })
        const result = await read(response)
        expect(result.status, body).toBe(400)
        expect(result.body, body).toEqual({ error: expect.stringContaining(word) })
      }
      expect(app.state.apiKeys.size).toBe(2)
    })
  )

  it(
    "answers 401 {msg} without a valid token, before reading the body",
    withApp(async (app) => {
      for (const headers of [{}, { authorization: "Bearer" }, { authorization: "Basic abc" }, bearer("garbage")]) {
        const result = await read(await app.fetch("/api/api-keys/", { method: "POST", headers, body: "{" }))
        expect(result.status).toBe(401)
        expect(result.body).toEqual({ msg: expect.any(String) })
      }
    })
  )

  it(
    "also answers at /api/api-keys without the trailing slash",
    withApp(async (app) => {
      const response = await app.fetch("/api/api-keys", {
        method: "POST",
        headers: bearer(await token()),
        body: JSON.stringify({ nombre: "ERP" })
      })
      expect(response.status).toBe(201)
    })
  )
})

describe("GET /api/api-keys/", () => {
  it(
    "lists the client's keys with previews only: {api_keys: [{id, nombre, key_preview, tipo, created_at, last_used}]}",
    withApp(async (app) => {
      const jwt = await token()
      const created = (await (
        await app.fetch("/api/api-keys/", { method: "POST", headers: bearer(jwt), body: '{"nombre":"Nueva"}' })
      ).json()) as { api_key: { id: string; key: string } }
      const { status, body } = await read(await app.fetch("/api/api-keys/", { headers: bearer(jwt) }))
      expect(status).toBe(200)
      const keys = (body as { api_keys: Array<Record<string, unknown>> }).api_keys
      expect(keys.map((k) => k.id).sort()).toEqual(
        [created.api_key.id, Fixtures.ids.liveKey, Fixtures.ids.testKey].sort()
      )
      for (const key of keys) {
        expect(Object.keys(key).sort()).toEqual(["created_at", "id", "key_preview", "last_used", "nombre", "tipo"])
      }
      const fresh = keys.find((k) => k.id === created.api_key.id)
      expect(fresh?.key_preview).toBe(ApiKey.preview(created.api_key.key))
      expect(fresh?.last_used).toBeNull()
      expect(JSON.stringify(body)).not.toContain(created.api_key.key)
    })
  )

  it(
    "never shows another client's keys",
    withApp(async (app) => {
      const other = Fixtures.otherUser()
      const jwt = await token({ sub: other.id, client_id: other.clientId, name: other.name, email: other.email })
      const { status, body } = await read(await app.fetch("/api/api-keys/", { headers: bearer(jwt) }))
      expect(status).toBe(200)
      expect(body).toEqual({ api_keys: [] })
    })
  )

  it(
    "records last_used on a successful /v1 call",
    withApp(async (app) => {
      await app.fetch("/v1/extractions", { headers: apiKey(Fixtures.LIVE_KEY) })
      const { body } = await read(await app.fetch("/api/api-keys/", { headers: bearer(await token()) }))
      const live = (body as { api_keys: Array<{ id: string; last_used: string | null }> }).api_keys.find(
        (k) => k.id === Fixtures.ids.liveKey
      )
      expect(live?.last_used).toMatch(TIMESTAMP)
    })
  )
})

describe("DELETE /api/api-keys/{api_key_id}", () => {
  it(
    "revokes at once: the next request with the key is 401, and so are 50 concurrent ones",
    withApp(async (app) => {
      const jwt = await token()
      expect((await app.fetch("/v1/extractions", { headers: apiKey(Fixtures.LIVE_KEY) })).status).toBe(200)
      const revoked = await read(
        await app.fetch(`/api/api-keys/${Fixtures.ids.liveKey}`, { method: "DELETE", headers: bearer(jwt) })
      )
      expect(revoked).toEqual({ status: 200, body: { message: expect.any(String) } })
      const after = await Promise.all(
        Array.from({ length: 50 }, () => app.fetch("/v1/extractions", { headers: apiKey(Fixtures.LIVE_KEY) }))
      )
      expect(after.map((r) => r.status)).toEqual(Array(50).fill(401))
      expect(await read(after[0]!)).toEqual({ status: 401, body: { error: "invalid API key" } })
    })
  )

  it(
    "answers 404 {error} with the same body for a missing key, a revoked one and another client's",
    withApp(async (app) => {
      const jwt = await token()
      const other = Fixtures.otherUser()
      const otherJwt = await token({ sub: other.id, client_id: other.clientId })
      const missing = "00000000-0000-4000-8000-00000000beef"
      const notFound = async (id: string, jwtToUse: string) =>
        read(await app.fetch(`/api/api-keys/${id}`, { method: "DELETE", headers: bearer(jwtToUse) }))
      expect(await notFound(missing, jwt)).toEqual({
        status: 404,
        body: { error: `API key '${missing}' not found` }
      })
      // Bruno (another client) cannot revoke Ana's key, and is told exactly what a missing key gets.
      const foreign = await notFound(Fixtures.ids.liveKey, otherJwt)
      expect(foreign).toEqual({ status: 404, body: { error: `API key '${Fixtures.ids.liveKey}' not found` } })
      expect((await app.fetch("/v1/extractions", { headers: apiKey(Fixtures.LIVE_KEY) })).status).toBe(200)
      expect((await notFound(Fixtures.ids.liveKey, jwt)).status).toBe(200)
      expect(await notFound(Fixtures.ids.liveKey, jwt)).toEqual(foreign)
      expect((await notFound("not-a-uuid", jwt)).status).toBe(404)
    })
  )
})
