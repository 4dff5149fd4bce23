/**
 * A fake OpenAI-compatible Chat Completions API on loopback (`POST …/chat/completions` under any base path, as with
 * OpenAI, Azure, vLLM or Ollama), speaking the real wire format: scripted JSON content, prose, truncation
 * (`finish_reason: "length"`), refusals, error statuses with `retry-after`, or no answer; every request body is kept.
 * A request with `logprobs: true` gets `choices[].logprobs.content` as OpenAI sends it: the content cut into tokens,
 * each with its log-probability and UTF-8 bytes; the literals a reply names in `certainty` carry that probability,
 * the rest are near-certain.
 * Point the SDK at it with `baseURL: fake.url`.
 */
import { Context, type Effect, Layer, type Scope } from "effect"
import type * as FakeServer from "./FakeServer.js"
import { type Dialect, errorHeaders, type HttpReply, modelOf, serve } from "./internal/fakeHttp.js"

/** Token counts of a scripted answer. */
export interface Usage {
  readonly prompt_tokens: number
  readonly completion_tokens: number
}

/** One scripted answer. */
export type Reply =
  | {
      readonly _tag: "Message"
      readonly content: string | null
      readonly refusal: string | null
      readonly finishReason: "stop" | "length" | "content_filter"
      readonly usage: Usage
      /** The model's probability of these string values (by literal); every other token is near-certain. */
      readonly certainty?: Readonly<Record<string, number>> | undefined
    }
  | {
      readonly _tag: "Error"
      readonly status: number
      readonly type: string
      readonly code: string | null
      readonly message: string
      readonly headers: Readonly<Record<string, string>>
    }
  | { readonly _tag: "Hang" }

/** The usage a reply reports unless told otherwise. */
export const defaultUsage: Usage = { prompt_tokens: 100, completion_tokens: 20 }

/** An answer whose content is `value` as JSON (what structured outputs produce). */
export const json = (value: unknown, usage: Usage = defaultUsage): Reply => ({
  _tag: "Message",
  content: JSON.stringify(value),
  refusal: null,
  finishReason: "stop",
  usage
})

/** The same answer with these probabilities for its string values (see `Reply`'s `certainty`). */
export const withCertainty = (reply: Reply, certainty: Readonly<Record<string, number>>): Reply =>
  reply._tag === "Message" ? { ...reply, certainty } : reply

/** The log-probability of a token nothing made doubtful. */
const SURE = -0.0001

/**
 * The content cut into tokens the way a BPE tokenizer roughly does (up to 4 letters, up to 3 digits, a run of
 * spaces, any other character alone), each literal of `certainty` sharing the log of its probability among the
 * tokens of its body and closing quote.
 */
export const tokenLogprobs = (content: string, certainty: Readonly<Record<string, number>> = {}) => {
  const doubtful: Array<{ readonly from: number; readonly to: number; readonly logprob: number }> = []
  for (const [literal, p] of Object.entries(certainty)) {
    const quoted = JSON.stringify(literal)
    for (let at = content.indexOf(quoted); at >= 0; at = content.indexOf(quoted, at + 1))
      doubtful.push({ from: at + 1, to: at + quoted.length, logprob: Math.log(p) })
  }
  const tokens = [...content.matchAll(/\p{L}{1,4}|\p{N}{1,3}|\s+|[\s\S]/gu)].map((m) => ({
    token: m[0],
    from: m.index,
    to: m.index + m[0].length
  }))
  return tokens.map((t) => {
    const span = doubtful.find((d) => t.from < d.to && t.to > d.from)
    const share = span === undefined ? 0 : tokens.filter((u) => u.from < span.to && u.to > span.from).length
    return {
      token: t.token,
      logprob: span === undefined ? SURE : span.logprob / share,
      bytes: [...Buffer.from(t.token, "utf8")],
      top_logprobs: []
    }
  })
}

const asksLogprobs = (request: FakeServer.RecordedRequest) =>
  typeof request.body === "object" &&
  request.body !== null &&
  "logprobs" in request.body &&
  request.body.logprobs === true

/** An answer whose content is this text as is (prose, or malformed JSON). */
export const content = (text: string, usage: Usage = defaultUsage): Reply => ({
  _tag: "Message",
  content: text,
  refusal: null,
  finishReason: "stop",
  usage
})

