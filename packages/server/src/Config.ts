/**
 * The server's configuration: the one module that names environment variables. Values are read with effect's
 * `Config` (tests pass their own `ConfigProvider`); each adapter owns its options' defaults and ranges, and the
 * settings carry only what the operator set for them (`undefined`: the adapter's default). An invalid value fails
 * `load` with one `InvalidSettings` message naming the variable and the form it expects.
 */
import * as Path from "node:path"
import { Auth, Http, WebhookSender } from "@legible/adapters-http"
import * as Provider from "@legible/adapters-llm/Provider"
import { Database, SqlCatalogStore } from "@legible/adapters-storage"
import { Archive, Checks, Retry, Worker } from "@legible/core"
import { OnnxReader } from "@legible/ocr-onnx"
import { Config, ConfigProvider, Effect, Option, Redacted, Schema } from "effect"
import type { LogLevel } from "effect/LogLevel"

/** The spec's default model, used where OpenAI is configured and `LEGIBLE_DEFAULT_MODEL` is not set. */
export const OPENAI_DEFAULT_MODEL = Http.DEFAULT_MODEL
/** The default model where Anthropic is the only provider configured. */
export const ANTHROPIC_DEFAULT_MODEL = Provider.ANTHROPIC_DEFAULT_MODEL
/** The default model with no provider configured: deterministic local rules. */
export const LOCAL_MODEL = Provider.LOCAL_MODEL

/** Where the embedded database and the generated JWT secret live by default. */
export const DEFAULT_DATA_DIR = "./.legible-data"

/** How JWTs are verified: a configured secret, a secret generated in the data dir (embedded only), or a JWKS. */
export type JwtSettings =
  | {
      readonly _tag: "Secret"
      readonly secret: Redacted.Redacted<string>
      readonly issuer: string | undefined
      readonly audience: string | undefined
    }
  | { readonly _tag: "Generated"; readonly issuer: string | undefined; readonly audience: string | undefined }
  | { readonly _tag: "Jwks"; readonly url: string; readonly issuer: string; readonly audience: string }

/** A configured LLM provider. */
export interface ProviderSettings {
  readonly apiKey: Redacted.Redacted<string>
  readonly baseUrl: string | undefined
}

/** What the webhook endpoints and dispatchers get from `LEGIBLE_WEBHOOKS_*`; unset members take the defaults. */
export interface WebhookSettings {
  readonly allowPrivate: boolean
  readonly allowHttp: boolean
  readonly timeoutMs: number | undefined
  readonly scheduleMs: ReadonlyArray<number> | undefined
  readonly rotationOverlapMs: number | undefined
  readonly disableAfterMs: number | undefined
  readonly concurrency: number | undefined
}

/** Every setting of the server. Adapter options left `undefined` take the adapter's default. */
export interface Settings {
  readonly host: string
  readonly port: number
  /** Absolute. */
  readonly dataDir: string
  /** PostgreSQL; `undefined` means embedded PGlite in `dataDir`. */
  readonly databaseUrl: Redacted.Redacted<string> | undefined
  readonly databaseMaxConnections: number | undefined
  /** Absolute; `undefined` keeps documents in the database. */
  readonly documentsDir: string | undefined
  readonly jwt: JwtSettings
  readonly anthropic: ProviderSettings | undefined
  readonly openai: ProviderSettings | undefined
  readonly defaultModel: string
  readonly llm: {
    readonly timeoutMs: number | undefined
    readonly maxAttempts: number | undefined
    readonly concurrency: number | undefined
  }
  readonly maxBodyBytes: number | undefined
  readonly worker: {
    readonly concurrency: number | undefined
    readonly leaseMs: number | undefined
    readonly maxAttempts: number | undefined
    readonly pollMs: number | undefined
    /** Dates before it fail their plausibility check (`Checks.DEFAULT_DATE_FLOOR` when unset). */
    readonly dateFloor: string | undefined
  }
  readonly shutdownGraceSeconds: number
  readonly ocr: {
    readonly workers: number | undefined
    readonly pageTimeoutMs: number | undefined
    readonly maxPages: number | undefined
    readonly precision: typeof OnnxReader.Precision.Type | undefined
    /** The word lists that check the OCR's diacritics; `[]`: none. */
    readonly lexicon: ReadonlyArray<OnnxReader.LexiconLanguage> | undefined
    readonly detectionScale: number | undefined
    /** Whether the text in the images of text-layer pages is read by OCR. */
    readonly imageText: boolean | undefined
  }
  readonly catalogIndex: { readonly minRecords: number | undefined; readonly cacheBytes: number | undefined }
  readonly retentionDays: number | undefined
  /** How long `Idempotency-Key`s are kept, in milliseconds (the HTTP layer's default of 24 h when unset). */
  readonly idempotencyRetentionMs: number | undefined
  /** Webhooks (`LEGIBLE_WEBHOOKS_*`): the address checks, the attempt timeout, the schedule, rotation, disabling. */
  readonly webhooks: WebhookSettings
  readonly logLevel: LogLevel
  readonly logFormat: "json" | "pretty"
}

