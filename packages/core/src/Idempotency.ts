import { Duration, Effect, Schedule } from "effect"
import { IdempotencyKeyInFlight, IdempotencyKeyReused, InvalidRequest } from "./Errors.js"
import { IdGenerator } from "./IdGenerator.js"
import { type IdempotencyClaim, IdempotencyStore, type Scope } from "./Ports.js"
import * as Timestamp from "./Timestamp.js"

/** Longest accepted key, in characters (the IETF httpapi draft leaves it to the server; Stripe's is 255). */
export const MAX_KEY = 255
/** How long a key is remembered by default: the draft's suggestion of at least 24 hours. */
export const DEFAULT_RETENTION = Duration.hours(24)
/**
 * How old an unfinished claim must be before a retry may take it over (its request crashed or hung). A submission
 * holds its claim only while the skill lookup, the quota and the database writes run — milliseconds — and a
 * takeover is fenced: the stalled request's writes then fail, so a bound too short costs a 409, never a duplicate.
 */
export const DEFAULT_STALE_AFTER = Duration.minutes(1)

/** How keys are kept. */
export interface Settings {
  /** How long a key is remembered after its first request. */
  readonly retention: Duration.Duration
  /** How old an unfinished claim must be to be taken over. */
  readonly staleAfter: Duration.Duration
}

/** The defaults: 24 h retention, takeover after one minute. */
export const defaults: Settings = { retention: DEFAULT_RETENTION, staleAfter: DEFAULT_STALE_AFTER }

const PRINTABLE = /^[\x20-\x7e]*$/

/**
 * The key of an `Idempotency-Key` header: a structured-field string (`"…"`, with `\"` and `\\` escapes, as the
 * draft writes it) or the bare value most clients send; 1 to `MAX_KEY` printable ASCII characters.
 */
export const parseKey = (header: string): string | InvalidRequest => {
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(header)
  const key = quoted === null ? header : quoted[1]!.replace(/\\(["\\])/g, "$1")
  if (key.length === 0 || key.length > MAX_KEY) {
    return new InvalidRequest({ message: `Idempotency-Key must be 1 to ${MAX_KEY} characters` })
  }
  if (!PRINTABLE.test(key)) {
    return new InvalidRequest({ message: "Idempotency-Key must hold only printable ASCII characters" })
  }
  return key
}

/** What an idempotent request produced: its extraction, and whether it is the answer of an earlier request. */
export interface Outcome {
  readonly extractionId: string
  readonly replayed: boolean
}

/**
 * Runs `submit` at most once per (client, sandbox, key) within the retention: the first request claims the key and
 * runs; a retry with the same fingerprint gets the first extraction back (`replayed`), one with another fingerprint
 * `IdempotencyKeyReused`, and one while the first still runs `IdempotencyKeyInFlight`. `submit` must record the
 * claim done in the transaction that creates its extraction (`Ports.Submission.idempotency`); when it fails or is
 * interrupted the claim is released, so a refused request is not remembered and a corrected retry runs.
 */
export const run = Effect.fn("Idempotency.run")(function* <E, R>(
  scope: Scope,
  key: string,
  fingerprint: string,
  settings: Settings,
  submit: (claim: IdempotencyClaim) => Effect.Effect<string, E, R>
) {
  const store = yield* IdempotencyStore
  const now = yield* Timestamp.now
  const millis = Timestamp.toMillis(now)
  const claim: IdempotencyClaim = { scope, key, token: (yield* IdGenerator).uuid() }
  const outcome = yield* store.claim({
    ...claim,
    fingerprint,
    now,
    expiresAt: Timestamp.fromMillis(millis + Duration.toMillis(settings.retention)),
    staleBefore: Timestamp.fromMillis(millis - Duration.toMillis(settings.staleAfter))
  })
  if (outcome._tag !== "Claimed") {
    if (outcome.fingerprint !== fingerprint) return yield* new IdempotencyKeyReused({ key })
    if (outcome._tag === "InFlight") return yield* new IdempotencyKeyInFlight({ key })
    return { extractionId: outcome.extractionId, replayed: true } satisfies Outcome
  }
  const extractionId = yield* submit(claim).pipe(Effect.onError(() => Effect.ignore(store.release(claim))))
  return { extractionId, replayed: false } satisfies Outcome
})

/** Forgets every expired key; returns how many. */
export const sweep = Effect.fn("Idempotency.sweep")(function* () {
  return yield* (yield* IdempotencyStore).sweep(yield* Timestamp.now)
})

/**
 * Runs `sweep` now and then every `every` (default ten minutes), forever; a failed sweep is logged and retried at the
 * next tick. Expired keys are ignored by claims anyway: the sweep only keeps the table small.
 */
export const schedule = (every: Duration.Input = Duration.minutes(10)) =>
  sweep().pipe(
    Effect.tap((forgotten) => (forgotten > 0 ? Effect.logDebug("idempotency sweep", { forgotten }) : Effect.void)),
    Effect.catchCause((cause) => Effect.logWarning("idempotency sweep failed", cause)),
    Effect.repeat(Schedule.spaced(every)),
    Effect.asVoid
  )
