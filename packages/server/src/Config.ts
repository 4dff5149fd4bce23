/**
 * The server's configuration: the ONLY module that names environment variables. Everything is read through effect
 * `Config` (so tests can pass a `ConfigProvider`), secrets as `Config.Redacted`, and checked together by `load`,
 * which fails with one `InvalidSettings` message naming the variable to fix. An empty variable counts as unset.
 */
import * as Path from "node:path"
import { Config, Effect, Option, Redacted, Schema } from "effect"
import type { LogLevel } from "effect/LogLevel"

/** The spec's default model, used where OpenAI is configured and `LEGIBLE_DEFAULT_MODEL` is not set. */
export const OPENAI_DEFAULT_MODEL = "gpt-4o-mini"
/** The default model where Anthropic is the only provider configured. */
export const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-5"
/** The default model with no provider configured: deterministic local rules. */
export const LOCAL_MODEL = "local"

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

/** Every setting of the server, defaults applied and checked. */
export interface Settings {
  readonly host: string
  readonly port: number
  /** Absolute. */
  readonly dataDir: string
  /** PostgreSQL; `undefined` means embedded PGlite in `dataDir`. */
  readonly databaseUrl: Redacted.Redacted<string> | undefined
  readonly databaseMaxConnections: number
  /** Absolute; `undefined` keeps documents in the database. */
  readonly documentsDir: string | undefined
  readonly jwt: JwtSettings
  readonly anthropic: ProviderSettings | undefined
  readonly openai: ProviderSettings | undefined
  readonly defaultModel: string
  readonly llm: { readonly timeoutSeconds: number; readonly maxAttempts: number; readonly concurrency: number }
  readonly maxBodyBytes: number
  readonly worker: {
    readonly concurrency: number
    readonly leaseSeconds: number
    readonly maxAttempts: number
    readonly pollSeconds: number
    readonly shutdownGraceSeconds: number
  }
  readonly ocr: {
    readonly workers: number | undefined
    readonly pageTimeoutSeconds: number
    readonly maxPages: number
    /** The OCR recognizer's precision (`OnnxReader` `models.precision`). */
    readonly precision: "float32" | "int8" | "auto"
    /** The word lists that check the OCR's diacritics (`OnnxReader` `models.lexicon`); empty: none. */
    readonly lexicon: ReadonlyArray<"es" | "en">
    /** The text detector's input size relative to the page render (`OnnxReader` `models.detectionScale`). */
    readonly detectionScale: number
  }
  /** When catalogs are searched with an in-process trigram index, and how many bytes those indexes may hold. */
  readonly catalogIndex: { readonly minRecords: number; readonly cacheBytes: number }
  readonly retentionDays: number | undefined
  readonly logLevel: LogLevel
  readonly logFormat: "json" | "pretty"
}

/** The configuration cannot be used: the message names the variable and what is wrong. */
export class InvalidSettings extends Schema.TaggedError<InvalidSettings>()("InvalidSettings", {
  message: Schema.String
}) {}

const text = (name: string): Config.Config<string | undefined> =>
  Config.option(Config.String(name)).pipe(
    Config.map((value) => (Option.isSome(value) && value.value.trim().length > 0 ? value.value.trim() : undefined))
  )

const secret = (name: string): Config.Config<Redacted.Redacted<string> | undefined> =>
  Config.option(Config.Redacted(name)).pipe(
    Config.map((value) =>
      Option.isSome(value) && Redacted.value(value.value).trim().length > 0
        ? Redacted.make(Redacted.value(value.value).trim(), { label: name })
        : undefined
    )
  )

