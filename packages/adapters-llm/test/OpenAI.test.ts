import { assert, describe, it } from "@effect/vitest"
import { FakeOpenAI, Fixtures } from "@legible/testkit"
import { Effect, Redacted } from "effect"
import * as SkillSchema from "../src/internal/skillSchema.js"
import * as OpenAI from "../src/OpenAI.js"
import { answer, fast, type Harness, providerContract } from "./contracts/provider.js"
import { document, invoicePage, request } from "./support/documents.js"
import { at, list, text } from "./support/json.js"

const userParts = (body: unknown) => list(at(body, "messages", 1, "content"))

const dataOf = (url: string) => url.slice(url.indexOf(",") + 1)

const harness: Harness<FakeOpenAI.Reply> = {
  name: "OpenAI",
  model: "gpt-4o-mini",
  start: FakeOpenAI.make,
  extractor: (url, options) => OpenAI.make({ apiKey: Redacted.make("sk-test"), baseURL: url, ...options }),
  busy: [429, 500, 503],
  reply: {
    values: (values) => FakeOpenAI.json(values),
    status: (code, message, retryAfter) =>
      FakeOpenAI.error(code, message, retryAfter === undefined ? {} : { retryAfter }),
    hang: FakeOpenAI.hang,
    prose: (value) => FakeOpenAI.content(value),
    truncated: FakeOpenAI.truncated(),
    refusal: (value) => FakeOpenAI.refusal(value)
  },
  read: {
    schema: (body) => at(body, "response_format", "json_schema", "schema"),
    system: (body) => (at(body, "messages", 0, "role") === "system" ? text(at(body, "messages", 0, "content")) : ""),
    texts: (body) => userParts(body).flatMap((p) => (at(p, "type") === "text" ? [text(at(p, "text"))] : [])),
    images: (body) =>
      userParts(body).flatMap((p) => (at(p, "type") === "image_url" ? [dataOf(text(at(p, "image_url", "url")))] : [])),
    pdf: (body) => {
      const part = userParts(body).find((p) => at(p, "type") === "file")
      return part === undefined ? undefined : dataOf(text(at(part, "file", "file_data")))
    },
    maxTokens: (body) => Number(at(body, "max_completion_tokens")),
    lastUserText: (body) => text(at(list(at(body, "messages")).at(-1), "content"))
  }
}

providerContract(harness)

