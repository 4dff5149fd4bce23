/**
 * Migration 9_result_compression: the detailed read's stored text is compressed with lz4 where the server has it
 * (the PostgreSQL the tests run on is built with it), and the migration leaves PGlite, which has only pglz, as it was.
 * Read back from the catalog and from a value written after it; reads still give the text written.
 */
import { assert, describe } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../src/Database.js"
import { onUnmigratedEngines } from "./support/databases.js"

const scenario = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* Database.migrate
  const [server] = yield* sql<{ readonly lz4: boolean }>`
    SELECT 'lz4' = ANY (enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`
  const expected = server?.lz4 === true ? "l" : ""
  const columns = yield* sql<{ readonly attname: string; readonly compression: string }>`
    SELECT attname, attcompression::text AS compression FROM pg_attribute
    WHERE attrelid = 'extractions'::regclass AND attname IN ('result_plain', 'result_detailed') ORDER BY attname`
  assert.deepStrictEqual(
    columns.map((c) => [c.attname, c.compression]),
    [
      ["result_detailed", expected],
      ["result_plain", ""]
    ]
  )
  // A value large enough to be compressed, written after the migration, is compressed with the column's method.
  yield* sql`CREATE TEMPORARY TABLE probe (LIKE extractions INCLUDING ALL)`
  const text = `"words":${JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ text: `palabra ${i % 50}`, i })))}`
  yield* sql`INSERT INTO probe (id, client_id, sandbox, skill_id, skill_slug, skill_name, skill_version, origin_name,
      origin_name_folded, mime_type, size_bytes, model, mode, status, created_at, last_modification, last_user_id,
      last_user_name, last_user_email, attempts, document_location, result_detailed)
    VALUES (gen_random_uuid(), 'c', false, gen_random_uuid(), 's', 'S', 1, 'f.pdf', 'f.pdf', 'application/pdf', 1,
      'local', 'rapido', 'completado', now(), now(), 'u', 'U', '', 0, 'db', ${text})`
  const [written] = yield* sql<{ readonly method: string | null; readonly same: boolean }>`
    SELECT pg_column_compression(result_detailed) AS method, result_detailed = ${text} AS same FROM probe`
  assert.strictEqual(written?.method, server?.lz4 === true ? "lz4" : "pglz")
  assert.isTrue(written?.same)
})

describe("migration 9_result_compression", () => {
  onUnmigratedEngines("compresses the detailed text with lz4 where the server has it, reads unchanged", scenario)
})
