import { describe, expect, it } from "@effect/vitest"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import { apiKey, base64, bearer, read, SAMPLES, submission, token, withApp } from "./support.js"

describe("error bodies", () => {
  it(
    "answers unknown routes and wrong methods with 404 {error}, and a non-JSON body with 415 {error}",
    withApp(async (app) => {
      for (const [path, method] of [
        ["/nope", "GET"],
        ["/v1", "GET"],
        ["/v1/extractions", "PUT"],
        ["/v1/extractions", "DELETE"],
        ["/api/api-keys/", "PATCH"]
      ] as const) {
        const response = await app.fetch(path, { method })
        expect(await read(response), `${method} ${path}`).toEqual({ status: 404, body: { error: "not found" } })
        expect(response.headers.get("content-type")).toBe("application/json")
      }
      const text = await app.fetch("/v1/extractions", {
        method: "POST",
        headers: { "x-api-key": Fixtures.LIVE_KEY, "content-type": "text/plain" },
        body: submission()
      })
      expect(await read(text)).toEqual({ status: 415, body: { error: expect.stringContaining("application/json") } })
    })
  )

  it(
    "answers malformed API keys with 401 {error}: empty, 16 KB, non-ASCII, duplicated, well-formed but unknown",
    withApp(async (app) => {
      const duplicated = new Headers()
      duplicated.append("x-api-key", Fixtures.LIVE_KEY)
      duplicated.append("x-api-key", Fixtures.LIVE_KEY)
      const cases: Record<string, Headers | Record<string, string>> = {
        missing: {},
        empty: { "x-api-key": "" },
        huge: { "x-api-key": `pk_live_${"A".repeat(16 * 1024)}` },
        latin1: { "x-api-key": `pk_live_${"ñ".repeat(43)}` },
        duplicated,
        unknown: { "x-api-key": `pk_live_${"Z".repeat(43)}` },
        wrongPrefix: { "x-api-key": Fixtures.LIVE_KEY.replace("pk_live_", "sk_live_") },
        bearerInstead: { authorization: `Bearer ${Fixtures.LIVE_KEY}` }
      }
      for (const [name, headers] of Object.entries(cases)) {
        const result = await read(await app.fetch("/v1/extractions", { headers }))
        expect(result.status, name).toBe(401)
        expect(result.body, name).toEqual({ error: expect.stringMatching(/API key/) })
      }
    })
  )
})

describe("text the database could not store", () => {
  it(
    "refuses NUL characters and lone surrogates in stored strings with 400 {error}, never a 500",
    withApp(async (app) => {
      const jwt = bearer(await token())
      const cases: ReadonlyArray<readonly [string, string, string, Record<string, string>]> = [
        ["POST", "/api/api-keys/", JSON.stringify({ nombre: "a\u0000b" }), jwt],
        ["POST", "/api/api-keys/", JSON.stringify({ nombre: "a\ud800b" }), jwt],
        ["POST", "/v1/extractions", submission({ skill: "factura\u0000" }), apiKey(Fixtures.LIVE_KEY)],
        ["POST", "/v1/extractions", submission({ model: "\udc00" }), apiKey(Fixtures.LIVE_KEY)],
        ["POST", "/api/skills", JSON.stringify({ slug: "x", name: "n\u0000", fields: [] }), jwt],
        ["POST", "/api/catalogs", JSON.stringify({ name: "C", columns: ["a\ud800"] }), jwt],
        ["POST", `/api/catalogs/${Fixtures.ids.catalog}/records`, JSON.stringify([{ cif: "B\u0000" }]), jwt]
      ]
      for (const [method, path, body, headers] of cases) {
        const result = await read(await app.fetch(path, { method, headers, body }))
        expect(result.status, `${path} ${body.slice(0, 60)}`).toBe(400)
        expect(result.body).toEqual({ error: expect.stringMatching(/NUL|well-formed/) })
      }
      const query = await read(
        await app.fetch("/v1/extractions?habilidad_slug=a%00b", { headers: apiKey(Fixtures.LIVE_KEY) })
      )
      expect(query).toEqual({ status: 400, body: { error: expect.stringContaining("NUL") } })
      for (const path of ["/api/skills/a%00b", "/api/skills/%F0%9F%98%80", "/api/skills/Upper"]) {
        expect((await app.fetch(path, { headers: jwt })).status, path).toBe(404)
      }
      const nonSlug = await read(
        await app.fetch("/v1/extractions", {
          method: "POST",
          headers: apiKey(Fixtures.LIVE_KEY),
          body: submission({ skill: "Factura ES" })
        })
      )
      expect(nonSlug).toEqual({ status: 404, body: { error: "skill 'Factura ES' not found" } })
    })
  )
})

