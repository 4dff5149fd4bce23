/** Spec 4.3 list over the socket: every query parameter, bad values, `count`, archive (an extension). */
import { expect, it } from "vitest"
import type { Json } from "../support/http.js"
import { v1 } from "../support/typed.js"
import { TRICKY_NAME, type World } from "./setup.js"

const ids = (body: unknown) => ((body as Json).extractions as Array<Json>).map((e) => e.id as string)

const today = () => new Date().toISOString().slice(0, 10)

/** Registers the list tests. */
export const list = (world: () => World) => {
  it("GET /v1/extractions returns {extractions, count} of the client's summaries (2.2), newest first", async () => {
    const { api, keys, ids: known, skillIds } = world()
    const r = await v1(api, keys.alice).list()
    expect(r.status).toBe(200)
    const body = r.body as Json
    expect(Object.keys(body).sort()).toEqual(["count", "extractions"])
    const items = body.extractions as Array<Json>
    expect(body.count).toBe(items.length)
    expect(ids(body)).toEqual(expect.arrayContaining([known.alice1, known.alice2]))
    expect(ids(body)).not.toContain(known.bob1)
    const first = items.find((i) => i.id === known.alice1)
    expect(Object.keys(first ?? {}).sort()).toEqual(
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
    expect(first?.habilidad_id).toBe(skillIds.alice)
    const dates = items.map((i) => i.extraction_date as string)
    expect([...dates].sort().reverse()).toEqual(dates)
  })

  it("filters by status, habilidad_id, habilidad_slug, dates and search; limit caps items but not count", async () => {
    const { api, keys, ids: known, skillIds } = world()
    const get = async (query: string) => {
      const r = await v1(api, keys.alice).list(query)
      expect(r.status, query).toBe(200)
      return r.body as Json
    }
    const all = await get("")
    expect(ids(await get("status=completado,incompleto"))).toEqual(expect.arrayContaining([known.alice1, known.alice2]))
    expect(ids(await get("status=error"))).toEqual([])
    expect((await get(`habilidad_id=${skillIds.alice}`)).count).toBe(all.count)
    expect((await get("habilidad_id=00000000-0000-4000-8000-000000000000")).count).toBe(0)
    expect((await get("habilidad_slug=factura-es")).count).toBe(all.count)
    expect((await get("habilidad_slug=other")).count).toBe(0)
    expect((await get(`start_date=${today()}&end_date=${today()}`)).count).toBe(all.count)
    expect((await get("end_date=2000-01-01")).count).toBe(0)
    expect((await get("start_date=2999-01-01")).count).toBe(0)
    expect(ids(await get("search=OTRA-factura"))).toEqual([known.alice2])
    expect(ids(await get(`search=${encodeURIComponent("北京")}`))).toEqual([known.alice1])
    const limited = await get("limit=1")
    expect((limited.extractions as Array<unknown>).length).toBe(1)
    expect(limited.count).toBe(all.count)
    const byName = await get("sort_by=origin_name&sort_order=asc")
    const names = (byName.extractions as Array<Json>).map((e) => e.origin_name as string)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })))
    expect(names).toContain(TRICKY_NAME)
    expect((await get("sort_by=status&sort_order=desc")).count).toBe(all.count)
    expect((await get("sort_by=fecha_creacion&sort_order=asc")).count).toBe(all.count)
    expect((await get("unknown_param=1")).count).toBe(all.count)
  })

  it("answers 400 {error} for bad dates, limits, sorts, statuses and booleans", async () => {
    const { api, keys } = world()
    for (const query of [
      "start_date=2026-13-01",
      "start_date=yesterday",
      "end_date=2026-02-30",
      "start_date=2026-03-02&end_date=2026-03-01",
      "limit=0",
      "limit=abc",
      "limit=100000",
      "status=hecho",
      "habilidad_id=not-a-uuid"
    ]) {
      const r = await v1(api, keys.alice).list(query)
      expect(r.status, query).toBe(400)
      expect(r.body, query).toEqual({ error: expect.any(String) })
    }
    // Raw requests: the typed client refuses to encode values outside the enums, and cannot repeat a parameter.
    for (const query of ["sort_by=size", "sort_order=up", "include_archived=maybe", "limit=1&limit=2"]) {
      const r = await api.key("GET", `/v1/extractions?${query}`, keys.alice)
      expect(r.status, query).toBe(400)
      expect(r.body, query).toEqual({ error: expect.any(String) })
    }
  })

  it("include_archived: archived extractions are listed only when asked (archive extension)", async () => {
    const { api, keys, ids: known } = world()
    const archived = await v1(api, keys.alice).archive(known.alice2)
    expect(archived.status).toBe(200)
    expect(archived.body).toMatchObject({ extraction: { id: known.alice2, archived: true } })
    expect(ids((await v1(api, keys.alice).list()).body)).not.toContain(known.alice2)
    expect(ids((await v1(api, keys.alice).list("include_archived=false")).body)).not.toContain(known.alice2)
    expect(ids((await v1(api, keys.alice).list("include_archived=true")).body)).toContain(known.alice2)
    expect((await v1(api, keys.alice).archive(known.bob1)).status).toBe(404)
    expect((await v1(api, keys.alice).unarchive(known.alice2)).status).toBe(200)
    expect(ids((await v1(api, keys.alice).list()).body)).toContain(known.alice2)
  })
}
