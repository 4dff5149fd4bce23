/**
 * OCR benchmark: our reader against tesseract.js 7 (offline, English `4.0.0_best_int` data), in one run, on the
 * same pages: the first 30 FUNSD forms (word boxes) and the first 30 SROIE receipts (line texts) of
 * ../shared/data, in name order. Each engine reads each dataset in its own Node process with one worker thread per
 * core, so its peak RSS and CPU time are its own (`bench/engines/*.ts`).
 *
 * Printed per dataset and engine: character error rate (the page text in one reading order for everyone, see
 * `metrics.ts`; SROIE compared in upper case, as its labels are), FUNSD word recall/precision (IoU ≥ 0.5 and the
 * same text), words with a mark the truth lacks (`inventedMarks` in `metrics.ts`: of the non-empty words read, the
 * share with a letter carrying a diacritic — its NFD has a combining mark: á, ñ, ü, ç, not ß or ¿ — that no truth
 * word (FUNSD) or line (SROIE) overlapping the word by half of the narrower and of the shorter extent has; target
 * ≤ 0.3 %; the first such words are listed under the table), pages/s per core (pages / wall time / workers), pages per CPU-second (robust to other load on the
 * machine), peak RSS, and the ratios ours/tesseract.js. Targets: our CER ≤ tesseract.js's, our speed ≥ its.
 * Skips with a message when ../shared/data is absent. Run: `npm run bench -w @legible/ocr-onnx` (every bench),
 * or this one: `npx vitest run --config packages/ocr-onnx/vitest.bench.config.ts bench/ocr.run.ts`.
 * `OCR_BENCH_PAGES` changes the pages per dataset (default 30); `OCR_BENCH_RECOGNIZER` (`latin` or `chinese`) picks
 * our recognizer (default: the reader's default), `OCR_BENCH_PRECISION` (`float32`, `int8` or `auto`; default: the
 * reader's, `auto`) its precision; the engine line printed names the precision it ran at. `OCR_BENCH_ENGINES`
 * (comma-separated subset of `ours,tesseract`, default both) leaves an engine out; its column reads n/a.
 * `OCR_BENCH_KEEP` (a directory) keeps each engine's output there (`<dataset>-<engine>.json`, `protocol.ts`).
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
import type { EngineInput, EngineOutput } from "./engines/protocol.js"
import { imageSize, type Scores, scorePages } from "./scoring.js"

const PAGES = Number(process.env.OCR_BENCH_PAGES ?? 30)
const RECOGNIZER =
  process.env.OCR_BENCH_RECOGNIZER === undefined ? undefined : (process.env.OCR_BENCH_RECOGNIZER as "latin" | "chinese")
const PRECISION =
  process.env.OCR_BENCH_PRECISION === undefined
    ? undefined
    : (process.env.OCR_BENCH_PRECISION as "float32" | "int8" | "auto")
const ENGINES = (process.env.OCR_BENCH_ENGINES ?? "ours,tesseract").split(",").map((e) => e.trim())
const KEEP = process.env.OCR_BENCH_KEEP
const log = (line: string) => process.stdout.write(`${line}\n`)
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

/** Runs one engine process on the samples' images and reads its output. */
const runEngine = (script: string, samples: ReadonlyArray<Sample>, workers: number, keepAs: string): EngineOutput => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "ocr-bench-"))
  try {
    const input: EngineInput = {
      images: samples.map((s) => s.image),
      workers,
      recognizer: RECOGNIZER,
      precision: PRECISION
    }
    Fs.writeFileSync(Path.join(dir, "input.json"), JSON.stringify(input))
    execFileSync(
      Path.join(repoRoot, "node_modules/.bin/node"),
      [fileURLToPath(new URL(`./engines/${script}`, import.meta.url)), "input.json", "output.json"],
      { cwd: dir, stdio: ["ignore", "ignore", "inherit"], timeout: 1_800_000 }
    )
    const output: EngineOutput = JSON.parse(Fs.readFileSync(Path.join(dir, "output.json"), "utf8"))
    if (KEEP !== undefined) {
      Fs.mkdirSync(KEEP, { recursive: true })
      Fs.copyFileSync(Path.join(dir, "output.json"), Path.join(KEEP, `${keepAs}.json`))
    }
    return output
  } finally {
    // tesseract.js would leave a language cache here without `cacheMethod: "none"`: the folder goes either way.
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`
const fixed = (x: number, digits = 2) => x.toFixed(digits)
const ratio = (ours: number, theirs: number) => (theirs === 0 ? "n/a" : `${(ours / theirs).toFixed(2)}×`)

const row = (cells: ReadonlyArray<string>) => `| ${cells.join(" | ")} |`

const na = "n/a"

const report = (dataset: string, ours: Scores | undefined, theirs: Scores | undefined) => {
  type Line = [string, string, string, string, string]
  const line = (name: string, pick: (s: Scores) => number | undefined, show: (x: number) => string, target = "") => {
    const a = ours === undefined ? undefined : pick(ours)
    const b = theirs === undefined ? undefined : pick(theirs)
    const cell = (x: number | undefined) => (x === undefined ? na : show(x))
    return [name, cell(a), cell(b), a === undefined || b === undefined ? na : ratio(a, b), target] satisfies Line
  }
  const wordLevel = (ours ?? theirs)?.recall !== undefined
  const lines: Array<Line> = [
    line("character error rate", (s) => s.cer, pct, "≤ 1×"),
    ...(wordLevel
      ? [
          line("word recall (IoU ≥ 0.5, same text)", (s) => s.recall, pct),
          line("word precision", (s) => s.precision, pct)
        ]
      : []),
    line("words with a mark the truth lacks", (s) => s.inventedMarks, pct, "≤ 0.3 %"),
    line(
      "pages/s per core (wall)",
      (s) => s.pagesPerCoreSecond,
      (x) => fixed(x, 3),
      "≥ 1×"
    ),
    line(
      "pages per CPU-second",
      (s) => s.pagesPerCpuSecond,
      (x) => fixed(x, 3),
      "≥ 1×"
    ),
    line(
      "median page latency (ms)",
      (s) => s.medianMs,
      (x) => fixed(x, 0)
    ),
    line(
      "peak RSS of the process (MB)",
      (s) => s.maxRssMb,
      (x) => fixed(x, 0)
    ),
    line(
      "startup (ms)",
      (s) => s.startupMs,
      (x) => fixed(x, 0)
    )
  ]
  const failures = (s: Scores | undefined) => (s === undefined ? na : String(s.failures))
  const pages = (ours ?? theirs)?.pages ?? 0
  log(`\n${dataset}: ${pages} pages (${failures(ours)} failed for us, ${failures(theirs)} for tesseract.js)`)
  log(row(["measure", "ours", "tesseract.js", "ours/tesseract.js", "target"]))
  log(row(["---", "---:", "---:", "---:", "---"]))
  for (const l of lines) log(row(l))
  if (ours !== undefined && ours.invented.length > 0)
    log(`\nOurs, words with a mark the truth lacks (first 40): ${ours.invented.slice(0, 40).join(" ")}`)
}

it.live(
  "OCR: ours vs tesseract.js on FUNSD and SROIE",
  () =>
    Effect.sync(() => {
      if (!Fs.existsSync(Path.join(dataRoot, "funsd")) || !Fs.existsSync(Path.join(dataRoot, "sroie"))) {
        log(`OCR benchmark skipped: ${dataRoot} (funsd/, sroie/) is absent`)
        return
      }
      buildDist()
      const workers = Os.availableParallelism()
      const datasets = [
        { name: "FUNSD", samples: funsd(PAGES), upperCase: false },
        { name: "SROIE", samples: sroie(PAGES), upperCase: true }
      ]
      log(
        `OCR benchmark: ${PAGES} pages per dataset, engines ${ENGINES.join(", ")}, ${workers} worker threads per engine, our recognizer: ${RECOGNIZER ?? "default"}, precision: ${PRECISION ?? "default"}`
      )
      for (const dataset of datasets) {
        const sizes = new Map(dataset.samples.map((s) => [s.image, imageSize(s.image)] as const))
        const load = () => `load average ${Os.loadavg()[0]?.toFixed(1)}`
        const run = (name: string, script: string): EngineOutput | undefined => {
          if (!ENGINES.includes(name)) return undefined
          log(`${dataset.name}: ${name}… (${load()})`)
          const output = runEngine(script, dataset.samples, workers, `${dataset.name}-${name}`)
          log(`${dataset.name}: ${output.engine} (${load()})`)
          return output
        }
        const ours = run("ours", "ours.ts")
        const theirs = run("tesseract", "tesseract.ts")
        const score = (output: EngineOutput | undefined) =>
          output === undefined ? undefined : scorePages(output, dataset.samples, sizes, dataset.upperCase)
        report(dataset.name, score(ours), score(theirs))
      }
    }),
  3_600_000
)
