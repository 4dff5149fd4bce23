/** A migrated `SqlClient` for PostgreSQL or PGlite, with LISTEN/NOTIFY on both. */
export * as Database from "./Database.js"
/** An `effect/sql` client over embedded PGlite, with LISTEN/NOTIFY. */
export * as PgliteClient from "./PgliteClient.js"
/** The `ApiKeyStore` port over SQL (hash-only keys, throttled `last_used`). */
export * as SqlApiKeyStore from "./SqlApiKeyStore.js"
/** The `CatalogStore` port over SQL. */
export * as SqlCatalogStore from "./SqlCatalogStore.js"
/** The `Directory` port over SQL (clients and users). */
export * as SqlDirectory from "./SqlDirectory.js"
/** The `ExtractionStore` and `DocumentStore` ports over SQL (scoped reads, atomic submissions). */
export * as SqlExtractionStore from "./SqlExtractionStore.js"
/** The `JobQueue` port over SQL (SKIP LOCKED claims, fenced leases, LISTEN wake-ups). */
export * as SqlJobQueue from "./SqlJobQueue.js"
/** The `QuotaStore` port over SQL (one atomic statement per reservation). */
export * as SqlQuotaStore from "./SqlQuotaStore.js"
/** The `SkillStore` port over SQL (versioned skills). */
export * as SqlSkillStore from "./SqlSkillStore.js"
/** Every SQL store except the job queue, in one layer. */
export * as SqlStorage from "./SqlStorage.js"
