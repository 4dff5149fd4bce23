/**
 * The endpoint fuzz test: seeded fast-check properties over the public endpoints of the BUILT api on PostgreSQL —
 * random and mutated JSON bodies (submit, status switch, key creation), random headers (content type, credentials),
 * random query strings on the list (`%`, `_`, quotes, NUL, 10,000 characters, bad numbers and dates) and random
 * path ids. Every answer must come within the deadline, never be a 5xx, and have the spec's shape: errors exactly
 * `{error: string}` (`{msg: string}` for a 401 of the JWT routes, `{error, limit, used}` for a 402) and every 2xx
 * body decoding strictly (no unknown member) with the contract's schemas.
 */
import { Api } from "@legible/adapters-http"
import { Extraction, ListQuery } from "@legible/core"
import { Exit, Schema } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Json, SAMPLE_PDF, seedSkill, token } from "../test/support/http.js"
import { figure, rawRequest, type Stack, startStack } from "./support/ab.js"

/** Longest time an answer may take (generous: 2 cores are shared with other suites). */
const DEADLINE_MS = 10_000
const SEED = 7_2026

interface Outcome {
  readonly status: number
  readonly ms: number
  readonly contentType: string
  readonly text: string
  readonly headers: Headers
}

/** Whether `value` is an object with exactly these members of these JS types. */
const exactly = (value: unknown, members: Record<string, "string" | "integer">): boolean => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false
  const keys = Object.keys(value)
  if (keys.length !== Object.keys(members).length) return false
  return Object.entries(members).every(([name, type]) => {
    const member = (value as Json)[name]
    return type === "string" ? typeof member === "string" : Number.isInteger(member)
  })
}

const strict = { onExcessProperty: "error" } as const

/** Why an answer breaks the spec (undefined when it is fine). */
const violation = (route: Route, outcome: Outcome): string | undefined => {
  if (outcome.ms > DEADLINE_MS) return `took ${outcome.ms} ms`
  if (outcome.status >= 500) return `status ${outcome.status}`
  if (outcome.status === 200 && route === "document") {
    if (!(outcome.headers.get("content-disposition") ?? "").startsWith("attachment")) return "no attachment"
    return outcome.headers.get("x-content-type-options") === "nosniff" ? undefined : "no nosniff"
  }
  let body: unknown
  try {
    body = JSON.parse(outcome.text)
  } catch {
    return `not JSON: ${outcome.text.slice(0, 100)}`
  }
  if (!outcome.contentType.startsWith("application/json")) return `content-type ${outcome.contentType}`
  if (outcome.status >= 400) {
    if (outcome.status === 401 && route.startsWith("keys"))
      return exactly(body, { msg: "string" }) ? undefined : "401 not {msg}"
    if (outcome.status === 402) {
      return exactly(body, { error: "string", limit: "integer", used: "integer" }) ? undefined : "402 shape"
    }
    return exactly(body, { error: "string" }) ? undefined : `${outcome.status} not {error}`
  }
  const schema = SUCCESS[route]
  const decoded = Schema.decodeUnknownExit(schema as Schema.Codec<unknown, unknown>, strict)(body)
  return Exit.isSuccess(decoded) ? undefined : `${outcome.status} body breaks the schema: ${String(decoded.cause)}`
}

type Route = "submit" | "list" | "read" | "detailed" | "document" | "status" | "keysCreate" | "keysList" | "keysRevoke"

const SUCCESS: Record<Route, unknown> = {
  submit: Api.SubmitResponse,
  list: Api.ListResponse,
  read: Extraction.Extraction,
  detailed: Extraction.DetailedExtraction,
  document: undefined,
  status: Api.StatusResponse,
  keysCreate: Api.CreateKeyResponse,
  keysList: Api.KeyListResponse,
  keysRevoke: Api.MessageResponse
}

