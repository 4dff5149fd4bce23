/**
 * The `WebhookStore` contract, and the outbox's half of it that every adapter keeps: a status change that is an
 * event is recorded with it (checked through `redeliver`, which finds only events that were written for the scope).
 */
import { assert, layer } from "@effect/vitest"
import { Ports, Webhook, Webhooks } from "@legible/core"
import { Effect } from "effect"
import { extractionId, recordOf, scopeOf, submissionOf } from "./extractionFixtures.js"
import { at, idOf, type StoresLayer, type Tenant, tenant } from "./support.js"

const endpointId = (n: number): string => idOf(7, n)

/** The endpoint `n` of the tenant, subscribed to every event (ids of block `block`). */
export const endpointOf = (
  owner: Tenant,
  n: number,
  overrides: Partial<Webhook.Endpoint> = {},
  block = 7
): Webhook.Endpoint => ({
  id: idOf(block, n),
  clientId: owner.client.id,
  sandbox: false,
  url: `https://hooks.example.com/${n}`,
  events: Webhook.EVENT_TYPES,
  description: `endpoint ${n}`,
  enabled: true,
  disabledReason: null,
  createdAt: at(n),
  updatedAt: at(n),
  ...overrides
})

/** Runs the `WebhookStore` contract against `stores`. */
export const webhookStoreContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`WebhookStore contract: ${name}`, (it) => {
    it.effect("endpoints round-trip, list oldest first, change and go; secrets never come back", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("wh-roundtrip")
        const store = yield* Webhook.WebhookStore
        const first = endpointOf(mine, 1, { events: ["extraction.failed"] })
        const second = endpointOf(mine, 2, { sandbox: true })
        yield* store.insert(second, "whsec_c2Vjb25k", Webhooks.MAX_ENDPOINTS)
        yield* store.insert(first, "whsec_Zmlyc3Q=", Webhooks.MAX_ENDPOINTS)
        assert.deepStrictEqual(yield* store.list(mine.client.id), [first, second])
        assert.deepStrictEqual(yield* store.get(mine.client.id, first.id), first)
        assert.notInclude(JSON.stringify(yield* store.list(mine.client.id)), "whsec_")

        const changed = yield* store.update(
          mine.client.id,
          first.id,
          { url: "https://hooks.example.com/new", enabled: false },
          at(50)
        )
        assert.deepStrictEqual(changed, {
          ...first,
          url: "https://hooks.example.com/new",
          enabled: false,
          updatedAt: at(50)
        })
        const kept = yield* store.update(mine.client.id, first.id, { description: "d" }, at(51))
        assert.deepStrictEqual(kept?.events, ["extraction.failed"], "absent members stay")
        assert.isFalse(kept?.enabled)

        assert.isTrue(yield* store.rotate(mine.client.id, first.id, "whsec_bmV3", at(100)))
        assert.isTrue(yield* store.remove(mine.client.id, first.id))
        assert.isFalse(yield* store.remove(mine.client.id, first.id), "removing twice")
        assert.deepStrictEqual(yield* store.list(mine.client.id), [second])
      })
    )

    it.effect("concurrent registrations never take a client past the limit; another client's count apart", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("wh-limit")
        const theirs = yield* tenant("wh-limit-other")
        const store = yield* Webhook.WebhookStore
        yield* store.insert(endpointOf(theirs, 1, {}, 8), "whsec_b3RoZXI=", 1)
        const inserted = yield* Effect.forEach(
          Array.from({ length: 12 }, (_, n) => endpointOf(mine, n + 1, {}, 9)),
          (endpoint) => store.insert(endpoint, "whsec_bGltaXQ=", 5),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(inserted.filter(Boolean).length, 5)
        assert.strictEqual((yield* store.list(mine.client.id)).length, 5)
        assert.isFalse(yield* store.insert(endpointOf(mine, 13, {}, 9), "whsec_bGltaXQ=", 5), "at the limit")
        assert.strictEqual((yield* store.list(theirs.client.id)).length, 1)
      })
    )

    it.effect("another client's endpoint is missing to every method", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("wh-scope")
        const theirs = yield* tenant("wh-scope-other")
        const store = yield* Webhook.WebhookStore
        const endpoint = endpointOf(mine, 10)
        yield* store.insert(endpoint, "whsec_bWluZQ==", Webhooks.MAX_ENDPOINTS)
        const other = theirs.client.id
        assert.deepStrictEqual(yield* store.list(other), [])
        assert.isUndefined(yield* store.get(other, endpoint.id))
        assert.isUndefined(yield* store.update(other, endpoint.id, { enabled: false }, at(1)))
        assert.isFalse(yield* store.rotate(other, endpoint.id, "whsec_eA==", at(1)))
        assert.isUndefined(yield* store.attempts(other, endpoint.id, 10))
        assert.strictEqual(yield* store.redeliver(other, endpoint.id, extractionId(1)), "endpoint")
        assert.isFalse(yield* store.remove(other, endpoint.id))
        assert.deepStrictEqual(yield* store.get(mine.client.id, endpoint.id), endpoint, "untouched")
        assert.deepStrictEqual(yield* store.attempts(mine.client.id, endpoint.id, 10), [])
        assert.isUndefined(yield* store.get(mine.client.id, "not-a-uuid"))
      })
    )

    it.effect("a PATCH of the status writes an event for the scope's endpoints; an unknown event is not found", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("wh-events")
        const store = yield* Webhook.WebhookStore
        const extractions = yield* Ports.ExtractionStore
        const live = endpointOf(mine, 20)
        const sandbox = endpointOf(mine, 21, { sandbox: true })
        yield* store.insert(live, "whsec_bGl2ZQ==", Webhooks.MAX_ENDPOINTS)
        yield* store.insert(sandbox, "whsec_c2FuZA==", Webhooks.MAX_ENDPOINTS)
        const record = recordOf(mine, 500, { status: "completado" })
        yield* extractions.submit(submissionOf(record))
        const changed = yield* extractions.switchStatus(scopeOf(mine), record.id, "completado", {
          status: "incompleto",
          errorMessage: "revisar",
          lastModification: at(5),
          lastUserId: mine.user.id,
          lastUserClientId: mine.client.id
        })
        assert.strictEqual(changed?.status, "incompleto")
        assert.strictEqual(yield* store.redeliver(mine.client.id, live.id, extractionId(999)), "event")
        assert.strictEqual(yield* store.redeliver(mine.client.id, live.id, "nope"), "event")
        assert.strictEqual(yield* store.redeliver(mine.client.id, endpointId(999), extractionId(999)), "endpoint")
      })
    )
  })
