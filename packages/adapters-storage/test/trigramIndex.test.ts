import { assert, describe, it } from "@effect/vitest"
import { CatalogMatch } from "@legible/core"
import { Schema } from "effect"
import { TrigramIndexBuilder } from "../src/internal/trigramIndex.js"
import { compareUuids, readUuid, UUID_BYTES, writeUuid } from "../src/internal/uuidBytes.js"

const seeded = (seed: number, runs: number) => ({ arbitrary: { seed, runs } })

const Key = Schema.String.check(Schema.isPattern(/^[a-e0-2]{1,6}( [a-e0-2]{1,6}){0,2}$/))

describe("the in-process trigram index", () => {
  it.prop(
    "returns what ranking every record would, in the same order",
    [Schema.Array(Key).check(Schema.isMinLength(1), Schema.isMaxLength(40)), Key],
    ([keys, query]) => {
      const ids = keys.map(
        (_, i) => `00000000-0000-4000-8000-${String(1000 + ((i * 7) % keys.length)).padStart(12, "0")}`
      )
      const builder = new TrigramIndexBuilder()
      for (const [i, key] of keys.entries()) builder.add(ids[i] ?? "", key)
      const index = builder.build()
      // Core's similarity is `pg_trgm`'s (core's tests hold it to the set definition).
      const expected = keys
        .map((key, i) => ({ id: ids[i] ?? "", s: CatalogMatch.similarity(key, query) }))
        .filter((x) => x.s >= 0.2)
        .sort((x, y) => y.s - x.s || (x.id < y.id ? -1 : 1))
        .slice(0, 5)
      const hits = index.search(query, 0.2, 5)
      assert.deepStrictEqual(
        hits.map((h) => ({ id: index.idAt(h.position), s: h.similarity })),
        expected
      )
    },
    seeded(912, 200)
  )
})

const Uuid = Schema.String.check(
  Schema.isPattern(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/)
)

describe("packed UUIDs", () => {
  it.prop(
    "read back lower case, and compare as their texts do",
    [Uuid, Uuid],
    ([a, b]) => {
      const ids = new Uint8Array(2 * UUID_BYTES)
      writeUuid(ids, 0, a)
      writeUuid(ids, UUID_BYTES, b)
      assert.strictEqual(readUuid(ids, 0), a.toLowerCase())
      assert.strictEqual(readUuid(ids, UUID_BYTES), b.toLowerCase())
      const text = a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0
      assert.strictEqual(Math.sign(compareUuids(ids, 0, 1)), text)
    },
    seeded(917, 300)
  )
})
