/** `Embed.events`: the webhook events as an Effect `Stream` in process, on the embedded database (no HTTP). */
import { assert, layer } from "@effect/vitest"
import { Database, SqlStorage, SqlWebhookOutbox } from "@legible/adapters-storage"
import { Ports, Timestamp } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect, Fiber, Layer, Stream } from "effect"
import * as Embed from "../src/Embed.js"

const world = Layer.mergeAll(SqlStorage.layer(), SqlWebhookOutbox.layer({ streamPollMs: 50 })).pipe(
  Layer.provideMerge(Database.layer({ engine: "pglite" }))
)

layer(world, { timeout: 60_000, excludeTestServices: true })("Embed.events", (it) => {
  it.effect("streams every event as it commits, each with its client and sandbox", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      const store = yield* Ports.ExtractionStore
      const live = Fixtures.completedExtraction()
      const sandbox = Fixtures.completedExtraction({ id: Fixtures.fixtureId(900), sandbox: true })
      for (const record of [live, sandbox]) {
        yield* store.submit({ record, document: Fixtures.DOCUMENT, maxAttempts: 1 })
      }
      const fiber = yield* Effect.forkChild(Stream.runCollect(Stream.take(Embed.events, 2)))
      yield* Effect.sleep(300)
      const now = yield* Timestamp.now
      for (const record of [live, sandbox]) {
        const scope = { clientId: record.clientId, sandbox: record.sandbox }
        yield* store.switchStatus(scope, record.id, "completado", {
          status: "incompleto",
          errorMessage: "revisar",
          lastModification: now,
          lastUserId: Fixtures.user().id,
          lastUserClientId: Fixtures.user().clientId
        })
      }
      const events = yield* Fiber.join(fiber).pipe(Effect.timeout(10_000))
      assert.deepStrictEqual(
        events.map((e) => [e.type, e.clientId, e.sandbox, e.data.extraction_id, e.data.previous_status]),
        [
          ["extraction.status_changed", live.clientId, false, live.id, "completado"],
          ["extraction.status_changed", sandbox.clientId, true, sandbox.id, "completado"]
        ]
      )
      assert.strictEqual(events[0]?.data.last_modification, now)
    })
  )
})
