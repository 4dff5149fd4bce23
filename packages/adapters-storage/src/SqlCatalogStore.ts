/**
 * The `CatalogStore` port over SQL: catalogs scoped by client, records upserted in bulk by id with their normalized
 * columns (`catalog_keys`) in the same transaction, and the searches of catalog matching: indexed equality on the
 * key or folded identifier, one-edit identifiers by prefix/suffix index ranges, and trigram candidates — by
 * `pg_trgm` (GIN led by the catalog column) for small catalogs, by an in-process index for large ones.
 */
import { type Catalog, type CatalogMatch, Errors, Ports, type Timestamp, Uuid } from "@legible/core"
import { Config, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as CatalogIndex from "./internal/catalogIndex.js"
import * as CatalogKeys from "./internal/catalogKeys.js"
import * as Search from "./internal/catalogSearch.js"
import { mapSqlError } from "./internal/errors.js"
import { toNumber, ts } from "./internal/sql.js"

/** Options of the store: when catalogs are searched with an in-process index; `defaults` for those left out. */
export interface Options {
  /** Catalogs with fewer records are searched in SQL (`pg_trgm`); `Infinity`: always SQL. */
  readonly minRecords?: number | undefined
  /** The most bytes all in-process indexes may hold together (`0`: always SQL). */
  readonly cacheBytes?: number | undefined
}

/** In process from 5,000 records, up to 256 MiB of indexes (about two 1M-record columns; MEASUREMENTS.md). */
export const defaults: CatalogIndex.IndexOptions = CatalogIndex.defaultOptions

/** `minRecords`: at least 1. */
export const MinRecords = Schema.Number.check(Schema.isGreaterThanOrEqualTo(1))
/** `cacheBytes`: a whole number of bytes, 0 or more. */
export const CacheBytes = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))

interface CatalogRow {
  readonly id: string
  readonly client_id: string
  readonly name: string
  readonly columns: readonly [string, ...Array<string>]
  readonly created_at: Timestamp.Timestamp
}

const toCatalog = (row: CatalogRow): Catalog.Catalog => ({
  id: row.id,
  clientId: row.client_id,
  name: row.name,
  columns: row.columns,
  createdAt: row.created_at
})

const catalogColumns = ["c.id", "c.client_id", "c.name", "c.columns", ts("c.created_at", "created_at")].join(", ")

const invalid = (message: string) => Effect.fail(new Errors.InvalidRequest({ message }))

