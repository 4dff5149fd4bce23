/**
 * RELIABILITY.md A1–A6 (API keys and JWT) against the BUILT server: `serve --role api` on a fresh PostgreSQL
 * database, over real sockets, with tokens minted here (HS256 with the tests' secret, issuer and audience enforced)
 * and, for A6's asymmetric case, a second api process verifying RS256 tokens from a JWKS served by this test.
 */
import { createHmac, generateKeyPairSync, type KeyObject, sign as rsaSign } from "node:crypto"
import { createServer, type Server as HttpServer } from "node:http"
import type { AddressInfo } from "node:net"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Jwt from "../src/Jwt.js"
import { client, type Json, type Reply } from "../test/support/http.js"
import { createDatabase } from "../test/support/postgres.js"
import { freePort, launch, SECRET, startServer, tempDir } from "../test/support/process.js"
import { figure, mapLimit, quantile, rawRequest, type Stack, sha256, startStack, timed } from "./support/ab.js"

const ISSUER = "https://issuer.legible.test"
const AUDIENCE = "legible-api"
const KEY_PATTERN = /^pk_(live|test)_[A-Za-z0-9]+$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const now = () => Math.floor(Date.now() / 1000)

/** An HS256 token of the configured issuer and audience (valid `ttl` seconds; negative: expired). */
const mint = (sub: string, clientId: string, ttl = 3600, secret = SECRET): string =>
  Jwt.sign(secret, { sub, clientId, name: sub, issuer: ISSUER, audience: AUDIENCE }, now(), ttl)

const b64 = (value: unknown) =>
  Buffer.from(typeof value === "string" ? value : JSON.stringify(value)).toString("base64url")

