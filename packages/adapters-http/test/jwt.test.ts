import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Fixtures } from "@legible/testkit"
import { Effect, Exit, Layer } from "effect"
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose"
import { Auth } from "../src/index.js"
import { type App, bearer, makeApp, read, SECRET, token, withApp } from "./support.js"

const ISSUER = "https://idp.legible.test"
const AUDIENCE = "legible-api"

const b64url = (value: string | Uint8Array) => Buffer.from(value).toString("base64url")

const claims = (extra: JWTPayload = {}): JWTPayload => {
  const u = Fixtures.user()
  return { client_id: u.clientId, name: u.name, email: u.email, ...extra }
}

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"]

const sign = (key: SigningKey | Uint8Array, alg: string, extra: JWTPayload = {}, kid?: string) =>
  new SignJWT(claims(extra))
    .setProtectedHeader({ alg, typ: "JWT", ...(kid !== undefined ? { kid } : {}) })
    .setSubject(Fixtures.user().id)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(key)

const status = async (app: App, jwt: string) => read(await app.fetch("/api/api-keys/", { headers: bearer(jwt) }))

/** A small deterministic PRNG (mulberry32), so the fuzzed tokens are the same on every run. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Whether two tokens carry the same bytes in every segment (base64url read leniently, as decoders do). */
const sameBytes = (a: string, b: string): boolean => {
  const [sa, sb] = [a.split("."), b.split(".")]
  return (
    sa.length === sb.length &&
    sa.every((seg, i) => Buffer.from(seg, "base64url").equals(Buffer.from(sb[i] ?? "", "base64url")))
  )
}

