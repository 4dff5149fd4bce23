/** The `CatalogStore` contract: catalogs scoped by client, records upserted by id, unknown columns refused. */
import { assert, layer } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import { at, idOf, type StoresLayer, tenant } from "./support.js"

const id = (n: number) => idOf(2, n)

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
