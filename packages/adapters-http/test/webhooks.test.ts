/** The webhook endpoints in process: status codes, bodies, bad input as 400 `{error}`, tenancy as 404. */
import { Fixtures } from "@legible/testkit"
import { describe, expect, it } from "vitest"
import { type App, apiKey, bearer, putExtraction, read, token, withApp } from "./support.js"

const PUBLIC_URL = "https://93.184.215.14/hooks/legible"

const ownJwt = () => token()
const otherJwt = () =>
  token({ sub: Fixtures.otherUser().id, client_id: Fixtures.otherUser().clientId, name: "Otra", email: "o@x.test" })

const call = async (app: App, method: string, path: string, body?: unknown, jwt?: string) =>
  read(
    await app.fetch(path, {
      method,
      headers: bearer(jwt ?? (await ownJwt())),
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  )

const create = async (app: App, body: unknown = { url: PUBLIC_URL }) => {
  const created = await call(app, "POST", "/api/webhooks", body)
  expect(created.status).toBe(201)
  return created.body as { id: string; secret: string }
}

describe("POST /api/webhooks", () => {
  it(
    "registers an endpoint for every event and shows its secret once",
    withApp(async (app) => {
      const created = await call(app, "POST", "/api/webhooks", { url: PUBLIC_URL, description: "ERP" })
      expect(created).toEqual({
        status: 201,
        body: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          url: PUBLIC_URL,
          events: ["extraction.completed", "extraction.failed", "extraction.status_changed"],
          description: "ERP",
          sandbox: false,
          enabled: true,
          disabled_reason: null,
          created_at: expect.any(String),
          updated_at: expect.any(String),
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/)
        }
      })
      const listed = await call(app, "GET", "/api/webhooks")
      expect(listed.status).toBe(200)
      const { secret, ...shown } = created.body as { secret: string }
      expect(listed.body).toEqual({ webhooks: [shown] })
      expect(JSON.stringify(listed.body)).not.toContain(secret)
      expect(JSON.stringify(app.logs)).not.toContain(secret)
    })
  )

  it(
    "refuses bad input with 400 {error}, never a 500",
    withApp(async (app) => {
      const cases: ReadonlyArray<[unknown, string]> = [
        [{}, "url"],
        [{ url: 42 }, "url"],
        [{ url: PUBLIC_URL, events: [] }, "events"],
        [{ url: PUBLIC_URL, events: ["extraction.deleted"] }, "extraction"],
        [{ url: PUBLIC_URL, description: "x".repeat(501) }, "description"],
        [{ url: "http://93.184.215.14/hook" }, "https"],
        [{ url: "https://127.0.0.1/hook" }, "public"],
        [{ url: "https://10.0.0.1/hook" }, "public"],
        [{ url: "https://169.254.169.254/latest/meta-data/" }, "public"],
        [{ url: "https://[::1]/hook" }, "public"],
        [{ url: "https://localhost/hook" }, "public"],
        [{ url: "not a url" }, "url"],
        [{ url: `https://93.184.215.14/${"a".repeat(2100)}` }, "2048"]
      ]
      for (const [body, mentions] of cases) {
        const response = await call(app, "POST", "/api/webhooks", body)
        expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400)
        expect((response.body as { error: string }).error).toContain(mentions)
      }
      const notJson = await app.fetch("/api/webhooks", { method: "POST", headers: bearer(await ownJwt()), body: "{" })
      expect(notJson.status).toBe(400)
      expect(((await notJson.json()) as { error: string }).error).toEqual(expect.any(String))
      expect((await call(app, "GET", "/api/webhooks")).body).toEqual({ webhooks: [] })
    })
  )

  it(
    "needs a JWT: 401 {msg}",
    withApp(async (app) => {
      const response = await read(await app.fetch("/api/webhooks", { method: "GET" }))
      expect(response).toEqual({ status: 401, body: { msg: expect.any(String) } })
    })
  )

  it(
    "private receivers are accepted when the server allows them",
    withApp(
      async (app) => {
        await create(app, { url: "http://127.0.0.1:9/hook" })
      },
      { options: { webhooks: { allowPrivate: true, allowHttp: true } } }
    )
  )
})

