import { Ports } from "@legible/core"
import { Effect } from "effect"
import { type State, userKey } from "./state.js"

/**
 * The in-memory `Directory`: clients by id, users by (client, id); a user's unknown client is created, named after
 * its id.
 */
export const make = (state: State): Ports.Directory["Service"] =>
  Ports.Directory.of({
    upsertClient: (client) =>
      Effect.sync(() => {
        const stored = { id: client.id, name: client.name }
        state.clients.set(client.id, stored)
        return stored
      }),
    getClient: (id) => Effect.sync(() => state.clients.get(id)),
    upsertUser: (user) =>
      Effect.sync(() => {
        if (!state.clients.has(user.clientId))
          state.clients.set(user.clientId, { id: user.clientId, name: user.clientId })
        const stored = { ...user }
        state.users.set(userKey(user.clientId, user.id), stored)
        return stored
      }),
    getUser: (clientId, id) => Effect.sync(() => state.users.get(userKey(clientId, id)))
  })
