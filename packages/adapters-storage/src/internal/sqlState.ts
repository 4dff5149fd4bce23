import { Predicate } from "effect"
import {
  AuthenticationError,
  AuthorizationError,
  ConnectionError,
  ConstraintError,
  DeadlockError,
  LockTimeoutError,
  SerializationError,
  SqlError,
  type SqlErrorReason,
  SqlSyntaxError,
  StatementTimeoutError,
  UniqueViolation,
  UnknownError
} from "effect/sql/SqlError"

/**
 * Turns a PGlite failure into a `SqlError` with the same reasons `@effect/sql-pg` gives for the same SQLSTATE,
 * so stores classify failures identically on both engines. A failure without a SQLSTATE (a closed or crashed
 * instance) counts as a connection failure.
 */
export const fromPgliteError = (cause: unknown, operation: string): SqlError =>
  new SqlError({ reason: classify(cause, operation) })

const classify = (cause: unknown, operation: string): SqlErrorReason => {
  const message =
    Predicate.hasProperty(cause, "message") && typeof cause.message === "string" ? cause.message : String(cause)
  const props = { cause, message, operation }
  const code = Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
  if (code === undefined) return new ConnectionError(props)
  if (code.startsWith("08") || code.startsWith("57P")) return new ConnectionError(props)
  if (code.startsWith("28")) return new AuthenticationError(props)
  if (code === "42501") return new AuthorizationError(props)
  if (code.startsWith("42")) return new SqlSyntaxError(props)
  if (code === "23505") {
    const constraint =
      Predicate.hasProperty(cause, "constraint") && typeof cause.constraint === "string" ? cause.constraint : "unknown"
    return new UniqueViolation({ ...props, constraint })
  }
  if (code.startsWith("23")) return new ConstraintError(props)
  if (code === "40P01") return new DeadlockError(props)
  if (code === "40001") return new SerializationError(props)
  if (code === "55P03") return new LockTimeoutError(props)
  if (code === "57014") return new StatementTimeoutError(props)
  return new UnknownError(props)
}
