/** Shared pieces of the contract suites: the ports under test, isolated tenants, fixed times and ids. */
import { type Directory, Ports, Timestamp } from "@legible/core"
import { Fixtures, TestIds, TestTime } from "@legible/testkit"
import { Effect, type Layer, Schema } from "effect"
import type * as SqlStorage from "../../src/SqlStorage.js"

/** Every port a contract suite may use (the SQL stores and `Memory.layer` both provide them). */
export type Stores = SqlStorage.Services

/** A layer under test: its build may fail in any way (a database that will not open fails the suite). */
export type StoresLayer = Layer.Layer<Stores, unknown>

/** A tenant of its own per test (suites share one database): a client and one user of it. */
export interface Tenant {
  readonly client: Directory.Client
  readonly user: Directory.User
}

/** Creates the tenant `name` (client `client-<name>`, user `user-<name>`) through the `Directory` port. */
export const tenant = (name: string): Effect.Effect<Tenant, unknown, Ports.Directory> =>
  Effect.gen(function* () {
    const directory = yield* Ports.Directory
    const client = yield* directory.upsertClient({ id: `client-${name}`, name: `Cliente ${name}` })
    const user = yield* directory.upsertUser(
      Fixtures.user({
        id: `user-${name}`,
        clientId: client.id,
        name: `Usuaria ${name}`,
        email: `${name}@example.test`
      })
    )
    return { client, user }
  })

/** `TestTime.now` shifted by `offsetMs`. */
export const at = (offsetMs: number): Timestamp.Timestamp => TestTime.at(offsetMs)

/** A timestamp written exactly (`2026-03-12T10:15:30.123456+00:00`): microseconds included. */
export const exact: (text: string) => Timestamp.Timestamp = Schema.decodeSync(Timestamp.Timestamp)

/** The n-th deterministic UUID of a suite (`block` keeps suites apart: `block * 1_000_000 + n`). */
export const idOf = (block: number, n: number): string => TestIds.uuid(block * 1_000_000 + n)
