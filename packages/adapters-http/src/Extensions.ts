/**
 * Operator extensions beyond the spec, tagged so in the OpenAPI document (`x-legible-extension: true`): skills and
 * catalogs management and quotas (JWT), archiving extractions (API key).
 */
import { Field, Quota, Skill, Skills, Timestamp } from "@legible/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as Errors from "./Errors.js"
import { ExtractionId, Text } from "./internal/schemas.js"
import { ApiKeyAuth, JwtAuth } from "./Security.js"

/** Tags a group as an extension in the OpenAPI document: in its title and `x-legible-extension` on every operation. */
export const extension =
  (title: string, description: string) =>
  <Id extends string, E extends HttpApiEndpoint.Constraint, TopLevel extends boolean>(
    group: HttpApiGroup.HttpApiGroup<Id, E, TopLevel>
  ) =>
    group
      .annotateMerge(
        OpenApi.annotations({
          title: `${title} (extension)`,
          description: `Extension beyond the specification. ${description}`,
          override: { "x-legible-extension": true }
        })
      )
      .annotateEndpointsMerge(OpenApi.annotations({ override: { "x-legible-extension": true } }))

/** A skill field as a client writes it: `isList`, `description` and `aliases` may be left out. */
export interface SkillFieldInput {
  readonly name: string
  readonly order: number
  readonly type: Field.FieldType
  readonly isList?: boolean
  readonly description?: string
  readonly aliases?: ReadonlyArray<string>
  readonly fields?: ReadonlyArray<SkillFieldInput>
  readonly catalog?: Skill.CatalogFieldConfig
  readonly validate?: Skill.Validation
}

const fieldInput = (depth: number): Schema.Codec<SkillFieldInput> =>
  Schema.Struct({
    name: Text,
    order: Schema.Int,
    type: Field.FieldType,
    isList: Schema.optionalKey(Schema.Boolean),
    description: Schema.optionalKey(Text),
    aliases: Schema.optionalKey(Schema.Array(Text)),
    fields: Schema.optionalKey(
      depth > 1
        ? Schema.Array(fieldInput(depth - 1))
        : Schema.Array(Schema.Never).annotate({ description: `Sub-fields nest at most ${Skills.MAX_DEPTH} levels.` })
    ),
    catalog: Schema.optionalKey(Skill.CatalogFieldConfig),
    validate: Schema.optionalKey(
      Skill.Validation.annotate({
        description:
          "The identifier check the value must pass (check digits), or `none`. Default: the check the field's name, aliases or description names (e.g. `cuit_emisor`)."
      })
    )
  })

/**
 * Schema of a skill field as written by clients. Sub-fields nest at most `Skills.MAX_DEPTH` levels, and the schema
 * itself stops there, so a hostile body nested a million levels deep is refused at the first level too many
 * instead of exhausting the stack.
 */
export const SkillFieldInput: Schema.Codec<SkillFieldInput> = fieldInput(Skills.MAX_DEPTH)

const ReviewSetting = Skill.Review.annotate({
  description:
    "When set, processing ends in `incompleto`, with an `error_message` naming each field and why, when a " +
    "`required` field is empty, its confidence is under `threshold`, or it fails a check (check digit, plausible " +
    "date, the document's sums); otherwise `completado`. Absent: always `completado`."
})

/** The content of a skill version. */
export const SkillDefinition = Schema.Struct({
  name: Text,
  instructions: Schema.optionalKey(Text),
  fields: Schema.Array(SkillFieldInput),
  review: Schema.optionalKey(ReviewSetting)
})

/** Completes a field as written by a client with the defaults of the optional members. */
export const toSkillField = (input: SkillFieldInput): Skill.SkillField => ({
  name: input.name,
  order: input.order,
  type: input.type,
  isList: input.isList ?? false,
  description: input.description ?? "",
  aliases: input.aliases ?? [],
  ...(input.fields !== undefined ? { fields: input.fields.map(toSkillField) } : {}),
  ...(input.catalog !== undefined ? { catalog: input.catalog } : {}),
  ...(input.validate !== undefined ? { validate: input.validate } : {})
})

/** A skill version as written by a client, completed into core's `Skills.Definition`. */
export const toDefinition = (definition: typeof SkillDefinition.Type): Skills.Definition => ({
  name: definition.name,
  instructions: definition.instructions ?? "",
  fields: definition.fields.map(toSkillField),
  ...(definition.review === undefined ? {} : { review: definition.review })
})

/** The body of a skill creation: a slug and the first version's content. */
export const CreateSkillBody = Schema.Struct({ slug: Text, ...SkillDefinition.fields })

/** A skill version as returned. */
export const SkillResponse = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  name: Schema.String,
  version: Schema.Int,
  instructions: Schema.String,
  fields: Schema.Array(Skill.SkillField),
  review: Schema.optionalKey(ReviewSetting),
  created_at: Timestamp.Timestamp,
  updated_at: Timestamp.Timestamp
})

const Slug = { slug: Schema.String }

