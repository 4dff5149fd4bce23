/**
 * Spanish OCR benchmark, in one run on the same pages: our reader with the Latin recognizer (the default), with
 * PP-OCRv4's Chinese recognizer (the one it replaced), and tesseract.js 7 with `spa+eng` data, offline.
 *
 * Sets: Spanish invoices, receipts and contracts that this benchmark renders itself with exact ground truth
 * (`spanish.pages.ts`: clean 200 DPI, scanned 200 DPI with 0.6° skew, noisy 150 DPI with 1.5° skew), the
 * text-layer pages of `../shared/data/invoices-ar` rendered to images (truth: the text layer) and the scanned
 * `factura1475` (truth: the text layer that came with the scan, itself machine OCR, so only indicative, plus its
 * annotated fields found in the text), scored again against that layer with its errors mended (`factura1475Errata`).
 * FUNSD and SROIE (English) for ours before/after.
 *
 * Printed per set and engine: character error rate (both texts in one reading order, `metrics.ts`; skewed pages
 * turned back by their known angle first), recall of the Spanish special characters (every non-ASCII character of
 * the truth: ñ, accents, ¿ ¡, €, º ª…, counted where a word read over the same place has that character,
 * `placedHits` in `metrics.ts`: a mark read on the wrong word does not stand in for one missed elsewhere, as it did
 * in the per-page multiset count used before 2026-11-22), word accuracy (truth words found among the words
 * read, per page, as multisets), and pages per CPU-second. Run: `npm run bench:spanish -w @legible/ocr-onnx`.
 * `SPANISH_BENCH_PAGES` (pages per kind and condition, default 2), `SPANISH_BENCH_ENGLISH` (FUNSD and SROIE pages,
 * default 10; 0 leaves them out). `SPANISH_BENCH_ENGINES` (comma-separated subset of latin,chinese,tesseract;
 * default all three; a missing engine's columns read n/a) and `SPANISH_BENCH_KEEP` (a directory: images, engine
 * outputs and each page's scored texts, with the special characters not read, are written there and kept, to
 * compare what was read with the truth) are for quick iterations; `SPANISH_BENCH_HEAD` (a head file) reads
 * the latin columns with that head in place of `models/latin_head.bin`, to compare candidates of `merge:rec` (`tools/ocr-training`);
 * `SPANISH_BENCH_PRECISION` (`float32` or `int8`) reads both of our columns at that recognizer precision;
 * `SPANISH_BENCH_LEXICON` (codes among es, en, pt, fr, it, de, or `none`) sets the word lists that check our
 * columns' diacritics;
 * `SPANISH_BENCH_DET_SCALE` the latin column's detection scale (`OnnxReader` `models.detectionScale`). The chinese
 * column always detects at 0.5, the default: the recognizer the Latin one replaced, in the same pipeline.
 */
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { buildDist } from "../test/pool/build.js"
import { dataRoot, funsd, type Sample, sroie } from "./datasets.js"
import type { EngineInput, EngineOutput, EnginePage } from "./engines/protocol.js"
import {
  type Boxed,
  canonicalText,
  charErrors,
  isSpecial,
  multisetHits,
  normalize,
  placedHits,
  special,
  total
} from "./metrics.js"
import { imageSize, scorePages } from "./scoring.js"
import {
  type Condition,
  conditions,
  factura1475Errata,
  pdfPage,
  renderPage,
  type SpanishPage,
  spanishPages,
  truthWords,
  unrotate,
  withErrata
} from "./spanish.pages.js"

const PER_KIND = Number(process.env.SPANISH_BENCH_PAGES ?? 2)
const ENGLISH = Number(process.env.SPANISH_BENCH_ENGLISH ?? 10)
const ENGINES = (process.env.SPANISH_BENCH_ENGINES ?? "latin,chinese,tesseract").split(",")
const KEEP = process.env.SPANISH_BENCH_KEEP
const log = (line: string) => process.stdout.write(`${line}\n`)
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
type EngineName = "latin" | "chinese" | "tesseract"

