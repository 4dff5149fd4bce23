/**
 * RELIABILITY.md F35 (`Idempotency-Key` on submissions) against the BUILT server: two `serve --role api` processes
 * on one fresh PostgreSQL database, the retention configured short. 100 concurrent identical submissions with one
 * key, spread over both processes → exactly 1 extraction, 1 job and 1 unit of quota; every answer a 202 with that id
 * (the first, or replayed) or a 409 while the first was in flight. Another body with the key → 422; a refused request
 * is not remembered; after the retention the same request creates a new extraction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Client, client, SAMPLE_PDF, seedSkill, token } from "../test/support/http.js"
import { type Server, startServer } from "../test/support/process.js"
import { v1 } from "../test/support/typed.js"
import { figure, quantile, type Stack, startStack } from "./support/ab.js"

const USERS = {
  alice: { sub: "alice", clientId: "client-a", name: "Alice" },
  root: { sub: "root", clientId: "ops", name: "Root", role: "global_admin" as const }
} as const

/** Submissions of the burst (RELIABILITY.md F35: 100). */
const BURST = 100
/** The configured retention: long enough to outlast the burst, short enough to wait out. */
const RETENTION_SECONDS = 20

const body = (fileName: string) => ({
  file_name: fileName,
  skill: "factura-es",
  file_base64: Buffer.from(SAMPLE_PDF).toString("base64"),
  model: "local"
})

describe("F35: Idempotency-Key", () => {
  let stack: Stack
  let second: Server
  let apis: ReadonlyArray<Client> = []
  let key = ""

  const count = async (table: "extractions" | "jobs") =>
    Number(
      (
        await stack.sql(
          table === "extractions"
            ? "SELECT count(*) AS n FROM extractions WHERE client_id = 'client-a'"
            : "SELECT count(*) AS n FROM jobs j JOIN extractions e ON e.id = j.extraction_id WHERE e.client_id = 'client-a'"
        )
      )[0]?.n
    )
  const used = async () => Number((await stack.sql("SELECT used FROM quotas WHERE client_id = 'client-a'"))[0]?.used)

  beforeAll(async () => {
    stack = await startStack({ env: { LEGIBLE_IDEMPOTENCY_RETENTION_SECONDS: String(RETENTION_SECONDS) } })
    second = await startServer({ env: stack.env, args: ["serve", "--role", "api"] })
    apis = [stack.api, client(second.url)]
    const alice = token(USERS.alice)
    key = await stack.api.createKey(alice, "alice live")
    await stack.api.createKey(token(USERS.root), "root live")
    await seedSkill(stack.api, alice)
    const quota = await stack.api.send(
      stack.api
        .as({ token: token(USERS.root) })
        .quotas.set({ params: { client_id: "client-a" }, payload: { limit: 1000, period: "month" } })
    )
    expect(quota.status).toBe(200)
  })

  afterAll(async () => {
    await second?.stop("SIGKILL")
    await stack?.stop()
  })

  it("100 concurrent identical submissions with one key on two api processes: 1 extraction, 1 quota unit", async () => {
    const started = performance.now()
    const answers = await Promise.all(
      Array.from({ length: BURST }, async (_, i) => {
        const t0 = performance.now()
        const sent = await v1(apis[i % apis.length]!, key).submit(body("rafaga.pdf"), "burst-0001")
        return { sent, ms: performance.now() - t0 }
      })
    )
    const burstMs = performance.now() - started
    const accepted = answers.filter((a) => a.sent.status === 202)
    const inFlight = answers.filter((a) => a.sent.status === 409)
    expect(accepted.length + inFlight.length).toBe(BURST)
    const ids = new Set(accepted.map((a) => a.sent.value?.body.extraction_id))
    expect(ids.size).toBe(1)
    const firsts = accepted.filter((a) => a.sent.headers.get("idempotent-replayed") === null)
    expect(firsts.length).toBe(1)
    for (const a of accepted.filter((x) => x !== firsts[0]))
      expect(a.sent.headers.get("idempotent-replayed")).toBe("true")
    for (const a of inFlight) expect(a.sent.body).toEqual({ error: expect.stringContaining("still being handled") })
    expect(await count("extractions")).toBe(1)
    expect(await count("jobs")).toBe(1)
    expect(await used()).toBe(1)
    // Once answered, every retry (on either process) replays it.
    const [id] = ids
    for (const api of apis) {
      const retry = await v1(api, key).submit(body("rafaga.pdf"), "burst-0001")
      expect(retry.status).toBe(202)
      expect(retry.value?.body.extraction_id).toBe(id)
      expect(retry.headers.get("idempotent-replayed")).toBe("true")
    }
    const ms = answers.map((a) => a.ms)
    figure(
      "F35",
      `${BURST} concurrent submissions, one key, 2 api processes: 202 first 1, 202 replayed ${accepted.length - 1}, ` +
        `409 in flight ${inFlight.length}; extractions 1, jobs 1, quota used 1; answer p50 ${quantile(ms, 0.5).toFixed(0)} ms, ` +
        `p99 ${quantile(ms, 0.99).toFixed(0)} ms, burst ${burstMs.toFixed(0)} ms`
    )
  })

  it("the same key with another body is 422 and creates nothing; a refused request is not remembered", async () => {
    const other = await v1(apis[1]!, key).submit(body("otra.pdf"), "burst-0001")
    expect(other.status).toBe(422)
    expect(other.body).toEqual({ error: expect.any(String) })
    const refused = await v1(apis[0]!, key).submit({ ...body("corregida.pdf"), skill: "no-existe" }, "fix-0001")
    expect(refused.status).toBe(404)
    const corrected = await v1(apis[1]!, key).submit(body("corregida.pdf"), "fix-0001")
    expect(corrected.status).toBe(202)
    expect(corrected.headers.get("idempotent-replayed")).toBeNull()
    expect(await count("extractions")).toBe(2)
    expect(await used()).toBe(2)
  })

  it("after the retention the key is forgotten: the same request creates a new extraction", async () => {
    const before = (await v1(apis[0]!, key).submit(body("rafaga.pdf"), "burst-0001")).value?.body.extraction_id
    const claimed = await stack.sql(
      "SELECT extract(epoch FROM expires_at - now()) AS left FROM idempotency_keys WHERE key = 'burst-0001'"
    )
    const left = Number(claimed[0]?.left)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, left * 1000) + 500))
    const later = await v1(apis[1]!, key).submit(body("rafaga.pdf"), "burst-0001")
    expect(later.status).toBe(202)
    expect(later.headers.get("idempotent-replayed")).toBeNull()
    expect(later.value?.body.extraction_id).not.toBe(before)
    expect(await count("extractions")).toBe(3)
    expect(await used()).toBe(3)
    figure("F35", `after the ${RETENTION_SECONDS} s retention the key was forgotten: a new extraction, quota used 3`)
  })
})
