import { Errors, Ports } from "@legible/core"
import { Effect } from "effect"
import { conflict, type State } from "./state.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

const owned = (state: State, clientId: string, id: string) => {
  const catalog = state.catalogs.get(id)
  return catalog !== undefined && catalog.clientId === clientId ? catalog : undefined
}

/** The in-memory `CatalogStore`: catalogs scoped by client; records upserted by id, unknown columns refused. */
export const make = (state: State): Ports.CatalogStore["Service"] =>
  Ports.CatalogStore.of({
    create: (catalog) =>
      Effect.suspend(() => {
        if (state.catalogs.has(catalog.id)) return Effect.fail(conflict(`catalog ${catalog.id} already exists`))
        if (!state.clients.has(catalog.clientId)) {
          return Effect.fail(conflict(`catalog ${catalog.id} references unknown client ${catalog.clientId}`))
        }
        state.catalogs.set(catalog.id, { ...catalog })
        state.catalogRecords.set(catalog.id, new Map())
        return Effect.void
      }),
    get: (clientId, id) => Effect.sync(() => owned(state, clientId, id)),
    list: (clientId) =>
      Effect.sync(() =>
        [...state.catalogs.values()]
          .filter((c) => c.clientId === clientId)
          .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1))
      ),
    remove: (clientId, id) =>
      Effect.sync(() => {
        if (owned(state, clientId, id) === undefined) return false
        state.catalogs.delete(id)
        state.catalogRecords.delete(id)
        return true
      }),
    upsertRecords: (clientId, catalogId, records) =>
      Effect.suspend(() => {
        const catalog = owned(state, clientId, catalogId)
        if (catalog === undefined) {
          return Effect.fail(new Errors.InvalidRequest({ message: `catalog ${catalogId} does not exist` }))
        }
        const badId = records.find((r) => !UUID.test(r.id))
        if (badId !== undefined) {
          return Effect.fail(new Errors.InvalidRequest({ message: `record id ${badId.id} is not a UUID` }))
        }
        const columns = new Set(catalog.columns)
        for (const record of records) {
          const unknown = Object.keys(record.values).filter((c) => !columns.has(c))
          if (unknown.length > 0) {
            return Effect.fail(
              new Errors.InvalidRequest({
                message: `record ${record.id} has values of unknown columns: ${unknown.join(", ")}`
              })
            )
          }
        }
        const stored = state.catalogRecords.get(catalogId)!
        for (const record of records) stored.set(record.id, { id: record.id, values: { ...record.values } })
        return Effect.succeed(records.length)
      }),
    getRecord: (clientId, catalogId, recordId) =>
      Effect.sync(() =>
        owned(state, clientId, catalogId) === undefined ? undefined : state.catalogRecords.get(catalogId)?.get(recordId)
      ),
    countRecords: (clientId, catalogId) =>
      Effect.sync(() =>
        owned(state, clientId, catalogId) === undefined ? 0 : (state.catalogRecords.get(catalogId)?.size ?? 0)
      )
  })
