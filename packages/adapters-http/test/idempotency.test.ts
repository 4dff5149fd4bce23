/**
 * `Idempotency-Key` on `POST /v1/extractions` in process (IETF httpapi draft): the first 202 is replayed with
 * `Idempotent-Replayed: true` and nothing new is created or counted; another body → 422; in flight → 409; refusals are
 * not remembered; a bad key → 400; live and sandbox keys apart. Also `Location` on every 202 and the model refusal
 * naming the served models.
 */
import { describe, expect, it } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Fixtures, TestTime } from "@legible/testkit"
import { Context, Effect, Latch } from "effect"
import { fingerprint } from "../src/internal/idempotent.js"
import { type App, apiKey, base64, read, SAMPLES, submission, withApp } from "./support.js"

const post = (body: string, key: string | undefined, apiKeyValue: string = Fixtures.LIVE_KEY) => ({
  method: "POST",
  headers: { ...apiKey(apiKeyValue), ...(key === undefined ? {} : { "idempotency-key": key }) },
  body
})

const submit = async (app: App, body: string, key?: string, apiKeyValue?: string) => {
  const response = await app.fetch("/v1/extractions", post(body, key, apiKeyValue))
  return { ...(await read(response)), headers: response.headers }
}

const idOf = (body: unknown) => (body as { extraction_id: string }).extraction_id

const setQuota = (app: App, limit: number) =>
  app.state.quotas.set(Fixtures.client.id, {
    clientId: Fixtures.client.id,
    limit,
    period: "month",
    periodStart: TestTime.now,
    used: 0
  })

