/**
 * A fake Anthropic Messages API on loopback (`POST /v1/messages`), speaking the real wire format: scripted tool calls,
 * prose, truncation, refusals, error statuses with `retry-after`, or no answer at all; every request body is kept.
 * Point the SDK at it with `baseURL: fake.url`.
 */
import { Context, type Effect, Layer, type Scope } from "effect"
import type * as FakeServer from "./FakeServer.js"
import { type Dialect, errorHeaders, type HttpReply, modelOf, serve } from "./internal/fakeHttp.js"

/** Token counts of a scripted answer. */
export interface Usage {
  readonly input_tokens: number
  readonly output_tokens: number
}

/** One scripted answer. */
export type Reply =
  | {
      readonly _tag: "ToolUse"
      readonly name: string
      readonly input: unknown
      readonly stopReason: "tool_use" | "max_tokens"
      readonly usage: Usage
    }
  | {
      readonly _tag: "Text"
      readonly text: string
      readonly stopReason: "end_turn" | "refusal" | "model_context_window_exceeded"
      readonly usage: Usage
    }
  | {
      readonly _tag: "Error"
      readonly status: number
      readonly type: string
      readonly message: string
      readonly headers: Readonly<Record<string, string>>
    }
  | { readonly _tag: "Hang" }

/** The usage a reply reports unless told otherwise. */
export const defaultUsage: Usage = { input_tokens: 100, output_tokens: 20 }

/** A `tool_use` answer (by default of `extract_fields`) with this input. */
export const toolUse = (input: unknown, options: { readonly name?: string; readonly usage?: Usage } = {}): Reply => ({
  _tag: "ToolUse",
  name: options.name ?? "extract_fields",
  input,
  stopReason: "tool_use",
  usage: options.usage ?? defaultUsage
})

/** A tool call cut short: `stop_reason: "max_tokens"`, with whatever input was produced. */
export const truncated = (input: unknown = {}, usage: Usage = defaultUsage): Reply => ({
  _tag: "ToolUse",
  name: "extract_fields",
  input,
  stopReason: "max_tokens",
  usage
})

/** Prose instead of a tool call (`stop_reason: "end_turn"`). */
export const text = (value: string, usage: Usage = defaultUsage): Reply => ({
  _tag: "Text",
  text: value,
  stopReason: "end_turn",
  usage
})

/** A refusal (`stop_reason: "refusal"`). */
export const refusal = (value = "I can't help with that.", usage: Usage = defaultUsage): Reply => ({
  _tag: "Text",
  text: value,
  stopReason: "refusal",
  usage
})

/** The input did not fit the model's context window (`stop_reason: "model_context_window_exceeded"`). */
export const contextExceeded = (usage: Usage = defaultUsage): Reply => ({
  _tag: "Text",
  text: "",
  stopReason: "model_context_window_exceeded",
  usage
})

const errorTypes: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
  413: "request_too_large",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error"
}

/** An error status with Anthropic's error body; `retryAfter` sets the `retry-after` header (seconds or a date). */
export const error = (
  status: number,
  message: string,
  options: { readonly type?: string; readonly retryAfter?: string; readonly headers?: Record<string, string> } = {}
): Reply => ({
  _tag: "Error",
  status,
  type: options.type ?? errorTypes[status] ?? "api_error",
  message,
  headers: errorHeaders(options)
})

/** Never answers (the connection stays open until the client gives up or the fake closes). */
export const hang: Reply = { _tag: "Hang" }

const errorReply = (status: number, type: string, message: string, headers = {}): HttpReply => ({
  _tag: "Respond",
  status,
  headers: { "request-id": "req_fake", ...headers },
  body: { type: "error", error: { type, message } }
})

const usageBody = (usage: Usage) => ({
  ...usage,
  cache_creation_input_tokens: null,
  cache_read_input_tokens: null,
  server_tool_use: null,
  service_tier: "standard"
})

const render = (reply: Reply, request: FakeServer.RecordedRequest, index: number): HttpReply => {
  if (reply._tag === "Hang") return reply
  if (reply._tag === "Error") return errorReply(reply.status, reply.type, reply.message, reply.headers)
  const counter = index + 1
  const content =
    reply._tag === "ToolUse"
      ? [{ type: "tool_use", id: `toolu_fake_${counter}`, name: reply.name, input: reply.input }]
      : [{ type: "text", text: reply.text, citations: null }]
  return {
    _tag: "Respond",
    status: 200,
    headers: { "request-id": `req_fake_${counter}` },
    body: {
      id: `msg_fake_${counter}`,
      type: "message",
      role: "assistant",
      model: modelOf(request, "claude-fake"),
      content,
      stop_reason: reply.stopReason,
      stop_sequence: null,
      usage: usageBody(reply.usage)
    }
  }
}

const dialect: Dialect<Reply> = {
  name: "FakeAnthropic",
  basePath: "",
  accepts: (method, path) => method === "POST" && path === "/v1/messages",
  notFound: (method, path) => errorReply(404, "not_found_error", `FakeAnthropic: no route ${method} ${path}`),
  render,
  // 418 is not retried by the adapters, so a test with too short a script fails at once, naming the request.
  unscripted: (index) =>
    errorReply(418, "invalid_request_error", `FakeAnthropic: no scripted reply for request #${index + 1}`)
}

/** A running fake: its base URL (the origin; the SDK appends `/v1/messages`), the script and the requests received. */
export type Server = FakeServer.Server<Reply>

/** Starts a fake on an ephemeral loopback port, closed with the scope. */
export const make: Effect.Effect<Server, never, Scope.Scope> = serve(dialect)

/** The running fake as a service, for `layer(FakeAnthropic.layer)` suites. */
export class FakeAnthropic extends Context.Service<FakeAnthropic, Server>()("@legible/testkit/FakeAnthropic") {}

/** A fake started for the layer's lifetime. */
export const layer: Layer.Layer<FakeAnthropic> = Layer.effect(FakeAnthropic, make)
