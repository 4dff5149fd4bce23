/**
 * The OpenAI-compatible `FieldExtractor` (`gpt-*`, `o1…`/`o3…`/`o4…`, or any pattern) through `openai`: Chat
 * Completions with structured outputs (`response_format: json_schema`, `strict: true`, the schema generated from the
 * skill). Page images go as `image_url` data URLs for `ocr_pdf`; `pdf_only` sends the PDF as a `file` part where the
 * server takes one (`pdfInput`, on by default), else the pages' text. `baseURL` makes it work with Azure OpenAI's
 * v1 API, vLLM, Ollama or OpenRouter. Documents over the budget (20 MB, 50 images by default) are split by pages.
 * Token log-probabilities are asked for (`logprobs: true`) and give each literal the model's certainty; a model or
 * server that refuses them with a 400 is asked again without, and not asked for them again.
 */
import { type Document, type Extractor, Ports } from "@legible/core"
import { Config, Effect, Layer, type Redacted } from "effect"
import OpenAI from "openai"
import type { Chunk, Part } from "./internal/content.js"
import * as Flow from "./internal/flow.js"
import { literalCertainty } from "./internal/logprobs.js"
import * as Prompt from "./internal/prompt.js"
import * as Resilience from "./internal/resilience.js"
import * as SkillSchema from "./internal/skillSchema.js"
import type { ProviderOptions } from "./Provider.js"

/** Settings of the OpenAI-compatible extractor. */
export interface Options extends ProviderOptions {
  readonly apiKey: Redacted.Redacted
  /** Default `https://api.openai.com/v1` (the SDK's own environment lookup is never used). */
  readonly baseURL?: string | undefined
  /** Models served; default `gpt-*`, `chatgpt-*`, `o1…`–`o9…`. Set it for vLLM/Ollama model names. */
  readonly models?: RegExp | undefined
  /** Whether the server takes PDFs as `file` parts (OpenAI does; most compatible servers do not). Default true. */
  readonly pdfInput?: boolean | undefined
  /** The name of the output-length parameter: OpenAI's `max_completion_tokens` (default) or the older `max_tokens`. */
  readonly maxTokensParameter?: "max_completion_tokens" | "max_tokens" | undefined
  /** Extra headers on every request (e.g. Azure's `api-key`). */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Sent only when set. */
  readonly temperature?: number | undefined
  /** Whether to ask for token log-probabilities (the extractor's certainty of each value). Default true. */
  readonly logprobs?: boolean | undefined
}

/** The default model pattern. */
export const models: RegExp = /^(gpt-|chatgpt-|o\d)/

type MessageParam = OpenAI.Chat.ChatCompletionMessageParam
type ContentPart = OpenAI.Chat.ChatCompletionContentPart

const contentPart = (part: Part): ContentPart => {
  switch (part._tag) {
    case "Text":
      return { type: "text", text: part.text }
    case "Image":
      return { type: "image_url", image_url: { url: `data:${part.mimeType};base64,${part.base64}`, detail: "high" } }
    case "Pdf":
      return {
        type: "file",
        file: { filename: "document.pdf", file_data: `data:application/pdf;base64,${part.base64}` }
      }
  }
}

/** The user turn of a chunk: the opening, the document's parts, the closing. */
const userContent = (
  chunk: Chunk,
  index: number,
  count: number,
  document: Document.ReadDocument
): Array<ContentPart> => [
  { type: "text", text: Prompt.opening(chunk, index, count, document.numPages) },
  ...chunk.parts.map(contentPart),
  { type: "text", text: Prompt.closing("json", document.codes) }
]

const parse = (content: string): Flow.Turn<unknown>["output"] => {
  try {
    return { _tag: "Output", value: JSON.parse(content) }
  } catch (error) {
    return { _tag: "Unusable", why: `the answer was not valid JSON (${String(error)}): "${content.slice(0, 200)}"` }
  }
}

