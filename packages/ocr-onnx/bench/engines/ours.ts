/**
 * Our engine's process in the OCR benchmark: `node ours.ts <input.json> <output.json>`. The built reader
 * (`dist/`, as in production) with a pool of `workers` threads; every image is read through `DocumentReader.read`
 * (sniff, open with mupdf, render, OCR), `workers` documents at a time. Word boxes come back in points.
 */
import * as Fs from "node:fs"
import { crc32, deflateSync } from "node:zlib"
import { Effect } from "effect"
import { OnnxReader } from "../../dist/index.js"
import { resolvePrecision } from "../../dist/internal/ocr/cpu.js"
import { measure, readerPage } from "./measure.ts"
import type { EngineInput } from "./protocol.js"

const [inputPath, outputPath] = process.argv.slice(2)
if (inputPath === undefined || outputPath === undefined) throw new Error("usage: ours.ts <input.json> <output.json>")
const input: EngineInput = JSON.parse(Fs.readFileSync(inputPath, "utf8"))

const chunk = (type: string, data: Uint8Array): Buffer => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data])
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

/** A blank 64 × 64 grey PNG: reading it loads mupdf and the OCR models in a thread without real work. */
const blankPng = (): Uint8Array => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(64, 0)
  header.writeUInt32BE(64, 4)
  header.set([8, 0, 0, 0, 0], 8)
  const rows = Buffer.alloc(64 * 65, 255)
  for (let y = 0; y < 64; y++) rows[y * 65] = 0 // filter type "none" before each row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", new Uint8Array(0))
  ])
}

// The precision the reader runs at on this CPU (the built-in recognizers have int8 ranges).
const precision = resolvePrecision(input.precision, true)

const program = Effect.gen(function* () {
  const loading = performance.now()
  const reader = yield* OnnxReader.make({
    poolSize: input.workers,
    models: {
      ...(input.recognizer === undefined ? {} : { recognizer: input.recognizer }),
      ...(input.precision === undefined ? {} : { precision: input.precision })
    }
  })
  // The pool starts its threads on demand: one blank page per thread loads mupdf and the models first.
  const warmup = blankPng()
  yield* Effect.all(
    Array.from({ length: input.workers }, () => reader.read(warmup)),
    { concurrency: "unbounded" }
  )
  const startupMs = performance.now() - loading

  const engine = `ours (PP-OCRv4, ${input.recognizer ?? "default"} recognizer, ${precision}, onnxruntime)`
  return yield* Effect.promise(() => measure(input, engine, startupMs, (image) => readerPage(reader, image)))
})

const output = await Effect.runPromise(Effect.scoped(program))
Fs.writeFileSync(outputPath, JSON.stringify(output))
