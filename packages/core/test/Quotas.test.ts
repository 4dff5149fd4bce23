import { assert, describe, it } from "@effect/vitest"
import { Ports, Quotas } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer } from "effect"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())
const admin = Fixtures.admin()
const ana = Fixtures.user()
const acme = Fixtures.client.id

describe("Quotas.set", () => {
  it.effect("is for global_admins only", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      const error = yield* Effect.flip(Quotas.set(ana, acme, { limit: 10 }))
      assert.strictEqual(error._tag, "Forbidden")
      assert.isUndefined((yield* Memory.MemoryState).quotas.get(acme))
    }).pipe(Effect.provide(world))
  )

  it.effect("sets limit and period, keeps the period when none is given, and keeps the usage", () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      yield* Fixtures.seed
      assert.deepStrictEqual(yield* Quotas.set(admin, acme, { limit: 10, period: "day" }), {
        client_id: acme,
        limit: 10,
        period: "day",
        period_start: TestTime.of("2026-03-12T00:00:00Z"),
        used: 0
      })
      const state = yield* Memory.MemoryState
      state.quotas.set(acme, { ...state.quotas.get(acme)!, used: 4 })
      const unlimited = yield* Quotas.set(admin, acme, { limit: null })
      assert.deepStrictEqual([unlimited.limit, unlimited.period, unlimited.used], [null, "day", 4])
      const monthly = yield* Quotas.set(admin, acme, { limit: 100, period: "month" })
      assert.deepStrictEqual([monthly.period, monthly.period_start], ["month", TestTime.of("2026-03-01T00:00:00Z")])
    }).pipe(Effect.provide(world))
  )

  it.effect("creates a client it does not know yet, and refuses bad limits and client ids", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      const quota = yield* Quotas.set(admin, "client-new", { limit: 5 })
      assert.strictEqual(quota.period, "month")
      assert.deepStrictEqual(yield* (yield* Ports.Directory).getClient("client-new"), {
        id: "client-new",
        name: "client-new"
      })
      for (const limit of [-1, 1.5, Quotas.MAX_LIMIT + 1, Number.NaN]) {
        assert.strictEqual((yield* Effect.flip(Quotas.set(admin, acme, { limit })))._tag, "InvalidRequest")
      }
      for (const clientId of ["", "x".repeat(201), "bad\nid"]) {
        assert.strictEqual((yield* Effect.flip(Quotas.set(admin, clientId, { limit: 1 })))._tag, "InvalidRequest")
      }
    }).pipe(Effect.provide(world))
  )
})

describe("Quotas.get", () => {
  it.effect("shows a client's quota to its users and to global_admins; undefined without one", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      assert.isUndefined(yield* Quotas.get(ana, acme))
      yield* Quotas.set(admin, acme, { limit: 3 })
      assert.strictEqual((yield* Quotas.get(ana, acme))?.limit, 3)
      assert.strictEqual((yield* Quotas.get(admin, acme))?.limit, 3)
      const error = yield* Effect.flip(Quotas.get(Fixtures.otherUser(), acme))
      assert.strictEqual(error._tag, "Forbidden")
    }).pipe(Effect.provide(world))
  )
})
