import { assert, describe, layer } from "@effect/vitest"
import { CatalogMatch, CatalogMatching, Directory, Ports, type Skill } from "@legible/core"
import { Fixtures, Memory } from "@legible/testkit"
import { Effect, Layer } from "effect"

const setup = Effect.gen(function* () {
  const directory = yield* Directory.Directory
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

    it.effect("the remembered catalog name is used only while records are found; a removed catalog reads again", () =>
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
