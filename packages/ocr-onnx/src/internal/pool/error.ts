import { Schema } from "effect"

/** Why a pool task did not produce a result: a time limit, a failed thread, or a closed pool. */
export class PoolError extends Schema.TaggedError<PoolError>()("PoolError", {
  reason: Schema.Literals(["TimeLimit", "WorkerFailed", "Closed"]),
  message: Schema.String
}) {}
