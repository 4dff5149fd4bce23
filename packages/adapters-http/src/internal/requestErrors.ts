import { Cause, Effect, type Layer, SchemaIssue } from "effect"
import { type HttpApiError, HttpApiMiddleware } from "effect/http-api"
import * as Errors from "../Errors.js"
import { RequestErrors } from "../Security.js"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const SLOT: Record<HttpApiError.HttpApiSchemaError["kind"], string> = {
  Params: "path parameter ",
  Query: "query parameter ",
  Headers: "header ",
  Payload: "",
  Body: "",
  ResponseHeaders: ""
}

/** What a body-level decoding message means to a client. */
const BODY: Readonly<Record<string, string>> = {
  "Expected a valid JSON body": "the request body is not valid JSON",
  "Expected object": "the request body must be a JSON object",
  "Expected array": "the request body must be a JSON array"
}

const MAX_ISSUES = 5
const MAX_MESSAGE = 500

const segment = (s: PropertyKey | { readonly key: PropertyKey }): string =>
  String(typeof s === "object" && s !== null ? s.key : s)

/** Says in one line what is wrong with a request that failed decoding (never echoing the values sent). */
export const describe = (error: HttpApiError.HttpApiSchemaError): string => {
  const { issues } = formatter(error.cause.issue)
  const parts = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = (issue.path ?? []).map(segment).join(".")
    if (path.length === 0) return error.kind === "Payload" ? (BODY[issue.message] ?? issue.message) : issue.message
    const where = `${SLOT[error.kind]}${path}`
    if (issue.message === "Missing key") return `${where} is required`
    if (issue.message === "Expected never") return `${where} is not allowed here`
    // A repeated query parameter arrives as an array where one string is expected.
    if (error.kind === "Query" && issue.message === "Expected string") return `${where} must be given once`
    return `${where}: ${issue.message}`
  })
  if (issues.length > MAX_ISSUES) parts.push(`and ${issues.length - MAX_ISSUES} more problems`)
  const message = parts.join("; ")
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message
}

/**
 * The request-error middleware: a request that fails decoding gets 400 `{error}` saying what is wrong; a response
 * that fails encoding (a bug of ours) is logged and answered 500 `{error: "internal error"}`.
 */
export const layer: Layer.Layer<RequestErrors> = HttpApiMiddleware.layerSchemaErrorTransform(RequestErrors, (error) =>
  error.kind === "Body" || error.kind === "ResponseHeaders"
    ? Effect.logError("response encoding failed", Cause.fail(error)).pipe(
        Effect.andThen(Effect.fail(new Errors.InternalError({ error: Errors.INTERNAL_ERROR })))
      )
    : Effect.fail(new Errors.BadRequest({ error: describe(error) }))
)
