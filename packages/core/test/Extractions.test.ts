import { assert, describe, it } from "@effect/vitest"
import { type ApiKeys, Errors, Extractions, Ports } from "@legible/core"
import { Fake, Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())

const live = Fixtures.caller()
const sandbox = Fixtures.caller({ sandbox: true, keyId: Fixtures.ids.testKey })
const other = Fixtures.caller({
  clientId: Fixtures.otherClient.id,
  keyId: Fixtures.ids.otherLiveKey,
  user: { id: Fixtures.otherUser().id, name: Fixtures.otherUser().name, email: Fixtures.otherUser().email }
})
const admin: ApiKeys.Caller = {
  ...other,
  user: { id: Fixtures.admin().id, name: Fixtures.admin().name, email: Fixtures.admin().email },
  role: "global_admin"
}

/** The standard world at the fixed instant (the skill takes `TestIds.uuid(1)`; extractions follow). */
const setup = Effect.gen(function* () {
  yield* TestTime.setFixedNow
  yield* Fixtures.seed
})

const submitted = (caller: ApiKeys.Caller, overrides: Parameters<typeof Fixtures.submitInput>[0] = {}) =>
  Effect.map(Extractions.submit(caller, Fixtures.submitInput(overrides)), (r) => r.extraction_id)

/** Runs the queued job of the next extraction to completion with `result`. */
const process = (result = Fixtures.invoiceResult()) =>
  Effect.gen(function* () {
    const queue = yield* Ports.JobQueue
    const lease = yield* queue.claim("worker-1", 30_000)
    if (lease === undefined) return yield* Effect.die(new Error("no job to process"))
    yield* queue.complete(lease, result)
    return lease.extractionId
  })

const quotaUsed = Effect.flatMap(Ports.QuotaStore, (q) => q.get(Fixtures.client.id))

