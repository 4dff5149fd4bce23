import { assert, describe, it } from "@effect/vitest"
import { type Extraction, ListQuery, Ports } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer, Result } from "effect"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())

const live: Ports.Scope = { clientId: Fixtures.client.id, sandbox: false }

const filter = (query: ListQuery.RawQuery): ListQuery.ExtractionFilter => {
  const parsed = ListQuery.parse(query)
  if (Result.isFailure(parsed)) throw new Error(parsed.failure.message)
  return parsed.success
}

/** Rows of both clients and both sandboxes; ids are `TestIds.uuid(n)`. */
const rows: ReadonlyArray<Extraction.ExtractionRecord> = [
  Fixtures.extraction({
    id: TestIds.uuid(1),
    originName: "Factura_Enero.pdf",
    createdAt: TestTime.of("2024-01-31T23:59:59.999Z"),
    status: "completado"
  }),
  Fixtures.extraction({
    id: TestIds.uuid(2),
    originName: "factura-febrero.PDF",
    createdAt: TestTime.of("2024-02-01T00:00:00Z"),
    status: "incompleto"
  }),
  Fixtures.extraction({
    id: TestIds.uuid(3),
    originName: "Recibo 100%_final.png",
    createdAt: TestTime.of("2024-02-29T12:00:00Z"),
    status: "error"
  }),
  Fixtures.extraction({
    id: TestIds.uuid(4),
    originName: "ÁLBUM de facturación.jpg",
    createdAt: TestTime.of("2024-03-01T00:00:00Z"),
    status: "en cola",
    skillId: TestIds.uuid(90),
    skillSlug: "albaran"
  }),
  Fixtures.extraction({
    id: TestIds.uuid(5),
    originName: "archivada.pdf",
    createdAt: TestTime.of("2024-02-15T00:00:00Z"),
    status: "completado",
    archived: true
  }),
  Fixtures.extraction({ id: TestIds.uuid(6), originName: "sandbox.pdf", sandbox: true }),
  Fixtures.extraction({ id: TestIds.uuid(7), originName: "ajena.pdf", clientId: Fixtures.otherClient.id })
]

const setup = Effect.gen(function* () {
  yield* TestTime.setFixedNow
  const directory = yield* Ports.Directory
  yield* directory.upsertClient(Fixtures.client)
  yield* directory.upsertClient(Fixtures.otherClient)
  yield* directory.upsertUser(Fixtures.user())
  yield* directory.upsertUser(Fixtures.otherUser())
  const store = yield* Ports.ExtractionStore
  for (const record of rows) yield* store.submit({ record, document: Fixtures.DOCUMENT, maxAttempts: 3 })
  return store
})

const ids = (page: Ports.ExtractionPage) => page.items.map((r) => rows.findIndex((x) => x.id === r.id) + 1)

describe("Memory ExtractionStore list", () => {
  it.effect("defaults: the scope's unarchived rows, newest first", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const page = yield* store.list(live, filter({}))
      assert.deepStrictEqual(ids(page), [4, 3, 2, 1])
      assert.strictEqual(page.count, 4)
      assert.deepStrictEqual(ids(yield* store.list({ ...live, sandbox: true }, filter({}))), [6])
      assert.deepStrictEqual(
        ids(yield* store.list({ clientId: Fixtures.otherClient.id, sandbox: false }, filter({}))),
        [7]
      )
    }).pipe(Effect.provide(world))
  )

  it.effect("count ignores limit and offset", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const page = yield* store.list(live, filter({ limit: "2", offset: "1", sort_order: "asc" }))
      assert.deepStrictEqual(ids(page), [2, 3])
      assert.strictEqual(page.count, 4)
    }).pipe(Effect.provide(world))
  )

  it.effect("dates are inclusive UTC days", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const feb = yield* store.list(
        live,
        filter({ start_date: "2024-02-01", end_date: "2024-02-29", sort_order: "asc" })
      )
      assert.deepStrictEqual(ids(feb), [2, 3])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ end_date: "2024-01-31" }))), [1])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ start_date: "2024-03-01" }))), [4])
    }).pipe(Effect.provide(world))
  )

  it.effect("search ignores case and accents and takes % and _ literally", () =>
    Effect.gen(function* () {
      const store = yield* setup
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ search: "FACTURA", sort_order: "asc" }))), [1, 2, 4])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ search: "album" }))), [4])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ search: "facturacion" }))), [4])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ search: "100%_" }))), [3])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ search: "%" }))), [3])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ search: "a_e" }))), [1])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ search: "a_f" }))), [], "`_` is no wildcard")
    }).pipe(Effect.provide(world))
  )

  it.effect("filters by status, skill id, skill slug and archived", () =>
    Effect.gen(function* () {
      const store = yield* setup
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ status: "completado,error" }))), [3, 1])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ habilidad_id: TestIds.uuid(90) }))), [4])
      assert.deepStrictEqual(ids(yield* store.list(live, filter({ habilidad_slug: "factura-es" }))), [3, 2, 1])
      const all = yield* store.list(live, filter({ include_archived: "true" }))
      assert.deepStrictEqual(ids(all), [4, 3, 5, 2, 1])
    }).pipe(Effect.provide(world))
  )

  // origin_name compares code units (COLLATE "C"): upper case before lower case, accented letters last.
  it.effect("sorts by status and by origin_name in both orders", () =>
    Effect.gen(function* () {
      const store = yield* setup
      assert.deepStrictEqual(
        ids(yield* store.list(live, filter({ sort_by: "status", sort_order: "asc" }))),
        [1, 4, 3, 2]
      )
      assert.deepStrictEqual(
        ids(yield* store.list(live, filter({ sort_by: "origin_name", sort_order: "desc" }))),
        [4, 2, 3, 1]
      )
    }).pipe(Effect.provide(world))
  )
})

