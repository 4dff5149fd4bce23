import { describe, expect, it } from "@effect/vitest"
import { Fixtures } from "@legible/testkit"
import { type App, apiKey, bearer, createKey, putExtraction, read, submission, token, withApp } from "./support.js"

const as = async (user = Fixtures.user()) =>
  bearer(await token({ sub: user.id, client_id: user.clientId, name: user.name, email: user.email, role: user.role }))

const send = async (app: App, method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  read(
    await app.fetch(path, {
      method,
      headers: headers ?? (await as()),
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
    })
  )

const skillBody = (extra: Record<string, unknown> = {}) => ({
  slug: "albaran",
  name: "Albarán",
  fields: [
    { name: "numero", order: 1, type: "string" },
    {
      name: "lineas",
      order: 2,
      type: "object",
      isList: true,
      fields: [{ name: "cantidad", order: 1, type: "integer" }]
    }
  ],
  ...extra
})

describe("skills (extension)", () => {
  it(
    "a client that never created a key can create skills and catalogs (its user is recorded first, not a 500)",
    withApp(async (app) => {
      const headers = { ...(await as(Fixtures.user({ id: "user-new", clientId: "client-new" }))) }
      const skill = await send(app, "POST", "/api/skills", skillBody(), headers)
      expect(skill.status).toBe(201)
      const updated = await send(app, "PUT", "/api/skills/albaran", { ...skillBody(), slug: undefined }, headers)
      expect(updated.status).toBe(200)
      const catalog = await send(app, "POST", "/api/catalogs", { name: "Proveedores", columns: ["cif"] }, headers)
      expect(catalog.status).toBe(201)
    })
  )

  it(
    "creates version 1 (201), refuses the same slug (409), stores new versions on PUT, reads any version, deletes",
    withApp(async (app) => {
      const created = await send(app, "POST", "/api/skills", skillBody())
      expect(created).toEqual({
        status: 201,
        body: {
          id: expect.any(String),
          slug: "albaran",
          name: "Albarán",
          version: 1,
          instructions: "",
          fields: [
            { name: "numero", order: 1, type: "string", isList: false, description: "", aliases: [] },
            {
              name: "lineas",
              order: 2,
              type: "object",
              isList: true,
              description: "",
              aliases: [],
              fields: [{ name: "cantidad", order: 1, type: "integer", isList: false, description: "", aliases: [] }]
            }
          ],
          created_at: expect.any(String),
          updated_at: expect.any(String)
        }
      })
      expect((await send(app, "POST", "/api/skills", skillBody())).status).toBe(409)
      const { slug: _slug, ...definition } = skillBody({ name: "Albarán v2" })
      const updated = await send(app, "PUT", "/api/skills/albaran", definition)
      expect(updated.body).toMatchObject({ version: 2, name: "Albarán v2" })
      expect((await send(app, "GET", "/api/skills/albaran")).body).toMatchObject({ version: 2 })
      expect((await send(app, "GET", "/api/skills/albaran?version=1")).body).toMatchObject({
        version: 1,
        name: "Albarán"
      })
      expect((await send(app, "GET", "/api/skills/albaran?version=9")).status).toBe(404)
      expect((await send(app, "GET", "/api/skills/albaran?version=x")).status).toBe(400)
      const list = (await send(app, "GET", "/api/skills")).body as { skills: Array<{ slug: string }> }
      expect(list.skills.map((s) => s.slug)).toEqual(["albaran", "factura-es"])
      expect(await send(app, "DELETE", "/api/skills/albaran")).toEqual({
        status: 200,
        body: { message: expect.any(String) }
      })
      expect(await send(app, "DELETE", "/api/skills/albaran")).toEqual({
        status: 404,
        body: { error: "skill 'albaran' not found" }
      })
      expect((await send(app, "PUT", "/api/skills/albaran", definition)).status).toBe(404)
      // Another client sees none of Ana's skills.
      const other = (await send(app, "GET", "/api/skills", undefined, await as(Fixtures.otherUser()))).body
      expect(other).toEqual({ skills: [] })
    })
  )

  it(
    "refuses invalid definitions with 400 {error}: slug, duplicates, sub-fields, catalog references, nesting",
    withApp(async (app) => {
      const catalogField = (catalogId: string, keyColumns: Array<string>) => ({
        name: "proveedor",
        order: 3,
        type: "catalog",
        catalog: { catalogId, keyColumns, outputColumns: ["nombre"], method: "exacta", threshold: 1 }
      })
      // Built as text: JSON.stringify itself would overflow the stack on 100,000 levels.
      let deep = '{"name":"leaf","order":1,"type":"string"}'
      for (let i = 0; i < 100_000; i++) deep = `{"name":"n${i}","order":1,"type":"object","fields":[${deep}]}`
      const cases: Record<string, [unknown, string]> = {
        slug: [skillBody({ slug: "Bad Slug" }), "slug"],
        noFields: [skillBody({ fields: [] }), "fields"],
        duplicate: [skillBody({ fields: [skillBody().fields[0], skillBody().fields[0]] }), "duplicate"],
        objectWithout: [skillBody({ fields: [{ name: "o", order: 1, type: "object" }] }), "sub-fields"],
        unknownCatalog: [skillBody({ fields: [catalogField(Fixtures.fixtureId(99), ["cif"])] }), "does not exist"],
        unknownColumn: [skillBody({ fields: [catalogField(Fixtures.ids.catalog, ["iban"])] }), "iban"],
        badType: [skillBody({ fields: [{ name: "x", order: 1, type: "money" }] }), "type"],
        badCheck: [skillBody({ fields: [{ name: "x", order: 1, type: "string", validate: "ssn" }] }), "validate"],
        deep: [`{"slug":"deep","name":"deep","fields":[${deep}]}`, "not allowed"]
      }
      for (const [name, [body, word]] of Object.entries(cases)) {
        const result = await send(app, "POST", "/api/skills", body)
        expect(result.status, name).toBe(400)
        expect(result.body, name).toEqual({ error: expect.stringContaining(word) })
      }
      // The catalog of another client cannot be referenced either.
      const otherCatalog = await send(
        app,
        "POST",
        "/api/catalogs",
        { name: "X", columns: ["cif", "nombre"] },
        await as(Fixtures.otherUser())
      )
      const foreign = (otherCatalog.body as { id: string }).id
      expect(
        (await send(app, "POST", "/api/skills", skillBody({ fields: [catalogField(foreign, ["cif"])] }))).status
      ).toBe(400)
      expect(
        (await send(app, "POST", "/api/skills", skillBody({ fields: [catalogField(Fixtures.ids.catalog, ["cif"])] })))
          .status
      ).toBe(201)
      expect((await send(app, "GET", "/api/skills", undefined, {})).status).toBe(401)
    })
  )
})

describe("skill fields' checks (extension)", () => {
  it(
    "a field names its identifier check with validate, or none; it is stored and read back",
    withApp(async (app) => {
      const fields = [
        { name: "cuit_emisor", order: 1, type: "string", validate: "cuit" },
        { name: "referencia_nif", order: 2, type: "string", validate: "none" },
        { name: "total", order: 3, type: "float" }
      ]
      const created = await send(app, "POST", "/api/skills", { slug: "factura-ar", name: "Factura", fields })
      expect(created.status).toBe(201)
      const read = await send(app, "GET", "/api/skills/factura-ar")
      expect((read.body as { fields: Array<Record<string, unknown>> }).fields.map((f) => f.validate)).toEqual([
        "cuit",
        "none",
        undefined
      ])
    })
  )
})

describe("catalogs (extension)", () => {
  it(
    "creates a catalog, imports RFC 4180 CSV (quotes, commas, line breaks, ids) and JSON, lists counts, deletes",
    withApp(async (app) => {
      const created = await send(app, "POST", "/api/catalogs", { name: "Clientes", columns: ["codigo", "nombre"] })
      expect(created).toEqual({
        status: 201,
        body: {
          id: expect.any(String),
          name: "Clientes",
          columns: ["codigo", "nombre"],
          created_at: expect.any(String),
          records: 0
        }
      })
      const id = (created.body as { id: string }).id
      const recordId = Fixtures.fixtureId(77)
      const csv = `\uFEFFid,codigo,nombre\r\n${recordId},C1,"Acme, S.L."\r\n,C2,"Dice ""hola""\nen dos líneas"\r\n`
      const imported = await read(
        await app.fetch(`/api/catalogs/${id}/records`, {
          method: "POST",
          headers: { ...(await as()), "content-type": "text/csv" },
          body: csv
        })
      )
      expect(imported).toEqual({ status: 200, body: { imported: 2 } })
      const records = [...app.state.catalogRecords.get(id)!.values()]
      expect(records.find((r) => r.id === recordId)?.values).toEqual({ codigo: "C1", nombre: "Acme, S.L." })
      expect(records.find((r) => r.id !== recordId)?.values).toEqual({
        codigo: "C2",
        nombre: 'Dice "hola"\nen dos líneas'
      })
      const json = await send(app, "POST", `/api/catalogs/${id}/records`, [
        { codigo: "C3", nombre: "Tres" },
        { codigo: 4 }
      ])
      expect(json).toEqual({ status: 200, body: { imported: 2 } })
      const list = (await send(app, "GET", "/api/catalogs")).body as {
        catalogs: Array<{ id: string; records: number }>
      }
      expect(list.catalogs.find((c) => c.id === id)?.records).toBe(4)
      expect(await send(app, "DELETE", `/api/catalogs/${id}`)).toEqual({
        status: 200,
        body: { message: expect.any(String) }
      })
      expect((await send(app, "DELETE", `/api/catalogs/${id}`)).status).toBe(404)
      expect((await send(app, "POST", `/api/catalogs/${id}/records`, [])).status).toBe(404)
    })
  )

  it(
    "refuses bad catalogs and imports with 400 {error}, and another client's catalog with 404",
    withApp(async (app) => {
      for (const body of [
        { name: "", columns: ["a"] },
        { name: "X", columns: [] },
        { name: "X", columns: ["id"] },
        { name: "X", columns: ["a", "a"] }
      ]) {
        expect((await send(app, "POST", "/api/catalogs", body)).status, JSON.stringify(body)).toBe(400)
      }
      for (const [text, word] of [
        ['cif,nombre\nB1,"sin cerrar', "unterminated"],
        ['cif,nombre\nB1,ab"c', "quote"],
        ['cif,nombre\nB1,"x"y', "after a closing quote"],
        ["cif,iban\nB1,ES00", "iban"],
        ["cif,nombre\nB1", "fields"],
        ["id,cif\nnot-a-uuid,B1", "UUID"],
        ["cif,cif\nB1,B2", "twice"]
      ] as const) {
        const result = await read(
          await app.fetch(`/api/catalogs/${Fixtures.ids.catalog}/records`, {
            method: "POST",
            headers: { ...(await as()), "content-type": "text/csv" },
            body: text
          })
        )
        expect(result, text).toEqual({ status: 400, body: { error: expect.stringContaining(word) } })
      }
      expect(
        (await send(app, "POST", `/api/catalogs/${Fixtures.ids.catalog}/records`, [{ cif: { x: 1 } }])).status
      ).toBe(400)
      const bruno = await as(Fixtures.otherUser())
      expect((await send(app, "DELETE", `/api/catalogs/${Fixtures.ids.catalog}`, undefined, bruno)).status).toBe(404)
      expect((await send(app, "POST", `/api/catalogs/${Fixtures.ids.catalog}/records`, [], bruno)).status).toBe(404)
    })
  )
})

describe("quotas (extension)", () => {
  it(
    "lets only a global_admin set a quota (403 {error} otherwise); the quota then applies at submission",
    withApp(async (app) => {
      const path = `/api/quotas/${Fixtures.client.id}`
      expect(await send(app, "PUT", path, { limit: 1 })).toEqual({
        status: 403,
        body: { error: "only a global_admin may set quotas" }
      })
      const admin = await as(Fixtures.admin())
      const set = await send(app, "PUT", path, { limit: 1, period: "day" }, admin)
      expect(set).toEqual({
        status: 200,
        body: { client_id: Fixtures.client.id, limit: 1, period: "day", period_start: expect.any(String), used: 0 }
      })
      const submit = () =>
        app.fetch("/v1/extractions", { method: "POST", headers: apiKey(Fixtures.LIVE_KEY), body: submission() })
      expect((await submit()).status).toBe(202)
      expect(await read(await submit())).toEqual({
        status: 402,
        body: { error: expect.any(String), limit: 1, used: 1 }
      })
      expect((await send(app, "GET", path)).body).toMatchObject({ limit: 1, used: 1 })
      expect((await send(app, "GET", `/api/quotas/${Fixtures.otherClient.id}`)).status).toBe(403)
      expect((await send(app, "PUT", path, { limit: null }, admin)).body).toMatchObject({ limit: null, used: 1 })
      expect((await submit()).status).toBe(202)
      for (const body of [{ limit: -1 }, { limit: 1.5 }, { limit: "10" }, {}, { limit: 1, period: "year" }]) {
        expect((await send(app, "PUT", path, body, admin)).status, JSON.stringify(body)).toBe(400)
      }
      const fresh = await send(app, "PUT", "/api/quotas/client-new", { limit: 5 }, admin)
      expect(fresh.body).toMatchObject({ client_id: "client-new", limit: 5 })
    })
  )
})

describe("archive (extension)", () => {
  it(
    "archives and unarchives: archived extractions leave the default list and come back with include_archived",
    withApp(async (app) => {
      const done = putExtraction(app, Fixtures.completedExtraction())
      const archive = (action: string, key = Fixtures.LIVE_KEY) =>
        app.fetch(`/v1/extractions/${done.id}/${action}`, { method: "POST", headers: apiKey(key) })
      expect(await read(await archive("archive"))).toEqual({
        status: 200,
        body: { message: "extraction archived", extraction: { id: done.id, archived: true } }
      })
      const count = async (query: string) =>
        (
          (await (await app.fetch(`/v1/extractions${query}`, { headers: apiKey(Fixtures.LIVE_KEY) })).json()) as {
            count: number
          }
        ).count
      expect(await count("")).toBe(0)
      expect(await count("?include_archived=true")).toBe(1)
      expect((await read(await archive("unarchive"))).body).toMatchObject({ extraction: { archived: false } })
      expect(await count("")).toBe(1)
      const bruno = await createKey(app, Fixtures.otherUser())
      expect((await archive("archive", bruno)).status).toBe(404)
    })
  )
})
