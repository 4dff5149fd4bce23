/**
 * A typed client of a legible server, derived from the `Api` contract with `HttpApiClient`: one method per endpoint
 * (`client.extractions.submit`, `client.keys.create`, …) taking the contract's params, query, headers and payload, and
 * returning an `Effect` whose success is the decoded response and whose errors are the contract's error bodies
 * (`Errors.NotFound`, `Errors.QuotaExhausted`, …). Responses that do not match the contract fail decoding.
 *
 * ```ts
 * const client = yield* Client.make({ baseUrl: "http://127.0.0.1:8080", apiKey })
 * const { body, headers } = yield* client.extractions.submit({ payload, headers: {} })
 * ```
 * Provide an `HttpClient` (`FetchHttpClient.layer`, or Node's) to `make`; the client it returns needs nothing more.
 */
import { type Effect, Redacted } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import { Api } from "./Api.js"

/** Where the server is and the credentials the client sends on every request. */
export interface Options {
  /** The server's address, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string | URL
  /** An API key for the `/v1` endpoints, sent as `x-api-key`. */
  readonly apiKey?: string | Redacted.Redacted<string> | undefined
  /** A JWT for the key and operator endpoints, sent as `Authorization: Bearer`. */
  readonly token?: string | Redacted.Redacted<string> | undefined
}

/** The typed client of the whole contract: a group per resource (`keys`, `extractions`, `skills`, …), a method per endpoint. */
export interface Client extends HttpApiClient.ForApi<typeof Api> {}

const reveal = (secret: string | Redacted.Redacted<string>): string =>
  typeof secret === "string" ? secret : Redacted.value(secret)

/** Adds the configured credentials to a request. */
const authenticate =
  (options: Options) =>
  (request: HttpClientRequest.HttpClientRequest): HttpClientRequest.HttpClientRequest => {
    const withKey =
      options.apiKey === undefined ? request : HttpClientRequest.setHeader(request, "x-api-key", reveal(options.apiKey))
    return options.token === undefined ? withKey : HttpClientRequest.bearerToken(withKey, reveal(options.token))
  }

/**
 * Builds the typed client over the `HttpClient` in context, with the given address and credentials; `transform`
 * wraps the underlying `HttpClient` (retries, tracing, a look at each raw response).
 */
export const make = (
  options: Options,
  transform: (client: HttpClient.HttpClient) => HttpClient.HttpClient = (client) => client
): Effect.Effect<Client, never, HttpClient.HttpClient> =>
  HttpApiClient.make(Api, {
    baseUrl: options.baseUrl,
    transformClient: (client) => transform(HttpClient.mapRequest(client, authenticate(options)))
  })
