/**
 * The contract: the nine endpoints of the spec (4.1) with their request and response shapes and the status codes
 * and bodies of spec 7, the operator extensions (`Extensions`), health and readiness — one `HttpApi`.
 */
import { ApiKey, Extraction, type Field, type Skill, Timestamp } from "@legible/core"
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import * as Errors from "./Errors.js"
import * as Extensions from "./Extensions.js"
import { ExtractionId, Text, text } from "./internal/schemas.js"
import * as Pages from "./Pages.js"
import { ApiKeyAuth, ApiKeyRead, JwtAuth, RequestErrors } from "./Security.js"
import { WebhooksApi } from "./Webhooks.js"

/** A field of a read result (spec 2.4), as the `read` endpoint returns it. */
export type ResultField = Field.Field
/** A field of a skill, as the skill endpoints return it. */
export type SkillField = Skill.SkillField

/** A response that only says what happened. */
export const MessageResponse = Schema.Struct({ message: Schema.String })

/** The body of `POST /api/api-keys/` (spec 4.2). */
export const CreateKeyBody = Schema.Struct({
  nombre: text("Descriptive name (1 to 200 characters)."),
  tipo: Schema.optionalKey(ApiKey.KeyType.annotate({ description: "`live` (default) or `test` (the sandbox)." }))
}).annotate({ examples: [{ nombre: "ERP integration", tipo: "live" }] })

/** The response of a key creation: the only place the full key ever appears. */
export const CreateKeyResponse = Schema.Struct({ message: Schema.String, api_key: ApiKey.CreatedApiKey })

/** The key list (spec 4.2): previews only. */
export const KeyListResponse = Schema.Struct({ api_keys: Schema.Array(ApiKey.ApiKeyListItem) })

/** The key endpoints of spec 4.2, authenticated with a JWT (401 `{msg}`). */
export class KeysApi extends HttpApiGroup.make("keys")
  .add(
    HttpApiEndpoint.post("create", "/api/api-keys/", {
      payload: CreateKeyBody,
      success: CreateKeyResponse.pipe(HttpApiSchema.status(201))
    }),
    HttpApiEndpoint.get("list", "/api/api-keys/", { success: KeyListResponse }),
    HttpApiEndpoint.delete("revoke", "/api/api-keys/:api_key_id", {
      params: { api_key_id: Schema.String.annotate({ description: "The key's `id` (from the list)." }) },
      success: MessageResponse,
      error: Errors.NotFound
    })
  )
  .middleware(JwtAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "API keys",
      description: "Create, list and revoke the API keys of the caller's client (spec 4.2)."
    })
  ) {}

const NullableText = Schema.NullOr(Text)

/**
 * A one-page PDF of 390 bytes ("Total: 121,00"), in Base64: the documentation's example document, which the server
 * accepts as it is.
 */
export const EXAMPLE_PDF_BASE64 =
  "JVBERi0xLjQKMSAwIG9iajw8L1R5cGUvQ2F0YWxvZy9QYWdlcyAyIDAgUj4+ZW5kb2JqCjIgMCBvYmo8PC9UeXBlL1BhZ2VzL0tpZHNbMyAwIFJd" +
  "L0NvdW50IDE+PmVuZG9iagozIDAgb2JqPDwvVHlwZS9QYWdlL1BhcmVudCAyIDAgUi9NZWRpYUJveFswIDAgMjAwIDEwMF0vQ29udGVudHMgNCAw" +
  "IFIvUmVzb3VyY2VzPDwvRm9udDw8L0YxIDUgMCBSPj4+Pj4+ZW5kb2JqCjQgMCBvYmo8PC9MZW5ndGggNDQ+PnN0cmVhbQpCVCAvRjEgMTIgVGYg" +
  "MjAgNTAgVGQgKFRvdGFsOiAxMjEsMDApIFRqIEVUCmVuZHN0cmVhbSBlbmRvYmoKNSAwIG9iajw8L1R5cGUvRm9udC9TdWJ0eXBlL1R5cGUxL0Jh" +
  "c2VGb250L0hlbHZldGljYT4+ZW5kb2JqCnRyYWlsZXI8PC9Sb290IDEgMCBSPj4KJSVFT0YK"