describe("request ids and logs", () => {
  it(
    "echoes a well-formed x-request-id, replaces a malformed one, and logs one structured line per request",
    withApp(async (app) => {
      const given = await app.fetch("/healthz", { headers: { "x-request-id": "req-42.abc:def_9" } })
      expect(given.headers.get("x-request-id")).toBe("req-42.abc:def_9")
      for (const bad of ["has space", "x".repeat(129), "semi;colon", "ünicode"]) {
        const response = await app.fetch("/healthz", { headers: { "x-request-id": bad } })
        expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      }
      const generated = (await app.fetch("/nope")).headers.get("x-request-id")
      expect(generated).toMatch(/^[0-9a-f-]{36}$/)
      const lines = app.logs.map((l) => JSON.parse(l) as { message: unknown; annotations: Record<string, unknown> })
      const line = lines.find((l) => l.annotations.request_id === "req-42.abc:def_9")
      expect(line?.annotations).toMatchObject({ method: "GET", path: "/healthz", status: 200 })
      expect(line?.annotations.duration_ms).toEqual(expect.any(Number))
      expect(lines.find((l) => l.annotations.request_id === generated)?.annotations.status).toBe(404)
    })
  )

  it(
    "never logs a key, a token, a query value or a document byte",
    withApp(async (app) => {
      const jwt = await token()
      const created = (await (
        await app.fetch("/api/api-keys/", { method: "POST", headers: bearer(jwt), body: '{"nombre":"x"}' })
      ).json()) as { api_key: { key: string } }
      const document = base64(SAMPLES.png)
      await app.fetch("/v1/extractions", {
        method: "POST",
        headers: apiKey(created.api_key.key),
        body: submission({ file_base64: document })
      })
      await app.fetch("/v1/extractions?search=top-secret-search", { headers: apiKey(Fixtures.LIVE_KEY) })
      await app.fetch("/v1/extractions", { headers: apiKey(`pk_live_${"Q".repeat(43)}`) })
      await app.fetch("/api/api-keys/", { headers: bearer(`${jwt}x`) })
      const all = app.logs.join("\n")
      expect(app.logs.length).toBeGreaterThanOrEqual(5)
      for (const secret of [
        jwt,
        jwt.split(".")[2]!,
        created.api_key.key,
        Fixtures.LIVE_KEY,
        "Q".repeat(43),
        "top-secret-search",
        document
      ]) {
        expect(all).not.toContain(secret)
      }
      expect(all).toContain('"path":"/v1/extractions"')
    })
  )
})

describe("body limit (in process)", () => {
  const limit = 64 * 1024

  it(
    "refuses a declared Content-Length above the limit with 413 {error} before reading anything",
    withApp(
      async (app) => {
        let pulled = 0
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled++
            controller.enqueue(new Uint8Array(1024))
          }
        })
        const response = await app.fetch(
          new Request("http://legible.test/v1/extractions", {
            method: "POST",
            headers: { ...apiKey(Fixtures.LIVE_KEY), "content-length": String(limit + 1) },
            body,
            duplex: "half"
          } as RequestInit)
        )
        expect(await read(response)).toEqual({
          status: 413,
          body: { error: `the request body exceeds the limit of ${limit} bytes` }
        })
        expect(response.headers.get("connection")).toBe("close")
        expect(pulled).toBeLessThanOrEqual(1)
      },
      { options: { bodyLimit: limit } }
    )
  )

  it(
    "cuts a streamed body off once it passes the limit: 413 {error}, the rest never read",
    withApp(
      async (app) => {
        let sent = 0
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            sent += 8192
            if (sent > 10 * limit) controller.close()
            else controller.enqueue(new TextEncoder().encode("A".repeat(8192)))
          }
        })
        const response = await app.fetch(
          new Request("http://legible.test/v1/extractions", {
            method: "POST",
            headers: apiKey(Fixtures.LIVE_KEY),
            body,
            duplex: "half"
          } as RequestInit)
        )
        expect(await read(response)).toEqual({ status: 413, body: { error: expect.stringContaining("limit") } })
        expect(sent).toBeLessThan(4 * limit)
        expect(app.state.extractions.size).toBe(0)
      },
      { options: { bodyLimit: limit } }
    )
  )

  it(
    "accepts a body just under the limit",
    withApp(
      async (app) => {
        const padding = limit - submission().length - 100
        const response = await app.fetch("/v1/extractions", {
          method: "POST",
          headers: apiKey(Fixtures.LIVE_KEY),
          body: submission({ padding: "x".repeat(padding) })
        })
        expect(response.status).toBe(202)
      },
      { options: { bodyLimit: limit } }
    )
  )
})

