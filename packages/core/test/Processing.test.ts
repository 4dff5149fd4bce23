/**
 * The processing use case end to end on the testkit's in-memory ports: submit → worker → stored result, with a
 * scripted reader, extractor and catalog matcher (deterministic fakes; any method a test does not supply dies).
 */
import { assert, describe, it } from "@effect/vitest"
import {
  Document,
  type Extraction,
  Extractions,
  Extractor,
  type Field,
  Ports,
  Processing,
  type Retry,
  type Skill,
  Worker
} from "@legible/core"
import { Fake, Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer, Logger, References } from "effect"
import { TestClock } from "effect/testing"

/** The invoice as a reader would give it: one page of words laid out on lines (6 pt per character). */
const invoiceDocument = (): Document.ReadDocument => {
  const lines: ReadonlyArray<readonly [number, ReadonlyArray<string>]> = [
    [40, ["FACTURA", "Nº", "F-2026/0042"]],
    [60, ["Fecha:", "12/03/2026"]],
    [80, ["Suministros", "Acme", "S.L.", "CIF:", "B12345678"]],
    [120, ["Descripción", "Cant.", "Importe"]],
    [140, ["Papel", "A4", "10", "45,00"]],
    [160, ["Tóner", "negro", "1", "89,90"]],
    [200, ["Total", "factura", "1.234,56", "€"]]
  ]
  let n = 0
  const read = lines.map(([y, words]) => {
    let x = 40
    return {
      words: words.map((word): Document.ReadWord => {
        const w = { id: `w${++n}`, word, x0: x, y0: y, x1: x + 6 * word.length, y1: y + 10, page: 1, confidence: 0.98 }
        x = w.x1 + 4
        return w
      })
    }
  })
  return {
    mimeType: "application/pdf",
    numPages: 1,
    pages: [{ page: 1, width: 595, height: 842, source: "ocr", lines: read, markdown: "" }],
    fullText: lines.map(([, words]) => words.join(" ")).join("\n"),
    images: []
  }
}

const literals: Extractor.ExtractedFields = {
  numero: "F-2026/0042",
  fecha: "12/03/2026",
  emisor: "Suministros Acme S.L.",
  total: "1.234,56 €",
  lineas: [
    { descripcion: "Papel A4", cantidad: "10", importe: "45,00" },
    { descripcion: "Tóner negro", cantidad: "1", importe: "89,90" }
  ],
  proveedor: { cif: "B12345678" }
}

const usage = { tokens_consumidos: 1530, prompt_tokens: 1200, response_tokens: 330, duration: 2.5, model: "local" }

/** What the fakes saw. */
interface Calls {
  readonly reads: Array<Document.ReadOptions | undefined>
  readonly extracts: Array<Extractor.ExtractRequest>
}

/** An exact matcher over the fixture catalog: found by `cif`, otherwise not_found. */
const matcher = Fake.layer(Ports.CatalogMatcher, {
  match: (_clientId, field, extracted) =>
    Effect.sync((): Field.CatalogValue => {
      const record = Fixtures.catalogRecords.find((r) => r.values.cif === extracted.cif)
      const info = { id: Fixtures.ids.catalog, name: "Proveedores", output_columns: field.catalog?.outputColumns ?? [] }
      if (record === undefined) {
        return {
          type: "catalog",
          matching: { status: "not_found", method: "exacta", score: 0, extracted_values: extracted },
          catalog_values: {},
          catalog_info: info
        }
      }
      return {
        type: "catalog",
        matching: {
          status: "found",
          method: "exacta",
          score: 1,
          threshold_used: null,
          extracted_values: extracted,
          catalog_record_id: record.id,
          key_columns: ["cif"]
        },
        catalog_values: { cif: record.values.cif ?? "", nombre: record.values.nombre ?? "" },
        catalog_info: info
      }
    })
})

interface Script {
  readonly read?: (attempt: number) => Effect.Effect<Document.ReadDocument, Document.DocumentError>
  readonly extract?: (attempt: number) => Effect.Effect<Extractor.ExtractResponse, Extractor.ExtractorError>
}

const fakes = (calls: Calls, script: Script) =>
  Layer.mergeAll(
    Fake.layer(Ports.DocumentReader, {
      read: (_bytes, options) => {
        calls.reads.push(options)
        return script.read?.(calls.reads.length) ?? Effect.succeed(invoiceDocument())
      }
    }),
    Fake.layer(Ports.FieldExtractor, {
      supports: (model) => model === "local",
      extract: (request) => {
        calls.extracts.push(request)
        return script.extract?.(calls.extracts.length) ?? Effect.succeed({ values: literals, usage })
      }
    }),
    matcher
  )

