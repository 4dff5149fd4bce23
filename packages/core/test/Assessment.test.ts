import type { Skill } from "@legible/core"
import { describe, expect, it } from "vitest"
import * as Assessment from "../src/internal/assessment.js"

const field = (name: string): Skill.SkillField => ({
  name,
  order: 1,
  type: "string",
  isList: false,
  description: "",
  aliases: []
})

const assessed = (
  path: string,
  literal: string,
  confidence: number | null,
  reasons: Assessment.Assessed["reasons"] = []
): Assessment.Assessed => ({
  path,
  field: field(path.split(/[.[]/)[0] ?? path),
  literal,
  signals: undefined,
  confidence,
  reasons
})

describe("review", () => {
  const setting = { threshold: 0.9, required: ["total", "cuit", "fecha"] }

  it("names each required field that is empty, fails a check or is under the threshold, and why", () => {
    const message = Assessment.review(setting, [
      assessed("total", "125,40", 0.97, [{ code: "sum_mismatch", message: "125,40 ≠ lines 120,40 + iva 5,00" }]),
      assessed("cuit", "30-70308853-5", 0.95, [{ code: "checksum_failed", message: "CUIT check digit fails" }]),
      assessed("fecha", "", null, [{ code: "not_found", message: "not found in the document" }]),
      assessed("emisor", "", null)
    ])
    expect(message).toBe(
      "fecha: not found in the document; total: 125,40 ≠ lines 120,40 + iva 5,00; cuit: CUIT check digit fails"
    )
  })

  it("sends a value under the threshold with what lowered it", () => {
    expect(
      Assessment.review(setting, [
        assessed("total", "125,40", 0.62, [{ code: "low_ocr", message: "the OCR was 41 % sure of these words" }]),
        assessed("cuit", "30-70308853-4", 0.99),
        assessed("fecha", "12/03/2026", 0.99)
      ])
    ).toBe("total: confidence 0.62 under 0.9 (the OCR was 41 % sure of these words)")
  })

  it("lets a result through when every required value holds, whatever the others", () => {
    expect(
      Assessment.review(setting, [
        assessed("total", "125,40", 0.95),
        assessed("cuit", "30-70308853-4", 0.99),
        assessed("fecha", "12/03/2026", 0.99),
        assessed("emisor", "ACME", 0.1, [{ code: "not_grounded", message: "not found in the document's words" }])
      ])
    ).toBeUndefined()
  })
})