const runEngine = (engine: EngineName, images: ReadonlyArray<string>, dir: string, set = "spanish"): EngineOutput => {
  const input: EngineInput = { images, workers: Os.availableParallelism() }
  const inputPath = Path.join(dir, `${set}-${engine}-input.json`)
  const outputPath = Path.join(dir, `${set}-${engine}-output.json`)
  Fs.writeFileSync(inputPath, JSON.stringify(input))
  execFileSync(
    Path.join(repoRoot, "node_modules/.bin/node"),
    [fileURLToPath(new URL("./spanish.engine.ts", import.meta.url)), engine, inputPath, outputPath],
    { cwd: dir, stdio: ["ignore", "ignore", "inherit"], timeout: 1_800_000 }
  )
  return JSON.parse(Fs.readFileSync(outputPath, "utf8"))
}

/** A page of a set: its image, truth (boxes in `truthUnit` pixels or points) and how to bring words to it. */
interface Item {
  readonly image: string
  /** Where `SPANISH_BENCH_KEEP` writes this item's scored texts (default: next to its image). */
  readonly keepAs?: string
  readonly truth: ReadonlyArray<Boxed>
  /** Engine words (already in image pixels) in the truth's frame. */
  readonly frame: (words: ReadonlyArray<Boxed>) => ReadonlyArray<Boxed>
}

/** Words of an engine page in image pixels. */
const pixelWords = (page: EnginePage | undefined, width: number): Array<Boxed> => {
  const factor = page?.unit === "point" && page.width > 0 ? width / page.width : 1
  return (page?.words ?? []).map((w) => ({
    text: w.text,
    x0: w.x0 * factor,
    y0: w.y0 * factor,
    x1: w.x1 * factor,
    y1: w.y1 * factor
  }))
}

interface SetScore {
  readonly cer: number
  readonly special: number
  readonly specialCount: number
  readonly words: number
  readonly failures: number
}

/**
 * With `SPANISH_BENCH_KEEP`, each page's texts as scored (one reading order, `canonicalText`), next to its image:
 * `<image>.truth.txt` and `<image>.<engine>.txt`, and the special characters of the truth that were not read.
 */
const keepTexts = (
  engine: string,
  image: string,
  truthText: string,
  readText: string,
  missed: ReadonlyArray<string>
): void => {
  if (KEEP === undefined || engine === "") return
  Fs.writeFileSync(`${image}.truth.txt`, `${truthText}\n`)
  Fs.writeFileSync(`${image}.${engine}.txt`, `${readText}\n\nspecial characters not read: ${missed.join(" ")}\n`)
}

