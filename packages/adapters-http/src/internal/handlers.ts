/**
 * The handlers of the spec's groups and the probes: decode (done by the contract) → core use case → map errors.
 * Services are taken once, when each group is built; handlers only provide them to the use cases.
 */
import { ApiKeys, Errors as CoreErrors, Extractions, type Ports, type StoredResult } from "@legible/core"
import { type Duration, Effect, Redacted } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.js"
import * as Errors from "../Errors.js"
import { PresentedKey } from "../Security.js"
import * as Disposition from "./disposition.js"
import { knownId, runner } from "./handling.js"
import * as Idempotent from "./idempotent.js"
import type * as Submission from "./submission.js"

const JSON_TYPE = { contentType: "application/json" } as const

const extractionNotFound = (id: string) => new CoreErrors.ExtractionNotFound({ id })

/** The key endpoints (spec 4.2). */
export const keys = HttpApiBuilder.group(
  Api,
  "keys",
  Effect.fn(function* (handlers) {
    const { asUser } = yield* runner<Ports.Directory | Ports.ApiKeyStore>()
    return handlers.handleAll({
      create: ({ payload }) =>
        asUser((user) => ApiKeys.create(user, payload)).pipe(
          Effect.map((created) => ({
            message: "API key created; store it now: the full key is never shown again",
            api_key: created
          }))
        ),
      list: () => asUser(ApiKeys.list).pipe(Effect.map((keys) => ({ api_keys: keys }))),
      revoke: ({ params }) =>
        asUser((user) =>
          knownId(params.api_key_id, (id) => new CoreErrors.ApiKeyNotFound({ id })).pipe(
            Effect.flatMap((id) => ApiKeys.revoke(user, id))
          )
        ).pipe(Effect.as({ message: "API key revoked" }))
    })
  })
)

/** The services the extraction handlers use. */
export type ExtractionServices = Idempotent.Services | Ports.ApiKeyStore | Ports.ExtractionStore | Ports.DocumentStore

/** The extraction endpoints (spec 4.3–4.6). */
export const extractions = (settings: Submission.Settings) =>
  HttpApiBuilder.group(
    Api,
    "extractions",
    Effect.fn(function* (handlers) {
      const { asCaller, run } = yield* runner<ExtractionServices>()
      // A read checks the presented key itself and answers with the JSON it built, text or bytes: sent as it is,
      // with no schema pass (it was built with the response schemas, `StoredResult`).
      const asReader = <E, R extends ExtractionServices>(
        read: (key: string) => Effect.Effect<StoredResult.Body, E, R>
      ) =>
        Effect.flatMap(PresentedKey, (key) =>
          run(read(Redacted.value(key))).pipe(
            Effect.map((body) =>
              typeof body === "string"
                ? HttpServerResponse.text(body, JSON_TYPE)
                : HttpServerResponse.uint8Array(body, JSON_TYPE)
            )
          )
        )
      // A use case on the extraction the path names, for the calling key.
      const onExtraction = <A, E, R extends ExtractionServices>(
        extractionId: string,
        useCase: (caller: ApiKeys.Caller, id: string) => Effect.Effect<A, E, R>
      ) =>
        asCaller((caller) =>
          knownId(extractionId, extractionNotFound).pipe(Effect.flatMap((id) => useCase(caller, id)))
        )
      return handlers.handleAll({
        submit: ({ payload, headers }) =>
          asCaller((caller) => Idempotent.submit(caller, payload, headers["idempotency-key"], settings)),
        list: ({ query }) => asReader((key) => Extractions.listAs(key, query)),
        read: ({ params }) => asReader((key) => Extractions.readAs(key, params.extraction_id, "plain")),
        readDetailed: ({ params }) => asReader((key) => Extractions.readAs(key, params.extraction_id, "detailed")),
        download: ({ params }) =>
          onExtraction(params.extraction_id, Extractions.download).pipe(
            Effect.map((document) =>
              HttpServerResponse.uint8Array(document.bytes, {
                contentType: document.mimeType,
                headers: {
                  "content-disposition": Disposition.header(document.fileName),
                  "x-content-type-options": "nosniff",
                  "cache-control": "private, no-store"
                }
              })
            )
          ),
        switchStatus: ({ params, query, payload }) =>
          onExtraction(params.extraction_id, (caller, id) =>
            Extractions.switchStatus(
              caller,
              id,
              { status: payload.status, message: payload.message ?? undefined },
              query.client_id
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
