/**
 * The `CatalogStore` contract: catalogs scoped by client, records upserted by id, unknown columns refused; and the
 * searches of catalog matching (`search`), also through the `CatalogMatcher` built on the store under test.
 */
import { assert, layer } from "@effect/vitest"
import { type Catalog, CatalogMatch, CatalogMatching, type Field, Ports, Processing, type Skill } from "@legible/core"
import { Fake, Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import { at, idOf, type StoresLayer, tenant } from "./support.js"

const id = (n: number) => idOf(2, n)

/** Supplier names of the search catalog, with near-twins, legal-form pairs and identifiers one edit apart. */
const SUPPLIERS: ReadonlyArray<readonly [cif: string, nombre: string, ciudad: string]> = [
  ["B12345678", "Suministros Acme, S.L.", "Madrid"],
  ["A87654321", "Papelería Globex S.A.", "Sevilla"],
  ["B11223344", "Initech Oficinas S.L.", "València"],
  ["A11111111", "ACME S.A.", "Bilbao"],
  ["B22222222", "Acme SL", "Bilbao"],
  ["TGL850101AB1", "Transportes García López S.A. de C.V.", "Monterrey"],
  ["TGL850101AB2", "Transportes García Lopes", "Puebla"],
  ["B55555551", "Ferretería El Sol", "Cádiz"],
  ["B55555552", "Ferretería La Luna", "Cádiz"],
  ["20-30405060-7", "Distribuidora Patagonia SRL", "Neuquén"],
  ["B40404040", "Construcciones Hermanos Martínez S.A.", "Murcia"],
  ["B40404041", "Consultores Asociados del Norte", "León"],
  ["A90909090", "Laboratorios Quimifarma S.A.", "Barcelona"],
  ["B70707070", "Imprenta Gráfica Levante S.L.", "Valencia"],
  ["A30303030", "Hoteles Mediterráneo S.A.", "Málaga"],
  ["B60606060", "Talleres Mecánicos Ruiz e Hijos", "Vigo"]
]

const supplierRecords: ReadonlyArray<Catalog.CatalogRecord> = SUPPLIERS.map(([cif, nombre, ciudad], i) => ({
  id: id(100 + ((i * 7) % SUPPLIERS.length)),
  values: { cif, nombre, ciudad }
}))

const recordOf = (cif: string) => {
  const found = supplierRecords.find((r) => r.values.cif === cif)
  if (found === undefined) throw new Error(`no supplier ${cif}`)
  return found
}

const idsOf = (records: ReadonlyArray<Catalog.CatalogRecord>) => records.map((r) => r.id)

/** A client with the search catalog (`id(catalogN)`); returns the client id. */
const withSuppliers = (name: string, catalogN: number) =>
  Effect.gen(function* () {
    const { client } = yield* tenant(name)
    const catalogs = yield* Ports.CatalogStore
    yield* catalogs.create(Fixtures.catalog({ id: id(catalogN), clientId: client.id, name: "Proveedores" }))
    yield* catalogs.upsertRecords(client.id, id(catalogN), supplierRecords)
    return client.id
  })

const field = (catalogN: number, catalog: Partial<Skill.CatalogFieldConfig>): Skill.SkillField => ({
  name: "proveedor",
  order: 1,
  type: "catalog",
  isList: false,
  description: "Proveedor",
  aliases: [],
  catalog: {
    catalogId: id(catalogN),
    keyColumns: ["nombre"],
    outputColumns: ["cif"],
    method: "aproximada",
    threshold: CatalogMatch.DEFAULT_THRESHOLD,
    ...catalog
  }
})

/** The ranking `Similar` must give, computed here from the records (best first, then id). */
const expectedSimilar = (text: string, minSimilarity: number, limit: number) =>
  supplierRecords
    .map((r) => ({ id: r.id, s: CatalogMatch.similarity(CatalogMatch.normalize(r.values.nombre ?? "").key, text) }))
    .filter((x) => x.s > 0 && x.s >= minSimilarity)
    .sort((a, b) => b.s - a.s || (a.id < b.id ? -1 : 1))
    .slice(0, limit)
    .map((x) => x.id)

/** Runs the `CatalogStore` contract against `stores`. */
export const catalogStoreContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`CatalogStore contract: ${name}`, (it) => {
    it.effect("create, get and list (by creation, then id); another client sees nothing", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("catalogs-list")
        const theirs = yield* tenant("catalogs-list-other")
        const catalogs = yield* Ports.CatalogStore
        const second = Fixtures.catalog({ id: id(2), clientId: mine.client.id, name: "Centros", createdAt: at(5) })
        const first = Fixtures.catalog({ id: id(1), clientId: mine.client.id, createdAt: at(1) })
        const third = Fixtures.catalog({ id: id(3), clientId: mine.client.id, name: "Obras", createdAt: at(5) })
        for (const catalog of [second, third, first]) yield* catalogs.create(catalog)
        yield* catalogs.create(Fixtures.catalog({ id: id(4), clientId: theirs.client.id }))
        assert.deepStrictEqual(yield* catalogs.get(mine.client.id, id(1)), first)
        assert.deepStrictEqual(yield* catalogs.list(mine.client.id), [first, second, third])
        assert.isUndefined(yield* catalogs.get(theirs.client.id, id(1)))
        assert.isUndefined(yield* catalogs.get(mine.client.id, id(4)))
        assert.isUndefined(yield* catalogs.get(mine.client.id, "not-a-uuid"))
      })
    )

    it.effect("records: upserted by id (replacing values), read back, counted; other clients cannot reach them", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("catalogs-records")
        const theirs = yield* tenant("catalogs-records-other")
        const catalogs = yield* Ports.CatalogStore
        yield* catalogs.create(Fixtures.catalog({ id: id(10), clientId: mine.client.id }))
        assert.strictEqual(yield* catalogs.upsertRecords(mine.client.id, id(10), Fixtures.catalogRecords), 3)
        assert.strictEqual(yield* catalogs.countRecords(mine.client.id, id(10)), 3)
        const [acme] = Fixtures.catalogRecords
        assert.deepStrictEqual(yield* catalogs.getRecord(mine.client.id, id(10), Fixtures.ids.recordAcme), acme)
        const renamed = { id: Fixtures.ids.recordAcme, values: { cif: "B12345678", nombre: "Acme Renombrada" } }
        assert.strictEqual(yield* catalogs.upsertRecords(mine.client.id, id(10), [renamed]), 1)
        assert.deepStrictEqual(yield* catalogs.getRecord(mine.client.id, id(10), Fixtures.ids.recordAcme), renamed)
        assert.strictEqual(yield* catalogs.countRecords(mine.client.id, id(10)), 3, "replaced, not added")
        assert.isUndefined(yield* catalogs.getRecord(theirs.client.id, id(10), Fixtures.ids.recordAcme))
        assert.strictEqual(yield* catalogs.countRecords(theirs.client.id, id(10)), 0)
        assert.isUndefined(yield* catalogs.getRecord(mine.client.id, id(10), "not-a-uuid"))
        const refused = yield* Effect.flip(catalogs.upsertRecords(theirs.client.id, id(10), [renamed]))
        assert.strictEqual(refused._tag, "InvalidRequest", "another client's catalog does not exist for them")
      })
    )

    it.effect("a batch with an unknown column is refused whole", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("catalogs-unknown")
        const catalogs = yield* Ports.CatalogStore
        yield* catalogs.create(Fixtures.catalog({ id: id(20), clientId: client.id }))
        const good = { id: id(21), values: { cif: "X1" } }
        const bad = { id: id(22), values: { cif: "X2", telefono: "600000000" } }
        const error = yield* Effect.flip(catalogs.upsertRecords(client.id, id(20), [good, bad]))
        assert.strictEqual(error._tag, "InvalidRequest")
        assert.include(error._tag === "InvalidRequest" ? error.message : "", "telefono")
        assert.strictEqual(yield* catalogs.countRecords(client.id, id(20)), 0)
        const missing = yield* Effect.flip(catalogs.upsertRecords(client.id, id(29), [good]))
        assert.strictEqual(missing._tag, "InvalidRequest")
      })
    )

    it.effect("search Key: equality of the normalized key (legal form apart), by id, up to the limit", () =>
      Effect.gen(function* () {
        const clientId = yield* withSuppliers("catalogs-search-key", 40)
        const catalogs = yield* Ports.CatalogStore
        const key = (value: string, limit = 10) =>
          catalogs.search(clientId, id(40), {
            _tag: "Key",
            column: "nombre",
            key: CatalogMatch.normalize(value).key,
            limit
          })
        assert.deepStrictEqual(idsOf(yield* key("SUMINISTROS ACME SL")), [recordOf("B12345678").id])
        const acmes = [recordOf("A11111111").id, recordOf("B22222222").id].sort()
        assert.deepStrictEqual(idsOf(yield* key("Acmé, S.A. de C.V.")), acmes)
        assert.deepStrictEqual(idsOf(yield* key("Acme", 1)), acmes.slice(0, 1))
        assert.deepStrictEqual(yield* key("Suministros Acmc SL"), [], "an edit is not equal")
        const byCity = yield* catalogs.search(clientId, id(40), {
          _tag: "Key",
          column: "ciudad",
          key: "cadiz",
          limit: 5
        })
        assert.deepStrictEqual(idsOf(byCity), [recordOf("B55555551").id, recordOf("B55555552").id].sort())
        assert.deepStrictEqual(
          yield* catalogs.search(clientId, id(40), { _tag: "Key", column: "x", key: "acme", limit: 5 }),
          []
        )
      })
    )

    it.effect("search Identifier and NearIdentifier: confusables folded, exactly one edit, best first", () =>
      Effect.gen(function* () {
        const clientId = yield* withSuppliers("catalogs-search-ident", 41)
        const catalogs = yield* Ports.CatalogStore
        const search = (tag: "Identifier" | "NearIdentifier", read: string) =>
          Effect.map(
            catalogs.search(clientId, id(41), {
              _tag: tag,
              column: "cif",
              identifier: CatalogMatch.identifierOf(read)?.folded ?? "",
              limit: 10
            }),
            idsOf
          )
        const acme = recordOf("B12345678").id
        for (const read of ["B12345678", "812345678", "B1234S678", "b-l2345678"]) {
          assert.deepStrictEqual(yield* search("Identifier", read), [acme], read)
        }
        assert.deepStrictEqual(yield* search("Identifier", "20304050607"), [recordOf("20-30405060-7").id])
        assert.deepStrictEqual(yield* search("Identifier", "B12345679"), [])
        for (const read of ["B12345679", "B1234567", "B123456789", "B12345687", "A12345678"]) {
          assert.deepStrictEqual(yield* search("NearIdentifier", read), [acme], read)
        }
        assert.deepStrictEqual(yield* search("NearIdentifier", "B12345678"), [], "equal is not one edit away")
        assert.deepStrictEqual(yield* search("NearIdentifier", "B12345699"), [], "two edits")
        const twins = [recordOf("B55555551").id, recordOf("B55555552").id].sort()
        assert.deepStrictEqual((yield* search("NearIdentifier", "B55555550")).sort(), twins)
        // `orKey`: the key's records only when no record has the identifier (one search for an identifier reading).
        const either = (identifier: string, orKey: string) =>
          Effect.map(
            catalogs.search(clientId, id(41), { _tag: "Identifier", column: "cif", identifier, orKey, limit: 10 }),
            idsOf
          )
        assert.deepStrictEqual(yield* either("812345678", "b22222222"), [acme], "the identifier wins")
        assert.deepStrictEqual(
          yield* either("812345679", "b22222222"),
          [recordOf("B22222222").id],
          "no identifier: the key"
        )
        assert.deepStrictEqual(yield* either("812345679", "b99999999"), [], "neither")
      })
    )

    it.effect("search Similar: trigram similarity ≥ the floor, best first then id, up to the limit", () =>
      Effect.gen(function* () {
        const clientId = yield* withSuppliers("catalogs-search-similar", 42)
        const catalogs = yield* Ports.CatalogStore
        for (const [read, floor, limit] of [
          ["Suministr0s Acmc, SL", 0.3, 5],
          ["Transportes Garcia Lopez", 0.2, 3],
          ["ferreteria", 0.1, 10],
          ["Hoteles Mediterraneo", 0.9, 5]
        ] as const) {
          const text = CatalogMatch.normalize(read).key
          const found = yield* catalogs.search(clientId, id(42), {
            _tag: "Similar",
            column: "nombre",
            text,
            minSimilarity: floor,
            limit
          })
          assert.deepStrictEqual(idsOf(found), expectedSimilar(text, floor, limit), read)
        }
        const [best] = yield* catalogs.search(clientId, id(42), {
          _tag: "Similar",
          column: "nombre",
          text: CatalogMatch.normalize("Laboratorlos Quimifarrna").key,
          minSimilarity: 0.3,
          limit: 5
        })
        assert.deepStrictEqual(best, recordOf("A90909090"))
      })
    )

    it.effect("search: another client's catalog or another catalog has nothing; upserts and removal are followed", () =>
      Effect.gen(function* () {
        const clientId = yield* withSuppliers("catalogs-search-scope", 43)
        const other = yield* withSuppliers("catalogs-search-scope-other", 44)
        const catalogs = yield* Ports.CatalogStore
        const queries: ReadonlyArray<CatalogMatch.CatalogQuery> = [
          { _tag: "Key", column: "nombre", key: "suministros acme", limit: 5 },
          { _tag: "Identifier", column: "cif", identifier: "812345678", limit: 5 },
          { _tag: "Identifier", column: "cif", identifier: "000000000", orKey: "b12345678", limit: 5 },
          { _tag: "NearIdentifier", column: "cif", identifier: "812345670", limit: 5 },
          { _tag: "Similar", column: "nombre", text: "suministros acme", minSimilarity: 0.3, limit: 5 }
        ]
        for (const query of queries) {
          assert.isAbove((yield* catalogs.search(clientId, id(43), query)).length, 0, query._tag)
          assert.deepStrictEqual(yield* catalogs.search(other, id(43), query), [], `${query._tag}: not theirs`)
          assert.deepStrictEqual(yield* catalogs.search(clientId, id(44), query), [], `${query._tag}: not mine`)
          assert.deepStrictEqual(yield* catalogs.search(clientId, "not-a-uuid", query), [])
        }
        const acme = recordOf("B12345678")
        yield* catalogs.upsertRecords(clientId, id(43), [
          { id: acme.id, values: { cif: "X9999999", nombre: "Acme Renombrada SA" } }
        ])
        const [byOldKey, byOldId, byNewKey, byNewSimilar] = [
          queries[0],
          queries[1],
          { _tag: "Key", column: "nombre", key: "acme renombrada", limit: 5 } as const,
          { _tag: "Similar", column: "nombre", text: "acme renombrada", minSimilarity: 0.5, limit: 5 } as const
        ]
        for (const query of [byOldKey, byOldId]) {
          if (query !== undefined) assert.deepStrictEqual(yield* catalogs.search(clientId, id(43), query), [])
        }
        assert.deepStrictEqual(idsOf(yield* catalogs.search(clientId, id(43), byNewKey)), [acme.id])
        assert.deepStrictEqual(idsOf(yield* catalogs.search(clientId, id(43), byNewSimilar)), [acme.id])
        assert.isTrue(yield* catalogs.remove(clientId, id(43)))
        for (const query of queries) assert.deepStrictEqual(yield* catalogs.search(clientId, id(43), query), [])
      })
    )

    it.effect("matcher: exacta folds confusables; aproximada finds OCR-corrupted names, clearly ahead only", () =>
      Effect.gen(function* () {
        const clientId = yield* withSuppliers("catalogs-match", 45)
        const matcher = yield* CatalogMatching.make
        const byCif = field(45, { method: "exacta", keyColumns: ["cif"], outputColumns: ["nombre"], threshold: 1 })
        const exact = yield* matcher.match(clientId, byCif, { cif: "B1234S678" })
        assert.deepStrictEqual(exact.matching, {
          status: "found",
          method: "exacta",
          score: 1,
          threshold_used: null,
          extracted_values: { cif: "B1234S678" },
          catalog_record_id: recordOf("B12345678").id,
          key_columns: ["cif"]
        })
        assert.deepStrictEqual(exact.catalog_values, { cif: "B12345678", nombre: "Suministros Acme, S.L." })
        assert.deepStrictEqual(exact.catalog_info, { id: id(45), name: "Proveedores", output_columns: ["nombre"] })
        assert.strictEqual((yield* matcher.match(clientId, byCif, { cif: "B12345679" })).matching.status, "not_found")

        const byName = field(45, {})
        const ocr = yield* matcher.match(clientId, byName, { nombre: "Laboratorlos Quimifarrna SA" })
        assert.strictEqual(ocr.matching.catalog_record_id, recordOf("A90909090").id)
        assert.strictEqual(ocr.matching.threshold_used, CatalogMatch.DEFAULT_THRESHOLD)
        assert.deepStrictEqual(ocr.catalog_values, { nombre: "Laboratorios Quimifarma S.A.", cif: "A90909090" })
        const legal = yield* matcher.match(clientId, byName, { nombre: "ACME SL" })
        assert.strictEqual(legal.matching.catalog_record_id, recordOf("B22222222").id, "the same legal form wins")
        // "Lopex" is one edit from both near-twins "García López" and "García Lopes": neither is clearly ahead.
        const twins = yield* matcher.match(clientId, byName, { nombre: "Transportes Garcia Lopex" })
        assert.strictEqual(twins.matching.status, "not_found")
        assert.isAtLeast(twins.matching.score, CatalogMatch.DEFAULT_THRESHOLD)
        assert.deepStrictEqual(twins.catalog_values, {})
        const absent = yield* matcher.match(clientId, byName, { nombre: "Panadería San Roque" })
        assert.strictEqual(absent.matching.status, "not_found")
        assert.isBelow(absent.matching.score, CatalogMatch.DEFAULT_THRESHOLD)
      })
    )

    it.effect("matcher: one edit in an identifier only when one record is an edit away; tenants isolated", () =>
      Effect.gen(function* () {
        const clientId = yield* withSuppliers("catalogs-match-ident", 46)
        const other = yield* tenant("catalogs-match-ident-other")
        const matcher = yield* CatalogMatching.make
        const byCif = field(46, { keyColumns: ["cif"], outputColumns: ["nombre"] })
        const one = yield* matcher.match(clientId, byCif, { cif: "B1Z345679" })
        assert.strictEqual(one.matching.catalog_record_id, recordOf("B12345678").id)
        assert.closeTo(one.matching.score, 8 / 9, 1e-4)
        const two = yield* matcher.match(clientId, byCif, { cif: "B55555550" })
        assert.strictEqual(two.matching.status, "not_found", "two records one edit away")
        const theirs = yield* matcher.match(other.client.id, byCif, { cif: "B12345678" })
        assert.strictEqual(theirs.matching.status, "not_found")
        assert.deepStrictEqual(theirs.catalog_info, { id: id(46), name: "", output_columns: ["nombre"] })
        const nothing = yield* matcher.match(clientId, byCif, {})
        assert.deepStrictEqual([nothing.matching.status, nothing.matching.score], ["not_found", 0])
      })
    )

    it.effect("matcher in list items: each invoice line's catalog sub-field and each catalog list item", () =>
      Effect.gen(function* () {
        const clientId = yield* withSuppliers("catalogs-match-lines", 47)
        const matcher = yield* CatalogMatching.make
        const concepto: Skill.SkillField = {
          name: "concepto",
          order: 1,
          type: "string",
          isList: false,
          description: "",
          aliases: []
        }
        const lineas: Skill.SkillField = {
          ...concepto,
          name: "lineas",
          type: "object",
          isList: true,
          fields: [concepto, { ...field(47, {}), order: 2 }]
        }
        const cifs: Skill.SkillField = {
          ...field(47, { method: "exacta", keyColumns: ["cif"], outputColumns: ["nombre"], threshold: 1 }),
          name: "cifs",
          order: 2,
          isList: true
        }
        const values = {
          lineas: [
            { concepto: "Reactivos", proveedor: "Laboratorlos Quimifarrna SA" },
            { concepto: "Pan", proveedor: "Panadería San Roque" },
            {},
            { concepto: "Tornillos", proveedor: { nombre: "Ferreteria El So1" } }
          ],
          cifs: ["B1234S678", "B99999999"]
        }
        const result = yield* Processing.run(
          {
            skill: Fixtures.skill({ fields: [lineas, cifs] }),
            bytes: new Uint8Array(),
            clientId,
            mode: "ocr_only",
            model: "local"
          },
          matcher.match
        ).pipe(Effect.provide(Fake.readerAndExtractor(values)))
        const rows = result.fields.find((f) => f.name === "lineas")?.value as ReadonlyArray<
          Record<string, Field.CatalogValue>
        >
        assert.deepStrictEqual(
          rows.map((row) => [row.proveedor?.matching.status, row.proveedor?.matching.catalog_record_id]),
          [
            ["found", recordOf("A90909090").id],
            ["not_found", undefined],
            ["found", recordOf("B55555551").id]
          ]
        )
        assert.deepStrictEqual(rows[0]?.proveedor?.catalog_values, {
          nombre: "Laboratorios Quimifarma S.A.",
          cif: "A90909090"
        })
        const items = result.fields.find((f) => f.name === "cifs")?.value as ReadonlyArray<Field.CatalogValue>
        assert.deepStrictEqual(
          items.map((v) => [v.matching.status, v.matching.catalog_record_id, v.catalog_info.name]),
          [
            ["found", recordOf("B12345678").id, "Proveedores"],
            ["not_found", undefined, "Proveedores"]
          ]
        )
      })
    )

    it.effect("remove deletes the catalog and its records, once", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("catalogs-remove")
        const theirs = yield* tenant("catalogs-remove-other")
        const catalogs = yield* Ports.CatalogStore
        yield* catalogs.create(Fixtures.catalog({ id: id(30), clientId: mine.client.id }))
        yield* catalogs.upsertRecords(mine.client.id, id(30), Fixtures.catalogRecords)
        assert.isFalse(yield* catalogs.remove(theirs.client.id, id(30)), "not theirs to remove")
        assert.isTrue(yield* catalogs.remove(mine.client.id, id(30)))
        assert.isFalse(yield* catalogs.remove(mine.client.id, id(30)))
        assert.isFalse(yield* catalogs.remove(mine.client.id, "not-a-uuid"))
        assert.isUndefined(yield* catalogs.get(mine.client.id, id(30)))
        assert.strictEqual(yield* catalogs.countRecords(mine.client.id, id(30)), 0)
        assert.isUndefined(yield* catalogs.getRecord(mine.client.id, id(30), Fixtures.ids.recordAcme))
      })
    )
  })
