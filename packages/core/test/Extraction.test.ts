import { assert, describe, it } from "@effect/vitest"
import { Extraction } from "@legible/core"
import { Fixtures, TestTime } from "@legible/testkit"
import { Result, Schema } from "effect"
import { seeded } from "./support.js"

const switchable: ReadonlyArray<Extraction.Status> = ["completado", "incompleto"]

/** Every value a client might send as `status`: the five statuses, near misses, and values of other types. */
const requested: ReadonlyArray<unknown> = [
  ...Extraction.statuses,
  "COMPLETADO",
  "Incompleto",
  " completado",
  "completado ",
  "complete",
  "",
  null,
  undefined,
  0,
  1,
  true,
  false,
  {},
  { status: "completado" },
  ["completado"],
  Number.NaN
]

describe("Extraction.switchStatus (spec 3.1)", () => {
  for (const current of Extraction.statuses) {
    for (const status of requested) {
      for (const message of [undefined, "falta el CIF del proveedor"]) {
        const allowed =
          switchable.includes(current) &&
          typeof status === "string" &&
          (switchable as ReadonlyArray<string>).includes(status)
        it(`${current} → ${JSON.stringify(status) ?? "undefined"} (message ${message === undefined ? "absent" : "sent"}): ${allowed ? "switched" : "400"}`, () => {
          const outcome = Extraction.switchStatus(current, { status, message }, TestTime.at(1_000), {
            clientId: "client-eva",
            id: "user-eva"
          })
          if (!allowed) {
            assert.isTrue(Result.isFailure(outcome))
            if (Result.isFailure(outcome)) {
              assert.strictEqual(outcome.failure._tag, "InvalidRequest")
              assert.include(outcome.failure.message, "status")
            }
            return
          }
          assert.isTrue(Result.isSuccess(outcome))
          if (Result.isSuccess(outcome)) {
            assert.deepStrictEqual(outcome.success, {
              status: status as Extraction.StatusChange["status"],
              // Stored only when switching to incompleto; cleared for completado even when a message is sent.
              errorMessage: status === "incompleto" ? (message ?? null) : null,
              lastModification: TestTime.at(1_000),
              lastUserId: "user-eva",
              lastUserClientId: "client-eva"
            })
          }
        })
      }
    }
  }

  it.prop(
    "any requested string other than completado and incompleto is refused, whatever the current status",
    [Schema.String, Extraction.Status],
    ([status, current]) => {
      if (status === "completado" || status === "incompleto") return
      assert.isTrue(
        Result.isFailure(Extraction.switchStatus(current, { status }, TestTime.now, { clientId: "c", id: "u" }))
      )
    },
    seeded(201)
  )
})

describe("Extraction projections", () => {
  it("the single read omits fields and usage while queued or processing, and on error", () => {
    for (const status of ["en cola", "procesando", "error"] as const) {
      const read = Extraction.toExtraction(Fixtures.completedExtraction({ status, errorMessage: "x" }))
      assert.notProperty(read, "fields")
      assert.notProperty(read, "usage")
      const detailed = Extraction.toDetailed(Fixtures.completedExtraction({ status }))
      for (const member of ["fields", "usage", "words", "full_text", "num_pages"]) assert.notProperty(detailed, member)
    }
  })

  it("error_message appears only for incompleto and error extractions that carry one", () => {
    assert.strictEqual(
      Extraction.toExtraction(Fixtures.completedExtraction({ status: "incompleto", errorMessage: "m" })).error_message,
      "m"
    )
    assert.strictEqual(
      Extraction.toExtraction(Fixtures.extraction({ status: "error", errorMessage: "e" })).error_message,
      "e"
    )
    assert.notProperty(
      Extraction.toExtraction(Fixtures.completedExtraction({ errorMessage: "stale" })),
      "error_message"
    )
    assert.notProperty(Extraction.toExtraction(Fixtures.completedExtraction({ status: "incompleto" })), "error_message")
  })

  it("a completed read has plain values sorted by order, whatever order was stored; the detailed read keeps word ids", () => {
    const shuffled = [...Fixtures.invoiceResultFields].reverse()
    const record = Fixtures.completedExtraction({ result: Fixtures.invoiceResult({ fields: shuffled }) })
    const read = Extraction.toExtraction(record)
    assert.deepStrictEqual(
      read.fields?.map((f) => f.name),
      ["numero", "fecha", "emisor", "total", "lineas", "proveedor"]
    )
    assert.deepStrictEqual(read.fields?.[0]?.value, { literal: "F-2026/0042", parsed: "F-2026/0042" })
    assert.deepStrictEqual(read.fields?.[4]?.value, [
      {
        descripcion: { literal: "Papel A4", parsed: "Papel A4" },
        cantidad: { literal: "10", parsed: 10 },
        importe: { literal: "45,00", parsed: 45 }
      }
    ])
    assert.deepStrictEqual(read.fields?.[5]?.value, Fixtures.invoiceResultFields[5]?.value)
    assert.notInclude(JSON.stringify(read), "word_ids")
    assert.deepStrictEqual(read.usage, Fixtures.invoiceResult().usage)
    assert.deepStrictEqual(Schema.decodeUnknownSync(Extraction.Extraction)(read), read)

    const detailed = Extraction.toDetailed(record)
    assert.deepStrictEqual(detailed.fields, Fixtures.invoiceResultFields)
    assert.deepStrictEqual(detailed.words, Fixtures.invoiceResult().words)
    assert.strictEqual(detailed.full_text, Fixtures.invoiceResult().fullText)
    assert.strictEqual(detailed.num_pages, 1)
    assert.deepStrictEqual(Schema.decodeUnknownSync(Extraction.DetailedExtraction)(detailed), detailed)
  })

  it("the summary carries the list fields of spec 2.2 and nothing else", () => {
    const summary = Extraction.toSummary(Fixtures.completedExtraction())
    assert.deepStrictEqual(summary, {
      id: Fixtures.ids.extraction,
      origin_name: "factura-0042.pdf",
      extraction_date: TestTime.now,
      last_modification: TestTime.now,
      last_user_id: "user-ana",
      last_user_name: "Ana García",
      last_user_email: "ana.garcia@acme.example",
      status: "completado",
      skill_name: "Factura española",
      habilidad_id: Fixtures.ids.skill
    })
  })
})
