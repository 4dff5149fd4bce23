/** Every SQL store in one layer: all storage ports of `@legible/core` except the job queue. */
import type { Ports } from "@legible/core"
import { type Config, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as SqlApiKeyStore from "./internal/apiKeyStore.js"
import * as SqlDirectory from "./internal/directory.js"
import * as SqlExtractionStore from "./internal/extractionStore.js"
import * as SqlQuotaStore from "./internal/quotaStore.js"
import * as SqlSkillStore from "./internal/skillStore.js"
import * as SqlCatalogStore from "./SqlCatalogStore.js"

/** The ports `layer` provides. */
export type Services = Ports.StorageServices

/** Options of the stores that take any (documents directory, jobs channel). */
export type Options = SqlExtractionStore.Options

/** Provides every SQL store over the `SqlClient` in context (from `Database.layer`). */
export const layer = (options: Options = {}): Layer.Layer<Services, never, SqlClient.SqlClient> =>
  Layer.mergeAll(
    SqlDirectory.layer,
    SqlApiKeyStore.layer,
    SqlSkillStore.layer,
    SqlCatalogStore.layer,
    SqlExtractionStore.layer(options),
    SqlQuotaStore.layer
  )

/** Like `layer`, with the documents directory (optional) and the jobs channel read from `Config`. */
export const layerConfig = (
  config: Parameters<typeof SqlExtractionStore.layerConfig>[0]
): Layer.Layer<Services, Config.ConfigError, SqlClient.SqlClient> =>
  Layer.mergeAll(
    SqlDirectory.layer,
    SqlApiKeyStore.layer,
    SqlSkillStore.layer,
    SqlCatalogStore.layer,
    SqlExtractionStore.layerConfig(config),
    SqlQuotaStore.layer
  )