/** How a Chat Completions answer reads for the flow. */
const turn = (
  messages: Array<MessageParam>,
  completion: OpenAI.Chat.ChatCompletion
): Flow.Turn<Array<MessageParam>> => {
  const choice = completion.choices[0]
  const content = choice?.message.content ?? null
  const refusal = choice?.message.refusal ?? null
  const refused = (refusal !== null && refusal !== "") || choice?.finish_reason === "content_filter"
  return {
    outcome: refused ? "refused" : choice?.finish_reason === "length" ? "truncated" : "answer",
    output: content === null ? { _tag: "Unusable", why: "the answer had no content" } : parse(content),
    certainty:
      content === null || choice?.logprobs?.content == null
        ? undefined
        : literalCertainty(content, choice.logprobs.content),
    refusal: refusal ?? "",
    tokens: { prompt: completion.usage?.prompt_tokens ?? 0, response: completion.usage?.completion_tokens ?? 0 },
    followUp: (text) => [...messages, { role: "assistant", content: content ?? "" }, { role: "user", content: text }]
  }
}

const toFailure = Resilience.sdkFailure(OpenAI)

/** Whether a server refused the request for its `logprobs` (reasoning models, some compatible servers). */
const refusesLogprobs = (error: unknown): boolean =>
  error instanceof OpenAI.APIError && error.status === 400 && /logprob/i.test(error.message)

/** The conversation of one request: the skill as the strict response format, the document in the user turn. */
const dialogue =
  (client: OpenAI, options: Options, withoutLogprobs: Set<string>) =>
  (request: Extractor.ExtractRequest): Flow.Dialogue<Array<MessageParam>, OpenAI.Chat.ChatCompletion> => {
    const system = Prompt.system(request.skill, "json")
    const schema = JSON.parse(JSON.stringify(SkillSchema.fromFields(request.skill.fields))) as Record<string, unknown>
    const lengthParameter = options.maxTokensParameter ?? "max_completion_tokens"
    return {
      start: (chunk, index, count) => [
        { role: "system", content: system },
        { role: "user", content: userContent(chunk, index, count, request.document) }
      ],
      request: async (messages, maxTokens, sdkOptions) => {
        const body = {
          model: request.model,
          messages,
          response_format: {
            type: "json_schema" as const,
            json_schema: { name: SkillSchema.TOOL_NAME, strict: true, schema }
          },
          [lengthParameter]: maxTokens,
          ...(options.temperature === undefined ? {} : { temperature: options.temperature })
        }
        if (options.logprobs === false || withoutLogprobs.has(request.model))
          return client.chat.completions.create(body, sdkOptions)
        try {
          return await client.chat.completions.create({ ...body, logprobs: true }, sdkOptions)
        } catch (error) {
          if (!refusesLogprobs(error)) throw error
          withoutLogprobs.add(request.model)
          return client.chat.completions.create(body, sdkOptions)
        }
      },
      turn
    }
  }

/** An OpenAI-compatible extractor with its own semaphore. */
export const make = (options: Options): Effect.Effect<Ports.FieldExtractor["Service"]> =>
  Effect.suspend(() => {
    const settings = Resilience.settings(options, { maxRequestBytes: 20_000_000, maxImages: 50 })
    const client = new OpenAI({
      ...Resilience.clientOptions(options, settings, "https://api.openai.com/v1"),
      adminAPIKey: null,
      organization: null,
      project: null,
      webhookSecret: null,
      ...(options.headers === undefined ? {} : { defaultHeaders: { ...options.headers } })
    })
    // Models that refused log-probabilities once are not asked for them again.
    const withoutLogprobs = new Set<string>()
    return Effect.map(Resilience.caller("OpenAI", settings, toFailure), (caller) =>
      Flow.extractor(
        caller,
        options.models ?? models,
        { pdf: options.pdfInput ?? true },
        dialogue(client, options, withoutLogprobs)
      )
    )
  })

/** The OpenAI-compatible extractor as the `FieldExtractor`. */
export const layer = (options: Options): Layer.Layer<Ports.FieldExtractor> =>
  Layer.effect(Ports.FieldExtractor, make(options))

/** Like `layer`, with the options (the API key as `Config.Redacted`) read from `Config`. */
export const layerConfig = (config: Config.Wrap<Options>): Layer.Layer<Ports.FieldExtractor, Config.ConfigError> =>
  Layer.unwrap(Effect.map(Config.unwrap(config), layer))
