/**
 * The HTTP application: the `Api` contract with its handlers and middleware, `/openapi.json`, the `/docs` page
 * (Scalar, inlined: works offline; `GET /` redirects there), the probes and the edge (request ids, logs, body limit, JSON errors), as one
 * router layer. Serve it with `HttpRouter.serve(Http.layer(options))` on `NodeHttpServer.layer(createServer, …)`,
 * or test it with `HttpRouter.toWebHandler`. No environment is read here: the server passes every setting.
 *
 * Logging: one line per request (`http request`, annotated `request_id`, `method`, `path`, `status`,
 * `duration_ms`), plus `storage failure` and `request failed` lines for 5xx; every line of a request carries its
 * `request_id`. They are ordinary Effect logs: install `Logger.consoleJson` for JSON output. Effect's own request
 * logger is switched off for requests the edge handles.
 */
import { Idempotency, type Ports, Retry, Webhooks } from "@legible/core"
import { Duration, Effect, type FileSystem, Layer, type Path, Schema } from "effect"
import { type Etag, type HttpPlatform, HttpRouter, HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiScalar } from "effect/http-api"
import { Api } from "./Api.js"
import * as Auth from "./Auth.js"
import * as Edge from "./internal/edge.js"
import * as ExtensionHandlers from "./internal/extensionHandlers.js"
import * as Handlers from "./internal/handlers.js"
import * as PageHandlers from "./internal/pageHandlers.js"
import * as RequestErrors from "./internal/requestErrors.js"
import * as WebhookHandlers from "./internal/webhookHandlers.js"
import * as WebhookSender from "./WebhookSender.js"

/** The default body limit: 40 MiB of JSON, about 30 MiB of file once Base64-decoded. */
export const DEFAULT_BODY_LIMIT = 40 * 1024 * 1024
/** The body limits accepted: 1 KiB (a submission's JSON needs more) to 2 GiB. */
export const BodyLimit = Schema.Int.check(Schema.isBetween({ minimum: 1024, maximum: 2 ** 31 }))
/** The spec's default model (4.3), used when `defaultModel` is not given. */
export const DEFAULT_MODEL = "gpt-4o-mini"
/** How long `/readyz` waits for the readiness check by default. */
export const DEFAULT_READINESS_TIMEOUT = Duration.seconds(2)
/** Where the OpenAPI document is served. */
export const OPENAPI_PATH = "/openapi.json"
/** Where the documentation page is served. */
export const DOCS_PATH = "/docs"

/** The settings of the HTTP layer (the server reads them from its configuration). */
export interface Options {
  /** How JWTs are verified (see `Auth`); a short secret or an incomplete JWKS setup fails the layer. */
  readonly auth: Auth.Config
  /** The largest request body accepted, in bytes (413 above it). Default `DEFAULT_BODY_LIMIT`. */
  readonly bodyLimit?: number | undefined
  /** The model of live submissions that name none. Default the spec's `gpt-4o-mini`. */
  readonly defaultModel?: string | undefined
  /** Attempts a job gets before it ends in `error` (`Retry.MaxAttempts`). Default `Retry.defaultPolicy`'s. */
  readonly maxAttempts?: number | undefined
  /**
   * The models the server serves, as a client is told when it names another (e.g. `["gpt-*", "o*", "local"]`).
   * Default: the default model alone.
   */
  readonly models?: ReadonlyArray<string> | undefined
  /** How long an `Idempotency-Key` is kept after its first request. Default 24 hours. */
  readonly idempotencyRetention?: Duration.Input | undefined
  /** How old an unfinished `Idempotency-Key` claim must be before a retry may take it over. Default one minute. */
  readonly idempotencyStaleAfter?: Duration.Input | undefined
  /** A trivial query of the database for `/readyz`; without one the process is ready as soon as it serves. */
  readonly readiness?: Effect.Effect<unknown, unknown> | undefined
  /** How long `/readyz` waits for `readiness`. Default 2 s. */
  readonly readinessTimeout?: Duration.Input | undefined
  /** Webhook registration: the address checks (`WebhookSender`) and the secret rotation overlap (default 24 h). */
  readonly webhooks?: (WebhookSender.Options & { readonly rotationOverlapMs?: number | undefined }) | undefined
}