/** The configuration cannot be used: the message names the variable and what is wrong. */
export class InvalidSettings extends Schema.TaggedError<InvalidSettings>()("InvalidSettings", {
  message: Schema.String
}) {}

/**
 * The process environment as the settings read it: values trimmed, and an empty value counts as unset (as in a
 * compose file's `LEGIBLE_X=`).
 */
export const fromEnv = (env: Record<string, string | undefined>): ConfigProvider.ConfigProvider =>
  ConfigProvider.fromEnv({
    env: Object.fromEntries(
      Object.entries(env).flatMap(([name, value]) => {
        const trimmed = value?.trim() ?? ""
        return trimmed.length === 0 ? [] : [[name, trimmed]]
      })
    )
  })

const optional = <A>(config: Config.Config<A>): Config.Config<A | undefined> =>
  Config.option(config).pipe(Config.map(Option.getOrUndefined))

// The unit is the variable's: the adapter's range is on bytes (SqlCatalogStore.CacheBytes: any count from 0).
const Megabytes = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

const Seconds = Schema.Finite.check(Schema.isGreaterThan(0, { message: "Expected a number of seconds above 0" }))

// A `*_SECONDS` variable, as the milliseconds the adapters and the worker take.
const millis = (name: string) =>
  optional(Config.schema(Seconds, name)).pipe(
    Config.map((seconds) => (seconds === undefined ? undefined : seconds * 1000))
  )

const HttpUrl = Schema.String.check(
  Schema.makeFilter((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    message: "Expected an http(s) URL"
  })
)

