/**
 * OCR benchmark: our reader against tesseract.js 7 (offline, English `4.0.0_best_int` data), in one run, on the
 * same pages: the first 30 FUNSD forms (word boxes) and the first 30 SROIE receipts (line texts) of
 * ../shared/data, in name order. Each engine reads each dataset in its own Node process with one worker thread per
 * core, so its peak RSS and CPU time are its own (`bench/engines/*.ts`).
 *
 * Printed per dataset and engine: character error rate (the page text in one reading order for everyone, see
 * `metrics.ts`; SROIE compared in upper case, as its labels are), FUNSD word recall/precision (IoU ≥ 0.5 and the
 * same text), pages/s per core (pages / wall time / workers), pages per CPU-second (robust to other load on the
 * machine), peak RSS, and the ratios ours/tesseract.js. Targets: our CER ≤ tesseract.js's, our speed ≥ its.
 * Skips with a message when ../shared/data is absent. Run: `npm run bench -w @legible/ocr-onnx` (every bench),
 * or this one: `npx vitest run --config packages/ocr-onnx/vitest.bench.config.ts bench/ocr.run.ts`.
 * `OCR_BENCH_PAGES` changes the pages per dataset (default 30); `OCR_BENCH_RECOGNIZER` (`latin` or `chinese`) picks
 * our recognizer (default: the reader's default), `OCR_BENCH_PRECISION` (`float32`, `int8` or `auto`; default: the
 * reader's, `auto`) its precision; the engine line printed names the precision it ran at.
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
const log = (line: string) => process.stdout.write(`${line}\n`)
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

/** Runs one engine process on the samples' images and reads its output. */
const runEngine = (script: string, samples: ReadonlyArray<Sample>, workers: number): EngineOutput => {
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

const report = (dataset: string, ours: Scores, theirs: Scores) => {
  const lines: Array<[string, string, string, string, string]> = [
    ["character error rate", pct(ours.cer), pct(theirs.cer), ratio(ours.cer, theirs.cer), "≤ 1×"],
    ...(ours.recall === undefined ||
    theirs.recall === undefined ||
    ours.precision === undefined ||
    theirs.precision === undefined
      ? []
      : ([
          [
            "word recall (IoU ≥ 0.5, same text)",
            pct(ours.recall),
            pct(theirs.recall),
            ratio(ours.recall, theirs.recall),
            ""
          ],
          ["word precision", pct(ours.precision), pct(theirs.precision), ratio(ours.precision, theirs.precision), ""]
        ] satisfies Array<[string, string, string, string, string]>)),
    [
      "pages/s per core (wall)",
      fixed(ours.pagesPerCoreSecond, 3),
      fixed(theirs.pagesPerCoreSecond, 3),
      ratio(ours.pagesPerCoreSecond, theirs.pagesPerCoreSecond),
      "≥ 1×"
    ],
    [
      "pages per CPU-second",
      fixed(ours.pagesPerCpuSecond, 3),
      fixed(theirs.pagesPerCpuSecond, 3),
      ratio(ours.pagesPerCpuSecond, theirs.pagesPerCpuSecond),
      "≥ 1×"
    ],
    [
      "median page latency (ms)",
      fixed(ours.medianMs, 0),
      fixed(theirs.medianMs, 0),
      ratio(ours.medianMs, theirs.medianMs),
      ""
    ],
    [
      "peak RSS of the process (MB)",
      fixed(ours.maxRssMb, 0),
      fixed(theirs.maxRssMb, 0),
      ratio(ours.maxRssMb, theirs.maxRssMb),
      ""
    ],
    ["startup (ms)", fixed(ours.startupMs, 0), fixed(theirs.startupMs, 0), ratio(ours.startupMs, theirs.startupMs), ""]
  ]
  log(`\n${dataset}: ${ours.pages} pages (${ours.failures} failed for us, ${theirs.failures} for tesseract.js)`)
  log(row(["measure", "ours", "tesseract.js", "ours/tesseract.js", "target"]))
  log(row(["---", "---:", "---:", "---:", "---"]))
  for (const line of lines) log(row(line))
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
        `OCR benchmark: ${PAGES} pages per dataset, ${workers} worker threads per engine, our recognizer: ${RECOGNIZER ?? "default"}, precision: ${PRECISION ?? "default"}`
      )
      for (const dataset of datasets) {
        const sizes = new Map(dataset.samples.map((s) => [s.image, imageSize(s.image)] as const))
        const load = () => `load average ${Os.loadavg()[0]?.toFixed(1)}`
        log(`${dataset.name}: ours… (${load()})`)
        const ours = runEngine("ours.ts", dataset.samples, workers)
        log(`${dataset.name}: ${ours.engine}; tesseract.js… (${load()})`)
        const theirs = runEngine("tesseract.ts", dataset.samples, workers)
        log(`${dataset.name}: done (${load()})`)
        const score = (output: EngineOutput) => scorePages(output, dataset.samples, sizes, dataset.upperCase)
        report(dataset.name, score(ours), score(theirs))
      }
    }),
  3_600_000
)
