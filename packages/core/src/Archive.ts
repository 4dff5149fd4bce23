import { Duration, Effect, Schedule, Schema } from "effect"
import type { Caller } from "./ApiKeys.js"
import { ExtractionNotFound, InvalidRequest } from "./Errors.js"
import { ExtractionStore } from "./Ports.js"
import * as Timestamp from "./Timestamp.js"

/** Longest accepted retention, in days (100 years). */
export const MAX_DAYS = 36_500

/** A retention in days: 1 to `MAX_DAYS`. */
export const RetentionDays = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_DAYS }))

const DAY_MS = 86_400_000

const setArchived = Effect.fnUntraced(function* (caller: Caller, id: string, archived: boolean) {
  const updated = yield* (yield* ExtractionStore).setArchived(caller, id, archived, yield* Timestamp.now)
  if (updated === undefined) return yield* new ExtractionNotFound({ id })
  return { id: updated.id, archived: updated.archived }
})

/** Archives one of the caller's extractions: lists leave it out unless `include_archived=true`. */
export const archive = Effect.fn("Archive.archive")(function* (caller: Caller, id: string) {
  return yield* setArchived(caller, id, true)
})

/** Brings an archived extraction back into the default list. */
export const unarchive = Effect.fn("Archive.unarchive")(function* (caller: Caller, id: string) {
  return yield* setArchived(caller, id, false)
})

/**
 * The retention rule: archives every final extraction (of every client) created more than `days` days ago; returns
 * how many were archived. Extractions still queued or processing are never archived.
 */
export const sweep = Effect.fn("Archive.sweep")(function* (days: number) {
  if (!Schema.is(RetentionDays)(days)) {
    return yield* new InvalidRequest({ message: `retention days must be an integer from 1 to ${MAX_DAYS}` })
  }
  const now = Timestamp.toMillis(yield* Timestamp.now)
  return yield* (yield* ExtractionStore).archiveBefore(Timestamp.fromMillis(now - days * DAY_MS))
})

/**
 * Runs `sweep(days)` now and then every `every` (default one hour), forever; a failed sweep is logged and retried at
 * the next tick. For the server to fork when a retention is configured.
 */
export const schedule = (days: number, every: Duration.Input = Duration.hours(1)) =>
  sweep(days).pipe(
    Effect.tap((archived) => (archived > 0 ? Effect.logInfo("retention sweep", { archived, days }) : Effect.void)),
    Effect.catchCause((cause) => Effect.logWarning("retention sweep failed", cause)),
    Effect.repeat(Schedule.spaced(every)),
    Effect.asVoid
  )
