import { randomUUID } from "node:crypto"
import { ByteSize, type Cause, Clock, Effect, Exit } from "effect"
import {
  HttpIncomingMessage,
  HttpMiddleware,
  HttpRouter,
  HttpServerError,
  HttpServerRequest,
  HttpServerResponse
} from "effect/http"
import * as Errors from "../Errors.js"

/** What the edge enforces. */
export interface Settings {
  /** The largest request body accepted, in bytes. */
  readonly bodyLimit: number
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/
const MAX_LOGGED_PATH = 512

/** The request id: the client's `x-request-id` when well-formed (1–128 of `A–Z a–z 0–9 . _ : -`), else a UUID. */
export const requestId = (header: string | undefined): string =>
  header !== undefined && REQUEST_ID.test(header) ? header : randomUUID()

/** The path without the query string (which may carry values that must not be logged). */
export const pathOf = (url: string): string => {
  const end = url.search(/[?#]/)
  const path = end === -1 ? url : url.slice(0, end)
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path
}

const declaredLength = (header: string | undefined): number | undefined => {
  if (header === undefined || !/^\d{1,16}$/.test(header)) return undefined
  return Number(header)
}

const json = (status: number, error: string) =>
  HttpServerResponse.jsonUnsafe({ error }, { status, ...(status === 413 ? { headers: { connection: "close" } } : {}) })

const defaultMessage = (status: number, bodyLimit: number): string => {
  switch (status) {
    case 400:
      return "bad request"
    case 404:
      return "not found"
    case 405:
      return "method not allowed"
    case 413:
      return `the request body exceeds the limit of ${bodyLimit} bytes`
    case 415:
      return "unsupported content type"
    case 499:
      return "client closed the request"
    case 503:
      return Errors.STORAGE_UNAVAILABLE
    default:
      return status >= 500 ? Errors.INTERNAL_ERROR : "request refused"
  }
}

const textOf = (response: HttpServerResponse.HttpServerResponse): string | undefined => {
  const body = response.body
  if (body._tag !== "Uint8Array" || !body.contentType.startsWith("text/plain") || body.body.byteLength > 300) {
    return undefined
  }
  return new TextDecoder().decode(body.body)
}

const isJson = (response: HttpServerResponse.HttpServerResponse): boolean =>
  response.body._tag !== "Empty" && (response.body.contentType ?? "").startsWith("application/json")

/**
 * Every error response is JSON `{error}` (spec 7): effect's empty 400/404/413/500 and its text 415 are rewritten;
 * JSON bodies the contract produced (including the `{msg}` of JWT 401s) are kept.
 */
const ensureJson = (response: HttpServerResponse.HttpServerResponse, bodyLimit: number) => {
  if (response.status < 400 || isJson(response)) return response
  const text = response.status === 415 ? textOf(response) : undefined
  const message = text !== undefined ? `${text}; send application/json` : defaultMessage(response.status, bodyLimit)
  return json(response.status, message)
}

const isInterruptOnly = (cause: Cause.Cause<unknown>) => cause.reasons.every((r) => r._tag === "Interrupt")

/**
 * The global middleware of the edge: a request id (taken from `x-request-id` when well-formed, echoed in the
 * response and annotated on every log line of the request), the body limit (a declared `Content-Length` above it
 * is refused with 413 before anything is read; the bytes streamed are counted while reading, so a chunked body is
 * cut off at the limit), JSON error bodies for everything, `/api/api-keys` as an alias of `/api/api-keys/`, and one
 * structured log line per request: method, path (never the query), status, duration.
 */
export const layer = (settings: Settings) =>
  HttpRouter.middleware(
    (app) =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const id = requestId(request.headers["x-request-id"])
        return handle(app, request, id, settings).pipe(Effect.annotateLogs({ request_id: id }))
      }),
    { global: true }
  )

const handle = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
  request: HttpServerRequest.HttpServerRequest,
  id: string,
  settings: Settings
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest> =>
  Effect.gen(function* () {
    yield* HttpMiddleware.withLoggerDisabled(Effect.void)
    const started = yield* Clock.currentTimeNanos
    const path = pathOf(request.url)
    const length = declaredLength(request.headers["content-length"])
    let response: HttpServerResponse.HttpServerResponse
    if (length !== undefined && length > settings.bodyLimit) {
      response = json(413, defaultMessage(413, settings.bodyLimit))
    } else {
      const routed =
        path === "/api/api-keys" ? request.modify({ url: `/api/api-keys/${request.url.slice(path.length)}` }) : request
      const exit = yield* app.pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, routed),
        Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(settings.bodyLimit)),
        Effect.exit
      )
      if (Exit.isSuccess(exit)) response = exit.value
      else {
        const [failed] = yield* HttpServerError.causeResponse(exit.cause)
        response = failed
        if (failed.status >= 500 && !isInterruptOnly(exit.cause)) yield* Effect.logError("request failed", exit.cause)
      }
      response = ensureJson(response, settings.bodyLimit)
    }
    response = HttpServerResponse.setHeaders(response, { "x-request-id": id, "x-content-type-options": "nosniff" })
    const duration = Number((yield* Clock.currentTimeNanos) - started) / 1e6
    const log = response.status >= 500 ? Effect.logError : Effect.logInfo
    yield* log("http request").pipe(
      Effect.annotateLogs({
        method: request.method,
        path,
        status: response.status,
        duration_ms: Math.round(duration * 1000) / 1000
      })
    )
    return response
  })
