/**
 * What an operator configures of the LLM providers: the options they share, with their defaults and ranges, and the
 * default model names. Light on purpose (no SDK is imported): the server's configuration reads it at every start.
 */
import { Duration, Schema } from "effect"

/** The model of the deterministic local rules. */
export const LOCAL_MODEL = "local"
/** The model used where Anthropic is the only provider configured and the operator names none. */
export const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-5"

/** Settings shared by the providers (all optional; the defaults are `defaults`). */
export interface ProviderOptions {
  /** Per HTTP attempt. */
  readonly timeout?: Duration.Input | undefined
  /** Attempts per request, the first included (`MaxAttempts`). */
  readonly maxAttempts?: number | undefined
  /** Backoff ceiling of the first retry (doubling, full jitter). */
  readonly backoffBase?: Duration.Input | undefined
  /** Largest backoff. */
  readonly backoffCap?: Duration.Input | undefined
  /** Largest wait a `retry-after` header may impose; keep it well below the job lease. */
  readonly retryAfterCap?: Duration.Input | undefined
  /** Requests in flight at once to this provider (`Concurrency`). */
  readonly concurrency?: number | undefined
  /** `max_tokens` of a request (a truncated answer is retried once with 4×, at most 32768). */
  readonly maxTokens?: number | undefined
  /** Bytes of document content per request (base64 images and PDFs, text); default the provider's own limit. */
  readonly maxRequestBytes?: number | undefined
  /** Images per request; default the provider's own limit. */
  readonly maxImagesPerRequest?: number | undefined
  /** Characters of document text per request (400,000 ≈ 100k tokens). */
  readonly maxTextChars?: number | undefined
}

/** The defaults of `ProviderOptions` (the request limits default to each provider's own). */
export const defaults = {
  timeout: Duration.seconds(60),
  maxAttempts: 4,
  backoffBase: Duration.seconds(1),
  backoffCap: Duration.seconds(20),
  retryAfterCap: Duration.seconds(30),
  concurrency: 4,
  maxTokens: 4096,
  maxTextChars: 400_000
} as const

/** Attempts per request: 1 to 20. */
export const MaxAttempts = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 20 }))

/** Requests in flight per provider: 1 to 1000. */
export const Concurrency = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 1000 }))
