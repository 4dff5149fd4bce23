import { Schema } from "effect"

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
