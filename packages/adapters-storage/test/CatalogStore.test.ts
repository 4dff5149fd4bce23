import * as PgClient from "@effect/sql-pg/PgClient"
import { assert, describe, it, layer } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Fixtures, Memory, TestIds } from "@legible/testkit"
import { Effect, Layer } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { SqlClient } from "effect/sql"
import * as Migrator from "effect/sql/Migrator"
import * as Database from "../src/Database.js"
import * as CatalogIndex from "../src/internal/catalogIndex.js"
import { addPage } from "../src/internal/catalogIndexWorker.js"
import { migrations } from "../src/internal/migrations.js"
import { TrigramIndexBuilder } from "../src/internal/trigramIndex.js"
import * as SqlCatalogStore from "../src/SqlCatalogStore.js"
import * as SqlStorage from "../src/SqlStorage.js"
import { catalogStoreContract } from "./contracts/CatalogStore.js"
import { freshPostgresUrl, pglite, postgres, postgresWith } from "./support/databases.js"

catalogStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
// Every trigram search through the in-process index (the default keeps small catalogs in `pg_trgm`).
catalogStoreContract(
  "PGlite, in-process index",
  SqlStorage.layer({ catalogIndex: { minRecords: 1 } }).pipe(Layer.provide(pglite))
)
catalogStoreContract("PostgreSQL", SqlStorage.layer().pipe(Layer.provide(postgres)))
catalogStoreContract("in-memory", Memory.layer)

// The in-process index cache itself: when it builds, shares, keeps, rebuilds and evicts.
layer(SqlStorage.layer().pipe(Layer.provideMerge(postgresWith({ maxConnections: 4 }))))(
  "in-process trigram index cache (PostgreSQL)",
  (it) => {
    const records = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        id: TestIds.uuid(0x7a00_0000 + i),
        values: { nombre: `${prefix} ${["Acme", "Globex", "Initech", "Umbrella"][i % 4]} ${i}` }
      }))

    const catalogWith = (name: string, n: number) =>
      Effect.gen(function* () {
        const directory = yield* Ports.Directory
        const client = yield* directory.upsertClient({ id: `client-index-${name}`, name })
        const catalogs = yield* Ports.CatalogStore
        const id = TestIds.uuid(0x7b00_0000 + name.length * 1000 + n)
        yield* catalogs.create(Fixtures.catalog({ id, clientId: client.id, columns: ["nombre"] }))
        yield* catalogs.upsertRecords(client.id, id, records(name, n))
        return { clientId: client.id, id }
      })

    const versionOf = (id: string) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.map(sql<{ version: bigint }>`SELECT records_version AS version FROM catalogs WHERE id = ${id}`, (rows) =>
          Number(rows[0]?.version)
        )
      )

    it.effect("small catalogs stay in SQL; one build per version, shared by concurrent searches", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const cache = CatalogIndex.make(sql, { minRecords: 50, cacheBytes: 1_000_000 })
        const small = yield* catalogWith("small", 20)
        assert.isUndefined(yield* cache.get(small.id, "nombre", yield* versionOf(small.id), 20))
        const big = yield* catalogWith("big", 200)
        const version = yield* versionOf(big.id)
        const [a, b] = yield* Effect.all(
          [cache.get(big.id, "nombre", version, 200), cache.get(big.id, "nombre", version, 200)],
          {
            concurrency: "unbounded"
          }
        )
        assert.isDefined(a)
        assert.strictEqual(a, b, "one build for both")
        assert.strictEqual(a?.size, 200)
        assert.strictEqual(yield* cache.get(big.id, "nombre", version, 200), a, "kept")
        assert.strictEqual(cache.bytes(), a?.bytes)
        const hits = a?.search("big acme 12", 0.3, 3) ?? []
        assert.strictEqual(a?.idAt(hits[0]?.position ?? -1), TestIds.uuid(0x7a00_0000 + 12))
        // An upsert bumps the version: the next search rebuilds from the new rows.
        const catalogs = yield* Ports.CatalogStore
        yield* catalogs.upsertRecords(big.clientId, big.id, [
          { id: TestIds.uuid(0x7a00_0000 + 12), values: { nombre: "Renamed" } }
        ])
        const next = yield* versionOf(big.id)
        assert.isAbove(next, version)
        const rebuilt = yield* cache.get(big.id, "nombre", next, 200)
        assert.notStrictEqual(rebuilt, a)
        assert.strictEqual(
          rebuilt?.idAt(rebuilt.search("renamed", 0.5, 1)[0]?.position ?? -1),
          TestIds.uuid(0x7a00_0000 + 12)
        )
      })
    )

    it.effect("the cache stays within its bytes: the least recently used index goes; one too big is never built", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const first = yield* catalogWith("lru-first", 300)
        const second = yield* catalogWith("lru-second", 300)
        const probe = CatalogIndex.make(sql, { minRecords: 1, cacheBytes: 100_000_000 })
        const one = yield* probe.get(first.id, "nombre", yield* versionOf(first.id), 300)
        const budget = Math.ceil((one?.bytes ?? 0) * 1.5)
        const cache = CatalogIndex.make(sql, { minRecords: 1, cacheBytes: budget })
        yield* cache.get(first.id, "nombre", yield* versionOf(first.id), 300)
        assert.isDefined(cache.peek(first.id, "nombre"))
        yield* cache.get(second.id, "nombre", yield* versionOf(second.id), 300)
        assert.isUndefined(cache.peek(first.id, "nombre"), "evicted")
        assert.isDefined(cache.peek(second.id, "nombre"))
        assert.isAtMost(cache.bytes(), budget)
        const tiny = CatalogIndex.make(sql, { minRecords: 1, cacheBytes: 1_000 })
        assert.isUndefined(yield* tiny.get(first.id, "nombre", yield* versionOf(first.id), 300))
        assert.strictEqual(tiny.bytes(), 0)
      })
    )
  }
)