const policy: Retry.RetryPolicy = { maxAttempts: 3, baseMs: 1_000, capMs: 3_000 }
const workerOptions = { workerId: "w1", concurrency: 1, leaseMs: 30_000, pollMs: 100, retry: policy, random: () => 0.5 }

/** Seeds the fixture world, submits the invoice, runs a worker with `Processing.process` for `ms` of test time. */
const submitAndProcess = (
  script: Script,
  input: Partial<Extractions.SubmitInput> = {},
  beforeProcessing: Effect.Effect<void, unknown, Ports.SkillStore> = Effect.void,
  ms = 10_000,
  beforeSubmit: Effect.Effect<void, unknown, Ports.SkillStore> = Effect.void,
  afterProcessing: (id: string) => Effect.Effect<unknown, unknown, Ports.ExtractionStore> = () => Effect.void
) => {
  const calls: Calls = { reads: [], extracts: [] }
  return Effect.gen(function* () {
    yield* TestTime.setFixedNow
    yield* Fixtures.seed
    yield* beforeSubmit
    const { extraction_id } = yield* Extractions.submit(Fixtures.caller(), Fixtures.submitInput(input))
    yield* beforeProcessing
    yield* Worker.start({ ...workerOptions, handler: Processing.process })
    for (let t = 0; t < ms; t += 100) yield* TestClock.adjust(100)
    const detailed = yield* Extractions.readDetailed(Fixtures.caller(), extraction_id)
    const plain = yield* Extractions.read(Fixtures.caller(), extraction_id)
    const state = yield* Memory.MemoryState
    const job = [...state.jobs.values()].find((j) => j.extractionId === extraction_id)
    const after = yield* afterProcessing(extraction_id)
    return { detailed, plain, job, calls, after }
  }).pipe(Effect.provide(Layer.mergeAll(Memory.layer, TestIds.layer(), fakes(calls, script))))
}

const fieldValue = <V, C>(fields: ReadonlyArray<Field.FieldOf<V, C>> | undefined, name: string) =>
  fields?.find((f) => f.name === name)?.value

/** A detailed simple value without its assessment (confidence and reasons), for comparing its spec members. */
const spec = (value: unknown) => {
  const { confidence: _c, reasons: _r, ...rest } = value as Field.DetailedSimpleValue
  return rest
}

