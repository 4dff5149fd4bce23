import { assert, describe, it } from "@effect/vitest"
import { Ports } from "@legible/core"
import { FakeOpenAI, Fixtures } from "@legible/testkit"
import { Config, ConfigProvider, Effect, Layer, Redacted } from "effect"
import * as Router from "../src/Router.js"
import { answer } from "./contracts/provider.js"
import { document, invoicePage, request } from "./support/documents.js"

const supportsOf = (layer: Layer.Layer<Ports.FieldExtractor, unknown>) =>
  Effect.gen(function* () {
    const extractor = yield* Ports.FieldExtractor
    return ["claude-opus-4-1", "gpt-4o-mini", "o3-mini", "local", "llama3"].filter((m) => extractor.supports(m))
  }).pipe(Effect.provide(layer))

describe("Router", () => {
  it("providerOf: claude-* → anthropic, gpt-*/o1…/o4… → openai, local → local, others → none", () => {
    assert.strictEqual(Router.providerOf("claude-haiku-4-5"), "anthropic")
    assert.strictEqual(Router.providerOf("gpt-4o-mini"), "openai")
    assert.strictEqual(Router.providerOf("o1-preview"), "openai")
    assert.strictEqual(Router.providerOf("o4-mini"), "openai")
    assert.strictEqual(Router.providerOf("local"), "local")
    assert.isUndefined(Router.providerOf("llama3"))
    assert.isUndefined(Router.providerOf("Claude-3"))
  })

  it.effect("supports only the models of configured providers", () =>
    Effect.gen(function* () {
      const key = Redacted.make("k")
      assert.deepStrictEqual(yield* supportsOf(Router.layer({})), ["local"])
      assert.deepStrictEqual(yield* supportsOf(Router.layer({ local: false })), [])
      assert.deepStrictEqual(yield* supportsOf(Router.layer({ anthropic: { apiKey: key } })), [
        "claude-opus-4-1",
        "local"
      ])
      assert.deepStrictEqual(yield* supportsOf(Router.layer({ openai: { apiKey: key }, local: false })), [
        "gpt-4o-mini",
        "o3-mini"
      ])
      assert.deepStrictEqual(yield* supportsOf(Router.layer({ anthropic: { apiKey: key }, openai: { apiKey: key } })), [
        "claude-opus-4-1",
        "gpt-4o-mini",
        "o3-mini",
        "local"
      ])
    })
  )

  it.effect("a model no configured provider serves: a permanent NotConfigured error", () =>
    Effect.gen(function* () {
      const extractor = yield* Ports.FieldExtractor
      const error = yield* Effect.flip(
        extractor.extract(request(Fixtures.skill(), document([invoicePage()]), { model: "claude-opus-4-1" }))
      )
      assert.strictEqual(error.reason, "NotConfigured")
      assert.isTrue(error.permanent)
      assert.include(error.message, "claude-opus-4-1")
    }).pipe(Effect.provide(Router.layer({})))
  )

  it.live("routes each model to its provider: local to the rules, gpt-* to the OpenAI server", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      yield* fake.script(FakeOpenAI.json(answer))
      const extractor = yield* Effect.provide(
        Effect.gen(function* () {
          return yield* Ports.FieldExtractor
        }),
        Router.layer({ openai: { apiKey: Redacted.make("k"), baseURL: fake.url } })
      )
      const doc = document([invoicePage()])
      const local = yield* extractor.extract(request(Fixtures.skill(), doc, { model: "local" }))
      assert.strictEqual(local.usage.model, "local")
      assert.strictEqual((yield* fake.requests).length, 0)
      const remote = yield* extractor.extract(request(Fixtures.skill(), doc, { model: "gpt-4o-mini" }))
      assert.deepStrictEqual(remote.values, answer)
      assert.strictEqual((yield* fake.requests).length, 1)
    })
  )

  it.effect("layerConfig reads the providers from Config (keys redacted)", () =>
    Effect.gen(function* () {
      const layer = Router.layerConfig({
        anthropic: { apiKey: Config.Redacted("ANTHROPIC_API_KEY") },
        local: Config.Boolean("LOCAL")
      }).pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ ANTHROPIC_API_KEY: "sk", LOCAL: "false" })))
      )
      assert.deepStrictEqual(yield* supportsOf(layer), ["claude-opus-4-1"])
    })
  )
})
