/**
 * Per-page timings of the OCR stages (det, cls, rec, with their pre- and post-processing) and the process's memory,
 * on the synthetic invoice rendered at 200 DPI: upright PNG, skewed 1° noisy JPEG, upside down, and the running-text
 * page. One engine, one thread per session, pages one after another, as in an OCR worker.
 * Run: `npx vitest run --config packages/ocr-onnx/test/ocr/timings.config.ts` (OCR_TIMING_RUNS sets the runs per
 * page, default 5). Wall times suffer from other load on the machine; `cpu` (user + system time of the process
 * during the page; onnxruntime runs one thread) does much less.
 */
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { makeEngine } from "../../src/internal/ocr/engine.js"
import type { PageImage } from "../../src/internal/ocr/image.js"
import { recognizePage } from "../../src/internal/ocr/pipeline.js"
import { conditions, invoice, raster, skewed } from "../support/synthetic.js"
import { decodeRaster, rotate180 } from "./support.js"

const RUNS = Number(process.env.OCR_TIMING_RUNS ?? 5)
const log = (line: string) => process.stdout.write(`${line}\n`)
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`
const median = (xs: ReadonlyArray<number>) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

it.live(
  "OCR stage timings and memory",
  () =>
    Effect.scoped(
      Effect.gen(function* () {
        const image = decodeRaster(raster(invoice, { format: "png" }).bytes)
        const pages: ReadonlyArray<readonly [string, PageImage]> = [
          ["invoice, 200 DPI PNG", image],
          [
            "invoice, skewed 1°, noise, JPEG",
            decodeRaster(skewed(invoice, { degrees: 1, format: "jpeg", noise: 20 }).bytes)
          ],
          ["invoice, upside down", rotate180(image)],
          ["running text (conditions)", decodeRaster(raster(conditions, { format: "png" }).bytes)]
        ]
        const before = process.memoryUsage().rss
        const started = performance.now()
        const engine = yield* makeEngine()
        log(
          `engine loaded in ${(performance.now() - started).toFixed(0)} ms; RSS ${mb(before)} → ${mb(process.memoryUsage().rss)}`
        )
        yield* recognizePage(engine, image)
        log(
          `page                              ${"size".padEnd(10)} lines words   det    cls    rec  total    cpu (median ms of ${RUNS})`
        )
        for (const [name, page] of pages) {
          const runs: Array<{ det: number; cls: number; rec: number; total: number; cpu: number }> = []
          let lines = 0
          let words = 0
          for (let k = 0; k < RUNS; k++) {
            const t0 = performance.now()
            const c0 = process.cpuUsage()
            const result = yield* recognizePage(engine, page)
            const cpu = process.cpuUsage(c0)
            runs.push({ ...result.timings, total: performance.now() - t0, cpu: (cpu.user + cpu.system) / 1000 })
            lines = result.lines.length
            words = result.lines.reduce((acc, l) => acc + l.words.length, 0)
          }
          const m = (k: "det" | "cls" | "rec" | "total" | "cpu") =>
            median(runs.map((r) => r[k]))
              .toFixed(0)
              .padStart(6)
          log(
            `${name.padEnd(34)}${`${page.width}×${page.height}`.padEnd(10)} ${String(lines).padStart(5)} ${String(words).padStart(5)} ${m("det")} ${m("cls")} ${m("rec")} ${m("total")} ${m("cpu")}`
          )
        }
        const usage = process.resourceUsage()
        log(
          `RSS now ${mb(process.memoryUsage().rss)}, peak ${mb(usage.maxRSS * 1024)} (whole vitest worker, incl. mupdf WASM)`
        )
      })
    ),
  600_000
)
