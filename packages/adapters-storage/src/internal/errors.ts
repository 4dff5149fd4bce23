import { Errors } from "@legible/core"
import { Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"

/** The `StorageError` reason for a SQL failure: the edge answers 503 for `Unavailable`, 500 otherwise. */
const reasonOf = (error: SqlError): Errors.StorageError["reason"] => {
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

/** Maps the `SqlError`s of an effect to `StorageError`s. */
export const mapSqlError =
  (operation: string) =>
  <A, R>(self: Effect.Effect<A, SqlError, R>): Effect.Effect<A, Errors.StorageError, R> =>
    Effect.mapError(self, fromSqlError(operation))
