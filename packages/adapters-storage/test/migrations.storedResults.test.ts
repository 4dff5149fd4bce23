/**
 * Migration 8_stored_results on a database whose results were written by the previous code (JSONB only): each is
 * serialized for both reads, reads the same as before, and its object-list items come back in the skill's order
 * (JSONB had them by key length). Run on PostgreSQL and PGlite, each from an unmigrated database.
 */
import { assert, describe } from "@effect/vitest"
import { Extraction, Ports, StoredResult } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Context, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as Migrator from "effect/sql/Migrator"
import * as Database from "../src/Database.js"
import * as SqlExtractionStore from "../src/internal/extractionStore.js"
import { migrations } from "../src/internal/migrations.js"
import { migrationsFrom, onUnmigratedEngines } from "./support/databases.js"

/** The schema as it was before the migration. */
const before = Migrator.make({})({
  loader: Migrator.fromRecord({
    "1_initial": migrations["1_initial"],
    "2_catalog_search": migrations["2_catalog_search"],
    "3_users_per_client": migrations["3_users_per_client"],
    "4_catalog_keys_own_abbreviations": migrations["4_catalog_keys_own_abbreviations"],
    "5_skill_review": migrations["5_skill_review"],
    "6_webhooks": migrations["6_webhooks"],
    "7_idempotency": migrations["7_idempotency"]
  }),
  table: Database.migrationsTable
})

const record = Fixtures.completedExtraction()
const queued = Fixtures.extraction({ id: Fixtures.fixtureId(81) })
const lineItem = (body: Record<string, unknown>) =>
  ((body.fields as Array<{ name: string; value: Array<Record<string, unknown>> }>).find((f) => f.name === "lineas")
    ?.value[0] ?? {}) as Record<string, unknown>

const scenario = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* before
  const user = Fixtures.user()
  const skill = Fixtures.skill()
  yield* sql`INSERT INTO clients (id, name) VALUES (${user.clientId}, 'Acme')`
  yield* sql`INSERT INTO users (id, client_id, name, email, role)
    VALUES (${user.id}, ${user.clientId}, ${user.name}, ${user.email}, ${user.role})`
  yield* sql`INSERT INTO api_keys (id, client_id, user_id, nombre, tipo, key_hash, key_preview, created_at)
    VALUES (${Fixtures.ids.liveKey}, ${user.clientId}, ${user.id}, 'clave', 'live', ${Fixtures.LIVE_KEY_HASH}, 'pk…', now())`
  yield* sql`INSERT INTO skills (id, client_id, slug, name, version, instructions, fields, created_at, updated_at)
    VALUES (${skill.id}, ${skill.clientId}, ${skill.slug}, ${skill.name}, 1, '', ${JSON.stringify(skill.fields)}::jsonb,
      now(), now())`
  yield* sql`INSERT INTO skill_versions (skill_id, version, name, instructions, fields, created_at)
    VALUES (${skill.id}, 1, ${skill.name}, '', ${JSON.stringify(skill.fields)}::jsonb, now())`
  for (const r of [record, queued]) {
    yield* sql`INSERT INTO extractions (id, client_id, sandbox, skill_id, skill_slug, skill_name, skill_version,
        origin_name, origin_name_folded, mime_type, size_bytes, model, mode, status, created_at, last_modification,
        last_user_id, last_user_name, last_user_email, attempts, result, document_location)
      VALUES (${r.id}, ${r.clientId}, false, ${r.skillId}, ${r.skillSlug}, ${r.skillName}, 1, ${r.originName},
        ${r.originName}, ${r.mimeType}, ${r.sizeBytes}, ${r.model}, ${r.mode}, ${r.status}, ${r.createdAt}::timestamptz,
        ${r.lastModification}::timestamptz, ${r.lastUser.id}, ${r.lastUser.name}, ${r.lastUser.email}, ${r.attempts},
        ${r.result === null ? null : JSON.stringify(r.result)}::jsonb, 'db')`
  }
  // What the previous code sent: the JSONB result through the response schemas, items keyed by length.
  const old = {
    plain: Schema.encodeSync(Extraction.Extraction)(Extraction.toExtraction(record)),
    detailed: Schema.encodeSync(Extraction.DetailedExtraction)(Extraction.toDetailed(record))
  }
  const [jsonbOrder] = yield* sql<{ keys: string }>`
    SELECT (SELECT string_agg(k, ',') FROM jsonb_object_keys(result->'fields'->4->'value'->0) k) AS keys
    FROM extractions WHERE id = ${record.id}`
  assert.strictEqual(jsonbOrder?.keys, "importe,cantidad,descripcion", "JSONB keeps keys by length")

  const ran = yield* Database.migrate
  assert.deepStrictEqual(
    ran.map(([, name]) => name),
    migrationsFrom("stored_results")
  )

  const store = Context.get(yield* SqlExtractionStore.make(), Ports.ExtractionStore)
  const [stored] = yield* sql<{ plain: string | null; detailed: string | null }>`
    SELECT result_plain AS plain, result_detailed AS detailed FROM extractions WHERE id = ${record.id}`
  assert.isFalse(stored?.plain?.includes('"words"') ?? true, "the plain read's text carries no word")
  for (const view of ["plain", "detailed"] as const) {
    const read = yield* store.readAs(Fixtures.LIVE_KEY_HASH, record.id, view)
    assert.isDefined(read?.found?.stored, `${view}: stored text`)
    assert.isNull(read?.found?.record.result ?? null, `${view}: the JSONB result is not fetched`)
    const body = JSON.parse(
      StoredResult.bodyText(StoredResult.render(read?.found?.record ?? record, read?.found?.stored ?? null, view))
    )
    assert.deepStrictEqual(body, old[view], `${view}: the same body as before`)
    assert.deepStrictEqual(Object.keys(lineItem(body)), ["descripcion", "cantidad", "importe"], view)
    assert.deepStrictEqual(Object.keys(body), Object.keys(old[view]), `${view}: members in the schema's order`)
  }
  // A queued extraction has no result: nothing stored, and its read is the record alone.
  const pending = yield* store.readAs(Fixtures.LIVE_KEY_HASH, queued.id, "plain")
  assert.isNull(pending?.found?.stored ?? null)
  assert.deepStrictEqual(
    JSON.parse(StoredResult.bodyText(StoredResult.render(pending?.found?.record ?? queued, null, "plain"))),
    Schema.encodeSync(Extraction.Extraction)(Extraction.toExtraction(queued))
  )
})

describe("migration 8_stored_results", () => {
  onUnmigratedEngines("serializes the results written before, in the skill's order, reading as they did", scenario)
})
