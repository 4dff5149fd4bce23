/**
 * Text-layer reading speed: our mupdf words (`textLayer`: words with boxes, reading order, verdict) against
 * pdfjs-dist 5's `getTextContent` (text runs only, less work), on the same pages, on one core: each document is
 * opened, every page read, everything freed, in rounds after a warm-up. Prints pages/s, ms/page, the ratio (target
 * ≥ 2× pdfjs-dist) and peak RSS growth while each engine runs (one process: indicative, the engines run one after
 * the other, mupdf's WASM heap never shrinks and pdfjs's garbage may be collected late).
 *
 * Pages: the born-digital PDFs of ../shared/data/invoice2data, invoices-ar (without factura1475, a phone scan) and
 * receipts-es, plus the synthetic invoice and conditions pages. Skips with a message when ../shared/data is absent.
 * Run: `npm run bench -w @legible/ocr-onnx` (all benches), or this one alone:
 * `npx vitest run --config packages/ocr-onnx/bench/textlayer.config.mjs`.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { defaultLimits } from "../src/internal/mupdf/limits.js"
import { openDocument, withPage } from "../src/internal/mupdf/open.js"
import { textLayer } from "../src/internal/mupdf/textLayer.js"
import { conditions, invoice, textPdf } from "../test/support/synthetic.js"

const WARMUP_ROUNDS = 3
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20)
const TARGET_RATIO = 2

const dataDir = resolve(process.env.LEGIBLE_DATA ?? fileURLToPath(new URL("../../../../shared/data/", import.meta.url)))
const log = (line: string) => process.stdout.write(`${line}\n`)

const documents = (): Array<{ name: string; bytes: Uint8Array }> => {
  const pdfs = (folder: string, skip: ReadonlyArray<string> = []) =>
    readdirSync(join(dataDir, folder))
      .filter((f) => f.endsWith(".pdf") && !skip.includes(f))
      .sort()
      .map((f) => ({ name: `${folder}/${f}`, bytes: new Uint8Array(readFileSync(join(dataDir, folder, f))) }))
  return [
    ...pdfs("invoice2data"),
    ...pdfs("invoices-ar", ["factura1475.pdf"]),
    ...pdfs("receipts-es"),
    { name: "synthetic invoice + conditions", bytes: textPdf([invoice, conditions]).bytes }
  ]
}

// mupdf: the reader's own work per page (open once per document, then every page's text layer).
const readWithMupdf = (bytes: Uint8Array) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const doc = yield* openDocument(bytes, defaultLimits)
        let words = 0
        for (let i = 0; i < doc.numPages; i++) {
          const layer = yield* withPage(doc, i, (page) => textLayer(page))
          for (const line of layer.lines) words += line.words.length
        }
        return { pages: doc.numPages, words }
      })
    )
  )

// pdfjs-dist, Node build, in this thread (its "fake worker"), with its own font and CMap data from the package.
const pdfjsRoot = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"))
const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs")
const readWithPdfjs = async (bytes: Uint8Array) => {
  const task = pdfjs.getDocument({
    data: bytes.slice(), // pdfjs detaches the buffer it is given
    standardFontDataUrl: `${pdfjsRoot}/standard_fonts/`,
    cMapUrl: `${pdfjsRoot}/cmaps/`,
    cMapPacked: true,
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0
  })
  const doc = await task.promise
  let items = 0
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i)
    const content = await page.getTextContent()
    items += content.items.length
    page.cleanup()
  }
  const pages = doc.numPages
  await task.destroy()
  return { pages, words: items }
}

type Reader = (bytes: Uint8Array) => Promise<{ pages: number; words: number }>

const round = async (docs: ReadonlyArray<{ bytes: Uint8Array }>, read: Reader) => {
  let pages = 0
  let words = 0
  let peak = 0
  const started = performance.now()
  for (const doc of docs) {
    const result = await read(doc.bytes)
    pages += result.pages
    words += result.words
    peak = Math.max(peak, process.memoryUsage().rss)
  }
  return { ms: performance.now() - started, pages, words, peak }
}

// Peak RSS while one engine reads every document `rounds` times, above the RSS before it started.
const memory = async (docs: ReadonlyArray<{ bytes: Uint8Array }>, read: Reader, rounds: number) => {
  const baseline = process.memoryUsage().rss
  let peak = baseline
  for (let r = 0; r < rounds; r++) peak = Math.max(peak, (await round(docs, read)).peak)
  return { peak, growth: peak - baseline }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`

it.skipIf(!existsSync(dataDir))("text layer: mupdf words vs pdfjs-dist getTextContent", async () => {
  const docs = documents()
  const pages = (await round(docs, readWithMupdf)).pages
  log(`\ntext-layer benchmark: ${docs.length} documents, ${pages} pages; ${ROUNDS} timed rounds, engines alternating`)
  for (const doc of docs) log(`  ${doc.name}`)
  const engines = [
    { name: "mupdf textLayer (words, order)", read: readWithMupdf },
    { name: "pdfjs-dist getTextContent", read: readWithPdfjs }
  ] as const
  // Memory first, one engine after the other (mupdf's WASM heap only grows; pdfjs's garbage may be collected late).
  const memories = []
  for (const engine of engines) memories.push(await memory(docs, engine.read, WARMUP_ROUNDS))
  // Then time, alternating the engines round by round so that both see the same load on a shared machine.
  const totals = engines.map(() => ({ ms: 0, pages: 0, words: 0 }))
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0]
    for (const e of order) {
      const result = await round(docs, engines[e]!.read)
      totals[e]!.ms += result.ms
      totals[e]!.pages += result.pages
      totals[e]!.words += result.words
    }
  }
  const speeds = totals.map((t) => (1000 * t.pages) / t.ms)
  for (const [e, engine] of engines.entries()) {
    const t = totals[e]!
    log(
      `${engine.name.padEnd(32)} ${speeds[e]!.toFixed(1).padStart(7)} pages/s ${(t.ms / t.pages).toFixed(2).padStart(6)} ms/page` +
        `  ${(t.words / t.pages).toFixed(0).padStart(4)} words or runs/page` +
        `  peak RSS ${mb(memories[e]!.peak)} (+${mb(memories[e]!.growth)})`
    )
  }
  const ratio = speeds[0]! / speeds[1]!
  log(
    `ratio mupdf / pdfjs-dist: ${ratio.toFixed(2)}× (target ≥ ${TARGET_RATIO}×: ${ratio >= TARGET_RATIO ? "met" : "MISSED"})\n`
  )
})

if (!existsSync(dataDir)) log(`text-layer benchmark skipped: ${dataDir} is absent`)
