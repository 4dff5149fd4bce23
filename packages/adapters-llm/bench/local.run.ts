/**
 * Accuracy of the `local` extractor on real documents, per field:
 * - SROIE receipts (company, date, address, total), from the ground-truth OCR lines, scored as SROIE does (exact
 *   match after whitespace normalisation);
 * - Argentine invoices (issuer CUIT, invoice number, date, total), from the PDFs' text layer, scored on the value
 *   the literal stands for (digits of the CUIT, the number's last group, the day-first date, the amount), which is
 *   what the typed parsing downstream turns each literal into.
 * Also the time per document next to a baseline measured in the same run (building the rows and cells alone).
 * Run: `npm run bench -w @legible/adapters-llm`. Skips, saying so, when the data folder is absent.
 */
import { readFileSync } from "node:fs"
import { it } from "@effect/vitest"
import type { Document, Skill } from "@legible/core"
import { layout } from "../src/internal/local/layout.js"
import { amountValue } from "../src/internal/local/patterns.js"
import * as Local from "../src/Local.js"
import {
  DATA,
  type InvoiceArTruth,
  invoicesAr,
  type OtherTruth,
  others,
  type Sample,
  type SroieTruth,
  sroie
} from "./datasets.js"
import { openReader } from "./ocr.js"

const log = (line: string) => process.stdout.write(`${line}\n`)
const verbose = process.env.BENCH_VERBOSE === "1"

const field = (name: string, order: number, type: Skill.SkillField["type"], description: string): Skill.SkillField => ({
  name,
  order,
  type,
  isList: false,
  description,
  aliases: []
})

const sroieFields: ReadonlyArray<Skill.SkillField> = [
  field("company", 1, "string", "Company (seller) name"),
  field("date", 2, "date", "Date of the receipt"),
  field("address", 3, "string", "Address of the company"),
  field("total", 4, "float", "Total amount paid")
]

const arFields: ReadonlyArray<Skill.SkillField> = [
  field("cuit_emisor", 1, "string", "CUIT del emisor"),
  field("numero", 2, "string", "Número de factura"),
  field("fecha", 3, "date", "Fecha de emisión"),
  field("total", 4, "float", "Importe total")
]

const otherFields: ReadonlyArray<Skill.SkillField> = [
  field("invoice_number", 1, "string", "Invoice number"),
  field("date", 2, "date", "Invoice date"),
  field("total", 3, "float", "Total amount")
]

const MONTHS: Readonly<Record<string, number>> = {
  ene: 1,
  jan: 1,
  feb: 2,
  mar: 3,
  abr: 4,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  ago: 8,
  aug: 8,
  sep: 9,
  set: 9,
  oct: 10,
  nov: 11,
  dic: 12,
  dec: 12
}

/** A date literal as ISO: ISO itself, day-first numbers, or a day, an English/Spanish month name and a year. */
const isoDate = (literal: string): string | undefined => {
  const iso = /(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})/.exec(literal)
  if (iso !== null) return `${iso[1]}-${(iso[2] ?? "").padStart(2, "0")}-${(iso[3] ?? "").padStart(2, "0")}`
  const plain = literal.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()
  const dayFirst = /(\d{1,2})[\s./-]*(?:de\s+)?([a-z]{3})[a-z]*\.?[\s,./-]*(?:de\s+)?(\d{4})/.exec(plain)
  const monthFirst = /([a-z]{3})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})/.exec(plain)
  const [day, name, year] =
    dayFirst !== null
      ? [dayFirst[1], dayFirst[2], dayFirst[3]]
      : monthFirst !== null
        ? [monthFirst[2], monthFirst[1], monthFirst[3]]
        : []
  const month = name === undefined ? undefined : MONTHS[name]
  if (month !== undefined) return `${year}-${String(month).padStart(2, "0")}-${(day ?? "").padStart(2, "0")}`
  return isoDayFirst(literal)
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim()

const isoDayFirst = (literal: string): string | undefined => {
  const m = /(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})/.exec(literal)
  if (m === null) return undefined
  const year = (m[3] ?? "").length === 2 ? `20${m[3]}` : m[3]
  return `${year}-${(m[2] ?? "").padStart(2, "0")}-${(m[1] ?? "").padStart(2, "0")}`
}

interface Scored {
  readonly field: string
  readonly ok: boolean
  readonly got: unknown
  readonly want: unknown
}

const report = <T>(
  title: string,
  samples: ReadonlyArray<Sample<T>>,
  fields: ReadonlyArray<Skill.SkillField>,
  score: (values: Record<string, unknown>, truth: T) => ReadonlyArray<Scored>
) => {
  const byField = new Map<string, { ok: number; all: number }>()
  for (const sample of samples) {
    const values = Local.extractFields(fields, sample.document)
    for (const s of score(values, sample.truth)) {
      const entry = byField.get(s.field) ?? { ok: 0, all: 0 }
      byField.set(s.field, { ok: entry.ok + (s.ok ? 1 : 0), all: entry.all + 1 })
      if (verbose && !s.ok)
        log(`  miss ${sample.id} ${s.field}: got ${JSON.stringify(s.got)}, want ${JSON.stringify(s.want)}`)
    }
  }
  log(`\n${title} (${samples.length} documents)`)
  log("field          exact-match accuracy")
  for (const [name, { ok, all }] of byField) log(`${name.padEnd(14)} ${(ok / all).toFixed(2)}  (${ok}/${all})`)
}