/** The raw values of every variable (unset: `undefined`), before defaults and checks. */
export const variables = Config.all({
  host: text("LEGIBLE_HOST"),
  port: text("LEGIBLE_PORT"),
  dataDir: text("LEGIBLE_DATA_DIR"),
  databaseUrl: secret("LEGIBLE_DATABASE_URL"),
  databaseMaxConnections: text("LEGIBLE_DATABASE_MAX_CONNECTIONS"),
  documentsDir: text("LEGIBLE_DOCUMENTS_DIR"),
  jwtSecret: secret("LEGIBLE_JWT_SECRET"),
  jwksUrl: text("LEGIBLE_JWT_JWKS_URL"),
  jwtIssuer: text("LEGIBLE_JWT_ISSUER"),
  jwtAudience: text("LEGIBLE_JWT_AUDIENCE"),
  anthropicApiKey: secret("LEGIBLE_ANTHROPIC_API_KEY"),
  anthropicBaseUrl: text("LEGIBLE_ANTHROPIC_BASE_URL"),
  openaiApiKey: secret("LEGIBLE_OPENAI_API_KEY"),
  openaiBaseUrl: text("LEGIBLE_OPENAI_BASE_URL"),
  defaultModel: text("LEGIBLE_DEFAULT_MODEL"),
  llmTimeoutSeconds: text("LEGIBLE_LLM_TIMEOUT_SECONDS"),
  llmMaxAttempts: text("LEGIBLE_LLM_MAX_ATTEMPTS"),
  llmConcurrency: text("LEGIBLE_LLM_CONCURRENCY"),
  maxBodyBytes: text("LEGIBLE_MAX_BODY_BYTES"),
  workerConcurrency: text("LEGIBLE_WORKER_CONCURRENCY"),
  leaseSeconds: text("LEGIBLE_LEASE_SECONDS"),
  maxAttempts: text("LEGIBLE_MAX_ATTEMPTS"),
  pollSeconds: text("LEGIBLE_WORKER_POLL_SECONDS"),
  shutdownGraceSeconds: text("LEGIBLE_SHUTDOWN_GRACE_SECONDS"),
  ocrWorkers: text("LEGIBLE_OCR_WORKERS"),
  ocrPageTimeoutSeconds: text("LEGIBLE_OCR_PAGE_TIMEOUT_SECONDS"),
  ocrMaxPages: text("LEGIBLE_OCR_MAX_PAGES"),
  ocrPrecision: text("LEGIBLE_OCR_PRECISION"),
  ocrLexicon: text("LEGIBLE_OCR_LEXICON"),
  ocrDetectionScale: text("LEGIBLE_OCR_DETECTION_SCALE"),
  catalogIndexMinRecords: text("LEGIBLE_CATALOG_INDEX_MIN_RECORDS"),
  catalogIndexCacheMb: text("LEGIBLE_CATALOG_INDEX_CACHE_MB"),
  retentionDays: text("LEGIBLE_RETENTION_DAYS"),
  logLevel: text("LEGIBLE_LOG_LEVEL"),
  logFormat: text("LEGIBLE_LOG_FORMAT")
})

/** The raw values `variables` reads. */
export type Variables = Config.Success<typeof variables>

class Problem extends Error {}

const fail = (message: string): never => {
  throw new Problem(message)
}

const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number): number => {
  if (raw === undefined) return fallback
  if (!/^\d+$/.test(raw)) return fail(`${name} must be a whole number (got "${raw}")`)
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    return fail(`${name} must be between ${min} and ${max} (got ${raw})`)
  }
  return value
}

const number = (name: string, raw: string | undefined, fallback: number, min: number, max: number): number => {
  if (raw === undefined) return fallback
  const value = Number(raw)
  if (!/^\d+(\.\d+)?$/.test(raw) || value < min || value > max) {
    return fail(`${name} must be a number between ${min} and ${max} (got "${raw}")`)
  }
  return value
}

const httpUrl = (name: string, raw: string | undefined): string | undefined => {
  if (raw === undefined) return undefined
  try {
    const url = new URL(raw)
    if (url.protocol === "http:" || url.protocol === "https:") return raw
  } catch {
    // reported below
  }
  return fail(`${name} must be an http(s) URL (got "${raw}")`)
}

const OCR_LEXICON_LANGUAGES = ["es", "en"] as const

