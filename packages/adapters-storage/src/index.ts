/** An `effect/sql` client over embedded PGlite, with LISTEN/NOTIFY. */
export * as PgliteClient from "./PgliteClient.js"