describe("migration 2_catalog_search", () => {
  it.effect(
    "writes the normalized columns and record counts of catalogs stored before it (PostgreSQL)",
    () =>
      Effect.gen(function* () {
        const url = yield* freshPostgresUrl
        const sql = yield* PgClient.make({ url, maxConnections: 1 })
        const catalogId = TestIds.uuid(0x7c00_0001)
        const before = Migrator.make({})({
          loader: Migrator.fromRecord({ "1_initial": migrations["1_initial"] }),
          table: Database.migrationsTable
        })
        yield* Effect.gen(function* () {
          yield* before
          yield* sql`INSERT INTO clients (id, name) VALUES ('client-backfill', 'Backfill')`
          yield* sql`INSERT INTO catalogs (id, client_id, name, columns, created_at)
            VALUES (${catalogId}, 'client-backfill', 'Proveedores', '["cif", "nombre"]'::jsonb, now())`
          for (const [n, cif, nombre] of [
            [1, "B12345678", "Suministros Acme, S.L."],
            [2, "A87654321", "Papelería Globex S.A."]
          ] as const) {
            yield* sql`INSERT INTO catalog_records (catalog_id, id, "values")
              VALUES (${catalogId}, ${TestIds.uuid(0x7c00_0100 + n)}, ${JSON.stringify({ cif, nombre })}::jsonb)`
          }
          const ran = yield* Database.migrate
          // Later migrations run after it; this test is about the first.
          assert.deepStrictEqual(ran.map(([, name]) => name).slice(0, 1), ["catalog_search"])
          const store = yield* SqlCatalogStore.make()
          const found = yield* store.search("client-backfill", catalogId, {
            _tag: "Key",
            column: "nombre",
            key: "suministros acme",
            limit: 5
          })
          assert.deepStrictEqual(
            found.map((r) => r.id),
            [TestIds.uuid(0x7c00_0101)]
          )
          const byCif = yield* store.search("client-backfill", catalogId, {
            _tag: "Identifier",
            column: "cif",
            identifier: "A87654321",
            limit: 5
          })
          assert.deepStrictEqual(
            byCif.map((r) => r.id),
            [TestIds.uuid(0x7c00_0102)]
          )
          const [counts] = yield* sql<{
            record_count: bigint
          }>`SELECT record_count FROM catalogs WHERE id = ${catalogId}`
          assert.strictEqual(Number(counts?.record_count), 2)
        }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
      }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)),
    60_000
  )
})

describe("in-process index builds in a worker thread", () => {
  const WORDS = ["acme", "globex", "initech", "umbrella", "hooli", "stark", "wayne", "tyrell", "cyberdyne", "soylent"]
  const N = 200_000
  const PAGE = 20_000
  const keyOf = (i: number) => `${WORDS[i % 10]} ${WORDS[Math.floor(i / 10) % 10]} ${i.toString(36)}`
  const pages = Array.from({ length: N / PAGE }, (_, p) => {
    const range = Array.from({ length: PAGE }, (_, k) => p * PAGE + k)
    return { _tag: "Rows" as const, ids: range.map(TestIds.uuid).join(""), keys: range.map(keyOf).join("\n") }
  })

  it.live(
    "a 200k-record index builds while the event loop keeps its pace; the same build here would hold it",
    () =>
      Effect.gen(function* () {
        const lags: Array<number> = []
        let last = performance.now()
        const timer = setInterval(() => {
          const now = performance.now()
          lags.push(now - last)
          last = now
        }, 5)
        const index = yield* CatalogIndex.buildInWorker((send) =>
          Effect.sync(() => {
            for (const page of pages) send(page)
          })
        ).pipe(Effect.ensuring(Effect.sync(() => clearInterval(timer))))
        assert.strictEqual(index.size, N)
        const [hit] = index.search(keyOf(123_457), 0.5, 1)
        assert.strictEqual(index.idAt(hit?.position ?? -1), TestIds.uuid(123_457))

        // The contrast: the same build on this thread holds the event loop for all of its duration.
        const started = performance.now()
        const builder = new TrigramIndexBuilder()
        for (const page of pages) addPage(builder, page)
        const here = builder.build()
        const onThread = performance.now() - started
        assert.strictEqual(here.size, N)
        const worst = Math.max(...lags)
        assert.isAtLeast(lags.length, 20, "the timer ran throughout the build")
        assert.isBelow(
          worst,
          Math.max(50, onThread / 5),
          `worst timer lag ${worst.toFixed(1)} ms vs ${onThread.toFixed(0)} ms on thread`
        )
      }),
    60_000
  )

  it.effect("a page whose ids and keys do not pair up fails the build (the store then searches in SQL)", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(
        CatalogIndex.buildInWorker((send) =>
          Effect.sync(() => send({ _tag: "Rows", ids: TestIds.uuid(1), keys: "acme\nglobex" }))
        )
      )
      assert.strictEqual(error._tag, "IndexBuildFailed")
      assert.include(error.message, "2 keys came with 1 ids")
    })
  )
})