/** `es,en` (the default), a subset, or `none`: the word lists that check the OCR's diacritics. */
const ocrLexicon = (raw: string | undefined): ReadonlyArray<"es" | "en"> => {
  if (raw === undefined) return OCR_LEXICON_LANGUAGES
  const codes = raw.split(",").map((code) => code.trim().toLowerCase())
  if (codes.length === 1 && codes[0] === "none") return []
  const known = codes.filter((code) => OCR_LEXICON_LANGUAGES.some((language) => language === code))
  return known.length === codes.length
    ? OCR_LEXICON_LANGUAGES.filter((language) => known.includes(language))
    : fail(`LEGIBLE_OCR_LEXICON must be none or a comma-separated list of es, en (got "${raw}")`)
}

const LOG_LEVELS: ReadonlyArray<LogLevel> = ["All", "Fatal", "Error", "Warn", "Info", "Debug", "Trace", "None"]

const logLevel = (raw: string | undefined): LogLevel => {
  if (raw === undefined) return "Info"
  const found = LOG_LEVELS.find((level) => level.toLowerCase() === raw.toLowerCase())
  return found ?? fail(`LEGIBLE_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${raw}")`)
}

const jwtSettings = (v: Variables, embedded: boolean): JwtSettings => {
  if (v.jwksUrl !== undefined) {
    if (v.jwtSecret !== undefined) {
      return fail("set either LEGIBLE_JWT_SECRET (HS256) or LEGIBLE_JWT_JWKS_URL (RS256/ES256/EdDSA), not both")
    }
    const url = httpUrl("LEGIBLE_JWT_JWKS_URL", v.jwksUrl)!
    if (v.jwtIssuer === undefined || v.jwtAudience === undefined) {
      return fail("LEGIBLE_JWT_JWKS_URL needs LEGIBLE_JWT_ISSUER and LEGIBLE_JWT_AUDIENCE (the expected iss and aud)")
    }
    return { _tag: "Jwks", url, issuer: v.jwtIssuer, audience: v.jwtAudience }
  }
  if (v.jwtSecret !== undefined) {
    const bytes = Buffer.byteLength(Redacted.value(v.jwtSecret), "utf8")
    if (bytes < 32) {
      return fail(`LEGIBLE_JWT_SECRET must be at least 32 bytes (got ${bytes}); e.g. \`openssl rand -base64 48\``)
    }
    return { _tag: "Secret", secret: v.jwtSecret, issuer: v.jwtIssuer, audience: v.jwtAudience }
  }
  if (!embedded) {
    return fail(
      "LEGIBLE_JWT_SECRET is required with PostgreSQL (LEGIBLE_DATABASE_URL): every api process must verify " +
        "tokens with the same secret. Generate one with `openssl rand -base64 48`, or set LEGIBLE_JWT_JWKS_URL."
    )
  }
  return { _tag: "Generated", issuer: v.jwtIssuer, audience: v.jwtAudience }
}

const provider = (apiKey: Redacted.Redacted<string> | undefined, baseUrl: string | undefined, name: string) =>
  apiKey === undefined ? undefined : { apiKey, baseUrl: httpUrl(`LEGIBLE_${name}_BASE_URL`, baseUrl) }

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