/** Hostile strings: SQL LIKE metacharacters, quotes, NUL, control characters, very long, non-Latin. */
const hostile = fc.constantFrom(
  "%",
  "_",
  "%_%",
  "'",
  '"',
  "\\",
  "'; DROP TABLE extractions; --",
  "\u0000",
  "a\u0000b",
  "\r\n",
  "x".repeat(10_000),
  "ñandú 北京 🧾",
  "../../etc/passwd",
  "%00",
  "NaN",
  "-1",
  "0",
  "1e3",
  "99999999999999999999",
  "2024-02-30",
  "2024-13-01",
  "2024-1-1",
  "01/02/2024",
  "",
  " ",
  "null",
  "true"
)
const anyText = fc.oneof(hostile, fc.string({ maxLength: 40 }), fc.string({ unit: "grapheme", maxLength: 20 }))

describe("fuzz: the public endpoints never answer 5xx, never hang, never break the spec's shapes", () => {
  let stack: Stack
  const jwt = token({ sub: "fuzz", clientId: "client-fuzz", name: "Fuzz" })
  const keys = { live: "", test: "" }
  const ids: Array<string> = []
  const keyIds: Array<string> = []
  let requests = 0
  const durations: Array<number> = []
  /** How often each route answered each status: the fuzz must reach the successes and the refusals alike. */
  const seen = new Map<string, number>()

  beforeAll(async () => {
    stack = await startStack({ worker: true, env: { LEGIBLE_MAX_ATTEMPTS: "1" } })
    for (const tipo of ["live", "test"] as const) {
      const reply = await stack.api.jwt("POST", "/api/api-keys/", jwt, { nombre: `fuzz ${tipo}`, tipo })
      keys[tipo] = ((reply.body as Json).api_key as Json).key as string
      keyIds.push(((reply.body as Json).api_key as Json).id as string)
    }
    await seedSkill(stack.api, jwt)
    ids.push(await stack.api.submit(keys.live, SAMPLE_PDF, 'fuzz "1"; ñ.pdf', { model: "local" }))
    ids.push(await stack.api.submit(keys.live, SAMPLE_PDF, "second.pdf", { model: "local" }))
    for (const id of ids) await stack.api.awaitFinal(keys.live, id, 120_000)
    ids.push(await stack.api.submit(keys.test, SAMPLE_PDF, "sandbox.pdf"))
    await stack.api.awaitFinal(keys.test, ids[2]!, 120_000)
    // The fuzzed submissions stay queued: no worker competes with the api for the 2 cores.
    await stack.worker?.stop("SIGKILL")
    stack.worker = undefined
  })
  afterAll(async () => {
    await stack?.stop()
  })

  const send = async (
    route: Route,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string
  ): Promise<void> => {
    const started = performance.now()
    let outcome: Outcome
    try {
      const response = await fetch(`${stack.server.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(DEADLINE_MS + 1000)
      })
      const text = await response.text()
      outcome = {
        status: response.status,
        ms: performance.now() - started,
        contentType: response.headers.get("content-type") ?? "",
        text,
        headers: response.headers
      }
    } catch (error) {
      throw new Error(`${method} ${path.slice(0, 200)}: no answer (${String(error)})`)
    }
    requests++
    durations.push(outcome.ms)
    seen.set(`${route} ${outcome.status}`, (seen.get(`${route} ${outcome.status}`) ?? 0) + 1)
    const wrong = violation(route, outcome)
    if (wrong !== undefined) {
      throw new Error(
        `${method} ${path.slice(0, 300)} ${JSON.stringify(headers).slice(0, 300)} ${String(body).slice(0, 300)} → ` +
          `${wrong}; body ${outcome.text.slice(0, 300)}`
      )
    }
  }

  /** Header sets: the real credential, none, the other world's, or junk; content types real and odd. */
  const apiKeyHeader = fc.oneof(
    { weight: 6, arbitrary: fc.constant({ "x-api-key": "<live>" }) },
    { weight: 1, arbitrary: fc.constant({ "x-api-key": "<test>" }) },
    { weight: 1, arbitrary: fc.constant({}) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 })
        .map((k) => ({ "x-api-key": k }))
    }
  )
  const contentType = fc.oneof(
    { weight: 6, arbitrary: fc.constant("application/json") },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        "application/json; charset=utf-8",
        "APPLICATION/JSON",
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=latin1",
        "text/csv",
        "*/*",
        ";;;"
      )
    },
    { weight: 1, arbitrary: fc.constant(undefined) }
  )
  const withKey = (h: Record<string, string>) => {
    const out: Record<string, string> = {}
    for (const [name, value] of Object.entries(h)) {
      out[name] = value === "<live>" ? keys.live : value === "<test>" ? keys.test : value
    }
    return out
  }
  /** A JSON text, or a broken one. */
  const render = (value: unknown, mode: number): string => {
    const text = JSON.stringify(value) ?? "null"
    switch (mode % 6) {
      case 4:
        return text.slice(0, Math.max(0, Math.floor(text.length / 2)))
      case 5:
        return `${text}}`
      default:
        return text
    }
  }

  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")
  const fileBase64 = fc.oneof(
    { weight: 4, arbitrary: fc.constant(b64(SAMPLE_PDF)) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        "",
        "====",
        `data:application/pdf;base64,${b64(SAMPLE_PDF)}`,
        b64(SAMPLE_PDF).slice(0, 101),
        b64(SAMPLE_PDF).replace(/A/g, "*"),
        `${b64(SAMPLE_PDF)}===`,
        b64(Buffer.from("<html><body>hi</body></html>")),
        b64(Buffer.from("PK\u0003\u0004rest of a zip")),
        b64(Buffer.from("MZ\u0090\u0000an exe")),
        "%PDF-1.7",
        b64(SAMPLE_PDF.subarray(0, 300))
      )
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.nat({ max: SAMPLE_PDF.byteLength - 1 }), fc.integer({ min: 1, max: 255 }))
        .map(([at, xor]) => {
          const copy = Uint8Array.from(SAMPLE_PDF)
          copy[at] = copy[at]! ^ xor
          return b64(copy)
        })
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map(b64) },
    { weight: 1, arbitrary: anyText }
  )
  const member = <A>(valid: fc.Arbitrary<A>) =>
    fc.oneof(
      { weight: 12, arbitrary: valid.map((v) => ({ present: true, value: v as unknown })) },
      { weight: 1, arbitrary: fc.constant({ present: false, value: undefined as unknown }) },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ present: true, value: v as unknown })) }
    )
  const object = (members: Record<string, { present: boolean; value: unknown }>, extra: Json) => {
    const out: Json = {}
    for (const [name, m] of Object.entries(members)) if (m.present) out[name] = m.value
    return { ...out, ...extra }
  }
  const extraMembers = fc.oneof(
    { weight: 4, arbitrary: fc.constant({}) },
    { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }) }
  )

  it("fuzz POST /v1/extractions: 600 random and mutated bodies, content types and keys → no 5xx, spec shapes", async () => {
    const body = fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .tuple(
            fc.record({
              file_name: member(
                fc.oneof({ weight: 4, arbitrary: fc.constant("factura.pdf") }, { weight: 1, arbitrary: anyText })
              ),
              skill: member(
                fc.oneof({ weight: 4, arbitrary: fc.constant("factura-es") }, { weight: 1, arbitrary: anyText })
              ),
              file_base64: member(fileBase64),
              model: member(fc.constantFrom("local", "gpt-4o-mini", "claude-sonnet-4-5", "o1", null, "x".repeat(300))),
              extraction_mode: member(
                fc.constantFrom("ocr_pdf", "ocr_pipeline_md", "ocr_only", "pdf_only", "OCR", null)
              )
            }),
            extraMembers
          )
          .map(([members, extra]) => object(members, extra))
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }
    )
    await fc.assert(
      fc.asyncProperty(body, fc.nat(), contentType, apiKeyHeader, async (value, mode, type, key) => {
        const headers = { ...withKey(key), ...(type === undefined ? {} : { "content-type": type }) }
        await send("submit", "POST", "/v1/extractions", headers, render(value, mode))
      }),
      { seed: SEED, numRuns: 600, endOnFailure: true }
    )
  })

  it("fuzz PATCH /v1/extractions/{id}/status: 300 random bodies, ids and client_id → no 5xx, spec shapes", async () => {
    const id = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...[0, 1, 2].map((i) => `<id${i}>`)) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: anyText.map((t) => encodeURIComponent(t) || "x") }
    )
    const body = fc
      .tuple(
        fc.record({
          status: member(fc.constantFrom("completado", "incompleto", "error", "en cola", "procesando", "COMPLETADO")),
          message: member(fc.oneof(anyText, fc.constant(null)))
        }),
        extraMembers
      )
      .map(([members, extra]) => object(members, extra))
    const clientId = fc.option(fc.oneof(fc.constantFrom("client-fuzz", "client-other"), anyText), { nil: undefined })
    await fc.assert(
      fc.asyncProperty(
        id,
        body,
        fc.nat(),
        contentType,
        apiKeyHeader,
        clientId,
        async (raw, value, mode, type, key, client) => {
          const target = raw.replace(/^<id(\d)>$/, (_m, i: string) => ids[Number(i)]!)
          const query = client === undefined ? "" : `?client_id=${encodeURIComponent(client)}`
          const headers = { ...withKey(key), ...(type === undefined ? {} : { "content-type": type }) }
          await send("status", "PATCH", `/v1/extractions/${target}/status${query}`, headers, render(value, mode))
        }
      ),
      { seed: SEED, numRuns: 300, endOnFailure: true }
    )
  })

  it("fuzz POST/GET/DELETE /api/api-keys/: 300 random bodies, tokens and ids → no 5xx, 401 {msg}, spec shapes", async () => {
    const auth = fc.oneof(
      { weight: 4, arbitrary: fc.constant(`Bearer ${jwt}`) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          "",
          "Bearer",
          "Bearer ",
          `bearer ${jwt}`,
          `Basic ${jwt}`,
          `Bearer ${jwt} extra`,
          `Bearer ${jwt.slice(0, -3)}`,
          `Bearer ${"a".repeat(10_000)}`,
          "Bearer a.b.c"
        )
      },
      {
        weight: 1,
        arbitrary: fc.string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          maxLength: 60
        })
      }
    )
    const body = fc
      .tuple(
        fc.record({
          nombre: member(fc.oneof(fc.constant("clave"), anyText)),
          tipo: member(fc.constantFrom("live", "test", "LIVE", "prod", null))
        }),
        extraMembers
      )
      .map(([members, extra]) => object(members, extra))
    const op = fc.constantFrom("create", "create", "list", "revoke")
    // Never a real key id: revoking the fuzz client's own key would turn every later /v1 call into a 401.
    const revokeId = fc.oneof(
      fc.uuid(),
      anyText.map((t) => encodeURIComponent(t) || "x")
    )
    await fc.assert(
      fc.asyncProperty(
        op,
        body,
        fc.nat(),
        contentType,
        auth,
        revokeId,
        async (which, value, mode, type, authorization, rawId) => {
          const headers: Record<string, string> = authorization.trim() === "" ? {} : { authorization }
          if (which === "create") {
            if (type !== undefined) headers["content-type"] = type
            await send("keysCreate", "POST", "/api/api-keys/", headers, render(value, mode))
          } else if (which === "list") {
            await send("keysList", "GET", "/api/api-keys/", headers)
          } else {
            await send("keysRevoke", "DELETE", `/api/api-keys/${rawId}`, headers)
          }
        }
      ),
      { seed: SEED, numRuns: 300, endOnFailure: true }
    )
  })

  it("fuzz GET /v1/extractions: 600 random query strings (%, _, quotes, NUL, 10,000 chars, bad limit/dates/sort) → 200 or 400 {error}", async () => {
    const names = fc.constantFrom(...ListQuery.PARAMETERS, "unknown", "search[]", "limit")
    const values = fc.oneof(
      fc.constantFrom(
        "completado",
        "en cola,procesando",
        "completado,,error",
        "2024-01-01",
        "2999-12-31",
        "fecha_creacion",
        "status",
        "origin_name",
        "asc",
        "desc",
        "true",
        "false",
        "10",
        "500",
        "501",
        "factura-es",
        "fuzz",
        "ñ"
      ),
      hostile,
      fc.integer({ min: -10, max: 1000 }).map(String),
      fc.string({ maxLength: 30 })
    )
    const query = fc.array(fc.tuple(names, values), { maxLength: 6 })
    const encoding = fc.constantFrom("component", "raw-safe")
    await fc.assert(
      fc.asyncProperty(query, encoding, apiKeyHeader, async (pairs, how, key) => {
        const encode = (s: string) =>
          how === "component" ? encodeURIComponent(s) : encodeURIComponent(s).replace(/%2C/g, ",").replace(/%20/g, "+")
        const qs = pairs.map(([n, v]) => `${encode(n)}=${encode(v)}`).join("&")
        await send("list", "GET", `/v1/extractions${qs.length > 0 ? `?${qs}` : ""}`, withKey(key))
      }),
      { seed: SEED, numRuns: 600, endOnFailure: true }
    )
  })

  it("fuzz GET /v1/extractions/{id}[/detailed|/document]: 400 random path ids → 200 with the spec's shape or 404/400 {error}", async () => {
    const id = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...[0, 1, 2].map((i) => `<id${i}>`)) },
      { weight: 2, arbitrary: fc.uuid({ version: [1, 4, 7] }) },
      { weight: 1, arbitrary: fc.uuid().map((u) => u.toUpperCase()) },
      {
        weight: 3,
        arbitrary: anyText.map((t) => encodeURIComponent(t)).filter((t) => t.length > 0 && t !== "." && t !== "..")
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom("%2e%2e", "%2F", "..%2F..%2Fetc%2Fpasswd", "%00", "%ZZ", "%", "null", "0")
      }
    )
    const suffix = fc.constantFrom(
      { route: "read" as const, path: "" },
      { route: "detailed" as const, path: "/detailed" },
      { route: "document" as const, path: "/document" }
    )
    await fc.assert(
      fc.asyncProperty(id, suffix, apiKeyHeader, async (raw, which, key) => {
        const target = raw.replace(/^<id(\d)>$/, (_m, i: string) => ids[Number(i)]!)
        await send(which.route, "GET", `/v1/extractions/${target}${which.path}`, withKey(key))
      }),
      { seed: SEED, numRuns: 400, endOnFailure: true }
    )
    // Every route was driven both into its success and into its refusals.
    for (const reached of [
      "submit 202",
      "submit 400",
      "submit 401",
      "submit 404",
      "submit 415",
      "status 200",
      "status 400",
      "status 401",
      "status 404",
      "keysCreate 201",
      "keysCreate 400",
      "keysCreate 401",
      "keysList 200",
      "keysRevoke 404",
      "list 200",
      "list 400",
      "list 401",
      "read 200",
      "read 404",
      "detailed 200",
      "document 200"
    ]) {
      expect({ reached, count: (seen.get(reached) ?? 0) > 0 }).toEqual({ reached, count: true })
    }
    const statuses = [...seen.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}×${n}`)
    figure(
      "fuzz",
      `${requests} fuzzed requests (seed ${SEED}) → 0 × 5xx, 0 over ${DEADLINE_MS} ms (slowest ` +
        `${Math.max(...durations).toFixed(0)} ms), 0 shape violations; ${statuses.join(", ")}`
    )
    expect(requests).toBe(2200)
  })

  it("fuzz raw HTTP/1.1 (methods, paths, duplicated and odd headers, wrong Content-Length, chunked bodies) over a socket: 300 requests → no 5xx, no hang", async () => {
    const method = fc.constantFrom("GET", "POST", "PATCH", "PUT", "DELETE", "OPTIONS", "HEAD", "TRACE", "get", "BREW")
    const path = fc.constantFrom(
      "/v1/extractions",
      "/v1/extractions/",
      "/v1/extractions?limit=1&limit=2",
      "/v1//extractions",
      "/v1/extractions/%ZZ",
      "/v1/extractions/<id0>/status",
      "/v1/extractions/<id0>/document",
      "/api/api-keys",
      "/api/api-keys/",
      "/api/api-keys/../api-keys/",
      "/api/quotas/client-fuzz",
      "/openapi.json",
      "/healthz",
      "/readyz",
      "/nope",
      "*",
      "http://evil.test/v1/extractions",
      `/v1/extractions?search=${"%25".repeat(3000)}`
    )
    const header = fc.oneof(
      fc.constantFrom(
        "x-api-key: <live>",
        "x-api-key: <live>",
        "x-api-key: <test>",
        "authorization: Bearer <jwt>",
        "authorization: Bearer <jwt>",
        "content-type: application/json",
        "content-type: application/json",
        "content-type: text/plain",
        "content-type: application/json; charset=utf-16",
        "content-encoding: gzip",
        "transfer-encoding: gzip",
        "expect: 100-continue",
        "accept: text/html",
        "accept-encoding: br, gzip",
        "range: bytes=0-10",
        "if-none-match: *",
        "x-request-id: ../../etc",
        `x-request-id: ${"r".repeat(500)}`,
        "x-forwarded-for: 127.0.0.1, 10.0.0.1",
        "host: evil.test",
        "origin: https://evil.test"
      ),
      fc
        .tuple(
          fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
          fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 100 })
        )
        .map(([name, value]) => `${name}: ${value}`)
    )
    const body = fc.oneof(
      fc.constant(""),
      fc.constant(JSON.stringify({ file_name: "a.pdf", skill: "factura-es", file_base64: b64(SAMPLE_PDF) })),
      fc.constant(JSON.stringify({ status: "incompleto" })),
      fc.constant(JSON.stringify({ nombre: "raw" })),
      fc.json({ maxDepth: 2 })
    )
    const framing = fc.constantFrom("exact", "exact", "short", "chunked", "bad-chunked")
    let answered = 0
    const rawStatuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(
        method,
        path,
        fc.array(header, { maxLength: 6 }),
        body,
        framing,
        async (m, rawPath, hs, text, frame) => {
          const target = rawPath.replace("<id0>", ids[0]!)
          const lines = hs.map((h) => h.replace("<live>", keys.live).replace("<test>", keys.test).replace("<jwt>", jwt))
          const bytes = Buffer.from(text, "utf8")
          let head = [`${m} ${target} HTTP/1.1`, "Host: 127.0.0.1", ...lines]
          let payload = bytes
          if (frame === "short") head = [...head, `Content-Length: ${Math.max(0, bytes.byteLength - 3)}`]
          if (frame === "chunked" || frame === "bad-chunked") {
            head = [...head, "Transfer-Encoding: chunked"]
            const size = frame === "chunked" ? bytes.byteLength.toString(16) : "zz"
            payload = Buffer.concat([Buffer.from(`${size}\r\n`), bytes, Buffer.from("\r\n0\r\n\r\n")])
          }
          const started = performance.now()
          const reply = await rawRequest(stack.server.url, head, payload, DEADLINE_MS, frame === "exact").catch(
            (error: unknown) => {
              throw new Error(`${m} ${target} ${JSON.stringify(lines)} ${frame}: ${String(error)}`)
            }
          )
          const ms = performance.now() - started
          answered++
          requests++
          rawStatuses.set(reply.status, (rawStatuses.get(reply.status) ?? 0) + 1)
          if (reply.status >= 500 || ms > DEADLINE_MS) {
            throw new Error(
              `${m} ${target} ${JSON.stringify(lines)} ${frame} → ${reply.status} in ${ms} ms: ${reply.body}`
            )
          }
        }
      ),
      { seed: SEED, numRuns: 300, endOnFailure: true }
    )
    const spread = [...rawStatuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`)
    // The raw requests reach the application (successes and its refusals), not only Node's parser.
    expect({ spread, reached: [200, 401, 404].every((status) => rawStatuses.has(status)) }).toEqual({
      spread,
      reached: true
    })
    figure("fuzz", `${answered} raw HTTP/1.1 requests → 0 × 5xx, 0 hangs; ${spread.join(", ")}`)
  })

  it("fuzz hostile JSON texts (deep nesting, __proto__, duplicate members, huge numbers, lone surrogates, BOM) on every JSON endpoint → no 5xx, spec shapes", async () => {
    const valid = JSON.stringify({ file_name: "a.pdf", skill: "factura-es", file_base64: b64(SAMPLE_PDF) })
    const texts = [
      "[".repeat(200_000) + "]".repeat(200_000),
      `{"a":${"[".repeat(50_000)}${"]".repeat(50_000)}}`,
      '{"__proto__":{"status":"completado","nombre":"x"},"constructor":{"prototype":{"x":1}}}',
      '{"status":"completado","status":"error"}',
      `{"nombre":"a","nombre":${"1".repeat(400)}}`,
      '{"nombre":1e999999,"status":-0,"file_name":1e-999999}',
      '{"nombre":"\\ud800","message":"\\udfff","file_name":"\\ud800.pdf","skill":"factura-es"}',
      `\ufeff${valid}`,
      `${valid.slice(0, -1)},"file_name":"b.pdf"}`,
      `{"file_name":"${"n".repeat(1_000_000)}","skill":"factura-es","file_base64":"${b64(SAMPLE_PDF)}"}`,
      `{"file_name":"a.pdf","skill":"factura-es","file_base64":"${"A".repeat(1_500_000)}"}`,
      "\u0000",
      "",
      "null",
      "[]",
      '"string"',
      "1",
      "{",
      '{"a":"\\x"}',
      "\xff\xfe"
    ]
    const targets = [
      { route: "submit" as const, method: "POST", path: "/v1/extractions", auth: { "x-api-key": keys.live } },
      {
        route: "status" as const,
        method: "PATCH",
        path: `/v1/extractions/${ids[0]}/status`,
        auth: { "x-api-key": keys.live }
      },
      { route: "keysCreate" as const, method: "POST", path: "/api/api-keys/", auth: { authorization: `Bearer ${jwt}` } }
    ]
    for (const target of targets) {
      for (const text of texts) {
        await send(
          target.route,
          target.method,
          target.path,
          { ...target.auth, "content-type": "application/json" },
          text
        )
      }
    }
    figure("fuzz", `${texts.length} hostile JSON texts × ${targets.length} endpoints → 0 × 5xx, 0 shape violations`)
  })

  it("fuzz oracle: the shape check refuses a 5xx, a slow answer, an extra member, a 401 {error} on a JWT route and a bad 2xx", () => {
    const outcome = (status: number, body: unknown, ms = 5): Outcome => ({
      status,
      ms,
      contentType: "application/json",
      text: JSON.stringify(body),
      headers: new Headers()
    })
    expect(violation("list", outcome(500, { error: "internal error" }))).toBeDefined()
    expect(violation("list", outcome(200, { extractions: [], count: 0 }, DEADLINE_MS + 1))).toBeDefined()
    expect(violation("list", outcome(400, { error: "bad", detail: "x" }))).toBeDefined()
    expect(violation("keysList", outcome(401, { error: "no" }))).toBeDefined()
    expect(violation("list", outcome(200, { extractions: [], count: 0, extra: 1 }))).toBeDefined()
    expect(violation("submit", outcome(202, { extraction_id: 7 }))).toBeDefined()
    expect(violation("list", outcome(200, { extractions: [], count: 0 }))).toBeUndefined()
    expect(violation("keysList", outcome(401, { msg: "no" }))).toBeUndefined()
    expect(violation("submit", outcome(402, { error: "quota", limit: 5, used: 5 }))).toBeUndefined()
  })
})