/** The body of `POST /v1/extractions` (spec 4.3). `null` for an optional member means "absent". */
export const SubmitBody = Schema.Struct({
  file_name: text("Original file name (1 to 255 characters)."),
  skill: text("Slug of a configured skill."),
  file_base64: Schema.String.annotate({
    description:
      "The file, standard Base64 (RFC 4648 §4) with correct `=` padding. Line breaks (CR, LF) are ignored; any " +
      "other character outside the alphabet, a data: URL prefix or an empty value is refused with 400."
  }),
  model: Schema.optionalKey(
    NullableText.annotate({
      description:
        "AI model: `local` (rules, no provider), `gpt-*`/`o*` where OpenAI is configured, `claude-*` where " +
        "Anthropic is. Default: the server's (the spec's `gpt-4o-mini` where OpenAI is configured, else `local` " +
        "when no provider is). A model the server does not serve is refused with 400 naming those it does."
    })
  ),
  extraction_mode: Schema.optionalKey(
    Schema.NullOr(Extraction.Mode).annotate({
      description:
        "How the document reaches the model: `ocr_pdf` (default: OCR words and page images), `ocr_pipeline_md` " +
        "(OCR as layout-kept Markdown), `ocr_only` (OCR text only), `pdf_only` (the document itself)."
    })
  )
}).annotate({
  examples: [
    {
      file_name: "factura-0001.pdf",
      skill: "factura-es",
      file_base64: EXAMPLE_PDF_BASE64,
      model: "local",
      extraction_mode: "ocr_only"
    }
  ]
})

/** The optional request header of a submission (an extension: the IETF httpapi Idempotency-Key draft). */
export const SubmitHeaders = Schema.Struct({
  "idempotency-key": Schema.optionalKey(
    Schema.String.annotate({
      description:
        "Extension. A client-chosen key (1 to 255 printable ASCII characters, bare or as a quoted structured-field " +
        "string; e.g. a UUID) that makes retries safe: the first 202 is kept per client (live and sandbox apart) for " +
        "24 hours by default; a retry with the same key and body gets the same 202 with `Idempotent-Replayed: true` " +
        "and creates nothing; the same key with another body is refused with 422, and while the first request is " +
        "still being handled with 409. Refusals (400, 402, 404, 413, 415) and failures are not kept.",
      examples: ["7f9c2ba4-e88f-4c1b-9d3a-5b1e0f6a2c11"]
    })
  )
})

/** The 202 response of a submission. */
export const SubmitResponse = Schema.Struct({
  extraction_id: Schema.String.annotate({ description: "The id of the queued extraction (a UUID)." })
})

/** The 202 of a submission with its headers: `Location` of the extraction, and `Idempotent-Replayed` on a replay. */
export const Submitted = HttpApiSchema.WithHeaders(SubmitResponse.pipe(HttpApiSchema.status(202)), {
  location: Schema.String.annotate({ description: "The extraction's address: `/v1/extractions/{extraction_id}`." }),
  "idempotent-replayed": Schema.optionalKey(
    Schema.Literal("true").annotate({
      description: "Extension: present on the answer of a retry with an `Idempotency-Key` already answered."
    })
  )
}).annotate({ description: "The extraction is queued; poll `Location` for its result." })

const param = (description: string) => Schema.optionalKey(text(description))

/** The list query of spec 4.3 (validated further by core: every invalid value is a 400 `{error}`). */
export const ListQueryParams = Schema.Struct({
  status: param("Comma-separated statuses to keep: en cola, procesando, completado, incompleto, error."),
  habilidad_id: param("Skill id (UUID)."),
  habilidad_slug: param("Skill slug."),
  start_date: param("First day, `YYYY-MM-DD`, inclusive (UTC)."),
  end_date: param("Last day, `YYYY-MM-DD`, inclusive (UTC)."),
  search: Schema.optionalKey(
    Schema.String.annotate({
      description:
        "Case- and accent-insensitive substring of the file name, matched literally (`%`, `_` and `\\` are " +
        "themselves). A string no file name can hold (over 255 characters, or with a NUL) matches nothing."
    })
  ),
  limit: param("Maximum number of results, an integer from 1 to 500; default 50."),
  offset: param("Extension: results to skip first; default 0."),
  sort_by: Schema.optionalKey(
    Schema.Literals(["fecha_creacion", "status", "origin_name"]).annotate({
      description: "Sort key; default `fecha_creacion`. Ties are broken by id."
    })
  ),
  sort_order: Schema.optionalKey(Schema.Literals(["asc", "desc"]).annotate({ description: "Default `desc`." })),
  include_archived: Schema.optionalKey(
    Schema.Literals(["true", "false"]).annotate({
      description: "Extension: whether archived extractions are listed; default `false`."
    })
  )
})

/** The list response (spec 4.3): `count` is the number of all matches, ignoring `limit`. */
export const ListResponse = Schema.Struct({ extractions: Schema.Array(Extraction.Summary), count: Schema.Int })

/** The body of `PATCH …/status` (spec 4.6). */
export const StatusBody = Schema.Struct({
  status: Schema.Literals(["completado", "incompleto"]).annotate({ description: "The new status." }),
  message: Schema.optionalKey(
    NullableText.annotate({ description: "Stored when switching to `incompleto`; cleared by `completado`." })
  )
}).annotate({ examples: [{ status: "incompleto", message: "el total no coincide con la suma de las líneas" }] })

