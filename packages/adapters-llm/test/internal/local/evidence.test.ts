import { assert, describe, it } from "@effect/vitest"
import type { Extractor, Skill } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import * as Local from "../../../src/Local.js"
import { type Cell, document, simpleField as field, invoicePage, page, request } from "../../support/documents.js"

const TOTAL = field("total", "float", "Importe total")
const FECHA = field("fecha", "date", "Fecha de emisión")
const CUIT = field("cuit_emisor", "string", "CUIT del emisor")

const row = (text: string): ReadonlyArray<Cell> => [[40, text]]

/** Rows of a label cell and an amount cell at the right margin. */
const lines = (...pairs: ReadonlyArray<readonly [string, string]>): ReadonlyArray<ReadonlyArray<Cell>> =>
  pairs.map(([label, amount]) => [
    [40, label],
    [330, amount]
  ])

/** The value of a field and the certainty of its literal. */
const sure = (fields: ReadonlyArray<Skill.SkillField>, rows: ReadonlyArray<ReadonlyArray<Cell>>, name: string) => {
  const { values, certainty } = Local.extract(fields, document([page(1, rows)]))
  const value = values[name]
  return { value, certainty: typeof value === "string" ? certainty.get(value.trim()) : undefined }
}

const literals = (value: Extractor.ExtractedValue): ReadonlyArray<string> => {
  if (typeof value === "string") return [value.trim()]
  if (Array.isArray(value)) return value.flatMap(literals)
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(literals)
  return []
}

describe("certainty of the local rules", () => {
  it("a labelled value is surer than the same value found by position or pattern alone", () => {
    const labelled = sure([CUIT], [row("Distribuidora del Sur S.R.L."), row("CUIT: 30-71234567-1")], "cuit_emisor")
    const alone = sure([CUIT], [row("Distribuidora del Sur S.R.L."), row("30-71234567-1")], "cuit_emisor")
    assert.strictEqual(labelled.value, "30-71234567-1")
    assert.strictEqual(alone.value, "30-71234567-1")
    assert.isAbove(labelled.certainty ?? 0, alone.certainty ?? 1)

    const dated = sure([FECHA], [row("Fecha de Emisión: 08 / 02 / 23")], "fecha")
    const undated = sure([FECHA], [row("08 / 02 / 23 15:22")], "fecha")
    assert.strictEqual(dated.value, "08 / 02 / 23")
    assert.strictEqual(undated.value, "08 / 02 / 23")
    assert.isAbove(dated.certainty ?? 0, undated.certainty ?? 1)
  })

  it("an amount-due label word for word is surer than one read through an OCR slip or one above its amount", () => {
    const exact = sure([TOTAL], lines(["TOTAL A PAGAR :", "5,30"]), "total")
    const slip = sure([TOTAL], lines(["IMPORTF TOTAL", "5,30"]), "total")
    const under = sure([TOTAL], [[[330, "IMPORTF TOTAL"]], [[330, "5,30"]]], "total")
    assert.deepStrictEqual([exact.value, slip.value, under.value], ["5,30", "5,30", "5,30"])
    assert.isAbove(exact.certainty ?? 0, slip.certainty ?? 1)
    assert.isAbove(slip.certainty ?? 0, under.certainty ?? 1)
  })

  it("a plain Total that is its whole label is surer than one among other words", () => {
    const whole = sure([TOTAL], lines(["Total:", "34,73"]), "total")
    const among = sure([TOTAL], lines(["14 ART. TOTAL", "34,73"]), "total")
    assert.deepStrictEqual([whole.value, among.value], ["34,73", "34,73"])
    assert.isAbove(whole.certainty ?? 0, among.certainty ?? 1)
  })

  it("a competing candidate of the same rank lowers the certainty", () => {
    // SROIE: the receipt's total and the GST summary's total, both under a plain `Total` label.
    const alone = sure([TOTAL], lines(["Total (RM) :", "112.45"]), "total")
    const competed = sure([TOTAL], lines(["Total (RM) :", "112.45"], ["Total :", "106.10"]), "total")
    assert.deepStrictEqual([alone.value, competed.value], ["112.45", "112.45"])
    assert.isAbove(alone.certainty ?? 0, competed.certainty ?? 1)

    const oneDate = sure([FECHA], [row("Fecha: 14/03/2024")], "fecha")
    const twoDates = sure([FECHA], [row("Fecha: 14/03/2024"), row("Fecha: 15/03/2024")], "fecha")
    assert.deepStrictEqual([oneDate.value, twoDates.value], ["14/03/2024", "14/03/2024"])
    assert.isAbove(oneDate.certainty ?? 0, twoDates.certainty ?? 1)
    // The same date printed twice, in two forms, is no competitor.
    const repeated = sure([FECHA], [row("Fecha: 14/03/2024"), row("Fecha: 14/03/24 15:22")], "fecha")
    assert.strictEqual(repeated.certainty, oneDate.certainty)
  })

  it("every literal returned has a certainty in (0, 1), lists and catalog keys included", () => {
    const { values, certainty } = Local.extract(Fixtures.skill().fields, document([invoicePage()]))
    const all = Object.values(values).flatMap(literals)
    assert.isAtLeast(all.length, 10)
    for (const literal of all) {
      const c = certainty.get(literal)
      assert.isDefined(c, literal)
      assert.isAbove(c ?? 0, 0, literal)
      assert.isBelow(c ?? 1, 1, literal)
    }
    assert.deepStrictEqual(Local.extractFields(Fixtures.skill().fields, document([invoicePage()])), values)
  })

  it.effect("the FieldExtractor returns the certainty with the values", () =>
    Effect.gen(function* () {
      const extractor = yield* Local.make
      const response = yield* extractor.extract(
        request(Fixtures.skill(), document([invoicePage()]), { model: "local" })
      )
      assert.isDefined(response.certainty)
      assert.isAbove(response.certainty?.get("F-2026/0042") ?? 0, 0)
    })
  )
})
