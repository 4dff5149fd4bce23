/**
 * The SQL outbox suite (PGlite and PostgreSQL): the trigger writes each event with its state change, deliveries
 * are claimed once, fenced, retried with the same `webhook-id`, disabled endpoints wait, and the event stream sees
 * what commits after it starts.
 */
import { assert, layer } from "@effect/vitest"
import { type Extraction, Ports, Webhook, Webhooks } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect, Exit, Fiber, Layer, Stream } from "effect"
import { SqlClient } from "effect/sql"
import type * as Database from "../../src/Database.js"
import * as SqlJobQueue from "../../src/SqlJobQueue.js"
import * as SqlStorage from "../../src/SqlStorage.js"
import * as SqlWebhookOutbox from "../../src/SqlWebhookOutbox.js"
import { recordOf, scopeOf, submissionOf } from "../contracts/extractionFixtures.js"
import { at, type Tenant, tenant } from "../contracts/support.js"
import { endpointOf as endpointAt } from "../contracts/WebhookStore.js"

const endpointOf = (owner: Tenant, n: number, overrides: Partial<Webhook.Endpoint> = {}) =>
  endpointAt(owner, n, overrides, 8)

const statuses: ReadonlyArray<Extraction.Status> = ["en cola", "procesando", "completado", "incompleto", "error"]

/** Submits the extraction without its job: these tests move statuses themselves, and the queue stays empty. */
const submitted = (record: Extraction.ExtractionRecord) =>
  Effect.gen(function* () {
    yield* (yield* Ports.ExtractionStore).submit(submissionOf(record))
    yield* (yield* SqlClient.SqlClient)`DELETE FROM jobs WHERE extraction_id = ${record.id}`
  })

/** Claims everything due for `endpoint` (other suites' deliveries in the same database are left alone). */
const claimFor = (endpointId: string, leaseMs = 60_000) =>
  Effect.flatMap(Webhook.WebhookOutbox, (outbox) => outbox.claim("test", leaseMs, 1000)).pipe(
    Effect.map((all) => all.filter((d) => d.endpointId === endpointId))
  )

const delivered: Webhook.AttemptRecord = { statusCode: 200, latencyMs: 12, error: null }
const refused: Webhook.AttemptRecord = { statusCode: 500, latencyMs: 8, error: null }

