/**
 * RELIABILITY.md B7–B10 (tenants, roles, quota) against the BUILT server: `serve --role api` and a
 * `serve --role worker` on a fresh PostgreSQL database, with OpenAI and Anthropic configured to point at the
 * testkit's fake servers (the real wire format), so a call to a paid provider would be seen and counted.
 */
import { FakeAnthropic, FakeOpenAI } from "@legible/testkit"
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Json, type Reply, SAMPLE_PDF, seedSkill, token } from "../test/support/http.js"
import { figure, mapLimit, type Stack, startStack } from "./support/ab.js"

const USERS = {
  alice: { sub: "alice", clientId: "client-a", name: "Alice" },
  bob: { sub: "bob", clientId: "client-b", name: "Bob" },
  root: { sub: "root", clientId: "ops", name: "Root", role: "global_admin" as const },
  quinn: { sub: "quinn", clientId: "client-q", name: "Quinn" },
  tess: { sub: "tess", clientId: "client-t", name: "Tess" }
} as const

/** Rounds of the quota race (RELIABILITY.md B9: 20). */
const ROUNDS = 20

const FINAL = new Set(["completado", "incompleto", "error"])
const SWITCHABLE = new Set(["completado", "incompleto"])

describe("B: tenants, roles, quota", () => {
  const scope = Scope.makeUnsafe()
  let openai: FakeOpenAI.Server
  let anthropic: FakeAnthropic.Server
  let stack: Stack
  const jwt = {
    alice: token(USERS.alice),
    bob: token(USERS.bob),
    root: token(USERS.root),
    quinn: token(USERS.quinn),
    tess: token(USERS.tess)
  }
  const keys = { alice: "", aliceTest: "", bob: "", root: "", tess: "", tessTest: "" }
  const keyIds = { alice: [] as Array<string> }
  const ids = { alice: [] as Array<string>, aliceTest: [] as Array<string>, bob: [] as Array<string> }
  let aliceSkill = ""

  const createKey = async (user: string, nombre: string, tipo: "live" | "test" = "live") => {
    const reply = await stack.api.jwt("POST", "/api/api-keys/", user, { nombre, tipo })
    expect(reply.status).toBe(201)
    const key = (reply.body as Json).api_key as Json
    return { id: key.id as string, key: key.key as string }
  }

  beforeAll(async () => {
    openai = await Effect.runPromise(Scope.provide(FakeOpenAI.make, scope))
    anthropic = await Effect.runPromise(Scope.provide(FakeAnthropic.make, scope))
    stack = await startStack({
      worker: true,
      env: {
        LEGIBLE_OPENAI_API_KEY: "sk-fake-reliability",
        LEGIBLE_OPENAI_BASE_URL: openai.url,
        LEGIBLE_ANTHROPIC_API_KEY: "sk-ant-fake-reliability",
        LEGIBLE_ANTHROPIC_BASE_URL: anthropic.url,
        LEGIBLE_DEFAULT_MODEL: "gpt-4o-mini",
        LEGIBLE_LLM_MAX_ATTEMPTS: "1",
        LEGIBLE_MAX_ATTEMPTS: "1",
        LEGIBLE_WORKER_CONCURRENCY: "2"
      }
    })
    const alice = await createKey(jwt.alice, "alice live")
    const alice2 = await createKey(jwt.alice, "alice second")
    keys.alice = alice.key
    keyIds.alice.push(alice.id, alice2.id)
    keys.aliceTest = (await createKey(jwt.alice, "alice test", "test")).key
    keys.bob = (await createKey(jwt.bob, "bob live")).key
    keys.root = (await createKey(jwt.root, "root live")).key
    aliceSkill = await seedSkill(stack.api, jwt.alice)
    await seedSkill(stack.api, jwt.bob)
    const submit = (key: string, name: string) => stack.api.submit(key, SAMPLE_PDF, name, { model: "local" })
    for (let i = 0; i < 4; i++) ids.alice.push(await submit(keys.alice, `alice-${i}.pdf`))
    ids.aliceTest.push(await submit(keys.aliceTest, "alice-sandbox.pdf"))
    for (let i = 0; i < 2; i++) ids.bob.push(await submit(keys.bob, `bob-${i}.pdf`))
    for (const id of ids.alice) await stack.api.awaitFinal(keys.alice, id, 120_000)
    for (const id of ids.aliceTest) await stack.api.awaitFinal(keys.aliceTest, id, 120_000)
    for (const id of ids.bob) await stack.api.awaitFinal(keys.bob, id, 120_000)
  })
  afterAll(async () => {
    await stack?.stop()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })

  /** The reply's body with `id` written as `<id>`: a foreign id must read exactly like a missing one. */
  const normalized = (reply: Reply, id: string) =>
    `${reply.status} ${JSON.stringify(reply.body).replaceAll(id, "<id>")}`

  it("B7 cross-tenant matrix: B's key on A's extractions (read, detailed, document, PATCH) and B's JWT on A's keys → 404 like a missing id; lists never show another client's rows", async () => {
    const endpoints = [
      { method: "GET", path: (id: string) => `/v1/extractions/${id}`, body: undefined },
      { method: "GET", path: (id: string) => `/v1/extractions/${id}/detailed`, body: undefined },
      { method: "GET", path: (id: string) => `/v1/extractions/${id}/document`, body: undefined },
      { method: "PATCH", path: (id: string) => `/v1/extractions/${id}/status`, body: { status: "incompleto" } },
      { method: "PATCH", path: (id: string) => `/v1/extractions/${id}/status`, body: { status: "completado" } }
    ]
    // Intruders: another client's key, the owner's own test key (the sandbox), and a global_admin without client_id.
    const intruders = [
      { name: "bob", key: keys.bob, targets: ids.alice },
      { name: "alice's test key", key: keys.aliceTest, targets: ids.alice },
      { name: "alice's live key on her sandbox", key: keys.alice, targets: ids.aliceTest },
      { name: "global_admin without client_id", key: keys.root, targets: [...ids.alice, ...ids.bob] }
    ]
    const before = await stack.sql("SELECT id, status, last_modification::text AS m FROM extractions ORDER BY id")
    let checked = 0
    for (const intruder of intruders) {
      for (const endpoint of endpoints) {
        const missing = crypto.randomUUID()
        const expected = normalized(
          await stack.api.key(endpoint.method, endpoint.path(missing), intruder.key, endpoint.body),
          missing
        )
        expect(expected.startsWith('404 {"error":')).toBe(true)
        for (const id of intruder.targets) {
          const reply = await stack.api.key(endpoint.method, endpoint.path(id), intruder.key, endpoint.body)
          expect({ who: intruder.name, path: endpoint.path(id), got: normalized(reply, id) }).toEqual({
            who: intruder.name,
            path: endpoint.path(id),
            got: expected
          })
          checked++
        }
      }
    }
    // Nothing changed.
    expect(await stack.sql("SELECT id, status, last_modification::text AS m FROM extractions ORDER BY id")).toEqual(
      before
    )

    // Keys: bob's token on alice's key ids → 404 like a missing id; alice's keys keep working and stay listed.
    for (const id of keyIds.alice) {
      const missing = crypto.randomUUID()
      const expected = normalized(await stack.api.jwt("DELETE", `/api/api-keys/${missing}`, jwt.bob), missing)
      expect(expected.startsWith('404 {"error":')).toBe(true)
      expect(normalized(await stack.api.jwt("DELETE", `/api/api-keys/${id}`, jwt.bob), id)).toBe(expected)
      checked++
    }
    expect((await stack.api.key("GET", "/v1/extractions", keys.alice)).status).toBe(200)
    const aliceKeys = JSON.stringify((await stack.api.jwt("GET", "/api/api-keys/", jwt.alice)).body)
    for (const id of keyIds.alice) expect(aliceKeys).toContain(id)
    const bobKeys = JSON.stringify((await stack.api.jwt("GET", "/api/api-keys/", jwt.bob)).body)
    for (const id of keyIds.alice) expect(bobKeys).not.toContain(id)

    // Lists: under every filter, a caller sees only its own client's rows of its own world (live or sandbox).
    const queries = [
      "",
      "?limit=500",
      "?limit=500&include_archived=true",
      "?status=en%20cola,procesando,completado,incompleto,error",
      `?habilidad_id=${aliceSkill}`,
      "?habilidad_slug=factura-es",
      "?search=alice",
      "?search=pdf&sort_by=origin_name&sort_order=asc",
      "?sort_by=status&sort_order=desc&offset=0",
      "?start_date=2000-01-01&end_date=2999-12-31"
    ]
    const worlds = [
      { name: "bob", key: keys.bob, own: ids.bob },
      { name: "alice", key: keys.alice, own: ids.alice },
      { name: "alice's test key", key: keys.aliceTest, own: ids.aliceTest },
      { name: "root", key: keys.root, own: [] as Array<string> }
    ]
    let listed = 0
    for (const world of worlds) {
      for (const q of queries) {
        const reply = await stack.api.key("GET", `/v1/extractions${q}`, world.key)
        expect(reply.status).toBe(200)
        const page = reply.body as { extractions: Array<Json>; count: number }
        const foreign = page.extractions.map((e) => e.id as string).filter((id) => !world.own.includes(id))
        expect({ who: world.name, q, foreign }).toEqual({ who: world.name, q, foreign: [] })
        expect(page.count).toBeLessThanOrEqual(world.own.length)
        listed += page.extractions.length
      }
      const all = (await stack.api.key("GET", "/v1/extractions?limit=500", world.key)).body as { count: number }
      expect(all.count).toBe(world.own.length)
    }
    figure(
      "B7",
      `${checked} cross-tenant/sandbox requests → ${checked} × 404 identical to a missing id, 0 rows changed; ` +
        `${worlds.length * queries.length} filtered lists (${listed} rows) → 0 foreign rows`
    )
  })

  it("B8 client_id on PATCH is honoured only for global_admin; a normal user passing it acts in their own scope", async () => {
    const statusOf = async (id: string) =>
      (
        await stack.sql(`SELECT status, last_user_id, last_modification::text AS m FROM extractions WHERE id = '${id}'`)
      )[0]!
    const toggle = (status: unknown) => (status === "completado" ? "incompleto" : "completado")
    const [x, own] = ids.alice
    const [y] = ids.bob
    for (const id of [x!, own!, y!]) expect(SWITCHABLE.has((await statusOf(id)).status as string)).toBe(true)

    // global_admin: with client_id → acts on that client; without or with another client's → 404.
    const xBefore = await statusOf(x!)
    const none = await stack.api.key("PATCH", `/v1/extractions/${x}/status`, keys.root, {
      status: toggle(xBefore.status)
    })
    const wrong = await stack.api.key("PATCH", `/v1/extractions/${x}/status?client_id=client-b`, keys.root, {
      status: toggle(xBefore.status)
    })
    expect([none.status, wrong.status]).toEqual([404, 404])
    expect(await statusOf(x!)).toEqual(xBefore)
    const admin = await stack.api.key("PATCH", `/v1/extractions/${x}/status?client_id=client-a`, keys.root, {
      status: toggle(xBefore.status)
    })
    expect(admin.status).toBe(200)
    expect(((admin.body as Json).extraction as Json).last_user_id).toBe("root")
    expect(await statusOf(x!)).toMatchObject({ status: toggle(xBefore.status), last_user_id: "root" })

    // A normal user naming another client: their own scope only → bob's row is "not found" and unchanged.
    const yBefore = await statusOf(y!)
    const user = await stack.api.key("PATCH", `/v1/extractions/${y}/status?client_id=client-b`, keys.alice, {
      status: toggle(yBefore.status)
    })
    expect(user.status).toBe(404)
    expect(user.body).toEqual({ error: expect.any(String) })
    expect(await statusOf(y!)).toEqual(yBefore)
    // …and naming another client on their own row still acts on their own row.
    const ownBefore = await statusOf(own!)
    const self = await stack.api.key("PATCH", `/v1/extractions/${own}/status?client_id=client-b`, keys.alice, {
      status: toggle(ownBefore.status)
    })
    expect(self.status).toBe(200)
    expect(await statusOf(own!)).toMatchObject({ status: toggle(ownBefore.status), last_user_id: "alice" })
    figure(
      "B8",
      "global_admin: client_id of the owner → 200, none → 404, another client → 404; user with client_id=client-b " +
        "on bob's row → 404 (row unchanged), on own row → 200"
    )
  })

  it("B10 test-key traffic never consumes the live quota and never calls a paid provider (fake OpenAI/Anthropic: 0 requests)", async () => {
    const tess = await createKey(jwt.tess, "tess live")
    keys.tess = tess.key
    keys.tessTest = (await createKey(jwt.tess, "tess test", "test")).key
    await seedSkill(stack.api, jwt.tess)
    const quota = await stack.api.jwt("PUT", "/api/quotas/client-t", jwt.root, { limit: 2, period: "month" })
    expect(quota.status).toBe(200)
    const used = async () =>
      Number((await stack.sql("SELECT used FROM quotas WHERE client_id = 'client-t'"))[0]?.used ?? Number.NaN)
    const models = [undefined, "gpt-4o-mini", "gpt-4o", "claude-sonnet-4-5", "o3-mini"]
    const sandbox = await mapLimit(
      Array.from({ length: 10 }, (_, i) => i),
      5,
      (i) => {
        const model = models[i % models.length]
        return stack.api.submit(keys.tessTest, SAMPLE_PDF, `sandbox-${i}.pdf`, model === undefined ? {} : { model })
      }
    )
    expect(await used()).toBe(0)
    const finals = await Promise.all(sandbox.map((id) => stack.api.awaitFinal(keys.tessTest, id, 180_000)))
    for (const final of finals) expect(FINAL.has(final.status as string)).toBe(true)
    const sandboxModels = await stack.sql(
      `SELECT DISTINCT model FROM extractions WHERE client_id = 'client-t' AND sandbox`
    )
    expect(sandboxModels.map((r) => r.model)).toEqual(["local"])
    expect(await used()).toBe(0)
    const openaiCalls = (await Effect.runPromise(openai.requests)).length
    const anthropicCalls = (await Effect.runPromise(anthropic.requests)).length
    expect([openaiCalls, anthropicCalls]).toEqual([0, 0])

    // The live quota is intact: 2 live submissions pass, the third is a 402; the sandbox still works after.
    const live1 = await stack.api.key("POST", "/v1/extractions", keys.tess, {
      file_name: "live-1.pdf",
      skill: "factura-es",
      file_base64: Buffer.from(SAMPLE_PDF).toString("base64")
    })
    const live2 = await stack.api.key("POST", "/v1/extractions", keys.tess, {
      file_name: "live-2.pdf",
      skill: "factura-es",
      file_base64: Buffer.from(SAMPLE_PDF).toString("base64"),
      model: "local"
    })
    const live3 = await stack.api.key("POST", "/v1/extractions", keys.tess, {
      file_name: "live-3.pdf",
      skill: "factura-es",
      file_base64: Buffer.from(SAMPLE_PDF).toString("base64"),
      model: "local"
    })
    expect([live1.status, live2.status, live3.status]).toEqual([202, 202, 402])
    expect(live3.body).toEqual({ error: expect.any(String), limit: 2, used: 2 })
    expect(
      (
        await stack.api.key("POST", "/v1/extractions", keys.tessTest, {
          file_name: "sandbox-after.pdf",
          skill: "factura-es",
          file_base64: Buffer.from(SAMPLE_PDF).toString("base64")
        })
      ).status
    ).toBe(202)
    expect(await used()).toBe(2)
    // The control: the live default-model submission does reach the fake OpenAI, so the zero above is meaningful.
    await stack.api.awaitFinal(keys.tess, (live1.body as Json).extraction_id as string, 120_000)
    const controlCalls = (await Effect.runPromise(openai.requests)).length
    expect(controlCalls).toBeGreaterThanOrEqual(1)
    figure(
      "B10",
      `11 test-key submissions (5 models named) → used 0, model local, provider requests 0 (OpenAI) + 0 (Anthropic); ` +
        `live: 2 × 202 then 402 {limit 2, used 2}; control live job → ${controlCalls} OpenAI request(s)`
    )
  })

  it("B9 quota race: quota 50, 200 concurrent POSTs from 4 keys → exactly 50 × 202 + 150 × 402 {error, limit: 50, used: 50}, stored used = 50; 20 rounds, 0 overshoot", async () => {
    // The worker is stopped: the race is the api's and the database's; 1,000 queued jobs need not run.
    await stack.worker?.stop("SIGKILL")
    stack.worker = undefined
    const quinnKeys = await Promise.all([1, 2, 3, 4].map((i) => createKey(jwt.quinn, `quinn ${i}`)))
    await seedSkill(stack.api, jwt.quinn)
    const set = await stack.api.jwt("PUT", "/api/quotas/client-q", jwt.root, { limit: 50, period: "month" })
    expect(set.status).toBe(200)
    const body = JSON.stringify({
      file_name: "race.pdf",
      skill: "factura-es",
      file_base64: Buffer.from(SAMPLE_PDF).toString("base64"),
      model: "local"
    })
    const rows = async () =>
      Number((await stack.sql("SELECT count(*)::int AS n FROM extractions WHERE client_id = 'client-q'"))[0]?.n)
    const jobs = async () =>
      Number(
        (
          await stack.sql(
            "SELECT count(*)::int AS n FROM jobs j JOIN extractions e ON e.id = j.extraction_id WHERE e.client_id = 'client-q'"
          )
        )[0]?.n
      )
    const rounds: Array<{ accepted: number; refused: number; used: number; rows: number }> = []
    const durations: Array<number> = []
    for (let round = 0; round < ROUNDS; round++) {
      await stack.sql("UPDATE quotas SET used = 0 WHERE client_id = 'client-q'")
      const rowsBefore = await rows()
      const started = performance.now()
      const replies = await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          const response = await fetch(`${stack.server.url}/v1/extractions`, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": quinnKeys[i % 4]!.key },
            body
          })
          return { status: response.status, body: (await response.json()) as Json }
        })
      )
      durations.push(performance.now() - started)
      const accepted = replies.filter((r) => r.status === 202)
      const refused = replies.filter((r) => r.status === 402)
      for (const r of refused) expect(r.body).toEqual({ error: expect.any(String), limit: 50, used: 50 })
      const stored = Number((await stack.sql("SELECT used FROM quotas WHERE client_id = 'client-q'"))[0]?.used)
      const created = (await rows()) - rowsBefore
      rounds.push({ accepted: accepted.length, refused: refused.length, used: stored, rows: created })
      expect({ round, accepted: accepted.length, refused: refused.length, used: stored, rows: created }).toEqual({
        round,
        accepted: 50,
        refused: 150,
        used: 50,
        rows: 50
      })
    }
    expect(await jobs()).toBe(await rows())
    const read = await stack.api.jwt("GET", "/api/quotas/client-q", jwt.root)
    expect(read.body).toMatchObject({ limit: 50, used: 50 })
    const overshoot = Math.max(...rounds.map((r) => r.used - 50))
    figure(
      "B9",
      `${ROUNDS} rounds × 200 concurrent POSTs (4 keys, quota 50) → every round 50 × 202 + 150 × 402 {limit 50, used 50}, ` +
        `stored used 50, rows +50, jobs = rows; overshoot ${overshoot}; slowest round ${Math.max(...durations).toFixed(0)} ms`
    )
  })
})
