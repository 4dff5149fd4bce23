/**
 * The `IdempotencyStore` contract: one winner per key, done in the submission's transaction (fenced by the claim's
 * token), release, takeover of a stale claim of the same body only, expiry and the sweep, scopes kept apart.
 */
import { assert, layer } from "@effect/vitest"
import { Errors, Ports } from "@legible/core"
import { Effect } from "effect"
import { recordOf, scopeOf, submissionOf } from "./extractionFixtures.js"
import { at, exact, idOf, type StoresLayer, type Tenant, tenant } from "./support.js"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const tokenOf = (n: number): string => idOf(7, n)

/** A claim request of `key` for the tenant, made at `offsetMs` from the fixed now (24 h retention, 1 min takeover). */
const request = (
  owner: Tenant,
  key: string,
  fingerprint: string,
  token: number,
  offsetMs = 0,
  sandbox = false
): Ports.IdempotencyClaimRequest => ({
  scope: scopeOf(owner, sandbox),
  key,
  token: tokenOf(token),
  fingerprint,
  now: at(offsetMs),
  expiresAt: at(offsetMs + DAY),
  staleBefore: at(offsetMs - MINUTE)
})

/** Runs the `IdempotencyStore` contract against `stores`. */
export const idempotencyStoreContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`IdempotencyStore contract: ${name}`, (it) => {
    it.effect(
      "the first claim wins; later ones see it in flight with its fingerprint, then done with its extraction",
      () =>
        Effect.gen(function* () {
          const owner = yield* tenant("idem-basic")
          const keys = yield* Ports.IdempotencyStore
          const first = request(owner, "k-1", "fp-a", 1)
          assert.deepStrictEqual(yield* keys.claim(first), { _tag: "Claimed" })
          assert.deepStrictEqual(yield* keys.claim(request(owner, "k-1", "fp-a", 2, 1000)), {
            _tag: "InFlight",
            fingerprint: "fp-a"
          })
          assert.deepStrictEqual(yield* keys.claim(request(owner, "k-1", "fp-b", 3, 1000)), {
            _tag: "InFlight",
            fingerprint: "fp-a"
          })
          const record = recordOf(owner, 701)
          yield* (yield* Ports.ExtractionStore).submit({ ...submissionOf(record), idempotency: first })
          assert.deepStrictEqual(yield* keys.claim(request(owner, "k-1", "fp-a", 4, 2 * MINUTE)), {
            _tag: "Done",
            fingerprint: "fp-a",
            extractionId: record.id
          })
        })
    )

    it.effect("a released claim is forgotten; a release with another token changes nothing", () =>
      Effect.gen(function* () {
        const owner = yield* tenant("idem-release")
        const keys = yield* Ports.IdempotencyStore
        const first = request(owner, "k-2", "fp-a", 10)
        yield* keys.claim(first)
        yield* keys.release({ ...first, token: tokenOf(99) })
        assert.strictEqual((yield* keys.claim(request(owner, "k-2", "fp-b", 11)))._tag, "InFlight")
        yield* keys.release(first)
        assert.deepStrictEqual(yield* keys.claim(request(owner, "k-2", "fp-b", 12)), { _tag: "Claimed" })
      })
    )

    it.effect("a stale claim of the same body is taken over and the stalled request then writes nothing", () =>
      Effect.gen(function* () {
        const owner = yield* tenant("idem-stale")
        const keys = yield* Ports.IdempotencyStore
        const extractions = yield* Ports.ExtractionStore
        const stalled = request(owner, "k-3", "fp-a", 20)
        yield* keys.claim(stalled)
        // Within the bound: still in flight; past it, another body does not take it over, the same body does.
        assert.strictEqual((yield* keys.claim(request(owner, "k-3", "fp-a", 21, 30_000)))._tag, "InFlight")
        assert.strictEqual((yield* keys.claim(request(owner, "k-3", "fp-b", 22, 2 * MINUTE)))._tag, "InFlight")
        const retry = request(owner, "k-3", "fp-a", 23, 2 * MINUTE)
        assert.deepStrictEqual(yield* keys.claim(retry), { _tag: "Claimed" })
        const late = recordOf(owner, 702)
        const refused = yield* Effect.flip(extractions.submit({ ...submissionOf(late), idempotency: stalled }))
        assert.deepStrictEqual(refused, new Errors.IdempotencyKeyInFlight({ key: "k-3" }))
        assert.isUndefined(yield* extractions.get(scopeOf(owner), late.id), "the stalled submission rolled back")
        const kept = recordOf(owner, 703)
        yield* extractions.submit({ ...submissionOf(kept), idempotency: retry })
        assert.strictEqual(yield* extractions.get(scopeOf(owner), kept.id).pipe(Effect.map((r) => r?.id)), kept.id)
      })
    )

    it.effect("an expired key counts as absent, and the sweep deletes expired keys only", () =>
      Effect.gen(function* () {
        const owner = yield* tenant("idem-expiry")
        const keys = yield* Ports.IdempotencyStore
        const old = request(owner, "k-4", "fp-a", 30)
        yield* keys.claim(old)
        yield* (yield* Ports.ExtractionStore).submit({ ...submissionOf(recordOf(owner, 704)), idempotency: old })
        yield* keys.claim(request(owner, "k-5", "fp-a", 31, DAY / 2))
        // One microsecond before expiry the key is still done; at expiry another body claims it afresh.
        const before = exact("2026-03-13T10:15:29.999999+00:00")
        assert.strictEqual((yield* keys.claim({ ...request(owner, "k-4", "fp-b", 32), now: before }))._tag, "Done")
        assert.deepStrictEqual(yield* keys.claim(request(owner, "k-4", "fp-b", 33, DAY)), { _tag: "Claimed" })
        // A sweep at DAY + 1 h keeps k-5 (it expires at 1.5 DAY); one at 3 DAY deletes k-4 and k-5 (and others').
        yield* keys.sweep(at(DAY + 60 * MINUTE))
        assert.strictEqual((yield* keys.claim(request(owner, "k-5", "fp-b", 34, DAY + 60 * MINUTE)))._tag, "InFlight")
        assert.isAtLeast(yield* keys.sweep(at(3 * DAY)), 2)
        assert.deepStrictEqual(yield* keys.claim(request(owner, "k-5", "fp-b", 35, DAY + 61 * MINUTE)), {
          _tag: "Claimed"
        })
      })
    )

    it.effect("keys are per client and per sandbox", () =>
      Effect.gen(function* () {
        const a = yield* tenant("idem-scope-a")
        const b = yield* tenant("idem-scope-b")
        const keys = yield* Ports.IdempotencyStore
        assert.deepStrictEqual(yield* keys.claim(request(a, "shared", "fp-a", 40)), { _tag: "Claimed" })
        assert.deepStrictEqual(yield* keys.claim(request(b, "shared", "fp-b", 41)), { _tag: "Claimed" })
        assert.deepStrictEqual(yield* keys.claim(request(a, "shared", "fp-c", 42, 0, true)), { _tag: "Claimed" })
        assert.deepStrictEqual(yield* keys.claim(request(a, "Shared", "fp-d", 43)), { _tag: "Claimed" })
      })
    )

    it.effect("of 50 concurrent claims of one key exactly one wins", () =>
      Effect.gen(function* () {
        const owner = yield* tenant("idem-race")
        const keys = yield* Ports.IdempotencyStore
        const outcomes = yield* Effect.forEach(
          Array.from({ length: 50 }, (_, i) => i),
          (i) => keys.claim(request(owner, "race", "fp-a", 100 + i)),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(outcomes.filter((o) => o._tag === "Claimed").length, 1)
        assert.strictEqual(outcomes.filter((o) => o._tag === "InFlight").length, 49)
      })
    )
  })
