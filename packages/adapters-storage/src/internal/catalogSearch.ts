/**
 * The SQL side of `CatalogStore.search`, one statement per query kind (plus a transaction-local
 * `pg_trgm.similarity_threshold` for trigram searches in SQL). Every statement is entered through the catalog
 * column's search space and checks that the catalog belongs to the client.
 */
import { type Catalog, CatalogMatch } from "@legible/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { Fragment } from "effect/sql/Statement"
import type { IndexCache } from "./catalogIndex.js"
import type { TrigramIndex } from "./trigramIndex.js"

interface RecordRow {
  readonly id: string
  readonly values: Record<string, string>
}

/** Rows a one-edit lookup reads at most (ordered by similarity, so the one-edit ones come first). */
const NEAR_SCAN = 200

const toRecord = (row: RecordRow): Catalog.CatalogRecord => ({ id: row.id, values: row.values })

const reverse = (text: string) => [...text].reverse().join("")

type Similar = Extract<CatalogMatch.CatalogQuery, { _tag: "Similar" }>

const hitIds = (index: TrigramIndex, query: Similar) =>
  index.search(query.text, query.minSimilarity, query.limit).map((hit) => index.idAt(hit.position))

/** The records of `rows` in the order of `ids` (the index's ranking). */
const inOrder = (ids: ReadonlyArray<string>, rows: ReadonlyArray<RecordRow>): Array<Catalog.CatalogRecord> => {
  const byId = new Map(rows.map((row) => [row.id, row]))
  return ids.flatMap((id) => {
    const row = byId.get(id)
    return row === undefined ? [] : [toRecord(row)]
  })
}

