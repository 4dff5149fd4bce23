/**
 * Calibrates the int8 recognizer (`packages/ocr-onnx/src/internal/ocr/quantize.ts`):
 * `npm run calibrate:rec -w @legible/ocr-training [-- --funsd 40 --receipts 10 --spanish 2 --lines 600 --out …]`
 * (default out: `packages/ocr-onnx/models/rec_int8.ranges.json`).
 *
 * 1. Renders pages the benchmarks never measure, as the worker does (`renderForOcr`): the last `--funsd` FUNSD forms
 *    in name order (the OCR benchmark reads the first 30, the stage timings the first 10), the `--receipts`
 *    German receipt scans of `../shared/data/receipts-de` and `--spanish` pages of each kind of the Spanish
 *    benchmark's generator that it does not score (pages 2 and on, in its three conditions); reads each with the
 *    float engine (default Latin recognizer, folded graphs) and keeps the recognizer's real inputs: the line crops
 *    the pipeline's first detection pass made (the small-print pass is left out, see `FIRST_PASS_ONLY`).
 * 2. Runs the folded float recognizer with every convolution's input and output exposed as graph outputs on up to
 *    `--lines` of those crops (spread evenly), samples 300 values of each tensor per line (a seeded generator), and
 *    keeps as each tensor's range the 0.001st and 99.999th percentiles of its samples (`--percentile`): clipping the
 *    rarest extremes gives the other values finer steps (`packages/ocr-onnx/MEASUREMENTS.md`, "int8 recognizer").
 * 3. Writes the ranges with the model file's SHA-256 (the engine refuses ranges calibrated on another model).
 * Prints the pages, lines, and the time of each step. Needs ../shared/data (fails with a message where absent).
 */
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { parseArgs } from "node:util"
import { dataRoot } from "@legible/ocr-onnx/bench/datasets.ts"
import { conditions, renderPage, spanishPages } from "@legible/ocr-onnx/bench/spanish.pages.ts"
import {
  calibrationTensors,
  defaultLimits,
  encodeRanges,
  exposeOutput,
  latinModels,
  makeEngine,
  modelBytes,
  modelFiles,
  openDocument,
  type Range,
  readGraph,
  recognizePage,
  renderForOcr,
  type Tensor,
  withPage
} from "@legible/ocr-onnx/training"
import { Effect } from "effect"
import * as ort from "onnxruntime-node"
import { stringOptions } from "./args.ts"

const { values } = parseArgs({
  options: {
    ...stringOptions({
      funsd: "40",
      receipts: "10",
      spanish: "2",
      lines: "600",
      percentile: "99.999",
      out: modelFiles().ranges
    })
  }
})
const log = (line: string) => process.stdout.write(`${line}\n`)
// The line crops of the first detection pass only (4,174; with the small-print pass 4,216): its crops of 5–6 pt type
// widened some ranges by up to 30 % and cost int8 accuracy and speed (packages/ocr-onnx/MEASUREMENTS.md).
const FIRST_PASS_ONLY = { detRefineBelow: 0 }
const data = dataRoot
if (!Fs.existsSync(Path.join(data, "funsd")) || !Fs.existsSync(Path.join(data, "receipts-de"))) {
  throw new Error(`calibration needs ${data}funsd and ${data}receipts-de`)
}
const funsdImages = Fs.readdirSync(Path.join(data, "funsd", "images"))
  .filter((name) => name.endsWith(".png"))
  .sort()
const files = [
  ...funsdImages.slice(-Number(values.funsd)).map((name) => Path.join(data, "funsd", "images", name)),
  ...Fs.readdirSync(Path.join(data, "receipts-de"))
    .filter((name) => name.endsWith(".jpg"))
    .sort()
    .slice(0, Number(values.receipts))
    .map((name) => Path.join(data, "receipts-de", name))
]
// Spanish benchmark-style pages the benchmark does not draw (it reads pages 0 and 1 of each kind): pages 2 … 2 + n − 1
// of each kind in the three conditions, with other noise seeds than the benchmark's (as realLines.ts).
const spanish = Number(values.spanish)
const rendered = spanishPages(2 + spanish)
  .slice(3 * 2)
  .flatMap((page, k) => conditions.map((condition, c) => () => renderPage(page, condition, 90_000 + 1000 * c + k)))
