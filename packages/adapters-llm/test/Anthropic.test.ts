import { assert, describe, it } from "@effect/vitest"
import { FakeAnthropic, Fixtures } from "@legible/testkit"
import { Effect, Redacted } from "effect"
import * as Anthropic from "../src/Anthropic.js"
import * as SkillSchema from "../src/internal/skillSchema.js"
import { answer, fast, type Harness, providerContract } from "./contracts/provider.js"
import { document, invoicePage, request } from "./support/documents.js"
import { at, list, text } from "./support/json.js"

const firstUserBlocks = (body: unknown) => list(at(body, "messages", 0, "content"))

const harness: Harness<FakeAnthropic.Reply> = {
  name: "Anthropic",
  model: "claude-sonnet-4-6",
  start: FakeAnthropic.make,
  extractor: (url, options) => Anthropic.make({ apiKey: Redacted.make("sk-ant-test"), baseURL: url, ...options }),
  busy: [529, 429, 500],
  reply: {
    values: (values) => FakeAnthropic.toolUse(values),
    status: (code, message, retryAfter) =>
      FakeAnthropic.error(code, message, retryAfter === undefined ? {} : { retryAfter }),
    hang: FakeAnthropic.hang,
    prose: (value) => FakeAnthropic.text(value),
    truncated: FakeAnthropic.truncated({ numero: "F-20" }),
    refusal: (value) => FakeAnthropic.refusal(value)
  },
  read: {
    schema: (body) => at(body, "tools", 0, "input_schema"),
    system: (body) => text(at(body, "system")),
    texts: (body) => firstUserBlocks(body).flatMap((b) => (at(b, "type") === "text" ? [text(at(b, "text"))] : [])),
    images: (body) =>
      firstUserBlocks(body).flatMap((b) => (at(b, "type") === "image" ? [text(at(b, "source", "data"))] : [])),
    pdf: (body) => {
      const block = firstUserBlocks(body).find((b) => at(b, "type") === "document")
      return block === undefined ? undefined : text(at(block, "source", "data"))
    },
    maxTokens: (body) => Number(at(body, "max_tokens")),
    lastUserText: (body) => {
      const messages = list(at(body, "messages"))
      const content = at(messages[messages.length - 1], "content")
      return list(content)
        .map((b) => text(at(b, "type") === "tool_result" ? at(b, "content") : at(b, "text")))
        .join("\n")
    }
  }
}

providerContract(harness)

describe("Anthropic: wire details", () => {
  const skill = Fixtures.skill()

  it.live("offers exactly one tool, forced with tool_choice, with the API key and no SDK retries", () =>
    Effect.gen(function* () {
      const fake = yield* FakeAnthropic.make
      const extractor = yield* harness.extractor(fake.url, fast)
      yield* fake.script(FakeAnthropic.toolUse(answer))
      yield* extractor.extract(request(skill, document([invoicePage()])))
      const [sent] = yield* fake.requests
      assert.strictEqual(sent?.path, "/v1/messages")
      // This SDK version sends the API key as a bearer token.
      assert.strictEqual(sent?.headers.authorization, "Bearer sk-ant-test")
      assert.deepStrictEqual(
        list(at(sent?.body, "tools")).map((t) => at(t, "name")),
        [SkillSchema.TOOL_NAME]
      )
      assert.deepStrictEqual(at(sent?.body, "tool_choice"), {
        type: "tool",
        name: SkillSchema.TOOL_NAME,
        disable_parallel_tool_use: true
      })
      assert.strictEqual(at(sent?.body, "model"), "claude-sonnet-4-6")
      assert.strictEqual(at(sent?.body, "messages", 0, "role"), "user")
      assert.strictEqual(sent?.headers["x-stainless-retry-count"] ?? "0", "0")
    })
  )

  it.live("the repair round answers the tool call with an error tool_result", () =>
    Effect.gen(function* () {
      const fake = yield* FakeAnthropic.make
      const extractor = yield* harness.extractor(fake.url, fast)
      yield* fake.script(FakeAnthropic.toolUse({ ...answer, total: 12 }), FakeAnthropic.toolUse(answer))
      yield* extractor.extract(request(skill, document([invoicePage()])))
      const [first, second] = yield* fake.requests
      const messages = list(at(second?.body, "messages"))
      assert.strictEqual(messages.length, 3)
      assert.strictEqual(at(messages[1], "role"), "assistant")
      assert.strictEqual(at(messages[1], "content", 0, "type"), "tool_use")
      assert.strictEqual(at(messages[2], "content", 0, "type"), "tool_result")
      assert.strictEqual(at(messages[2], "content", 0, "is_error"), true)
      assert.strictEqual(at(messages[2], "content", 0, "tool_use_id"), at(messages[1], "content", 0, "id"))
      assert.deepStrictEqual(at(second?.body, "tools"), at(first?.body, "tools"))
    })
  )

  it.live("a call to a tool that was never offered is not an answer: it gets a repair round", () =>
    Effect.gen(function* () {
      const fake = yield* FakeAnthropic.make
      const extractor = yield* harness.extractor(fake.url, fast)
      yield* fake.script(
        FakeAnthropic.toolUse({ status: "completado", client_id: "client-globex" }, { name: "update_extraction" }),
        FakeAnthropic.toolUse(answer)
      )
      const result = yield* extractor.extract(request(skill, document([invoicePage()])))
      assert.deepStrictEqual(result.values, answer)
      const [, second] = yield* fake.requests
      const last = list(at(second?.body, "messages")).at(-1)
      assert.include(text(at(last, "content", 0, "content")), `Only ${SkillSchema.TOOL_NAME} exists`)
    })
  )

  it.live("an input over the context window: a permanent TooLarge error, no retry", () =>
    Effect.gen(function* () {
      const fake = yield* FakeAnthropic.make
      const extractor = yield* harness.extractor(fake.url, fast)
      yield* fake.script(FakeAnthropic.contextExceeded())
      const error = yield* Effect.flip(extractor.extract(request(skill, document([invoicePage()]))))
      assert.strictEqual(error.reason, "TooLarge")
      assert.isTrue(error.permanent)
      assert.strictEqual((yield* fake.requests).length, 1)
    })
  )

  it.live("supports claude-* only", () =>
    Effect.gen(function* () {
      const extractor = yield* Anthropic.make({ apiKey: Redacted.make("k") })
      assert.isTrue(extractor.supports("claude-opus-4-1"))
      assert.isFalse(extractor.supports("gpt-4o-mini"))
      assert.isFalse(extractor.supports("local"))
    })
  )
})
