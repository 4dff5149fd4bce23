import { assert, layer } from "@effect/vitest"
import { Directory, Ports } from "@legible/core"
import { Fixtures, Memory, TestIds } from "@legible/testkit"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as CatalogIndex from "../src/internal/catalogIndex.js"
import * as SqlCatalogStore from "../src/SqlCatalogStore.js"
import * as SqlStorage from "../src/SqlStorage.js"
import { catalogStoreContract } from "./contracts/CatalogStore.js"
import { pglite, postgres, postgresWith } from "./support/databases.js"

catalogStoreContract("PGlite", SqlStorage.layer().pipe(Layer.provide(pglite)))
// Every trigram search through the in-process index (the default keeps small catalogs in `pg_trgm`).
catalogStoreContract(
  "PGlite, in-process index",
  Layer.mergeAll(SqlStorage.layer(), SqlCatalogStore.layerWith({ minRecords: 1 })).pipe(Layer.provide(pglite))
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
        const directory = yield* Directory.Directory
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
