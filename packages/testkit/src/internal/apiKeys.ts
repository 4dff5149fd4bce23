import { type ApiKey, Ports, Timestamp } from "@legible/core"
import { Effect } from "effect"
import { conflict, type State, userKey } from "./state.js"

const MINUTE_MICROS = 60_000_000n

const newestFirst = (a: ApiKey.StoredApiKey, b: ApiKey.StoredApiKey): number =>
  a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.id < b.id ? 1 : a.id > b.id ? -1 : 0

/** The active key with this hash and its user, as `ApiKeyStore.findActive` finds it. */
export const findActive = (state: State, hash: string): Ports.AuthenticatedKey | undefined => {
  for (const key of state.apiKeys.values()) {
    if (key.hash !== hash || key.revokedAt !== null) continue
    const user = state.users.get(userKey(key.clientId, key.userId))
    return user === undefined ? undefined : { key, user }
  }
  return undefined
}

/**
 * The in-memory `ApiKeyStore`: keys by id, looked up by hash (unique), revocation effective on the next lookup,
 * `last_used` written at most once a minute. A key's user is the one of the key's own client.
 */
export const make = (state: State): Ports.ApiKeyStore["Service"] =>
  Ports.ApiKeyStore.of({
    insert: (key) =>
      Effect.suspend(() => {
        if (state.apiKeys.has(key.id)) return Effect.fail(conflict(`api key ${key.id} already exists`))
        if ([...state.apiKeys.values()].some((k) => k.hash === key.hash)) {
          return Effect.fail(conflict("an api key with this hash already exists"))
        }
        const user = state.users.get(userKey(key.clientId, key.userId))
        if (user === undefined) {
          return Effect.fail(conflict(`api key ${key.id} references unknown user ${key.userId} of ${key.clientId}`))
        }
        state.apiKeys.set(key.id, { ...key })
        return Effect.void
      }),
    list: (clientId) =>
      Effect.sync(() =>
        [...state.apiKeys.values()].filter((k) => k.clientId === clientId && k.revokedAt === null).sort(newestFirst)
      ),
    revoke: (clientId, id, now) =>
      Effect.sync(() => {
        const key = state.apiKeys.get(id)
        if (key === undefined || key.clientId !== clientId || key.revokedAt !== null) return false
        state.apiKeys.set(id, { ...key, revokedAt: now })
        return true
      }),
    findActive: (hash) => Effect.sync(() => findActive(state, hash)),
    touch: (id, now) =>
      Effect.sync(() => {
        const key = state.apiKeys.get(id)
        if (key === undefined) return
        if (key.lastUsed !== null) {
          const since = Timestamp.toEpochMicros(now) - Timestamp.toEpochMicros(key.lastUsed)
          if (since < MINUTE_MICROS) return
        }
        state.apiKeys.set(id, { ...key, lastUsed: now })
      })
  })
