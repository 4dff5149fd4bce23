import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Confidence from "../src/Confidence.js"

const probability = fc.double({ min: 0, max: 1, noNaN: true })

const signals: fc.Arbitrary<Confidence.Signals> = fc.record({
  grounding: fc.option(probability, { nil: null }),
  ocr: fc.option(probability, { nil: undefined }),
  certainty: fc.option(probability, { nil: undefined }),
  parsed: fc.boolean(),
  check: fc.constantFrom(
    { passed: true, code: "checksum_failed" as const, message: "check digit holds" },
    { passed: false, code: "checksum_failed" as const, message: "check digit fails" },
    { passed: false, code: "implausible_date" as const, message: "years ahead" },
    undefined
  ),
  repeats: fc.constantFrom(
    { passed: true, code: "repeat_mismatch" as const, message: "reads the same" },
    { passed: false, code: "repeat_mismatch" as const, message: 'read as "30-70308853-5" elsewhere' },
    undefined
  ),
  code: fc.constantFrom(
    { passed: true, code: "code_mismatch" as const, message: "the Afip code agrees" },
    { passed: false, code: "code_mismatch" as const, message: "the Afip code states 125.40" },
    undefined
  ),
  arithmetic: fc.constantFrom(
    { passed: true, code: "sum_mismatch" as const, message: "adds up" },
    { passed: false, code: "sum_mismatch" as const, message: "125,40 ≠ 120,40 + 5,00" },
    undefined
  ),
  catalog: fc.option(fc.record({ score: probability, margin: probability }), { nil: undefined })
})

const model: fc.Arbitrary<Confidence.Model> = fc.record({
  intercept: fc.double({ min: -5, max: 5, noNaN: true }),
  weights: fc.record(
    Object.fromEntries(Confidence.FEATURES.map((f) => [f, fc.double({ min: 0, max: 10, noNaN: true })])) as Record<
      Confidence.Feature,
      fc.Arbitrary<number>
    >
  )
})

/** The same signals with one of them made better. */
const better = (s: Confidence.Signals, which: number, amount: number): Confidence.Signals => {
  const up = (p: number | undefined) => (p === undefined ? undefined : Math.min(1, p + amount))
  switch (which % 9) {
    case 0:
      return { ...s, grounding: s.grounding === null ? amount : Math.min(1, s.grounding + amount) }
    case 1:
      return { ...s, ocr: up(s.ocr) }
    case 2:
      return { ...s, certainty: up(s.certainty) }
    case 3:
      return { ...s, parsed: true }
    case 4:
      return {
        ...s,
        check: s.check?.passed === false ? undefined : { passed: true, code: "checksum_failed", message: "holds" }
      }
    case 5:
      return {
        ...s,
        arithmetic:
          s.arithmetic?.passed === false ? undefined : { passed: true, code: "sum_mismatch", message: "adds up" }
      }
    case 7:
      return {
        ...s,
        code: s.code?.passed === false ? undefined : { passed: true, code: "code_mismatch", message: "agrees" }
      }
    case 6:
      return {
        ...s,
        repeats: s.repeats?.passed === false ? undefined : { passed: true, code: "repeat_mismatch", message: "same" }
      }
    default:
      return s.catalog === undefined
        ? s
        : { ...s, catalog: { score: Math.min(1, s.catalog.score + amount), margin: s.catalog.margin } }
  }
}

describe("Confidence", () => {
  it("never falls when a signal gets better", () => {
    fc.assert(
      fc.property(model, signals, fc.nat(8), probability, (m, s, which, amount) => {
        const before = Confidence.assess(m, s).confidence
        const after = Confidence.assess(m, better(s, which, amount)).confidence
        expect(after).toBeGreaterThanOrEqual(before - 1e-12)
      }),
      { numRuns: 2_000 }
    )
  })

  it("is a probability", () => {
    fc.assert(
      fc.property(model, signals, (m, s) => {
        const { confidence } = Confidence.assess(m, s)
        expect(confidence).toBeGreaterThanOrEqual(0)
        expect(confidence).toBeLessThanOrEqual(1)
      })
    )
  })

  it("names a reason exactly when its signal fired", () =>
    fc.assert(
      fc.property(signals, (s) => {
        const codes = new Set(Confidence.reasons(s).map((r) => r.code))
        expect(codes.has("not_grounded")).toBe(s.grounding === null)
        expect(codes.has("fuzzy_grounding")).toBe(s.grounding !== null && s.grounding < 0.999)
        expect(codes.has("low_ocr")).toBe(s.grounding !== null && s.ocr !== undefined && s.ocr < 0.8)
        expect(codes.has("low_certainty")).toBe(s.certainty !== undefined && s.certainty < 0.8)
        expect(codes.has("parse_failed")).toBe(!s.parsed)
        expect(codes.has("checksum_failed")).toBe(s.check?.passed === false && s.check.code === "checksum_failed")
        expect(codes.has("implausible_date")).toBe(s.check?.passed === false && s.check.code === "implausible_date")
        expect(codes.has("sum_mismatch")).toBe(s.arithmetic?.passed === false)
        expect(codes.has("repeat_mismatch")).toBe(s.repeats?.passed === false)
        expect(codes.has("code_mismatch")).toBe(s.code?.passed === false)
        expect(codes.has("catalog_score")).toBe(s.catalog !== undefined && s.catalog.score < 0.9)
        expect(codes.has("catalog_margin")).toBe(s.catalog !== undefined && s.catalog.margin < 0.1)
      })
    ))

  it("fit recovers the probabilities of data drawn from a known model", () => {
    // A seeded generator (mulberry32), so the test is deterministic.
    let seed = 42
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
    }
    const truth: Confidence.Model = {
      intercept: -2,
      weights: {
        ...(Object.fromEntries(Confidence.FEATURES.map((f) => [f, 0])) as Record<Confidence.Feature, number>),
        grounded: 2,
        certainty: 1.5,
        checkNotFailed: 1.5,
        parsed: 1
      }
    }
    const draw = (): Confidence.Signals => ({
      grounding: random() < 0.8 ? 1 : null,
      certainty: random(),
      parsed: random() < 0.9,
      check:
        random() < 0.2
          ? { passed: false, code: "checksum_failed", message: "fails" }
          : random() < 0.5
            ? { passed: true, code: "checksum_failed", message: "holds" }
            : undefined
    })
    const samples = Array.from({ length: 4_000 }, () => {
      const s = draw()
      return { signals: s, right: random() < Confidence.assess(truth, s).confidence }
    })
    const fitted = Confidence.fit(samples)
    for (const f of Confidence.FEATURES) expect(fitted.weights[f]).toBeGreaterThanOrEqual(0)
    const probes = Array.from({ length: 200 }, draw)
    const worst = Math.max(
      ...probes.map((s) => Math.abs(Confidence.assess(fitted, s).confidence - Confidence.assess(truth, s).confidence))
    )
    expect(worst).toBeLessThan(0.1)
  })
})