describe("Idempotency-Key on POST /v1/extractions", () => {
  it(
    "a retry with the same key and body replays the 202 with Idempotent-Replayed and creates and counts nothing",
    withApp(async (app) => {
      setQuota(app, 10)
      const first = await submit(app, submission(), "order-7781")
      expect(first.status).toBe(202)
      expect(first.headers.get("idempotent-replayed")).toBeNull()
      const id = idOf(first.body)
      expect(first.headers.get("location")).toBe(`/v1/extractions/${id}`)
      // The same request encoded anew: members in another order, spaces, the Base64 wrapped at 76 characters.
      const wrapped = base64(SAMPLES.pdf).replace(/(.{76})/g, "$1\r\n")
      const reencoded = `{ "skill": "factura-es",  "file_base64": ${JSON.stringify(wrapped)}, "file_name": "factura-0042.pdf", "model": null }`
      for (const body of [submission(), reencoded]) {
        const again = await submit(app, body, "order-7781")
        expect(again.status).toBe(202)
        expect(again.body).toEqual({ extraction_id: id })
        expect(again.headers.get("idempotent-replayed")).toBe("true")
        expect(again.headers.get("location")).toBe(`/v1/extractions/${id}`)
      }
      expect(app.state.extractions.size).toBe(1)
      expect(app.state.jobs.size).toBe(1)
      expect(app.state.quotas.get(Fixtures.client.id)?.used).toBe(1)
      // Another key is another request.
      const other = await submit(app, submission(), "order-7782")
      expect(other.status).toBe(202)
      expect(idOf(other.body)).not.toBe(id)
      expect(app.state.quotas.get(Fixtures.client.id)?.used).toBe(2)
    })
  )

  it(
    "the same key with another body is refused with 422 {error}, and the first answer stays",
    withApp(async (app) => {
      const first = await submit(app, submission(), "k-422")
      const other = await submit(app, submission({ file_name: "otra.pdf" }), "k-422")
      expect(other.status).toBe(422)
      expect(other.body).toEqual({ error: expect.stringContaining("another body") })
      expect(app.state.extractions.size).toBe(1)
      const again = await submit(app, submission(), "k-422")
      expect(again.body).toEqual(first.body)
    })
  )

  // The skill lookup of the first submission waits on this latch: it holds the claim meanwhile.
  const gate = Latch.makeUnsafe(false)
  it(
    "while the first request with the key is being handled, a retry gets 409 {error} and the first completes",
    withApp(
      async (app) => {
        const first = submit(app, submission(), "k-409")
        await new Promise((resolve) => setTimeout(resolve, 50))
        const during = await submit(app, submission(), "k-409")
        expect(during.status).toBe(409)
        expect(during.body).toEqual({ error: expect.stringContaining("still being handled") })
        const differs = await submit(app, submission({ file_name: "otra.pdf" }), "k-409")
        expect(differs.status).toBe(422)
        Effect.runSync(gate.open)
        expect((await first).status).toBe(202)
        expect(app.state.extractions.size).toBe(1)
        expect((await submit(app, submission(), "k-409")).headers.get("idempotent-replayed")).toBe("true")
      },
      {
        patch: (services) => {
          const skills = Context.get(services, Ports.SkillStore)
          return Context.add(
            services,
            Ports.SkillStore,
            Ports.SkillStore.of({
              ...skills,
              findBySlug: (clientId, slug) => Effect.andThen(gate.await, skills.findBySlug(clientId, slug))
            })
          )
        }
      }
    )
  )

  it(
    "refusals are not remembered: a 404, a 402 and a 400 with a key, then the corrected request with it succeeds",
    withApp(async (app) => {
      const missing = await submit(app, submission({ skill: "no-existe" }), "k-fix")
      expect(missing.status).toBe(404)
      const badFile = await submit(app, submission({ file_base64: base64(SAMPLES.html) }), "k-fix")
      expect(badFile.status).toBe(400)
      setQuota(app, 0)
      const over = await submit(app, submission(), "k-fix")
      expect(over.status).toBe(402)
      setQuota(app, 5)
      const fixed = await submit(app, submission(), "k-fix")
      expect(fixed.status).toBe(202)
      expect(fixed.headers.get("idempotent-replayed")).toBeNull()
      expect(app.state.idempotency.size).toBe(1)
      expect(app.state.quotas.get(Fixtures.client.id)?.used).toBe(1)
    })
  )

  it(
    "a key of 1 to 255 printable characters is taken, bare or as a quoted structured-field string; others are 400",
    withApp(async (app) => {
      const longest = "k".repeat(255)
      expect((await submit(app, submission(), longest)).status).toBe(202)
      const quoted = await submit(app, submission(), `"${longest}"`)
      expect(quoted.headers.get("idempotent-replayed")).toBe("true")
      for (const bad of ["", '""', "k".repeat(256), "clé-ñ"]) {
        const refused = await submit(app, submission({ file_name: "otro.pdf" }), bad)
        expect(refused.status, JSON.stringify(bad)).toBe(400)
        expect(refused.body).toEqual({ error: expect.stringContaining("Idempotency-Key") })
      }
      expect(app.state.extractions.size).toBe(1)
    })
  )

  it(
    "a live key and a test key of the same client keep their Idempotency-Keys apart",
    withApp(async (app) => {
      const live = await submit(app, submission(), "shared-key")
      const sandbox = await submit(app, submission(), "shared-key", Fixtures.TEST_KEY)
      expect(sandbox.status).toBe(202)
      expect(sandbox.headers.get("idempotent-replayed")).toBeNull()
      expect(idOf(sandbox.body)).not.toBe(idOf(live.body))
    })
  )

  it(
    "the retention is configurable: past it the key is forgotten and the same request creates a new extraction",
    withApp(
      async (app) => {
        const first = await submit(app, submission(), "short-lived")
        await new Promise((resolve) => setTimeout(resolve, 120))
        const later = await submit(app, submission(), "short-lived")
        expect(later.status).toBe(202)
        expect(later.headers.get("idempotent-replayed")).toBeNull()
        expect(idOf(later.body)).not.toBe(idOf(first.body))
      },
      { options: { idempotencyRetention: "100 millis" } }
    )
  )

  it(
    "a model the server does not serve is refused with 400 naming the ones it does",
    withApp(
      async (app) => {
        const refused = await submit(app, submission({ model: "llama-3" }))
        expect(refused.status).toBe(400)
        expect(refused.body).toEqual({
          error: "model 'llama-3' is not available on this server; available: gpt-*, o*, local"
        })
      },
      { options: { models: ["gpt-*", "o*", "local"] } }
    )
  )

  it("the fingerprint ignores what re-encoding changes and sees every member that matters", () => {
    const body = { file_name: "a.pdf", skill: "s", file_base64: "QUJD\r\nREVG" }
    expect(fingerprint(body)).toBe(fingerprint({ ...body, file_base64: "QUJDREVG", model: null }))
    expect(fingerprint(body)).toBe(fingerprint({ ...body, extraction_mode: null }))
    for (const other of [
      { ...body, file_name: "b.pdf" },
      { ...body, skill: "t" },
      { ...body, file_base64: "QUJDREVH" },
      { ...body, model: "local" },
      { ...body, extraction_mode: "ocr_only" as const }
    ]) {
      expect(fingerprint(other)).not.toBe(fingerprint(body))
    }
  })
})
