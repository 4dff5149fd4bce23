import { describe, expect, it } from "@effect/vitest"
import { Errors, Ports } from "@legible/core"
import { Fake, Fixtures, TestIds, TestTime } from "@legible/testkit"
import { parse as parseDisposition } from "content-disposition"
import { Context, Effect } from "effect"
import { type App, apiKey, createKey, putExtraction, read, submission, withApp } from "./support.js"

/** The descriptions of every schema member named `member` below `node` (an OpenAPI document or part of one). */
const descriptionsOf = (node: unknown, member: string): Array<string> => {
  if (typeof node !== "object" || node === null) return []
  const own = (node as { properties?: Record<string, { description?: string }> }).properties?.[member]?.description
  return [...(own === undefined ? [] : [own]), ...Object.values(node).flatMap((child) => descriptionsOf(child, member))]
}

/** The descriptions of `member` in the detailed read's schema of the served OpenAPI document. */
const detailedDescriptions = async (app: App, member: string): Promise<Array<string>> => {
  const spec = (await read(await app.fetch("/openapi.json"))).body as { paths: Record<string, unknown> }
  return descriptionsOf(spec.paths["/v1/extractions/{extraction_id}/detailed"], member)
}

const DAY = 86_400_000
const get = (app: App, path: string, key: string = Fixtures.LIVE_KEY) => app.fetch(path, { headers: apiKey(key) })

/** Six extractions of Ana's client over three days, one archived, plus one of Bruno's client. */
const seedList = (app: App) => {
  const rows = [
    { originName: "Factura-Ñandú.pdf", status: "completado", createdAt: TestTime.at(-2 * DAY) },
    { originName: "albaran_100%.pdf", status: "error", createdAt: TestTime.at(-2 * DAY + 1000) },
    { originName: "contrato.pdf", status: "en cola", createdAt: TestTime.at(-DAY) },
    { originName: "Recibo.png", status: "incompleto", createdAt: TestTime.at(0) },
    { originName: "factura-2.pdf", status: "procesando", createdAt: TestTime.at(1000) },
    { originName: "viejo.pdf", status: "completado", createdAt: TestTime.at(-3 * DAY), archived: true }
  ] as const
  for (const [i, row] of rows.entries()) {
    const record = { id: TestIds.uuid(100 + i), ...row, lastModification: row.createdAt, skillId: Fixtures.ids.skill }
    putExtraction(app, Fixtures.extraction(record))
  }
  putExtraction(app, Fixtures.extraction({ id: TestIds.uuid(200), clientId: Fixtures.otherClient.id }))
}

const names = async (response: Response) => {
  const body = (await response.json()) as { extractions: Array<{ origin_name: string }>; count: number }
  return { names: body.extractions.map((e) => e.origin_name), count: body.count }
}

