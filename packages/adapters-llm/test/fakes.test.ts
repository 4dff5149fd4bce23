import { assert, describe, it } from "@effect/vitest"
import { FakeAnthropic, FakeOpenAI } from "@legible/testkit"
import { Effect, Exit, Fiber, Scope } from "effect"

const post = (url: string, body: unknown, signal?: AbortSignal) =>
  Effect.promise(async () => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      ...(signal === undefined ? {} : { signal })
    })
    return { status: response.status, headers: response.headers, body: (await response.json()) as unknown }
  })

describe("fake provider servers (testkit)", () => {
  it.live("FakeAnthropic: replies in script order, records bodies, answers 418 when the script is empty", () =>
    Effect.gen(function* () {
      const fake = yield* FakeAnthropic.make
      yield* fake.script(FakeAnthropic.error(529, "Overloaded", { retryAfter: "2" }), FakeAnthropic.toolUse({ a: "1" }))
      const first = yield* post(`${fake.url}/v1/messages`, { model: "claude-x" })
      assert.strictEqual(first.status, 529)
      assert.strictEqual(first.headers.get("retry-after"), "2")
      assert.deepStrictEqual(first.body, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })
      const second = yield* post(`${fake.url}/v1/messages`, { model: "claude-x" })
      assert.strictEqual(second.status, 200)
      assert.deepStrictEqual(Reflect.get(second.body as object, "stop_reason"), "tool_use")
      const third = yield* post(`${fake.url}/v1/messages`, { n: 3 })
      assert.strictEqual(third.status, 418)
      const recorded = yield* fake.requests
      assert.deepStrictEqual(
        recorded.map((r) => r.body),
        [{ model: "claude-x" }, { model: "claude-x" }, { n: 3 }]
      )
      assert.strictEqual((yield* post(`${fake.url}/v1/other`, {})).status, 404)
    })
  )

  it.live("FakeOpenAI: any base path ending in /chat/completions; usage totals", () =>
    Effect.gen(function* () {
      const fake = yield* FakeOpenAI.make
      yield* fake.script(FakeOpenAI.json({ a: "1" }, { prompt_tokens: 7, completion_tokens: 3 }))
      const reply = yield* post(`${fake.url.replace(/\/v1$/, "")}/openai/deployments/x/chat/completions`, {})
      assert.strictEqual(reply.status, 200)
      assert.deepStrictEqual(Reflect.get(reply.body as object, "usage"), {
        prompt_tokens: 7,
        completion_tokens: 3,
        total_tokens: 10
      })
    })
  )

  it.live("closing the scope closes the server, hanging requests included", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const fake = yield* Scope.provide(FakeOpenAI.make, scope)
      yield* fake.script(FakeOpenAI.hang)
      const pending = yield* Effect.forkChild(Effect.exit(post(`${fake.url}/chat/completions`, {})))
      yield* fake.awaitRequests(1)
      yield* Scope.close(scope, Exit.void)
      const exit = yield* Fiber.join(pending)
      assert.isTrue(Exit.isFailure(exit))
      const refused = yield* Effect.exit(post(`${fake.url}/chat/completions`, {}))
      assert.isTrue(Exit.isFailure(refused))
    })
  )
})
