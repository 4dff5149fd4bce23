/** Every SQL store in one layer: all storage ports of `@legible/core` except the job queue. */
import type { Ports } from "@legible/core"
import { Config, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import * as SqlApiKeyStore from "./internal/apiKeyStore.js"
import * as SqlDirectory from "./internal/directory.js"
import * as SqlExtractionStore from "./internal/extractionStore.js"
import * as SqlIdempotencyStore from "./internal/idempotencyStore.js"
import * as SqlQuotaStore from "./internal/quotaStore.js"
import * as SqlSkillStore from "./internal/skillStore.js"
import * as SqlWebhookStore from "./internal/webhookStore.js"
import * as SqlCatalogStore from "./SqlCatalogStore.js"

/** The ports `layer` provides. */
export type Services = Ports.StorageServices

/** Options of the stores that take any: where documents go, the jobs channel, the catalogs' in-process index. */
export interface Options extends SqlExtractionStore.Options {
  readonly catalogIndex?: SqlCatalogStore.Options | undefined
}

/** Provides every SQL store over the `SqlClient` in context (from `Database.layer`). */
export const layer = (options: Options = {}): Layer.Layer<Services, never, SqlClient.SqlClient> =>
  Layer.mergeAll(
    SqlDirectory.layer,
    SqlApiKeyStore.layer,
    SqlSkillStore.layer,
    SqlCatalogStore.layer(options.catalogIndex),
    SqlExtractionStore.layer(options),
    SqlQuotaStore.layer,
    SqlIdempotencyStore.layer,
    SqlWebhookStore.layer
  )

/** Like `layer`, with the options read from `Config`. */
export const layerConfig = (
  config: Config.Wrap<Options>
): Layer.Layer<Services, Config.ConfigError, SqlClient.SqlClient> =>
  Layer.unwrap(Effect.map(Config.unwrap(config), layer))