/** Runs the outbox suite on a database layer. */
export const outboxSuite = (
  name: string,
  database: Layer.Layer<SqlClient.SqlClient | Database.Notifications, unknown>
) => {
  const stores = SqlStorage.layer()
  const world = Layer.mergeAll(stores, SqlJobQueue.layer(), SqlWebhookOutbox.layer({ streamPollMs: 50 })).pipe(
    Layer.provideMerge(database)
  )
  layer(world, { timeout: 60_000, excludeTestServices: true })(`SqlWebhookOutbox: ${name}`, (it) => {
    it.effect("the trigger's event types are core's `eventTypeOf` on every pair of statuses", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ob-types")
        const sql = yield* SqlClient.SqlClient
        const store = yield* Webhook.WebhookStore
        const endpoint = endpointOf(mine, 1)
        yield* store.insert(endpoint, Webhook.generateSecret(), Webhooks.MAX_ENDPOINTS)
        let n = 0
        for (const from of statuses) {
          for (const to of statuses) {
            if (from === to) continue
            const record = recordOf(mine, 1000 + n++, { status: from })
            yield* submitted(record)
            yield* sql`UPDATE extractions SET status = ${to} WHERE id = ${record.id}`
            const claimed = (yield* claimFor(endpoint.id)).filter((d) => d.event.data.extraction_id === record.id)
            const expected = Webhook.eventTypeOf(from, to)
            assert.deepStrictEqual(
              claimed.map((d) => d.event.type),
              expected === undefined ? [] : [expected],
              `${from} → ${to}`
            )
            for (const d of claimed) yield* (yield* Webhook.WebhookOutbox).settle(d, delivered, { _tag: "Delivered" })
          }
        }
      })
    )

    it.effect("processing writes the event in its own statement: payload, scope, subscriptions", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ob-process")
        const store = yield* Webhook.WebhookStore
        const queue = yield* Ports.JobQueue
        const all = endpointOf(mine, 10)
        const failedOnly = endpointOf(mine, 11, { events: ["extraction.failed"] })
        const sandbox = endpointOf(mine, 12, { sandbox: true })
        const secret = Webhook.generateSecret()
        for (const e of [all, failedOnly, sandbox]) yield* store.insert(e, secret, Webhooks.MAX_ENDPOINTS)
        const record = recordOf(mine, 2000, { status: "en cola" })
        yield* (yield* Ports.ExtractionStore).submit(submissionOf(record))
        const lease = yield* queue.claim("w", 60_000)
        assert.strictEqual(lease?.extractionId, record.id)
        assert.deepStrictEqual(yield* claimFor(all.id), [], "en cola → procesando is no event")
        yield* queue.complete(lease!, Fixtures.invoiceResult())
        const [delivery, ...more] = yield* claimFor(all.id)
        assert.lengthOf(more, 0)
        assert.deepStrictEqual(delivery?.secrets, [secret])
        assert.strictEqual(delivery?.attempt, 1)
        const stored = yield* (yield* Ports.ExtractionStore).get(scopeOf(mine), record.id)
        assert.deepStrictEqual(delivery?.event.data, {
          extraction_id: record.id,
          status: "completado",
          previous_status: "procesando",
          skill_name: record.skillName,
          habilidad_id: record.skillId,
          origin_name: record.originName,
          last_modification: stored!.lastModification
        })
        assert.strictEqual(delivery?.event.type, "extraction.completed")
        assert.deepStrictEqual(yield* claimFor(failedOnly.id), [], "not subscribed")
        assert.deepStrictEqual(yield* claimFor(sandbox.id), [], "live events never reach the sandbox")
        const body = JSON.parse(Webhook.body(delivery!.event))
        assert.deepStrictEqual(Object.keys(body), ["type", "timestamp", "data"])
      })
    )

    it.effect("retries keep the webhook-id; a lapsed claim is taken again; a stale claim changes nothing", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ob-retry")
        const store = yield* Webhook.WebhookStore
        const outbox = yield* Webhook.WebhookOutbox
        const endpoint = endpointOf(mine, 20)
        yield* store.insert(endpoint, Webhook.generateSecret(), Webhooks.MAX_ENDPOINTS)
        const record = recordOf(mine, 3000, { status: "completado" })
        yield* submitted(record)
        yield* (yield* SqlClient.SqlClient)`UPDATE extractions SET status = 'error' WHERE id = ${record.id}`
        const [first] = yield* claimFor(endpoint.id)
        yield* outbox.settle(first!, refused, { _tag: "Retry", delayMs: 0 })
        const [second] = yield* claimFor(endpoint.id, 1)
        assert.strictEqual(second?.event.id, first?.event.id)
        assert.strictEqual(second?.attempt, 2)
        assert.isNumber(second?.failingSinceMs, "the endpoint is failing since the first attempt")
        const settledAgain = yield* Effect.exit(outbox.settle(first!, delivered, { _tag: "Delivered" }))
        assert.isTrue(Exit.isFailure(settledAgain), "the first claim's token is spent")
        yield* Effect.sleep(20)
        const [third] = yield* claimFor(endpoint.id)
        assert.strictEqual(third?.event.id, first?.event.id, "the lapsed lease is claimed again")
        assert.strictEqual(third?.attempt, 3)
        const stale = yield* Effect.exit(outbox.settle(second!, delivered, { _tag: "Delivered" }))
        assert.isTrue(Exit.isFailure(stale))
        yield* outbox.settle(third!, delivered, { _tag: "Delivered" })
        const log = yield* store.attempts(mine.client.id, endpoint.id, 10)
        assert.deepStrictEqual(
          log?.map((a) => [a.attempt, a.statusCode, a.outcome, a.eventId]),
          [
            [3, 200, "delivered", first!.event.id],
            [1, 500, "retrying", first!.event.id]
          ]
        )
        assert.strictEqual(yield* store.redeliver(mine.client.id, endpoint.id, first!.event.id), "scheduled")
        const [again] = yield* claimFor(endpoint.id)
        assert.strictEqual(again?.event.id, first?.event.id, "redelivery: the same webhook-id")
        assert.strictEqual(again?.attempt, 1, "with a fresh set of attempts")
        assert.isNull(again?.failingSinceMs, "a success ended the failure streak")
        yield* outbox.settle(again!, delivered, { _tag: "Delivered" })
      })
    )

    it.effect("a disabling failure disables the endpoint; its deliveries wait until it is enabled", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ob-disable")
        const store = yield* Webhook.WebhookStore
        const outbox = yield* Webhook.WebhookOutbox
        const endpoint = endpointOf(mine, 30)
        yield* store.insert(endpoint, Webhook.generateSecret(), Webhooks.MAX_ENDPOINTS)
        const sql = yield* SqlClient.SqlClient
        for (const n of [0, 1]) {
          const record = recordOf(mine, 4000 + n, { status: "completado" })
          yield* submitted(record)
          yield* sql`UPDATE extractions SET status = 'incompleto' WHERE id = ${record.id}`
        }
        const [gone, waiting] = yield* claimFor(endpoint.id)
        yield* outbox.settle(gone!, { statusCode: 410, latencyMs: 3, error: null }, { _tag: "Failed", disable: "410" })
        yield* outbox.settle(waiting!, refused, { _tag: "Retry", delayMs: 0 })
        const after = yield* store.get(mine.client.id, endpoint.id)
        assert.isFalse(after?.enabled)
        assert.strictEqual(after?.disabledReason, "410")
        assert.deepStrictEqual(yield* claimFor(endpoint.id), [], "nothing is sent to a disabled endpoint")
        // Both attempts within one tick of the clock (as on PGlite, whose clock has milliseconds): the log still
        // puts the one written last first.
        yield* sql`UPDATE webhook_attempts SET created_at = '2026-01-01T00:00:00Z' WHERE endpoint_id = ${endpoint.id}`
        const log = yield* store.attempts(mine.client.id, endpoint.id, 2)
        assert.deepStrictEqual(
          log?.map((attempt) => attempt.outcome),
          ["retrying", "disabled"]
        )
        yield* store.update(mine.client.id, endpoint.id, { enabled: true }, at(99))
        assert.isNull((yield* store.get(mine.client.id, endpoint.id))?.disabledReason)
        const resumed = yield* claimFor(endpoint.id)
        assert.deepStrictEqual(
          resumed.map((d) => d.event.id),
          [waiting!.event.id]
        )
        yield* outbox.settle(resumed[0]!, delivered, { _tag: "Delivered" })
      })
    )

    it.effect("rotation: both secrets sign until the overlap ends", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ob-rotate")
        const store = yield* Webhook.WebhookStore
        const endpoint = endpointOf(mine, 40)
        yield* store.insert(endpoint, "whsec_b2xk", Webhooks.MAX_ENDPOINTS)
        yield* store.rotate(mine.client.id, endpoint.id, "whsec_bmV3", at(365 * 24 * 3600 * 1000 * 10))
        const record = recordOf(mine, 5000, { status: "completado" })
        yield* submitted(record)
        yield* (yield* SqlClient.SqlClient)`UPDATE extractions SET status = 'incompleto' WHERE id = ${record.id}`
        const [d] = yield* claimFor(endpoint.id)
        assert.deepStrictEqual(d?.secrets, ["whsec_bmV3", "whsec_b2xk"])
        yield* (yield* Webhook.WebhookOutbox).settle(d!, delivered, { _tag: "Delivered" })
        yield* store.rotate(mine.client.id, endpoint.id, "whsec_bmV3ZXI=", at(-1))
        yield* (yield* SqlClient.SqlClient)`UPDATE extractions SET status = 'completado' WHERE id = ${record.id}`
        const [e] = yield* claimFor(endpoint.id)
        assert.deepStrictEqual(e?.secrets, ["whsec_bmV3ZXI="], "an expired previous secret signs no more")
        yield* (yield* Webhook.WebhookOutbox).settle(e!, delivered, { _tag: "Delivered" })
      })
    )

    it.effect("the event stream gets the events committed after it starts, without endpoints too", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("ob-stream")
        const outbox = yield* Webhook.WebhookOutbox
        const sql = yield* SqlClient.SqlClient
        const ids = [6000, 6001, 6002].map((n) => recordOf(mine, n, { status: "completado" }))
        for (const r of ids) yield* submitted(r)
        const mineOnly = outbox.events.pipe(
          Stream.filter((e) => e.clientId === mine.client.id),
          Stream.take(3),
          Stream.runCollect
        )
        const fiber = yield* Effect.forkChild(mineOnly)
        yield* Effect.sleep(200)
        for (const r of ids) yield* sql`UPDATE extractions SET status = 'incompleto' WHERE id = ${r.id}`
        const got = yield* Fiber.join(fiber).pipe(Effect.timeout(10_000))
        assert.deepStrictEqual(
          got.map((e) => [e.data.extraction_id, e.type]),
          ids.map((r) => [r.id, "extraction.status_changed"])
        )
      })
    )
  })
}
