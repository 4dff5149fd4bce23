/**
 * The `SkillStore` port over SQL. `skills` holds each skill's latest version, `skill_versions` every version;
 * a `put` writes both in one statement (an upsert on the live slug), so concurrent puts get distinct versions.
 */
import { IdGenerator, Ports, type Skill, type Timestamp, Uuid } from "@legible/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mapSqlError, upserted } from "./errors.js"
import { ts } from "./sql.js"

interface SkillRow {
  readonly id: string
  readonly client_id: string
  readonly slug: string
  readonly name: string
  readonly version: number
  readonly instructions: string
  readonly fields: ReadonlyArray<Skill.SkillField>
  readonly review: Skill.Review | null
  readonly created_at: Timestamp.Timestamp
  readonly updated_at: Timestamp.Timestamp
}

const toSkill = (row: SkillRow): Skill.Skill => ({
  id: row.id,
  clientId: row.client_id,
  slug: row.slug,
  name: row.name,
  version: row.version,
  instructions: row.instructions,
  fields: row.fields,
  ...(row.review === null ? {} : { review: row.review }),
  createdAt: row.created_at,
  updatedAt: row.updated_at
})

const latestColumns = [
  "s.id",
  "s.client_id",
  "s.slug",
  "s.name",
  "s.version",
  "s.instructions",
  "s.fields",
  "s.review",
  ts("s.created_at", "created_at"),
  ts("s.updated_at", "updated_at")
].join(", ")

/** Builds the SQL `SkillStore` over the `SqlClient` in context. */
export const make: Effect.Effect<Ports.SkillStore["Service"], never, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const latest = sql.literal(latestColumns)

  const put = Effect.fn("SkillStore.put")(function* (input: Ports.SkillInput, now: Timestamp.Timestamp) {
    const id = (yield* IdGenerator.IdGenerator).uuid()
    const row = yield* sql<SkillRow>`
      WITH s AS (
        INSERT INTO skills (id, client_id, slug, name, version, instructions, fields, review, created_at, updated_at)
        VALUES (${id}, ${input.clientId}, ${input.slug}, ${input.name}, 1, ${input.instructions},
          ${JSON.stringify(input.fields)}::jsonb, ${input.review === undefined ? null : JSON.stringify(input.review)}::jsonb,
          ${now}::timestamptz, ${now}::timestamptz)
        ON CONFLICT (client_id, slug) WHERE deleted_at IS NULL DO UPDATE
          SET version = skills.version + 1, name = excluded.name, instructions = excluded.instructions,
            fields = excluded.fields, review = excluded.review, updated_at = excluded.updated_at
        RETURNING *
      ), history AS (
        INSERT INTO skill_versions (skill_id, version, name, instructions, fields, review, created_at)
        SELECT id, version, name, instructions, fields, review, updated_at FROM s
      )
      SELECT ${latest} FROM s`.pipe(mapSqlError("SkillStore.put"), Effect.flatMap(upserted("SkillStore.put")))
    return toSkill(row)
  })

  const findBySlug = Effect.fn("SkillStore.findBySlug")(function* (clientId: string, slug: string) {
    const rows = yield* sql<SkillRow>`
      SELECT ${latest} FROM skills s
      WHERE s.client_id = ${clientId} AND s.slug = ${slug} AND s.deleted_at IS NULL`.pipe(
      mapSqlError("SkillStore.findBySlug")
    )
    const row = rows[0]
    return row === undefined ? undefined : toSkill(row)
  })

  const findById = Effect.fn("SkillStore.findById")(function* (clientId: string, id: string, version?: number) {
    if (!Uuid.isUuid(id)) return undefined
    const rows = yield* (
      version === undefined
        ? sql<SkillRow>`
          SELECT ${latest} FROM skills s
          WHERE s.id = ${id} AND s.client_id = ${clientId} AND s.deleted_at IS NULL`
        : sql<SkillRow>`
          SELECT s.id, s.client_id, s.slug, v.name, v.version, v.instructions, v.fields, v.review,
            ${sql.literal(ts("s.created_at", "created_at"))}, ${sql.literal(ts("v.created_at", "updated_at"))}
          FROM skills s JOIN skill_versions v ON v.skill_id = s.id AND v.version = ${version}
          WHERE s.id = ${id} AND s.client_id = ${clientId} AND s.deleted_at IS NULL`
    ).pipe(mapSqlError("SkillStore.findById"))
    const row = rows[0]
    return row === undefined ? undefined : toSkill(row)
  })

  const list = Effect.fn("SkillStore.list")(function* (clientId: string) {
    const rows = yield* sql<SkillRow>`
      SELECT ${latest} FROM skills s
      WHERE s.client_id = ${clientId} AND s.deleted_at IS NULL
      ORDER BY s.slug`.pipe(mapSqlError("SkillStore.list"))
    return rows.map(toSkill)
  })

  // Soft delete: extractions keep pointing at the skill id, and the slug is free for a new skill.
  const remove = Effect.fn("SkillStore.remove")(function* (clientId: string, slug: string) {
    const rows = yield* sql<{ id: string }>`
      UPDATE skills SET deleted_at = now()
      WHERE client_id = ${clientId} AND slug = ${slug} AND deleted_at IS NULL
      RETURNING id`.pipe(mapSqlError("SkillStore.remove"))
    return rows.length > 0
  })

  return Ports.SkillStore.of({ put, findBySlug, findById, list, remove })
})

/** Provides `SkillStore` over the `SqlClient` in context. */
export const layer: Layer.Layer<Ports.SkillStore, never, SqlClient.SqlClient> = Layer.effect(Ports.SkillStore, make)
