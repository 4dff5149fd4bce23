/**
 * How the providers call out: our own per-attempt timeout (the SDKs' is 10 minutes), our own retries (the SDKs'
 * are turned off) on 429/529/5xx, timeouts and connection errors with full-jitter backoff or the server's
 * `retry-after` capped below the job lease, no retry on other 4xx, and a semaphore per provider.
 */
import { Extractor, Retry } from "@legible/core"
import { Clock, Duration, Effect, Random, Redacted, Semaphore } from "effect"
import { defaults, type ProviderOptions } from "../Provider.js"
import type { Budget } from "./content.js"

/** The options resolved to numbers. */
export interface Settings {
  readonly timeoutMs: number
  readonly policy: Retry.RetryPolicy
  readonly retryAfterCapMs: number
  readonly concurrency: number
  readonly maxTokens: number
  readonly maxTokensRetry: number
  readonly budget: Budget
}

/** Resolves options with the provider's own request limits as defaults. */
export const settings = (
  options: ProviderOptions,
  limits: { readonly maxRequestBytes: number; readonly maxImages: number }
): Settings => {
  const maxTokens = options.maxTokens ?? defaults.maxTokens
  return {
    timeoutMs: Duration.toMillis(options.timeout ?? defaults.timeout),
    policy: {
      maxAttempts: Math.max(1, options.maxAttempts ?? defaults.maxAttempts),
      baseMs: Duration.toMillis(options.backoffBase ?? defaults.backoffBase),
      capMs: Duration.toMillis(options.backoffCap ?? defaults.backoffCap)
    },
    retryAfterCapMs: Duration.toMillis(options.retryAfterCap ?? defaults.retryAfterCap),
    concurrency: Math.max(1, options.concurrency ?? defaults.concurrency),
    maxTokens,
    maxTokensRetry: Math.max(maxTokens, Math.min(maxTokens * 4, 32_768)),
    budget: {
      maxBytes: options.maxRequestBytes ?? limits.maxRequestBytes,
      maxImages: options.maxImagesPerRequest ?? limits.maxImages,
      maxChars: options.maxTextChars ?? defaults.maxTextChars
    }
  }
}

/** A failed HTTP attempt, whatever the SDK. */
export interface HttpFailure {
  /** The HTTP status, or undefined when no response came (connection error, timeout). */
  readonly status: number | undefined
  readonly headers: { get(name: string): string | null } | undefined
  /** The provider's message (or the connection error's). */
  readonly message: string
  readonly timeout: boolean
}

/** What `sdkFailure` reads of an SDK's API error. */
interface ApiError extends Error {
  readonly status: number | undefined
  readonly headers: { get(name: string): string | null } | undefined
}

/** The error classes of a Stainless-generated SDK: `@anthropic-ai/sdk` and `openai` share them. */
export interface SdkErrors<E extends ApiError> {
  readonly APIConnectionTimeoutError: abstract new (...args: never) => Error
  readonly APIError: abstract new (...args: never) => E
}

/** How an SDK's failure reads: its timeout, its API error (status, headers, `message`), or anything else. */
export const sdkFailure =
  <E extends ApiError>(sdk: SdkErrors<E>, message: (error: E) => string = (error) => error.message) =>
  (error: unknown): HttpFailure => {
    if (error instanceof sdk.APIConnectionTimeoutError) {
      return { status: undefined, headers: undefined, message: error.message, timeout: true }
    }
    if (error instanceof sdk.APIError) {
      return { status: error.status, headers: error.headers, message: message(error), timeout: false }
    }
    return { status: undefined, headers: undefined, message: String(error), timeout: false }
  }

/**
 * The wait a response asks for, in milliseconds: `retry-after-ms`, else `retry-after` in seconds or as an HTTP
 * date (relative to `nowMs`); undefined when absent or unreadable.
 */
export const retryAfterMs = (
  headers: { get(name: string): string | null } | undefined,
  nowMs: number
): number | undefined => {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "")
  if (Number.isFinite(ms) && ms >= 0) return ms
  const value = headers?.get("retry-after")?.trim()
  if (value === undefined || value === "") return undefined
  if (/^\d+(\.\d+)?$/.test(value)) return Number.parseFloat(value) * 1000
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs)
}