describe("GET /v1/extractions", () => {
  it(
    "lists the caller's summaries newest first, without archived ones: {extractions, count}",
    withApp(async (app) => {
      seedList(app)
      const { status, body } = await read(await get(app, "/v1/extractions"))
      expect(status).toBe(200)
      const list = body as { extractions: Array<Record<string, unknown>>; count: number }
      expect(list.count).toBe(5)
      expect(list.extractions.map((e) => e.origin_name)).toEqual([
        "factura-2.pdf",
        "Recibo.png",
        "contrato.pdf",
        "albaran_100%.pdf",
        "Factura-Ñandú.pdf"
      ])
      expect(Object.keys(list.extractions[0]!).sort()).toEqual(
        [
          "extraction_date",
          "habilidad_id",
          "id",
          "last_modification",
          "last_user_email",
          "last_user_id",
          "last_user_name",
          "origin_name",
          "skill_name",
          "status"
        ].sort()
      )
    })
  )

  it(
    "honours every query parameter of spec 4.3",
    withApp(async (app) => {
      seedList(app)
      const q = async (query: string) => names(await get(app, `/v1/extractions?${query}`))
      expect((await q("status=completado,error")).names).toEqual(["albaran_100%.pdf", "Factura-Ñandú.pdf"])
      expect((await q(`habilidad_id=${Fixtures.ids.skill}`)).count).toBe(5)
      expect((await q(`habilidad_id=${TestIds.uuid(999)}`)).count).toBe(0)
      expect((await q("habilidad_slug=factura-es")).count).toBe(5)
      expect((await q("habilidad_slug=otra")).count).toBe(0)
      expect((await q("start_date=2026-03-11&end_date=2026-03-11")).names).toEqual(["contrato.pdf"])
      expect((await q("start_date=2026-03-12")).names).toEqual(["factura-2.pdf", "Recibo.png"])
      expect((await q("end_date=2026-03-10")).names).toEqual(["albaran_100%.pdf", "Factura-Ñandú.pdf"])
      expect((await q("search=FACTURA-nandu")).names).toEqual(["Factura-Ñandú.pdf"])
      expect((await q("search=100%25")).names).toEqual(["albaran_100%.pdf"])
      expect((await q("search=_")).names).toEqual(["albaran_100%.pdf"])
      expect(await q("limit=2")).toEqual({ names: ["factura-2.pdf", "Recibo.png"], count: 5 })
      expect((await q("limit=2&offset=2")).names).toEqual(["contrato.pdf", "albaran_100%.pdf"])
      expect((await q("sort_by=origin_name&sort_order=asc")).names).toEqual([
        "Factura-Ñandú.pdf",
        "Recibo.png",
        "albaran_100%.pdf",
        "contrato.pdf",
        "factura-2.pdf"
      ])
      expect((await q("sort_by=fecha_creacion&sort_order=asc")).names[0]).toBe("Factura-Ñandú.pdf")
      expect((await q("sort_by=status&sort_order=asc")).names[0]).toBe("Factura-Ñandú.pdf")
      expect((await q("include_archived=true")).count).toBe(6)
      expect((await q("include_archived=false")).count).toBe(5)
      expect((await q("unknown=ignored")).count).toBe(5)
    })
  )

  it(
    "a search no file name can hold (over 255 characters, or a NUL) is literal: 200 with no items",
    withApp(async (app) => {
      putExtraction(app, Fixtures.completedExtraction())
      for (const query of [`search=${"x".repeat(10_000)}`, "search=%00", "search=factura%00"]) {
        const result = await read(await get(app, `/v1/extractions?${query}`))
        expect(result.status, query).toBe(200)
        expect(result.body, query).toEqual({ extractions: [], count: 0 })
      }
    })
  )
  it(
    "answers 400 {error} for every invalid parameter",
    withApp(async (app) => {
      for (const query of [
        "status=terminado",
        "status=",
        "habilidad_id=abc",
        "start_date=2026-13-01",
        "start_date=12/03/2026",
        "end_date=2026-02-30",
        "start_date=2026-03-12&end_date=2026-03-11",
        "limit=0",
        "limit=501",
        "limit=abc",
        "limit=-1",
        "offset=x",
        "sort_by=fecha",
        "sort_order=up",
        "include_archived=yes",
        "limit=1&limit=2",
        "status=completado&status=error"
      ]) {
        const result = await read(await get(app, `/v1/extractions?${query}`))
        expect(result.status, query).toBe(400)
        expect(result.body, query).toEqual({ error: expect.any(String) })
      }
    })
  )
})