/** The response of a status switch (spec 4.6). */
export const StatusResponse = Schema.Struct({
  message: Schema.String,
  extraction: Schema.Struct({
    id: Schema.String,
    status: Extraction.Status,
    last_modification: Timestamp.Timestamp,
    last_user_id: Schema.String,
    error_message: Schema.optionalKey(Schema.String)
  })
})

/** The original document: its bytes, with the stored `Content-Type` and `Content-Disposition: attachment`. */
export const DocumentBytes = Schema.Uint8Array.pipe(
  HttpApiSchema.asUint8Array({ contentType: "application/octet-stream" })
).annotate({
  description:
    "The original file, byte for byte. `Content-Type` is the type sniffed at upload; `Content-Disposition: " +
    "attachment` carries the upload name (RFC 6266 `filename` + `filename*`); `X-Content-Type-Options: nosniff`."
})

/**
 * The extraction endpoints of spec 4.3–4.6, authenticated with an API key (401 `{error}`). The reads (list, single,
 * detailed) check the key in the statement that reads the rows (`ApiKeyRead`); the others before the handler runs.
 */
export class ExtractionsApi extends HttpApiGroup.make("extractions")
  .add(
    HttpApiEndpoint.post("submit", "/v1/extractions", {
      payload: SubmitBody,
      headers: SubmitHeaders,
      success: Submitted,
      error: [
        Errors.NotFound,
        Errors.QuotaExhausted,
        Errors.PayloadTooLarge,
        Errors.Conflict,
        Errors.UnprocessableEntity
      ]
    }).middleware(ApiKeyAuth),
    HttpApiEndpoint.get("list", "/v1/extractions", { query: ListQueryParams, success: ListResponse }).middleware(
      ApiKeyRead
    ),
    HttpApiEndpoint.get("read", "/v1/extractions/:extraction_id", {
      params: ExtractionId,
      success: Extraction.Extraction,
      error: Errors.NotFound
    }).middleware(ApiKeyRead),
    HttpApiEndpoint.get("readDetailed", "/v1/extractions/:extraction_id/detailed", {
      params: ExtractionId,
      success: Extraction.DetailedExtraction,
      error: Errors.NotFound
    }).middleware(ApiKeyRead),
    HttpApiEndpoint.get("download", "/v1/extractions/:extraction_id/document", {
      params: ExtractionId,
      success: DocumentBytes,
      error: Errors.NotFound
    }).middleware(ApiKeyAuth),
    HttpApiEndpoint.patch("switchStatus", "/v1/extractions/:extraction_id/status", {
      params: ExtractionId,
      query: {
        client_id: param("The client that owns the extraction; honoured only for a `global_admin`.")
      },
      payload: StatusBody,
      success: StatusResponse,
      error: Errors.NotFound
    }).middleware(ApiKeyAuth)
  )
  .annotateMerge(
    OpenApi.annotations({
      title: "Extractions",
      description: "Submit documents, list, read, download and switch extractions (spec 4.3–4.6)."
    })
  ) {}

/** Liveness and readiness probes (no authentication). */
export class SystemApi extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/healthz", {
      success: Schema.Struct({ status: Schema.Literal("ok") }).annotate({
        description: "The process is up (always 200 while it serves requests)."
      })
    }),
    HttpApiEndpoint.get("ready", "/readyz", {
      success: Schema.Struct({ status: Schema.Literal("ready") }).annotate({
        description: "The database answered a trivial query within the readiness timeout."
      })
    })
  )
  .annotateMerge(
    OpenApi.annotations({ title: "System", description: "Health (`/healthz`) and readiness (`/readyz`)." })
  ) {}

/** The whole contract: the spec's groups, the operator extensions and the probes. */
export class Api extends HttpApi.make("legible")
  .add(KeysApi)
  .add(ExtractionsApi)
  .add(Extensions.ArchiveApi)
  .add(Extensions.SkillsApi)
  .add(Extensions.CatalogsApi)
  .add(Extensions.QuotasApi)
  .add(WebhooksApi)
  .add(Pages.PagesApi)
  .add(SystemApi)
  .middleware(RequestErrors)
  .annotateMerge(
    OpenApi.annotations({
      title: "legible — document extraction API",
      version: "1.0.0",
      description:
        "The extraction service of the specification: API keys under `/api/api-keys/` (JWT) and extractions under " +
        "`/v1` (API key). Groups tagged *extension* (skills, catalogs, quotas, archive, webhooks) go beyond the specification. " +
        "Every error body is JSON: `{error}`, except the 401 of JWT-authenticated endpoints, which is `{msg}`; the " +
        "402 adds `limit` and `used`. Bodies above the configured size limit get 413; a malformed body or query 400; a " +
        "body that is not `application/json` (or `text/csv` for catalog records) 415; unknown routes and methods 404."
    })
  ) {}
