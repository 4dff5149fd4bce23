import { Context, type Effect, Schema } from "effect"
import type { StorageError } from "./Errors.js"

/** A client (organization): the tenant that owns keys, skills, catalogs, extractions and a quota. */
export const ClientId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))
export type ClientId = typeof ClientId.Type

/** A user's role: `global_admin` may act on any client's extractions (spec 4.6). */
export const Role = Schema.Literals(["user", "global_admin"])
export type Role = typeof Role.Type

/** A client (organization). */
export const Client = Schema.Struct({
  id: ClientId,
  name: Schema.String
})
export type Client = typeof Client.Type

/**
 * A user as known from the identity provider's token claims. A user is identified by its client and its id (the
 * token's `sub`): providers make `sub` unique only within a client, so the same id in two clients is two users.
 */
export const User = Schema.Struct({
  id: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  name: Schema.String,
  email: Schema.String,
  role: Role,
  clientId: ClientId
})
export type User = typeof User.Type

/**
 * The port to the clients and users known to legible. Users are recorded as they present tokens, keyed by
 * (client, id): one client's user never changes another client's user of the same id.
 */
export class Directory extends Context.Service<
  Directory,
  {
    /** Creates the client or renames it. */
    upsertClient(client: Client): Effect.Effect<Client, StorageError>
    getClient(id: ClientId): Effect.Effect<Client | undefined, StorageError>
    /**
     * Records the user (and its client, named after its id when new) with its latest name, email and role; only
     * the user of that client and id is written.
     */
    upsertUser(user: User): Effect.Effect<User, StorageError>
    /** The user `id` of client `clientId`. */
    getUser(clientId: ClientId, id: string): Effect.Effect<User | undefined, StorageError>
  }
>()("@legible/core/Directory") {}
