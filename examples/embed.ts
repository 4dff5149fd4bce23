/**
 * legible embedded in a Node program: no HTTP server, no environment variables, no network.
 *
 * 1. `Embed.extractNow` reads the sample invoice and extracts a skill's fields right away (no queue, no storage).
 * 2. The queued flow in process: a skill stored in an in-memory PGlite, a submission, a worker, the final read.
 *
 * Run it with `npm run example:embed` (it builds the packages, then runs this file on the pinned Node 22, which runs
 * TypeScript). It prints one JSON line per step and exits 0; the test suite runs it the same way.
 */
import { readFileSync } from "node:fs"
import { Embed } from "@legible/server"
import { Effect, Layer } from "effect"

const invoice = new Uint8Array(readFileSync(new URL("./sample-invoice.pdf", import.meta.url)))

/** A skill as written to `POST /api/skills`: `isList`, `description` and `aliases` may be left out. */
const skill = {
  name: "Factura",
  fields: [
    { name: "numero", order: 1, type: "string" as const, aliases: ["Número de factura"] },
    { name: "fecha", order: 2, type: "date" as const },
    { name: "total", order: 3, type: "float" as const }
  ]
}

const direct = Effect.gen(function* () {
  const result = yield* Embed.extractNow(invoice, skill, { model: "local", mode: "ocr_only" })
  const values = Object.fromEntries(
    result.fields.map((field) => [
      field.name,
      field.value !== null && "literal" in field.value ? field.value.literal : field.value
    ])
  )
  console.log(JSON.stringify({ step: "extractNow", pages: result.numPages, values }))
})

const queued = Effect.scoped(
  Effect.gen(function* () {
    const user = { id: "ana", name: "Ana", email: "ana@example.com", role: "user" as const, clientId: "acme" }
    yield* Embed.defineSkill(user.clientId, "factura", skill)
    yield* Embed.startWorker({ concurrency: 1 })
    const caller = Embed.caller(user)
    const id = yield* Embed.submit(caller, { fileName: "sample-invoice.pdf", skill: "factura", document: invoice })
    const read = yield* Embed.awaitFinal(caller, id)
    console.log(JSON.stringify({ step: "queued", id, status: read.status, fields: read.fields?.length ?? 0 }))
  })
)

// PGlite in memory, one OCR thread, the `local` extractor: everything stays in this process.
const services = Embed.layer({ reader: { poolSize: 1 } })

await Effect.runPromise(Effect.andThen(direct, queued).pipe(Effect.provide(Layer.fresh(services))))
