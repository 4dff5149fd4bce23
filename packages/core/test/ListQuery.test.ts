import { assert, describe, it } from "@effect/vitest"
import { Extraction, ListQuery } from "@legible/core"
import { Arbitrary, Result, Schema } from "effect"
import { seeded } from "./support.js"

const accept = (query: ListQuery.RawQuery): ListQuery.ExtractionFilter => {
  const parsed = ListQuery.parse(query)
  if (Result.isFailure(parsed)) throw new Error(`refused ${JSON.stringify(query)}: ${parsed.failure.message}`)
  return parsed.success
}

const refuse = (query: ListQuery.RawQuery, parameter: string): void => {
  const parsed = ListQuery.parse(query)
  assert.isTrue(Result.isFailure(parsed), `accepted ${JSON.stringify(query)}`)
  if (Result.isFailure(parsed)) {
    assert.strictEqual(parsed.failure._tag, "InvalidRequest")
    assert.include(parsed.failure.message, parameter, `the message names ${parameter}`)
  }
}

const UUID = "3f2c8a4e-9b1d-4c7e-8a2f-0123456789ab"

describe("ListQuery.parse defaults", () => {
  it("an empty query: limit 50, offset 0, newest first, archived excluded, no filters", () => {
    assert.deepStrictEqual(accept({}), {
      limit: 50,
      offset: 0,
      sortBy: "fecha_creacion",
      sortOrder: "desc",
      includeArchived: false
    })
    assert.strictEqual(ListQuery.DEFAULT_LIMIT, 50)
    assert.strictEqual(ListQuery.MAX_LIMIT, 500)
  })

  it("unknown parameters are ignored; an empty search is no filter", () => {
    assert.deepStrictEqual(accept({ _: "1700000000", foo: ["a", "b"], search: "" }), accept({}))
  })
})

/** Every valid value of each parameter (and `undefined`: absent). */
const valid = {
  status: [undefined, "completado", "en cola,procesando", " error , incompleto ", Extraction.statuses.join(",")],
  habilidad_id: [undefined, UUID, UUID.toUpperCase()],
  habilidad_slug: [undefined, "factura-es", "x".repeat(100)],
  start_date: [undefined, "2024-02-29", "2024-01-01"],
  end_date: [undefined, "2024-12-31", "2024-02-29"],
  search: [undefined, "factura", "100%_", "Álbum"],
  limit: [undefined, "1", "50", "500"],
  offset: [undefined, "0", "20"],
  sort_by: [undefined, "fecha_creacion", "status", "origin_name"],
  sort_order: [undefined, "asc", "desc"],
  include_archived: [undefined, "true", "false"]
} as const

const pick = <K extends keyof typeof valid>(key: K) =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: valid[key].length - 1 }))).pipe(
    Arbitrary.map((i) => valid[key][i])
  )

const ValidQuery = Arbitrary.all({
  status: pick("status"),
  habilidad_id: pick("habilidad_id"),
  habilidad_slug: pick("habilidad_slug"),
  start_date: pick("start_date"),
  end_date: pick("end_date"),
  search: pick("search"),
  limit: pick("limit"),
  offset: pick("offset"),
  sort_by: pick("sort_by"),
  sort_order: pick("sort_order"),
  include_archived: pick("include_archived")
})

describe("ListQuery.parse valid queries", () => {
  it.prop(
    "every combination of valid values is accepted and read back",
    [ValidQuery],
    ([query]) => {
      const filter = accept(query)
      assert.strictEqual(filter.limit, query.limit === undefined ? 50 : Number(query.limit))
      assert.strictEqual(filter.offset, query.offset === undefined ? 0 : Number(query.offset))
      assert.strictEqual(filter.sortBy, query.sort_by ?? "fecha_creacion")
      assert.strictEqual(filter.sortOrder, query.sort_order ?? "desc")
      assert.strictEqual(filter.includeArchived, query.include_archived === "true")
      assert.strictEqual(filter.startDate, query.start_date)
      assert.strictEqual(filter.endDate, query.end_date)
      assert.strictEqual(filter.search, query.search)
      assert.strictEqual(filter.skillSlug, query.habilidad_slug)
      assert.strictEqual(filter.skillId, query.habilidad_id?.toLowerCase())
      assert.deepStrictEqual(
        filter.statuses === undefined ? undefined : [...filter.statuses].sort(),
        query.status === undefined ? undefined : [...new Set(query.status.split(",").map((s) => s.trim()))].sort()
      )
    },
    seeded(501, 400)
  )

  it("the same day as start and end is a valid one-day range; a single-element array counts once", () => {
    assert.deepStrictEqual(accept({ start_date: "2024-03-01", end_date: "2024-03-01" }).endDate, "2024-03-01")
    assert.strictEqual(accept({ limit: ["20"] }).limit, 20)
    assert.deepStrictEqual(accept({ status: "error,error" }).statuses, ["error"])
    assert.strictEqual(accept({ start_date: "0050-01-01" }).startDate, "0050-01-01")
    assert.strictEqual(accept({ end_date: "0004-02-29" }).endDate, "0004-02-29")
  })
})