/** An answer cut short: `finish_reason: "length"` with the partial content. */
export const truncated = (partial = '{"numero": "F-20', usage: Usage = defaultUsage): Reply => ({
  _tag: "Message",
  content: partial,
  refusal: null,
  finishReason: "length",
  usage
})

/** A refusal: `message.refusal` set, no content. */
export const refusal = (text = "I'm sorry, I can't help with that.", usage: Usage = defaultUsage): Reply => ({
  _tag: "Message",
  content: null,
  refusal: text,
  finishReason: "stop",
  usage
})

const errorTypes: Readonly<Record<number, string>> = {
  400: "invalid_request_error",
  401: "invalid_request_error",
  403: "permission_error",
  404: "invalid_request_error",
  413: "invalid_request_error",
  429: "rate_limit_exceeded",
  500: "server_error",
  503: "server_error"
}

/** An error status with OpenAI's error body; `retryAfter` sets the `retry-after` header (seconds or a date). */
export const error = (
  status: number,
  message: string,
  options: {
    readonly type?: string
    readonly code?: string
    readonly retryAfter?: string
    readonly headers?: Record<string, string>
  } = {}
): Reply => ({
  _tag: "Error",
  status,
  type: options.type ?? errorTypes[status] ?? "server_error",
  code: options.code ?? null,
  message,
  headers: errorHeaders(options)
})

/** Never answers (the connection stays open until the client gives up or the fake closes). */
export const hang: Reply = { _tag: "Hang" }

const errorReply = (status: number, type: string, code: string | null, message: string, headers = {}): HttpReply => ({
  _tag: "Respond",
  status,
  headers: { "x-request-id": "req_fake", ...headers },
  body: { error: { message, type, param: null, code } }
})

const render = (reply: Reply, request: FakeServer.RecordedRequest, index: number): HttpReply => {
  if (reply._tag === "Hang") return reply
  if (reply._tag === "Error") return errorReply(reply.status, reply.type, reply.code, reply.message, reply.headers)
  return {
    _tag: "Respond",
    status: 200,
    headers: { "x-request-id": `req_fake_${index + 1}` },
    body: {
      id: `chatcmpl-fake-${index + 1}`,
      object: "chat.completion",
      created: 1_767_225_600,
      model: modelOf(request, "gpt-fake"),
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: reply.content, refusal: reply.refusal, annotations: [] },
          logprobs:
            asksLogprobs(request) && reply.content !== null
              ? { content: tokenLogprobs(reply.content, reply.certainty), refusal: null }
              : null,
          finish_reason: reply.finishReason
        }
      ],
      usage: {
        ...reply.usage,
        total_tokens: reply.usage.prompt_tokens + reply.usage.completion_tokens
      },
      system_fingerprint: "fp_fake"
    }
  }
}

const dialect: Dialect<Reply> = {
  name: "FakeOpenAI",
  basePath: "/v1",
  accepts: (method, path) => method === "POST" && path.endsWith("/chat/completions"),
  notFound: (method, path) =>
    errorReply(404, "invalid_request_error", "unknown_url", `FakeOpenAI: no route ${method} ${path}`),
  render,
  // 418 is not retried by the adapters, so a test with too short a script fails at once, naming the request.
  unscripted: (index) =>
    errorReply(418, "invalid_request_error", null, `FakeOpenAI: no scripted reply for request #${index + 1}`)
}

/** A running fake: its base URL (`<origin>/v1`; the SDK appends `/chat/completions`), the script and the requests received. */
export type Server = FakeServer.Server<Reply>

/** Starts a fake on an ephemeral loopback port, closed with the scope. */
export const make: Effect.Effect<Server, never, Scope.Scope> = serve(dialect)

/** The running fake as a service, for `layer(FakeOpenAI.layer)` suites. */
export class FakeOpenAI extends Context.Service<FakeOpenAI, Server>()("@legible/testkit/FakeOpenAI") {}

/** A fake started for the layer's lifetime. */
export const layer: Layer.Layer<FakeOpenAI> = Layer.effect(FakeOpenAI, make)
