/**
 * The README's environment table and the code agree: every variable `Config.load` reads is in the table, every
 * variable in the table is read, and each default the table states is the one its owner (the server or an adapter)
 * applies.
 */
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Http } from "@legible/adapters-http"
import * as Provider from "@legible/adapters-llm/Provider"
import { Database, SqlCatalogStore } from "@legible/adapters-storage"
import { Checks, Retry, Worker } from "@legible/core"
import { OnnxReader } from "@legible/ocr-onnx"
import { ConfigProvider, Duration, Effect } from "effect"
import * as Config from "../src/Config.js"
import { ROOT } from "./support/process.js"

/** The rows of the README's "Configuration" table: each backticked `LEGIBLE_*` name with its default column. */
const tableRows = (): ReadonlyMap<string, string> => {
  const readme = readFileSync(Path.join(ROOT, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("\n## Configuration"))
  const table = section.slice(0, section.indexOf("\n## ", 1))
  return new Map(
    table
      .split("\n")
      .filter((line) => line.startsWith("| `LEGIBLE_"))
      .flatMap((line) => {
        const [, names = "", fallback = ""] = line.split("|")
        return [...names.matchAll(/`(LEGIBLE_[A-Z0-9_]+)`/g)].map((match) => [match[1]!, fallback.trim()] as const)
      })
  )
}

const ocr = OnnxReader.defaults()

/** The default each variable's owner applies, as the table writes it (first backticked value of the column). */
const OWNED_DEFAULTS: Record<string, string> = {
  LEGIBLE_DATABASE_MAX_CONNECTIONS: String(Database.DEFAULT_MAX_CONNECTIONS),
  LEGIBLE_CATALOG_INDEX_MIN_RECORDS: String(SqlCatalogStore.defaults.minRecords),
  LEGIBLE_CATALOG_INDEX_CACHE_MB: String(SqlCatalogStore.defaults.cacheBytes / 1024 / 1024),
  LEGIBLE_LLM_TIMEOUT_SECONDS: String(Duration.toSeconds(Provider.defaults.timeout)),
  LEGIBLE_LLM_MAX_ATTEMPTS: String(Provider.defaults.maxAttempts),
  LEGIBLE_LLM_CONCURRENCY: String(Provider.defaults.concurrency),
  LEGIBLE_MAX_BODY_BYTES: String(Http.DEFAULT_BODY_LIMIT),
  LEGIBLE_WORKER_CONCURRENCY: String(Worker.defaults.concurrency),
  LEGIBLE_LEASE_SECONDS: String(Worker.defaults.leaseMs / 1000),
  LEGIBLE_MAX_ATTEMPTS: String(Retry.defaultPolicy.maxAttempts),
  LEGIBLE_WORKER_POLL_SECONDS: String(Worker.defaults.pollMs / 1000),
  LEGIBLE_DATE_FLOOR: Checks.DEFAULT_DATE_FLOOR,
  LEGIBLE_OCR_PAGE_TIMEOUT_SECONDS: String(ocr.pageTimeLimitMs / 1000),
  LEGIBLE_OCR_MAX_PAGES: String(ocr.limits.maxPages),
  LEGIBLE_OCR_PRECISION: OnnxReader.modelDefaults.precision,
  LEGIBLE_OCR_LEXICON: OnnxReader.modelDefaults.lexicon.join(","),
  LEGIBLE_OCR_DETECTION_SCALE: String(OnnxReader.modelDefaults.detectionScale)
}

/** The names `Config.load` asks its provider for. */
const readNames = Effect.gen(function* () {
  const asked = new Set<string>()
  const empty = Config.fromEnv({})
  const recording = ConfigProvider.make((path) => {
    asked.add(path.join("_"))
    return empty.load(path)
  })
  yield* Config.load.pipe(Effect.provideService(ConfigProvider.ConfigProvider, recording))
  return asked
})

describe("the README's environment table", () => {
  it.effect("lists exactly the variables the server reads", () =>
    Effect.gen(function* () {
      const read = yield* readNames
      const table = new Set(tableRows().keys())
      expect(read.size).toBeGreaterThan(30)
      expect(
        [...read].filter((name) => !table.has(name)),
        "read but not in the table"
      ).toEqual([])
      expect(
        [...table].filter((name) => !read.has(name)),
        "in the table but not read"
      ).toEqual([])
    })
  )

  it.effect("states the defaults the server and the adapters apply", () =>
    Effect.gen(function* () {
      const rows = tableRows()
      const settings = yield* Config.load.pipe(Effect.provideService(ConfigProvider.ConfigProvider, Config.fromEnv({})))
      const expected: Record<string, string> = {
        ...OWNED_DEFAULTS,
        LEGIBLE_HOST: settings.host,
        LEGIBLE_PORT: String(settings.port),
        LEGIBLE_DATA_DIR: Config.DEFAULT_DATA_DIR,
        LEGIBLE_SHUTDOWN_GRACE_SECONDS: String(settings.shutdownGraceSeconds),
        LEGIBLE_LOG_LEVEL: settings.logLevel,
        LEGIBLE_LOG_FORMAT: settings.logFormat
      }
      for (const [name, value] of Object.entries(expected)) {
        expect(rows.get(name)?.match(/`([^`]*)`/)?.[1], name).toBe(value)
      }
      expect(rows.get("LEGIBLE_DEFAULT_MODEL")).toBe(
        `\`${Config.OPENAI_DEFAULT_MODEL}\` with OpenAI, else \`${Config.ANTHROPIC_DEFAULT_MODEL}\` with Anthropic, else \`${Config.LOCAL_MODEL}\``
      )
    })
  )
})
