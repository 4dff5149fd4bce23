import { assert, describe, it } from "@effect/vitest"
import * as Lru from "../src/Lru.js"

describe("Lru", () => {
  it("keeps the total within its bound, evicting the least recently used first", () => {
    const cache = Lru.make<string>(10, (value) => value.length)
    cache.set("a", "aaaa")
    cache.set("b", "bbbb")
    assert.strictEqual(cache.get("a"), "aaaa", "a is now the most recent")
    cache.set("c", "cccc")
    assert.isUndefined(cache.get("b"), "b was the least recent")
    assert.strictEqual(cache.get("a"), "aaaa")
    assert.strictEqual(cache.get("c"), "cccc")
  })

  it("never keeps a value over the bound; replacing or deleting a key frees its size", () => {
    const cache = Lru.make<string>(10, (value) => value.length)
    cache.set("a", "aaaaaaaaaa")
    cache.set("big", "x".repeat(11))
    assert.isUndefined(cache.get("big"))
    assert.strictEqual(cache.get("a"), "aaaaaaaaaa", "an oversized value evicts nothing")
    cache.set("a", "a")
    cache.set("b", "bbbbbbbbb")
    assert.strictEqual(cache.get("a"), "a", "the replaced value's size was freed")
    cache.delete("b")
    cache.set("c", "ccccccccc")
    assert.strictEqual(cache.get("a"), "a", "the deleted value's size was freed")
    assert.isUndefined(cache.get("b"))
  })
})