/** The skill endpoints (JWT). */
export class SkillsApi extends HttpApiGroup.make("skills")
  .add(
    HttpApiEndpoint.post("create", "/api/skills", {
      payload: CreateSkillBody,
      success: SkillResponse.pipe(HttpApiSchema.status(201)),
      error: Errors.Conflict
    }),
    HttpApiEndpoint.put("update", "/api/skills/:slug", {
      params: Slug,
      payload: SkillDefinition,
      success: SkillResponse,
      error: Errors.NotFound
    }),
    HttpApiEndpoint.get("list", "/api/skills", { success: Schema.Struct({ skills: Schema.Array(SkillResponse) }) }),
    HttpApiEndpoint.get("read", "/api/skills/:slug", {
      params: Slug,
      query: {
        version: Schema.optionalKey(Schema.String.annotate({ description: "A version number; default latest." }))
      },
      success: SkillResponse,
      error: Errors.NotFound
    }),
    HttpApiEndpoint.delete("remove", "/api/skills/:slug", {
      params: Slug,
      success: Schema.Struct({ message: Schema.String }),
      error: Errors.NotFound
    })
  )
  .middleware(JwtAuth)
  .pipe(
    extension(
      "Skills",
      "Manage the client's skills. A `PUT` stores a new version; extractions record the version they ran with."
    )
  ) {}

/** A catalog as returned, with its number of records. */
export const CatalogResponse = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  columns: Schema.Array(Schema.String),
  created_at: Timestamp.Timestamp,
  records: Schema.Int
})

/** Records as CSV: RFC 4180, the header row names the columns, an optional `id` column keeps record ids. */
export const CsvRecords = Text.pipe(HttpApiSchema.asText({ contentType: "text/csv" })).annotate({
  description: "RFC 4180 CSV; the header row names the columns; an optional `id` column holds record UUIDs."
})

/** Records as JSON: objects of column → value (string or number), with an optional `id`. */
export const JsonRecords = Schema.Array(Schema.Record(Text, Schema.Union([Text, Schema.Finite, Schema.Null]))).annotate(
  { description: "Objects of column name → value, with an optional `id` (UUID)." }
)

const CatalogId = { catalog_id: Schema.String }

/** The catalog endpoints (JWT). */
export class CatalogsApi extends HttpApiGroup.make("catalogs")
  .add(
    HttpApiEndpoint.post("create", "/api/catalogs", {
      payload: Schema.Struct({ name: Text, columns: Schema.Array(Text) }),
      success: CatalogResponse.pipe(HttpApiSchema.status(201))
    }),
    HttpApiEndpoint.get("list", "/api/catalogs", {
      success: Schema.Struct({ catalogs: Schema.Array(CatalogResponse) })
    }),
    HttpApiEndpoint.post("importRecords", "/api/catalogs/:catalog_id/records", {
      params: CatalogId,
      payload: [CsvRecords, JsonRecords],
      success: Schema.Struct({ imported: Schema.Int }),
      error: [Errors.NotFound, Errors.PayloadTooLarge]
    }),
    HttpApiEndpoint.delete("remove", "/api/catalogs/:catalog_id", {
      params: CatalogId,
      success: Schema.Struct({ message: Schema.String }),
      error: Errors.NotFound
    })
  )
  .middleware(JwtAuth)
  .pipe(extension("Catalogs", "Manage the client's private catalogs and import their records.")) {}

/** A client's quota as returned; `limit: null` is unlimited, `period_start: null` means no quota was ever set. */
export const QuotaResponse = Schema.Struct({
  client_id: Schema.String,
  limit: Schema.NullOr(Schema.Int),
  period: Quota.Period,
  period_start: Schema.NullOr(Timestamp.Timestamp),
  used: Schema.Int
})

const ClientId = { client_id: Schema.String }

/** The quota endpoints (JWT). */
export class QuotasApi extends HttpApiGroup.make("quotas")
  .add(
    HttpApiEndpoint.put("set", "/api/quotas/:client_id", {
      params: ClientId,
      payload: Schema.Struct({ limit: Schema.NullOr(Schema.Int), period: Schema.optionalKey(Quota.Period) }),
      success: QuotaResponse,
      error: Errors.Forbidden
    }),
    HttpApiEndpoint.get("get", "/api/quotas/:client_id", {
      params: ClientId,
      success: QuotaResponse,
      error: Errors.Forbidden
    })
  )
  .middleware(JwtAuth)
  .pipe(
    extension(
      "Quotas",
      "Set (`global_admin` only) or read a client's extraction quota: `limit` extractions per `period` (`month` or " +
        "`day`, UTC), `null` for unlimited. Setting a quota keeps the usage of the current period."
    )
  ) {}

/** The response of an archive switch. */
export const ArchiveResponse = Schema.Struct({
  message: Schema.String,
  extraction: Schema.Struct({ id: Schema.String, archived: Schema.Boolean })
})

/** The archive endpoints (API key). */
export class ArchiveApi extends HttpApiGroup.make("archive")
  .add(
    HttpApiEndpoint.post("archive", "/v1/extractions/:extraction_id/archive", {
      params: ExtractionId,
      success: ArchiveResponse,
      error: Errors.NotFound
    }),
    HttpApiEndpoint.post("unarchive", "/v1/extractions/:extraction_id/unarchive", {
      params: ExtractionId,
      success: ArchiveResponse,
      error: Errors.NotFound
    })
  )
  .middleware(ApiKeyAuth)
  .pipe(
    extension(
      "Archive",
      "Archive or unarchive an extraction: archived extractions are left out of `GET /v1/extractions` unless " +
        "`include_archived=true`. A server may also archive final extractions older than a retention of N days."
    )
  ) {}
