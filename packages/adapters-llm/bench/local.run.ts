/**
 * Accuracy of the `local` extractor on documents its rules were not written against, per set, per half and per
 * field: precision (right / filled) and recall (right / present, "present" meaning the truth is printed on the
 * document), with counts. Every set is split in two in a fixed order (sorted ids; generated documents by index):
 * tune the rules on the first half only, and judge them on the second.
 *
 * Sets (real ones read by path under `LEGIBLE_DATA`, default `../shared/data`; each skips, saying so, when absent):
 * - SROIE receipts (company, date, address, total) from the ground-truth OCR lines, and from our OCR of the images;
 * - invoices-ar (issuer CUIT, issuer, number, date, total), read by the ocr-onnx reader (text layer; OCR for the
 *   scan `factura1475`);
 * - receipts-es (date, total, store, line items), invoice2data (issuer, number, date, total; every PDF and
 *   `Orlen.txt` as text), receipts-de (date, total; OCR of the scans);
 * - a generated set (`generator/`): seeded invoices and receipts in es, en, de, fr, it, pt and nl rendered to PDF
 *   and read from their text layer; a few per language rasterised and read by OCR, and a few per language as worn
 *   scans (askew up to 1.5°, faded, blurred, grainy JPEGs at 170–260 DPI) read by OCR; for both, the share of words
 *   read with other marks than printed, per language (`marks.ts`).
 * Values are compared as what they stand for (`scoring.ts`: dates as calendar dates, amounts as numbers, numbers and
 * names normalised). Also the time per document next to a baseline measured in the same run (rows and cells alone).
 *
 * Run: `npm run bench -w @legible/adapters-llm` (from the repository root). Options (environment):
 * - `LEGIBLE_DATA=<dir>`: another data root with the same layout;
 * - `BENCH_VERBOSE=1`: print the misses of the first half; `BENCH_VERBOSE=all`: of both halves;
 * - `BENCH_HALF=first`: print the figures of the first half only (while tuning, the held-out figures stay unseen);
 * - `BENCH_OCR=0`: skip OCR reads (SROIE images, receipts-de, the generated OCR subset);
 * - `BENCH_CACHE=0`: read every document again instead of using `node_modules/.cache/legible-bench/`;
 * - `BENCH_GENERATED=<n>`: documents per language in the generated set (default 40), `BENCH_GENERATED_OCR=<n>` of
 *   them per language also read by OCR (default 5), `BENCH_GENERATED_SCAN=<n>` of them per language as worn scans
 *   (default 4); `BENCH_SEED=<n>`: the generator's seed (default 17).
 */
import { it } from "@effect/vitest"
import type { Document, Skill } from "@legible/core"
import { layout } from "../src/internal/local/layout.js"
import * as Local from "../src/Local.js"
import { DATA, type Entry, sroieLines } from "./datasets.js"
import { markTable } from "./marks.js"
import { cachedReader, ocrEnabled, type ReadResult } from "./ocr.js"
import { halves, type Scored, table } from "./report.js"
import { decimalSeparatorOf } from "./scoring.js"
import { type BenchSet, documentOf, generatedSets, itemNamesOf, SETS } from "./sets.js"
import { judge } from "./truth.js"

const log = (line: string) => process.stdout.write(`${line}\n`)

/** Reads, extracts and judges a set's documents; prints its table. Returns the documents read. */
const runSet = async (
  set: BenchSet,
  entries: ReadonlyArray<Entry>,
  read: (bytes: Uint8Array) => Promise<ReadResult>
): Promise<ReadonlyArray<Document.ReadDocument>> => {
  const ordered = set.ordered === true ? entries : [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const skill = set.fields.map(([, field]) => field)
  const scored: Array<Scored> = []
  const documents: Array<Document.ReadDocument> = []
  for (const [entry, place] of halves(ordered)) {
    const half = entry.half ?? place
    const document = await documentOf(entry, read)
    if (typeof document === "string") {
      log(`  ${entry.id}: ${document}`)
      continue
    }
    documents.push(document)
    const values = Local.extractFields(skill, document)
    const context = { text: document.fullText, decimal: decimalSeparatorOf(document.fullText) }
    const reference = entry.referenceText ?? document.fullText
    const fields = set.fields.flatMap(([key, field]) => {
      const truth = entry.truth[key]
      return truth === undefined
        ? []
        : [[key, judge(truth, values[field.name], context, reference, itemNamesOf(field))] as const]
    })
    scored.push({ id: entry.id, half, fields })
  }
  for (const line of table(`${set.title} (${scored.length} documents)`, scored)) log(line)
  return documents
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
    `\ntime per document (${documents.length} SROIE receipts): local ${local.toFixed(3)} ms; baseline (rows and cells only) ${baseline.toFixed(3)} ms; ratio ${(local / baseline).toFixed(1)}×`
  )
}

it("local extractor accuracy", { timeout: 3_600_000 }, async () => {
  const reader = cachedReader()
  const started = performance.now()
  const ocr = ocrEnabled()
  log(`data root: ${DATA}${ocr ? "" : " (BENCH_OCR=0: OCR reads skipped)"}`)
  try {
    for (const set of SETS) {
      const entries = set.entries()
      if (entries === undefined) log(`\n${set.title}: skipped, ${DATA}/${set.folder} not found`)
      else if (set.ocr === true && !ocr) log(`\n${set.title}: skipped (BENCH_OCR=0)`)
      else {
        const documents = await runSet(set, entries, reader.read)
        if (set.entries === sroieLines)
          timing(
            documents,
            set.fields.map(([, f]) => f)
          )
      }
    }
    const generated = generatedSets(ocr)
    for (const [set, entries] of generated) await runSet(set, entries, reader.read)
    // Every OCR set of the generated documents (rasterised, worn scans) against their text layers.
    const [text, ...read] = generated
    if (text !== undefined)
      for (const [set, entries] of read)
        for (const line of await markTable(set.title.replace(/ \(ocr-onnx\)$/, ""), text[1], entries, reader.read))
          log(line)
  } finally {
    await reader.close()
  }
  const { cached, read } = reader.counts()
  log(
    `\n${read} documents read, ${cached} from the cache; ${((performance.now() - started) / 1000).toFixed(1)} s in all`
  )
})
