/**
 * The backfill of migration `8_stored_results`: every result stored before, serialized for both reads
 * (`StoredResult.serialize`) with its object-list items put back in the order of the skill version it ran with.
 */
import { type Extraction, type Skill, StoredResult } from "@legible/core"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

/** Rows per backfill batch. */
const BACKFILL_BATCH = 200

interface LegacyRow {
  readonly id: string
  readonly result: Extraction.ExtractionResult
  readonly fields: ReadonlyArray<Skill.SkillField> | null
}

// A result that the schemas refuse (nothing written by legible is) keeps no stored text: its reads go through the
// schema as before and answer what they answered then.
const serialized = (row: LegacyRow): StoredResult.Serialized | undefined => {
  try {
    return StoredResult.serialize(row.result, row.fields ?? undefined)
  } catch {
    return undefined
  }
}

/** Serializes every stored result that has no stored text yet, in id order. */
export const backfill = (sql: SqlClient.SqlClient) =>
  Effect.gen(function* () {
    let after = "00000000-0000-0000-0000-000000000000"
    while (true) {
      const rows = yield* sql<LegacyRow>`
        SELECT e.id, e.result, v.fields FROM extractions e
        LEFT JOIN skill_versions v ON v.skill_id = e.skill_id AND v.version = e.skill_version
        WHERE e.id > ${after} AND e.result IS NOT NULL AND e.result_plain IS NULL
        ORDER BY e.id LIMIT ${BACKFILL_BATCH}`
      const last = rows.at(-1)
      if (last === undefined) return
      for (const row of rows) {
        const stored = serialized(row)
        if (stored === undefined) continue
        yield* sql`
          UPDATE extractions SET result_plain = ${stored.plain}, result_detailed = ${stored.detailed}
          WHERE id = ${row.id}`
      }
      after = last.id
    }
  })
