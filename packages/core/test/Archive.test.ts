import { assert, describe, it } from "@effect/vitest"
import { Archive } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())
const DAY = 86_400_000

/** Extractions created 0, 10 and 40 days before `TestTime.now`, in every status, plus another client's old one. */
const seedAges = Effect.gen(function* () {
  yield* TestTime.setFixedNow
  yield* Fixtures.seed
  const state = yield* Memory.MemoryState
  const rows = [
    { id: TestIds.uuid(100), createdAt: TestTime.at(-40 * DAY), status: "completado" },
    { id: TestIds.uuid(101), createdAt: TestTime.at(-40 * DAY), status: "error" },
    { id: TestIds.uuid(102), createdAt: TestTime.at(-40 * DAY), status: "en cola" },
    { id: TestIds.uuid(103), createdAt: TestTime.at(-40 * DAY), status: "procesando" },
    { id: TestIds.uuid(104), createdAt: TestTime.at(-10 * DAY), status: "completado" },
    { id: TestIds.uuid(105), createdAt: TestTime.at(0), status: "incompleto" },
    {
      id: TestIds.uuid(106),
      createdAt: TestTime.at(-40 * DAY),
      status: "incompleto",
      clientId: Fixtures.otherClient.id
    }
  ] as const
  for (const row of rows) state.extractions.set(row.id, Fixtures.extraction(row))
  return state
})

const archivedIds = (state: Memory.State) =>
  [...state.extractions.values()]
    .filter((r) => r.archived)
    .map((r) => r.id)
    .sort()

describe("Archive.archive and unarchive", () => {
  it.effect("switch the flag of the caller's extraction, and say not found for others'", () =>
    Effect.gen(function* () {
      const state = yield* seedAges
      assert.deepStrictEqual(yield* Archive.archive(Fixtures.caller(), TestIds.uuid(105)), {
        id: TestIds.uuid(105),
        archived: true
      })
      assert.deepStrictEqual(archivedIds(state), [TestIds.uuid(105)])
      assert.deepStrictEqual(yield* Archive.unarchive(Fixtures.caller(), TestIds.uuid(105)), {
        id: TestIds.uuid(105),
        archived: false
      })
      const foreign = yield* Effect.flip(Archive.archive(Fixtures.caller(), TestIds.uuid(106)))
      assert.strictEqual(foreign._tag, "ExtractionNotFound")
      const sandboxed = yield* Effect.flip(Archive.archive(Fixtures.caller({ sandbox: true }), TestIds.uuid(105)))
      assert.strictEqual(sandboxed._tag, "ExtractionNotFound")
    }).pipe(Effect.provide(world))
  )
})

describe("Archive.sweep", () => {
  it.effect("archives final extractions older than the retention, of every client, and nothing in flight", () =>
    Effect.gen(function* () {
      const state = yield* seedAges
      assert.strictEqual(yield* Archive.sweep(30), 3)
      assert.deepStrictEqual(archivedIds(state), [TestIds.uuid(100), TestIds.uuid(101), TestIds.uuid(106)])
      assert.strictEqual(yield* Archive.sweep(30), 0)
      assert.strictEqual(yield* Archive.sweep(5), 1)
      for (const days of [0, -1, 1.5, Archive.MAX_DAYS + 1]) {
        assert.strictEqual((yield* Effect.flip(Archive.sweep(days)))._tag, "InvalidRequest")
      }
    }).pipe(Effect.provide(world))
  )

  it.effect("runs on a schedule: now, then at every interval as time passes", () =>
    Effect.gen(function* () {
      const state = yield* seedAges
      const fiber = yield* Effect.forkChild(Archive.schedule(30, "1 hour"))
      yield* TestClock.adjust("1 millis")
      assert.strictEqual(archivedIds(state).length, 3)
      // Eleven days on, the extraction of ten days ago is 21 days old: kept; ten more days and it is 31: archived.
      yield* TestClock.adjust(11 * DAY)
      assert.strictEqual(archivedIds(state).length, 3)
      yield* TestClock.adjust(10 * DAY)
      assert.strictEqual(archivedIds(state).length, 4)
      yield* Fiber.interrupt(fiber)
    }).pipe(Effect.provide(world))
  )
})