/** The wait before the retry after attempt `attempt`: the server's (capped) if it named one, else full jitter. */
export const retryDelayMs = (
  s: Pick<Settings, "policy" | "retryAfterCapMs">,
  attempt: number,
  retryAfter: number | undefined,
  random: number
): number =>
  retryAfter === undefined ? Retry.backoff(s.policy, attempt, () => random) : Math.min(retryAfter, s.retryAfterCapMs)

/** Whether a failure is worth another attempt, and the error it becomes otherwise. */
export const classify = (
  provider: string,
  failure: HttpFailure
): { readonly retryable: boolean; readonly error: Extractor.ExtractorError } => {
  const { status } = failure
  const make = (reason: Extractor.ExtractorError["reason"], permanent: boolean) =>
    new Extractor.ExtractorError({ reason, message: `${provider}: ${failure.message}`, permanent })
  if (failure.timeout) return { retryable: true, error: make("Timeout", false) }
  if (status === undefined) return { retryable: true, error: make("Unavailable", false) }
  if (status === 429) return { retryable: true, error: make("RateLimited", false) }
  if (status === 408 || status === 409 || status >= 500) return { retryable: true, error: make("Unavailable", false) }
  if (status === 413) return { retryable: false, error: make("TooLarge", true) }
  return { retryable: false, error: make("Rejected", true) }
}

/** A provider's gate: its settings, its semaphore and how its SDK's failures read. */
export interface Caller {
  readonly provider: string
  readonly settings: Settings
  readonly semaphore: Semaphore.Semaphore
  readonly toFailure: (error: unknown) => HttpFailure
}

/** A caller for a provider (one semaphore shared by all its requests). */
export const caller = (
  provider: string,
  s: Settings,
  toFailure: (error: unknown) => HttpFailure
): Effect.Effect<Caller> =>
  Effect.map(Semaphore.make(s.concurrency), (semaphore) => ({ provider, settings: s, semaphore, toFailure }))

const timedOut = (ms: number): HttpFailure => ({
  status: undefined,
  headers: undefined,
  message: `no answer within ${ms} ms`,
  timeout: true
})

/** The options of an SDK client: the key and base URL given, our timeout, none of the SDK's retries or logs. */
export const clientOptions = (
  options: { readonly apiKey: Redacted.Redacted; readonly baseURL?: string | undefined },
  s: Settings,
  defaultBaseURL: string
) => ({
  apiKey: Redacted.value(options.apiKey),
  baseURL: options.baseURL ?? defaultBaseURL,
  timeout: s.timeoutMs,
  maxRetries: 0,
  logLevel: "off" as const
})

/** The per-request options of an SDK call: the attempt's abort signal, our timeout, no retry of the SDK's. */
export interface RequestOptions {
  readonly signal: AbortSignal
  readonly timeout: number
  readonly maxRetries: 0
}

/**
 * One request with timeout, retries and the concurrency limit. `send` gets the abort signal of the attempt: an
 * attempt that times out is aborted, not left running. The permit is held per attempt, not across backoff waits.
 */
export const call = <A>(
  c: Caller,
  send: (options: RequestOptions) => Promise<A>
): Effect.Effect<A, Extractor.ExtractorError> => {
  const { settings: s } = c
  const attempt = (n: number): Effect.Effect<A, Extractor.ExtractorError> =>
    Effect.tryPromise({
      try: (signal) => send({ signal, timeout: s.timeoutMs, maxRetries: 0 }),
      catch: c.toFailure
    }).pipe(
      Effect.timeoutOrElse({ duration: s.timeoutMs, orElse: () => Effect.fail(timedOut(s.timeoutMs)) }),
      Semaphore.withPermit(c.semaphore),
      Effect.catch((failure: HttpFailure) => {
        const { retryable, error } = classify(c.provider, failure)
        if (!retryable) return Effect.fail(error)
        if (n >= s.policy.maxAttempts) {
          return Effect.fail(
            new Extractor.ExtractorError({ ...error, message: `${error.message} (after ${n} attempts)` })
          )
        }
        return Effect.gen(function* () {
          const random = yield* Random.next
          const now = yield* Clock.currentTimeMillis
          const delay = retryDelayMs(s, n, retryAfterMs(failure.headers, now), random)
          yield* Effect.logWarning(`${c.provider}: attempt ${n} failed (${error.message}); retrying in ${delay} ms`)
          yield* Effect.sleep(Duration.millis(delay))
          return yield* attempt(n + 1)
        })
      })
    )
  return attempt(1)
}
