import { Errors, Ports, Quota } from "@legible/core"
import { Effect } from "effect"
import { conflict, type State } from "./state.js"

/**
 * The in-memory `QuotaStore`: `reserve` reads and writes in one synchronous step, so concurrent fibers never
 * overshoot; the period rolls over by core `Quota` arithmetic; no row means unlimited.
 */
export const make = (state: State): Ports.QuotaStore["Service"] =>
  Ports.QuotaStore.of({
    reserve: (clientId, now) =>
      Effect.suspend(() => {
        const quota = state.quotas.get(clientId)
        if (quota === undefined) return Effect.succeed(undefined)
        const reservation = Quota.reserve(quota, now)
        if (reservation._tag === "Exhausted") {
          return Effect.fail(new Errors.QuotaExceeded({ limit: reservation.limit, used: reservation.used }))
        }
        state.quotas.set(clientId, reservation.quota)
        return Effect.succeed(reservation.quota)
      }),
    release: (clientId, at) =>
      Effect.sync(() => {
        const quota = state.quotas.get(clientId)
        if (quota !== undefined) state.quotas.set(clientId, Quota.release(quota, at))
      }),
    get: (clientId) => Effect.sync(() => state.quotas.get(clientId)),
    set: (clientId, limit, period, now) =>
      Effect.suspend(() => {
        if (!state.clients.has(clientId)) return Effect.fail(conflict(`quota references unknown client ${clientId}`))
        const existing = state.quotas.get(clientId)
        const quota: Quota.Quota = {
          clientId,
          limit,
          period,
          periodStart: Quota.periodStart(period, now),
          used: existing === undefined ? 0 : Quota.usedAt({ ...existing, period }, now)
        }
        state.quotas.set(clientId, quota)
        return Effect.succeed(quota)
      })
  })