const PostgresUrl = Schema.Redacted(
  Schema.String.check(
    Schema.isPattern(/^postgres(ql)?:\/\//, { message: "Expected a postgres:// or postgresql:// URL" })
  )
)

// Comma-separated seconds, e.g. `5,300,1800`: the waits after each failed attempt (Standard Webhooks' by default).
const scheduleParts = (raw: string): ReadonlyArray<number> => raw.split(",").map((part) => Number(part.trim()))

const Schedule = Schema.String.check(
  Schema.makeFilter(
    (raw) => {
      const parts = scheduleParts(raw)
      return parts.length <= 20 && parts.every((seconds) => Number.isFinite(seconds) && seconds > 0)
    },
    { message: "Expected 1 to 20 comma-separated numbers of seconds above 0, e.g. 5,300,1800" }
  )
)

const LANGUAGES = OnnxReader.LexiconLanguage.literals

const Lexicon = Schema.Union([
  Schema.Literal("none"),
  Schema.String.check(
    Schema.makeFilter(
      (raw) => raw.split(",").every((code) => LANGUAGES.some((language) => language === code.trim().toLowerCase())),
      { message: `Expected "none" or a comma-separated list of ${LANGUAGES.join(", ")}` }
    )
  )
])

// In the reader's order, each once.
const lexiconLanguages = (raw: string): ReadonlyArray<OnnxReader.LexiconLanguage> => {
  const codes = raw.split(",").map((code) => code.trim().toLowerCase())
  return raw === "none" ? [] : LANGUAGES.filter((language) => codes.includes(language))
}

/** Every variable, decoded and checked on its own (unset: `undefined`). */
export const variables = Config.all({
  host: optional(Config.NonEmptyString("LEGIBLE_HOST")),
  port: optional(Config.Port("LEGIBLE_PORT")),
  dataDir: optional(Config.String("LEGIBLE_DATA_DIR")),
  databaseUrl: optional(Config.schema(PostgresUrl, "LEGIBLE_DATABASE_URL")),
  databaseMaxConnections: optional(Config.schema(Database.MaxConnections, "LEGIBLE_DATABASE_MAX_CONNECTIONS")),
  documentsDir: optional(Config.String("LEGIBLE_DOCUMENTS_DIR")),
  jwtSecret: optional(Config.Redacted("LEGIBLE_JWT_SECRET")),
  jwksUrl: optional(Config.schema(HttpUrl, "LEGIBLE_JWT_JWKS_URL")),
  jwtIssuer: optional(Config.String("LEGIBLE_JWT_ISSUER")),
  jwtAudience: optional(Config.String("LEGIBLE_JWT_AUDIENCE")),
  anthropicApiKey: optional(Config.Redacted("LEGIBLE_ANTHROPIC_API_KEY")),
  anthropicBaseUrl: optional(Config.schema(HttpUrl, "LEGIBLE_ANTHROPIC_BASE_URL")),
  openaiApiKey: optional(Config.Redacted("LEGIBLE_OPENAI_API_KEY")),
  openaiBaseUrl: optional(Config.schema(HttpUrl, "LEGIBLE_OPENAI_BASE_URL")),
  defaultModel: optional(Config.String("LEGIBLE_DEFAULT_MODEL")),
  llmTimeoutMs: millis("LEGIBLE_LLM_TIMEOUT_SECONDS"),
  llmMaxAttempts: optional(Config.schema(Provider.MaxAttempts, "LEGIBLE_LLM_MAX_ATTEMPTS")),
  llmConcurrency: optional(Config.schema(Provider.Concurrency, "LEGIBLE_LLM_CONCURRENCY")),
  maxBodyBytes: optional(Config.schema(Http.BodyLimit, "LEGIBLE_MAX_BODY_BYTES")),
  workerConcurrency: optional(Config.schema(Worker.Concurrency, "LEGIBLE_WORKER_CONCURRENCY")),
  leaseMs: millis("LEGIBLE_LEASE_SECONDS"),
  maxAttempts: optional(Config.schema(Retry.MaxAttempts, "LEGIBLE_MAX_ATTEMPTS")),
  pollMs: millis("LEGIBLE_WORKER_POLL_SECONDS"),
  dateFloor: optional(Config.schema(Checks.DateFloor, "LEGIBLE_DATE_FLOOR")),
  shutdownGraceSeconds: Config.schema(
    Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0)),
    "LEGIBLE_SHUTDOWN_GRACE_SECONDS"
  ).pipe(Config.withDefault(30)),
  ocrWorkers: optional(Config.schema(OnnxReader.PoolSize, "LEGIBLE_OCR_WORKERS")),
  ocrPageTimeoutMs: millis("LEGIBLE_OCR_PAGE_TIMEOUT_SECONDS"),
  ocrMaxPages: optional(Config.schema(OnnxReader.MaxPages, "LEGIBLE_OCR_MAX_PAGES")),
  ocrPrecision: optional(Config.schema(OnnxReader.Precision, "LEGIBLE_OCR_PRECISION")),
  ocrLexicon: optional(Config.schema(Lexicon, "LEGIBLE_OCR_LEXICON").pipe(Config.map(lexiconLanguages))),
  ocrDetectionScale: optional(Config.schema(OnnxReader.DetectionScale, "LEGIBLE_OCR_DETECTION_SCALE")),
  ocrImageText: optional(Config.Boolean("LEGIBLE_OCR_IMAGE_TEXT")),
  catalogIndexMinRecords: optional(Config.schema(SqlCatalogStore.MinRecords, "LEGIBLE_CATALOG_INDEX_MIN_RECORDS")),
  catalogIndexCacheMb: optional(Config.schema(Megabytes, "LEGIBLE_CATALOG_INDEX_CACHE_MB")),
  retentionDays: optional(Config.schema(Archive.RetentionDays, "LEGIBLE_RETENTION_DAYS")),
  idempotencyRetentionMs: millis("LEGIBLE_IDEMPOTENCY_RETENTION_SECONDS"),
  webhooksAllowPrivate: Config.Boolean("LEGIBLE_WEBHOOKS_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
  webhooksAllowHttp: Config.Boolean("LEGIBLE_WEBHOOKS_ALLOW_HTTP").pipe(Config.withDefault(false)),
  webhooksTimeoutSeconds: optional(Config.schema(WebhookSender.TimeoutSeconds, "LEGIBLE_WEBHOOKS_TIMEOUT_SECONDS")),
  webhooksScheduleMs: optional(
    Config.schema(Schedule, "LEGIBLE_WEBHOOKS_SCHEDULE_SECONDS").pipe(
      Config.map((raw) => scheduleParts(raw).map((seconds) => Math.round(seconds * 1000)))
    )
  ),
  webhooksRotationOverlapMs: millis("LEGIBLE_WEBHOOKS_ROTATION_OVERLAP_SECONDS"),
  webhooksDisableAfterMs: millis("LEGIBLE_WEBHOOKS_DISABLE_AFTER_SECONDS"),
  webhooksConcurrency: optional(Config.schema(Worker.Concurrency, "LEGIBLE_WEBHOOKS_CONCURRENCY")),
  logLevel: Config.LogLevel("LEGIBLE_LOG_LEVEL").pipe(Config.withDefault("Info")),
  logFormat: Config.Literals(["json", "pretty"], "LEGIBLE_LOG_FORMAT").pipe(Config.withDefault("json"))
})