describe("JWT with a shared secret (HS256)", () => {
  it(
    "accepts a valid token and maps its claims to the user",
    withApp(async (app) => {
      expect((await status(app, await token())).status).toBe(200)
      // A token within the 30 s tolerance after `exp` is still accepted.
      const lateButTolerated = await token({ exp: Math.floor(Date.now() / 1000) - 10 })
      expect((await status(app, lateButTolerated)).status).toBe(200)
    })
  )

  it(
    "refuses alg none, RS256 (key confusion), expiry beyond 30 s, tampering, another secret and garbage with 401 {msg}",
    withApp(async (app) => {
      const valid = await token()
      const [header, payload, signature] = valid.split(".") as [string, string, string]
      const rsa = await generateKeyPair("RS256")
      const forged = JSON.parse(Buffer.from(payload, "base64url").toString()) as JWTPayload
      const cases: Record<string, string> = {
        none: `${b64url(JSON.stringify({ alg: "none", typ: "JWT" }))}.${payload}.`,
        noneWithSignature: `${b64url(JSON.stringify({ alg: "none" }))}.${payload}.${signature}`,
        rs256: await sign(rsa.privateKey, "RS256"),
        hs512: await sign(new TextEncoder().encode(SECRET), "HS512"),
        expired: await token({ exp: Math.floor(Date.now() / 1000) - 31 }),
        longExpired: await token({}, { expiresIn: "-1h" }),
        tampered: `${header}.${b64url(JSON.stringify({ ...forged, role: "global_admin" }))}.${signature}`,
        otherSecret: await token({}, { secret: "another-secret-that-is-long-enough-0123456789" }),
        noSignature: `${header}.${payload}.`,
        twoParts: `${header}.${payload}`,
        garbage: "not a token at all",
        dots: "...",
        huge: "a".repeat(20_000)
      }
      for (const [name, jwt] of Object.entries(cases)) {
        const result = await status(app, jwt)
        expect(result.status, name).toBe(401)
        expect(result.body, name).toEqual({ msg: expect.any(String) })
      }
      expect((await status(app, cases.longExpired!)).body).toEqual({ msg: "Token has expired" })
    })
  )

  it(
    "refuses tokens without exp, sub or client_id, or with an unknown role",
    withApp(async (app) => {
      const key = new TextEncoder().encode(SECRET)
      const noExp = await new SignJWT(claims()).setProtectedHeader({ alg: "HS256" }).setSubject("user-ana").sign(key)
      const noSub = await new SignJWT(claims()).setProtectedHeader({ alg: "HS256" }).setExpirationTime("1h").sign(key)
      const noClient = await new SignJWT({ name: "x" })
        .setProtectedHeader({ alg: "HS256" })
        .setSubject("user-ana")
        .setExpirationTime("1h")
        .sign(key)
      for (const [name, jwt] of [
        ["noExp", noExp],
        ["noSub", noSub],
        ["noClient", noClient],
        ["badRole", await token({ role: "superuser" })],
        ["numericName", await token({ name: 42 })]
      ] as const) {
        const result = await status(app, jwt)
        expect(result.status, name).toBe(401)
        expect(result.body, name).toEqual({ msg: expect.stringContaining("Invalid token") })
      }
    })
  )

  it(
    "answers 200 fuzzed tokens with 401 {msg} and never a 5xx",
    withApp(async (app) => {
      const random = prng(20260312)
      const valid = await token()
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ éÿ"
      const pick = (s: string) => s[Math.floor(random() * s.length)]!
      const fuzzed: Array<string> = []
      for (let i = 0; i < 200; i++) {
        const kind = i % 4
        if (kind === 0) {
          // Flip characters of a valid token, until the token says something else: a flip may put back the same
          // character, touch only a segment's unused last bits, or swap "-" for "+", and still carry the same bytes.
          let flipped = valid
          while (sameBytes(flipped, valid)) {
            const chars = [...valid]
            for (let n = 0; n < 1 + Math.floor(random() * 5); n++) {
              chars[Math.floor(random() * chars.length)] = pick(alphabet)
            }
            flipped = chars.join("")
          }
          fuzzed.push(flipped)
        } else if (kind === 1) {
          // Random segments of random length.
          const segment = () => Array.from({ length: Math.floor(random() * 80) }, () => pick(alphabet)).join("")
          fuzzed.push(Array.from({ length: 1 + Math.floor(random() * 4) }, segment).join("."))
        } else if (kind === 2) {
          // Well-formed JSON headers with odd contents.
          const algs = ["none", "HS256", "RS256", "ES256", "EdDSA", "", "hs256", "PS256", 42, null]
          const alg = algs[Math.floor(random() * algs.length)]
          const head = b64url(JSON.stringify({ alg, kid: random() > 0.5 ? "k" : { nested: true }, crit: ["x"] }))
          fuzzed.push(`${head}.${valid.split(".")[1]}.${b64url(String(random()))}`)
        } else {
          // Truncations and extensions of a valid token.
          const cut = Math.floor(random() * valid.length)
          fuzzed.push(random() > 0.5 ? valid.slice(0, cut) : `${valid}${valid.slice(cut)}`)
        }
      }
      const statuses = new Map<number, number>()
      for (const jwt of fuzzed) {
        const result = await status(app, jwt)
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1)
        if (result.status === 401) expect(result.body).toEqual({ msg: expect.any(String) })
      }
      expect(Object.fromEntries(statuses)).toEqual({ 401: 200 })
    })
  )

  it(
    "enforces issuer and audience when they are configured",
    withApp(
      async (app) => {
        const withIss = (iss: string, aud: string) => token({ iss, aud })
        expect((await status(app, await withIss(ISSUER, AUDIENCE))).status).toBe(200)
        expect(await status(app, await withIss("https://evil.test", AUDIENCE))).toEqual({
          status: 401,
          body: { msg: 'Invalid token: "iss" claim check failed' }
        })
        expect((await status(app, await withIss(ISSUER, "other"))).status).toBe(401)
        expect((await status(app, await token())).status).toBe(401)
      },
      { options: { auth: { _tag: "Secret", secret: SECRET, issuer: ISSUER, audience: AUDIENCE } } }
    )
  )

  it("refuses a secret shorter than 32 bytes when the layer is built, with a clear message", async () => {
    const exit = await Effect.runPromiseExit(
      Layer.build(Auth.layerJwt({ _tag: "Secret", secret: "short-secret" })).pipe(Effect.scoped)
    )
    expect(Exit.isFailure(exit)).toBe(true)
    const failure = await Effect.runPromise(Effect.flip(Auth.makeVerifier({ _tag: "Secret", secret: "x".repeat(31) })))
    expect(failure.message).toContain("at least 32 bytes")
    const jwks = await Effect.runPromise(
      Effect.flip(Auth.makeVerifier({ _tag: "Jwks", url: "https://idp.test/jwks", issuer: "", audience: "a" }))
    )
    expect(jwks.message).toContain("issuer")
    const badUrl = await Effect.runPromise(
      Effect.flip(Auth.makeVerifier({ _tag: "Jwks", url: "not a url", issuer: ISSUER, audience: AUDIENCE }))
    )
    expect(badUrl.message).toContain("JWKS URL")
  })
})