/** A token with any header and payload, HMAC-SHA256-signed with `secret` (a string or raw bytes). */
const hs256 = (header: Json, payload: Json, secret: string | Buffer): string => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${createHmac("sha256", secret).update(input).digest("base64url")}`
}

/** An RS256 token signed with `key`. */
const rs256 = (header: Json, payload: Json, key: KeyObject): string => {
  const input = `${b64(header)}.${b64(payload)}`
  return `${input}.${rsaSign("sha256", Buffer.from(input), key).toString("base64url")}`
}

const claims = (overrides: Json = {}): Json => ({
  sub: "ana",
  client_id: "client-a",
  role: "user",
  iss: ISSUER,
  aud: AUDIENCE,
  iat: now(),
  exp: now() + 3600,
  ...overrides
})

/** A 401 with exactly the spec's `{msg: string}` body. */
const expectMsg401 = (reply: Reply, what: string) => {
  expect({ what, status: reply.status }).toEqual({ what, status: 401 })
  expect(reply.body).toEqual({ msg: expect.any(String) })
}

/** A 401 with exactly `{error: string}` (the /v1 body). */
const expectError401 = (reply: { status: number; body: unknown }, what: string) => {
  expect({ what, status: reply.status }).toEqual({ what, status: 401 })
  expect(reply.body).toEqual({ error: expect.any(String) })
}

describe("A: API keys and JWT", () => {
  let stack: Stack
  const alice = mint("alice", "client-a")
  const bob = mint("bob", "client-b")
  /** Every full key created in this file, for the leak checks. */
  const created: Array<string> = []

  beforeAll(async () => {
    stack = await startStack({
      env: { LEGIBLE_JWT_ISSUER: ISSUER, LEGIBLE_JWT_AUDIENCE: AUDIENCE, LEGIBLE_LOG_LEVEL: "Debug" }
    })
  })
  afterAll(async () => {
    await stack?.stop()
  })

  const createKey = async (jwt: string, nombre: string, tipo: "live" | "test" = "live") => {
    const reply = await stack.api.jwt("POST", "/api/api-keys/", jwt, { nombre, tipo })
    expect(reply.status).toBe(201)
    const key = ((reply.body as Json).api_key as Json).key as string
    created.push(key)
    return { id: ((reply.body as Json).api_key as Json).id as string, key }
  }

  it("A1 1,000 keys: distinct, pk_(live|test)_ + 43 base62 (≈256 CSPRNG bits), full key only in the create response", async () => {
    const made = await mapLimit(
      Array.from({ length: 1000 }, (_, i) => i),
      16,
      (i) => createKey(i % 2 === 0 ? alice : bob, `key ${i}`, i % 4 === 3 ? "test" : "live")
    )
    const keys = made.map((m) => m.key)
    expect(new Set(keys).size).toBe(1000)
    for (const key of keys) expect(key).toMatch(KEY_PATTERN)
    const secrets = keys.map((k) => k.replace(/^pk_(live|test)_/, ""))
    // 43 characters of 62 carry 43 × log2(62) ≈ 256 bits; a UUID or hex would show a 16-letter alphabet.
    const bits = Math.min(...secrets.map((s) => s.length)) * Math.log2(62)
    expect(bits).toBeGreaterThanOrEqual(128)
    for (const key of keys) expect(UUID.test(key.slice(8)) || /^[0-9a-f]+$/i.test(key.slice(8))).toBe(false)
    // Uniformity over the 43,000 characters: each of the 62 letters near 1/62 (chi-square, 61 degrees of freedom;
    // 120 is far above the 99.99th percentile of a uniform source, far below any biased or reduced alphabet).
    const counts = new Map<string, number>()
    for (const s of secrets) for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1)
    const total = secrets.reduce((n, s) => n + s.length, 0)
    const expected = total / 62
    const chi = [...counts.values()].reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0)
    expect(counts.size).toBe(62)
    expect(chi).toBeLessThan(120)

    const secretSet = new Set(secrets)
    /** Every 43-character base62 run in `text` that is one of the created secrets. */
    const leaks = (text: string) => [...text.matchAll(/[0-9A-Za-z]{43,}/g)].filter((m) => secretSet.has(m[0]))
    const listed = await Promise.all([alice, bob].map((jwt) => stack.api.jwt("GET", "/api/api-keys/", jwt)))
    const listedText = JSON.stringify(listed.map((l) => l.body))
    expect(listed.map((l) => ((l.body as Json).api_keys as Array<Json>).length).reduce((a, b) => a + b)).toBe(1000)
    expect(leaks(listedText)).toEqual([])
    const rows = await stack.sql("SELECT row_to_json(k)::text AS row FROM api_keys k")
    const dbText = rows.map((r) => r.row as string).join("\n")
    expect(rows).toHaveLength(1000)
    expect(leaks(dbText)).toEqual([])
    for (const key of keys) expect(dbText.includes(key)).toBe(false)
    // Use every key once, so its handling is in the logs too (the server logs at Debug here).
    await mapLimit(keys, 16, async (key) =>
      expect((await stack.api.key("GET", "/v1/extractions?limit=1", key)).status).toBe(200)
    )
    const logs = stack.output()
    expect(logs.length).toBeGreaterThan(1000)
    expect(leaks(logs)).toEqual([])
    figure(
      "A1",
      `1000 keys, 1000 distinct, ${bits.toFixed(0)} random bits each, chi²(61)=${chi.toFixed(1)}; full key in list 0, ` +
        `in api_keys rows 0, in ${logs.split("\n").length} log lines 0`
    )
  })

  it("A2 keys stored as SHA-256 under a unique index; authentication is one indexed lookup (0 sequential scans)", async () => {
    const rows = await stack.sql("SELECT key_hash FROM api_keys")
    const hashes = new Set(rows.map((r) => r.key_hash as string))
    for (const key of created) expect(hashes.has(sha256(key))).toBe(true)
    const [index] = await stack.sql(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'api_keys' AND indexdef LIKE '%(key_hash)%'"
    )
    expect(index?.indexdef).toMatch(/^CREATE UNIQUE INDEX .* ON public\.api_keys USING btree \(key_hash\)$/)
    const duplicate = await stack
      .sql(`INSERT INTO api_keys SELECT gen_random_uuid(), client_id, user_id, nombre, tipo, key_hash, key_preview,
        created_at, last_used, revoked_at FROM api_keys LIMIT 1`)
      .then(
        () => "inserted",
        (error: unknown) => String(error)
      )
    expect(duplicate).not.toBe("inserted")
    const plan = await stack.sql(
      `EXPLAIN SELECT k.id, u.name FROM api_keys k JOIN users u ON u.id = k.user_id
       WHERE k.key_hash = '${sha256(created[0]!)}' AND k.revoked_at IS NULL`
    )
    const planText = plan.map((r) => r["QUERY PLAN"] as string).join("\n")
    expect(planText).toContain("api_keys_hash_idx")
    expect(planText).not.toMatch(/Seq Scan on api_keys/)
    const stats = async () => {
      const [row] = await stack.sql(
        "SELECT seq_scan::int AS seq, idx_scan::int AS idx FROM pg_stat_user_tables WHERE relname = 'api_keys'"
      )
      return { seq: Number(row?.seq), idx: Number(row?.idx) }
    }
    // Statistics reach the view asynchronously (about a second after a backend goes idle): settle first.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    const before = await stats()
    const sample = created.slice(0, 200)
    await mapLimit(sample, 16, async (key) =>
      expect((await stack.api.key("GET", "/v1/extractions?limit=1", key)).status).toBe(200)
    )
    let after = before
    for (let i = 0; i < 40 && after.idx - before.idx < sample.length; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250))
      after = await stats()
    }
    expect(after.idx - before.idx).toBeGreaterThanOrEqual(sample.length)
    expect(after.seq - before.seq).toBe(0)
    figure(
      "A2",
      `${created.length} stored hashes = SHA-256(key); unique index on key_hash; 200 authentications → ` +
        `${after.idx - before.idx} index scans, ${after.seq - before.seq} sequential scans of api_keys`
    )
  })

  it("A3 revocation is immediate: 10 rounds × 50 concurrent requests right after the revoke → 500 × 401, 0 × 2xx; revoke twice or another client's key → 404", async () => {
    const statuses: Array<number> = []
    for (let round = 0; round < 10; round++) {
      const { id, key } = await createKey(alice, `revoked ${round}`)
      for (let i = 0; i < 3; i++) expect((await stack.api.key("GET", "/v1/extractions", key)).status).toBe(200)
      const revoked = await stack.api.jwt("DELETE", `/api/api-keys/${id}`, alice)
      expect(revoked.status).toBe(200)
      expect(revoked.body).toEqual({ message: expect.any(String) })
      const replies = await Promise.all(Array.from({ length: 50 }, () => stack.api.key("GET", "/v1/extractions", key)))
      for (const reply of replies) expectError401(reply, `round ${round}`)
      statuses.push(...replies.map((r) => r.status))
      const [stored] = await stack.sql(`SELECT revoked_at::text AS at FROM api_keys WHERE id = '${id}'`)
      const twice = await stack.api.jwt("DELETE", `/api/api-keys/${id}`, alice)
      expect(twice.status).toBe(404)
      expect(twice.body).toEqual({ error: expect.any(String) })
      const [kept] = await stack.sql(`SELECT revoked_at::text AS at FROM api_keys WHERE id = '${id}'`)
      expect(kept?.at).toBe(stored?.at)
      expect(JSON.stringify((await stack.api.jwt("GET", "/api/api-keys/", alice)).body)).not.toContain(id)
    }
    // Another client's key: 404 with the body of a missing id, and the key keeps working.
    const { id: victim, key: victimKey } = await createKey(alice, "victim")
    const foreign = await stack.api.jwt("DELETE", `/api/api-keys/${victim}`, bob)
    const missingId = crypto.randomUUID()
    const missing = await stack.api.jwt("DELETE", `/api/api-keys/${missingId}`, bob)
    expect(foreign.status).toBe(404)
    expect(JSON.stringify(foreign.body).replace(victim, "<id>")).toBe(
      JSON.stringify(missing.body).replace(missingId, "<id>")
    )
    expect((await stack.api.key("GET", "/v1/extractions", victimKey)).status).toBe(200)
    const [row] = await stack.sql(`SELECT revoked_at FROM api_keys WHERE id = '${victim}'`)
    expect(row?.revoked_at).toBeNull()
    const ok = statuses.filter((s) => s >= 200 && s < 300).length
    figure(
      "A3",
      `${statuses.length} requests after 10 revokes → ${statuses.filter((s) => s === 401).length} × 401, ${ok} × 2xx; second revoke 404, foreign revoke 404`
    )
  })

  it("A3 on two api processes: a key revoked through one is refused on its next request through the other, on every read", async () => {
    const second = await startServer({ env: stack.env, args: ["serve", "--role", "api"] })
    try {
      const apis = [stack.api, client(second.url)] as const
      const missing = crypto.randomUUID()
      const reads = ["/v1/extractions", `/v1/extractions/${missing}`, `/v1/extractions/${missing}/detailed`]
      const statuses: Array<number> = []
      for (let round = 0; round < 10; round++) {
        const { id, key } = await createKey(alice, `two processes ${round}`)
        const [revoking, other] = round % 2 === 0 ? apis : [apis[1], apis[0]]
        // Both processes have just accepted the key (and written or throttled its last_used).
        for (const api of apis) {
          for (const path of reads) expect((await api.key("GET", path, key)).status).toBe(path === reads[0] ? 200 : 404)
        }
        const revoked = await revoking.jwt("DELETE", `/api/api-keys/${id}`, alice)
        expect(revoked.status).toBe(200)
        const replies = await Promise.all(
          Array.from({ length: 60 }, (_, i) => other.key("GET", reads[i % reads.length] ?? "", key))
        )
        for (const reply of replies) expectError401(reply, `round ${round}`)
        statuses.push(...replies.map((r) => r.status))
      }
      const ok = statuses.filter((s) => s >= 200 && s < 300).length
      expect(ok).toBe(0)
      figure(
        "A3",
        `two api processes, 10 revokes alternating between them: ${statuses.length} reads (list, by id, detailed) ` +
          `through the other process right after → ${statuses.filter((s) => s === 401).length} × 401, ${ok} × 2xx`
      )
    } finally {
      await second.stop()
    }
  })

  it("A4 malformed keys (empty, 16 KB, non-ASCII, duplicated header, …) → 401 {error} quickly, 0 × 5xx", async () => {
    const { key: good } = await createKey(alice, "good")
    const { key: revoked, id: revokedId } = await createKey(alice, "to revoke")
    expect((await stack.api.jwt("DELETE", `/api/api-keys/${revokedId}`, alice)).status).toBe(200)
    const base62 = (n: number) => "aZ3".repeat(Math.ceil(n / 3)).slice(0, n)
    const cases: Array<{ readonly name: string; readonly header: Array<string | Buffer> }> = [
      { name: "no header", header: [] },
      { name: "empty", header: ["x-api-key: "] },
      { name: "spaces", header: ["x-api-key:    "] },
      { name: "prefix only", header: ["x-api-key: pk_live_"] },
      { name: "16 KB well-shaped", header: [`x-api-key: pk_live_${base62(16_384)}`] },
      { name: "16 KB junk", header: [`x-api-key: ${"%".repeat(16_384)}`] },
      { name: "60 KB", header: [`x-api-key: ${"k".repeat(60_000)}`] },
      { name: "non-ASCII UTF-8", header: [Buffer.from(`x-api-key: pk_live_ñandú北京${base62(35)}`, "utf8")] },
      { name: "non-ASCII latin1", header: [Buffer.from(`x-api-key: pk_live_\xf1\xe9${base62(41)}`, "latin1")] },
      { name: "good key twice", header: [`x-api-key: ${good}`, `x-api-key: ${good}`] },
      { name: "good and bad", header: [`x-api-key: ${good}`, "x-api-key: pk_live_nope"] },
      { name: "bad and good", header: ["x-api-key: pk_live_nope", `x-api-key: ${good}`] },
      { name: "wrong secret", header: [`x-api-key: pk_live_${base62(43)}`] },
      { name: "wrong prefix", header: [`x-api-key: ${good.replace("pk_live_", "pk_prod_")}`] },
      { name: "upper-case prefix", header: [`x-api-key: ${good.replace("pk_live_", "PK_LIVE_")}`] },
      { name: "one character short", header: [`x-api-key: ${good.slice(0, -1)}`] },
      { name: "one character more", header: [`x-api-key: ${good}x`] },
      { name: "SQL", header: ["x-api-key: pk_live_' OR '1'='1' --"] },
      { name: "bearer instead", header: [`authorization: Bearer ${good}`] },
      { name: "revoked", header: [`x-api-key: ${revoked}`] }
    ]
    const durations: Array<number> = []
    let fiveHundreds = 0
    for (const c of cases) {
      for (let i = 0; i < 10; i++) {
        const { value, ms } = await timed(() =>
          rawRequest(stack.server.url, ["GET /v1/extractions HTTP/1.1", "Host: 127.0.0.1", ...c.header]).catch(
            (error: unknown) => {
              throw new Error(`${c.name}: ${String(error)}`)
            }
          )
        )
        durations.push(ms)
        if (value.status >= 500) fiveHundreds++
        expect({ case: c.name, status: value.status }).toEqual({ case: c.name, status: 401 })
        expect({ case: c.name, body: JSON.parse(value.body) }).toEqual({
          case: c.name,
          body: { error: expect.any(String) }
        })
      }
    }
    // The control: the same raw request with the good key once is a 200.
    const control = await rawRequest(stack.server.url, [
      "GET /v1/extractions HTTP/1.1",
      "Host: 127.0.0.1",
      `x-api-key: ${good}`
    ])
    expect(control.status).toBe(200)
    const max = Math.max(...durations)
    expect(max).toBeLessThan(2000)
    expect(fiveHundreds).toBe(0)
    figure(
      "A4",
      `${cases.length} malformed shapes × 10 = ${durations.length} requests → ${durations.length} × 401 {error}, ` +
        `0 × 5xx; p50 ${quantile(durations, 0.5).toFixed(1)} ms, p99 ${quantile(durations, 0.99).toFixed(1)} ms, max ${max.toFixed(1)} ms`
    )
  })

  it("A5 last_used is written on success (at most once a minute per key), never on a 401", async () => {
    const { id, key } = await createKey(bob, "last used")
    const lastUsed = async (keyId: string) =>
      (await stack.sql(`SELECT last_used::text AS at FROM api_keys WHERE id = '${keyId}'`))[0]?.at as string | null
    expect(await lastUsed(id)).toBeNull()
    // A revoked key's requests are 401s: its last_used stays empty; malformed keys write no row at all.
    const { id: deadId, key: dead } = await createKey(bob, "dead")
    expect((await stack.api.jwt("DELETE", `/api/api-keys/${deadId}`, bob)).status).toBe(200)
    const usedBefore = (await stack.sql("SELECT count(*)::int AS n FROM api_keys WHERE last_used IS NOT NULL"))[0]?.n
    // The good key with its last character changed, never to itself (a key ending in a digit once made two of these
    // the good key, and the test failed 1 run in 6 or so).
    const others = [..."0123456789"].filter((c) => c !== key.at(-1))
    const unauthorized = await Promise.all([
      ...Array.from({ length: 20 }, () => stack.api.key("GET", "/v1/extractions", dead)),
      ...Array.from({ length: 20 }, (_, i) =>
        stack.api.key("GET", "/v1/extractions", `${key.slice(0, -1)}${others[i % others.length]}`)
      )
    ])
    for (const reply of unauthorized) expect(reply.status).toBe(401)
    expect(await lastUsed(deadId)).toBeNull()
    expect(await lastUsed(id)).toBeNull()
    expect((await stack.sql("SELECT count(*)::int AS n FROM api_keys WHERE last_used IS NOT NULL"))[0]?.n).toBe(
      usedBefore
    )

    const before = Date.now()
    expect((await stack.api.key("GET", "/v1/extractions", key)).status).toBe(200)
    const first = await lastUsed(id)
    expect(first).not.toBeNull()
    expect(Math.abs(Date.parse(first!) - before)).toBeLessThan(10_000)
    const listed = ((await stack.api.jwt("GET", "/api/api-keys/", bob)).body as { api_keys: Array<Json> }).api_keys
    expect(listed.find((k) => k.id === id)?.last_used).not.toBeNull()
    // 50 more successes within the minute: no new write.
    await Promise.all(
      Array.from({ length: 50 }, async () =>
        expect((await stack.api.key("GET", "/v1/extractions", key)).status).toBe(200)
      )
    )
    expect(await lastUsed(id)).toBe(first)
    // Once the last write is more than a minute old, the next success writes again.
    await stack.sql(`UPDATE api_keys SET last_used = last_used - interval '61 seconds' WHERE id = '${id}'`)
    const aged = await lastUsed(id)
    expect((await stack.api.key("GET", "/v1/extractions", key)).status).toBe(200)
    const second = await lastUsed(id)
    expect(Date.parse(second!)).toBeGreaterThan(Date.parse(aged!) + 60_000)
    figure("A5", "40 × 401 → 0 last_used writes; 1 + 50 successes within a minute → 1 write; after 61 s → 1 more write")
  })

  describe("A6 JWT", () => {
    const reject = async (
      url: string,
      tokens: ReadonlyArray<{ readonly name: string; readonly token: string }>
    ): Promise<number> => {
      let fiveHundreds = 0
      for (const t of tokens) {
        const reply = await fetch(`${url}/api/api-keys/`, { headers: { authorization: `Bearer ${t.token}` } })
        if (reply.status >= 500) fiveHundreds++
        expectMsg401({ status: reply.status, headers: reply.headers, body: await reply.json() }, t.name)
      }
      return fiveHundreds
    }

    it("A6 HS256 pinned: alg:none, RS256 key confusion, wrong iss/aud, expired beyond 30 s, tampered → 401 {msg}, 0 × 5xx", async () => {
      const url = stack.server.url
      const valid = hs256({ alg: "HS256", typ: "JWT" }, claims(), SECRET)
      expect((await stack.api.jwt("GET", "/api/api-keys/", valid)).status).toBe(200)
      // 20 s past exp is inside the 30 s tolerance: accepted.
      expect(
        (await stack.api.jwt("GET", "/api/api-keys/", hs256({ alg: "HS256" }, claims({ exp: now() - 20 }), SECRET)))
          .status
      ).toBe(200)
      const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
      const [h, p, s] = valid.split(".") as [string, string, string]
      const tampered = b64({ ...claims(), client_id: "client-b" })
      const cases = [
        { name: "alg none, no signature", token: `${b64({ alg: "none", typ: "JWT" })}.${b64(claims())}.` },
        { name: "alg none, kept signature", token: `${b64({ alg: "none" })}.${p}.${s}` },
        { name: "alg NONE", token: `${b64({ alg: "NONE" })}.${b64(claims())}.` },
        { name: "RS256 against HS256", token: rs256({ alg: "RS256", typ: "JWT" }, claims(), privateKey) },
        {
          name: "HS512",
          token: `${b64({ alg: "HS512" })}.${p}.${createHmac("sha512", SECRET)
            .update(`${b64({ alg: "HS512" })}.${p}`)
            .digest("base64url")}`
        },
        { name: "wrong secret", token: hs256({ alg: "HS256" }, claims(), `${SECRET}x`) },
        { name: "wrong iss", token: hs256({ alg: "HS256" }, claims({ iss: "https://evil.test" }), SECRET) },
        { name: "no iss", token: hs256({ alg: "HS256" }, claims({ iss: undefined }), SECRET) },
        { name: "wrong aud", token: hs256({ alg: "HS256" }, claims({ aud: "other-api" }), SECRET) },
        { name: "aud list without ours", token: hs256({ alg: "HS256" }, claims({ aud: ["a", "b"] }), SECRET) },
        { name: "expired 45 s (tolerance 30 s)", token: hs256({ alg: "HS256" }, claims({ exp: now() - 45 }), SECRET) },
        { name: "expired a day", token: hs256({ alg: "HS256" }, claims({ exp: now() - 86_400 }), SECRET) },
        { name: "no exp", token: hs256({ alg: "HS256" }, claims({ exp: undefined }), SECRET) },
        { name: "not yet valid", token: hs256({ alg: "HS256" }, claims({ nbf: now() + 600 }), SECRET) },
        { name: "tampered payload", token: `${h}.${tampered}.${s}` },
        { name: "tampered signature", token: `${h}.${p}.${s.slice(0, -2)}${s.endsWith("AA") ? "BA" : "AA"}` },
        { name: "no signature", token: `${h}.${p}.` },
        { name: "two parts", token: `${h}.${p}` },
        { name: "four parts", token: `${valid}.${s}` },
        { name: "role admin", token: hs256({ alg: "HS256" }, claims({ role: "admin" }), SECRET) },
        { name: "no sub", token: hs256({ alg: "HS256" }, claims({ sub: undefined }), SECRET) },
        { name: "numeric client_id", token: hs256({ alg: "HS256" }, claims({ client_id: 7 }), SECRET) },
        { name: "crit header", token: hs256({ alg: "HS256", crit: ["exp"] }, claims(), SECRET) },
        {
          name: "jwk header",
          token: hs256({ alg: "HS256", jwk: { kty: "oct", k: b64("x") } }, claims(), "x".repeat(32))
        },
        { name: "8 KB+ token", token: `${h}.${b64("x".repeat(9000))}.${s}` },
        { name: "empty", token: "" }
      ]
      const fiveHundreds = await reject(url, cases)
      expect(fiveHundreds).toBe(0)
      figure("A6", `HS256 config: ${cases.length} forged/invalid tokens → ${cases.length} × 401 {msg}, 0 × 5xx`)
    })

    it("A6 1,000 fuzzed tokens (seeded fast-check: mutated, re-signed with broken claims, random) → 1,000 × 401 {msg}", async () => {
      const valid = hs256({ alg: "HS256", typ: "JWT" }, claims(), SECRET)
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
      const canonical = (token: string) =>
        token
          .split(".")
          .map((part) => Buffer.from(part, "base64url").toString("base64url"))
          .join(".")
      const brokenClaims: ReadonlyArray<Json> = [
        { sub: undefined },
        { sub: "" },
        { sub: "x".repeat(201) },
        { sub: 42 },
        { sub: "a\u0000b" },
        { client_id: undefined },
        { client_id: "" },
        { client_id: ["client-a"] },
        { client_id: "a\nb" },
        { role: "root" },
        { role: 1 },
        { name: 3 },
        { email: { a: 1 } },
        { exp: "never" },
        { exp: now() - 120 },
        { nbf: now() + 120 },
        { iss: "https://issuer.legible.test/" },
        { aud: "LEGIBLE-API" },
        { iat: "yesterday" }
      ]
      const mutation = fc.oneof(
        // one character replaced
        fc
          .tuple(fc.nat({ max: valid.length - 1 }), fc.constantFrom(...alphabet, ".", "=", "+", "/"))
          .map(([i, c]) => valid.slice(0, i) + c + valid.slice(i + 1)),
        // truncated
        fc.nat({ max: valid.length - 1 }).map((n) => valid.slice(0, n)),
        // characters inserted
        fc
          .tuple(
            fc.nat({ max: valid.length }),
            fc.string({ unit: fc.constantFrom(...alphabet, "."), minLength: 1, maxLength: 8 })
          )
          .map(([i, s]) => valid.slice(0, i) + s + valid.slice(i)),
        // a random header over the real payload and signature
        fc
          .record({
            alg: fc.constantFrom("none", "None", "HS256 ", "hs256", "RS256", "ES256", "EdDSA", "HS384", ""),
            kid: fc.option(fc.string())
          })
          .map((header) => `${b64(header)}.${valid.split(".")[1]}.${valid.split(".")[2]}`),
        // correctly signed, one claim broken
        fc.constantFrom(...brokenClaims).map((broken) => hs256({ alg: "HS256", typ: "JWT" }, claims(broken), SECRET)),
        // random JSON payload, correctly signed
        fc
          .dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }))
          .map((payload) => hs256({ alg: "HS256" }, payload, SECRET)),
        // printable junk
        fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 300 })
      )
      const tokens = fc
        .sample(mutation, { seed: 20_261_122, numRuns: 1400 })
        .filter((t) => t !== valid && canonical(t) !== canonical(valid))
        .slice(0, 1000)
      expect(tokens).toHaveLength(1000)
      const replies = await mapLimit(tokens, 12, async (token) => {
        const response = await fetch(`${stack.server.url}/api/api-keys/`, {
          headers: { authorization: `Bearer ${token}` }
        })
        return { token, status: response.status, body: await response.json().catch(() => undefined) }
      })
      const wrong = replies.filter(
        (r) => r.status !== 401 || typeof r.body !== "object" || r.body === null || Object.keys(r.body).join() !== "msg"
      )
      expect(wrong).toEqual([])
      figure(
        "A6",
        `1000 fuzzed tokens → ${replies.filter((r) => r.status === 401).length} × 401 {msg}, ${replies.filter((r) => r.status >= 500).length} × 5xx`
      )
    })

    describe("A6 JWKS (RS256)", () => {
      let jwks: HttpServer
      let jwksStack: Stack | undefined
      const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
      const { privateKey: otherKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
      const jwk = { ...publicKey.export({ format: "jwk" }), kid: "k1", alg: "RS256", use: "sig" }
      beforeAll(async () => {
        jwks = createServer((_request, response) => {
          response.writeHead(200, { "content-type": "application/json" })
          response.end(JSON.stringify({ keys: [jwk] }))
        })
        await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve))
        jwksStack = await startStack({
          env: {
            LEGIBLE_JWT_SECRET: "",
            LEGIBLE_JWT_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
            LEGIBLE_JWT_ISSUER: ISSUER,
            LEGIBLE_JWT_AUDIENCE: AUDIENCE
          }
        })
      })
      afterAll(async () => {
        await jwksStack?.stop()
        await new Promise<void>((resolve) => jwks?.close(() => resolve()))
      })

      it("A6 JWKS config: HS256 signed with the public key as secret, alg:none, foreign key, wrong iss/aud, expired → 401 {msg}", async () => {
        const url = jwksStack!.server.url
        const header = { alg: "RS256", typ: "JWT", kid: "k1" }
        const valid = rs256(header, claims(), privateKey)
        expect((await fetch(`${url}/api/api-keys/`, { headers: { authorization: `Bearer ${valid}` } })).status).toBe(
          200
        )
        const pem = publicKey.export({ format: "pem", type: "spki" }) as string
        const der = publicKey.export({ format: "der", type: "spki" })
        const cases = [
          {
            name: "HS256 with the PEM public key",
            token: hs256({ alg: "HS256", typ: "JWT", kid: "k1" }, claims(), pem)
          },
          { name: "HS256 with the DER public key", token: hs256({ alg: "HS256", kid: "k1" }, claims(), der) },
          {
            name: "HS256 with the JWK as secret",
            token: hs256({ alg: "HS256", kid: "k1" }, claims(), JSON.stringify(jwk))
          },
          {
            name: "HS256 with the modulus",
            token: hs256({ alg: "HS256", kid: "k1" }, claims(), Buffer.from(jwk.n!, "base64url"))
          },
          { name: "alg none", token: `${b64({ alg: "none", kid: "k1" })}.${b64(claims())}.` },
          { name: "foreign RSA key, same kid", token: rs256(header, claims(), otherKey) },
          { name: "unknown kid", token: rs256({ ...header, kid: "k2" }, claims(), privateKey) },
          { name: "wrong iss", token: rs256(header, claims({ iss: "https://evil.test" }), privateKey) },
          { name: "wrong aud", token: rs256(header, claims({ aud: "x" }), privateKey) },
          { name: "expired 45 s", token: rs256(header, claims({ exp: now() - 45 }), privateKey) },
          {
            name: "tampered payload",
            token: `${valid.split(".")[0]}.${b64({ ...claims(), role: "global_admin" })}.${valid.split(".")[2]}`
          },
          {
            name: "PS256 header over RS256 signature",
            token: `${b64({ ...header, alg: "PS256" })}.${valid.split(".")[1]}.${valid.split(".")[2]}`
          }
        ]
        const fiveHundreds = await reject(url, cases)
        expect(fiveHundreds).toBe(0)
        figure("A6", `JWKS config: ${cases.length} forged/invalid tokens → ${cases.length} × 401 {msg}, 0 × 5xx`)
      })
    })

    it("A6 misconfiguration (no key, short secret, JWKS without iss/aud, secret and JWKS) stops the process at start-up with a clear message", async () => {
      const database = await createDatabase()
      const data = tempDir("legible-rel-a6-")
      try {
        const base = {
          LEGIBLE_DATABASE_URL: database.url,
          LEGIBLE_DATA_DIR: data.path,
          LEGIBLE_PORT: String(await freePort())
        }
        const cases = [
          { name: "no key with PostgreSQL", env: {}, message: /LEGIBLE_JWT_SECRET is required/ },
          {
            name: "short secret",
            env: { LEGIBLE_JWT_SECRET: "only-sixteen-byt" },
            message: /LEGIBLE_JWT_SECRET must be at least 32 bytes \(got 16\)/
          },
          {
            name: "31-byte secret",
            env: { LEGIBLE_JWT_SECRET: "x".repeat(31) },
            message: /at least 32 bytes \(got 31\)/
          },
          {
            name: "JWKS without issuer",
            env: { LEGIBLE_JWT_JWKS_URL: "http://127.0.0.1:9/jwks", LEGIBLE_JWT_AUDIENCE: "a" },
            message: /needs LEGIBLE_JWT_ISSUER and LEGIBLE_JWT_AUDIENCE/
          },
          {
            name: "secret and JWKS",
            env: { LEGIBLE_JWT_SECRET: SECRET, LEGIBLE_JWT_JWKS_URL: "http://127.0.0.1:9/jwks" },
            message: /not both/
          }
        ]
        // Four at a time: each is a Node start-up that should end at the configuration check.
        const seconds = await mapLimit(cases, 4, async (c) => {
          const started = performance.now()
          const running = launch(["serve", "--role", "api"], { ...base, ...c.env })
          const code = await Promise.race([
            running.exited,
            new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 30_000))
          ])
          await running.stop("SIGKILL")
          expect({ case: c.name, code }).toEqual({ case: c.name, code: expect.any(Number) })
          expect({ case: c.name, zero: code === 0 }).toEqual({ case: c.name, zero: false })
          expect({ case: c.name, stderr: running.stderr() }).toEqual({
            case: c.name,
            stderr: expect.stringMatching(c.message)
          })
          expect(running.stdout()).not.toContain("listening")
          return (performance.now() - started) / 1000
        })
        figure(
          "A6",
          `${cases.length} misconfigurations → ${cases.length} exits ≠ 0 with the variable named, slowest ${Math.max(...seconds).toFixed(1)} s`
        )
      } finally {
        await database.drop()
        data.dispose()
      }
    })
  })
})
