import { Clock, Effect, Schema } from "effect"

/**
 * Every timestamp legible returns: ISO 8601 in UTC with microseconds and an explicit offset,
 * e.g. `2026-03-12T10:15:30.123456+00:00` (spec 2.2).
 */
export const Timestamp = Schema.String.check(
  Schema.isPattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/)
).pipe(Schema.brand("@legible/Timestamp"))
export type Timestamp = typeof Timestamp.Type

const pad = (n: number, width: number) => String(n).padStart(width, "0")

/** Formats microseconds since the Unix epoch (instants before 1970 included). */
export const fromEpochMicros = (micros: bigint): Timestamp => {
  // Whole seconds rounded towards minus infinity: the fraction is then always the non-negative remainder.
  const seconds = micros >= 0n ? micros / 1_000_000n : -((-micros + 999_999n) / 1_000_000n)
  const date = new Date(Number(seconds) * 1000)
  const fraction = Number(micros - seconds * 1_000_000n)
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}T${pad(
    date.getUTCHours(),
    2
  )}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(fraction, 6)}+00:00` as Timestamp
}

/** Formats a millisecond instant (a `Date` or epoch milliseconds). */
export const fromMillis = (millis: number | Date): Timestamp =>
  fromEpochMicros(BigInt(typeof millis === "number" ? Math.trunc(millis) : millis.getTime()) * 1000n)

/** Microseconds since the epoch of a timestamp. */
export const toEpochMicros = (ts: Timestamp): bigint => {
  const millis = Date.parse(`${ts.slice(0, 19)}Z`)
  return BigInt(millis) * 1000n + BigInt(ts.slice(20, 26))
}

/** Milliseconds since the epoch of a timestamp (microseconds truncated). */
export const toMillis = (ts: Timestamp): number => Number(toEpochMicros(ts) / 1000n)

/** The current time from Effect's `Clock`, at microsecond precision (so `TestClock` drives it in tests). */
export const now: Effect.Effect<Timestamp> = Effect.map(Clock.currentTimeNanos, (nanos) =>
  fromEpochMicros(nanos / 1000n)
)