/** Builds the SQL `CatalogStore` over the `SqlClient` in context, with the given index options. */
export const make = (options: Options = {}): Effect.Effect<Ports.CatalogStore["Service"], never, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.literal(catalogColumns)
    const indexes = CatalogIndex.make(sql, {
      minRecords: options.minRecords ?? defaults.minRecords,
      cacheBytes: options.cacheBytes ?? defaults.cacheBytes
    })

    const find = (clientId: string, id: string) =>
      Uuid.isUuid(id)
        ? Effect.map(
            sql<CatalogRow>`SELECT ${columns} FROM catalogs c WHERE c.id = ${id} AND c.client_id = ${clientId}`,
            (rows) => rows[0]
          )
        : Effect.succeed(undefined)

    const create = Effect.fn("CatalogStore.create")(function* (catalog: Catalog.Catalog) {
      yield* sql`
      INSERT INTO catalogs (id, client_id, name, columns, created_at)
      VALUES (${catalog.id}, ${catalog.clientId}, ${catalog.name}, ${JSON.stringify(catalog.columns)}::jsonb,
        ${catalog.createdAt}::timestamptz)`.pipe(mapSqlError("CatalogStore.create"))
    })

    const get = Effect.fn("CatalogStore.get")(function* (clientId: string, id: string) {
      const row = yield* find(clientId, id).pipe(mapSqlError("CatalogStore.get"))
      return row === undefined ? undefined : toCatalog(row)
    })

    const list = Effect.fn("CatalogStore.list")(function* (clientId: string) {
      const rows = yield* sql<CatalogRow>`
      SELECT ${columns} FROM catalogs c WHERE c.client_id = ${clientId} ORDER BY c.created_at, c.id`.pipe(
        mapSqlError("CatalogStore.list")
      )
      return rows.map(toCatalog)
    })

    const remove = Effect.fn("CatalogStore.remove")(function* (clientId: string, id: string) {
      if (!Uuid.isUuid(id)) return false
      const rows = yield* sql<{ id: string }>`
      DELETE FROM catalogs WHERE id = ${id} AND client_id = ${clientId} RETURNING id`.pipe(
        mapSqlError("CatalogStore.remove")
      )
      return rows.length > 0
    })

    // One statement for the whole batch (`jsonb_to_recordset`), inside a transaction that locks the catalog row,
    // so a concurrent removal cannot leave records of a deleted catalog.
    const upsertRecords = Effect.fn("CatalogStore.upsertRecords")(function* (
      clientId: string,
      catalogId: string,
      records: ReadonlyArray<Catalog.CatalogRecord>
    ) {
      const badId = records.find((record) => !Uuid.isUuid(record.id))
      if (badId !== undefined) return yield* invalid(`record id ${badId.id} is not a UUID`)
      // A batch may repeat an id: the last one wins, as if the records were applied in order.
      const byId = new Map(records.map((record) => [record.id.toLowerCase(), record.values]))
      const batch = JSON.stringify([...byId].map(([id, values]) => ({ id, values })))
      return yield* sql
        .withTransaction(
          Effect.gen(function* () {
            const rows = Uuid.isUuid(catalogId)
              ? yield* sql<{ columns: ReadonlyArray<string> }>`
            SELECT columns FROM catalogs WHERE id = ${catalogId} AND client_id = ${clientId} FOR UPDATE`
              : []
            const catalog = rows[0]
            if (catalog === undefined) return yield* invalid(`catalog ${catalogId} does not exist`)
            const known = new Set(catalog.columns)
            for (const record of records) {
              const unknown = Object.keys(record.values).filter((column) => !known.has(column))
              if (unknown.length > 0) {
                return yield* invalid(`record ${record.id} has values of unknown columns: ${unknown.join(", ")}`)
              }
            }
            if (byId.size > 0) {
              // `xmax = 0` tells inserted rows from updated ones: the catalog keeps its record count without count(*).
              const written = yield* sql<{ inserted: boolean }>`
          INSERT INTO catalog_records (catalog_id, id, "values")
          SELECT ${catalogId}, r.id::uuid, r."values" FROM jsonb_to_recordset(${batch}::jsonb) AS r(id text, "values" jsonb)
          ON CONFLICT (catalog_id, id) DO UPDATE SET "values" = excluded."values"
          RETURNING (xmax = 0) AS inserted`
              yield* CatalogKeys.write(
                sql,
                catalogId,
                [...byId].map(([id, values]) => ({ id, values }))
              )
              const inserted = written.filter((row) => row.inserted).length
              // A new version invalidates cached in-process indexes of this catalog, in every process.
              yield* sql`
          UPDATE catalogs SET records_version = records_version + 1, record_count = record_count + ${inserted}
          WHERE id = ${catalogId}`
            }
            return records.length
          })
        )
        .pipe(mapSqlError("CatalogStore.upsertRecords"))
    })

    const getRecord = Effect.fn("CatalogStore.getRecord")(function* (
      clientId: string,
      catalogId: string,
      recordId: string
    ) {
      if (!Uuid.isUuid(catalogId) || !Uuid.isUuid(recordId)) return undefined
      const rows = yield* sql<{ id: string; values: Record<string, string> }>`
      SELECT r.id, r."values" FROM catalog_records r JOIN catalogs c ON c.id = r.catalog_id
      WHERE c.id = ${catalogId} AND c.client_id = ${clientId} AND r.id = ${recordId}`.pipe(
        mapSqlError("CatalogStore.getRecord")
      )
      const row = rows[0]
      return row === undefined ? undefined : { id: row.id, values: row.values }
    })

    const countRecords = Effect.fn("CatalogStore.countRecords")(function* (clientId: string, catalogId: string) {
      if (!Uuid.isUuid(catalogId)) return 0
      const rows = yield* sql<{ n: bigint }>`
      SELECT count(*) AS n FROM catalog_records r JOIN catalogs c ON c.id = r.catalog_id
      WHERE c.id = ${catalogId} AND c.client_id = ${clientId}`.pipe(mapSqlError("CatalogStore.countRecords"))
      return toNumber(rows[0]?.n ?? 0)
    })

    // Untraced: every catalog match calls it once or more, inside `CatalogMatcher.match`'s span, where the statement
    // is traced on its own; a span of its own (with its call-site stack) costs more (`MEASUREMENTS.md`).
    const search = Effect.fnUntraced(function* (clientId: string, catalogId: string, query: CatalogMatch.CatalogQuery) {
      if (!Uuid.isUuid(catalogId) || query.limit <= 0) return []
      return yield* Search.run(sql, indexes, clientId, catalogId.toLowerCase(), query).pipe(
        mapSqlError("CatalogStore.search")
      )
    })

    return Ports.CatalogStore.of({ create, get, list, remove, upsertRecords, getRecord, countRecords, search })
  })

/** Provides `CatalogStore` over the `SqlClient` in context, with the given index options. */
export const layer = (options: Options = {}): Layer.Layer<Ports.CatalogStore, never, SqlClient.SqlClient> =>
  Layer.effect(Ports.CatalogStore, make(options))

/** Like `layer`, with the options read from `Config`. */
export const layerConfig = (
  config: Config.Wrap<Options>
): Layer.Layer<Ports.CatalogStore, Config.ConfigError, SqlClient.SqlClient> =>
  Layer.unwrap(Effect.map(Config.unwrap(config), layer))
