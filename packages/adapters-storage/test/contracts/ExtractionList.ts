/** The list section of the `ExtractionStore` contract: every filter and sort of spec 4.3, count vs limit. */
import { assert, type Vitest } from "@effect/vitest"
import { type ListQuery, Ports, StoredResult } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import {
  extractionId,
  filterOf,
  listRecords,
  longName,
  recordOf,
  scopeOf,
  skillA,
  submissionOf
} from "./extractionFixtures.js"
import { idOf, type Stores, tenant } from "./support.js"

// The hashes of the world tenant's live and test keys (any text serves as a hash here).
const keyHash = (sandbox: boolean) => (sandbox ? "list-world-test-key" : "list-world-live-key")

/** Stores the list world (with look-alike rows in another client and in the sandbox); returns its tenant. */
const storeWorld = Effect.gen(function* () {
  const store = yield* Ports.ExtractionStore
  const mine = yield* tenant("list")
  for (const sandbox of [false, true]) {
    yield* (yield* Ports.ApiKeyStore).insert(
      Fixtures.storedKey({
        id: idOf(3, sandbox ? 951 : 950),
        clientId: mine.client.id,
        userId: mine.user.id,
        tipo: sandbox ? "test" : "live",
        hash: keyHash(sandbox)
      })
    )
  }
  const theirs = yield* tenant("list-other")
  for (const record of listRecords(mine)) yield* store.submit(submissionOf(record))
  yield* store.submit(submissionOf(recordOf(theirs, 50, { originName: "Factura 001.pdf", skillId: skillA.id })))
  yield* store.submit(submissionOf(recordOf(mine, 51, { originName: "Factura sandbox.pdf", sandbox: true })))
  return mine
})

const numberOf = new Map(Array.from({ length: 60 }, (_, n) => [extractionId(n), n]))

