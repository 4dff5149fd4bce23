/**
 * The `QuotaStore` port over SQL. `reserve` is one conditional UPDATE: the row lock makes concurrent reservations
 * queue on the row and re-check the condition, so they never overshoot the limit on either engine.
 */
import { Errors, Ports, Quota, type Timestamp } from "@legible/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import { mapSqlError, upserted } from "./errors.js"
import { ts } from "./sql.js"

interface QuotaRow {
  readonly client_id: string
  readonly quota_limit: number | null
  readonly period: Quota.Period
  readonly period_start: Timestamp.Timestamp
  readonly used: number
}

const toQuota = (row: QuotaRow): Quota.Quota => ({
  clientId: row.client_id,
  limit: row.quota_limit,
  period: row.period,
  periodStart: row.period_start,
  used: row.used
})

const quotaColumns = ["client_id", "quota_limit", "period", ts("period_start", "period_start"), "used"].join(", ")

/** How many times `reserve` re-reads a refused row whose limit was raised in between (then it gives up). */
const RESERVE_ROUNDS = 3

/** Builds the SQL `QuotaStore` over the `SqlClient` in context. */
export const make: Effect.Effect<Ports.QuotaStore["Service"], never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const columns = sql.literal(quotaColumns)

  // The row's own period decides which start applies; both come from core's `Quota.periodStart`.
  const startAt = (now: Timestamp.Timestamp): Fragment =>
    sql`(CASE WHEN period = 'month' THEN ${Quota.periodStart("month", now)}::timestamptz
      ELSE ${Quota.periodStart("day", now)}::timestamptz END)`

  const read = (clientId: string) =>
    Effect.map(sql<QuotaRow>`SELECT ${columns} FROM quotas WHERE client_id = ${clientId}`, (rows) => rows[0])

  const attempt = (clientId: string, now: Timestamp.Timestamp) => {
    const start = startAt(now)
    return Effect.map(
      sql<QuotaRow>`
        UPDATE quotas SET
          used = CASE WHEN period_start = ${start} THEN used + 1 ELSE 1 END,
          period_start = ${start}
        WHERE client_id = ${clientId}
          AND (quota_limit IS NULL OR (CASE WHEN period_start = ${start} THEN used ELSE 0 END) < quota_limit)
        RETURNING ${columns}`,
      (rows) => rows[0]
    )
  }

  const reserve = Effect.fn("QuotaStore.reserve")(function* (clientId: string, now: Timestamp.Timestamp) {
    for (let round = 0; round < RESERVE_ROUNDS; round++) {
      const granted = yield* attempt(clientId, now)
      if (granted !== undefined) return toQuota(granted)
      // Refused or absent: read the row (after the failed update) to tell which, and report the usage that counts.
      const row = yield* read(clientId)
      if (row === undefined) return undefined
      const quota = toQuota(row)
      const used = Quota.usedAt(quota, now)
      if (quota.limit !== null && used >= quota.limit) {
        return yield* new Errors.QuotaExceeded({ limit: quota.limit, used })
      }
    }
    return yield* new Errors.StorageError({
      reason: "Conflict",
      message: "QuotaStore.reserve: the quota kept changing during the reservation"
    })
  }, mapSqlError("QuotaStore.reserve"))

  const release = Effect.fn("QuotaStore.release")(function* (clientId: string, at: Timestamp.Timestamp) {
    yield* sql`
      UPDATE quotas SET used = greatest(used - 1, 0)
      WHERE client_id = ${clientId} AND period_start = ${startAt(at)}`.pipe(mapSqlError("QuotaStore.release"))
  })

  const get = Effect.fn("QuotaStore.get")(function* (clientId: string) {
    const row = yield* read(clientId).pipe(mapSqlError("QuotaStore.get"))
    return row === undefined ? undefined : toQuota(row)
  })

  // Keeps the usage when the current period under the new `period` is the one already counted.
  const set = Effect.fn("QuotaStore.set")(function* (
    clientId: string,
    limit: number | null,
    period: Quota.Period,
    now: Timestamp.Timestamp
  ) {
    const row = yield* sql<QuotaRow>`
      INSERT INTO quotas (client_id, quota_limit, period, period_start, used)
      VALUES (${clientId}, ${limit}::integer, ${period}, ${Quota.periodStart(period, now)}::timestamptz, 0)
      ON CONFLICT (client_id) DO UPDATE SET
        quota_limit = excluded.quota_limit,
        period = excluded.period,
        used = CASE WHEN quotas.period_start = excluded.period_start THEN quotas.used ELSE 0 END,
        period_start = excluded.period_start
      RETURNING ${columns}`.pipe(mapSqlError("QuotaStore.set"), Effect.flatMap(upserted("QuotaStore.set")))
    return toQuota(row)
  })

  return Ports.QuotaStore.of({ reserve, release, get, set })
})

/** Provides `QuotaStore` over the `SqlClient` in context. */
export const layer: Layer.Layer<Ports.QuotaStore, never, SqlClient.SqlClient> = Layer.effect(Ports.QuotaStore, make)
