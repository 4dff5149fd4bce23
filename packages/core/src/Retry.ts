import { Schema } from "effect"

/** Retry policy of the job queue: exponential backoff with full jitter, capped, up to a number of attempts. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number
  /** Backoff ceiling of the first retry, in milliseconds. */
  readonly baseMs: number
  /** Largest backoff, in milliseconds. */
  readonly capMs: number
}

/** The attempts a job may be given: 1 to 100. */
export const MaxAttempts = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))

/** Defaults: 3 attempts (a job's, unless its submission says otherwise), 2 s growing to at most 5 minutes. */
export const defaultPolicy: RetryPolicy = { maxAttempts: 3, baseMs: 2_000, capMs: 300_000 }

/**
 * The delay before the retry that follows attempt number `attempt` (1-based): uniform in
 * `[0, min(cap, base · 2^(attempt-1))]` ("full jitter"). `random` returns a number in [0, 1).
 */
export const backoff = (policy: RetryPolicy, attempt: number, random: () => number): number => {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.floor(random() * ceiling)
}

/** Whether another attempt is allowed after `attempt` attempts failed. */
export const canRetry = (policy: RetryPolicy, attempt: number): boolean => attempt < policy.maxAttempts