describe("Extractions.submit", () => {
  it.effect("queues the extraction: row en cola, document and job written together", () =>
    Effect.gen(function* () {
      yield* setup
      const id = yield* submitted(live)
      assert.strictEqual(id, TestIds.uuid(2))
      const read = yield* Extractions.read(live, id)
      assert.deepStrictEqual(read, {
        id,
        origin_name: "factura-0042.pdf",
        extraction_date: TestTime.now,
        last_modification: TestTime.now,
        last_user_id: "user-ana",
        last_user_name: "Ana García",
        last_user_email: "ana.garcia@acme.example",
        status: "en cola",
        skill_name: "Factura española"
      })
      const document = yield* Extractions.download(live, id)
      assert.deepStrictEqual(document, {
        bytes: Fixtures.DOCUMENT,
        fileName: "factura-0042.pdf",
        mimeType: "application/pdf"
      })
      const lease = yield* (yield* Ports.JobQueue).claim("w", 1_000)
      assert.strictEqual(lease?.extractionId, id)
      assert.strictEqual(lease?.maxAttempts, 3)
    }).pipe(Effect.provide(world))
  )

  it.effect("an unknown skill is SkillNotFound and nothing is stored", () =>
    Effect.gen(function* () {
      yield* setup
      yield* (yield* Ports.QuotaStore).set(Fixtures.client.id, 10, "month", TestTime.now)
      const error = yield* Effect.flip(submitted(live, { skill: "albaran" }))
      assert.deepInclude(error, { _tag: "SkillNotFound", skill: "albaran" })
      // Another client's skill does not count either.
      yield* (yield* Ports.SkillStore).put(
        Fixtures.skillInput({ clientId: Fixtures.otherClient.id, slug: "solo-globex" }),
        TestTime.now
      )
      assert.strictEqual((yield* Effect.flip(submitted(live, { skill: "solo-globex" })))._tag, "SkillNotFound")
      assert.strictEqual((yield* Extractions.list(live, {})).count, 0)
      assert.strictEqual((yield* quotaUsed)?.used, 0)
      assert.isUndefined(yield* (yield* Ports.JobQueue).claim("w", 1_000))
    }).pipe(Effect.provide(world))
  )

  it.effect("a blank or too long file name is refused", () =>
    Effect.gen(function* () {
      yield* setup
      for (const fileName of ["", "   ", "x".repeat(Extractions.MAX_FILE_NAME + 1)]) {
        const error = yield* Effect.flip(submitted(live, { fileName }))
        assert.strictEqual(error._tag, "InvalidRequest")
        if (error._tag === "InvalidRequest") assert.include(error.message, "file_name")
      }
    }).pipe(Effect.provide(world))
  )

  it.effect("an exhausted quota is QuotaExceeded with limit and used, and nothing is stored", () =>
    Effect.gen(function* () {
      yield* setup
      yield* (yield* Ports.QuotaStore).set(Fixtures.client.id, 2, "month", TestTime.now)
      yield* submitted(live)
      yield* submitted(live)
      const error = yield* Effect.flip(submitted(live))
      assert.deepInclude(error, { _tag: "QuotaExceeded", limit: 2, used: 2 })
      assert.strictEqual((yield* Extractions.list(live, {})).count, 2)
      assert.strictEqual((yield* Memory.MemoryState).documents.size, 2)
      assert.strictEqual((yield* Memory.MemoryState).jobs.size, 2)
      // The next month the quota is available again.
      yield* TestTime.setNow(TestTime.of("2026-04-01T00:00:00Z"))
      yield* submitted(live)
    }).pipe(Effect.provide(world))
  )

  it.effect("test keys do not consume the quota, even when it is exhausted", () =>
    Effect.gen(function* () {
      yield* setup
      yield* (yield* Ports.QuotaStore).set(Fixtures.client.id, 0, "month", TestTime.now)
      assert.strictEqual((yield* Effect.flip(submitted(live)))._tag, "QuotaExceeded")
      yield* submitted(sandbox)
      yield* submitted(sandbox)
      assert.strictEqual((yield* quotaUsed)?.used, 0)
    }).pipe(Effect.provide(world))
  )

  it.effect("a failed write gives the reservation back", () =>
    Effect.gen(function* () {
      yield* setup
      const quotas = yield* Ports.QuotaStore
      yield* quotas.set(Fixtures.client.id, 1, "month", TestTime.now)
      const failing = Fake.make(Ports.ExtractionStore, {
        submit: () => Effect.fail(new Errors.StorageError({ reason: "Unavailable", message: "disk full" }))
      })
      const error = yield* Effect.flip(
        Extractions.submit(live, Fixtures.submitInput()).pipe(Effect.provideService(Ports.ExtractionStore, failing))
      )
      assert.strictEqual(error._tag, "StorageError")
      assert.strictEqual((yield* quotaUsed)?.used, 0)
      yield* submitted(live)
      assert.strictEqual((yield* quotaUsed)?.used, 1)
    }).pipe(Effect.provide(world))
  )
})

describe("Extractions reads are scoped", () => {
  it.effect("live and test keys never see each other's extractions; other clients see nothing", () =>
    Effect.gen(function* () {
      yield* setup
      const liveId = yield* submitted(live)
      const sandboxId = yield* submitted(sandbox, { fileName: "prueba.pdf" })
      assert.deepStrictEqual(
        (yield* Extractions.list(live, {})).extractions.map((e) => e.id),
        [liveId]
      )
      assert.deepStrictEqual(
        (yield* Extractions.list(sandbox, {})).extractions.map((e) => e.id),
        [sandboxId]
      )
      assert.deepStrictEqual(yield* Extractions.list(other, {}), { extractions: [], count: 0 })
      for (const [caller, id] of [
        [live, sandboxId],
        [sandbox, liveId],
        [other, liveId],
        [admin, liveId]
      ] as const) {
        for (const read of [
          Effect.asVoid(Extractions.read(caller, id)),
          Effect.asVoid(Extractions.readDetailed(caller, id)),
          Effect.asVoid(Extractions.download(caller, id))
        ]) {
          assert.deepInclude(yield* Effect.flip(read), { _tag: "ExtractionNotFound", id })
        }
      }
    }).pipe(Effect.provide(world))
  )

  it.effect("the list validates its query and counts all matches", () =>
    Effect.gen(function* () {
      yield* setup
      for (let i = 0; i < 3; i++) {
        yield* submitted(live, { fileName: `factura-${i}.pdf` })
        yield* TestClock.adjust(1_000)
      }
      const page = yield* Extractions.list(live, { limit: "2", sort_order: "asc" })
      assert.deepStrictEqual(
        page.extractions.map((e) => e.origin_name),
        ["factura-0.pdf", "factura-1.pdf"]
      )
      assert.strictEqual(page.count, 3)
      assert.deepStrictEqual(Object.keys(page.extractions[0] ?? {}).sort(), [
        "extraction_date",
        "habilidad_id",
        "id",
        "last_modification",
        "last_user_email",
        "last_user_id",
        "last_user_name",
        "origin_name",
        "skill_name",
        "status"
      ])
      const error = yield* Effect.flip(Extractions.list(live, { start_date: "2024-02-30" }))
      assert.strictEqual(error._tag, "InvalidRequest")
    }).pipe(Effect.provide(world))
  )

  it.effect("a missing stored document is DocumentNotFound", () =>
    Effect.gen(function* () {
      yield* setup
      const id = yield* submitted(live)
      ;(yield* Memory.MemoryState).documents.delete(id)
      assert.deepInclude(yield* Effect.flip(Extractions.download(live, id)), { _tag: "DocumentNotFound", id })
    }).pipe(Effect.provide(world))
  )
})