/** The options with every default applied. */
export const resolve = (options: Options) => ({
  auth: options.auth,
  bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
  defaultModel: options.defaultModel ?? DEFAULT_MODEL,
  maxAttempts: options.maxAttempts ?? Retry.defaultPolicy.maxAttempts,
  models: options.models ?? [options.defaultModel ?? DEFAULT_MODEL],
  idempotency: {
    retention: Duration.fromInputUnsafe(options.idempotencyRetention ?? Idempotency.DEFAULT_RETENTION),
    staleAfter: Duration.fromInputUnsafe(options.idempotencyStaleAfter ?? Idempotency.DEFAULT_STALE_AFTER)
  },
  readiness: options.readiness ?? Effect.void,
  readinessTimeout: Duration.fromInputUnsafe(options.readinessTimeout ?? DEFAULT_READINESS_TIMEOUT)
})

/** The core services the handlers use. */
export type Services = Ports.Directory | Ports.StorageServices | Ports.DocumentReader | Ports.FieldExtractor

/** Everything `layer` needs: the core services, a router and the platform services of an HTTP server. */
export type Requirements =
  | Services
  | HttpRouter.HttpRouter
  | Etag.Generator
  | HttpPlatform.HttpPlatform
  | FileSystem.FileSystem
  | Path.Path

/** The handlers of every group, with the middleware they run. */
const handlers = (options: Options) => {
  const settings = resolve(options)
  const middleware = Layer.mergeAll(
    Auth.layerJwt(settings.auth),
    Auth.layerApiKey,
    Auth.layerApiKeyRead,
    RequestErrors.layer
  )
  return Layer.mergeAll(
    Handlers.keys,
    Handlers.extractions({
      defaultModel: settings.defaultModel,
      maxAttempts: settings.maxAttempts,
      models: settings.models,
      idempotency: settings.idempotency
    }),
    Handlers.system({ check: settings.readiness, timeout: settings.readinessTimeout }),
    ExtensionHandlers.archive,
    ExtensionHandlers.skills,
    ExtensionHandlers.catalogs,
    ExtensionHandlers.quotas,
    WebhookHandlers.webhooks({
      rotationOverlapMs: options.webhooks?.rotationOverlapMs ?? Webhooks.DEFAULT_ROTATION_OVERLAP_MS
    }).pipe(Layer.provide(WebhookSender.layer(options.webhooks))),
    PageHandlers.pages
  ).pipe(Layer.provide(middleware))
}

/**
 * The whole HTTP application as a router layer. It needs the storage ports, `DocumentReader` (type sniffing),
 * `FieldExtractor` (`supports`), an `HttpRouter` and the platform services of `HttpServer.layerServices` (or the
 * Node server's). Validate `options` early: a bad JWT configuration fails here with `Auth.ConfigError`.
 */
export const layer = (options: Options): Layer.Layer<never, Auth.ConfigError, Requirements> => {
  const settings = resolve(options)
  if (!Schema.is(BodyLimit)(settings.bodyLimit)) {
    return Layer.effectDiscard(
      Effect.fail(new Auth.ConfigError({ message: "bodyLimit must be a whole number of bytes from 1024 to 2^31" }))
    )
  }
  if (!Schema.is(Retry.MaxAttempts)(settings.maxAttempts)) {
    return Layer.effectDiscard(Effect.fail(new Auth.ConfigError({ message: "maxAttempts must be from 1 to 100" })))
  }
  return Layer.mergeAll(
    HttpApiBuilder.layer(Api, { openapiPath: OPENAPI_PATH }).pipe(Layer.provide(handlers(options))),
    HttpApiScalar.layer(Api, { path: DOCS_PATH }),
    // A person who opens the server's address lands on the documentation.
    HttpRouter.add("GET", "/", HttpServerResponse.redirect(DOCS_PATH, { status: 302 })),
    Edge.layer({ bodyLimit: settings.bodyLimit })
  )
}
