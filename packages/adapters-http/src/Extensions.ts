/**
 * Operator extensions beyond the spec, tagged so in the OpenAPI document (`x-legible-extension: true`): skills and
 * catalogs management and quotas (JWT), archiving extractions (API key).
 */
import { Field, Quota, Skill, Skills, Timestamp } from "@legible/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as Errors from "./Errors.js"
import { ExtractionId, int, Text, text } from "./internal/schemas.js"
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
    name: text("The field's name in results (unique among its siblings)."),
    order: int("Its position: results list fields in ascending `order`."),
    type: Field.FieldType.annotate({ description: "The value's type (spec 2.4); `catalog` matches a catalog." }),
    isList: Schema.optionalKey(
      Schema.Boolean.annotate({ description: "Whether the value is a list (one item per row). Default false." })
    ),
    description: Schema.optionalKey(text("What the value is, for the extractor (and the check it implies).")),
    aliases: Schema.optionalKey(
      Schema.Array(Text).annotate({ description: "Other names of the field as documents print them." })
    ),
    fields: Schema.optionalKey(
      depth > 1
        ? Schema.Array(fieldInput(depth - 1))
        : Schema.Array(Schema.Never).annotate({ description: `Sub-fields nest at most ${Skills.MAX_DEPTH} levels.` })
    ),
    catalog: Schema.optionalKey(
      Skill.CatalogFieldConfig.annotate({
        description: "For `catalog` fields: the catalog, its key columns, the search method and output columns."
      })
    ),
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
  name: text("The skill's display name (`skill_name` in results)."),
  instructions: Schema.optionalKey(text("Guidance for the extractor about this kind of document.")),
  fields: Schema.Array(SkillFieldInput).annotate({ description: "The fields to extract, in any order." }),
  review: Schema.optionalKey(ReviewSetting)
})

const EXAMPLE_FIELDS = [
  { name: "numero", order: 1, type: "string", description: "Número de la factura" },
  { name: "fecha", order: 2, type: "date", description: "Fecha de emisión" },
  { name: "total", order: 3, type: "float", description: "Importe total", aliases: ["Total factura"] }
] as const

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
export const CreateSkillBody = Schema.Struct({
  slug: text("The skill's slug, used as `skill` on submissions: lower-case letters, digits and `-`."),
  ...SkillDefinition.fields
}).annotate({
  examples: [
    { slug: "factura-es", name: "Factura (España)", instructions: "Facturas españolas.", fields: EXAMPLE_FIELDS }
  ]
})

/** The body of a skill's new version. */
export const UpdateSkillBody = SkillDefinition.annotate({
  examples: [{ name: "Factura (España) v2", fields: EXAMPLE_FIELDS, review: { threshold: 0.5, required: ["total"] } }]
})

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

const Slug = { slug: Schema.String.annotate({ description: "The skill's slug." }) }

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
      payload: UpdateSkillBody,
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
export const CsvRecords = text(
  "RFC 4180 CSV; the header row names the columns; an optional `id` column holds record UUIDs.",
  ["cif,nombre\nB12345674,Papelería Ejemplo S.L.\nA28017895,Suministros del Norte S.A.\n"]
).pipe(HttpApiSchema.asText({ contentType: "text/csv" }))

/** Records as JSON: objects of column → value (string or number), with an optional `id`. */
export const JsonRecords = Schema.Array(Schema.Record(Text, Schema.Union([Text, Schema.Finite, Schema.Null]))).annotate(
  {
    description: "Objects of column name → value, with an optional `id` (UUID).",
    examples: [
      [
        { cif: "B12345674", nombre: "Papelería Ejemplo S.L." },
        { id: "5d1f0000-0000-4000-8000-000000000002", cif: "A28017895", nombre: "Suministros del Norte S.A." }
      ]
    ]
  }
)

/** The body of a catalog creation. */
export const CreateCatalogBody = Schema.Struct({
  name: text("The catalog's name (skills may name their catalog by it)."),
  columns: Schema.Array(Text).annotate({ description: "The record columns (besides `id`)." })
}).annotate({ examples: [{ name: "Proveedores", columns: ["cif", "nombre"] }] })

const CatalogId = { catalog_id: Schema.String.annotate({ description: "The catalog's id." }) }

/** The catalog endpoints (JWT). */
export class CatalogsApi extends HttpApiGroup.make("catalogs")
  .add(
    HttpApiEndpoint.post("create", "/api/catalogs", {
      payload: CreateCatalogBody,
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

const ClientId = { client_id: Schema.String.annotate({ description: "The client's id (the JWT's `client_id`)." }) }

/** The body of a quota setting. */
export const QuotaBody = Schema.Struct({
  limit: Schema.NullOr(Schema.Int).annotate({ description: "Extractions allowed per period; `null` for unlimited." }),
  period: Schema.optionalKey(
    Quota.Period.annotate({ description: "`month` (default) or `day`, in UTC; the usage restarts each period." })
  )
}).annotate({ examples: [{ limit: 1000, period: "month" }] })

/** The quota endpoints (JWT). */
export class QuotasApi extends HttpApiGroup.make("quotas")
  .add(
    HttpApiEndpoint.put("set", "/api/quotas/:client_id", {
      params: ClientId,
      payload: QuotaBody,
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
