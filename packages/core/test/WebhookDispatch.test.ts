import { assert, describe, it } from "@effect/vitest"
import { Errors, Webhook, WebhookDispatch } from "@legible/core"
import { Deferred, Effect, Layer, Stream } from "effect"

const event: Webhook.Event = {
  id: "2b1f9c1e-0000-4000-8000-000000000001",
  type: "extraction.completed",
  timestamp: "2026-03-12T10:15:30.123456+00:00" as Webhook.Event["timestamp"],
  clientId: "client-acme",
  sandbox: false,
  data: {
    extraction_id: "2b1f9c1e-0000-4000-8000-000000000002",
    status: "completado",
    previous_status: "procesando",
    skill_name: "Factura",
    habilidad_id: "2b1f9c1e-0000-4000-8000-000000000003",
    origin_name: "f.pdf",
    last_modification: "2026-03-12T10:15:30.123456+00:00" as Webhook.Event["timestamp"]
  }
}

const secret = Webhook.generateSecret()

describe("WebhookDispatch.start", () => {
  it.live("signs each attempt, retries a 500 on the schedule, settles the 200; a lost lease is only logged", () =>
    Effect.gen(function* () {
      const pending: Array<Webhook.Delivery> = [
        {
          id: "d1",
          token: "t1",
          endpointId: "e1",
          url: "https://x.test/h",
          secrets: [secret],
          event,
          attempt: 1,
          failingSinceMs: null
        }
      ]
      const settled: Array<[number, Webhook.AttemptRecord, Webhook.Next]> = []
      const sent: Array<Webhook.Request> = []
      const done = yield* Deferred.make<void>()
      const outbox = Layer.succeed(
        Webhook.WebhookOutbox,
        Webhook.WebhookOutbox.of({
          claim: () => Effect.sync(() => pending.splice(0, 1)),
          settle: (delivery, attempt, next) =>
            Effect.gen(function* () {
              settled.push([delivery.attempt, attempt, next])
              if (next._tag === "Retry") pending.push({ ...delivery, attempt: delivery.attempt + 1, failingSinceMs: 0 })
              if (next._tag === "Delivered") {
                yield* Deferred.succeed(done, undefined)
                return yield* new Errors.LeaseLost({ jobId: delivery.id })
              }
            }),
          awaitWork: () => Effect.sleep(5),
          prune: () => Effect.succeed(0),
          events: Stream.empty
        })
      )
      const transport = Layer.succeed(
        Webhook.WebhookTransport,
        Webhook.WebhookTransport.of({
          check: () => Effect.void,
          send: (request) =>
            Effect.sync(() => {
              sent.push(request)
              return { _tag: "Answered", status: sent.length === 1 ? 500 : 200 } as const
            })
        })
      )
      yield* WebhookDispatch.start({ workerId: "w", concurrency: 1, schedule: [20], pollMs: 5 }).pipe(
        Effect.provide(Layer.merge(outbox, transport))
      )
      yield* Deferred.await(done).pipe(Effect.timeout(5_000))
      assert.deepStrictEqual(
        settled.map(([attempt, record, next]) => [attempt, record.statusCode, next._tag]),
        [
          [1, 500, "Retry"],
          [2, 200, "Delivered"]
        ]
      )
      const delay = settled[0]![2]
      assert.isTrue(delay._tag === "Retry" && delay.delayMs >= 16 && delay.delayMs <= 24, "20 ms ± 20 %")
      assert.lengthOf(sent, 2)
      for (const request of sent) {
        assert.strictEqual(request.headers["webhook-id"], event.id)
        assert.strictEqual(request.body, Webhook.body(event))
        const expected = Webhook.sign(secret, event.id, Number(request.headers["webhook-timestamp"]), request.body)
        assert.strictEqual(request.headers["webhook-signature"], expected)
      }
    }).pipe(Effect.scoped)
  )
})