const scoreSet = (output: EngineOutput, items: ReadonlyArray<Item>, engine = ""): SetScore => {
  const scored = items.map((item) => {
    const page = output.pages.find((p) => p.image === item.image)
    const words = item.frame(pixelWords(page, imageSize(item.image).width))
    const truthText = canonicalText(item.truth)
    const readText = canonicalText(words)
    const placed = placedHits(item.truth, words, isSpecial)
    keepTexts(engine, item.keepAs ?? item.image, truthText, readText, placed.missed)
    const truthWords = normalize(truthText).split(" ")
    return {
      failed: page === undefined || page.error !== undefined,
      ...charErrors(readText, truthText),
      specialTotal: special(normalize(truthText)).length,
      specialHits: placed.hits,
      wordTotal: truthWords.length,
      wordHits: multisetHits(truthWords, normalize(readText).split(" "))
    }
  })
  const specialTotal = total(scored, (s) => s.specialTotal)
  return {
    cer:
      total(scored, (s) => s.errors) /
      Math.max(
        1,
        total(scored, (s) => s.length)
      ),
    special: total(scored, (s) => s.specialHits) / Math.max(1, specialTotal),
    specialCount: specialTotal,
    words:
      total(scored, (s) => s.wordHits) /
      Math.max(
        1,
        total(scored, (s) => s.wordTotal)
      ),
    failures: scored.filter((s) => s.failed).length
  }
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`
const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`

const speed = (output: EngineOutput) => ({
  perCpuSecond: output.pages.length / (output.cpuMs / 1000),
  median: output.pages.map((p) => p.ms).toSorted((a, b) => a - b)[Math.floor(output.pages.length / 2)] ?? 0
})

it.live(
  "Spanish OCR: Latin recognizer vs PP-OCRv4 Chinese vs tesseract.js spa+eng",
  () =>
    Effect.sync(() => {
      buildDist()
      if (KEEP !== undefined) Fs.mkdirSync(KEEP, { recursive: true })
      const dir = KEEP ?? Fs.mkdtempSync(Path.join(Os.tmpdir(), "spanish-bench-"))
      try {
        const sets: Array<{ name: string; items: Array<Item> }> = []
        const pages = spanishPages(PER_KIND)
        conditions.forEach((condition: Condition, c) => {
          const items = pages.map((page: SpanishPage, k): Item => {
            const image = Path.join(dir, `es-${c}-${k}-${page.kind}.${condition.jpeg > 0 ? "jpg" : "png"}`)
            Fs.writeFileSync(image, renderPage(page, condition, 1000 * c + k))
            return { image, truth: truthWords(page), frame: (words) => unrotate(words, page, condition, 1) }
          })
          sets.push({ name: `Spanish pages, ${condition.name}`, items })
        })
        const ar = Path.join(dataRoot, "invoices-ar")
        const hasAr = Fs.existsSync(ar)
        let scan: Item | undefined
        if (hasAr) {
          const items = ["factura128", "factura1360", "factura3435", "factura4"].map((name): Item => {
            const { png, truth } = pdfPage(Path.join(ar, `${name}.pdf`), 200)
            const image = Path.join(dir, `${name}.png`)
            Fs.writeFileSync(image, png)
            return { image, truth, frame: (words) => words }
          })
          sets.push({ name: "invoices-ar text-layer pages (200 DPI)", items })
          const { png, truth } = pdfPage(Path.join(ar, "factura1475.pdf"), 200)
          const image = Path.join(dir, "factura1475.png")
          Fs.writeFileSync(image, png)
          scan = { image, truth, frame: (words) => words }
          sets.push({ name: "factura1475 scan (truth: its own OCR text layer)", items: [scan] })
          sets.push({
            name: `factura1475 scan (truth: that layer with its ${factura1475Errata.length} errors mended)`,
            items: [{ ...scan, truth: withErrata(truth, factura1475Errata), keepAs: `${image}.mended` }]
          })
        } else log(`invoices-ar skipped: ${ar} is absent`)

        // An image scored against two truths (factura1475) is read once.
        const images = [...new Set(sets.flatMap((s) => s.items.map((i) => i.image)))]
        log(`Spanish benchmark: ${images.length} pages, ${Os.availableParallelism()} workers per engine`)
        const outputs = new Map<EngineName, EngineOutput>()
        for (const engine of ["latin", "chinese", "tesseract"] as const) {
          if (!ENGINES.includes(engine)) continue
          log(`  ${engine}… (load average ${Os.loadavg()[0]?.toFixed(1)})`)
          outputs.set(engine, runEngine(engine, images, dir))
        }
        const none: EngineOutput = {
          engine: "n/a",
          workers: 0,
          startupMs: 0,
          wallMs: 0,
          cpuMs: 0,
          maxRssMb: 0,
          pages: []
        }
        const latin = outputs.get("latin") ?? none
        const chinese = outputs.get("chinese") ?? none
        const tess = outputs.get("tesseract") ?? none

        log("")
        log(
          row([
            "set",
            "pages",
            "CER latin (ours)",
            "CER tesseract.js",
            "CER chinese (before)",
            "special chars latin / tesseract / chinese",
            "word accuracy latin / tesseract / chinese"
          ])
        )
        log(row(["---", "---:", "---:", "---:", "---:", "---:", "---:"]))
        for (const set of sets) {
          const [l, t, c] = (
            [
              [latin, "latin"],
              [tess, "tesseract"],
              [chinese, "chinese"]
            ] as const
          ).map(([o, name]) => scoreSet(o, set.items, o === none ? "" : name)) as [SetScore, SetScore, SetScore]
          // An engine left out of the run reads n/a, not as an engine that read nothing.
          const [fl, ft, fc] = [latin, tess, chinese].map((o) => (x: number) => (o === none ? "n/a" : pct(x)))
          log(
            row([
              set.name,
              String(set.items.length),
              fl!(l.cer),
              ft!(t.cer),
              fc!(c.cer),
              `${fl!(l.special)} / ${ft!(t.special)} / ${fc!(c.special)} (of ${l.specialCount})`,
              `${fl!(l.words)} / ${ft!(t.words)} / ${fc!(c.words)}`
            ])
          )
        }
        if (scan !== undefined) {
          // The annotated fields as printed on the page.
          const fields = ["30715566474", "11/02/2023", "00001475", "00003", "44000,00", "Funes"]
          for (const [name, output] of outputs) {
            const text = canonicalText(
              pixelWords(
                output.pages.find((p) => p.image === scan.image),
                imageSize(scan.image).width
              )
            )
            const squeezed = text.replace(/[\s.$]/g, "")
            const found = fields.filter((f) => squeezed.includes(f.replace(/[\s.$]/g, "")))
            log(`factura1475 fields found by ${name}: ${found.length}/${fields.length} (${found.join(", ")})`)
          }
        }
        log("")
        log(row(["speed (all pages above)", "pages per CPU-second", "median page ms", "peak RSS MB"]))
        log(row(["---", "---:", "---:", "---:"]))
        for (const [name, output] of outputs) {
          const s = speed(output)
          log(row([name, s.perCpuSecond.toFixed(3), s.median.toFixed(0), output.maxRssMb.toFixed(0)]))
        }

        if (ENGLISH <= 0) log("FUNSD/SROIE skipped: SPANISH_BENCH_ENGLISH is 0")
        else if (Fs.existsSync(Path.join(dataRoot, "funsd")) && Fs.existsSync(Path.join(dataRoot, "sroie"))) {
          log("")
          log(
            row([
              "English (before → after)",
              "pages",
              "CER chinese",
              "CER latin",
              "pages/CPU-s chinese",
              "pages/CPU-s latin"
            ])
          )
          log(row(["---", "---:", "---:", "---:", "---:", "---:"]))
          for (const [name, samples, upper] of [
            ["FUNSD", funsd(ENGLISH), false],
            ["SROIE", sroie(ENGLISH), true]
          ] as const) {
            const list: ReadonlyArray<Sample> = samples
            const sizes = new Map(list.map((s) => [s.image, imageSize(s.image)] as const))
            const before = ENGINES.includes("chinese")
              ? runEngine(
                  "chinese",
                  list.map((s) => s.image),
                  dir,
                  name
                )
              : none
            const after = runEngine(
              "latin",
              list.map((s) => s.image),
              dir,
              name
            )
            const b = scorePages(before, list, sizes, upper)
            const a = scorePages(after, list, sizes, upper)
            log(
              row([
                name,
                String(list.length),
                before === none ? "n/a" : pct(b.cer),
                pct(a.cer),
                before === none ? "n/a" : b.pagesPerCpuSecond.toFixed(3),
                a.pagesPerCpuSecond.toFixed(3)
              ])
            )
          }
        } else log("FUNSD/SROIE skipped: ../shared/data is absent")
      } finally {
        if (KEEP === undefined) Fs.rmSync(dir, { recursive: true, force: true })
      }
    }),
  3_600_000
)
