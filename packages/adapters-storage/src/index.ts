/** A migrated `SqlClient` for PostgreSQL or PGlite, with LISTEN/NOTIFY on both. */
export * as Database from "./Database.js"
/** An `effect/sql` client over embedded PGlite, with LISTEN/NOTIFY. */
export * as PgliteClient from "./PgliteClient.js"
/** The extraction job queue on effect/sql (PostgreSQL or PGlite): claims with SKIP LOCKED, fenced leases. */
export * as SqlJobQueue from "./SqlJobQueue.js"
