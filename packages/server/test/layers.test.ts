/**
 * `Layers.providerOptions`: what the LLM providers get from the settings, waits capped below the job lease;
 * `Layers.readerOptions`: what the OCR reader gets.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect } from "effect"
import * as Config from "../src/Config.js"
import * as Layers from "../src/Layers.js"

const load = (env: Record<string, string>) =>
  Config.load.pipe(Effect.provideService(ConfigProvider.ConfigProvider, Config.fromEnv(env)))

describe("Layers.providerOptions", () => {
  it.effect("a retry-after and the backoff are capped at half the lease when the lease is short", () =>
    Effect.gen(function* () {
      const options = Layers.providerOptions(
        yield* load({ LEGIBLE_LEASE_SECONDS: "8", LEGIBLE_LLM_TIMEOUT_SECONDS: "3", LEGIBLE_LLM_MAX_ATTEMPTS: "5" })
      )
      expect(Duration.toMillis(options.retryAfterCap)).toBe(4_000)
      expect(Duration.toMillis(options.backoffCap)).toBe(4_000)
      expect(options.timeout === undefined ? undefined : Duration.toMillis(options.timeout)).toBe(3_000)
      expect(options.maxAttempts).toBe(5)
    })
  )

  it.effect("with the default 60 s lease the caps stay at 30 s (retry-after) and 20 s (backoff)", () =>
    Effect.gen(function* () {
      const options = Layers.providerOptions(yield* load({}))
      expect(Duration.toMillis(options.retryAfterCap)).toBe(30_000)
      expect(Duration.toMillis(options.backoffCap)).toBe(20_000)
      // Unset: the provider adapter's own default applies.
      expect(options.timeout).toBeUndefined()
    })
  )
})

describe("Layers.readerOptions", () => {
  it.effect("passes every LEGIBLE_OCR_* setting to the reader", () =>
    Effect.gen(function* () {
      const options = Layers.readerOptions(
        yield* load({
          LEGIBLE_OCR_WORKERS: "3",
          LEGIBLE_OCR_PAGE_TIMEOUT_SECONDS: "20",
          LEGIBLE_OCR_MAX_PAGES: "40",
          LEGIBLE_OCR_PRECISION: "float32",
          LEGIBLE_OCR_LEXICON: "es",
          LEGIBLE_OCR_DETECTION_SCALE: "0.75",
          LEGIBLE_OCR_IMAGE_TEXT: "0"
        })
      )
      expect(options).toEqual({
        poolSize: 3,
        pageTimeLimitMs: 20_000,
        maxPages: 40,
        models: { precision: "float32", lexicon: ["es"], detectionScale: 0.75, imageText: false }
      })
    })
  )
})
