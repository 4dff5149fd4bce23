/**
 * Migration 4_catalog_keys_own_abbreviations on a database whose keys were written while the abbreviation table was
 * read through the prototype chain ("constructor" became `Object`'s source text): the affected records get their
 * keys rewritten and are found by an exact search again; other records and catalogs are left as they were.
 * Run on PostgreSQL and PGlite, each from a database migrated up to 3.
 */
import { assert, describe } from "@effect/vitest"
import { TestIds } from "@legible/testkit"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Migrator from "effect/sql/Migrator"
import * as Database from "../src/Database.js"
import { migrations } from "../src/internal/migrations.js"
import * as SqlCatalogStore from "../src/SqlCatalogStore.js"
import { migrationsFrom, onUnmigratedEngines } from "./support/databases.js"

const before = Migrator.make({})({
  loader: Migrator.fromRecord({
    "1_initial": migrations["1_initial"],
    "2_catalog_search": migrations["2_catalog_search"],
    "3_users_per_client": migrations["3_users_per_client"]
  }),
  table: Database.migrationsTable
})

const catalogId = TestIds.uuid(0x4a00_0001)
const otherCatalogId = TestIds.uuid(0x4a00_0002)
const builder = TestIds.uuid(0x4a00_0101)
const plain = TestIds.uuid(0x4a00_0102)
/** What the old code wrote for "Grupo Constructor del Norte S.A.". */
const brokenKey = `grupo ${String(Object)} del norte`

const scenario = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* before
  yield* sql`INSERT INTO clients (id, name) VALUES ('mig-c', 'C')`
  for (const id of [catalogId, otherCatalogId]) {
    yield* sql`INSERT INTO catalogs (id, client_id, name, columns, created_at)
      VALUES (${id}, 'mig-c', 'proveedores', '["nombre"]'::jsonb, now())`
  }
  const rows = [
    [catalogId, builder, "Grupo Constructor del Norte S.A.", brokenKey, "sa"],
    [catalogId, plain, "Ferretería El Sol", "ferreteria el sol", ""],
    [otherCatalogId, plain, "Ferretería El Sol", "ferreteria el sol", ""]
  ] as const
  for (const [catalog, id, name, norm, legal] of rows) {
    yield* sql`INSERT INTO catalog_records (catalog_id, id, "values")
      VALUES (${catalog}, ${id}, ${JSON.stringify({ nombre: name })}::jsonb)`
    yield* sql`INSERT INTO catalog_keys (catalog_id, record_id, column_name, space, norm, legal, ident)
      VALUES (${catalog}, ${id}, 'nombre', md5(${catalog}::uuid::text || '/nombre')::uuid, ${norm}, ${legal}, NULL)`
  }

  const ran = yield* Database.migrate
  assert.deepStrictEqual(
    ran.map(([, name]) => name),
    migrationsFrom("catalog_keys_own_abbreviations")
  )

  const keys = yield* sql<{ catalog_id: string; record_id: string; norm: string; legal: string }>`
    SELECT catalog_id, record_id, norm, legal FROM catalog_keys ORDER BY catalog_id, record_id`
  assert.deepStrictEqual(
    keys.map((k) => [k.catalog_id, k.record_id, k.norm, k.legal]),
    [
      [catalogId, builder, "grupo constructor del norte", "sa"],
      [catalogId, plain, "ferreteria el sol", ""],
      [otherCatalogId, plain, "ferreteria el sol", ""]
    ]
  )
  const versions = yield* sql<{ id: string; v: number | bigint }>`
    SELECT id, records_version AS v FROM catalogs ORDER BY id`
  assert.deepStrictEqual(
    versions.map((c) => [c.id, Number(c.v)]),
    [
      [catalogId, 1],
      [otherCatalogId, 0]
    ],
    "only the rewritten catalog's cached indexes are invalidated"
  )

  const store = yield* SqlCatalogStore.make()
  const found = yield* store.search("mig-c", catalogId, {
    _tag: "Key",
    column: "nombre",
    key: "grupo constructor del norte",
    limit: 5
  })
  assert.deepStrictEqual(
    found.map((record) => record.id),
    [builder]
  )
})

describe("migration 4_catalog_keys_own_abbreviations", () => {
  onUnmigratedEngines("rewrites the keys written with the prototype's constructor, and only those", scenario)
})
