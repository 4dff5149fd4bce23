import { FakeOpenAI } from "@legible/testkit"
import { describe, expect, it } from "vitest"
import { literalCertainty, mergeCertainty } from "../../src/internal/logprobs.js"

const answer = JSON.stringify({ numero: "F-2026/0042", total: "1.385,45 €", emisor: "Ñandú S.A.", fecha: null })

describe("literalCertainty", () => {
  it("gives each string value the product of its tokens' probabilities", () => {
    const tokens = FakeOpenAI.tokenLogprobs(answer, { "1.385,45 €": 0.6, "Ñandú S.A.": 0.9 })
    const certainty = literalCertainty(answer, tokens)
    expect(certainty.get("1.385,45 €")).toBeCloseTo(0.6, 3)
    expect(certainty.get("Ñandú S.A.")).toBeCloseTo(0.9, 3)
    expect(certainty.get("F-2026/0042")).toBeGreaterThan(0.99)
    // Keys and nulls are not values.
    expect([...certainty.keys()].sort()).toEqual(["1.385,45 €", "F-2026/0042", "Ñandú S.A."])
  })

  it("places tokens by their bytes, so a token may hold part of a character", () => {
    const content = JSON.stringify({ a: "año" })
    const bytes = [...Buffer.from(content, "utf8")]
    // One token per byte, the ñ's two bytes in two tokens whose text alone is not the character.
    const tokens = bytes.map((b) => ({ token: "\uFFFD", logprob: Math.log(0.9), bytes: [b] }))
    // The body "año" is 4 bytes, plus the closing quote: 5 tokens.
    expect(literalCertainty(content, tokens).get("año")).toBeCloseTo(0.9 ** 5, 6)
  })

  it("takes the lowest where a literal is written twice", () => {
    const content = JSON.stringify({ a: "12,00", b: "12,00" })
    const plain = FakeOpenAI.tokenLogprobs(content)
    const second = plain.map((t) => t.token).lastIndexOf("12")
    const tokens = plain.map((t, i) => (i === second ? { ...t, logprob: Math.log(0.5) } : t))
    const p = literalCertainty(content, tokens).get("12,00") ?? 1
    expect(p).toBeLessThan(0.6)
  })

  it("gives nothing when the tokens do not spell the content", () => {
    const tokens = FakeOpenAI.tokenLogprobs(answer).slice(1)
    expect(literalCertainty(answer, tokens).size).toBe(0)
  })

  it("mergeCertainty keeps each literal at its lowest and is undefined when no answer had any", () => {
    const merged = mergeCertainty([
      new Map([["a", 0.9]]),
      undefined,
      new Map([
        ["a", 0.5],
        ["b", 0.7]
      ])
    ])
    expect(merged).toEqual(
      new Map([
        ["a", 0.5],
        ["b", 0.7]
      ])
    )
    expect(mergeCertainty([undefined, undefined])).toBeUndefined()
  })
})
