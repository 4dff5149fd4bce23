/**
 * The Anthropic `FieldExtractor` (`claude-*` models) through `@anthropic-ai/sdk`: one tool, `extract_fields`, whose
 * input schema is generated from the skill, forced with `tool_choice`; page images with their OCR text for
 * `ocr_pdf`, the PDF as a `document` block for `pdf_only`, the text for `ocr_only`, the Markdown for
 * `ocr_pipeline_md`. Documents over the request budget (30 MB of content, 20 images by default; the API's limit
 * is 32 MB) go as several requests of whole pages, merged (`Output.mergeParts`).
 */
import Anthropic from "@anthropic-ai/sdk"
import { type Document, type Extractor, Ports } from "@legible/core"
import { Config, Effect, Layer, type Redacted } from "effect"
import type { Chunk, Part } from "./internal/content.js"
import * as Flow from "./internal/flow.js"
import * as Prompt from "./internal/prompt.js"
import * as Resilience from "./internal/resilience.js"
import * as SkillSchema from "./internal/skillSchema.js"
import type { ProviderOptions } from "./Provider.js"

/** Settings of the Anthropic extractor. */
export interface Options extends ProviderOptions {
  readonly apiKey: Redacted.Redacted
  /** Default `https://api.anthropic.com` (the SDK's own environment lookup is never used). */
  readonly baseURL?: string | undefined
  /** Models served; default `claude-*`. */
  readonly models?: RegExp | undefined
  /** Sent only when set. */
  readonly temperature?: number | undefined
}

/** The default model pattern. */
export const models: RegExp = /^claude-/

type MessageParam = Anthropic.MessageParam
type Block = Anthropic.ContentBlockParam

const block = (part: Part): Block => {
  switch (part._tag) {
    case "Text":
      return { type: "text", text: part.text }
    case "Image":
      return { type: "image", source: { type: "base64", media_type: part.mimeType, data: part.base64 } }
    case "Pdf":
      return { type: "document", source: { type: "base64", media_type: "application/pdf", data: part.base64 } }
  }
}

/** The user turn of a chunk: the opening, the document's parts, the closing. */
const userContent = (chunk: Chunk, index: number, count: number, document: Document.ReadDocument): Array<Block> => [
  { type: "text", text: Prompt.opening(chunk, index, count, document.numPages) },
  ...chunk.parts.map(block),
  { type: "text", text: Prompt.closing("tool", document.codes) }
]

/** The answer's blocks as they are sent back in the repair round (text and tool calls only). */
const echo = (message: Anthropic.Message): Array<Block> =>
  message.content.flatMap((b): Array<Block> => {
    if (b.type === "text") return [{ type: "text", text: b.text }]
    if (b.type === "tool_use") return [{ type: "tool_use", id: b.id, name: b.name, input: b.input }]
    return []
  })

const followUp = (messages: Array<MessageParam>, message: Anthropic.Message, text: string): Array<MessageParam> => {
  const answer = echo(message)
  const calls = message.content.flatMap((b) => (b.type === "tool_use" ? [b] : []))
  // Every tool call must be answered by a tool_result; calls of tools we never offered get a plain refusal.
  const reply: Array<Block> =
    calls.length === 0
      ? [{ type: "text", text }]
      : calls.map((call) => ({
          type: "tool_result",
          tool_use_id: call.id,
          is_error: true,
          content: call.name === SkillSchema.TOOL_NAME ? text : `Only ${SkillSchema.TOOL_NAME} exists. ${text}`
        }))
  return [
    ...messages,
    { role: "assistant", content: answer.length === 0 ? [{ type: "text", text: "(no answer)" }] : answer },
    { role: "user", content: reply }
  ]
}

/** How a Messages API answer reads for the flow. */
const turn = (messages: Array<MessageParam>, message: Anthropic.Message): Flow.Turn<Array<MessageParam>> => {
  const call = message.content.find((b) => b.type === "tool_use" && b.name === SkillSchema.TOOL_NAME)
  const prose = message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n")
  const usage = message.usage
  return {
    outcome:
      message.stop_reason === "refusal"
        ? "refused"
        : message.stop_reason === "max_tokens"
          ? "truncated"
          : message.stop_reason === "model_context_window_exceeded"
            ? "overflow"
            : "answer",
    output:
      call !== undefined && call.type === "tool_use"
        ? { _tag: "Output", value: call.input }
        : {
            _tag: "Unusable",
            why: `the answer was not a call to ${SkillSchema.TOOL_NAME} (prose: "${prose.slice(0, 200)}")`
          },
    refusal: prose,
    tokens: {
      prompt: usage.input_tokens + (usage.cache_creation_input_tokens ?? 0) + (usage.cache_read_input_tokens ?? 0),
      response: usage.output_tokens
    },
    followUp: (text) => followUp(messages, message, text)
  }
}

// The SDK's own message is the whole JSON body; the API's message reads better in a job's error.
const toFailure = Resilience.sdkFailure(Anthropic, (error) => {
  const detail = error.apiMessage ?? error.message
  return error.status === undefined ? detail : `${error.status} ${detail}`
})

/** The conversation of one request: the skill as the one tool, forced, and the document in the user turn. */
const dialogue =
  (client: Anthropic, options: Options) =>
  (request: Extractor.ExtractRequest): Flow.Dialogue<Array<MessageParam>, Anthropic.Message> => {
    const system = Prompt.system(request.skill, "tool")
    const schema = SkillSchema.fromFields(request.skill.fields)
    const tool: Anthropic.Tool = {
      name: SkillSchema.TOOL_NAME,
      description: "Records the values of the skill's fields as printed in the document.",
      input_schema: JSON.parse(JSON.stringify(schema)) as Anthropic.Tool.InputSchema
    }
    return {
      start: (chunk, index, count) => [{ role: "user", content: userContent(chunk, index, count, request.document) }],
      request: (messages, maxTokens, sdkOptions) =>
        client.messages.create(
          {
            model: request.model,
            max_tokens: maxTokens,
            system,
            messages,
            tools: [tool],
            tool_choice: { type: "tool", name: SkillSchema.TOOL_NAME, disable_parallel_tool_use: true },
            ...(options.temperature === undefined ? {} : { temperature: options.temperature })
          },
          sdkOptions
        ),
      turn
    }
  }

/** An Anthropic extractor with its own semaphore. */
export const make = (options: Options): Effect.Effect<Ports.FieldExtractor["Service"]> =>
  Effect.suspend(() => {
    const settings = Resilience.settings(options, { maxRequestBytes: 30_000_000, maxImages: 20 })
    const client = new Anthropic({
      ...Resilience.clientOptions(options, settings, "https://api.anthropic.com"),
      authToken: null,
      webhookKey: null,
      openTelemetry: false
    })
    return Effect.map(Resilience.caller("Anthropic", settings, toFailure), (caller) =>
      Flow.extractor(caller, options.models ?? models, { pdf: true }, dialogue(client, options))
    )
  })

/** The Anthropic extractor as the `FieldExtractor`. */
export const layer = (options: Options): Layer.Layer<Ports.FieldExtractor> =>
  Layer.effect(Ports.FieldExtractor, make(options))

/** Like `layer`, with the options (the API key as `Config.Redacted`) read from `Config`. */
export const layerConfig = (config: Config.Wrap<Options>): Layer.Layer<Ports.FieldExtractor, Config.ConfigError> =>
  Layer.unwrap(Effect.map(Config.unwrap(config), layer))
