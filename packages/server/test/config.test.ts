/** `Config`: the server's defaults, every check and the default model, read through a `ConfigProvider` (no process env). */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import * as Config from "../src/Config.js"

const load = (env: Record<string, string>) =>
  Config.load.pipe(Effect.provideService(ConfigProvider.ConfigProvider, Config.fromEnv(env)))

const SECRET = "a-secret-that-is-at-least-thirty-two-bytes-long"

describe("Config", () => {
  it.effect("embedded defaults: loopback:8080, PGlite in ./.legible-data, a generated secret, the local model", () =>
    Effect.gen(function* () {
      const settings = yield* load({})
      expect(settings).toEqual({
        host: "127.0.0.1",
        port: 8080,
        dataDir: `${process.cwd()}/.legible-data`,
        databaseUrl: undefined,
        databaseMaxConnections: undefined,
        documentsDir: undefined,
        jwt: { _tag: "Generated", issuer: undefined, audience: undefined },
        anthropic: undefined,
        openai: undefined,
        defaultModel: "local",
        llm: { timeoutMs: undefined, maxAttempts: undefined, concurrency: undefined },
        maxBodyBytes: undefined,
        worker: { concurrency: undefined, leaseMs: undefined, maxAttempts: undefined, pollMs: undefined },
        shutdownGraceSeconds: 30,
        ocr: {
          workers: undefined,
          pageTimeoutMs: undefined,
          maxPages: undefined,
          precision: undefined,
          lexicon: undefined,
          detectionScale: undefined,
          imageText: undefined
        },
        catalogIndex: { minRecords: undefined, cacheBytes: undefined },
        retentionDays: undefined,
        webhooks: {
          allowPrivate: false,
          allowHttp: false,
          timeoutMs: undefined,
          scheduleMs: undefined,
          rotationOverlapMs: undefined,
          disableAfterMs: undefined,
          concurrency: undefined
        },
        logLevel: "Info",
        logFormat: "json"
      })
      expect(Config.isEmbedded(settings)).toBe(true)
    })
  )

  it.effect("reads every variable; empty ones count as unset; secrets stay redacted", () =>
    Effect.gen(function* () {
      const settings = yield* load({
        LEGIBLE_HOST: "0.0.0.0",
        LEGIBLE_PORT: "9000",
        LEGIBLE_DATA_DIR: "/var/lib/legible",
        LEGIBLE_DATABASE_URL: "postgres://u:p@db:5432/legible",
        LEGIBLE_DATABASE_MAX_CONNECTIONS: "20",
        LEGIBLE_DOCUMENTS_DIR: "docs",
        LEGIBLE_JWT_SECRET: SECRET,
        LEGIBLE_JWT_ISSUER: "",
        LEGIBLE_ANTHROPIC_API_KEY: "sk-ant",
        LEGIBLE_OPENAI_API_KEY: "sk-oai",
        LEGIBLE_OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
        LEGIBLE_WORKER_CONCURRENCY: "8",
        LEGIBLE_LEASE_SECONDS: "2.5",
        LEGIBLE_MAX_ATTEMPTS: "5",
        LEGIBLE_DATE_FLOOR: "2000-01-01",
        LEGIBLE_OCR_WORKERS: "3",
        LEGIBLE_OCR_PRECISION: "int8",
        LEGIBLE_OCR_LEXICON: " EN ",
        LEGIBLE_OCR_DETECTION_SCALE: "0.75",
        LEGIBLE_OCR_IMAGE_TEXT: "false",
        LEGIBLE_CATALOG_INDEX_MIN_RECORDS: "20000",
        LEGIBLE_CATALOG_INDEX_CACHE_MB: "0",
        LEGIBLE_RETENTION_DAYS: "90",
        LEGIBLE_IDEMPOTENCY_RETENTION_SECONDS: "172800",
        LEGIBLE_LOG_LEVEL: "Debug",
        LEGIBLE_SHUTDOWN_GRACE_SECONDS: "10",
        LEGIBLE_MAX_BODY_BYTES: "1048576"
      })
      expect(settings).toMatchObject({
        host: "0.0.0.0",
        port: 9000,
        dataDir: "/var/lib/legible",
        databaseMaxConnections: 20,
        documentsDir: `${process.cwd()}/docs`,
        jwt: { _tag: "Secret", issuer: undefined, audience: undefined },
        openai: { baseUrl: "http://127.0.0.1:11434/v1" },
        anthropic: { baseUrl: undefined },
        defaultModel: "gpt-4o-mini",
        maxBodyBytes: 1048576,
        worker: { concurrency: 8, leaseMs: 2_500, maxAttempts: 5, pollMs: undefined, dateFloor: "2000-01-01" },
        shutdownGraceSeconds: 10,
        ocr: { workers: 3, precision: "int8", lexicon: ["en"], detectionScale: 0.75, imageText: false },
        catalogIndex: { minRecords: 20_000, cacheBytes: 0 },
        retentionDays: 90,
        idempotencyRetentionMs: 172_800_000,
        logLevel: "Debug"
      })
      expect(Redacted.value(settings.databaseUrl!)).toBe("postgres://u:p@db:5432/legible")
      expect(String(settings.databaseUrl)).not.toContain("u:p")
      expect(String(settings.openai?.apiKey)).not.toContain("sk-oai")
    })
  )

  it.effect("LEGIBLE_OCR_LEXICON lists the OCR's word lists in a fixed order, or none", () =>
    Effect.gen(function* () {
      expect((yield* load({ LEGIBLE_OCR_LEXICON: "none" })).ocr.lexicon).toEqual([])
      expect((yield* load({ LEGIBLE_OCR_LEXICON: "en, es" })).ocr.lexicon).toEqual(["es", "en"])
    })
  )

  it("picks the default model as DESIGN.md says", () => {
    const key = Redacted.make("k")
    expect(Config.defaultModel({ defaultModel: undefined, openaiApiKey: key, anthropicApiKey: key })).toBe(
      "gpt-4o-mini"
    )
    expect(Config.defaultModel({ defaultModel: undefined, openaiApiKey: undefined, anthropicApiKey: key })).toBe(
      Config.ANTHROPIC_DEFAULT_MODEL
    )
    expect(Config.defaultModel({ defaultModel: undefined, openaiApiKey: undefined, anthropicApiKey: undefined })).toBe(
      "local"
    )
    expect(Config.defaultModel({ defaultModel: "claude-x", openaiApiKey: key, anthropicApiKey: undefined })).toBe(
      "claude-x"
    )
  })

  it.effect("a JWKS configuration needs issuer and audience, and excludes a secret", () =>
    Effect.gen(function* () {
      const jwks = { LEGIBLE_JWT_JWKS_URL: "https://idp.example/.well-known/jwks.json" }
      const ok = yield* load({ ...jwks, LEGIBLE_JWT_ISSUER: "https://idp.example/", LEGIBLE_JWT_AUDIENCE: "legible" })
      expect(ok.jwt).toEqual({
        _tag: "Jwks",
        url: jwks.LEGIBLE_JWT_JWKS_URL,
        issuer: "https://idp.example/",
        audience: "legible"
      })
      const both = yield* Effect.flip(
        load({ ...jwks, LEGIBLE_JWT_SECRET: SECRET, LEGIBLE_JWT_ISSUER: "i", LEGIBLE_JWT_AUDIENCE: "a" })
      )
      expect(both.message).toContain("not both")
    })
  )

  it.effect("refuses bad values with a message naming the variable, the form it expects and the value", () =>
    Effect.gen(function* () {
      const cases: Array<[Record<string, string>, string]> = [
        [{ LEGIBLE_DATABASE_URL: "postgres://db/x" }, "LEGIBLE_JWT_SECRET is required with PostgreSQL"],
        [{ LEGIBLE_PORT: "70000" }, 'LEGIBLE_PORT: Expected a value between 1 and 65535 (got "70000")'],
        [{ LEGIBLE_PORT: "-1" }, "LEGIBLE_PORT: Expected a value between 1 and 65535"],
        [{ LEGIBLE_PORT: "eighty" }, 'LEGIBLE_PORT: Expected a string representing a finite number (got "eighty")'],
        [{ LEGIBLE_WORKER_CONCURRENCY: "0" }, "LEGIBLE_WORKER_CONCURRENCY: Expected a value between 1 and 256"],
        [{ LEGIBLE_WORKER_CONCURRENCY: "2.5" }, "LEGIBLE_WORKER_CONCURRENCY: Expected an integer"],
        [{ LEGIBLE_LEASE_SECONDS: "soon" }, "LEGIBLE_LEASE_SECONDS: Expected a string representing a finite number"],
        [{ LEGIBLE_LEASE_SECONDS: "0" }, "LEGIBLE_LEASE_SECONDS: Expected a number of seconds above 0"],
        [{ LEGIBLE_JWT_SECRET: "short" }, "LEGIBLE_JWT_SECRET must be at least 32 bytes (got 5)"],
        [
          { LEGIBLE_OPENAI_API_KEY: "k", LEGIBLE_OPENAI_BASE_URL: "ftp://x" },
          "LEGIBLE_OPENAI_BASE_URL: Expected an http(s) URL"
        ],
        [{ LEGIBLE_JWT_JWKS_URL: "not a url" }, "LEGIBLE_JWT_JWKS_URL: Expected an http(s) URL"],
        [{ LEGIBLE_DATABASE_URL: "mysql://x" }, "LEGIBLE_DATABASE_URL: Expected a postgres:// or postgresql:// URL"],
        [{ LEGIBLE_RETENTION_DAYS: "0" }, "LEGIBLE_RETENTION_DAYS: Expected a value between 1 and 36500"],
        [
          { LEGIBLE_IDEMPOTENCY_RETENTION_SECONDS: "0" },
          "LEGIBLE_IDEMPOTENCY_RETENTION_SECONDS: Expected a number of seconds above 0"
        ],
        [{ LEGIBLE_DATE_FLOOR: "2000-02-30" }, "LEGIBLE_DATE_FLOOR: a date as YYYY-MM-DD"],
        [{ LEGIBLE_DATE_FLOOR: "01/01/2000" }, "LEGIBLE_DATE_FLOOR: a date as YYYY-MM-DD"],
        [{ LEGIBLE_LOG_FORMAT: "xml" }, 'LEGIBLE_LOG_FORMAT: Expected "json" | "pretty"'],
        [{ LEGIBLE_LOG_LEVEL: "loud" }, 'LEGIBLE_LOG_LEVEL: Expected "All" | "Fatal" | "Error"'],
        [{ LEGIBLE_OCR_PRECISION: "int4" }, 'LEGIBLE_OCR_PRECISION: Expected "auto" | "float32" | "int8"'],
        [
          { LEGIBLE_OCR_LEXICON: "es,ca" },
          'LEGIBLE_OCR_LEXICON: Expected "none" or a comma-separated list of es, en, pt, fr, it, de, nl'
        ],
        [{ LEGIBLE_OCR_LEXICON: "es,,en" }, "LEGIBLE_OCR_LEXICON: Expected"],
        [{ LEGIBLE_OCR_LEXICON: "none,es" }, "LEGIBLE_OCR_LEXICON: Expected"],
        [{ LEGIBLE_OCR_DETECTION_SCALE: "0.2" }, "LEGIBLE_OCR_DETECTION_SCALE: Expected a value between 0.25 and 1"],
        [{ LEGIBLE_OCR_DETECTION_SCALE: "2" }, "LEGIBLE_OCR_DETECTION_SCALE: Expected a value between 0.25 and 1"],
        [{ LEGIBLE_OCR_IMAGE_TEXT: "maybe" }, "LEGIBLE_OCR_IMAGE_TEXT"],
        [{ LEGIBLE_MAX_BODY_BYTES: "10" }, "LEGIBLE_MAX_BODY_BYTES: Expected a value between 1024 and 2147483648"]
      ]
      for (const [env, message] of cases) {
        const error = yield* Effect.flip(load(env))
        expect(error._tag).toBe("InvalidSettings")
        expect(error.message, JSON.stringify(env)).toContain(message)
      }
    })
  )

  it.effect("never echoes a secret in a message", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(load({ LEGIBLE_DATABASE_URL: "mysql://user:hunter2@db/x" }))
      expect(error.message).toContain("LEGIBLE_DATABASE_URL")
      expect(error.message).not.toContain("hunter2")
    })
  )

  it.effect("reads the LEGIBLE_WEBHOOKS_* variables and refuses bad ones", () =>
    Effect.gen(function* () {
      const settings = yield* load({
        LEGIBLE_WEBHOOKS_ALLOW_PRIVATE: "true",
        LEGIBLE_WEBHOOKS_ALLOW_HTTP: "true",
        LEGIBLE_WEBHOOKS_TIMEOUT_SECONDS: "2",
        LEGIBLE_WEBHOOKS_SCHEDULE_SECONDS: "0.2, 0.5,1",
        LEGIBLE_WEBHOOKS_DISABLE_AFTER_SECONDS: "60",
        LEGIBLE_WEBHOOKS_ROTATION_OVERLAP_SECONDS: "3600",
        LEGIBLE_WEBHOOKS_CONCURRENCY: "16"
      })
      expect(settings.webhooks).toEqual({
        allowPrivate: true,
        allowHttp: true,
        timeoutMs: 2_000,
        scheduleMs: [200, 500, 1_000],
        rotationOverlapMs: 3_600_000,
        disableAfterMs: 60_000,
        concurrency: 16
      })
      const cases: ReadonlyArray<[Record<string, string>, string]> = [
        [{ LEGIBLE_WEBHOOKS_SCHEDULE_SECONDS: "5,,30" }, "LEGIBLE_WEBHOOKS_SCHEDULE_SECONDS: Expected 1 to 20"],
        [{ LEGIBLE_WEBHOOKS_SCHEDULE_SECONDS: "5,-1" }, "LEGIBLE_WEBHOOKS_SCHEDULE_SECONDS: Expected 1 to 20"],
        [
          { LEGIBLE_WEBHOOKS_TIMEOUT_SECONDS: "0" },
          "LEGIBLE_WEBHOOKS_TIMEOUT_SECONDS: Expected a value between 1 and 60"
        ],
        [{ LEGIBLE_WEBHOOKS_ALLOW_PRIVATE: "maybe" }, "LEGIBLE_WEBHOOKS_ALLOW_PRIVATE"]
      ]
      for (const [env, message] of cases) {
        const error = yield* Effect.flip(load(env))
        expect(error.message, JSON.stringify(env)).toContain(message)
      }
    })
  )
})