/** The values `variables` reads. */
export type Variables = Config.Success<typeof variables>

const jwtSettings = (v: Variables, embedded: boolean): JwtSettings | InvalidSettings => {
  const invalid = (message: string) => new InvalidSettings({ message })
  if (v.jwksUrl !== undefined) {
    if (v.jwtSecret !== undefined) {
      return invalid("set either LEGIBLE_JWT_SECRET (HS256) or LEGIBLE_JWT_JWKS_URL (RS256/ES256/EdDSA), not both")
    }
    if (v.jwtIssuer === undefined || v.jwtAudience === undefined) {
      return invalid(
        "LEGIBLE_JWT_JWKS_URL needs LEGIBLE_JWT_ISSUER and LEGIBLE_JWT_AUDIENCE (the expected iss and aud)"
      )
    }
    return { _tag: "Jwks", url: v.jwksUrl, issuer: v.jwtIssuer, audience: v.jwtAudience }
  }
  if (v.jwtSecret !== undefined) {
    const bytes = Buffer.byteLength(Redacted.value(v.jwtSecret), "utf8")
    if (bytes < Auth.MIN_SECRET_BYTES) {
      return invalid(
        `LEGIBLE_JWT_SECRET must be at least ${Auth.MIN_SECRET_BYTES} bytes (got ${bytes}); e.g. \`openssl rand -base64 48\``
      )
    }
    return { _tag: "Secret", secret: v.jwtSecret, issuer: v.jwtIssuer, audience: v.jwtAudience }
  }
  if (!embedded) {
    return invalid(
      "LEGIBLE_JWT_SECRET is required with PostgreSQL (LEGIBLE_DATABASE_URL): every api process must verify " +
        "tokens with the same secret. Generate one with `openssl rand -base64 48`, or set LEGIBLE_JWT_JWKS_URL."
    )
  }
  return { _tag: "Generated", issuer: v.jwtIssuer, audience: v.jwtAudience }
}

const provider = (apiKey: Redacted.Redacted<string> | undefined, baseUrl: string | undefined) =>
  apiKey === undefined ? undefined : { apiKey, baseUrl }

/**
 * The model of submissions that name none (DESIGN.md): `LEGIBLE_DEFAULT_MODEL`, else the spec's `gpt-4o-mini` where
 * OpenAI is configured, else Anthropic's default where it is, else `local`.
 */
export const defaultModel = (v: Pick<Variables, "defaultModel" | "openaiApiKey" | "anthropicApiKey">): string =>
  v.defaultModel ??
  (v.openaiApiKey !== undefined
    ? OPENAI_DEFAULT_MODEL
    : v.anthropicApiKey !== undefined
      ? ANTHROPIC_DEFAULT_MODEL
      : LOCAL_MODEL)