describe("JWT from a JWKS (RS256, ES256, EdDSA)", () => {
  let server: Server
  let url: string
  let rsa: Awaited<ReturnType<typeof generateKeyPair>>
  let ec: Awaited<ReturnType<typeof generateKeyPair>>
  let ed: Awaited<ReturnType<typeof generateKeyPair>>
  let rsaPublicPem: string

  beforeAll(async () => {
    rsa = await generateKeyPair("RS256", { extractable: true })
    ec = await generateKeyPair("ES256", { extractable: true })
    ed = await generateKeyPair("EdDSA", { extractable: true })
    rsaPublicPem = await exportSPKI(rsa.publicKey)
    const keys: Array<JWK> = [
      { ...(await exportJWK(rsa.publicKey)), kid: "rsa", alg: "RS256", use: "sig" },
      { ...(await exportJWK(ec.publicKey)), kid: "ec", alg: "ES256", use: "sig" },
      { ...(await exportJWK(ed.publicKey)), kid: "ed", alg: "EdDSA", use: "sig" }
    ]
    server = createServer((_, res) => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ keys }))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`
  })

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const jwksApp = (test: (app: App) => Promise<void>) => async () => {
    const app = await makeApp({ options: { auth: { _tag: "Jwks", url, issuer: ISSUER, audience: AUDIENCE } } })
    try {
      await test(app)
    } finally {
      await app.dispose()
    }
  }
  const good = { iss: ISSUER, aud: AUDIENCE }

  it(
    "accepts tokens of the three algorithms signed by the provider's keys",
    jwksApp(async (app) => {
      expect((await status(app, await sign(rsa.privateKey, "RS256", good, "rsa"))).status).toBe(200)
      expect((await status(app, await sign(ec.privateKey, "ES256", good, "ec"))).status).toBe(200)
      expect((await status(app, await sign(ed.privateKey, "EdDSA", good, "ed"))).status).toBe(200)
    })
  )

  it(
    "refuses HS256 signed with the public key (key confusion), foreign keys, unknown kids, wrong iss or aud",
    jwksApp(async (app) => {
      const stranger = await generateKeyPair("RS256")
      const cases: Record<string, string> = {
        confusion: await sign(new TextEncoder().encode(rsaPublicPem), "HS256", good, "rsa"),
        sharedSecret: await sign(new TextEncoder().encode(SECRET), "HS256", good),
        stranger: await sign(stranger.privateKey, "RS256", good, "rsa"),
        unknownKid: await sign(stranger.privateKey, "RS256", good, "nope"),
        wrongIssuer: await sign(rsa.privateKey, "RS256", { ...good, iss: "https://evil.test" }, "rsa"),
        wrongAudience: await sign(rsa.privateKey, "RS256", { ...good, aud: "other" }, "rsa"),
        noIssuer: await sign(rsa.privateKey, "RS256", { aud: AUDIENCE }, "rsa"),
        algMismatch: await sign(ec.privateKey, "ES256", good, "rsa")
      }
      for (const [name, jwt] of Object.entries(cases)) {
        const result = await status(app, jwt)
        expect(result.status, name).toBe(401)
        expect(result.body, name).toEqual({ msg: expect.any(String) })
      }
    })
  )

  it("answers 503 {error} when the JWKS endpoint cannot be reached, and the token was fine", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const app = await makeApp({
      options: {
        auth: { _tag: "Jwks", url: `http://127.0.0.1:${port}/jwks.json`, issuer: ISSUER, audience: AUDIENCE }
      }
    })
    try {
      const result = await status(app, await sign(rsa.privateKey, "RS256", good, "rsa"))
      expect(result).toEqual({ status: 503, body: { error: expect.stringContaining("identity provider") } })
      // A malformed token never reaches the provider: still 401.
      expect((await status(app, "garbage")).status).toBe(401)
    } finally {
      await app.dispose()
    }
  })
})