const pages: ReadonlyArray<() => Uint8Array> = [
  ...files.map((path) => () => new Uint8Array(Fs.readFileSync(path))),
  ...rendered
]
if (funsdImages.length - Number(values.funsd) < 30)
  throw new Error("the calibration forms would overlap the benchmark's")

const started = performance.now()
const crops: Array<Tensor> = []
await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      // Only the recognizer's inputs are recorded: the word lists would check text nobody reads.
      const engine = yield* makeEngine({ recognizerPrecision: "float32", lexicon: [] })
      const recording = {
        ...engine,
        rec: {
          ...engine.rec,
          run: (feeds: Readonly<Record<string, Tensor>>) => {
            for (const t of Object.values(feeds)) crops.push({ data: t.data.slice(), dims: [...t.dims] })
            return engine.rec.run(feeds)
          }
        }
      }
      for (const bytes of pages) {
        const image = yield* Effect.scoped(
          Effect.flatMap(openDocument(bytes(), defaultLimits), (opened) =>
            withPage(opened, 0, (page) => renderForOcr(page, opened.kind, defaultLimits))
          )
        )
        yield* recognizePage(recording, image, FIRST_PASS_ONLY)
      }
    })
  )
)
log(
  `${pages.length} pages read, ${crops.length} recognizer inputs, ${((performance.now() - started) / 1000).toFixed(0)} s`
)

const models = latinModels()
const bytes = await Effect.runPromise(modelBytes(models.recognition, { head: models.recognitionHead, fold: true }))
const tensors = calibrationTensors(readGraph(bytes))
const session = await ort.InferenceSession.create(tensors.reduce(exposeOutput, bytes), { intraOpNumThreads: 1 })
const step = Math.max(1, crops.length / Number(values.lines))
const samples = new Map<string, Array<number>>(tensors.map((t) => [t, []]))
let seed = 20261122
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}
let used = 0
for (let at = 0; at < crops.length; at += step) {
  const crop = crops[Math.floor(at)]!
  const out = await session.run({ [session.inputNames[0]!]: new ort.Tensor("float32", crop.data, crop.dims) })
  for (const t of tensors) {
    const values = out[t]!.data as Float32Array
    const kept = samples.get(t)!
    for (let k = 0; k < 300; k++) kept.push(values[Math.floor(random() * values.length)]!)
  }
  used += 1
}
await session.release()
const p = Number(values.percentile) / 100
const ranges = new Map(
  [...samples].map(([t, xs]) => {
    const sorted = Float64Array.from(xs).sort()
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!
    return [t, { min: Math.min(0, at(1 - p)), max: Math.max(0, at(p)) }] as const
  })
)
const sha256 = createHash("sha256").update(Fs.readFileSync(models.recognition)).digest("hex")
const file = encodeRanges({
  model: Path.basename(models.recognition),
  sha256,
  calibration: `${pages.length} pages (${Number(values.funsd)} last FUNSD forms, ${Number(values.receipts)} receipts-de scans${spanish > 0 ? `, ${rendered.length} Spanish benchmark-style pages (pages 2–${1 + spanish} of each kind, three conditions)` : ""}), ${used} of ${crops.length} line crops, ${values.percentile}th percentiles of 300 samples per line`,
  tensors: Object.fromEntries([...ranges].map(([t, r]) => [t, r satisfies Range]))
})
Fs.writeFileSync(values.out, file)
log(
  `${tensors.length} tensors over ${used} lines → ${values.out} (${((performance.now() - started) / 1000).toFixed(0)} s)`
)
