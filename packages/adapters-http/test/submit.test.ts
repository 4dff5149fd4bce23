import { describe, expect, it } from "@effect/vitest"
import { Fixtures, TestTime } from "@legible/testkit"
import { Result } from "effect"
import * as Base64 from "../src/internal/base64.js"
import { apiKey, base64, bearer, createKey, read, SAMPLES, submission, token, withApp } from "./support.js"

const post = (body: string, key: string = Fixtures.LIVE_KEY) => ({
  method: "POST",
  headers: apiKey(key),
  body
})

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe("POST /v1/extractions", () => {
  it(
    "answers 202 {extraction_id} and stores the row, the exact bytes and a job together, with the skill version",
    withApp(async (app) => {
      const { status, body } = await read(await app.fetch("/v1/extractions", post(submission())))
      expect(status).toBe(202)
      expect(body).toEqual({ extraction_id: expect.stringMatching(UUID) })
      const id = (body as { extraction_id: string }).extraction_id
      const row = app.state.extractions.get(id)
      expect(row).toMatchObject({
        clientId: Fixtures.client.id,
        originName: "factura-0042.pdf",
        mimeType: "application/pdf",
        status: "en cola",
        model: "gpt-4o-mini",
        mode: "ocr_pdf",
        sandbox: false,
        skillSlug: "factura-es",
        skillVersion: 1
      })
      expect(app.state.documents.get(id)?.bytes).toEqual(SAMPLES.pdf)
      expect([...app.state.jobs.values()].filter((j) => j.extractionId === id)).toMatchObject([
        { state: "queued", maxAttempts: 3 }
      ])
    })
  )

  it(
    "records the skill version in force: a PUT of the skill makes later submissions run version 2",
    withApp(async (app) => {
      const skill = (await (await app.fetch("/api/skills/factura-es", { headers: bearer(await token()) })).json()) as {
        fields: unknown
      }
      const update = await app.fetch("/api/skills/factura-es", {
        method: "PUT",
        headers: bearer(await token()),
        body: JSON.stringify({ name: "Factura v2", instructions: "", fields: skill.fields })
      })
      expect(update.status).toBe(200)
      const { body } = await read(await app.fetch("/v1/extractions", post(submission())))
      expect(app.state.extractions.get((body as { extraction_id: string }).extraction_id)?.skillVersion).toBe(2)
    })
  )

  it(
    "takes the mode and model given, and the configured default model when none is",
    withApp(
      async (app) => {
        const submit = async (extra: Record<string, unknown>) => {
          const { status, body } = await read(await app.fetch("/v1/extractions", post(submission(extra))))
          expect(status).toBe(202)
          return app.state.extractions.get((body as { extraction_id: string }).extraction_id)!
        }
        expect(await submit({})).toMatchObject({ model: "local", mode: "ocr_pdf" })
        expect(await submit({ model: null, extraction_mode: null })).toMatchObject({ model: "local", mode: "ocr_pdf" })
        expect(await submit({ model: "gpt-4o-mini", extraction_mode: "ocr_only" })).toMatchObject({
          model: "gpt-4o-mini",
          mode: "ocr_only"
        })
        for (const mode of ["ocr_pipeline_md", "pdf_only"]) {
          expect((await submit({ extraction_mode: mode })).mode).toBe(mode)
        }
      },
      { options: { defaultModel: "local" } }
    )
  )

  it(
    "refuses a model whose provider is not configured, and a bad mode, with 400 {error}",
    withApp(async (app) => {
      for (const [extra, word] of [
        [{ model: "claude-sonnet-4" }, "model 'claude-sonnet-4' is not available"],
        [{ model: "" }, "model"],
        [{ model: 4 }, "model"],
        [{ extraction_mode: "ocr" }, "extraction_mode"]
      ] as const) {
        const result = await read(await app.fetch("/v1/extractions", post(submission(extra))))
        expect(result, JSON.stringify(extra)).toEqual({ status: 400, body: { error: expect.stringContaining(word) } })
      }
      expect(app.state.extractions.size).toBe(0)
    })
  )

  it(
    "runs test keys in the sandbox: model local whatever is asked, invisible to live keys, no quota used",
    withApp(async (app) => {
      app.state.quotas.set(Fixtures.client.id, {
        clientId: Fixtures.client.id,
        limit: 0,
        period: "month",
        periodStart: TestTime.now,
        used: 0
      })
      const { status, body } = await read(
        await app.fetch("/v1/extractions", post(submission({ model: "gpt-4o-mini" }), Fixtures.TEST_KEY))
      )
      expect(status).toBe(202)
      const id = (body as { extraction_id: string }).extraction_id
      expect(app.state.extractions.get(id)).toMatchObject({ model: "local", sandbox: true })
      expect((await app.fetch(`/v1/extractions/${id}`, { headers: apiKey(Fixtures.LIVE_KEY) })).status).toBe(404)
      expect((await app.fetch(`/v1/extractions/${id}`, { headers: apiKey(Fixtures.TEST_KEY) })).status).toBe(200)
    })
  )

  it(
    "answers 400 {error} naming the missing member, and 404 {error} for an unknown skill",
    withApp(async (app) => {
      for (const member of ["file_name", "skill", "file_base64"]) {
        const body = JSON.parse(submission()) as Record<string, unknown>
        delete body[member]
        const result = await read(await app.fetch("/v1/extractions", post(JSON.stringify(body))))
        expect(result).toEqual({ status: 400, body: { error: `${member} is required` } })
      }
      for (const [extra, word] of [
        [{ file_name: "   " }, "file_name is required"],
        [{ file_name: "x".repeat(256) }, "at most 255"],
        [{ file_name: "a\u0000b.pdf" }, "NUL"],
        [{ file_name: "lone\ud800.pdf" }, "well-formed"],
        [{ skill: "" }, "skill is required"],
        [{ file_name: 12 }, "file_name"]
      ] as const) {
        const result = await read(await app.fetch("/v1/extractions", post(submission(extra))))
        expect(result, JSON.stringify(extra)).toEqual({ status: 400, body: { error: expect.stringContaining(word) } })
      }
      expect(await read(await app.fetch("/v1/extractions", post(submission({ skill: "nope" }))))).toEqual({
        status: 404,
        body: { error: "skill 'nope' not found" }
      })
      // Another client's skill slug is just as unknown.
      const bruno = await createKey(app, Fixtures.otherUser())
      expect((await app.fetch("/v1/extractions", post(submission(), bruno))).status).toBe(404)
      expect(app.state.extractions.size).toBe(0)
    })
  )

  it(
    "sniffs the type from the bytes: HTML, ZIP or EXE named .pdf are 400; PNG and JPEG are stored with their type",
    withApp(async (app) => {
      for (const bytes of [SAMPLES.html, SAMPLES.zip, SAMPLES.exe]) {
        const result = await read(
          await app.fetch("/v1/extractions", post(submission({ file_name: "factura.pdf", file_base64: base64(bytes) })))
        )
        expect(result).toEqual({ status: 400, body: { error: expect.stringContaining("invalid file") } })
      }
      for (const [bytes, type] of [
        [SAMPLES.png, "image/png"],
        [SAMPLES.jpeg, "image/jpeg"]
      ] as const) {
        const { body } = await read(
          await app.fetch("/v1/extractions", post(submission({ file_name: "scan.pdf", file_base64: base64(bytes) })))
        )
        expect(app.state.extractions.get((body as { extraction_id: string }).extraction_id)?.mimeType).toBe(type)
      }
    })
  )

  it(
    "refuses non-strict Base64 with 400 {error} and accepts wrapped lines",
    withApp(async (app) => {
      // A PDF whose length is not a multiple of 3, so that its Base64 ends in padding.
      const pdf = SAMPLES.pdf.length % 3 === 0 ? Uint8Array.from([...SAMPLES.pdf, 0x0a]) : SAMPLES.pdf
      const good = base64(pdf)
      expect(good.endsWith("=")).toBe(true)
      const bad: Record<string, string> = {
        empty: "",
        dataUrl: `data:application/pdf;base64,${good}`,
        space: `${good.slice(0, 8)} ${good.slice(8)}`,
        urlSafe: good.replace(/\+|\//g, "-").replace(/=+$/, "").padEnd(good.length, "-"),
        badChar: `${good.slice(0, -4)}*AAA`,
        missingPadding: good.replace(/=+$/, ""),
        extraPadding: `${good}====`,
        innerPadding: `${good.slice(0, 4)}=${good.slice(5)}`,
        nonAscii: `${good.slice(0, -4)}ñAAA`
      }
      for (const [name, value] of Object.entries(bad)) {
        const result = await read(await app.fetch("/v1/extractions", post(submission({ file_base64: value }))))
        expect(result.status, name).toBe(400)
        expect(result.body, name).toEqual({ error: expect.stringContaining("file_base64") })
      }
      const wrapped = good.replace(/(.{16})/g, "$1\r\n")
      expect(Result.isSuccess(Base64.decode(""))).toBe(false)
      expect((await app.fetch("/v1/extractions", post(submission({ file_base64: wrapped })))).status).toBe(202)
      expect(app.state.extractions.size).toBe(1)
    })
  )

  it(
    "answers 402 {error, limit, used} once the quota is used up: 50 of 200 concurrent submissions pass",
    withApp(async (app) => {
      app.state.quotas.set(Fixtures.client.id, {
        clientId: Fixtures.client.id,
        limit: 50,
        period: "month",
        periodStart: TestTime.now,
        used: 0
      })
      const responses = await Promise.all(
        Array.from({ length: 200 }, () => app.fetch("/v1/extractions", post(submission())))
      )
      const statuses = responses.map((r) => r.status)
      expect(statuses.filter((s) => s === 202)).toHaveLength(50)
      expect(statuses.filter((s) => s === 402)).toHaveLength(150)
      const refused = responses.find((r) => r.status === 402)!
      expect(await read(refused)).toEqual({
        status: 402,
        body: { error: expect.any(String), limit: 50, used: 50 }
      })
      expect(app.state.extractions.size).toBe(50)
    })
  )
})

describe("Base64.decode", () => {
  it("decodes canonical Base64 byte for byte and refuses everything Node's decoder would let through", () => {
    for (let n = 1; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) % 256)
      const decoded = Base64.decode(Buffer.from(bytes).toString("base64"))
      expect(Result.isSuccess(decoded) ? [...decoded.success] : decoded.failure).toEqual([...bytes])
    }
    for (const input of [
      "QQ=",
      "QQ",
      "QR==",
      "QUI=x",
      "QU=I",
      "Q===",
      "=QQQ",
      "QUJD\tRA==",
      "QUJD RA==",
      "QUJ-",
      "Zm9v\u00a0"
    ]) {
      expect(Result.isFailure(Base64.decode(input)), JSON.stringify(input)).toBe(true)
    }
    // Node would decode these to something; the strict decoder says why not, without echoing the input.
    const failure = Base64.decode("SGVsbG8*V29ybGQ=")
    expect(Result.isFailure(failure) && failure.failure).toBe("file_base64 is not valid Base64: '*' at position 7")
  })
})
