import { Effect, Schema } from "effect"
import type { User } from "./Directory.js"
import { InvalidRequest } from "./Errors.js"
import { Directory, QuotaStore } from "./Ports.js"
import * as Quota from "./Quota.js"
import * as Timestamp from "./Timestamp.js"

/** Largest accepted quota limit. */
export const MAX_LIMIT = 1_000_000_000

/** The caller's role does not allow the action (setting quotas is for `global_admin`s). */
export class Forbidden extends Schema.TaggedError<Forbidden>()("Forbidden", {
  message: Schema.String
}) {}

/** A quota as shown to clients: the limit (`null`: unlimited), the period and the usage of the current one. */
export interface View {
  readonly client_id: string
  readonly limit: number | null
  readonly period: Quota.Period
  readonly period_start: Timestamp.Timestamp
  readonly used: number
}

const view = (quota: Quota.Quota, now: Timestamp.Timestamp): View => ({
  client_id: quota.clientId,
  limit: quota.limit,
  period: quota.period,
  period_start: Quota.periodStart(quota.period, now),
  used: Quota.usedAt(quota, now)
})

const isClientId = (value: string): boolean =>
  value.length > 0 && value.length <= 200 && [...value].every((c) => c >= " " && c !== "\u007f")

/**
 * Sets a client's quota (`global_admin` only): `limit` extractions per `period` (default: the current period, or
 * `month`), `null` for unlimited. The usage of the current period is kept. A client not yet known is created, so quotas can be set
 * before the client's first user signs in.
 */
export const set = Effect.fn("Quotas.set")(function* (
  user: User,
  clientId: string,
  body: { readonly limit: number | null; readonly period?: Quota.Period | undefined }
) {
  if (user.role !== "global_admin") return yield* new Forbidden({ message: "only a global_admin may set quotas" })
  if (!isClientId(clientId)) return yield* new InvalidRequest({ message: "client_id must be 1 to 200 characters" })
  const { limit } = body
  if (limit !== null && (!Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT)) {
    return yield* new InvalidRequest({ message: `limit must be null or an integer from 0 to ${MAX_LIMIT}` })
  }
  const directory = yield* Directory
  if ((yield* directory.getClient(clientId)) === undefined)
    yield* directory.upsertClient({ id: clientId, name: clientId })
  const now = yield* Timestamp.now
  const store = yield* QuotaStore
  const period = body.period ?? (yield* store.get(clientId))?.period ?? "month"
  const quota = yield* store.set(clientId, limit, period, now)
  return view(quota, now)
})

/**
 * A client's quota, for a `global_admin` (any client) or a user of that client; `undefined` when the client has no
 * quota (unlimited).
 */
export const get = Effect.fn("Quotas.get")(function* (user: User, clientId: string) {
  if (user.role !== "global_admin" && user.clientId !== clientId) {
    return yield* new Forbidden({ message: "only a global_admin may read another client's quota" })
  }
  const quota = yield* (yield* QuotaStore).get(clientId)
  return quota === undefined ? undefined : view(quota, yield* Timestamp.now)
})