/** Applies the defaults and checks every value; `cwd` resolves relative directories. */
export const resolve = (v: Variables, cwd: string): Settings | InvalidSettings => {
  try {
    const embedded = v.databaseUrl === undefined
    if (!embedded) {
      const url = Redacted.value(v.databaseUrl!)
      if (!/^postgres(ql)?:\/\//.test(url)) fail("LEGIBLE_DATABASE_URL must be a postgres:// or postgresql:// URL")
    }
    const port = int("LEGIBLE_PORT", v.port, 8080, 0, 65_535)
    const leaseSeconds = number("LEGIBLE_LEASE_SECONDS", v.leaseSeconds, 60, 1, 3600)
    const logFormat = v.logFormat ?? "json"
    if (logFormat !== "json" && logFormat !== "pretty") return fail("LEGIBLE_LOG_FORMAT must be json or pretty")
    return {
      host: v.host ?? "127.0.0.1",
      port,
      dataDir: Path.resolve(cwd, v.dataDir ?? DEFAULT_DATA_DIR),
      databaseUrl: v.databaseUrl,
      databaseMaxConnections: int("LEGIBLE_DATABASE_MAX_CONNECTIONS", v.databaseMaxConnections, 10, 2, 1000),
      documentsDir: v.documentsDir === undefined ? undefined : Path.resolve(cwd, v.documentsDir),
      jwt: jwtSettings(v, embedded),
      anthropic: provider(v.anthropicApiKey, v.anthropicBaseUrl, "ANTHROPIC"),
      openai: provider(v.openaiApiKey, v.openaiBaseUrl, "OPENAI"),
      defaultModel: defaultModel(v),
      llm: {
        timeoutSeconds: number("LEGIBLE_LLM_TIMEOUT_SECONDS", v.llmTimeoutSeconds, 60, 1, 3600),
        maxAttempts: int("LEGIBLE_LLM_MAX_ATTEMPTS", v.llmMaxAttempts, 4, 1, 20),
        concurrency: int("LEGIBLE_LLM_CONCURRENCY", v.llmConcurrency, 4, 1, 1000)
      },
      maxBodyBytes: int("LEGIBLE_MAX_BODY_BYTES", v.maxBodyBytes, 40 * 1024 * 1024, 1024, 2 ** 31),
      worker: {
        concurrency: int("LEGIBLE_WORKER_CONCURRENCY", v.workerConcurrency, 2, 1, 256),
        leaseSeconds,
        maxAttempts: int("LEGIBLE_MAX_ATTEMPTS", v.maxAttempts, 3, 1, 100),
        pollSeconds: number("LEGIBLE_WORKER_POLL_SECONDS", v.pollSeconds, 5, 0.05, 3600),
        shutdownGraceSeconds: number("LEGIBLE_SHUTDOWN_GRACE_SECONDS", v.shutdownGraceSeconds, 30, 0, 3600)
      },
      ocr: {
        workers: v.ocrWorkers === undefined ? undefined : int("LEGIBLE_OCR_WORKERS", v.ocrWorkers, 1, 1, 256),
        pageTimeoutSeconds: number("LEGIBLE_OCR_PAGE_TIMEOUT_SECONDS", v.ocrPageTimeoutSeconds, 60, 1, 3600),
        maxPages: int("LEGIBLE_OCR_MAX_PAGES", v.ocrMaxPages, 500, 1, 100_000),
        precision:
          v.ocrPrecision === undefined ||
          v.ocrPrecision === "auto" ||
          v.ocrPrecision === "float32" ||
          v.ocrPrecision === "int8"
            ? (v.ocrPrecision ?? "auto")
            : fail(`LEGIBLE_OCR_PRECISION must be auto, float32 or int8 (got "${v.ocrPrecision}")`),
        lexicon: ocrLexicon(v.ocrLexicon),
        detectionScale: number("LEGIBLE_OCR_DETECTION_SCALE", v.ocrDetectionScale, 0.5, 0.25, 1)
      },
      catalogIndex: {
        minRecords: int("LEGIBLE_CATALOG_INDEX_MIN_RECORDS", v.catalogIndexMinRecords, 5_000, 1, 1_000_000_000),
        cacheBytes: int("LEGIBLE_CATALOG_INDEX_CACHE_MB", v.catalogIndexCacheMb, 256, 0, 1_048_576) * 1024 * 1024
      },
      retentionDays:
        v.retentionDays === undefined ? undefined : int("LEGIBLE_RETENTION_DAYS", v.retentionDays, 1, 1, 36_500),
      logLevel: logLevel(v.logLevel),
      logFormat
    }
  } catch (error) {
    if (error instanceof Problem) return new InvalidSettings({ message: error.message })
    throw error
  }
}

/** Reads every variable and resolves the settings against the working directory. */
export const load: Effect.Effect<Settings, InvalidSettings> = Effect.gen(function* () {
  const raw = yield* variables.pipe(
    Effect.mapError((error) => new InvalidSettings({ message: `configuration: ${error.message}` }))
  )
  const settings = resolve(raw, process.cwd())
  return settings instanceof InvalidSettings ? yield* settings : settings
})

/** Whether the settings use the embedded PGlite database. */
export const isEmbedded = (settings: Settings): boolean => settings.databaseUrl === undefined