describe("Extractions results", () => {
  it.effect("the read omits fields and usage while queued and processing", () =>
    Effect.gen(function* () {
      yield* setup
      const id = yield* submitted(live)
      for (const member of ["fields", "usage"]) assert.notProperty(yield* Extractions.read(live, id), member)
      yield* (yield* Ports.JobQueue).claim("w", 30_000)
      const processing = yield* Extractions.read(live, id)
      assert.strictEqual(processing.status, "procesando")
      for (const member of ["fields", "usage"]) assert.notProperty(processing, member)
      const detailed = yield* Extractions.readDetailed(live, id)
      for (const member of ["fields", "usage", "words", "full_text", "num_pages"]) assert.notProperty(detailed, member)
    }).pipe(Effect.provide(world))
  )

  it.effect("a completed read has sorted, plain fields; the detailed read keeps word ids, words and text", () =>
    Effect.gen(function* () {
      yield* setup
      const id = yield* submitted(live)
      const reversed = Fixtures.invoiceResult({ fields: [...Fixtures.invoiceResultFields].reverse() })
      yield* process(reversed)
      const read = yield* Extractions.read(live, id)
      assert.strictEqual(read.status, "completado")
      assert.deepStrictEqual(
        read.fields?.map((f) => [f.name, f.order]),
        [
          ["numero", 1],
          ["fecha", 2],
          ["emisor", 3],
          ["total", 4],
          ["lineas", 5],
          ["proveedor", 6]
        ]
      )
      assert.deepStrictEqual(read.fields?.[1]?.value, { literal: "12/03/2026", parsed: "2026-03-12" })
      assert.notInclude(JSON.stringify(read.fields), "word_ids")
      for (const field of read.fields ?? []) {
        if (field.type !== "catalog" && field.type !== "object") {
          assert.sameMembers(Object.keys(field.value ?? {}), ["literal", "parsed"], field.name)
        }
      }
      assert.deepStrictEqual(read.usage, Fixtures.invoiceResult().usage)

      const detailed = yield* Extractions.readDetailed(live, id)
      assert.deepStrictEqual(detailed.fields, Fixtures.invoiceResultFields)
      assert.deepStrictEqual(detailed.fields?.[1]?.value, {
        literal: "12/03/2026",
        parsed: "2026-03-12",
        word_ids: ["w4"],
        id: "v2",
        type: "date"
      })
      assert.deepStrictEqual(detailed.words, Fixtures.invoiceResult().words)
      assert.strictEqual(detailed.full_text, Fixtures.invoiceResult().fullText)
      assert.strictEqual(detailed.num_pages, 1)
    }).pipe(Effect.provide(world))
  )
})

