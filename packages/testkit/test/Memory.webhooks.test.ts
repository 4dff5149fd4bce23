/** The in-memory ports write webhook events with the status changes, as the SQL outbox trigger does. */
import { assert, describe, it } from "@effect/vitest"
import { Ports, Webhook } from "@legible/core"
import { Fixtures, Memory, TestTime } from "@legible/testkit"
import { Effect } from "effect"

const endpoint = (n: number, overrides: Partial<Webhook.Endpoint> = {}): Webhook.Endpoint => ({
  id: Fixtures.fixtureId(700 + n),
  clientId: Fixtures.client.id,
  sandbox: false,
  url: `https://hooks.example.com/${n}`,
  events: Webhook.EVENT_TYPES,
  description: "",
  enabled: true,
  disabledReason: null,
  createdAt: TestTime.now,
  updatedAt: TestTime.now,
  ...overrides
})

describe("Memory webhook events", () => {
  it.effect("processing's end and a PATCH write events with deliveries for the subscribed endpoints", () =>
    Effect.gen(function* () {
      const state = Memory.makeState()
      const run = <A, E>(effect: Effect.Effect<A, E, Memory.Services>) =>
        Effect.provideContext(effect, Memory.context(state))
      yield* run(Fixtures.seed)
      const webhooks = Memory.makeWebhookStore(state)
      yield* webhooks.insert(endpoint(1), "whsec_YQ==", 50)
      yield* webhooks.insert(endpoint(2, { events: ["extraction.failed"] }), "whsec_Yg==", 50)
      yield* webhooks.insert(endpoint(3, { sandbox: true }), "whsec_Yw==", 50)
      const record = Fixtures.extraction({ status: "en cola" })
      yield* run(
        Effect.gen(function* () {
          yield* (yield* Ports.ExtractionStore).submit({ record, document: Fixtures.DOCUMENT, maxAttempts: 3 })
          const queue = yield* Ports.JobQueue
          const lease = yield* queue.claim("w", 60_000)
          assert.deepStrictEqual(state.webhookEvents, [], "en cola → procesando is no event")
          yield* queue.complete(lease!, Fixtures.invoiceResult())
        })
      )
      assert.deepStrictEqual(
        state.webhookEvents.map((e) => [e.type, e.data.previous_status, e.data.status]),
        [["extraction.completed", "procesando", "completado"]]
      )
      assert.deepStrictEqual(
        state.webhookDeliveries.map((d) => d.endpointId),
        [endpoint(1).id],
        "only the live endpoint subscribed to the type"
      )
      const eventId = state.webhookEvents[0]!.id
      assert.strictEqual(yield* webhooks.redeliver(Fixtures.client.id, endpoint(1).id, eventId), "scheduled")
      assert.strictEqual(yield* webhooks.redeliver(Fixtures.client.id, endpoint(3).id, eventId), "event")
      assert.strictEqual(yield* webhooks.redeliver(Fixtures.otherClient.id, endpoint(1).id, eventId), "endpoint")
    })
  )
})
