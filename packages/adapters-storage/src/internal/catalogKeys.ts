/**
 * The normalized columns of catalog records (`catalog_keys`): one row per record and non-empty column, written in
 * the same transaction as the record, with the key (legal form split off), the legal form and, for identifier-like
 * values, the folded identifier (`CatalogMatch.indexedValue`). Each catalog column is its own search space
 * (`space` = md5 of catalog id and column name), so every index is led by one catalog's column.
 */
import { type Catalog, CatalogMatch } from "@legible/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/** One `catalog_keys` row as sent to `jsonb_to_recordset`. */
interface KeyRow {
  readonly id: string
  readonly col: string
  readonly key: string
  readonly legal: string
  readonly ident: string | null
}

/** The key rows of records: one per column with a non-empty key; keys are cut at `INDEXED_KEY_LENGTH`. */
export const keyRows = (records: ReadonlyArray<Catalog.CatalogRecord>): Array<KeyRow> =>
  records.flatMap((record) =>
    Object.entries(record.values).flatMap(([col, value]) => {
      const indexed = CatalogMatch.indexedValue(value)
      if (indexed.key === "") return []
      return [
        {
          id: record.id,
          col,
          key: indexed.key.slice(0, CatalogMatch.INDEXED_KEY_LENGTH),
          legal: indexed.legal,
          ident: indexed.identifier ?? null
        }
      ]
    })
  )

/** The search space of a catalog column, in SQL (the catalog id as a parameter, the column as SQL text). */
export const spaceOf = (sql: SqlClient.SqlClient, catalogId: string, column: string) =>
  sql`md5(${catalogId}::uuid::text || '/' || ${column})::uuid`

/** Replaces the key rows of `records` (ids in lower case) of the catalog. Run inside the caller's transaction. */
export const write = (sql: SqlClient.SqlClient, catalogId: string, records: ReadonlyArray<Catalog.CatalogRecord>) =>
  Effect.gen(function* () {
    if (records.length === 0) return
    const ids = JSON.stringify(records.map((record) => record.id))
    yield* sql`
      DELETE FROM catalog_keys
      WHERE catalog_id = ${catalogId} AND record_id IN (SELECT value::uuid FROM jsonb_array_elements_text(${ids}::jsonb))`
    const rows = keyRows(records)
    if (rows.length === 0) return
    yield* sql`
      INSERT INTO catalog_keys (catalog_id, record_id, column_name, space, norm, legal, ident)
      SELECT ${catalogId}, k.id::uuid, k.col, md5(${catalogId}::uuid::text || '/' || k.col)::uuid, k.key, k.legal,
        k.ident
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS k(id text, col text, key text, legal text, ident text)`
  })

/** Records per backfill batch. */
const BACKFILL_BATCH = 5_000

/** Writes the key rows of every stored record, catalog by catalog, in id order (migration `2_catalog_search`). */
export const backfill = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const catalogs = yield* sql<{ id: string }>`SELECT id FROM catalogs ORDER BY id`
    for (const catalog of catalogs) {
      let after = "00000000-0000-0000-0000-000000000000"
      while (true) {
        const records = yield* sql<{ id: string; values: Record<string, string> }>`
          SELECT id, "values" FROM catalog_records WHERE catalog_id = ${catalog.id} AND id > ${after}
          ORDER BY id LIMIT ${BACKFILL_BATCH}`
        const last = records.at(-1)
        if (last === undefined) break
        yield* write(sql, catalog.id, records)
        after = last.id
      }
    }
  })

/**
 * Rewrites the key rows of records whose keys were written with `Object.prototype.constructor` for the word
 * "constructor" (the abbreviation table was read through the prototype chain), and bumps their catalogs' versions
 * so cached in-process indexes are rebuilt (migration `4_catalog_keys_own_abbreviations`).
 */
export const rewriteProtoKeys = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    const affected = yield* sql<{ catalog_id: string; id: string; values: Record<string, string> }>`
      SELECT r.catalog_id, r.id, r."values" FROM catalog_records r
      WHERE EXISTS (SELECT 1 FROM catalog_keys k WHERE k.catalog_id = r.catalog_id AND k.record_id = r.id
        AND strpos(k.norm, '[native code]') > 0)
      ORDER BY r.catalog_id, r.id`
    const byCatalog = new Map<string, Array<Catalog.CatalogRecord>>()
    for (const row of affected) {
      const records = byCatalog.get(row.catalog_id) ?? []
      records.push({ id: row.id, values: row.values })
      byCatalog.set(row.catalog_id, records)
    }
    for (const [catalogId, records] of byCatalog) {
      yield* write(sql, catalogId, records)
      yield* sql`UPDATE catalogs SET records_version = records_version + 1 WHERE id = ${catalogId}`
    }
  })