describe("PATCH, DELETE, rotate-secret, deliveries, redeliver", () => {
  it(
    "change the client's own endpoint; another client's ids answer 404 like missing ones",
    withApp(async (app) => {
      const { id } = await create(app)
      const other = await otherJwt()
      const missing = "00000000-0000-4000-8000-00000000abcd"
      for (const target of [id, missing, "not-a-uuid"]) {
        const jwt = target === id ? other : undefined
        const expected = { status: 404, body: { error: "webhook endpoint not found" } }
        expect(await call(app, "PATCH", `/api/webhooks/${target}`, { enabled: false }, jwt)).toEqual(expected)
        expect(await call(app, "DELETE", `/api/webhooks/${target}`, undefined, jwt)).toEqual(expected)
        expect(await call(app, "POST", `/api/webhooks/${target}/rotate-secret`, undefined, jwt)).toEqual(expected)
        expect(await call(app, "GET", `/api/webhooks/${target}/deliveries`, undefined, jwt)).toEqual(expected)
        expect(
          await call(app, "POST", `/api/webhooks/${target}/deliveries/${missing}/redeliver`, undefined, jwt)
        ).toEqual(expected)
      }
      expect((await call(app, "GET", "/api/webhooks", undefined, other)).body).toEqual({ webhooks: [] })

      const patched = await call(app, "PATCH", `/api/webhooks/${id}`, {
        events: ["extraction.failed"],
        enabled: false
      })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({ id, events: ["extraction.failed"], enabled: false, url: PUBLIC_URL })
      expect((await call(app, "PATCH", `/api/webhooks/${id}`, { url: "https://192.168.0.2/x" })).status).toBe(400)
      expect((await call(app, "PATCH", `/api/webhooks/${id}`, { events: [] })).status).toBe(400)
      expect((await call(app, "PATCH", `/api/webhooks/${id}`, { enabled: "yes" })).status).toBe(400)

      const rotated = await call(app, "POST", `/api/webhooks/${id}/rotate-secret`)
      expect(rotated).toEqual({
        status: 200,
        body: { secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) }
      })
      const overlap =
        Date.parse((rotated.body as { previous_secret_expires_at: string }).previous_secret_expires_at) - Date.now()
      expect(overlap).toBeGreaterThan(23 * 3600_000)
      expect(overlap).toBeLessThanOrEqual(24 * 3600_000)

      expect(await call(app, "GET", `/api/webhooks/${id}/deliveries`)).toEqual({
        status: 200,
        body: { deliveries: [] }
      })
      for (const limit of ["0", "101", "abc", "-1", "1.5"]) {
        const bad = await call(app, "GET", `/api/webhooks/${id}/deliveries?limit=${limit}`)
        expect(bad.status, limit).toBe(400)
        expect(bad.body).toEqual({ error: "limit must be an integer from 1 to 100" })
      }
      expect(await call(app, "DELETE", `/api/webhooks/${id}`)).toEqual({
        status: 200,
        body: { message: "webhook endpoint deleted" }
      })
      expect((await call(app, "DELETE", `/api/webhooks/${id}`)).status).toBe(404)
    })
  )

  it(
    "a PATCH of an extraction writes its event; redeliver finds it for the live endpoint only",
    withApp(async (app) => {
      const live = await create(app)
      const sandbox = await create(app, { url: PUBLIC_URL, sandbox: true })
      const done = putExtraction(app, Fixtures.completedExtraction())
      const switched = await app.fetch(`/v1/extractions/${done.id}/status`, {
        method: "PATCH",
        headers: apiKey(Fixtures.LIVE_KEY),
        body: JSON.stringify({ status: "incompleto", message: "revisar" })
      })
      expect(switched.status).toBe(200)
      const [event] = app.state.webhookEvents
      expect(event).toMatchObject({
        type: "extraction.status_changed",
        sandbox: false,
        data: { extraction_id: done.id, status: "incompleto", previous_status: "completado" }
      })
      expect(await call(app, "POST", `/api/webhooks/${live.id}/deliveries/${event!.id}/redeliver`)).toEqual({
        status: 202,
        body: { message: "redelivery scheduled" }
      })
      expect(await call(app, "POST", `/api/webhooks/${sandbox.id}/deliveries/${event!.id}/redeliver`)).toEqual({
        status: 404,
        body: { error: "event not found for this endpoint" }
      })
    })
  )
})