describe("the reads' key check (issue 22: the key is checked in the read's own statement)", () => {
  it(
    "a missing or malformed key is 401 before anything; an unknown or revoked one 401 for any id or store-checked query",
    withApp(async (app) => {
      seedList(app)
      const unknown = `pk_live_${"U".repeat(43)}`
      for (const path of [
        "/v1/extractions?sort_by=fecha",
        "/v1/extractions?limit=0",
        "/v1/extractions?start_date=2026-13-01",
        "/v1/extractions/not-a-uuid",
        `/v1/extractions/${TestIds.uuid(100)}/detailed`
      ]) {
        for (const key of ["", "nope", `${Fixtures.LIVE_KEY}x`]) {
          const refused = await read(await get(app, path, key))
          expect(refused.status, `${path} with "${key}"`).toBe(401)
          expect(refused.body).toEqual({ error: expect.any(String) })
        }
      }
      // Well formed but unknown: the store decides, so queries the schema refuses first are 400s, the rest 401s.
      expect((await read(await get(app, "/v1/extractions?limit=0", unknown))).status).toBe(401)
      expect((await read(await get(app, "/v1/extractions/not-a-uuid", unknown))).status).toBe(401)
      expect((await read(await get(app, `/v1/extractions/${TestIds.uuid(100)}`, unknown))).status).toBe(401)
      expect((await read(await get(app, "/v1/extractions/not-a-uuid"))).status).toBe(404)
      expect((await read(await get(app, "/v1/extractions?limit=0"))).status).toBe(400)
    })
  )
  it(
    "documents the reads with the same API-key security and 401 as the other /v1 endpoints",
    withApp(async (app) => {
      type Operation = { security?: unknown; responses: Record<string, unknown> }
      const spec = (await (await app.fetch("/openapi.json")).json()) as {
        paths: Record<string, Record<string, Operation>>
      }
      const download = spec.paths["/v1/extractions/{extraction_id}/document"]?.get
      expect(download?.security).toEqual([{ apiKey: [] }])
      for (const path of [
        "/v1/extractions",
        "/v1/extractions/{extraction_id}",
        "/v1/extractions/{extraction_id}/detailed"
      ]) {
        const operation = spec.paths[path]?.get
        expect(operation?.security, path).toEqual(download?.security)
        expect(Object.keys(operation?.responses ?? {}), path).toEqual(
          expect.arrayContaining(["200", "401", "500", "503"])
        )
      }
    })
  )
})

describe("GET /v1/extractions/{id} and /detailed", () => {
  it(
    "returns the result (fields sorted, usage) and the detailed result (words, full_text, num_pages, word_ids)",
    withApp(async (app) => {
      const done = putExtraction(app, Fixtures.completedExtraction())
      const { status, body } = await read(await get(app, `/v1/extractions/${done.id}`))
      expect(status).toBe(200)
      const result = body as Record<string, unknown> & {
        fields: Array<{ name: string; order: number; value: unknown }>
      }
      expect(result).toMatchObject({ id: done.id, status: "completado", usage: { model: "local" } })
      expect(result.fields.map((f) => f.order)).toEqual([1, 2, 3, 4, 5, 6])
      expect(result.fields[0]!.value).toEqual({ literal: "F-2026/0042", parsed: "F-2026/0042" })
      expect(result).not.toHaveProperty("words")
      expect(result).not.toHaveProperty("habilidad_id")
      const detailed = (await (await get(app, `/v1/extractions/${done.id}/detailed`)).json()) as Record<
        string,
        unknown
      > & {
        fields: Array<{ value: unknown }>
      }
      expect(detailed).toMatchObject({ num_pages: 1, full_text: expect.any(String), words: { "1": expect.any(Array) } })
      expect(detailed.fields[0]!.value).toEqual({
        literal: "F-2026/0042",
        parsed: "F-2026/0042",
        word_ids: ["w2"],
        id: "v1",
        type: "string"
      })
    })
  )

  it(
    "shows the reader's degraded pages in the detailed read (extension), and only there",
    withApp(async (app) => {
      const degradedPages = [
        { page: 255, reason: "an image (10630 × 10630 pixels, 113 MP) over the limit of 100 MP left out" }
      ]
      const base = Fixtures.completedExtraction()
      const done = putExtraction(app, { ...base, result: { ...base.result!, degradedPages } })
      const detailed = (await read(await get(app, `/v1/extractions/${done.id}/detailed`))).body
      expect(detailed).toMatchObject({ num_pages: 1, degraded_pages: degradedPages })
      expect((await read(await get(app, `/v1/extractions/${done.id}`))).body).not.toHaveProperty("degraded_pages")
      // Results without degraded pages (and those stored before they were recorded) carry no member.
      const whole = putExtraction(app, Fixtures.completedExtraction({ id: TestIds.uuid(900) }))
      expect((await read(await get(app, `/v1/extractions/${whole.id}/detailed`))).body).not.toHaveProperty(
        "degraded_pages"
      )
      // The OpenAPI document tags the member as an extension the way it tags `offset`: "Extension: " first.
      expect((await detailedDescriptions(app, "degraded_pages"))[0]).toMatch(/^Extension: /)
    })
  )

  it(
    "shows the codes found in the detailed read (extension, snake_case facts), and only there",
    withApp(async (app) => {
      const codes = [Fixtures.afipCode()]
      const base = Fixtures.completedExtraction()
      const done = putExtraction(app, { ...base, result: { ...base.result!, codes } })
      const detailed = (await read(await get(app, `/v1/extractions/${done.id}/detailed`))).body
      expect(detailed).toMatchObject({
        codes: [
          {
            page: 1,
            box: codes[0]!.box,
            format: "QRCode",
            text: codes[0]!.text,
            kind: "Afip",
            facts: {
              issuer_tax_id: "30-71556647-4",
              buyer_tax_id: null,
              document_number: "0003-00001475",
              issue_date: "2023-02-11",
              total: 44000,
              currency: "ARS",
              iban: null
            },
            problems: []
          }
        ]
      })
      expect((await read(await get(app, `/v1/extractions/${done.id}`))).body).not.toHaveProperty("codes")
      const none = putExtraction(app, Fixtures.completedExtraction({ id: TestIds.uuid(901) }))
      expect((await read(await get(app, `/v1/extractions/${none.id}/detailed`))).body).not.toHaveProperty("codes")
      expect((await detailedDescriptions(app, "codes"))[0]).toMatch(/^Extension: /)
    })
  )

  it(
    "documents the assessment extensions in the OpenAPI document: confidence, reasons, review and validate",
    withApp(async (app) => {
      const spec = (await read(await app.fetch("/openapi.json"))).body
      const described = (member: string) => descriptionsOf(spec, member)
      // Simple and catalog values of the detailed read both carry them.
      expect(described("confidence").length).toBeGreaterThanOrEqual(2)
      for (const d of [...described("confidence"), ...described("reasons")]) expect(d).toMatch(/^Extension: /)
      expect(described("review").join(" ")).toContain("incompleto")
      expect(described("validate").join(" ")).toContain("check digits")
    })
  )

  it(
    "omits fields and usage while queued",
    withApp(async (app) => {
      const queued = putExtraction(app, Fixtures.extraction())
      const body = (await (await get(app, `/v1/extractions/${queued.id}`)).json()) as Record<string, unknown>
      expect(body.status).toBe("en cola")
      expect(body).not.toHaveProperty("fields")
      expect(body).not.toHaveProperty("usage")
    })
  )
})

