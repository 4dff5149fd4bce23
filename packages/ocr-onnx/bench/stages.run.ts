/**
 * Where our OCR time goes on the benchmark's pages: each FUNSD form and SROIE receipt is opened and rendered as the
 * worker does (`renderForOcr`), then read by one engine in this process (one onnxruntime thread, as in a worker),
 * and the stage timings are printed: detection (resize, model, DB post-processing), the 180° classifier and
 * recognition, in wall ms and the process's CPU ms per page (CPU is what other load on the machine disturbs least),
 * with the detection input size, the boxes found, recognition runs and the columns they read; CER, FUNSD word recall
 * and precision, and the words with a mark the truth lacks (as `ocr.run.ts`).
 * Run: `npx vitest run --config vitest.bench.config.ts bench/stages.run.ts` in packages/ocr-onnx.
 * The recognizer is PP-OCRv4's Chinese + ASCII one as shipped, whatever the reader's default, so that runs compare;
 * `OCR_STAGES_RECOGNIZER=latin` reads with the Latin head instead.
 * `OCR_STAGES_PAGES` pages per dataset (default 10) from `OCR_STAGES_FROM` (default 0, in file-name order); `OCR_STAGES_DATASETS` which (default `FUNSD,SROIE`);
 * `OCR_STAGES_CONFIG` a JSON object of `OcrConfig` overrides, `OCR_STAGES_MODELS` of `OcrModels` ones, `OCR_STAGES_RENDER` of `RenderOptions` ones;
 * `OCR_STAGES_PRECISION` the recognizer's precision (`float32`, `int8` or `auto`, the default); `OCR_STAGES_LEXICON`
 * the word lists that check diacritics (`es,en`, or `none`; default the engine's).
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { defaultLimits } from "../src/internal/mupdf/limits.js"
import { openDocument, withPage } from "../src/internal/mupdf/open.js"
import { defaultRenderOptions, type RenderOptions, renderForOcr } from "../src/internal/mupdf/render.js"
import type { OcrConfig } from "../src/internal/ocr/config.js"
import { type InferenceSession, makeEngine, type OcrEngine, type OcrModels } from "../src/internal/ocr/engine.js"
import { type OcrPage, recognizePage } from "../src/internal/ocr/pipeline.js"
import { dataRoot, funsd, sroie } from "./datasets.js"
import type { EnginePage } from "./engines/protocol.js"
import { lexiconFromEnv } from "./lexiconEnv.js"
import { imageSize, scorePages } from "./scoring.js"

const PAGES = Number(process.env.OCR_STAGES_PAGES ?? 10)
const FROM = Number(process.env.OCR_STAGES_FROM ?? 0)
const overrides: Partial<OcrConfig> = JSON.parse(process.env.OCR_STAGES_CONFIG ?? "{}")
const models: Partial<OcrModels> = JSON.parse(process.env.OCR_STAGES_MODELS ?? "{}")
const renderOptions: RenderOptions = { ...defaultRenderOptions, ...JSON.parse(process.env.OCR_STAGES_RENDER ?? "{}") }
const datasets = (process.env.OCR_STAGES_DATASETS ?? "FUNSD,SROIE").split(",")
const recognizer = process.env.OCR_STAGES_RECOGNIZER === "latin" ? "latin" : "chinese"
const precision = (process.env.OCR_STAGES_PRECISION ?? "auto") as "float32" | "int8" | "auto"
const lexicon = lexiconFromEnv("OCR_STAGES_LEXICON")
const log = (line: string) => process.stdout.write(`${line}\n`)
const mean = (xs: ReadonlyArray<number>) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)

/** CPU ms spent inside one session's runs, the runs, and the input columns (last dimension) they read. */
interface Usage {
  cpu: number
  runs: number
  columns: number
}

const metered = (session: InferenceSession, usage: Usage): InferenceSession => ({
  ...session,
  run: (feeds) =>
    Effect.suspend(() => {
      const c0 = process.cpuUsage()
      return Effect.ensuring(
        session.run(feeds),
        Effect.sync(() => {
          const used = process.cpuUsage(c0)
          usage.cpu += (used.user + used.system) / 1000
          usage.runs += 1
          for (const t of Object.values(feeds)) usage.columns += (t.dims[0] ?? 1) * (t.dims[t.dims.length - 1] ?? 0)
        })
      )
    })
})

const render = (path: string) =>
  Effect.scoped(
    Effect.flatMap(openDocument(new Uint8Array(Fs.readFileSync(path)), defaultLimits), (opened) =>
      withPage(opened, 0, (page) => renderForOcr(page, opened.kind, defaultLimits, renderOptions))
    )
  )

