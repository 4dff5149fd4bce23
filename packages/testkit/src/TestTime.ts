/** Fixed instants and helpers that set Effect's `TestClock` to them. */
import { Timestamp } from "@legible/core"
import type { Effect } from "effect"
import { TestClock } from "effect/testing"

/** The instant most fixtures are created at: 2026-03-12T10:15:30Z (a Thursday), in epoch milliseconds. */
export const NOW_MILLIS = Date.UTC(2026, 2, 12, 10, 15, 30)

/** `NOW_MILLIS` as a legible timestamp. */
export const now: Timestamp.Timestamp = Timestamp.fromMillis(NOW_MILLIS)

/** The timestamp `offsetMs` milliseconds after `NOW_MILLIS` (negative: before). */
export const at = (offsetMs: number): Timestamp.Timestamp => Timestamp.fromMillis(NOW_MILLIS + offsetMs)

/** A timestamp of an ISO 8601 instant, e.g. `"2024-02-29T23:59:59Z"`. */
export const of = (iso: string): Timestamp.Timestamp => {
  const millis = Date.parse(iso)
  if (Number.isNaN(millis)) throw new RangeError(`not an ISO 8601 instant: ${iso}`)
  return Timestamp.fromMillis(millis)
}

/** Sets the `TestClock` to `instant` (a timestamp, a `Date` or epoch milliseconds). */
export const setNow = (instant: Timestamp.Timestamp | Date | number): Effect.Effect<void> =>
  TestClock.setTime(
    typeof instant === "number" ? instant : instant instanceof Date ? instant.getTime() : Timestamp.toMillis(instant)
  )

/** Sets the `TestClock` to `NOW_MILLIS`. */
export const setFixedNow: Effect.Effect<void> = setNow(NOW_MILLIS)
