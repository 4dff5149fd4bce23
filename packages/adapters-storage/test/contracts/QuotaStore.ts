/** The `QuotaStore` contract: atomic reservations, exhaustion, release, period rollover, the concurrency race. */
import { assert, layer } from "@effect/vitest"
import { Errors, Ports } from "@legible/core"
import { Effect, Exit } from "effect"
import { exact, type StoresLayer, tenant } from "./support.js"

const march = exact("2026-03-12T10:15:30.000000+00:00")
const marchLater = exact("2026-03-31T23:59:59.999999+00:00")
const april = exact("2026-04-01T00:00:00.000000+00:00")
const marchStart = exact("2026-03-01T00:00:00.000000+00:00")
const aprilStart = exact("2026-04-01T00:00:00.000000+00:00")

/** Runs the `QuotaStore` contract against `stores`. */
export const quotaStoreContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`QuotaStore contract: ${name}`, (it) => {
    it.effect("no quota row: unlimited, nothing recorded", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("quota-none")
        const quotas = yield* Ports.QuotaStore
        assert.isUndefined(yield* quotas.reserve(client.id, march))
        assert.isUndefined(yield* quotas.get(client.id))
      })
    )

    it.effect("reservations count up to the limit, then fail with the limit and the usage", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("quota-limit")
        const quotas = yield* Ports.QuotaStore
        const set = yield* quotas.set(client.id, 3, "month", march)
        assert.deepStrictEqual(set, {
          clientId: client.id,
          limit: 3,
          period: "month",
          periodStart: marchStart,
          used: 0
        })
        for (const used of [1, 2, 3]) assert.strictEqual((yield* quotas.reserve(client.id, march))?.used, used)
        const refused = yield* Effect.flip(quotas.reserve(client.id, marchLater))
        assert.deepStrictEqual(refused, new Errors.QuotaExceeded({ limit: 3, used: 3 }))
        assert.strictEqual((yield* quotas.get(client.id))?.used, 3, "a refusal changes nothing")
      })
    )

    it.effect("a new period starts from zero, even for a quota that was exhausted", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("quota-rollover")
        const quotas = yield* Ports.QuotaStore
        yield* quotas.set(client.id, 2, "month", march)
        yield* quotas.reserve(client.id, march)
        yield* quotas.reserve(client.id, march)
        const granted = yield* quotas.reserve(client.id, april)
        assert.deepStrictEqual(granted, {
          clientId: client.id,
          limit: 2,
          period: "month",
          periodStart: aprilStart,
          used: 1
        })
      })
    )

    it.effect("daily periods roll over at UTC midnight", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("quota-day")
        const quotas = yield* Ports.QuotaStore
        yield* quotas.set(client.id, 1, "day", march)
        yield* quotas.reserve(client.id, march)
        yield* Effect.flip(quotas.reserve(client.id, exact("2026-03-12T23:59:59.999999+00:00")))
        const next = yield* quotas.reserve(client.id, exact("2026-03-13T00:00:00.000000+00:00"))
        assert.strictEqual(next?.periodStart, exact("2026-03-13T00:00:00.000000+00:00"))
        assert.strictEqual(next?.used, 1)
      })
    )

    it.effect("a limit of zero refuses everything, in every period; null is unlimited but counted", () =>
      Effect.gen(function* () {
        const zero = yield* tenant("quota-zero")
        const open = yield* tenant("quota-open")
        const quotas = yield* Ports.QuotaStore
        yield* quotas.set(zero.client.id, 0, "month", march)
        assert.deepStrictEqual(
          yield* Effect.flip(quotas.reserve(zero.client.id, march)),
          new Errors.QuotaExceeded({
            limit: 0,
            used: 0
          })
        )
        assert.deepStrictEqual(
          yield* Effect.flip(quotas.reserve(zero.client.id, april)),
          new Errors.QuotaExceeded({
            limit: 0,
            used: 0
          })
        )
        yield* quotas.set(open.client.id, null, "month", march)
        for (let i = 0; i < 5; i++) yield* quotas.reserve(open.client.id, march)
        assert.strictEqual((yield* quotas.get(open.client.id))?.used, 5)
      })
    )

    it.effect("release gives back a reservation of the current period only, never below zero", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("quota-release")
        const quotas = yield* Ports.QuotaStore
        yield* quotas.set(client.id, 5, "month", march)
        yield* quotas.reserve(client.id, march)
        yield* quotas.reserve(client.id, march)
        yield* quotas.release(client.id, march)
        assert.strictEqual((yield* quotas.get(client.id))?.used, 1)
        yield* quotas.release(client.id, exact("2026-02-27T10:00:00.000000+00:00"))
        assert.strictEqual((yield* quotas.get(client.id))?.used, 1, "a February reservation is not given back")
        yield* quotas.release(client.id, march)
        yield* quotas.release(client.id, march)
        assert.strictEqual((yield* quotas.get(client.id))?.used, 0)
        yield* quotas.release("client-without-quota", march)
      })
    )

    it.effect("set keeps the usage of the current period, and resets it when the period changes", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("quota-set")
        const quotas = yield* Ports.QuotaStore
        yield* quotas.set(client.id, 10, "month", march)
        yield* quotas.reserve(client.id, march)
        yield* quotas.reserve(client.id, march)
        assert.strictEqual((yield* quotas.set(client.id, 1, "month", march)).used, 2, "same period: kept")
        assert.strictEqual((yield* Effect.flip(quotas.reserve(client.id, march)))._tag, "QuotaExceeded")
        const daily = yield* quotas.set(client.id, 10, "day", march)
        assert.strictEqual(daily.used, 0, "a day period starting today is a new period")
        assert.strictEqual(daily.periodStart, exact("2026-03-12T00:00:00.000000+00:00"))
      })
    )

    it.effect(
      "200 concurrent reservations against a limit of 50 grant exactly 50, five times over",
      () =>
        Effect.gen(function* () {
          const quotas = yield* Ports.QuotaStore
          for (let round = 0; round < 5; round++) {
            const { client } = yield* tenant(`quota-race-${round}`)
            yield* quotas.set(client.id, 50, "month", march)
            const outcomes = yield* Effect.forEach(
              Array.from({ length: 200 }, () => quotas.reserve(client.id, march)),
              Effect.exit,
              { concurrency: "unbounded" }
            )
            const granted = outcomes.filter(Exit.isSuccess)
            const refused = outcomes.filter(
              (exit) =>
                Exit.isFailure(exit) &&
                exit.cause.reasons.some((r) => r._tag === "Fail" && r.error._tag === "QuotaExceeded")
            )
            assert.strictEqual(granted.length, 50, `round ${round}: granted`)
            assert.strictEqual(refused.length, 150, `round ${round}: refused with QuotaExceeded`)
            assert.deepStrictEqual(
              granted.map((exit) => (Exit.isSuccess(exit) ? exit.value?.used : -1)).sort((a, b) => (a ?? 0) - (b ?? 0)),
              Array.from({ length: 50 }, (_, i) => i + 1),
              "each grant saw its own count"
            )
            assert.strictEqual((yield* quotas.get(client.id))?.used, 50)
          }
        }),
      120_000
    )
  })
