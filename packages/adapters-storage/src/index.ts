/** A migrated `SqlClient` for PostgreSQL or PGlite, with LISTEN/NOTIFY on both. */
export * as Database from "./Database.js"
/** The `CatalogStore` port over SQL. */
export * as SqlCatalogStore from "./SqlCatalogStore.js"
/** The `JobQueue` port over SQL (SKIP LOCKED claims, fenced leases, LISTEN wake-ups). */
export * as SqlJobQueue from "./SqlJobQueue.js"
/** Every SQL store except the job queue, in one layer (clients and users, keys, extractions and documents, quotas, skills, catalogs, idempotency keys). */
export * as SqlStorage from "./SqlStorage.js"
/** The `WebhookOutbox` port over SQL: SKIP LOCKED claims of deliveries, fenced settles, LISTEN wake-ups, the event stream. */
export * as SqlWebhookOutbox from "./SqlWebhookOutbox.js"
