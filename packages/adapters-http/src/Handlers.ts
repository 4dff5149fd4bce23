/**
 * The handlers of the spec's groups and the probes: decode (done by the contract) → core use case → map errors.
 * Services are taken once, when each group is built; handlers only provide them to the use cases.
 */
import { ApiKeys, Errors as CoreErrors, Extractions, type Ports } from "@legible/core"
import { type Duration, Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.js"
import * as Errors from "./Errors.js"
import * as Disposition from "./internal/disposition.js"
import { CurrentCaller, CurrentUser } from "./Security.js"
import * as Submission from "./Submission.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * A path id that cannot exist is "not found" before any lookup (a malformed UUID must not reach a SQL `uuid`
 * column as a 500); ids are matched lower-case.
 */
export const knownId = <E>(id: string, notFound: (id: string) => E): Effect.Effect<string, E> =>
  UUID.test(id) ? Effect.succeed(id.toLowerCase()) : Effect.fail(notFound(id))

const extractionNotFound = (id: string) => new CoreErrors.ExtractionNotFound({ id })

/** The key endpoints (spec 4.2). */
export const keys = HttpApiBuilder.group(
  Api,
  "keys",
  Effect.fn(function* (handlers) {
    const services = yield* Effect.context<Ports.Directory | Ports.ApiKeyStore>()
    return handlers.handleAll({
      create: ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const created = yield* ApiKeys.create(user, payload).pipe(Effect.provideContext(services), Errors.respond)
          return { message: "API key created; store it now: the full key is never shown again", api_key: created }
        }),
      list: () =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          const keys = yield* ApiKeys.list(user).pipe(Effect.provideContext(services), Errors.respond)
          return { api_keys: keys }
        }),
      revoke: ({ params }) =>
        Effect.gen(function* () {
          const user = yield* CurrentUser
          yield* knownId(params.api_key_id, (id) => new CoreErrors.ApiKeyNotFound({ id })).pipe(
            Effect.flatMap((id) => ApiKeys.revoke(user, id)),
            Effect.provideContext(services),
            Errors.respond
          )
          return { message: "API key revoked" }
        })
    })
  })
)

/** The services the extraction handlers use. */
export type ExtractionServices =
  | Ports.SkillStore
  | Ports.QuotaStore
  | Ports.ExtractionStore
  | Ports.DocumentStore
  | Ports.DocumentReader
  | Ports.FieldExtractor

/** The extraction endpoints (spec 4.3–4.6). */
export const extractions = (settings: Submission.Settings) =>
  HttpApiBuilder.group(
    Api,
    "extractions",
    Effect.fn(function* (handlers) {
      const services = yield* Effect.context<ExtractionServices>()
      const run = <A, E, R extends ExtractionServices>(effect: Effect.Effect<A, E, R>) =>
        effect.pipe(Effect.provideContext(services), Errors.respond)
      return handlers.handleAll({
        submit: ({ payload }) =>
          Effect.gen(function* () {
            const caller = yield* CurrentCaller
            const input = yield* Submission.prepare(caller, payload, settings).pipe(Effect.provideContext(services))
            return yield* Extractions.submit(caller, input).pipe(Effect.provideContext(services), Errors.respond)
          }),
        list: ({ query }) => Effect.flatMap(CurrentCaller, (caller) => run(Extractions.list(caller, query))),
        read: ({ params }) =>
          Effect.flatMap(CurrentCaller, (caller) =>
            run(
              knownId(params.extraction_id, extractionNotFound).pipe(
                Effect.flatMap((id) => Extractions.read(caller, id))
              )
            )
          ),
        readDetailed: ({ params }) =>
          Effect.flatMap(CurrentCaller, (caller) =>
            run(
              knownId(params.extraction_id, extractionNotFound).pipe(
                Effect.flatMap((id) => Extractions.readDetailed(caller, id))
              )
            )
          ),
        download: ({ params }) =>
          Effect.gen(function* () {
            const caller = yield* CurrentCaller
            const document = yield* knownId(params.extraction_id, extractionNotFound).pipe(
              Effect.flatMap((id) => Extractions.download(caller, id)),
              Effect.provideContext(services),
              Errors.respond
            )
            return HttpServerResponse.uint8Array(document.bytes, {
              contentType: document.mimeType,
              headers: {
                "content-disposition": Disposition.header(document.fileName),
                "x-content-type-options": "nosniff",
                "cache-control": "private, no-store"
              }
            })
          }),
        switchStatus: ({ params, query, payload }) =>
          Effect.flatMap(CurrentCaller, (caller) =>
            run(
              knownId(params.extraction_id, extractionNotFound).pipe(
                Effect.flatMap((id) =>
                  Extractions.switchStatus(
                    caller,
                    id,
                    { status: payload.status, message: payload.message ?? undefined },
                    query.client_id
                  )
                )
              )
            )
          )
      })
    })
  )

/** What the readiness probe runs: a trivial query of the database, given by the server. */
export interface Readiness {
  readonly check: Effect.Effect<unknown, unknown>
  readonly timeout: Duration.Duration
}

/** `/healthz` (always 200 while the process serves) and `/readyz` (the readiness check within its timeout). */
export const system = (readiness: Readiness) =>
  HttpApiBuilder.group(Api, "system", (handlers) =>
    handlers.handleAll({
      health: () => Effect.succeed({ status: "ok" as const }),
      ready: () =>
        readiness.check.pipe(
          Effect.timeout(readiness.timeout),
          Effect.as({ status: "ready" as const }),
          Effect.catchCause(() =>
            Effect.fail(new Errors.ServiceUnavailable({ error: "not ready: the database did not answer in time" }))
          )
        )
    })
  )
