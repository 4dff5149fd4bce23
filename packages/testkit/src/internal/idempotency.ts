import { Errors, Ports, Timestamp } from "@legible/core"
import { Effect } from "effect"
import type { State } from "./state.js"

/** The key of a claim in `State.idempotency`: unambiguous whatever characters the key holds. */
export const entryKey = (claim: Ports.IdempotencyClaim): string =>
  JSON.stringify([claim.scope.clientId, claim.scope.sandbox, claim.key])

/**
 * Marks the claim done with its extraction (the SQL store does it in the submission's transaction); fails when the
 * claim is no longer held by this token, before anything of the submission is written.
 */
export const complete = (
  state: State,
  claim: Ports.IdempotencyClaim,
  extractionId: string
): Errors.IdempotencyKeyInFlight | undefined => {
  const entry = state.idempotency.get(entryKey(claim))
  if (entry === undefined || entry.token !== claim.token || entry.extractionId !== null) {
    return new Errors.IdempotencyKeyInFlight({ key: claim.key })
  }
  entry.extractionId = extractionId
  return undefined
}

/** Whether the claim could be completed now (checked before a submission writes anything). */
export const held = (state: State, claim: Ports.IdempotencyClaim): boolean => {
  const entry = state.idempotency.get(entryKey(claim))
  return entry !== undefined && entry.token === claim.token && entry.extractionId === null
}

/**
 * The in-memory `IdempotencyStore`: each claim reads and writes in one synchronous step, with the SQL store's rules
 * (an expired key is taken afresh; an unfinished claim of the same fingerprint older than `staleBefore` is taken over).
 */
export const make = (state: State): Ports.IdempotencyStore["Service"] =>
  Ports.IdempotencyStore.of({
    claim: (request) =>
      Effect.sync((): Ports.IdempotencyClaimOutcome => {
        const id = entryKey(request)
        const now = Timestamp.toMillis(request.now)
        const existing = state.idempotency.get(id)
        const free =
          existing === undefined ||
          existing.expiresAt <= now ||
          (existing.extractionId === null &&
            existing.fingerprint === request.fingerprint &&
            existing.claimedAt <= Timestamp.toMillis(request.staleBefore))
        if (free) {
          state.idempotency.set(id, {
            fingerprint: request.fingerprint,
            token: request.token,
            extractionId: null,
            claimedAt: now,
            expiresAt: Timestamp.toMillis(request.expiresAt)
          })
          return { _tag: "Claimed" }
        }
        return existing.extractionId === null
          ? { _tag: "InFlight", fingerprint: existing.fingerprint }
          : { _tag: "Done", fingerprint: existing.fingerprint, extractionId: existing.extractionId }
      }),
    release: (claim) =>
      Effect.sync(() => {
        if (held(state, claim)) state.idempotency.delete(entryKey(claim))
      }),
    sweep: (now) =>
      Effect.sync(() => {
        let forgotten = 0
        for (const [id, entry] of state.idempotency) {
          if (entry.expiresAt <= Timestamp.toMillis(now)) {
            state.idempotency.delete(id)
            forgotten++
          }
        }
        return forgotten
      })
  })
