import { assert, describe, it } from "@effect/vitest"
import { Errors, Extractions, Idempotency } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Duration, Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())
const settings = Idempotency.defaults
const caller = Fixtures.caller()

/** Core's submission of the fixture invoice, for the claim given. */
const submitting = (claim: Parameters<Parameters<typeof Idempotency.run>[4]>[0]) =>
  Effect.map(Extractions.submit(caller, { ...Fixtures.submitInput(), idempotency: claim }), (r) => r.extraction_id)

const setUp = Effect.andThen(TestTime.setFixedNow, Fixtures.seed)

describe("Idempotency.parseKey", () => {
  it("takes 1 to 255 printable ASCII characters, bare or as a structured-field string with escapes", () => {
    assert.strictEqual(Idempotency.parseKey("a"), "a")
    assert.strictEqual(Idempotency.parseKey("x".repeat(255)), "x".repeat(255))
    assert.strictEqual(Idempotency.parseKey('"8e03978e-40d5"'), "8e03978e-40d5")
    assert.strictEqual(Idempotency.parseKey('"say \\"hi\\" \\\\o/"'), 'say "hi" \\o/')
    assert.strictEqual(Idempotency.parseKey('a"b'), 'a"b')
    for (const bad of ["", '""', "x".repeat(256), "ñ", "tab\there", "nul\u0000"]) {
      assert.instanceOf(Idempotency.parseKey(bad), Errors.InvalidRequest, JSON.stringify(bad))
    }
  })
})

describe("Idempotency.run", () => {
  it.effect("runs once per key: a replay returns the first extraction, another fingerprint fails", () =>
    Effect.gen(function* () {
      yield* setUp
      const first = yield* Idempotency.run(caller, "k", "fp-1", settings, submitting)
      assert.isFalse(first.replayed)
      const again = yield* Idempotency.run(caller, "k", "fp-1", settings, submitting)
      assert.deepStrictEqual(again, { extractionId: first.extractionId, replayed: true })
      const other = yield* Effect.flip(Idempotency.run(caller, "k", "fp-2", settings, submitting))
      assert.deepStrictEqual(other, new Errors.IdempotencyKeyReused({ key: "k" }))
      assert.strictEqual((yield* Memory.MemoryState).extractions.size, 1)
    }).pipe(Effect.provide(world))
  )

  it.effect("a failed or interrupted submission releases the key, so the next request with it runs", () =>
    Effect.gen(function* () {
      yield* setUp
      const state = yield* Memory.MemoryState
      const failed = yield* Effect.flip(
        Idempotency.run(caller, "k", "fp-1", settings, () => Effect.fail(new Errors.InvalidRequest({ message: "no" })))
      )
      assert.strictEqual(failed._tag, "InvalidRequest")
      assert.strictEqual(state.idempotency.size, 0)
      const hanging = yield* Effect.forkChild(Idempotency.run(caller, "k", "fp-1", settings, () => Effect.never))
      yield* TestClock.adjust(10)
      assert.strictEqual(state.idempotency.size, 1)
      yield* Fiber.interrupt(hanging)
      assert.strictEqual(state.idempotency.size, 0)
      assert.isFalse((yield* Idempotency.run(caller, "k", "fp-1", settings, submitting)).replayed)
    }).pipe(Effect.provide(world))
  )

  it.effect(
    "a claim left unfinished is in flight until `staleAfter`, then a retry of the same body takes it over",
    () =>
      Effect.gen(function* () {
        yield* setUp
        const crashed = yield* Effect.forkChild(Idempotency.run(caller, "k", "fp-1", settings, () => Effect.never))
        yield* TestClock.adjust(10)
        const state = yield* Memory.MemoryState
        // The first request hangs, as if its process had died: its claim is never released.
        const entry = [...state.idempotency.values()][0]!
        const during = yield* Effect.flip(Idempotency.run(caller, "k", "fp-1", settings, submitting))
        assert.strictEqual(during._tag, "IdempotencyKeyInFlight")
        yield* TestClock.adjust(Duration.toMillis(settings.staleAfter))
        const taken = yield* Idempotency.run(caller, "k", "fp-1", settings, submitting)
        assert.isFalse(taken.replayed)
        assert.notStrictEqual([...state.idempotency.values()][0]!.token, entry.token)
        yield* Fiber.interrupt(crashed)
        assert.strictEqual(state.extractions.size, 1)
      }).pipe(Effect.provide(world))
  )

  it.effect("the sweep forgets keys past their retention", () =>
    Effect.gen(function* () {
      yield* setUp
      yield* Idempotency.run(caller, "k", "fp-1", settings, submitting)
      assert.strictEqual(yield* Idempotency.sweep(), 0)
      yield* TestClock.adjust(Duration.toMillis(settings.retention))
      assert.strictEqual(yield* Idempotency.sweep(), 1)
      assert.isFalse((yield* Idempotency.run(caller, "k", "fp-1", settings, submitting)).replayed)
    }).pipe(Effect.provide(world))
  )
})