/** Answers `query` on the catalog column; `catalogId` is a lower-case UUID. */
export const run = (
  sql: SqlClient.SqlClient,
  indexes: IndexCache,
  clientId: string,
  catalogId: string,
  query: CatalogMatch.CatalogQuery
) =>
  Effect.gen(function* () {
    const space = sql`md5(${catalogId}::uuid::text || '/' || ${query.column})::uuid`
    const owned = sql`EXISTS (SELECT 1 FROM catalogs c WHERE c.id = ${catalogId} AND c.client_id = ${clientId})`
    switch (query._tag) {
      // Exact lookups are index-only scans of (space, norm|ident) INCLUDE (record_id): the space already names the
      // catalog column, so no other `catalog_keys` column is read (which would fetch its heap page).
      case "Key": {
        const rows = yield* sql<RecordRow>`
          SELECT r.id, r."values" FROM catalog_keys k
          JOIN catalog_records r ON r.catalog_id = ${catalogId} AND r.id = k.record_id
          WHERE k.space = ${space} AND k.norm = ${query.key.slice(0, CatalogMatch.INDEXED_KEY_LENGTH)} AND ${owned}
          ORDER BY k.record_id LIMIT ${query.limit}`
        // Keys are indexed up to INDEXED_KEY_LENGTH: a longer one is checked in full here.
        return rows
          .filter(
            (row) =>
              query.key.length <= CatalogMatch.INDEXED_KEY_LENGTH ||
              CatalogMatch.normalize(row.values[query.column] ?? "").key === query.key
          )
          .map(toRecord)
      }
      case "Identifier": {
        const byIdentifier = sql`
          SELECT r.id, r."values", 0 AS by_key FROM catalog_keys k
          JOIN catalog_records r ON r.catalog_id = ${catalogId} AND r.id = k.record_id
          WHERE k.space = ${space} AND k.ident = ${query.identifier} AND ${owned}
          ORDER BY k.record_id LIMIT ${query.limit}`
        const key = query.orKey
        if (key === undefined) return (yield* sql<RecordRow>`${byIdentifier}`).map(toRecord)
        // The key lookup in the same statement, taken only when no record has the identifier (an index probe):
        // one round trip where a miss on the identifier used to cost a second one.
        const rows = yield* sql<RecordRow & { readonly by_key: number }>`
          (${byIdentifier})
          UNION ALL
          (SELECT r.id, r."values", 1 AS by_key FROM catalog_keys k
          JOIN catalog_records r ON r.catalog_id = ${catalogId} AND r.id = k.record_id
          WHERE k.space = ${space} AND k.norm = ${key.slice(0, CatalogMatch.INDEXED_KEY_LENGTH)} AND ${owned}
            AND NOT EXISTS (SELECT 1 FROM catalog_keys i WHERE i.space = ${space} AND i.ident = ${query.identifier})
          ORDER BY k.record_id LIMIT ${query.limit})`
        return rows
          .filter(
            (row) =>
              Number(row.by_key) === 0 ||
              key.length <= CatalogMatch.INDEXED_KEY_LENGTH ||
              CatalogMatch.normalize(row.values[query.column] ?? "").key === key
          )
          .map(toRecord)
      }
      case "NearIdentifier": {
        // One edit leaves either the first ⌊n/2⌋ characters or the last ⌈n/2⌉ − 1 intact: two index ranges
        // (forwards and reversed); the exact one-edit test is made here on what they return.
        const wanted = query.identifier
        const n = wanted.length
        const prefix = wanted.slice(0, Math.floor(n / 2))
        const suffix = reverse(wanted.slice(Math.floor(n / 2) + 1))
        const rows = yield* sql<RecordRow & { readonly ident: string }>`
          SELECT r.id, r."values", m.ident FROM (
            SELECT k.record_id, k.ident, similarity(k.ident, ${wanted}) AS s FROM catalog_keys k
            WHERE k.space = ${space} AND k.ident IS NOT NULL AND k.ident <> ${wanted}
              AND length(k.ident) BETWEEN ${n - 1} AND ${n + 1}
              AND ((k.ident >= ${prefix} AND k.ident < ${`${prefix}~`})
                OR (reverse(k.ident) >= ${suffix} AND reverse(k.ident) < ${`${suffix}~`}))
            ORDER BY s DESC, k.record_id LIMIT ${NEAR_SCAN}
          ) m
          JOIN catalog_records r ON r.catalog_id = ${catalogId} AND r.id = m.record_id
          WHERE ${owned}
          ORDER BY m.s DESC, m.record_id`
        return rows
          .filter((row) => CatalogMatch.withinOneEdit(row.ident, wanted))
          .slice(0, query.limit)
          .map((row) => toRecord(row))
      }
      case "Similar": {
        // A cached index is searched first and checked in the same round trip that fetches its hits: the
        // catalog's current version (and owner) comes back with the records. A stale index falls through.
        const cached = indexes.peek(catalogId, query.column)
        if (cached !== undefined) {
          const ids = hitIds(cached.index, query)
          const rows = yield* sql<{
            version: bigint | number
            id: string | null
            values: Record<string, string> | null
          }>`
            SELECT c.records_version AS version, r.id, r."values" FROM catalogs c
            LEFT JOIN catalog_records r ON r.catalog_id = c.id
              AND r.id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))
            WHERE c.id = ${catalogId} AND c.client_id = ${clientId}`
          const [first] = rows
          if (first === undefined) return []
          if (Number(first.version) === cached.version) {
            return inOrder(
              ids,
              rows.flatMap((row) =>
                row.id === null || row.values === null ? [] : [{ id: row.id, values: row.values }]
              )
            )
          }
        }
        const [meta] = yield* sql<{ version: bigint | number; count: bigint | number }>`
          SELECT records_version AS version, record_count AS count FROM catalogs
          WHERE id = ${catalogId} AND client_id = ${clientId}`
        if (meta === undefined) return []
        const index = yield* indexes.get(catalogId, query.column, Number(meta.version), Number(meta.count))
        if (index === undefined) return yield* similarInSql(sql, catalogId, space, query)
        const ids = hitIds(index, query)
        if (ids.length === 0) return []
        const rows = yield* sql<RecordRow>`
          SELECT r.id, r."values" FROM catalog_records r
          WHERE r.catalog_id = ${catalogId}
            AND r.id IN (SELECT value::uuid FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`
        return inOrder(ids, rows)
      }
    }
  })

/**
 * Trigram candidates by `pg_trgm`: `%` uses the GIN index (led by the search space) with the threshold set for this
 * transaction only, then the best `limit` by similarity.
 */
const similarInSql = (sql: SqlClient.SqlClient, catalogId: string, space: Fragment, query: Similar) =>
  sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT set_config('pg_trgm.similarity_threshold', ${String(Math.min(1, Math.max(0, query.minSimilarity)))}, true)`
      const rows = yield* sql<RecordRow>`
        SELECT r.id, r."values" FROM (
          SELECT k.record_id, similarity(k.norm, ${query.text}) AS s FROM catalog_keys k
          WHERE k.space = ${space} AND k.norm % ${query.text}
          ORDER BY s DESC, k.record_id LIMIT ${query.limit}
        ) t
        JOIN catalog_records r ON r.catalog_id = ${catalogId} AND r.id = t.record_id
        ORDER BY t.s DESC, t.record_id`
      return rows.map(toRecord)
    })
  )