describe("Memory ExtractionStore ordering", () => {
  it.effect('origin_name sorts by code point, as COLLATE "C" does, also beyond U+FFFF', () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      yield* (yield* Ports.Directory).upsertClient(Fixtures.client)
      const store = yield* Ports.ExtractionStore
      // UTF-16 would put the emoji (surrogates 0xD83D…) before U+FF21; code points put it after.
      for (const [n, originName] of [
        [1, "\u{1F600}.pdf"],
        [2, "\uFF21.pdf"],
        [3, "z.pdf"]
      ] as const) {
        yield* store.submit({
          record: Fixtures.extraction({ id: TestIds.uuid(n), originName }),
          document: Fixtures.DOCUMENT,
          maxAttempts: 1
        })
      }
      const page = yield* store.list(live, filter({ sort_by: "origin_name", sort_order: "asc" }))
      assert.deepStrictEqual(
        page.items.map((r) => r.originName),
        ["z.pdf", "\uFF21.pdf", "\u{1F600}.pdf"]
      )
    }).pipe(Effect.provide(world))
  )
})

describe("Memory ExtractionStore writes", () => {
  it.effect("switchStatus is a compare-and-set scoped to the client and sandbox", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const change: Extraction.StatusChange = {
        status: "incompleto",
        errorMessage: "falta el total",
        lastModification: TestTime.at(5_000),
        lastUserId: Fixtures.otherUser().id,
        lastUserClientId: Fixtures.otherUser().clientId
      }
      assert.isUndefined(yield* store.switchStatus(live, TestIds.uuid(1), "incompleto", change), "stale expectation")
      assert.isUndefined(yield* store.switchStatus({ ...live, sandbox: true }, TestIds.uuid(1), "completado", change))
      const updated = yield* store.switchStatus(live, TestIds.uuid(1), "completado", change)
      assert.strictEqual(updated?.status, "incompleto")
      assert.strictEqual(updated?.errorMessage, "falta el total")
      assert.strictEqual(updated?.lastModification, TestTime.at(5_000))
      const other = Fixtures.otherUser()
      assert.deepStrictEqual(updated?.lastUser, { id: other.id, name: other.name, email: other.email })
      assert.deepStrictEqual(yield* store.get(live, TestIds.uuid(1)), updated)
    }).pipe(Effect.provide(world))
  )

  it.effect("a submission with an existing id is refused and changes nothing", () =>
    Effect.gen(function* () {
      const store = yield* setup
      const error = yield* Effect.flip(
        store.submit({
          record: Fixtures.extraction({ id: TestIds.uuid(1) }),
          document: new Uint8Array([1]),
          maxAttempts: 1
        })
      )
      assert.deepInclude(error, { _tag: "StorageError", reason: "Conflict" })
      assert.strictEqual((yield* store.get(live, TestIds.uuid(1)))?.status, "completado")
      const document = yield* (yield* Ports.DocumentStore).get(live, TestIds.uuid(1))
      assert.deepStrictEqual(document?.bytes, Fixtures.DOCUMENT)
    }).pipe(Effect.provide(world))
  )

  it.effect("documents are read in scope, with the upload name and type", () =>
    Effect.gen(function* () {
      yield* setup
      const documents = yield* Ports.DocumentStore
      assert.deepStrictEqual(yield* documents.get(live, TestIds.uuid(2)), {
        bytes: Fixtures.DOCUMENT,
        fileName: "factura-febrero.PDF",
        mimeType: "application/pdf"
      })
      assert.isUndefined(yield* documents.get(live, TestIds.uuid(6)))
      assert.isUndefined(yield* documents.get(live, TestIds.uuid(7)))
    }).pipe(Effect.provide(world))
  )

  it.effect("setArchived and archiveBefore archive only final rows created before the instant", () =>
    Effect.gen(function* () {
      const store = yield* setup
      assert.strictEqual((yield* store.setArchived(live, TestIds.uuid(5), false, TestTime.now))?.archived, false)
      assert.isUndefined(yield* store.setArchived(live, TestIds.uuid(7), true, TestTime.now))
      assert.strictEqual(yield* store.archiveBefore(TestTime.of("2024-03-02T00:00:00Z")), 4)
      const left = yield* store.list(live, filter({}))
      assert.deepStrictEqual(ids(left), [4], "the queued row stays")
    }).pipe(Effect.provide(world))
  )
})