const timing = (documents: ReadonlyArray<Document.ReadDocument>, fields: ReadonlyArray<Skill.SkillField>) => {
  const rounds = 20
  const measure = (run: (d: Document.ReadDocument) => unknown) => {
    const started = performance.now()
    for (let r = 0; r < rounds; r++) for (const d of documents) run(d)
    return (performance.now() - started) / (rounds * documents.length)
  }
  measure((d) => Local.extractFields(fields, d))
  const baseline = measure((d) => layout(d))
  const local = measure((d) => Local.extractFields(fields, d))
  log(
    `time per document: local ${local.toFixed(3)} ms; baseline (rows and cells only) ${baseline.toFixed(3)} ms; ratio ${(local / baseline).toFixed(1)}×`
  )
}

/** The same samples with their documents read by the OCR reader from the original files. */
const reread = async <T>(
  samples: ReadonlyArray<Sample<T>>,
  read: (bytes: Uint8Array) => Promise<Document.ReadDocument | string>
): Promise<ReadonlyArray<Sample<T>>> => {
  const out: Array<Sample<T>> = []
  for (const sample of samples) {
    const document = await read(new Uint8Array(readFileSync(sample.file)))
    if (typeof document === "string") log(`  ${sample.id}: ${document}`)
    else out.push({ ...sample, document })
  }
  return out
}

const sroieScore = (values: Record<string, unknown>, truth: SroieTruth): ReadonlyArray<Scored> =>
  (["company", "date", "address", "total"] as const).map((name) => {
    const got = values[name]
    return { field: name, got, want: truth[name], ok: typeof got === "string" && squash(got) === squash(truth[name]) }
  })

const arScore = (values: Record<string, unknown>, truth: InvoiceArTruth): ReadonlyArray<Scored> => {
  const text = (name: string) => (typeof values[name] === "string" ? String(values[name]) : "")
  const lastGroup = /(\d+)\D*$/.exec(text("numero"))?.[1]
  return [
    {
      field: "issuer_cuit",
      got: values.cuit_emisor,
      want: truth.issuer_cuit,
      ok: text("cuit_emisor").replace(/\D/g, "") === truth.issuer_cuit.replace(/\D/g, "")
    },
    {
      field: "invoice_number",
      got: values.numero,
      want: truth.invoice_number,
      ok: lastGroup !== undefined && Number(lastGroup) === truth.invoice_number
    },
    { field: "date", got: values.fecha, want: truth.date, ok: isoDayFirst(text("fecha")) === truth.date },
    { field: "total", got: values.total, want: truth.total, ok: amountValue(text("total")) === truth.total }
  ]
}

const otherScore = (values: Record<string, unknown>, truth: OtherTruth): ReadonlyArray<Scored> => {
  const text = (name: string) => (typeof values[name] === "string" ? String(values[name]) : "")
  return [
    ...(truth.number === null
      ? []
      : [
          {
            field: "invoice_number",
            got: values.invoice_number,
            want: truth.number,
            ok: squash(text("invoice_number")).replace(/^#/, "") === truth.number.replace(/^#/, "")
          }
        ]),
    { field: "date", got: values.date, want: truth.date, ok: isoDate(text("date")) === truth.date },
    ...(truth.total === null
      ? []
      : [{ field: "total", got: values.total, want: truth.total, ok: amountValue(text("total")) === truth.total }])
  ]
}

it("local extractor accuracy", { timeout: 3_600_000 }, async () => {
  const receipts = sroie()
  const invoices = invoicesAr()
  const unseen = others()
  if (receipts === undefined) log(`SROIE skipped: ${DATA}/sroie not found`)
  else {
    report("SROIE receipts, ground-truth OCR lines", receipts, sroieFields, sroieScore)
    timing(
      receipts.map((r) => r.document),
      sroieFields
    )
  }
  if (invoices === undefined) log(`invoices-ar skipped: ${DATA}/invoices-ar not found`)
  else report("Argentine invoices, PDF text layer (mupdf)", invoices, arFields, arScore)
  if (unseen === undefined) log(`receipts-es / invoice2data skipped: not found under ${DATA}`)
  else report("Not tuned on: receipts-es and invoice2data, PDF text layer (mupdf)", unseen, otherFields, otherScore)

  const reader = await openReader()
  if (typeof reader === "string") return log(`\nOCR reader (@legible/ocr-onnx) not run: ${reader}`)
  try {
    log("\nReading the originals with @legible/ocr-onnx (one worker)…")
    const started = performance.now()
    if (receipts !== undefined)
      report(
        "SROIE receipts, OCR of the images (ocr-onnx)",
        await reread(receipts, reader.read),
        sroieFields,
        sroieScore
      )
    if (invoices !== undefined)
      report(
        "Argentine invoices, ocr-onnx reader (text layer, OCR where none)",
        await reread(invoices, reader.read),
        arFields,
        arScore
      )
    log(`OCR reading took ${((performance.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    await reader.close()
  }
})
