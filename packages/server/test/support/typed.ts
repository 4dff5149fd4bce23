/**
 * The typed client in the socket tests: `Client.make` of `@legible/adapters-http` (the `HttpApiClient` of the
 * contract) over fetch, one per credential. `send` runs one call and gives back the decoded value or typed error AND
 * what the server sent (status, headers, the JSON body as written), so a test asserts on exact bodies and key sets
 * while the client checks every response against the contract: one that does not decode fails the test.
 */
import { type Api, Client } from "@legible/adapters-http"
import { Cause, Context, Effect, Exit, Schema } from "effect"
import { FetchHttpClient, HttpClient, HttpClientError, type HttpClientResponse } from "effect/http"

/** Where the response of the call in progress is recorded (one cell per `send`). */
const Seen = Context.Reference<{ current: HttpClientResponse.HttpClientResponse | undefined }>(
  "@legible/server/test/Seen",
  { defaultValue: () => ({ current: undefined }) }
)

/** What one typed call got: the server's status, headers and body, and the decoded success or error. */
export interface Sent<A, E> {
  readonly status: number
  readonly headers: Headers
  readonly body: unknown
  /** The decoded success (`undefined` when the call failed). */
  readonly value: A | undefined
  /** The decoded error of the contract (`undefined` when the call succeeded). */
  readonly error: E | undefined
}

// A failure of the call that is one of the contract's error bodies (not a transport or decoding failure).
const isContractError = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  !Schema.isSchemaError(error) &&
  !HttpClientError.isHttpClientError(error)

/** Typed clients of one server. */
export interface Typed {
  /** The typed client sending this API key and/or JWT (memoized per credential). */
  readonly as: (credentials?: { readonly apiKey?: string; readonly token?: string }) => Client.Client
  /** Runs one typed call; fails (with the body) when the response does not match the contract. */
  readonly send: <A, E>(call: Effect.Effect<A, E>) => Promise<Sent<A, E>>
}

/** Typed clients of one server, per credential. */
export const typed = (base: string): Typed => {
  const clients = new Map<string, Client.Client>()
  const as = (credentials: { readonly apiKey?: string; readonly token?: string } = {}): Client.Client => {
    const id = JSON.stringify([credentials.apiKey ?? null, credentials.token ?? null])
    const existing = clients.get(id)
    if (existing !== undefined) return existing
    const made = Effect.runSync(
      Client.make({ baseUrl: base, ...credentials }, (client) =>
        HttpClient.tap(client, (response) =>
          Effect.map(Effect.service(Seen), (cell) => {
            cell.current = response
          })
        )
      ).pipe(Effect.provide(FetchHttpClient.layer))
    )
    clients.set(id, made)
    return made
  }
  /** Runs one typed call; fails (with the body) when the response does not match the contract. */
  const send = async <A, E>(call: Effect.Effect<A, E>): Promise<Sent<A, E>> => {
    const cell: { current: HttpClientResponse.HttpClientResponse | undefined } = { current: undefined }
    const exit = await Effect.runPromiseExit(Effect.provideService(call, Seen, cell))
    const response = cell.current
    if (response === undefined) throw new Error(`no response: ${Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""}`)
    const text = await Effect.runPromise(response.text)
    const body: unknown = (response.headers["content-type"] ?? "").includes("json") ? JSON.parse(text) : text
    const headers = new Headers(response.headers as Record<string, string>)
    if (Exit.isSuccess(exit)) return { status: response.status, headers, body, value: exit.value, error: undefined }
    const error = Cause.findErrorOption(exit.cause)
    if (error._tag === "None" || !isContractError(error.value)) {
      throw new Error(
        `response outside the contract: ${response.status} ${text.slice(0, 500)}\n${Cause.pretty(exit.cause)}`
      )
    }
    return { status: response.status, headers, body, value: undefined, error: error.value }
  }
  return { as, send }
}

type Call<A = unknown> = Promise<Sent<A, unknown>>

/** The `/v1` calls of one API key through the typed client (the decoded value kept where a test reads it). */
export interface V1 {
  readonly submit: (
    payload: typeof Api.SubmitBody.Type,
    idempotencyKey?: string
  ) => Call<{ readonly body: { readonly extraction_id: string } }>
  /** The list with a query written as in a URL (`status=error&limit=1`). */
  readonly list: (query?: string) => Call
  readonly read: (id: string) => Call<{ readonly status: string }>
  readonly detailed: (id: string) => Call
  readonly download: (id: string) => Call<Uint8Array>
  readonly patch: (id: string, payload: typeof Api.StatusBody.Type, clientId?: string) => Call
  readonly archive: (id: string) => Call
  readonly unarchive: (id: string) => Call
}

/** The `/v1` calls of one API key (none when `undefined`) through the typed client, each answered as `Sent`. */
export const v1 = (t: Typed, key: string | undefined): V1 => {
  const { extractions, archive } = t.as(key === undefined ? {} : { apiKey: key })
  const at = (id: string) => ({ extraction_id: id })
  return {
    submit: (payload: typeof Api.SubmitBody.Type, idempotencyKey?: string) =>
      t.send(
        extractions.submit({
          payload,
          headers: idempotencyKey === undefined ? {} : { "idempotency-key": idempotencyKey }
        })
      ),
    list: (query = "") =>
      t.send(extractions.list({ query: Object.fromEntries(new URLSearchParams(query)) as ListQuery })),
    read: (id: string) => t.send(extractions.read({ params: at(id) })),
    detailed: (id: string) => t.send(extractions.readDetailed({ params: at(id) })),
    download: (id: string) => t.send(extractions.download({ params: at(id) })),
    patch: (id: string, payload: typeof Api.StatusBody.Type, clientId?: string) =>
      t.send(
        extractions.switchStatus({
          params: at(id),
          query: clientId === undefined ? {} : { client_id: clientId },
          payload
        })
      ),
    archive: (id: string) => t.send(archive.archive({ params: at(id) })),
    unarchive: (id: string) => t.send(archive.unarchive({ params: at(id) }))
  }
}

type ListQuery = typeof Api.ListQueryParams.Type
