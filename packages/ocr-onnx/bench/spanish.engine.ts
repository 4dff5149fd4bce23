/**
 * An engine process of the Spanish benchmark: `node spanish.engine.ts <latin|chinese|tesseract> <input> <output>`.
 * `latin` and `chinese` are our reader (built `dist/`, every image through `DocumentReader.read`) with that
 * recognizer; `tesseract` is tesseract.js 7 with the Spanish and English `4.0.0_best_int` data (`spa+eng`) read from
 * disk. Same protocol as `engines/` (input and output JSON).
 */
import * as Fs from "node:fs"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { Effect } from "effect"
import Tesseract from "tesseract.js"
import { OnnxReader } from "../dist/index.js"
import { measure, readerPage } from "./engines/measure.ts"
import type { EngineInput, EngineOutput } from "./engines/protocol.js"
import { lexiconFromEnv } from "./lexiconEnv.ts"

const [engine, inputPath, outputPath] = process.argv.slice(2)
if ((engine !== "latin" && engine !== "chinese" && engine !== "tesseract") || !inputPath || !outputPath) {
  throw new Error("usage: spanish.engine.ts <latin|chinese|tesseract> <input.json> <output.json>")
}
const input: EngineInput = JSON.parse(Fs.readFileSync(inputPath, "utf8"))

const ours = (recognizer: "latin" | "chinese") =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const loading = performance.now()
        // SPANISH_BENCH_HEAD: another Latin head file in place of models/latin_head.bin (a candidate of merge:rec).
        const head = recognizer === "latin" ? process.env.SPANISH_BENCH_HEAD : undefined
        // SPANISH_BENCH_PRECISION: the recognizer's precision (float32 or int8) in place of the reader's default.
        const precision = process.env.SPANISH_BENCH_PRECISION as "float32" | "int8" | undefined
        // SPANISH_BENCH_LEXICON: the word lists that check diacritics (codes such as `es,en`, or `none`) in place of the default.
        const lexicon = lexiconFromEnv("SPANISH_BENCH_LEXICON")
        // SPANISH_BENCH_DET_SCALE: the Latin column's detection scale in place of the default. The Chinese column
        // detects at 0.5 whatever that says: it compares the recognizers in the same pipeline.
        const detectionScale =
          recognizer === "chinese"
            ? 0.5
            : process.env.SPANISH_BENCH_DET_SCALE === undefined
              ? undefined
              : Number(process.env.SPANISH_BENCH_DET_SCALE)
        const reader = yield* OnnxReader.make({
          poolSize: input.workers,
          models: {
            recognizer,
            ...(head === undefined ? {} : { recognitionHead: head }),
            ...(precision === undefined ? {} : { precision }),
            ...(lexicon === undefined ? {} : { lexicon }),
            ...(detectionScale === undefined ? {} : { detectionScale })
          }
        })
        // Threads start on demand: one read per thread of the first image loads mupdf and the models.
        const first = Fs.readFileSync(input.images[0]!)
        yield* Effect.all(
          Array.from({ length: input.workers }, () => Effect.result(reader.read(first))),
          { concurrency: "unbounded" }
        )
        const startupMs = performance.now() - loading
        return yield* Effect.promise(() =>
          measure(input, `ours (${recognizer})`, startupMs, (image) => readerPage(reader, image))
        )
      })
    )
  )

const tesseract = async (): Promise<EngineOutput> => {
  const require = createRequire(import.meta.url)
  // Both packages hold a `4.0.0_best_int` folder; tesseract.js reads every language from one langPath.
  const langPath = Fs.mkdtempSync(Path.join(Path.dirname(inputPath), "lang-"))
  for (const lang of ["spa", "eng"]) {
    const dir = Path.join(Path.dirname(require.resolve(`@tesseract.js-data/${lang}`)), "4.0.0_best_int")
    for (const file of Fs.readdirSync(dir)) Fs.copyFileSync(Path.join(dir, file), Path.join(langPath, file))
  }
  const loading = performance.now()
  const workers = await Promise.all(
    Array.from({ length: input.workers }, () =>
      Tesseract.createWorker(["spa", "eng"], Tesseract.OEM.LSTM_ONLY, { langPath, gzip: true, cacheMethod: "none" })
    )
  )
  const startupMs = performance.now() - loading
  const output = await measure(input, "tesseract.js (spa+eng)", startupMs, async (image, slot) => {
    const worker = workers[slot]!
    const t0 = performance.now()
    const result = await worker.recognize(Fs.readFileSync(image), {}, { blocks: true, text: false })
    const words = (result.data.blocks ?? []).flatMap((block) =>
      block.paragraphs.flatMap((p) => p.lines.flatMap((l) => l.words.map((w) => ({ text: w.text, ...w.bbox }))))
    )
    return { image, width: 0, height: 0, unit: "pixel", words, ms: performance.now() - t0 }
  })
  await Promise.all(workers.map((w) => w.terminate()))
  return output
}

const output = engine === "tesseract" ? await tesseract() : await ours(engine)
Fs.writeFileSync(outputPath, JSON.stringify(output))
