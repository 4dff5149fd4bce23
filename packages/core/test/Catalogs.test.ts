import { assert, describe, it } from "@effect/vitest"
import { Catalogs, type Errors } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer, Result, Schema } from "effect"
import { seeded } from "./support.js"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())
const acme = Fixtures.client.id

const parsed = (text: string) => {
  const result = Catalogs.parseCsv(text)
  return Result.isSuccess(result) ? result.success : `error: ${result.failure.message}`
}

/** RFC 4180 writing: every field quoted, quotes doubled, records joined by CRLF. */
const write = (rows: ReadonlyArray<ReadonlyArray<string>>) =>
  rows.map((r) => r.map((f) => `"${f.replaceAll('"', '""')}"`).join(",")).join("\r\n")

describe("Catalogs.parseCsv", () => {
  it("reads RFC 4180: quoted commas, doubled quotes, line breaks in quotes, CRLF or LF, BOM, empty fields", () => {
    assert.deepStrictEqual(parsed("a,b,c\r\n1,2,3\r\n"), [
      ["a", "b", "c"],
      ["1", "2", "3"]
    ])
    assert.deepStrictEqual(parsed('\uFEFFname,note\n"Acme, S.L.","say ""hi""\r\nbye"\n'), [
      ["name", "note"],
      ["Acme, S.L.", 'say "hi"\r\nbye']
    ])
    assert.deepStrictEqual(parsed("a,,c\n,,\nx,y,"), [
      ["a", "", "c"],
      ["", "", ""],
      ["x", "y", ""]
    ])
    assert.deepStrictEqual(parsed("a\n\n\nb\n"), [["a"], ["b"]])
    assert.deepStrictEqual(parsed('a\n""\n'), [["a"], [""]])
    assert.deepStrictEqual(parsed("lone\rcarriage,x"), [["lone\rcarriage", "x"]])
    assert.deepStrictEqual(parsed(""), [])
  })

  it("refuses an unterminated quote, a quote inside an unquoted field and text after a closing quote", () => {
    assert.include(parsed('a\n"open,x'), "unterminated quoted field opened on line 2")
    assert.include(parsed('a\nab"c'), "a quote inside an unquoted field on line 2")
    assert.include(parsed('"a"b,c'), "unexpected text after a closing quote on line 1")
    assert.include(parsed('x\n"multi\nline" tail'), "line 3")
  })

  it.prop(
    "reads back exactly what an RFC 4180 writer wrote",
    [Schema.NonEmptyArray(Schema.NonEmptyArray(Schema.String))],
    ([rows]) => {
      assert.deepStrictEqual(
        parsed(write(rows)),
        rows.map((r) => [...r])
      )
    },
    seeded(401)
  )
})

describe("Catalogs.create, list, remove", () => {
  it.effect("creates a catalog with trimmed names and refuses bad definitions", () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      yield* Fixtures.seed
      const catalog = yield* Catalogs.create(acme, { name: " Clientes ", columns: [" codigo ", "nombre"] })
      assert.deepStrictEqual(catalog, {
        id: TestIds.uuid(2),
        clientId: acme,
        name: "Clientes",
        columns: ["codigo", "nombre"],
        createdAt: TestTime.now
      })
      for (const definition of [
        { name: "", columns: ["a"] },
        { name: "x".repeat(201), columns: ["a"] },
        { name: "X", columns: [] },
        { name: "X", columns: ["a", " a"] },
        { name: "X", columns: ["id"] },
        { name: "X", columns: [""] },
        { name: "X", columns: Array.from({ length: 101 }, (_, i) => `c${i}`) }
      ]) {
        const error = yield* Effect.flip(Catalogs.create(acme, definition))
        assert.strictEqual(error._tag, "InvalidRequest", JSON.stringify(definition))
      }
      const listed = yield* Catalogs.list(acme)
      assert.deepStrictEqual(listed.map((c) => [c.catalog.name, c.records]).sort(), [
        ["Clientes", 0],
        ["Proveedores", 3]
      ])
      yield* Catalogs.remove(acme, catalog.id)
      const again = yield* Effect.flip(Catalogs.remove(acme, catalog.id))
      assert.strictEqual(again._tag, "CatalogNotFound")
      assert.strictEqual(
        (yield* Effect.flip(Catalogs.remove(Fixtures.otherClient.id, Fixtures.ids.catalog)))._tag,
        "CatalogNotFound"
      )
    }).pipe(Effect.provide(world))
  )
})