describe("Extractions.switchStatus (spec 3.1, 4.6)", () => {
  /** A completed extraction of `client`, and the clock moved on so that changes are visible. */
  const completed = Effect.gen(function* () {
    yield* setup
    const id = yield* submitted(live)
    yield* process()
    yield* TestClock.adjust(60_000)
    return id
  })

  it.effect("completado → incompleto stores the message; → completado clears it even when one is sent", () =>
    Effect.gen(function* () {
      const id = yield* completed
      const first = yield* Extractions.switchStatus(live, id, { status: "incompleto", message: "falta el total" })
      assert.deepStrictEqual(first.extraction, {
        id,
        status: "incompleto",
        last_modification: TestTime.at(60_000),
        last_user_id: "user-ana",
        error_message: "falta el total"
      })
      assert.isString(first.message)
      assert.strictEqual((yield* Extractions.read(live, id)).error_message, "falta el total")

      yield* TestClock.adjust(1_000)
      const back = yield* Extractions.switchStatus(live, id, { status: "completado", message: "ignorado" })
      assert.deepStrictEqual(back.extraction, {
        id,
        status: "completado",
        last_modification: TestTime.at(61_000),
        last_user_id: "user-ana"
      })
      const read = yield* Extractions.read(live, id)
      assert.notProperty(read, "error_message")
      assert.strictEqual(read.last_modification, TestTime.at(61_000))
      assert.isDefined(read.fields, "the result survives the switches")
    }).pipe(Effect.provide(world))
  )

  it.effect("a request for the current status is accepted and refreshes last_modification", () =>
    Effect.gen(function* () {
      const id = yield* completed
      const same = yield* Extractions.switchStatus(live, id, { status: "completado" })
      assert.strictEqual(same.extraction.status, "completado")
      assert.strictEqual(same.extraction.last_modification, TestTime.at(60_000))
    }).pipe(Effect.provide(world))
  )

  it.effect("any other requested value, a non-string message, or an unswitchable status is InvalidRequest", () =>
    Effect.gen(function* () {
      const id = yield* completed
      for (const status of ["error", "en cola", "procesando", "COMPLETADO", "", null, 1, undefined]) {
        assert.strictEqual((yield* Effect.flip(Extractions.switchStatus(live, id, { status })))._tag, "InvalidRequest")
      }
      const message: unknown = 42
      const badMessage = yield* Effect.flip(
        Extractions.switchStatus(live, id, { status: "incompleto", message: message as string })
      )
      assert.strictEqual(badMessage._tag, "InvalidRequest")
      const queued = yield* submitted(live)
      const error = yield* Effect.flip(Extractions.switchStatus(live, queued, { status: "completado" }))
      assert.strictEqual(error._tag, "InvalidRequest")
      assert.strictEqual((yield* Extractions.read(live, queued)).status, "en cola")
      assert.strictEqual((yield* Extractions.read(live, id)).status, "completado")
    }).pipe(Effect.provide(world))
  )

  it.effect("other clients' ids are not found; client_id is honoured only for a global_admin", () =>
    Effect.gen(function* () {
      const id = yield* completed
      const notFound = yield* Effect.flip(Extractions.switchStatus(other, id, { status: "incompleto" }))
      assert.deepInclude(notFound, { _tag: "ExtractionNotFound", id })
      const ignored = yield* Effect.flip(
        Extractions.switchStatus(other, id, { status: "incompleto" }, Fixtures.client.id)
      )
      assert.strictEqual(ignored._tag, "ExtractionNotFound", "a normal user cannot name another client")
      assert.strictEqual(
        (yield* Effect.flip(Extractions.switchStatus(admin, id, { status: "incompleto" })))._tag,
        "ExtractionNotFound",
        "without client_id an admin acts on its own client"
      )
      const done = yield* Extractions.switchStatus(
        admin,
        id,
        { status: "incompleto", message: "revisar" },
        Fixtures.client.id
      )
      assert.deepStrictEqual(done.extraction, {
        id,
        status: "incompleto",
        last_modification: TestTime.at(60_000),
        last_user_id: "user-root",
        error_message: "revisar"
      })
      const read = yield* Extractions.read(live, id)
      assert.strictEqual(read.last_user_id, "user-root")
      assert.strictEqual(read.last_user_name, "Root Admin")
    }).pipe(Effect.provide(world))
  )

  it.effect("a user may pass their own client_id", () =>
    Effect.gen(function* () {
      const id = yield* completed
      const done = yield* Extractions.switchStatus(live, id, { status: "incompleto" }, Fixtures.client.id)
      assert.strictEqual(done.extraction.status, "incompleto")
      assert.notProperty(done.extraction, "error_message")
    }).pipe(Effect.provide(world))
  )
})
