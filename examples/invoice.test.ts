/**
 * How a team tests its own code that embeds legible, with `@legible/testkit`'s deterministic layers: in-memory
 * stores, fixed ids, a scripted `DocumentReader` (no OCR, no files) and the deterministic `local` extractor. Nothing
 * here touches the network, the disk or a database. The repository's test suite runs this file.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Router } from "@legible/adapters-llm"
import { CatalogMatching, type Document, type Field, Ports } from "@legible/core"
import { Embed } from "@legible/server"
import { Fake, Memory, TestIds } from "@legible/testkit"
import { Effect, Layer } from "effect"

/** One line of words on page 1, laid out left to right from `x` at height `y` (PDF points). */
const line = (y: number, x: number, words: ReadonlyArray<string>, first: number): Document.ReadLine => ({
  words: words.map((word, i) => ({
    id: `p1-w${first + i}`,
    word,
    x0: x + i * 60,
    y0: y,
    x1: x + i * 60 + 55,
    y1: y + 10,
    page: 1,
    confidence: 1
  }))
})

/** What the scripted reader "reads": an invoice number, a date and a total, each after its label. */
const page: Document.ReadPage = {
  page: 1,
  width: 595,
  height: 842,
  source: "text",
  markdown: "",
  lines: [
    line(100, 50, ["Factura", "nº:", "A-17"], 0),
    line(120, 50, ["Fecha:", "01/02/2026"], 3),
    line(140, 50, ["Total:", "99,90"], 5)
  ]
}

const document: Document.ReadDocument = {
  mimeType: "application/pdf",
  numPages: 1,
  pages: [page],
  fullText: "Factura nº: A-17\nFecha: 01/02/2026\nTotal: 99,90",
  images: []
}

/** A reader that returns `document` for any PDF bytes; a method the test did not script would die loudly. */
const reader = Fake.layer(Ports.DocumentReader, {
  identify: () => Effect.succeed("application/pdf"),
  read: () => Effect.succeed(document)
})

const skill = {
  name: "Factura",
  fields: [
    { name: "numero", order: 1, type: "string" as const, aliases: ["Factura nº"] },
    { name: "fecha", order: 2, type: "date" as const },
    { name: "total", order: 3, type: "float" as const }
  ]
}

const PDF = new TextEncoder().encode("%PDF-1.7 scripted")

const fieldValue = (fields: ReadonlyArray<Field.DetailedField>, name: string) =>
  fields.find((f) => f.name === name)?.value

describe("extractNow with deterministic layers", () => {
  it.effect("extracts, parses and grounds each field in the scripted words", () =>
    Effect.gen(function* () {
      const result = yield* Embed.extractNow(PDF, skill)
      expect(fieldValue(result.fields, "numero")).toMatchObject({ literal: "A-17", word_ids: ["p1-w2"] })
      expect(fieldValue(result.fields, "fecha")).toMatchObject({ parsed: "2026-02-01", word_ids: ["p1-w4"] })
      expect(fieldValue(result.fields, "total")).toMatchObject({ literal: "99,90", parsed: 99.9, word_ids: ["p1-w6"] })
      expect(result.usage.model).toBe("local")
    }).pipe(Effect.provide(Layer.mergeAll(reader, Router.layer({ local: true }))))
  )
})

// The queued flow on in-memory stores with fixed ids: the code under test submits, a worker processes.
const world = Layer.mergeAll(
  Memory.layer,
  CatalogMatching.layer.pipe(Layer.provide(Memory.layer)),
  reader,
  Router.layer({ local: true }),
  TestIds.layer(1)
)

// The worker polls with real time here: no TestClock (`excludeTestServices`).
layer(world, { excludeTestServices: true })("the queued flow on in-memory stores", (it) => {
  it.effect("a submitted document is processed by a worker and reads completado", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const user = { id: "ana", name: "Ana", email: "", role: "user" as const, clientId: "acme" }
        const stored = yield* Embed.defineSkill("acme", "factura", skill)
        expect(stored.id).toBe(TestIds.uuid(1))
        yield* Embed.startWorker({ concurrency: 1 })
        const caller = Embed.caller(user)
        const id = yield* Embed.submit(caller, { fileName: "a-17.pdf", skill: "factura", document: PDF })
        const read = yield* Embed.awaitFinal(caller, id, 10)
        expect(read.status).toBe("completado")
        expect(read.fields?.map((f) => f.name)).toEqual(["numero", "fecha", "total"])
      })
    )
  )
})