describe("OpenAI: wire details", () => {
  const skill = Fixtures.skill()

  it.live("structured outputs: json_schema, strict, the generated schema; the key as a bearer token", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      const extractor = yield* harness.extractor(fake.url, fast)
      yield* fake.script(FakeOpenAI.json(answer))
      yield* extractor.extract(request(skill, document([invoicePage()]), { model: "gpt-4o-mini" }))
      const [sent] = yield* fake.requests
      assert.strictEqual(sent?.path, "/v1/chat/completions")
      assert.strictEqual(sent?.headers.authorization, "Bearer sk-test")
      assert.strictEqual(at(sent?.body, "response_format", "type"), "json_schema")
      assert.strictEqual(at(sent?.body, "response_format", "json_schema", "strict"), true)
      assert.strictEqual(at(sent?.body, "response_format", "json_schema", "name"), SkillSchema.TOOL_NAME)
      assert.isUndefined(at(sent?.body, "tools"))
      assert.deepStrictEqual(
        list(at(sent?.body, "messages")).map((m) => at(m, "role")),
        ["system", "user"]
      )
    })
  )

  it.live("a baseURL with its own path (Azure, vLLM, Ollama, OpenRouter) and extra headers", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      const extractor = yield* OpenAI.make({
        apiKey: Redacted.make("azure-key"),
        baseURL: `${fake.url.replace(/\/v1$/, "")}/openai/v1`,
        headers: { "api-key": "azure-key" },
        models: /^qwen/,
        maxTokensParameter: "max_tokens",
        ...fast
      })
      yield* fake.script(FakeOpenAI.json(answer))
      yield* extractor.extract(request(skill, document([invoicePage()]), { model: "qwen2.5-vl" }))
      const [sent] = yield* fake.requests
      assert.strictEqual(sent?.path, "/openai/v1/chat/completions")
      assert.strictEqual(sent?.headers["api-key"], "azure-key")
      assert.isNumber(at(sent?.body, "max_tokens"))
      assert.isUndefined(at(sent?.body, "max_completion_tokens"))
      assert.isTrue(extractor.supports("qwen2.5-vl"))
      assert.isFalse(extractor.supports("gpt-4o"))
    })
  )

  it.live("pdf_only on a server without file inputs: the pages' text instead of the PDF", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      const extractor = yield* OpenAI.make({ apiKey: Redacted.make("k"), baseURL: fake.url, pdfInput: false, ...fast })
      yield* fake.script(FakeOpenAI.json(answer))
      yield* extractor.extract(request(skill, document([invoicePage()]), { model: "gpt-4o", mode: "pdf_only" }))
      const [sent] = yield* fake.requests
      assert.isUndefined(harness.read.pdf(sent?.body))
      assert.include(harness.read.texts(sent?.body).join("\n"), "Nº Factura: F-2026/0042")
    })
  )

  it.live("content_filter is a refusal; invalid JSON content gets the repair round", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      const extractor = yield* harness.extractor(fake.url, fast)
      const extract = extractor.extract(request(skill, document([invoicePage()]), { model: "gpt-4o" }))
      yield* fake.script({
        _tag: "Message",
        content: null,
        refusal: null,
        finishReason: "content_filter",
        usage: FakeOpenAI.defaultUsage
      })
      assert.strictEqual((yield* Effect.flip(extract)).reason, "Refused")
      yield* fake.script(FakeOpenAI.content('{"numero": "F-2026/0042",'), FakeOpenAI.json(answer))
      assert.deepStrictEqual((yield* extract).values, answer)
      const sent = yield* fake.requests
      assert.include(harness.read.lastUserText(sent[2]?.body), "not valid JSON")
      assert.deepStrictEqual(at(list(at(sent[2]?.body, "messages")).at(-2), "content"), '{"numero": "F-2026/0042",')
    })
  )

  it.live("asks for log-probabilities and gives each value the model's certainty", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      const extractor = yield* harness.extractor(fake.url, fast)
      yield* fake.script(FakeOpenAI.withCertainty(FakeOpenAI.json(answer), { [answer.total]: 0.55 }))
      const result = yield* extractor.extract(request(skill, document([invoicePage()]), { model: "gpt-4o" }))
      const [sent] = yield* fake.requests
      assert.strictEqual(at(sent?.body, "logprobs"), true)
      assert.closeTo(result.certainty?.get(answer.total) ?? 0, 0.55, 0.001)
      assert.isAbove(result.certainty?.get(answer.numero) ?? 0, 0.99)
      assert.isAbove(result.certainty?.get(answer.lineas[0]?.descripcion ?? "") ?? 0, 0.99)
    })
  )

  it.live("a model that refuses log-probabilities is asked again without, and not asked for them again", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      const extractor = yield* harness.extractor(fake.url, fast)
      const extract = extractor.extract(request(skill, document([invoicePage()]), { model: "o3" }))
      yield* fake.script(
        FakeOpenAI.error(400, "logprobs are not supported with reasoning models", { code: "unsupported_parameter" }),
        FakeOpenAI.json(answer),
        FakeOpenAI.json(answer)
      )
      const first = yield* extract
      assert.deepStrictEqual(first.values, answer)
      assert.isUndefined(first.certainty)
      yield* extract
      const sent = yield* fake.requests
      assert.deepStrictEqual(
        sent.map((r) => at(r.body, "logprobs")),
        [true, undefined, undefined]
      )
    })
  )

  it.live("another 400 is not taken for a refusal of log-probabilities", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      const extractor = yield* harness.extractor(fake.url, fast)
      yield* fake.script(FakeOpenAI.error(400, "Invalid schema for response_format"))
      const failure = yield* Effect.flip(
        extractor.extract(request(skill, document([invoicePage()]), { model: "gpt-4o" }))
      )
      assert.strictEqual(failure.reason, "Rejected")
      assert.lengthOf(yield* fake.requests, 1)
    })
  )

  it.live("supports gpt-*, o1/o3/o4… by default", () =>
    Effect.gen(function* () {
      const extractor = yield* OpenAI.make({ apiKey: Redacted.make("k") })
      for (const model of ["gpt-4o-mini", "gpt-5", "o1-mini", "o3", "o4-mini", "chatgpt-4o-latest"])
        assert.isTrue(extractor.supports(model), model)
      for (const model of ["claude-opus-4-1", "local", "llama3"]) assert.isFalse(extractor.supports(model), model)
    })
  )
})
