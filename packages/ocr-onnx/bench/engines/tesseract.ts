/**
 * The tesseract.js engine process of the OCR benchmark: `node tesseract.ts <input.json> <output.json>`. Offline:
 * the English `4.0.0_best_int` data of `@tesseract.js-data/eng`, read from disk (`gzip`, no cache written).
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import Tesseract from "tesseract.js"
import { measure } from "./measure.ts"
import type { EngineInput, EnginePage } from "./protocol.js"

const [inputPath, outputPath] = process.argv.slice(2)
if (inputPath === undefined || outputPath === undefined)
  throw new Error("usage: tesseract.ts <input.json> <output.json>")
const input: EngineInput = JSON.parse(Fs.readFileSync(inputPath, "utf8"))

const require = createRequire(import.meta.url)
const langPath = Path.join(Path.dirname(require.resolve("@tesseract.js-data/eng")), "4.0.0_best_int")

const loading = performance.now()
const workers = await Promise.all(
  Array.from({ length: input.workers }, () =>
    Tesseract.createWorker("eng", Tesseract.OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: "none" })
  )
)
const startupMs = performance.now() - loading

const output = await measure(input, "tesseract.js", startupMs, (image, slot) => readPage(workers[slot]!, image))
await Promise.all(workers.map((worker) => worker.terminate()))

async function readPage(worker: Tesseract.Worker, image: string): Promise<EnginePage> {
  const bytes = Fs.readFileSync(image)
  const t0 = performance.now()
  const result = await worker.recognize(bytes, {}, { blocks: true, text: false })
  const words = (result.data.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.flatMap((line) => line.words.map((word) => ({ text: word.text, ...word.bbox })))
    )
  )
  // tesseract gives pixels of the image as decoded: the page is the image.
  return { image, width: 0, height: 0, unit: "pixel", words, ms: performance.now() - t0 }
}

Fs.writeFileSync(outputPath, JSON.stringify(output))