it.live(
  "OCR stage timings on FUNSD and SROIE",
  () =>
    Effect.scoped(
      Effect.gen(function* () {
        if (!Fs.existsSync(Path.join(dataRoot, "funsd")) || !Fs.existsSync(Path.join(dataRoot, "sroie"))) {
          log(`OCR stage timings skipped: ${dataRoot} (funsd/, sroie/) is absent`)
          return
        }
        // PP-OCRv4's own recognizer and dictionary, whatever the default: figures stay comparable between runs.
        const loaded = yield* makeEngine({
          recognizer,
          models,
          config: overrides,
          recognizerPrecision: precision,
          lexicon
        })
        const usage = {
          det: { cpu: 0, runs: 0, columns: 0 },
          cls: { cpu: 0, runs: 0, columns: 0 },
          rec: { cpu: 0, runs: 0, columns: 0 }
        }
        const engine: OcrEngine = {
          ...loaded,
          det: metered(loaded.det, usage.det),
          cls: loaded.cls === undefined ? undefined : metered(loaded.cls, usage.cls),
          rec: metered(loaded.rec, usage.rec)
        }
        const reset = () => {
          for (const u of Object.values(usage)) {
            u.cpu = 0
            u.runs = 0
            u.columns = 0
          }
        }
        log(
          `OCR stages, ${PAGES} pages per dataset from ${FROM}, ${recognizer} recognizer, precision ${loaded.precision} (${precision}), lexicon ${loaded.lexicon === undefined ? "none" : "on"}, overrides ${JSON.stringify(overrides)}, render ${JSON.stringify(renderOptions)}`
        )
        for (const [name, samples] of [
          ["FUNSD", funsd(PAGES, FROM)],
          ["SROIE", sroie(PAGES, FROM)]
        ] as const) {
          if (!datasets.includes(name)) continue
          const rows: Array<
            Record<
              "det" | "cls" | "rec" | "total" | "cpu" | "detCpu" | "clsCpu" | "recCpu" | "recRuns" | "recColumns",
              number
            >
          > = []
          let warm = false
          const read: Array<EnginePage> = []
          for (const sample of samples) {
            const image = yield* render(sample.image)
            if (!warm) {
              // The first inference of each session allocates and plans: kept out of the figures.
              yield* recognizePage(engine, image)
              warm = true
            }
            reset()
            const t0 = performance.now()
            const c0 = process.cpuUsage()
            const page: OcrPage = yield* recognizePage(engine, image)
            const cpu = process.cpuUsage(c0)
            const words = page.lines.reduce((acc, l) => acc + l.words.length, 0)
            const row = {
              ...page.timings,
              total: performance.now() - t0,
              cpu: (cpu.user + cpu.system) / 1000,
              detCpu: usage.det.cpu,
              clsCpu: usage.cls.cpu,
              recCpu: usage.rec.cpu,
              recRuns: usage.rec.runs,
              recColumns: usage.rec.columns
            }
            rows.push(row)
            // Words in the render's pixels, scored like the benchmark's engines ("point" = scaled to the image).
            read.push({
              image: sample.image,
              width: image.width,
              height: image.height,
              unit: "point",
              words: page.lines.flatMap((l) => l.words.map(({ text, x0, y0, x1, y1 }) => ({ text, x0, y0, x1, y1 }))),
              ms: row.total
            })
            const f = (x: number, n: number) => x.toFixed(0).padStart(n)
            log(
              `${name} ${sample.id.padEnd(24)} ${`${image.width}×${image.height}`.padEnd(10)} words ${f(words, 4)}` +
                ` | wall det ${f(row.det, 5)} cls ${f(row.cls, 4)} rec ${f(row.rec, 5)}` +
                ` | cpu ${f(row.cpu, 5)}: det model ${f(row.detCpu, 4)} cls model ${f(row.clsCpu, 4)} rec model ${f(row.recCpu, 5)}` +
                ` (${row.recRuns} runs, ${row.recColumns} columns)`
            )
          }
          const m = (k: keyof (typeof rows)[number]) => mean(rows.map((r) => r[k])).toFixed(0)
          log(
            `${name} mean per page: wall ms det ${m("det")}, cls ${m("cls")}, rec ${m("rec")}, total ${m("total")}; ` +
              `cpu ms ${m("cpu")}: det model ${m("detCpu")}, cls model ${m("clsCpu")}, rec model ${m("recCpu")} ` +
              `(${m("recRuns")} runs, ${m("recColumns")} columns)`
          )
          const sizes = new Map(samples.map((s) => [s.image, imageSize(s.image)] as const))
          const output = { engine: "ours", workers: 1, startupMs: 0, wallMs: 0, cpuMs: 0, maxRssMb: 0, pages: read }
          const scores = scorePages(output, samples, sizes, name === "SROIE")
          const pct = (x: number | undefined) => (x === undefined ? "n/a" : `${(x * 100).toFixed(2)} %`)
          log(
            `${name} CER ${pct(scores.cer)}, word recall ${pct(scores.recall)}, precision ${pct(scores.precision)}, words with a mark the truth lacks ${pct(scores.inventedMarks)}`
          )
        }
      })
    ),
  3_600_000
)
