import { Schema } from "effect"
import { ClientId } from "./Directory.js"
import * as Timestamp from "./Timestamp.js"

/** The length of a quota period; `month` (calendar month, UTC) is the default. */
export const Period = Schema.Literals(["month", "day"])
export type Period = typeof Period.Type

/** A client's extraction quota: `limit` extractions per period (`null`: unlimited), `used` in the current one. */
export const Quota = Schema.Struct({
  clientId: ClientId,
  limit: Schema.NullOr(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  period: Period,
  periodStart: Timestamp.Timestamp,
  used: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
})
export type Quota = typeof Quota.Type

/** The start (UTC midnight) of the period that contains `now`. */
export const periodStart = (period: Period, now: Timestamp.Timestamp): Timestamp.Timestamp => {
  const d = new Date(Timestamp.toMillis(now))
  const start =
    period === "month"
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate())
  return Timestamp.fromMillis(start)
}

/** The start of the period after the one that contains `now`. */
export const periodEnd = (period: Period, now: Timestamp.Timestamp): Timestamp.Timestamp => {
  const d = new Date(Timestamp.toMillis(now))
  const end =
    period === "month"
      ? Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1)
  return Timestamp.fromMillis(end)
}

/** The usage that counts at `now`: a quota whose period has rolled over has used nothing yet. */
export const usedAt = (quota: Quota, now: Timestamp.Timestamp): number =>
  quota.periodStart === periodStart(quota.period, now) ? quota.used : 0

/** The outcome of asking for one more extraction. */
export type Reservation =
  | { readonly _tag: "Granted"; readonly quota: Quota }
  | { readonly _tag: "Exhausted"; readonly limit: number; readonly used: number }

/** Reserves one extraction: the pure rule every store's atomic statement implements. */
export const reserve = (quota: Quota, now: Timestamp.Timestamp): Reservation => {
  const start = periodStart(quota.period, now)
  const used = usedAt(quota, now)
  if (quota.limit !== null && used >= quota.limit) return { _tag: "Exhausted", limit: quota.limit, used }
  return { _tag: "Granted", quota: { ...quota, periodStart: start, used: used + 1 } }
}

/**
 * Gives back one reservation made at `at` (a submission that failed after reserving), never below zero. A
 * reservation of an earlier period is not given back: that period's usage no longer counts.
 */
export const release = (quota: Quota, at: Timestamp.Timestamp): Quota =>
  quota.periodStart === periodStart(quota.period, at) ? { ...quota, used: Math.max(0, quota.used - 1) } : quota