describe("ListQuery.parse invalid queries → InvalidRequest naming the parameter", () => {
  const dates = [
    "2024-02-30",
    "2023-02-29",
    "2024-13-01",
    "2024-00-10",
    "2024-04-31",
    "2024-1-1",
    "24-01-01",
    "2024/01/01",
    "2024-01-01T00:00:00Z",
    " 2024-01-01",
    "2024-01-01 ",
    "",
    "ayer",
    "0000-01-01",
    "２０２４-01-01",
    "0100-02-29",
    "0000-12-31"
  ]
  for (const parameter of ["start_date", "end_date"] as const) {
    for (const date of dates) {
      it(`${parameter}=${JSON.stringify(date)}`, () => refuse({ [parameter]: date }, parameter))
    }
  }

  it("start_date after end_date", () => refuse({ start_date: "2024-03-02", end_date: "2024-03-01" }, "start_date"))

  for (const status of ["", "finished", "completado,", "COMPLETADO", "completado,nope", ","]) {
    it(`status=${JSON.stringify(status)}`, () => refuse({ status }, "status"))
  }
  for (const sort_by of ["", "fecha", "created_at", "STATUS"]) {
    it(`sort_by=${JSON.stringify(sort_by)}`, () => refuse({ sort_by }, "sort_by"))
  }
  for (const sort_order of ["", "ASC", "ascending", "up"]) {
    it(`sort_order=${JSON.stringify(sort_order)}`, () => refuse({ sort_order }, "sort_order"))
  }
  for (const limit of ["0", "-1", "1.5", "501", "abc", "", " 5", "1e2", "0x10", "9999999999"]) {
    it(`limit=${JSON.stringify(limit)}`, () => refuse({ limit }, "limit"))
  }
  for (const offset of ["-1", "1.5", "abc", ""]) {
    it(`offset=${JSON.stringify(offset)}`, () => refuse({ offset }, "offset"))
  }
  for (const include_archived of ["", "TRUE", "1", "yes", "no"]) {
    it(`include_archived=${JSON.stringify(include_archived)}`, () => refuse({ include_archived }, "include_archived"))
  }
  for (const habilidad_id of ["", "123", `${UUID}0`, "not-a-uuid"]) {
    it(`habilidad_id=${JSON.stringify(habilidad_id)}`, () => refuse({ habilidad_id }, "habilidad_id"))
  }
  it("habilidad_slug empty or over 100 characters", () => {
    refuse({ habilidad_slug: "" }, "habilidad_slug")
    refuse({ habilidad_slug: "x".repeat(101) }, "habilidad_slug")
  })
  it("search over 255 characters (the longest file name) or with NUL matches nothing; a whole 255-character name is searched", () => {
    const long = accept({ search: "x".repeat(10_000) })
    assert.strictEqual(long.matchesNothing, true)
    assert.strictEqual(long.search, undefined)
    assert.strictEqual(accept({ search: "a\u0000b" }).matchesNothing, true)
    const whole = accept({ search: "x".repeat(255) })
    assert.strictEqual(whole.search, "x".repeat(255))
    assert.strictEqual(whole.matchesNothing, undefined)
  })

  for (const parameter of Object.keys(valid)) {
    it(`${parameter} given twice`, () => refuse({ [parameter]: ["asc", "desc"] }, parameter))
  }
})

describe("ListQuery.fold", () => {
  it("strips accents and case", () => {
    assert.strictEqual(ListQuery.fold("ÁLBUM de Facturación Ñandú"), "album de facturacion nandu")
    assert.strictEqual(ListQuery.fold("Ça Über ÅSE"), "ca uber ase")
    assert.strictEqual(ListQuery.fold("100%_final"), "100%_final")
  })

  it.prop(
    "is idempotent and the same for the NFC and NFD forms of a string",
    [Schema.String],
    ([s]) => {
      const folded = ListQuery.fold(s)
      assert.strictEqual(ListQuery.fold(folded), folded)
      assert.strictEqual(ListQuery.fold(s.normalize("NFD")), ListQuery.fold(s.normalize("NFC")))
    },
    seeded(502)
  )
})
