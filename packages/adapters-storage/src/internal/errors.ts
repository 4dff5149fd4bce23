import { Errors } from "@legible/core"
import { Cause, Effect, Predicate } from "effect"
import { isSqlError, type SqlError } from "effect/sql/SqlError"

/** The SQLSTATE of a server error (`@effect/sql-pg` keeps the error's fields on the reason's cause). */
const sqlState = (error: SqlError): string | undefined => {
  const cause: unknown = "cause" in error.reason ? error.reason.cause : undefined
  return Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
}

/**
 * SQLSTATEs of a server going away or not there yet, which `@effect/sql-pg` reports as unknown errors: class 57P
 * (`admin_shutdown` as a stop or restart ends every session, `crash_shutdown`, `cannot_connect_now` while it starts
 * up or shuts down) and `too_many_connections`. The request failed because the database is unavailable, not
 * because of anything in it: 503, like a refused connection (PGlite's classifier counts 57P the same way).
 */
const unavailableState = (code: string | undefined): boolean =>
  code !== undefined && (code.startsWith("57P") || code === "53300")

/** The `StorageError` reason for a SQL failure: the edge answers 503 for `Unavailable`, 500 otherwise. */
const reasonOf = (error: SqlError): Errors.StorageError["reason"] => {
  if (unavailableState(sqlState(error))) return "Unavailable"
  switch (error.reason._tag) {
    case "ConnectionError":
    case "AuthenticationError":
    case "AuthorizationError":
      return "Unavailable"
    case "UniqueViolation":
    case "ConstraintError":
    case "DeadlockError":
    case "SerializationError":
    case "LockTimeoutError":
      return "Conflict"
    default:
      return "Unknown"
  }
}

/** Wraps a SQL failure, keeping it as the cause, with the operation that failed in the message. */
export const fromSqlError =
  (operation: string) =>
  (error: SqlError): Errors.StorageError =>
    new Errors.StorageError({ reason: reasonOf(error), message: `${operation}: ${error.message}`, cause: error })

/** The row an upsert with RETURNING always yields; none means the database misbehaved (`Corrupt`). */
export const upserted =
  (operation: string) =>
  <A>(rows: ReadonlyArray<A>): Effect.Effect<A, Errors.StorageError> => {
    const [row] = rows
    return row === undefined
      ? Effect.fail(new Errors.StorageError({ reason: "Corrupt", message: `${operation}: the upsert returned no row` }))
      : Effect.succeed(row)
  }

/** A defect that is a `SqlError` (what `effect/sql` makes of a failed ROLLBACK or COMMIT cleanup). */
const isSqlDefect = (reason: Cause.Reason<unknown>): reason is Cause.Die =>
  Cause.isDieReason(reason) && isSqlError(reason.defect)

/**
 * Maps the `SqlError`s of an effect to `StorageError`s: its failures, and the defects `effect/sql` makes of a failed
 * ROLLBACK (after the transaction's own failure) or COMMIT cleanup. When the server goes away in the middle of a
 * transaction, the statement and then its ROLLBACK fail on the dead socket: that defect is the same outage, a 503 at
 * the edge, not a 500. Other failures, other defects and interruptions are kept as they are.
 */
export const mapSqlError =
  (operation: string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, Exclude<E, SqlError> | Errors.StorageError, R> =>
    Effect.catchCause(self, (cause) => {
      const toStorage = fromSqlError(operation)
      const kept = cause.reasons
        .filter((r) => !isSqlDefect(r))
        .map(
          (r): Cause.Reason<Exclude<E, SqlError> | Errors.StorageError> =>
            Cause.isFailReason(r)
              ? Cause.makeFailReason(isSqlError(r.error) ? toStorage(r.error) : (r.error as Exclude<E, SqlError>))
              : (r as Cause.Reason<never>)
        )
      const sqlDefect = cause.reasons.find(isSqlDefect)
      const reasons =
        sqlDefect !== undefined && !kept.some(Cause.isFailReason)
          ? [...kept, Cause.makeFailReason(toStorage(sqlDefect.defect as SqlError))]
          : kept
      return Effect.failCause(Cause.fromReasons(reasons))
    })