/** Registers the list tests; they share one world, stored by the first test that needs it. */
export const listSection = (it: Vitest.MethodsNonLive<Stores>) => {
  // Per section, so each adapter under test stores its own world.
  const world = Effect.runSync(Effect.cached(storeWorld))

  /**
   * Lists in the world's scope; returns the item numbers (n of `extractionId(n)`) and the count. Every list is also
   * made by the key of that scope (`listAs`, the read path of the API), which must find the very same page.
   */
  const listed = (overrides: Partial<ListQuery.ExtractionFilter> = {}, sandbox = false) =>
    Effect.gen(function* () {
      const mine = yield* world
      const store = yield* Ports.ExtractionStore
      const page = yield* store.list(scopeOf(mine, sandbox), filterOf(overrides))
      const keyed = yield* store.listAs(keyHash(sandbox), filterOf(overrides))
      // The same response, byte for byte, whether the store gave records or JSON it built.
      assert.strictEqual(
        StoredResult.bodyText(StoredResult.renderList(keyed?.found ?? { items: [], count: -1 })),
        StoredResult.renderList(page),
        `listAs of ${JSON.stringify(overrides)}`
      )
      assert.strictEqual(keyed?.key.key.clientId, mine.client.id)
      return { numbers: page.items.map((item) => numberOf.get(item.id) ?? -1), count: page.count }
    })

  const expectList = (overrides: Partial<ListQuery.ExtractionFilter>, numbers: ReadonlyArray<number>, count?: number) =>
    Effect.gen(function* () {
      const page = yield* listed(overrides)
      assert.deepStrictEqual(page.numbers, numbers, JSON.stringify(overrides))
      assert.strictEqual(page.count, count ?? numbers.length, `count of ${JSON.stringify(overrides)}`)
    })

  it.effect("default: newest first, archived left out, ties broken by id; count of all matches", () =>
    expectList({}, [10, 6, 4, 3, 9, 8, 2, 1, 5])
  )

  it.effect("ascending creation order, and include_archived", () =>
    Effect.gen(function* () {
      yield* expectList({ sortOrder: "asc" }, [5, 1, 2, 8, 9, 3, 4, 6, 10])
      yield* expectList({ includeArchived: true }, [10, 6, 4, 3, 9, 8, 7, 2, 1, 5])
    })
  )

  it.effect("limit and offset page through; count ignores them", () =>
    Effect.gen(function* () {
      yield* expectList({ limit: 3 }, [10, 6, 4], 9)
      yield* expectList({ limit: 3, offset: 3 }, [3, 9, 8], 9)
      yield* expectList({ limit: 500, offset: 8 }, [5], 9)
      yield* expectList({ offset: 9 }, [], 9)
    })
  )

  it.effect("statuses, skill id and skill slug", () =>
    Effect.gen(function* () {
      yield* expectList({ statuses: ["completado", "error"] }, [6, 9, 8, 2, 1])
      yield* expectList({ statuses: ["procesando"] }, [4])
      yield* expectList({ skillId: skillA.id }, [10, 6, 8, 2, 1, 5])
      yield* expectList({ skillId: extractionId(999) }, [])
      yield* expectList({ skillSlug: "albaran" }, [4, 3, 9])
      yield* expectList({ statuses: ["completado"], skillSlug: "factura", search: "creme" }, [8])
    })
  )

  it.effect("dates are whole UTC days, inclusive at both ends", () =>
    Effect.gen(function* () {
      yield* expectList({ startDate: "2026-03-02", endDate: "2026-03-02" }, [3, 9, 8])
      yield* expectList({ startDate: "2026-03-01", endDate: "2026-03-01" }, [2, 1])
      yield* expectList({ startDate: "2026-03-04" }, [10, 6])
      yield* expectList({ endDate: "2026-02-28" }, [5])
      yield* expectList({ startDate: "2026-03-06" }, [])
    })
  )

  it.effect("search: case- and accent-insensitive substring of the file name", () =>
    Effect.gen(function* () {
      yield* expectList({ search: "factura" }, [2, 1])
      yield* expectList({ search: "FACTURA 0" }, [1])
      yield* expectList({ search: "creme" }, [4, 8])
      yield* expectList({ search: "CRÈME" }, [4, 8])
      yield* expectList({ search: "brulee" }, [4])
    })
  )

  it.effect("search: %, _ and \\ match themselves, quotes are plain text", () =>
    Effect.gen(function* () {
      yield* expectList({ search: "_" }, [2])
      yield* expectList({ search: "%" }, [3])
      yield* expectList({ search: "0% p" }, [3])
      yield* expectList({ search: "\\" }, [6])
      yield* expectList({ search: "k\\s" }, [6])
      yield* expectList({ search: `o'brien "quote"` }, [5])
      yield* expectList({ search: "'; DROP TABLE extractions; --" }, [])
      yield* expectList({ search: "%%" }, [])
    })
  )

  it.effect("search: a 200-character string", () =>
    Effect.gen(function* () {
      yield* expectList({ search: longName.toUpperCase() }, [10])
      yield* expectList({ search: "a".repeat(200) }, [])
    })
  )

  it.effect("sort by file name (code point order) and by status, both directions, id as tiebreaker", () =>
    Effect.gen(function* () {
      yield* expectList({ sortBy: "origin_name", sortOrder: "asc" }, [3, 8, 4, 1, 5, 10, 6, 2, 9])
      yield* expectList({ sortBy: "origin_name", sortOrder: "desc" }, [9, 2, 6, 10, 5, 1, 4, 8, 3])
      yield* expectList({ sortBy: "status", sortOrder: "asc" }, [1, 8, 9, 6, 3, 10, 2, 5, 4])
      yield* expectList({ sortBy: "status", sortOrder: "desc" }, [4, 5, 2, 10, 3, 6, 9, 8, 1])
      yield* expectList({ sortBy: "status", sortOrder: "asc", limit: 2, offset: 1 }, [8, 9], 9)
    })
  )

  it.effect("another client's rows and the sandbox's never appear; the sandbox sees only its own", () =>
    Effect.gen(function* () {
      const live = yield* listed({ search: "factura", includeArchived: true })
      assert.deepStrictEqual(live.numbers, [2, 1])
      const sandbox = yield* listed({}, true)
      assert.deepStrictEqual(sandbox, { numbers: [51], count: 1 })
    })
  )
}