describe("Processing", () => {
  it.effect("submit → worker → completado with sorted, parsed, grounded fields, usage and words", () =>
    Effect.gen(function* () {
      // The read takes 1.5 s of test time: `duration` is the whole processing, not the extractor's 2.5 s report.
      const slowRead = { read: () => Effect.as(Effect.sleep("1500 millis"), invoiceDocument()) }
      const { detailed, plain, job, calls } = yield* submitAndProcess(slowRead)
      assert.strictEqual(detailed.status, "completado")
      assert.strictEqual(job?.attempts, 1)
      assert.deepStrictEqual(
        detailed.fields?.map((f) => f.name),
        ["numero", "fecha", "emisor", "total", "lineas", "proveedor"]
      )
      assert.deepStrictEqual(spec(fieldValue(detailed.fields, "fecha")), {
        literal: "12/03/2026",
        parsed: "2026-03-12",
        word_ids: ["w5"],
        id: "fecha",
        type: "date"
      })
      assert.deepStrictEqual(spec(fieldValue(detailed.fields, "total")), {
        literal: "1.234,56 €",
        parsed: 1234.56,
        word_ids: ["w24", "w25"],
        id: "total",
        type: "float"
      })
      const lineas = fieldValue(detailed.fields, "lineas") as ReadonlyArray<Record<string, Field.DetailedSimpleValue>>
      assert.deepStrictEqual(
        lineas.map((l) => [l.cantidad?.parsed, l.cantidad?.word_ids, l.importe?.parsed]),
        [
          [10, ["w16"], 45],
          [1, ["w20"], 89.9]
        ]
      )
      const proveedor = fieldValue(detailed.fields, "proveedor") as Field.CatalogValue
      assert.strictEqual(proveedor.matching.status, "found")
      assert.strictEqual(proveedor.matching.catalog_record_id, Fixtures.ids.recordAcme)
      assert.deepStrictEqual(proveedor.catalog_values, { cif: "B12345678", nombre: "Suministros Acme S.L." })
      assert.deepStrictEqual(detailed.usage, { ...usage, duration: 1.5 })
      assert.strictEqual(detailed.num_pages, 1)
      assert.strictEqual(detailed.full_text, invoiceDocument().fullText)
      assert.deepStrictEqual(Object.keys(detailed.words ?? {}), ["1"])
      assert.deepStrictEqual(detailed.words?.["1"]?.[0], {
        id: "w1",
        word: "FACTURA",
        x0: 40,
        y0: 40,
        x1: 82,
        y1: 50,
        page: 1
      })
      // The plain read carries the same values without word_ids, id and type.
      assert.deepStrictEqual(fieldValue(plain.fields, "fecha"), { literal: "12/03/2026", parsed: "2026-03-12" })
      // ocr_pdf asks the reader for page images; the extractor gets the skill, mode, model and original bytes.
      assert.deepStrictEqual(calls.reads, [{ images: Processing.defaultOptions.images }])
      assert.strictEqual(calls.extracts[0]?.mode, "ocr_pdf")
      assert.strictEqual(calls.extracts[0]?.model, "local")
      assert.deepStrictEqual(calls.extracts[0]?.original, Fixtures.DOCUMENT)
    })
  )

  it.effect("the reader's degraded pages reach the detailed read and are logged at info with the extraction", () =>
    Effect.gen(function* () {
      const degradedPages = [{ page: 1, reason: "an image over the limit of 100 MP left out of the OCR render" }]
      const lines: Array<{ level: string; message: unknown; annotations: Record<string, unknown> }> = []
      const logs = Logger.layer([
        Logger.make(({ logLevel, message, fiber }) => {
          lines.push({
            level: logLevel,
            message: Array.isArray(message) ? message[0] : message,
            annotations: { ...fiber.getRef(References.CurrentLogAnnotations) }
          })
        })
      ])
      const { detailed, plain } = yield* submitAndProcess({
        read: () => Effect.succeed({ ...invoiceDocument(), degradedPages })
      }).pipe(Effect.provide(logs))
      assert.strictEqual(detailed.status, "completado")
      assert.deepStrictEqual(detailed.degraded_pages, degradedPages)
      assert.notProperty(plain, "degraded_pages")
      const logged = lines.filter((line) => line.message === "page degraded")
      assert.deepStrictEqual(
        logged.map((line) => [
          line.level,
          line.annotations.extractionId,
          line.annotations.page,
          line.annotations.reason
        ]),
        [["Info", detailed.id, 1, degradedPages[0]!.reason]]
      )
      // A read with none stores none.
      const whole = yield* submitAndProcess({})
      assert.notProperty(whole.detailed, "degraded_pages")
    })
  )

  it.effect(
    "the reader's codes reach the stored result and the detailed read (snake_case facts), not the plain read",
    () =>
      Effect.gen(function* () {
        const facts = Fixtures.afipFacts
        const codes = [
          Fixtures.afipCode({
            box: { x0: 30, y0: 700, x1: 110, y1: 780 },
            text: "https://www.afip.gob.ar/fe/qr/?p=e30=",
            problems: ["truncated: the JSON ends after ctz"]
          }),
          {
            page: null,
            box: null,
            format: "embedded:factur-x.xml",
            text: "<rsm:CrossIndustryInvoice/>",
            kind: "Invoice",
            facts: { ...facts, currency: "EUR" },
            problems: []
          }
        ]
        const { detailed, plain } = yield* submitAndProcess({
          read: () => Effect.succeed({ ...invoiceDocument(), codes })
        })
        assert.strictEqual(detailed.status, "completado")
        assert.deepStrictEqual(detailed.codes?.[0], {
          ...codes[0]!,
          facts: {
            issuer_tax_id: "30-71556647-4",
            buyer_tax_id: null,
            document_number: "0003-00001475",
            issue_date: "2023-02-11",
            total: 44000,
            currency: "ARS",
            iban: null
          }
        })
        assert.deepStrictEqual(
          detailed.codes?.map((code) => [code.page, code.box, code.format, code.facts.currency]),
          [
            [1, codes[0]!.box, "QRCode", "ARS"],
            [null, null, "embedded:factur-x.xml", "EUR"]
          ]
        )
        assert.notProperty(plain, "codes")
        // A read with none stores none, and the detailed read has no member.
        const none = yield* submitAndProcess({})
        assert.notProperty(none.detailed, "codes")
      })
  )

  it.effect("every detailed value carries its confidence and reasons; the plain read stays the spec's", () =>
    Effect.gen(function* () {
      const { detailed, plain } = yield* submitAndProcess({})
      const fecha = fieldValue(detailed.fields, "fecha") as Field.DetailedSimpleValue
      assert.isNumber(fecha.confidence)
      assert.isAtLeast(fecha.confidence ?? -1, 0)
      assert.isAtMost(fecha.confidence ?? 2, 1)
      assert.deepStrictEqual(fecha.reasons, [])
      // The fixture's lines (45,00 and 89,90) fall short of its total (1.234,56 €), but the skill reads no taxes,
      // which the document may add: no verdict, no reason. The date passed its plausibility check: more confident.
      const total = fieldValue(detailed.fields, "total") as Field.DetailedSimpleValue
      assert.deepStrictEqual(total.reasons, [])
      assert.isBelow(total.confidence ?? 1, fecha.confidence ?? 0)
      const proveedor = fieldValue(detailed.fields, "proveedor") as Field.DetailedCatalogValue
      assert.isNumber(proveedor.confidence)
      assert.notProperty(proveedor, "runnerUp")
      assert.deepStrictEqual(Object.keys(fieldValue(plain.fields, "fecha") ?? {}), ["literal", "parsed"])
      assert.notProperty(fieldValue(plain.fields, "proveedor"), "confidence")
    })
  )

  it.effect("a skill with review ends incompleto naming each field and why; a reviewer completes it", () =>
    Effect.gen(function* () {
      const taxed: Skill.SkillField = { ...Fixtures.invoiceFields[0]!, name: "base_imponible", order: 7, type: "float" }
      const withReview = Effect.gen(function* () {
        yield* (yield* Ports.SkillStore).put(
          Fixtures.skillInput({
            fields: [...Fixtures.invoiceFields, taxed, { ...taxed, name: "iva", order: 8 }],
            review: { threshold: 0.01, required: ["total", "fecha", "numero"] }
          }),
          TestTime.now
        )
      })
      // The total does not add up: 1.000,00 + 210,00 is not 1.234,56 €.
      const { numero: _numero, ...found } = literals
      const rest = { ...found, base_imponible: "1.000,00", iva: "210,00" }
      const complete = (id: string) =>
        Effect.andThen(
          Extractions.switchStatus(Fixtures.caller(), id, { status: "completado" }),
          Extractions.read(Fixtures.caller(), id)
        )
      const { detailed, job, after } = yield* submitAndProcess(
        { extract: () => Effect.succeed({ values: rest, usage }) },
        {},
        Effect.void,
        10_000,
        withReview,
        complete
      )
      assert.strictEqual(detailed.status, "incompleto")
      assert.strictEqual(job?.state, "done")
      assert.strictEqual(
        detailed.error_message,
        "numero: not found in the document; total: 1.234,56 € ≠ base_imponible 1.000,00 + iva 210,00"
      )
      assert.isDefined(detailed.fields)
      const completed = after as Extraction.Extraction
      assert.strictEqual(completed.status, "completado")
      assert.notProperty(completed, "error_message")
    })
  )

  it.effect("a skill with review whose required values hold ends completado", () =>
    Effect.gen(function* () {
      const withReview = Effect.gen(function* () {
        yield* (yield* Ports.SkillStore).put(
          Fixtures.skillInput({ review: { threshold: 0.01, required: ["fecha", "numero"] } }),
          TestTime.now
        )
      })
      const { detailed } = yield* submitAndProcess({}, {}, Effect.void, 10_000, withReview)
      assert.strictEqual(detailed.status, "completado")
      assert.notProperty(detailed, "error_message")
    })
  )

  it.effect("runs with the skill version the extraction was submitted with", () =>
    Effect.gen(function* () {
      const v2 = Effect.gen(function* () {
        const fields: ReadonlyArray<Skill.SkillField> = Fixtures.invoiceFields.filter((f) => f.name !== "total")
        yield* (yield* Ports.SkillStore).put(Fixtures.skillInput({ fields }), TestTime.now)
      })
      const { detailed, calls } = yield* submitAndProcess({}, {}, v2)
      assert.strictEqual(calls.extracts[0]?.skill.version, 1)
      assert.isTrue(detailed.fields?.some((f) => f.name === "total"))
    })
  )

  it.effect("ocr_only reads without page images", () =>
    Effect.gen(function* () {
      const { detailed, calls } = yield* submitAndProcess({}, { mode: "ocr_only" })
      assert.strictEqual(detailed.status, "completado")
      assert.deepStrictEqual(calls.reads, [{}])
      assert.strictEqual(calls.extracts[0]?.mode, "ocr_only")
    })
  )

  it.effect("a value the extractor did not find and a supplier not in the catalog keep the shape", () =>
    Effect.gen(function* () {
      const { numero: _numero, ...rest } = literals
      const { detailed } = yield* submitAndProcess({
        extract: () => Effect.succeed({ values: { ...rest, proveedor: { cif: "X0000000" } }, usage })
      })
      assert.deepStrictEqual(fieldValue(detailed.fields, "numero"), {
        literal: "",
        parsed: null,
        word_ids: [],
        id: "numero",
        type: "string",
        confidence: null,
        reasons: [{ code: "not_found", message: "not found in the document" }]
      })
      const proveedor = fieldValue(detailed.fields, "proveedor") as Field.CatalogValue
      assert.strictEqual(proveedor.matching.status, "not_found")
      assert.deepStrictEqual(proveedor.catalog_values, {})
    })
  )

  it.effect("a permanent reader error ends in error after one attempt, with a clear message", () =>
    Effect.gen(function* () {
      const { detailed, job, calls } = yield* submitAndProcess({
        read: () =>
          Effect.fail(new Document.DocumentError({ reason: "Encrypted", message: "the PDF needs a password" }))
      })
      assert.strictEqual(detailed.status, "error")
      assert.strictEqual(detailed.error_message, "the document could not be read (Encrypted): the PDF needs a password")
      assert.strictEqual(job?.attempts, 1)
      assert.strictEqual(job?.state, "failed")
      assert.strictEqual(calls.extracts.length, 0)
    })
  )

  it.effect("a transient reader error is retried and the next attempt completes", () =>
    Effect.gen(function* () {
      const { detailed, job } = yield* submitAndProcess({
        read: (attempt) =>
          attempt === 1
            ? Effect.fail(new Document.DocumentError({ reason: "TimeLimit", message: "page 1 took too long" }))
            : Effect.succeed(invoiceDocument())
      })
      assert.strictEqual(detailed.status, "completado")
      assert.strictEqual(job?.attempts, 2)
    })
  )

  it.effect("extractor errors: permanent ones end in error, transient ones are retried up to the limit", () =>
    Effect.gen(function* () {
      const rejected = yield* submitAndProcess({
        extract: () =>
          Effect.fail(
            new Extractor.ExtractorError({ reason: "Rejected", message: "400 invalid image", permanent: true })
          )
      })
      assert.strictEqual(rejected.detailed.status, "error")
      assert.strictEqual(rejected.detailed.error_message, "field extraction failed (Rejected): 400 invalid image")
      assert.strictEqual(rejected.job?.attempts, 1)

      const overloaded = yield* submitAndProcess({
        extract: () =>
          Effect.fail(
            new Extractor.ExtractorError({ reason: "Unavailable", message: "529 overloaded", permanent: false })
          )
      })
      assert.strictEqual(overloaded.detailed.status, "error")
      assert.strictEqual(
        overloaded.detailed.error_message,
        "field extraction failed (Unavailable): 529 overloaded (gave up after 3 attempts)"
      )
      assert.strictEqual(overloaded.job?.attempts, 3)
    })
  )

  it.effect("a model the extractor does not serve fails permanently without reading the document", () =>
    Effect.gen(function* () {
      const { detailed, calls } = yield* submitAndProcess({}, { model: "claude-sonnet-4-5" })
      assert.strictEqual(detailed.status, "error")
      assert.strictEqual(detailed.error_message, "model claude-sonnet-4-5 is not available")
      assert.strictEqual(calls.reads.length, 0)
    })
  )
})

describe("Processing.wordsByPage", () => {
  it("keys every page by its number and drops the reader's confidence", () => {
    const document = invoiceDocument()
    const second = { ...document.pages[0]!, page: 2, lines: [] }
    const words = Processing.wordsByPage({ ...document, numPages: 2, pages: [...document.pages, second] })
    assert.deepStrictEqual(Object.keys(words), ["1", "2"])
    assert.strictEqual(words["1"]?.length, 25)
    assert.deepStrictEqual(words["2"], [])
    assert.isFalse(words["1"]?.some((w) => "confidence" in w))
  })
})