/** Applies the server's own defaults and the checks across variables; `cwd` resolves relative directories. */
export const resolve = (v: Variables, cwd: string): Settings | InvalidSettings => {
  const embedded = v.databaseUrl === undefined
  const jwt = jwtSettings(v, embedded)
  if (jwt instanceof InvalidSettings) return jwt
  return {
    host: v.host ?? "127.0.0.1",
    port: v.port ?? 8080,
    dataDir: Path.resolve(cwd, v.dataDir ?? DEFAULT_DATA_DIR),
    databaseUrl: v.databaseUrl,
    databaseMaxConnections: v.databaseMaxConnections,
    documentsDir: v.documentsDir === undefined ? undefined : Path.resolve(cwd, v.documentsDir),
    jwt,
    anthropic: provider(v.anthropicApiKey, v.anthropicBaseUrl),
    openai: provider(v.openaiApiKey, v.openaiBaseUrl),
    defaultModel: defaultModel(v),
    llm: { timeoutMs: v.llmTimeoutMs, maxAttempts: v.llmMaxAttempts, concurrency: v.llmConcurrency },
    maxBodyBytes: v.maxBodyBytes,
    worker: {
      concurrency: v.workerConcurrency,
      leaseMs: v.leaseMs,
      maxAttempts: v.maxAttempts,
      pollMs: v.pollMs,
      dateFloor: v.dateFloor
    },
    shutdownGraceSeconds: v.shutdownGraceSeconds,
    ocr: {
      workers: v.ocrWorkers,
      pageTimeoutMs: v.ocrPageTimeoutMs,
      maxPages: v.ocrMaxPages,
      precision: v.ocrPrecision,
      lexicon: v.ocrLexicon,
      detectionScale: v.ocrDetectionScale,
      imageText: v.ocrImageText
    },
    catalogIndex: {
      minRecords: v.catalogIndexMinRecords,
      cacheBytes: v.catalogIndexCacheMb === undefined ? undefined : v.catalogIndexCacheMb * 1024 * 1024
    },
    retentionDays: v.retentionDays,
    idempotencyRetentionMs: v.idempotencyRetentionMs,
    webhooks: {
      allowPrivate: v.webhooksAllowPrivate,
      allowHttp: v.webhooksAllowHttp,
      timeoutMs: v.webhooksTimeoutSeconds === undefined ? undefined : v.webhooksTimeoutSeconds * 1000,
      scheduleMs: v.webhooksScheduleMs,
      rotationOverlapMs: v.webhooksRotationOverlapMs,
      disableAfterMs: v.webhooksDisableAfterMs,
      concurrency: v.webhooksConcurrency
    },
    logLevel: v.logLevel,
    logFormat: v.logFormat
  }
}

// Never echoed in a message: the secrets.
const SECRETS = new Set([
  "LEGIBLE_DATABASE_URL",
  "LEGIBLE_JWT_SECRET",
  "LEGIBLE_ANTHROPIC_API_KEY",
  "LEGIBLE_OPENAI_API_KEY"
])

// effect's "Expected a value between 2 and 1000\n  at ["LEGIBLE_X"]" becomes
// "LEGIBLE_X: Expected a value between 2 and 1000 (got "1")".
const describe = (error: Config.ConfigError, provider: ConfigProvider.ConfigProvider) =>
  Effect.gen(function* () {
    const lines = error.cause.message.split("\n").map((line) => line.trim())
    const name = lines.find((line) => line.startsWith("at "))?.match(/"([A-Z0-9_]+)"/)?.[1]
    const what = lines.filter((line) => line.length > 0 && !line.startsWith("at ")).join("; ")
    if (name === undefined) return `configuration: ${what}`
    const node = SECRETS.has(name) ? undefined : yield* Effect.orElseSucceed(provider.load([name]), () => undefined)
    return node?._tag === "Value" ? `${name}: ${what} (got ${JSON.stringify(node.value)})` : `${name}: ${what}`
  })

/** Reads every variable from the current `ConfigProvider` and resolves the settings against the working directory. */
export const load: Effect.Effect<Settings, InvalidSettings> = Effect.gen(function* () {
  const provider = yield* ConfigProvider.ConfigProvider
  const raw = yield* variables
    .parse(provider)
    .pipe(
      Effect.catch((error) => Effect.flatMap(describe(error, provider), (message) => new InvalidSettings({ message })))
    )
  const settings = resolve(raw, process.cwd())
  return settings instanceof InvalidSettings ? yield* settings : settings
})

/** Whether the settings use the embedded PGlite database. */
export const isEmbedded = (settings: Settings): boolean => settings.databaseUrl === undefined
