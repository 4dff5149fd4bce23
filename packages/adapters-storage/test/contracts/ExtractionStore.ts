/**
 * The `ExtractionStore` and `DocumentStore` contract: round trips, scoping, the status compare-and-set,
 * archiving, the atomic submission — plus the list section (`ExtractionList.ts`).
 */
import { assert, layer } from "@effect/vitest"
import { Extraction, Ports, StoredResult } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect, Exit, Schema } from "effect"
import { listSection } from "./ExtractionList.js"
import { extractionId, filterOf, recordOf, scopeOf, submissionOf } from "./extractionFixtures.js"
import { at, exact, idOf, type StoresLayer, tenant } from "./support.js"

const id = extractionId

/** Runs the `ExtractionStore`/`DocumentStore` contract against `stores`. */
export const extractionStoreContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`ExtractionStore contract: ${name}`, (it) => {
    it.effect("a submission reads back exactly, microseconds included, with its document", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-roundtrip")
        const store = yield* Ports.ExtractionStore
        const record = recordOf(mine, 100, {
          createdAt: exact("2026-03-12T10:15:30.123456+00:00"),
          lastModification: exact("2026-03-12T10:15:30.654321+00:00"),
          sizeBytes: 5_000_000_000
        })
        const bytes = Uint8Array.from({ length: 256 }, (_, i) => i)
        yield* store.submit({ record, document: bytes, maxAttempts: 3 })
        assert.deepStrictEqual(yield* store.get(scopeOf(mine), id(100)), record)
        const document = yield* (yield* Ports.DocumentStore).get(scopeOf(mine), id(100))
        assert.deepStrictEqual(document, { bytes, fileName: record.originName, mimeType: record.mimeType })
        const done = Fixtures.completedExtraction({ ...recordOf(mine, 101), errorMessage: null })
        yield* store.submit(submissionOf(done))
        assert.deepStrictEqual(yield* store.get(scopeOf(mine), id(101)), done, "the result round-trips")
      })
    )

    it.effect("another client's and the other sandbox's extractions are invisible and untouchable", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-scope")
        const theirs = yield* tenant("ex-scope-other")
        const store = yield* Ports.ExtractionStore
        const documents = yield* Ports.DocumentStore
        const record = recordOf(mine, 110, { status: "completado" })
        yield* store.submit(submissionOf(record))
        const change = {
          status: "incompleto",
          errorMessage: "x",
          lastModification: at(1),
          lastUserId: "u",
          lastUserClientId: "c"
        } as const
        for (const scope of [scopeOf(theirs), scopeOf(mine, true)]) {
          assert.isUndefined(yield* store.get(scope, id(110)))
          assert.isUndefined(yield* documents.get(scope, id(110)))
          assert.isUndefined(yield* store.switchStatus(scope, id(110), "completado", change))
          assert.isUndefined(yield* store.setArchived(scope, id(110), true, at(1)))
          assert.strictEqual((yield* store.list(scope, filterOf())).count, 0)
        }
        assert.deepStrictEqual(yield* store.get(scopeOf(mine), id(110)), record, "unchanged")
      })
    )

    it.effect("readAs: the key by its hash and the extraction in the key's scope only, sent as before", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-reads")
        const theirs = yield* tenant("ex-reads-other")
        const store = yield* Ports.ExtractionStore
        const keys = yield* Ports.ApiKeyStore
        const key = (n: number, owner: typeof mine, tipo: "live" | "test", hash: string) =>
          keys.insert(
            Fixtures.storedKey({ id: idOf(3, 960 + n), clientId: owner.client.id, userId: owner.user.id, tipo, hash })
          )
        yield* key(0, mine, "live", "reads-mine-live")
        yield* key(1, mine, "test", "reads-mine-test")
        yield* key(2, theirs, "live", "reads-theirs-live")
        yield* key(3, mine, "live", "reads-mine-revoked")
        yield* keys.revoke(mine.client.id, idOf(3, 963), at(1))
        const done = Fixtures.completedExtraction({ ...recordOf(mine, 740), errorMessage: null })
        const queued = recordOf(mine, 741)
        const sandboxed = Fixtures.completedExtraction({ ...recordOf(mine, 742), sandbox: true })
        for (const record of [done, queued, sandboxed]) yield* store.submit(submissionOf(record))
        const sent = (read: Ports.KeyedRead<Ports.StoredRead | undefined> | undefined, view: StoredResult.View) =>
          read?.found === undefined
            ? undefined
            : JSON.parse(StoredResult.bodyText(StoredResult.render(read.found.record, read.found.stored, view)))
        for (const view of ["plain", "detailed"] as const) {
          const encode = (record: typeof done) =>
            view === "plain"
              ? Schema.encodeSync(Extraction.Extraction)(Extraction.toExtraction(record))
              : Schema.encodeSync(Extraction.DetailedExtraction)(Extraction.toDetailed(record))
          const read = yield* store.readAs("reads-mine-live", id(740), view)
          assert.strictEqual(read?.key.key.id, idOf(3, 960))
          assert.deepStrictEqual(read?.key.user, mine.user)
          assert.deepStrictEqual(sent(read, view), encode(done), view)
          assert.deepStrictEqual(sent(yield* store.readAs("reads-mine-live", id(741), view), view), encode(queued))
          assert.deepStrictEqual(
            sent(yield* store.readAs("reads-mine-test", id(742), view), view),
            encode(sandboxed),
            "a test key reads the sandbox"
          )
          // Another client's key, and the other world's key, find their key and no row.
          for (const [hash, n] of [
            ["reads-theirs-live", 740],
            ["reads-mine-test", 740],
            ["reads-mine-live", 742],
            ["reads-mine-live", 743]
          ] as const) {
            const other = yield* store.readAs(hash, id(n), view)
            assert.isDefined(other, `${hash} is an active key`)
            assert.isUndefined(other?.found, `${hash} does not see ${n}`)
          }
          assert.isUndefined(yield* store.readAs("reads-mine-revoked", id(740), view), "a revoked key finds nothing")
          assert.isUndefined(yield* store.readAs("no-such-hash", id(740), view))
          const bad = yield* store.readAs("reads-mine-live", "'; DROP TABLE extractions; --", view)
          assert.isDefined(bad, "a bad id still checks the key")
          assert.isUndefined(bad?.found)
        }
        assert.isUndefined(yield* store.listAs("reads-mine-revoked", filterOf()))
        assert.strictEqual((yield* store.listAs("reads-theirs-live", filterOf()))?.found.count, 0)
      })
    )

    it.effect("readAs and listAs see every change on the very next read, however often read before", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-fresh")
        const theirs = yield* tenant("ex-fresh-other")
        const store = yield* Ports.ExtractionStore
        const keys = yield* Ports.ApiKeyStore
        const scope = scopeOf(mine)
        for (const [n, owner, hash] of [
          [0, mine, "fresh-mine"],
          [1, theirs, "fresh-theirs"],
          [2, mine, "fresh-mine-2"]
        ] as const) {
          yield* keys.insert(
            Fixtures.storedKey({ id: idOf(3, 980 + n), clientId: owner.client.id, userId: owner.user.id, hash })
          )
        }
        const done = Fixtures.completedExtraction({ ...recordOf(mine, 760), status: "completado", errorMessage: null })
        yield* store.submit(submissionOf(done))
        // Each read twice: an engine that keeps reads answers the second from memory.
        const read = (hash: string) =>
          Effect.andThen(store.readAs(hash, id(760), "plain"), store.readAs(hash, id(760), "plain"))
        const list = (hash: string, includeArchived = false) =>
          Effect.andThen(
            store.listAs(hash, filterOf({ includeArchived })),
            store.listAs(hash, filterOf({ includeArchived }))
          ).pipe(
            Effect.map((keyed) =>
              keyed === undefined
                ? undefined
                : {
                    found: JSON.parse(StoredResult.bodyText(StoredResult.renderList(keyed.found))) as {
                      extractions: Array<{ id: string; status: string }>
                      count: number
                    }
                  }
            )
          )
        assert.strictEqual((yield* read("fresh-mine"))?.found?.record.status, "completado")
        assert.deepStrictEqual(
          (yield* list("fresh-mine"))?.found.extractions.map((item) => item.id),
          [id(760)]
        )
        assert.isUndefined((yield* read("fresh-theirs"))?.found, "another client's key never sees the row")

        // A status change (a PATCH), then archiving, each seen at once by reads and lists.
        const change = {
          status: "incompleto",
          errorMessage: "falta el total",
          lastModification: at(5000),
          lastUserId: mine.user.id,
          lastUserClientId: mine.client.id
        } as const
        yield* store.switchStatus(scope, id(760), "completado", change)
        assert.strictEqual((yield* read("fresh-mine"))?.found?.record.status, "incompleto")
        assert.strictEqual((yield* list("fresh-mine"))?.found.extractions[0]?.status, "incompleto")
        yield* store.setArchived(scope, id(760), true, at(6000))
        assert.strictEqual((yield* read("fresh-mine"))?.found?.record.archived, true)
        assert.strictEqual((yield* list("fresh-mine"))?.found.count, 0, "archived rows leave the default list")
        assert.strictEqual((yield* list("fresh-mine", true))?.found.count, 1)

        // The key's last use, written by a touch, is what the next read reports (core decides touches from it).
        assert.isNull((yield* read("fresh-mine"))?.key.key.lastUsed ?? null)
        yield* keys.touch(idOf(3, 980), at(7000))
        assert.deepStrictEqual((yield* read("fresh-mine"))?.key.key.lastUsed, at(7000))

        // A revoked key is refused on its next read and list; the client's other key still reads.
        yield* keys.revoke(mine.client.id, idOf(3, 980), at(8000))
        assert.isUndefined(yield* store.readAs("fresh-mine", id(760), "plain"), "revoked: refused at once")
        assert.isUndefined(yield* store.listAs("fresh-mine", filterOf()))
        assert.strictEqual((yield* read("fresh-mine-2"))?.found?.record.id, id(760))
        assert.isUndefined((yield* read("fresh-theirs"))?.found)
      })
    )

    it.effect("listAs: the page's JSON is the list response of its records, byte for byte, escapes included", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-list-json")
        const store = yield* Ports.ExtractionStore
        yield* (yield* Ports.ApiKeyStore).insert(
          Fixtures.storedKey({ id: idOf(3, 970), clientId: mine.client.id, userId: mine.user.id, hash: "list-json" })
        )
        const names = ["tab\tnew\nline\r\u0001\u001f\u007f.pdf", 'q"uo\\te/ñ€🧾\u2028.pdf', "plain.pdf"]
        for (const [i, originName] of names.entries()) {
          yield* store.submit(submissionOf(recordOf(mine, 750 + i, { originName, createdAt: at(i) })))
        }
        for (const limit of [2, 20]) {
          const filter = filterOf({ limit })
          const keyed = yield* store.listAs("list-json", filter)
          const body = StoredResult.bodyText(StoredResult.renderList(keyed?.found ?? { items: [], count: -1 }))
          assert.strictEqual(body, StoredResult.renderList(yield* store.list(scopeOf(mine), filter)))
          assert.deepStrictEqual(
            (JSON.parse(body) as { extractions: Array<{ origin_name: string }> }).extractions.map((e) => e.origin_name),
            [...names].reverse().slice(0, limit)
          )
        }
      })
    )

    it.effect("ids that are not UUIDs are not found (never a SQL error)", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-bad-id")
        const store = yield* Ports.ExtractionStore
        const change = {
          status: "completado",
          errorMessage: null,
          lastModification: at(1),
          lastUserId: "u",
          lastUserClientId: "c"
        } as const
        for (const bad of ["not-a-uuid", "'; DROP TABLE extractions; --", "", "00000000-0000-4000-8000-00000000000g"]) {
          assert.isUndefined(yield* store.get(scopeOf(mine), bad))
          assert.isUndefined(yield* (yield* Ports.DocumentStore).get(scopeOf(mine), bad))
          assert.isUndefined(yield* store.switchStatus(scopeOf(mine), bad, "completado", change))
          assert.isUndefined(yield* store.setArchived(scopeOf(mine), bad, true, at(1)))
        }
      })
    )

    it.effect("switchStatus is a compare-and-set that records the acting user from the directory", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-cas")
        const reviewer = Fixtures.user({
          id: "user-ex-cas-rev",
          clientId: mine.client.id,
          name: "Rita",
          email: "r@x.test"
        })
        yield* (yield* Ports.Directory).upsertUser(reviewer)
        const store = yield* Ports.ExtractionStore
        const record = recordOf(mine, 120, { status: "completado" })
        yield* store.submit(submissionOf(record))
        const change = {
          status: "incompleto",
          errorMessage: "falta el total",
          lastModification: at(5000),
          lastUserId: reviewer.id,
          lastUserClientId: mine.client.id
        } as const
        assert.isUndefined(yield* store.switchStatus(scopeOf(mine), id(120), "incompleto", change), "stale expectation")
        assert.deepStrictEqual(yield* store.get(scopeOf(mine), id(120)), record)
        const updated = yield* store.switchStatus(scopeOf(mine), id(120), "completado", change)
        const expected = {
          ...record,
          status: "incompleto" as const,
          errorMessage: "falta el total",
          lastModification: at(5000),
          lastUser: { id: reviewer.id, name: "Rita", email: "r@x.test" }
        }
        assert.deepStrictEqual(updated, expected)
        assert.deepStrictEqual(yield* store.get(scopeOf(mine), id(120)), expected)
        const back = { ...change, status: "completado", errorMessage: null, lastUserId: "user-unknown" } as const
        const restored = yield* store.switchStatus(scopeOf(mine), id(120), "incompleto", back)
        assert.deepStrictEqual(restored?.lastUser, { id: "user-unknown", name: "", email: "" })
        assert.isNull(restored?.errorMessage ?? null)
      })
    )

    it.effect("switchStatus records the acting user of the acting user's client, not another with its id", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-actor")
        const theirs = yield* tenant("ex-actor-other")
        const directory = yield* Ports.Directory
        // The same sub in both clients; a global_admin of `theirs` acts in `mine`'s scope.
        yield* directory.upsertUser(
          Fixtures.user({ id: "rev", clientId: mine.client.id, name: "Rita", email: "r@m.test" })
        )
        yield* directory.upsertUser(
          Fixtures.user({
            id: "rev",
            clientId: theirs.client.id,
            name: "Raúl",
            email: "r@t.test",
            role: "global_admin"
          })
        )
        const store = yield* Ports.ExtractionStore
        yield* store.submit(submissionOf(recordOf(mine, 125, { status: "completado" })))
        const change = {
          status: "incompleto",
          errorMessage: null,
          lastModification: at(1),
          lastUserId: "rev",
          lastUserClientId: theirs.client.id
        } as const
        const updated = yield* store.switchStatus(scopeOf(mine), id(125), "completado", change)
        assert.deepStrictEqual(updated?.lastUser, { id: "rev", name: "Raúl", email: "r@t.test" })
        const own = { ...change, status: "completado", lastUserClientId: mine.client.id } as const
        const back = yield* store.switchStatus(scopeOf(mine), id(125), "incompleto", own)
        assert.deepStrictEqual(back?.lastUser, { id: "rev", name: "Rita", email: "r@m.test" })
      })
    )

    it.effect("of ten concurrent switches from the same status, exactly one wins", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-cas-race")
        const store = yield* Ports.ExtractionStore
        yield* store.submit(submissionOf(recordOf(mine, 130, { status: "completado" })))
        const change = {
          status: "incompleto",
          errorMessage: null,
          lastModification: at(1),
          lastUserId: mine.user.id,
          lastUserClientId: mine.client.id
        } as const
        const results = yield* Effect.forEach(
          Array.from({ length: 10 }, () => store.switchStatus(scopeOf(mine), id(130), "completado", change)),
          (effect) => effect,
          { concurrency: "unbounded" }
        )
        assert.strictEqual(results.filter((r) => r !== undefined).length, 1)
      })
    )

    it.effect("setArchived hides from the default list, shows with include_archived, and can be undone", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-archive")
        const store = yield* Ports.ExtractionStore
        yield* store.submit(submissionOf(recordOf(mine, 140, { status: "completado" })))
        const archived = yield* store.setArchived(scopeOf(mine), id(140), true, at(9000))
        assert.strictEqual(archived?.archived, true)
        assert.strictEqual(archived?.lastModification, at(9000))
        assert.strictEqual((yield* store.list(scopeOf(mine), filterOf())).count, 0)
        assert.strictEqual((yield* store.list(scopeOf(mine), filterOf({ includeArchived: true }))).count, 1)
        assert.strictEqual((yield* store.setArchived(scopeOf(mine), id(140), false, at(9001)))?.archived, false)
        assert.strictEqual((yield* store.list(scopeOf(mine), filterOf())).count, 1)
      })
    )

    it.effect("archiveBefore archives final extractions created before the instant, and only those", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-archive-before")
        const store = yield* Ports.ExtractionStore
        // Dates of 2001: no other test stores rows that old, and archiveBefore spans every client.
        const old = exact("2001-05-01T00:00:00.000000+00:00")
        const rows = [
          recordOf(mine, 150, { status: "completado", createdAt: old }),
          recordOf(mine, 151, { status: "error", createdAt: old }),
          recordOf(mine, 152, { status: "incompleto", createdAt: exact("2001-05-31T23:59:59.999999+00:00") }),
          recordOf(mine, 153, { status: "en cola", createdAt: old }),
          recordOf(mine, 154, { status: "procesando", createdAt: old }),
          recordOf(mine, 155, { status: "completado", createdAt: exact("2001-06-01T00:00:00.000000+00:00") }),
          recordOf(mine, 156, { status: "completado", createdAt: old, archived: true })
        ]
        for (const record of rows) yield* store.submit(submissionOf(record))
        assert.strictEqual(yield* store.archiveBefore(exact("2001-06-01T00:00:00.000000+00:00")), 3)
        const archived = yield* Effect.forEach(rows, (r) => store.get(scopeOf(mine), r.id))
        assert.deepStrictEqual(
          archived.map((r) => r?.archived),
          [true, true, true, false, false, false, true]
        )
        assert.strictEqual(yield* store.archiveBefore(exact("2001-06-01T00:00:00.000000+00:00")), 0)
      })
    )

    it.effect("a failed submission leaves nothing behind; the same id then submits cleanly", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ex-atomic")
        const store = yield* Ports.ExtractionStore
        const record = recordOf(mine, 160)
        // maxAttempts 0 breaks the job row, the last write of the submission.
        const failed = yield* Effect.exit(store.submit(submissionOf(record, 0)))
        assert.isTrue(Exit.isFailure(failed))
        assert.isUndefined(yield* store.get(scopeOf(mine), id(160)))
        assert.isUndefined(yield* (yield* Ports.DocumentStore).get(scopeOf(mine), id(160)))
        yield* store.submit(submissionOf(record))
        assert.deepStrictEqual(yield* store.get(scopeOf(mine), id(160)), record)
        const duplicate = yield* Effect.flip(store.submit({ ...submissionOf(record), document: new Uint8Array([1]) }))
        assert.strictEqual(duplicate._tag, "StorageError")
        const document = yield* (yield* Ports.DocumentStore).get(scopeOf(mine), id(160))
        assert.deepStrictEqual(document?.bytes, submissionOf(record).document, "the first document stays")
        const unknownClient = recordOf(mine, 161, { clientId: "client-that-does-not-exist" })
        assert.strictEqual((yield* Effect.flip(store.submit(submissionOf(unknownClient))))._tag, "StorageError")
      })
    )

    listSection(it)
  })