describe("probes, OpenAPI and docs", () => {
  it(
    "answers /healthz with 200 and /readyz with 200 while the readiness check passes",
    withApp(async (app) => {
      expect(await read(await app.fetch("/healthz"))).toEqual({ status: 200, body: { status: "ok" } })
      expect(await read(await app.fetch("/readyz"))).toEqual({ status: 200, body: { status: "ready" } })
    })
  )

  it(
    "answers /readyz with 503 {error} when the check fails",
    withApp(
      async (app) => {
        expect(await read(await app.fetch("/readyz"))).toEqual({ status: 503, body: { error: expect.any(String) } })
        expect((await app.fetch("/healthz")).status).toBe(200)
      },
      { options: { readiness: Effect.fail("connection refused") } }
    )
  )

  it(
    "answers /readyz with 503 {error} when the check does not answer within the timeout",
    withApp(
      async (app) => {
        const started = Date.now()
        expect((await app.fetch("/readyz")).status).toBe(503)
        expect(Date.now() - started).toBeLessThan(2000)
      },
      { options: { readiness: Effect.never, readinessTimeout: "50 millis" } }
    )
  )

  it(
    "serves an OpenAPI 3.1 document with every path of the spec, the security schemes and tagged extensions",
    withApp(async (app) => {
      const spec = (await (await app.fetch("/openapi.json")).json()) as {
        openapi: string
        paths: Record<
          string,
          Record<string, { tags?: Array<string>; "x-legible-extension"?: boolean; responses: Record<string, unknown> }>
        >
        components: { securitySchemes: Record<string, { type: string; in?: string; name?: string; scheme?: string }> }
        tags: Array<{ name: string; description?: string }>
      }
      expect(spec.openapi).toMatch(/^3\.1/)
      const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`)
      )
      for (const op of [
        "POST /api/api-keys/",
        "GET /api/api-keys/",
        "DELETE /api/api-keys/{api_key_id}",
        "POST /v1/extractions",
        "GET /v1/extractions",
        "GET /v1/extractions/{extraction_id}",
        "GET /v1/extractions/{extraction_id}/detailed",
        "GET /v1/extractions/{extraction_id}/document",
        "PATCH /v1/extractions/{extraction_id}/status",
        "GET /healthz",
        "GET /readyz"
      ]) {
        expect(operations).toContain(op)
      }
      expect(Object.keys(spec.paths["/v1/extractions"]!.post!.responses).sort()).toEqual(
        ["202", "400", "401", "402", "404", "409", "413", "422", "500", "503"].sort()
      )
      expect(spec.paths["/v1/extractions"]!.post!["x-legible-extension"]).toBeUndefined()
      for (const path of [
        "/api/skills",
        "/api/catalogs",
        "/api/quotas/{client_id}",
        "/v1/extractions/{extraction_id}/archive",
        "/api/webhooks",
        "/api/webhooks/{webhook_id}/deliveries/{event_id}/redeliver",
        "/v1/extractions/{extraction_id}/pages/{page}"
      ]) {
        for (const operation of Object.values(spec.paths[path]!)) expect(operation["x-legible-extension"]).toBe(true)
      }
      expect(spec.tags.filter((t) => t.name.includes("(extension)")).length).toBe(6)
      expect(Object.values(spec.components.securitySchemes)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: "http", scheme: expect.stringMatching(/^bearer$/i) }),
          expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" })
        ])
      )
    })
  )

  it(
    "serves the docs page with its script inlined (no network needed)",
    withApp(async (app) => {
      const response = await app.fetch("/docs")
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toContain("text/html")
      const html = await response.text()
      expect(html).not.toMatch(/<script[^>]+src=["']https?:/)
    })
  )
})
