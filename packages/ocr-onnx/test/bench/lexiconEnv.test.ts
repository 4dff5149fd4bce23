/** The benchmarks' word-list variable (`bench/lexiconEnv.ts`). */
import { describe, expect, it } from "@effect/vitest"
import { lexiconFromEnv, parseLexicon } from "../../bench/lexiconEnv.js"

describe("parseLexicon", () => {
  it("reads a comma-separated list of languages, none, or nothing", () => {
    expect(parseLexicon("es,en")).toEqual(["es", "en"])
    expect(parseLexicon(" EN , es,en ")).toEqual(["es", "en"])
    expect(parseLexicon("es,,en")).toBeUndefined()
    expect(parseLexicon("none")).toEqual([])
    expect(parseLexicon("")).toEqual([])
    expect(parseLexicon("fr,es,it")).toEqual(["es", "fr", "it"])
    expect(parseLexicon("nl,es")).toEqual(["es", "nl"])
    expect(parseLexicon("es,ca")).toBeUndefined()
    expect(parseLexicon("none,es")).toBeUndefined()
  })

  it("reads a benchmark's variable, and refuses one that is not a list rather than ignore it", () => {
    const name = "LEGIBLE_TEST_LEXICON"
    delete process.env[name]
    expect(lexiconFromEnv(name)).toBeUndefined()
    process.env[name] = "none"
    expect(lexiconFromEnv(name)).toEqual([])
    process.env[name] = "es,ca"
    expect(() => lexiconFromEnv(name)).toThrow(
      `${name} must be none or a comma-separated list of es, en, pt, fr, it, de, nl`
    )
    delete process.env[name]
  })
})