describe("GET /v1/extractions/{id}/document", () => {
  it(
    "sends the original bytes with the stored type, an RFC 6266 attachment name that round-trips, and nosniff",
    withApp(async (app) => {
      const hostile = [
        'fac"tura"; filename="evil.exe.pdf',
        "two\r\nlines\r\nSet-Cookie: a=b.pdf",
        "semi;colon;.pdf",
        "日本語.pdf",
        "ñandú çà €.pdf",
        "..\\..\\windows\\win.ini",
        "../../etc/passwd",
        "100% real.pdf",
        "plain.pdf"
      ]
      for (const [i, name] of hostile.entries()) {
        const record = putExtraction(app, Fixtures.extraction({ id: TestIds.uuid(300 + i), originName: name }))
        const response = await get(app, `/v1/extractions/${record.id}/document`)
        expect(response.status, name).toBe(200)
        expect(new Uint8Array(await response.arrayBuffer())).toEqual(Fixtures.DOCUMENT)
        expect(response.headers.get("content-type")).toBe("application/pdf")
        expect(response.headers.get("x-content-type-options")).toBe("nosniff")
        expect(response.headers.get("set-cookie")).toBeNull()
        const header = response.headers.get("content-disposition")!
        expect(header).not.toMatch(/[\r\n]/)
        const parsed = parseDisposition(header)
        expect(parsed.type).toBe("attachment")
        expect(parsed.parameters.filename, name).toBe(name)
        expect(/^[\x20-\x7e]*$/.test(header), header).toBe(true)
        // RFC 6266 Appendix D: the ASCII fallback holds no quote, backslash, percent sign or slash; when it had to
        // differ from the name, filename* carries the name exactly.
        const match = /filename=(?:"([^"]*)"|([^;\s]*))/.exec(header)
        const fallback = match?.[1] ?? match?.[2]
        expect(fallback, header).toMatch(/^[\x20-\x7e]+$/)
        expect(fallback, header).not.toMatch(/["\\%/]/)
        if (fallback !== name) expect(header, name).toContain("filename*=UTF-8''")
      }
      // A stored name with a lone surrogate (impossible through the API) still downloads, with U+FFFD in its place.
      const odd = putExtraction(app, Fixtures.extraction({ id: TestIds.uuid(399), originName: "odd\ud800.pdf" }))
      const response = await get(app, `/v1/extractions/${odd.id}/document`)
      expect(response.status).toBe(200)
      expect(parseDisposition(response.headers.get("content-disposition")!).parameters.filename).toBe("odd\ufffd.pdf")
    })
  )

  it(
    "answers 404 {error} when the stored document is missing",
    withApp(async (app) => {
      const record = putExtraction(app, Fixtures.extraction(), null)
      expect(await read(await get(app, `/v1/extractions/${record.id}/document`))).toEqual({
        status: 404,
        body: { error: `the document of extraction '${record.id}' was not found in storage` }
      })
    })
  )

  for (const [reason, status, error] of [
    ["Unknown", 500, "internal error"],
    ["Unavailable", 503, "the service is temporarily unavailable; retry later"]
  ] as const) {
    it(
      `maps a ${reason} storage failure to ${status} {error} without details`,
      withApp(
        async (app) => {
          const record = putExtraction(app, Fixtures.extraction())
          const result = await read(await get(app, `/v1/extractions/${record.id}/document`))
          expect(result).toEqual({ status, body: { error } })
          expect(app.logs.some((l) => l.includes("storage failure") && l.includes("disk on fire"))).toBe(true)
        },
        {
          patch: (services) =>
            Context.add(
              services,
              Ports.DocumentStore,
              Fake.make(Ports.DocumentStore, {
                get: () => Effect.fail(new Errors.StorageError({ reason, message: "disk on fire at /var/secret" }))
              })
            )
        }
      )
    )
  }
})

describe("infrastructure failures", () => {
  const failing = (reason: "Unknown" | "Unavailable") =>
    Fake.make(Ports.ExtractionStore, {
      get: () => Effect.fail(new Errors.StorageError({ reason, message: "database is down" })),
      readAs: () => Effect.fail(new Errors.StorageError({ reason, message: "database is down" })),
      list: () => Effect.fail(new Errors.StorageError({ reason, message: "database is down" })),
      listAs: () => Effect.fail(new Errors.StorageError({ reason, message: "database is down" })),
      submit: () => Effect.fail(new Errors.StorageError({ reason, message: "database is down" }))
    })

  for (const [reason, status] of [
    ["Unknown", 500],
    ["Unavailable", 503]
  ] as const) {
    it(
      `answers submit, list, read and PATCH with ${status} {error} on a ${reason} storage failure, and gives the quota back`,
      withApp(
        async (app) => {
          app.state.quotas.set(Fixtures.client.id, {
            clientId: Fixtures.client.id,
            limit: 10,
            period: "month",
            periodStart: TestTime.now,
            used: 0
          })
          const id = Fixtures.ids.extraction
          const responses = [
            await app.fetch("/v1/extractions", {
              method: "POST",
              headers: apiKey(Fixtures.LIVE_KEY),
              body: submission()
            }),
            await get(app, "/v1/extractions"),
            await get(app, `/v1/extractions/${id}`),
            await get(app, `/v1/extractions/${id}/detailed`),
            await app.fetch(`/v1/extractions/${id}/status`, {
              method: "PATCH",
              headers: apiKey(Fixtures.LIVE_KEY),
              body: '{"status":"completado"}'
            })
          ]
          for (const response of responses) {
            const result = await read(response)
            expect(result.status).toBe(status)
            expect(Object.keys(result.body as object)).toEqual(["error"])
            expect(JSON.stringify(result.body)).not.toContain("database is down")
          }
          expect(app.state.quotas.get(Fixtures.client.id)?.used).toBe(0)
        },
        { patch: (services) => Context.add(services, Ports.ExtractionStore, failing(reason)) }
      )
    )
  }
})

describe("PATCH /v1/extractions/{id}/status", () => {
  const patch = (app: App, id: string, body: unknown, key: string = Fixtures.LIVE_KEY, query = "") =>
    app.fetch(`/v1/extractions/${id}/status${query}`, {
      method: "PATCH",
      headers: apiKey(key),
      body: JSON.stringify(body)
    })

  it(
    "switches completado → incompleto storing the message, and back clearing it",
    withApp(async (app) => {
      const done = putExtraction(app, Fixtures.completedExtraction())
      const first = await read(await patch(app, done.id, { status: "incompleto", message: "falta el total" }))
      expect(first).toEqual({
        status: 200,
        body: {
          message: expect.any(String),
          extraction: {
            id: done.id,
            status: "incompleto",
            last_modification: expect.any(String),
            last_user_id: Fixtures.user().id,
            error_message: "falta el total"
          }
        }
      })
      const back = await read(await patch(app, done.id, { status: "completado", message: "ignored" }))
      expect(back.status).toBe(200)
      expect((back.body as { extraction: Record<string, unknown> }).extraction).not.toHaveProperty("error_message")
      expect(app.state.extractions.get(done.id)).toMatchObject({ status: "completado", errorMessage: null })
    })
  )

  it(
    "answers 400 {error} for any other status, a missing one, or an extraction not yet final",
    withApp(async (app) => {
      const done = putExtraction(app, Fixtures.completedExtraction())
      for (const body of [{ status: "error" }, { status: "procesando" }, { status: "en cola" }, {}, { status: 1 }]) {
        const result = await read(await patch(app, done.id, body))
        expect(result.status, JSON.stringify(body)).toBe(400)
        expect(result.body).toEqual({ error: expect.any(String) })
      }
      const queued = putExtraction(app, Fixtures.extraction({ id: TestIds.uuid(400) }))
      expect((await patch(app, queued.id, { status: "completado" })).status).toBe(400)
    })
  )

  it(
    "honours client_id only for a global_admin",
    withApp(async (app) => {
      const done = putExtraction(app, Fixtures.completedExtraction())
      const admin = await createKey(app, Fixtures.admin())
      const bruno = await createKey(app, Fixtures.otherUser())
      const query = `?client_id=${Fixtures.client.id}`
      expect((await patch(app, done.id, { status: "incompleto" }, admin)).status).toBe(404)
      expect((await patch(app, done.id, { status: "incompleto" }, bruno, query)).status).toBe(404)
      const byAdmin = await read(await patch(app, done.id, { status: "incompleto" }, admin, query))
      expect(byAdmin.status).toBe(200)
      expect(byAdmin.body).toMatchObject({ extraction: { last_user_id: Fixtures.admin().id } })
    })
  )
})

describe("tenancy", () => {
  it(
    "answers another client's ids with 404 and the very body of a missing id, on every endpoint",
    withApp(async (app) => {
      const done = putExtraction(app, Fixtures.completedExtraction())
      const bruno = await createKey(app, Fixtures.otherUser())
      const requests = (id: string, key: string) => [
        get(app, `/v1/extractions/${id}`, key),
        get(app, `/v1/extractions/${id}/detailed`, key),
        get(app, `/v1/extractions/${id}/document`, key),
        app.fetch(`/v1/extractions/${id}/status`, {
          method: "PATCH",
          headers: apiKey(key),
          body: '{"status":"incompleto"}'
        }),
        app.fetch(`/v1/extractions/${id}/archive`, { method: "POST", headers: apiKey(key) })
      ]
      const foreign = await Promise.all((await Promise.all(requests(done.id, bruno))).map(read))
      app.state.extractions.delete(done.id)
      const missing = await Promise.all((await Promise.all(requests(done.id, Fixtures.LIVE_KEY))).map(read))
      expect(foreign).toEqual(missing)
      for (const result of foreign) {
        expect(result).toEqual({ status: 404, body: { error: `extraction '${done.id}' not found` } })
      }
      expect((await read(await get(app, "/v1/extractions/not-a-uuid"))).status).toBe(404)
      expect(await names(await get(app, "/v1/extractions", bruno))).toEqual({ names: [], count: 0 })
    })
  )
})
