import { assert, describe, layer } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { TestClock } from "effect/testing"
import * as PgliteClient from "../src/internal/pgliteClient.js"
import * as ReadCache from "../src/internal/readCache.js"
import { pgliteClient } from "./support/databases.js"

const counts = (client: PgliteClient.PgliteClient) => {
  const { hits, misses } = client.reads.stats()
  return { hits, misses }
}

describe("ReadCache on PGlite", () => {
  layer(pgliteClient())((it) => {
    it.effect("a declared read is answered from memory until any other statement runs", () =>
      Effect.gen(function* () {
        const client = yield* PgliteClient.PgliteClient
        const reads = yield* ReadCache.ReadCache
        yield* client`CREATE TABLE rc (id int PRIMARY KEY, v text)`
        yield* client`INSERT INTO rc VALUES (1, 'a'), (2, 'b')`
        const read = (id: number) => reads.read(client<{ v: string }>`SELECT v FROM rc WHERE id = ${id}`)
        const start = counts(client)
        assert.deepStrictEqual(yield* read(1), [{ v: "a" }])
        assert.deepStrictEqual(yield* read(1), [{ v: "a" }])
        assert.deepStrictEqual(yield* read(2), [{ v: "b" }])
        assert.deepStrictEqual(counts(client), { hits: start.hits + 1, misses: start.misses + 2 })
        // A write, even one that matches nothing, and even a plain SELECT not declared a read: the next read runs.
        for (const statement of [
          client`UPDATE rc SET v = 'a2' WHERE id = 1`,
          client`UPDATE rc SET v = 'x' WHERE id = 99`,
          client`SELECT 1`
        ]) {
          yield* statement
          const before = counts(client).misses
          assert.deepStrictEqual(yield* read(1), [{ v: "a2" }])
          assert.strictEqual(counts(client).misses, before + 1)
        }
        assert.deepStrictEqual(yield* read(1), [{ v: "a2" }])
        const before = counts(client).misses
        assert.deepStrictEqual(yield* read(2), [{ v: "b" }], "the entry of id 2, read before the writes, is stale")
        assert.strictEqual(counts(client).misses, before + 1)
      })
    )

    it.effect("a read inside a transaction is never kept: other fibers never see its uncommitted rows", () =>
      Effect.gen(function* () {
        const client = yield* PgliteClient.PgliteClient
        const reads = yield* ReadCache.ReadCache
        yield* client`CREATE TABLE rt (v text)`
        yield* client`INSERT INTO rt VALUES ('committed')`
        const read = reads.read(client<{ v: string }>`SELECT v FROM rt`)
        const inside = yield* Deferred.make<void>()
        const release = yield* Deferred.make<void>()
        const transaction = yield* Effect.forkChild(
          client
            .withTransaction(
              Effect.gen(function* () {
                yield* client`UPDATE rt SET v = 'uncommitted'`
                assert.deepStrictEqual(yield* read, [{ v: "uncommitted" }])
                assert.deepStrictEqual(yield* read, [{ v: "uncommitted" }])
                yield* Deferred.succeed(inside, undefined)
                yield* Deferred.await(release)
                return yield* Effect.fail("boom" as const)
              })
            )
            .pipe(Effect.exit)
        )
        yield* Deferred.await(inside)
        // While the transaction is open, a read from outside waits for the session instead of answering from memory.
        const outside = yield* Effect.forkChild(read)
        yield* Effect.yieldNow
        yield* Deferred.succeed(release, undefined)
        assert.isTrue(Exit.isFailure(yield* Fiber.join(transaction)))
        assert.deepStrictEqual(yield* Fiber.join(outside), [{ v: "committed" }])
        // That read overlapped the rollback, so it was not kept either; the next one is, and answers the one after.
        const before = counts(client)
        assert.deepStrictEqual(yield* read, [{ v: "committed" }])
        assert.deepStrictEqual(yield* read, [{ v: "committed" }])
        assert.deepStrictEqual(counts(client), { hits: before.hits + 1, misses: before.misses + 1 })
      })
    )

    it.effect("a kept read expires after a minute even when nothing changed", () =>
      Effect.gen(function* () {
        const client = yield* PgliteClient.PgliteClient
        const reads = yield* ReadCache.ReadCache
        const read = reads.read(client<{ n: number }>`SELECT 41 + 1 AS n`)
        assert.deepStrictEqual(yield* read, [{ n: 42 }])
        yield* TestClock.adjust("59 seconds")
        const before = counts(client)
        yield* read
        assert.deepStrictEqual(counts(client), { hits: before.hits + 1, misses: before.misses })
        yield* TestClock.adjust("2 seconds")
        yield* read
        assert.deepStrictEqual(counts(client), { hits: before.hits + 1, misses: before.misses + 1 })
      })
    )
  })

  layer(pgliteClient({ readCache: false }))((it) => {
    it.effect("off, every declared read runs", () =>
      Effect.gen(function* () {
        const client = yield* PgliteClient.PgliteClient
        const reads = yield* ReadCache.ReadCache
        yield* reads.read(client`SELECT 1`)
        yield* reads.read(client`SELECT 1`)
        assert.deepStrictEqual(counts(client), { hits: 0, misses: 2 })
      })
    )
  })
})

describe("ReadCache limits", () => {
  layer(pgliteClient())((it) => {
    it.effect("the least recently used entries go first, within the count and the characters", () =>
      Effect.gen(function* () {
        const client = yield* PgliteClient.PgliteClient
        const cache = ReadCache.make({ maxEntries: 2, maxChars: 100, maxAgeMillis: 60_000, inTransaction: () => false })
        const text = (n: number, length: number) =>
          cache.read(client<{ s: string }>`SELECT repeat('x', ${length}) AS s, ${n}::int AS n`)
        yield* text(1, 10)
        yield* text(2, 10)
        yield* text(1, 10) // 1 is now the most recent
        yield* text(3, 10) // evicts 2
        assert.strictEqual(cache.stats().entries, 2)
        const before = cache.stats()
        yield* text(1, 10)
        yield* text(2, 10)
        assert.deepStrictEqual([cache.stats().hits - before.hits, cache.stats().misses - before.misses], [1, 1])
        yield* text(4, 200) // larger than the whole budget: answered, never kept
        assert.isAtMost(cache.stats().chars, 100)
        assert.strictEqual(cache.stats().entries, 2)
      })
    )
  })
})