describe("Catalogs.importRecords", () => {
  const expectInvalid = (input: Catalogs.Import, word: string) =>
    Effect.gen(function* () {
      const error: Errors.InvalidRequest | Errors.CatalogNotFound | Errors.StorageError = yield* Effect.flip(
        Catalogs.importRecords(acme, Fixtures.ids.catalog, input)
      )
      assert.strictEqual(error._tag, "InvalidRequest")
      if (error._tag === "InvalidRequest") assert.include(error.message, word)
    })

  it.effect("upserts CSV records by id, giving new ids to the others, and JSON records alike", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      const csv = `cif,nombre,id\r\nB99,"Nuevo, S.A.",\r\nB12345678,Acme renombrada,${Fixtures.ids.recordAcme.toUpperCase()}\r\n`
      assert.strictEqual(yield* Catalogs.importRecords(acme, Fixtures.ids.catalog, { _tag: "Csv", text: csv }), 2)
      const state = yield* Memory.MemoryState
      const records = state.catalogRecords.get(Fixtures.ids.catalog)!
      assert.strictEqual(records.size, 4)
      assert.deepStrictEqual(records.get(Fixtures.ids.recordAcme)?.values, {
        cif: "B12345678",
        nombre: "Acme renombrada"
      })
      assert.deepStrictEqual(records.get(TestIds.uuid(2))?.values, { cif: "B99", nombre: "Nuevo, S.A." })
      const json = [
        { cif: "B1", ciudad: 28001, nombre: null },
        { id: "", cif: "B2" }
      ]
      assert.strictEqual(yield* Catalogs.importRecords(acme, Fixtures.ids.catalog, { _tag: "Json", records: json }), 2)
      assert.deepStrictEqual(records.get(TestIds.uuid(3))?.values, { cif: "B1", ciudad: "28001" })
      assert.strictEqual(yield* Catalogs.importRecords(acme, Fixtures.ids.catalog, { _tag: "Csv", text: "cif\n" }), 0)
    }).pipe(Effect.provide(world))
  )

  it.effect("refuses unknown columns, bad ids, ragged rows, bad values and unknown catalogs", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      yield* expectInvalid({ _tag: "Csv", text: "cif,iban\nB1,ES1" }, '"iban" is not a column')
      yield* expectInvalid({ _tag: "Csv", text: "id,cif\n123,B1" }, "id must be a UUID")
      yield* expectInvalid({ _tag: "Csv", text: "cif,nombre\nB1" }, "CSV record 1 has 1 fields; the header has 2")
      yield* expectInvalid({ _tag: "Csv", text: "cif,,nombre\n1,2,3" }, "empty column name")
      yield* expectInvalid({ _tag: "Csv", text: "" }, "no header row")
      yield* expectInvalid({ _tag: "Json", records: [{ cif: true }] }, "must be a string or a number")
      yield* expectInvalid({ _tag: "Json", records: [{ cif: Number.NaN }] }, "must be a string or a number")
      const missing = yield* Effect.flip(
        Catalogs.importRecords(acme, Fixtures.fixtureId(99), { _tag: "Json", records: [] })
      )
      assert.strictEqual(missing._tag, "CatalogNotFound")
      const foreign = yield* Effect.flip(
        Catalogs.importRecords(Fixtures.otherClient.id, Fixtures.ids.catalog, { _tag: "Json", records: [] })
      )
      assert.strictEqual(foreign._tag, "CatalogNotFound")
      assert.strictEqual((yield* Memory.MemoryState).catalogRecords.get(Fixtures.ids.catalog)!.size, 3)
    }).pipe(Effect.provide(world))
  )
})
