import { assert, describe, it } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Fake, TestTime } from "@legible/testkit"
import { Cause, Context, Effect, Exit } from "effect"

describe("Fake", () => {
  it.effect("uses the supplied methods", () =>
    Effect.gen(function* () {
      const quotas = yield* Ports.QuotaStore
      assert.isUndefined(yield* quotas.get("client-acme"))
    }).pipe(Effect.provide(Fake.layer(Ports.QuotaStore, { get: () => Effect.succeed(undefined) })))
  )

  it.effect("dies naming the service and the method a test did not supply", () =>
    Effect.gen(function* () {
      const quotas = yield* Ports.QuotaStore
      const exit = yield* Effect.exit(quotas.reserve("client-acme", TestTime.now))
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) {
        const defect = Cause.squash(exit.cause)
        assert.instanceOf(defect, Fake.UnimplementedMethod)
        if (defect instanceof Fake.UnimplementedMethod) {
          assert.strictEqual(defect.message, "@legible/core/QuotaStore.reserve is not implemented by this test's fake")
        }
      }
    }).pipe(Effect.provide(Fake.layer(Ports.QuotaStore, { get: () => Effect.succeed(undefined) })))
  )

  it.effect("a missing member that is an effect rather than a method dies the same way when yielded", () =>
    Effect.gen(function* () {
      class Counter extends Context.Service<
        Counter,
        { readonly current: Effect.Effect<number>; increment(): Effect.Effect<void> }
      >()("test/Counter") {}
      const counter = Fake.make(Counter, { increment: () => Effect.void })
      yield* counter.increment()
      const exit = yield* Effect.exit(counter.current)
      assert.isTrue(Exit.isFailure(exit))
      if (Exit.isFailure(exit)) {
        const defect = Cause.squash(exit.cause)
        assert.instanceOf(defect, Fake.UnimplementedMethod)
        if (defect instanceof Fake.UnimplementedMethod) assert.strictEqual(defect.method, "current")
      }
    })
  )
})
