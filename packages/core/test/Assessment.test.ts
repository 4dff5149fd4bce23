import { type Document, type Extraction, type Field, Processing, type Skill } from "@legible/core"
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

/** A one-page document whose lines are the given texts, one word per space-separated token. */
const documentOf = (lines: ReadonlyArray<string>): Document.ReadDocument => {
  let n = 0
  const pageLines = lines.map((text, row) => ({
    words: text.split(" ").map((word, col) => ({
      id: `w${++n}`,
      word,
      x0: 40 + col * 80,
      x1: 110 + col * 80,
      y0: 40 + row * 20,
      y1: 52 + row * 20,
      page: 1,
      confidence: 1
    }))
  }))
  return {
    mimeType: "application/pdf",
    numPages: 1,
    pages: [{ page: 1, width: 595, height: 842, source: "text", lines: pageLines, markdown: lines.join("\n") }],
    fullText: lines.join("\n"),
    images: []
  }
}

describe("finish", () => {
  const cuit: Skill.SkillField = { ...field("cuit_emisor"), order: 1 }
  const usage = { tokens_consumidos: 0, prompt_tokens: 0, response_tokens: 0, duration: 0, model: "local" }
  const run = (lines: ReadonlyArray<string>, literal: string) =>
    Processing.finish({
      skill: { fields: [cuit], instructions: "" },
      document: documentOf(lines),
      extracted: { values: { cuit_emisor: literal }, usage },
      catalog: new Map(),
      today: "2026-11-27"
    })
  const reasonsOf = (result: ReturnType<typeof run>) =>
    (result.result.fields[0]?.value as Field.DetailedSimpleValue | undefined)?.reasons?.map((r) => [r.code, r.message])

  it("an identifier printed twice that reads differently the second time is doubted, naming the other reading", () => {
    const result = run(["ORIGINAL CUIT: 30-70308853-4", "DUPLICADO CUIT: 30-70308858-4"], "30-70308853-4")
    expect(reasonsOf(result)).toEqual([["repeat_mismatch", 'read as "30-70308858-4" elsewhere']])
    expect(result.assessed[0]?.signals?.repeats?.passed).toBe(false)
  })

  it("one that reads the same each time, and passes its check digit, has no reason", () => {
    const result = run(["ORIGINAL CUIT: 30-70308853-4", "DUPLICADO CUIT: 30-70308853-4"], "30-70308853-4")
    expect(reasonsOf(result)).toEqual([])
    expect(result.assessed[0]?.signals?.repeats?.passed).toBe(true)
    expect(result.assessed[0]?.signals?.check?.passed).toBe(true)
  })

  it("a wrong check digit is named", () => {
    expect(reasonsOf(run(["CUIT: 30-70308853-5"], "30-70308853-5"))).toEqual([
      ["checksum_failed", "CUIT check digit fails"]
    ])
  })

  it("the OCR's doubt is of the words' letters: a mark in doubt alone is none (`letters`, where the reader tells)", () => {
    const emisor: Skill.SkillField = { ...field("emisor"), order: 1 }
    const read = (letters: number | undefined) => {
      const document = documentOf(["JALAN PUTRA"])
      const page = document.pages[0]!
      const words = page.lines[0]!.words.map((w) => ({
        ...w,
        confidence: 0.33,
        ...(letters === undefined ? {} : { letters })
      }))
      const result = Processing.finish({
        skill: { fields: [emisor], instructions: "" },
        document: { ...document, pages: [{ ...page, source: "ocr" as const, lines: [{ words }] }] },
        extracted: { values: { emisor: "JALAN PUTRA" }, usage },
        catalog: new Map(),
        today: "2026-11-27"
      })
      return (result.result.fields[0]?.value as Field.DetailedSimpleValue | undefined)?.reasons?.map((r) => r.code)
    }
    expect(read(0.99)).toEqual([])
    expect(read(0.5)).toEqual(["low_ocr"])
    // A reader that gives no `letters`: its confidence is the words'.
    expect(read(undefined)).toEqual(["low_ocr"])
  })
})

describe("the document's codes", () => {
  const usage = { tokens_consumidos: 0, prompt_tokens: 0, response_tokens: 0, duration: 0, model: "local" }
  const facts = {
    issuerTaxId: "30703088534",
    buyerTaxId: null,
    documentNumber: "0005-00011643",
    issueDate: "2023-02-08",
    total: 125.4,
    currency: "PES",
    iban: null
  }
  const afip: Extraction.ReadCode = {
    page: 1,
    box: { x0: 30, y0: 700, x1: 110, y1: 780 },
    format: "QRCode",
    text: "https://www.afip.gob.ar/fe/qr/?p=…",
    kind: "Afip",
    facts,
    problems: []
  }
  const skill: ReadonlyArray<Skill.SkillField> = [
    { ...field("cuit_emisor"), order: 1 },
    { ...field("numero"), order: 2, description: "Número de factura" },
    { ...field("fecha"), order: 3, type: "date" },
    { ...field("total"), order: 4, type: "float" },
    { ...field("vencimiento"), order: 5, type: "date" }
  ]
  const run = (values: Record<string, string>) =>
    Processing.finish({
      skill: { fields: skill, instructions: "" },
      document: {
        ...documentOf(["CUIT 30-70308853-4 Factura 0005-00011643", "Fecha 08/02/2023 Total 125,40"]),
        codes: [afip]
      },
      extracted: { values, usage },
      catalog: new Map(),
      today: "2026-11-27"
    })
  const code = (result: ReturnType<typeof run>, path: string) =>
    result.assessed.find((a) => a.path === path)?.signals?.code

  it("confirms every printed value a code states the same, read its own way", () => {
    const result = run({
      cuit_emisor: "30-70308853-4",
      numero: "0005-00011643",
      fecha: "08/02/2023",
      total: "125,40",
      vencimiento: "18/02/2023"
    })
    for (const path of ["cuit_emisor", "numero", "fecha", "total"]) expect(code(result, path)?.passed, path).toBe(true)
    // A due date is not what the code's date states.
    expect(code(result, "vencimiento")).toBeUndefined()
  })

  it("names the code and what it states where a printed value disagrees, and fails a review on it", () => {
    const result = run({ cuit_emisor: "30-70308853-4", numero: "0005-00011643", fecha: "08/02/2023", total: "152,40" })
    expect(code(result, "total")).toEqual({
      passed: false,
      code: "code_mismatch",
      message: "printed 152,40; the Afip code on page 1 states 125.4"
    })
    const reviewed = Processing.finish({
      skill: { fields: skill, instructions: "", review: { threshold: 0, required: ["total"] } },
      document: { ...documentOf(["Total 152,40"]), codes: [afip] },
      extracted: { values: { total: "152,40" }, usage },
      catalog: new Map(),
      today: "2026-11-27"
    })
    expect(reviewed.result.needsReview).toBe("total: printed 152,40; the Afip code on page 1 states 125.4")
  })

  it("says nothing where no code states the concept", () => {
    const result = Processing.finish({
      skill: { fields: skill, instructions: "" },
      document: documentOf(["Total 125,40"]),
      extracted: { values: { total: "125,40" }, usage },
      catalog: new Map(),
      today: "2026-11-27"
    })
    expect(code(result, "total")).toBeUndefined()
  })
})
