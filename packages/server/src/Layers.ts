/**
 * The real layers of a deployment, built from `Config.Settings`: the migrated database (embedded PGlite in the data
 * directory, locked to one process, or PostgreSQL), every SQL store, the job queue, the catalog matcher, the OCR
 * reader and the routed `FieldExtractor`.
 */
import { Database, SqlJobQueue, SqlStorage, SqlWebhookOutbox } from "@legible/adapters-storage"
import {
  CatalogMatching,
  type Document,
  type Errors,
  type PageImages,
  type Ports,
  type Webhook,
  Worker
} from "@legible/core"
import { OnnxReader, PageRenderer } from "@legible/ocr-onnx"
import { Duration, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import type * as Config from "./Config.js"
import { acquire, type DataDirInUse } from "./internal/lock.js"

/** The PGlite directory inside the data directory. */
export const PGLITE_DIR = "pglite"

/** The database layer's services. */
export type DatabaseServices = SqlClient.SqlClient | Database.Notifications

/** Every storage port, the job queue, the webhook outbox and the catalog matcher. */
export type StorageServices =
  | Ports.StorageServices
  | Ports.JobQueue
  | Webhook.WebhookOutbox
  | Ports.CatalogMatcher
  | DatabaseServices

/** The database of the settings, migrated; the embedded one holds the data directory's lock while open. */
export const database = (
  settings: Config.Settings
): Layer.Layer<DatabaseServices, Errors.StorageError | DataDirInUse> => {
  if (settings.databaseUrl !== undefined) {
    return Database.layer({
      engine: "postgres",
      url: settings.databaseUrl,
      maxConnections: settings.databaseMaxConnections
    })
  }
  const lock = Layer.effectDiscard(acquire(settings.dataDir))
  return Database.layer({ engine: "pglite", dataDir: `${settings.dataDir}/${PGLITE_DIR}` }).pipe(Layer.provide(lock))
}

// Documents in the database or in LEGIBLE_DOCUMENTS_DIR; the catalogs' in-process index as the operator set it;
// stored results read as bytes on PostgreSQL.
const documents = (settings: Config.Settings) =>
  SqlStorage.layer({
    documents: settings.documentsDir === undefined ? undefined : { directory: settings.documentsDir },
    storedAsBytes: settings.databaseUrl !== undefined,
    catalogIndex: settings.catalogIndex
  })

/** The stores over the database (documents in it, or in `LEGIBLE_DOCUMENTS_DIR`): what the api role needs. */
export const stores = (
  settings: Config.Settings
): Layer.Layer<Ports.StorageServices | DatabaseServices, Errors.StorageError | DataDirInUse> =>
  documents(settings).pipe(Layer.provideMerge(database(settings)))

/**
 * Every storage port, the job queue and the webhook outbox (one listening connection each) and the catalog matcher
 * over the database.
 */
export const storage = (
  settings: Config.Settings
): Layer.Layer<StorageServices, Errors.StorageError | DataDirInUse> => {
  const stores = documents(settings)
  // `stores` is one layer value: built once and shared by the matcher (layers are memoized by reference).
  const ports = Layer.mergeAll(
    stores,
    SqlJobQueue.layer(),
    SqlWebhookOutbox.layer(),
    CatalogMatching.layer.pipe(Layer.provide(stores))
  )
  return ports.pipe(Layer.provideMerge(database(settings)))
}

// The provider SDKs take about a second to load: the extractor is loaded when a command builds it, so operator
// commands that only touch the database start faster. The reader's main thread is light (mupdf and onnxruntime
// load in its worker threads, on the first read).

/** What the OCR reader gets from the settings (`LEGIBLE_OCR_*`). */
export const readerOptions = (settings: Config.Settings): OnnxReader.Options => ({
  poolSize: settings.ocr.workers,
  pageTimeLimitMs: settings.ocr.pageTimeoutMs,
  maxPages: settings.ocr.maxPages,
  models: {
    precision: settings.ocr.precision,
    lexicon: settings.ocr.lexicon,
    detectionScale: settings.ocr.detectionScale,
    imageText: settings.ocr.imageText
  }
})

/** The OCR reader; its worker threads start on the first read, so an api process that only sniffs spends none. */
export const reader = (settings: Config.Settings): Layer.Layer<Ports.DocumentReader, Document.DocumentError> =>
  OnnxReader.layer(readerOptions(settings))

/** The page images' renderer (`/v1/extractions/{id}/pages/{n}`), within the reader's page and time limits. */
export const pageRenderer = (settings: Config.Settings): Layer.Layer<PageImages.PageRenderer, Document.DocumentError> =>
  PageRenderer.layer({ maxPages: settings.ocr.maxPages, timeLimitMs: settings.ocr.pageTimeoutMs })

/** The longest a provider's `retry-after` (or a backoff) may hold a job: 30 s, and never more than half its lease. */
export const providerWaitCap = (settings: Config.Settings): Duration.Duration =>
  Duration.millis(Math.min(30_000, (settings.worker.leaseMs ?? Worker.defaults.leaseMs) / 2))

/**
 * What every provider gets: our timeout, attempts and concurrency, and waits capped below the job lease (a
 * `retry-after: 3600` must not hold a job an hour; the adapters' own 30 s cap is above a short lease).
 */
export const providerOptions = (settings: Config.Settings) => ({
  timeout: settings.llm.timeoutMs,
  maxAttempts: settings.llm.maxAttempts,
  concurrency: settings.llm.concurrency,
  retryAfterCap: providerWaitCap(settings),
  backoffCap: Duration.min(Duration.seconds(20), providerWaitCap(settings))
})

/** The models the settings serve, as a client is told when it names another: `local` is always among them. */
export const models = (settings: Config.Settings): ReadonlyArray<string> => [
  ...(settings.openai === undefined ? [] : ["gpt-*", "o*"]),
  ...(settings.anthropic === undefined ? [] : ["claude-*"]),
  "local"
]

/** The `FieldExtractor` routing models to the configured providers; `local` is always served. */
export const extractor = (settings: Config.Settings): Layer.Layer<Ports.FieldExtractor> => {
  const common = providerOptions(settings)
  const options = {
    anthropic:
      settings.anthropic === undefined
        ? undefined
        : { ...common, apiKey: settings.anthropic.apiKey, baseURL: settings.anthropic.baseUrl },
    openai:
      settings.openai === undefined
        ? undefined
        : { ...common, apiKey: settings.openai.apiKey, baseURL: settings.openai.baseUrl },
    local: true
  }
  return Layer.unwrap(
    Effect.map(
      Effect.promise(() => import("@legible/adapters-llm")),
      ({ Router }) => Router.layer(options)
    )
  )
}

/** Everything processing and the HTTP layer need. */
export type Services = StorageServices | Ports.DocumentReader | Ports.FieldExtractor

/** What the api role needs: the stores, the reader (type sniffing), the extractor (`supports`), page images. */
export const api = (
  settings: Config.Settings
): Layer.Layer<
  Ports.StorageServices | DatabaseServices | Ports.DocumentReader | Ports.FieldExtractor | PageImages.PageRenderer,
  Errors.StorageError | DataDirInUse | Document.DocumentError
> => Layer.mergeAll(stores(settings), reader(settings), extractor(settings), pageRenderer(settings))

/** Storage, queue, matcher, reader and extractor together. */
export const all = (
  settings: Config.Settings
): Layer.Layer<Services | PageImages.PageRenderer, Errors.StorageError | DataDirInUse | Document.DocumentError> =>
  Layer.mergeAll(storage(settings), reader(settings), extractor(settings), pageRenderer(settings))
