import { assert, describe, layer } from "@effect/vitest"
import { CatalogMatch, CatalogMatching, type Field, Ports, Processing, type Skill } from "@legible/core"
import { Fake, Fixtures, Memory } from "@legible/testkit"
import { Effect, Layer } from "effect"

const setup = Effect.gen(function* () {
  const directory = yield* Ports.Directory
  yield* directory.upsertClient(Fixtures.client)
  yield* directory.upsertClient(Fixtures.otherClient)
  const catalogs = yield* Ports.CatalogStore
  yield* catalogs.create(Fixtures.catalog())
  yield* catalogs.upsertRecords(Fixtures.client.id, Fixtures.ids.catalog, Fixtures.catalogRecords)
})

const proveedor = (catalog: Partial<Skill.CatalogFieldConfig> = {}): Skill.SkillField => {
  const field = Fixtures.invoiceFields.find((f) => f.name === "proveedor")
  if (field?.catalog === undefined) throw new Error("the fixture skill has a catalog field")
  return { ...field, catalog: { ...field.catalog, ...catalog } }
}

const stores = Layer.effectDiscard(setup).pipe(Layer.provideMerge(Memory.layer))

describe("CatalogMatching", () => {
  layer(Layer.provideMerge(CatalogMatching.layer, stores))((it) => {
    it.effect("exacta by tax id, read with confusables: the fixture supplier with its output columns", () =>
      Effect.gen(function* () {
        const matcher = yield* Ports.CatalogMatcher
        const value = yield* matcher.match(Fixtures.client.id, proveedor(), { cif: "B1234S678" })
        assert.deepStrictEqual(value, {
          type: "catalog",
          matching: {
            status: "found",
            method: "exacta",
            score: 1,
            threshold_used: null,
            extracted_values: { cif: "B1234S678" },
            catalog_record_id: Fixtures.ids.recordAcme,
            key_columns: ["cif"]
          },
          catalog_values: { cif: "B12345678", nombre: "Suministros Acme S.L." },
          catalog_info: { id: Fixtures.ids.catalog, name: "Proveedores", output_columns: ["nombre"] }
        })
      })
    )

    it.effect("aproximada by name: an OCR reading is found; a stranger is not, with its best score", () =>
      Effect.gen(function* () {
        const matcher = yield* Ports.CatalogMatcher
        const byName = proveedor({
          keyColumns: ["nombre"],
          outputColumns: ["cif", "ciudad"],
          method: "aproximada",
          threshold: CatalogMatch.DEFAULT_THRESHOLD
        })
        const found = yield* matcher.match(Fixtures.client.id, byName, { nombre: "PAPELERIA GL0BEX SA" })
        assert.strictEqual(found.matching.catalog_record_id, Fixtures.ids.recordGlobex)
        assert.deepStrictEqual(found.catalog_values, {
          nombre: "Papelería Globex S.A.",
          cif: "A87654321",
          ciudad: "Sevilla"
        })
        const stranger = yield* matcher.match(Fixtures.client.id, byName, { nombre: "Hermanos Quintero" })
        assert.strictEqual(stranger.matching.status, "not_found")
        assert.isBelow(stranger.matching.score, CatalogMatch.DEFAULT_THRESHOLD)
        assert.isUndefined(stranger.matching.catalog_record_id)
      })
    )

    it.effect("another client's catalog, or nothing read: not found with score 0", () =>
      Effect.gen(function* () {
        const matcher = yield* Ports.CatalogMatcher
        const theirs = yield* matcher.match(Fixtures.otherClient.id, proveedor(), { cif: "B12345678" })
        assert.deepStrictEqual([theirs.matching.status, theirs.matching.score], ["not_found", 0])
        assert.strictEqual(theirs.catalog_info.name, "")
        const nothing = yield* matcher.match(Fixtures.client.id, proveedor(), { cif: "  " })
        assert.deepStrictEqual([nothing.matching.status, nothing.matching.score], ["not_found", 0])
      })
    )

    it.effect("the remembered catalog name stands while searches return records; a removed catalog reads again", () =>
      Effect.gen(function* () {
        const catalogs = yield* Ports.CatalogStore
        const id = Fixtures.fixtureId(90)
        yield* catalogs.create(Fixtures.catalog({ id, name: "Temporal" }))
        yield* catalogs.upsertRecords(Fixtures.client.id, id, [
          { id: Fixtures.fixtureId(91), values: { cif: "B99999999", nombre: "Temporal SL" } }
        ])
        const matcher = yield* Ports.CatalogMatcher
        const field = proveedor({ catalogId: id })
        const first = yield* matcher.match(Fixtures.client.id, field, { cif: "B99999999" })
        assert.deepStrictEqual([first.matching.status, first.catalog_info.name], ["found", "Temporal"])
        const again = yield* matcher.match(Fixtures.client.id, field, { cif: "B99999999" })
        assert.deepStrictEqual([again.matching.status, again.catalog_info.name], ["found", "Temporal"])
        assert.isTrue(yield* catalogs.remove(Fixtures.client.id, id))
        const gone = yield* matcher.match(Fixtures.client.id, field, { cif: "B99999999" })
        assert.deepStrictEqual([gone.matching.status, gone.catalog_info.name], ["not_found", ""])
      })
    )

    it.effect(
      "catalog fields in list items are matched: each invoice line's supplier, each item of a catalog list",
      () =>
        Effect.gen(function* () {
          const matcher = yield* Ports.CatalogMatcher
          const text = (name: string, order: number): Skill.SkillField => ({
            name,
            order,
            type: "string",
            isList: false,
            description: "",
            aliases: []
          })
          const byName = proveedor({
            keyColumns: ["nombre"],
            outputColumns: ["cif"],
            method: "aproximada",
            threshold: CatalogMatch.DEFAULT_THRESHOLD
          })
          const lineas: Skill.SkillField = {
            ...text("lineas", 1),
            type: "object",
            isList: true,
            fields: [text("concepto", 1), { ...byName, order: 2 }]
          }
          const cifs: Skill.SkillField = { ...proveedor(), name: "cifs", order: 2, isList: true }
          const values = {
            lineas: [
              { concepto: "Papel", proveedor: "PAPELERIA GL0BEX SA" },
              { concepto: "Pan", proveedor: "Hermanos Quintero" },
              { concepto: "Sillas", proveedor: "Initech 0ficinas SL" }
            ],
            cifs: ["B1234S678", "A87654321", "X00000000"]
          }
          const result = yield* Processing.run(
            {
              skill: Fixtures.skill({ fields: [lineas, cifs] }),
              bytes: new Uint8Array(),
              clientId: Fixtures.client.id,
              mode: "ocr_only",
              model: "local"
            },
            matcher.match
          ).pipe(Effect.provide(Fake.readerAndExtractor(values)))
          const rows = result.fields.find((f) => f.name === "lineas")?.value as ReadonlyArray<
            Record<string, Field.DetailedSimpleValue | Field.CatalogValue>
          >
          const supplierOf = (row: (typeof rows)[number] | undefined) =>
            row?.proveedor as Field.CatalogValue | undefined
          assert.deepStrictEqual(
            rows.map((row) => supplierOf(row)?.matching.catalog_record_id),
            [Fixtures.ids.recordGlobex, undefined, Fixtures.ids.recordInitech]
          )
          assert.deepStrictEqual(supplierOf(rows[0])?.catalog_values, {
            nombre: "Papelería Globex S.A.",
            cif: "A87654321"
          })
          assert.strictEqual(supplierOf(rows[1])?.matching.status, "not_found")
          assert.strictEqual((rows[2]?.concepto as Field.DetailedSimpleValue | undefined)?.literal, "Sillas")
          const items = result.fields.find((f) => f.name === "cifs")?.value as ReadonlyArray<Field.CatalogValue>
          assert.deepStrictEqual(
            items.map((v) => v.matching.catalog_record_id),
            [Fixtures.ids.recordAcme, Fixtures.ids.recordGlobex, undefined]
          )
        })
    )

    it.effect("a remembered name costs no read while searches return records, found or not; none: read again", () =>
      Effect.gen(function* () {
        const store = yield* Ports.CatalogStore
        let reads = 0
        const counting = Ports.CatalogStore.of({
          ...store,
          get: (clientId, id) =>
            Effect.andThen(
              Effect.sync(() => reads++),
              store.get(clientId, id)
            )
        })
        const matcher = yield* Effect.provideService(CatalogMatching.make, Ports.CatalogStore, counting)
        const byName = proveedor({
          keyColumns: ["nombre"],
          outputColumns: ["cif"],
          method: "aproximada",
          threshold: CatalogMatch.DEFAULT_THRESHOLD
        })
        const found = yield* matcher.match(Fixtures.client.id, byName, { nombre: "PAPELERIA GL0BEX SA" })
        assert.deepStrictEqual([found.matching.status, reads], ["found", 1])
        const near = yield* matcher.match(Fixtures.client.id, byName, { nombre: "Papelería Hermanos Quintero" })
        assert.deepStrictEqual([near.matching.status, near.catalog_info.name, reads], ["not_found", "Proveedores", 1])
        const none = yield* matcher.match(Fixtures.client.id, byName, { nombre: "zzzz qqqq" })
        assert.deepStrictEqual([none.matching.status, none.catalog_info.name, reads], ["not_found", "Proveedores", 2])
      })
    )

    it.effect("a field without catalog settings is a defect of the caller", () =>
      Effect.gen(function* () {
        const matcher = yield* Ports.CatalogMatcher
        const { catalog: _, ...plain } = proveedor()
        const exit = yield* Effect.exit(matcher.match(Fixtures.client.id, { ...plain, type: "string" }, {}))
        assert.isTrue(exit._tag === "Failure")
      })
    )
  })
})
