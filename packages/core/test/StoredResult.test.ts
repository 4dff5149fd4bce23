import { assert, describe, it } from "@effect/vitest"
import { Extraction, type Field, StoredResult } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Schema } from "effect"

const encodePlain = Schema.encodeSync(Extraction.Extraction)
const encodeDetailed = Schema.encodeSync(Extraction.DetailedExtraction)

// The invoice's line item as JSONB gives it back: keys by length, then bytes.
const jsonbItem = (fields: ReadonlyArray<Field.DetailedField>): ReadonlyArray<Field.DetailedField> =>
  fields.map((field) =>
    field.name !== "lineas" || !Array.isArray(field.value)
      ? field
      : {
          ...field,
          value: field.value.map((item) =>
            Object.fromEntries(
              Object.entries(item as Record<string, unknown>).sort(
                ([a], [b]) => a.length - b.length || (a < b ? -1 : 1)
              )
            )
          )
        }
  ) as ReadonlyArray<Field.DetailedField>

const lineKeys = (body: string): ReadonlyArray<string> => {
  const fields = (JSON.parse(body) as { fields: Array<{ name: string; value: Array<object> }> }).fields
  return Object.keys(fields.find((f) => f.name === "lineas")?.value[0] ?? {})
}

describe("StoredResult", () => {
  const record = Fixtures.completedExtraction()
  const stored = StoredResult.serialize(Fixtures.invoiceResult())

  it("renders each read exactly as the response schemas encode it: same members, same order", () => {
    for (const status of ["completado", "incompleto"] as const) {
      const r = { ...record, status, errorMessage: status === "incompleto" ? "revisar el total" : null }
      const plain = StoredResult.render({ ...r, result: null }, stored.plain, "plain")
      const detailed = StoredResult.render({ ...r, result: null }, stored.detailed, "detailed")
      assert.strictEqual(plain, JSON.stringify(encodePlain(Extraction.toExtraction(r))), status)
      assert.strictEqual(detailed, JSON.stringify(encodeDetailed(Extraction.toDetailed(r))), status)
    }
  })

  it("keeps the stored members out of reads whose status shows no result", () => {
    for (const status of ["en cola", "procesando", "error"] as const) {
      const r = { ...record, status, errorMessage: status === "error" ? "no se pudo leer" : null, result: null }
      const body = StoredResult.render(r, stored.detailed, "detailed")
      assert.strictEqual(body, JSON.stringify(encodeDetailed(Extraction.toDetailed(r))), status)
      assert.notInclude(body, '"fields"')
    }
  })

  it("leaves the words out of the plain read's text, and sorts fields by order", () => {
    assert.notInclude(stored.plain, "words")
    assert.notInclude(stored.plain, "word_ids")
    assert.include(stored.detailed, '"words":{"1":[')
    const shuffled = StoredResult.serialize(
      Fixtures.invoiceResult({ fields: [...Fixtures.invoiceResultFields].reverse() })
    )
    assert.deepStrictEqual(shuffled, stored)
  })

  it("a result read back from JSONB is put back in the skill's order when given the skill", () => {
    const fromJsonb = Fixtures.invoiceResult({ fields: jsonbItem(Fixtures.invoiceResultFields) })
    assert.deepStrictEqual(lineKeys(`{${StoredResult.serialize(fromJsonb).plain}}`), [
      "importe",
      "cantidad",
      "descripcion"
    ])
    const reordered = StoredResult.serialize(fromJsonb, Fixtures.invoiceFields)
    assert.deepStrictEqual(reordered, stored)
    assert.deepStrictEqual(lineKeys(`{${reordered.plain}}`), ["descripcion", "cantidad", "importe"])
    assert.deepStrictEqual(lineKeys(`{${reordered.detailed}}`), ["descripcion", "cantidad", "importe"])
  })

  it("stored members given as UTF-8 bytes give the same JSON, as bytes, byte for byte", () => {
    const utf8 = new TextEncoder()
    // Non-ASCII in the record's members and in the stored ones: multi-byte characters on both sides of the join.
    const r = { ...record, originName: "factura-año-€.pdf", result: null }
    for (const view of ["plain", "detailed"] as const) {
      const text = StoredResult.render(r, stored[view], view)
      const bytes = StoredResult.render(r, utf8.encode(`${stored[view]},"nota":"düsseldorf ✓"`), view)
      assert.instanceOf(bytes, Uint8Array, view)
      assert.deepStrictEqual(bytes, utf8.encode(`${String(text).slice(0, -1)},"nota":"düsseldorf ✓"}`), view)
      assert.deepStrictEqual(JSON.parse(StoredResult.bodyText(bytes)).origin_name, "factura-año-€.pdf")
    }
    // A status that shows no result, or nothing stored: the record alone, as text.
    const queued = { ...r, status: "en cola" as const }
    assert.strictEqual(
      StoredResult.render(queued, utf8.encode(stored.detailed), "detailed"),
      JSON.stringify(encodeDetailed(Extraction.toDetailed(queued)))
    )
    assert.strictEqual(StoredResult.render(r, new Uint8Array(0), "plain"), JSON.stringify(Extraction.toExtraction(r)))
  })

  it("a record with no stored text (written by older code) goes through the schemas", () => {
    assert.strictEqual(
      StoredResult.render(record, null, "plain"),
      JSON.stringify(encodePlain(Extraction.toExtraction(record)))
    )
    assert.strictEqual(
      StoredResult.render(record, null, "detailed"),
      JSON.stringify(encodeDetailed(Extraction.toDetailed(record)))
    )
  })

  it("renders the list as the list schema would", () => {
    const items = [record, Fixtures.extraction({ id: Fixtures.fixtureId(2) })]
    assert.strictEqual(
      StoredResult.renderList({ items, count: 7 }),
      JSON.stringify({ extractions: items.map(Extraction.toSummary), count: 7 })
    )
  })
})
