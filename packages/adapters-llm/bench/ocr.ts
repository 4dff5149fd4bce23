/**
 * The OCR reader of `@legible/ocr-onnx` (built in parallel with this package), used by the benchmark only, to read
 * the SROIE receipt images and the invoice PDFs the way the service does. `BENCH_OCR=0` skips it.
 */
import { type Document, Ports } from "@legible/core"
import { OnnxReader } from "@legible/ocr-onnx"
import { Effect, Exit, Layer, ManagedRuntime } from "effect"

/** Reads documents with one OCR worker (the machine is shared); `close` stops it. */
export const openReader = async (): Promise<
  | {
      readonly read: (bytes: Uint8Array) => Promise<Document.ReadDocument | string>
      readonly close: () => Promise<void>
    }
  | string
> => {
  if (process.env.BENCH_OCR === "0") return "BENCH_OCR=0"
  const runtime = ManagedRuntime.make(OnnxReader.layer({ poolSize: 1 }).pipe(Layer.orDie))
  const read = async (bytes: Uint8Array) => {
    const exit = await runtime.runPromiseExit(
      Effect.gen(function* () {
        const reader = yield* Ports.DocumentReader
        return yield* reader.read(bytes)
      })
    )
    return Exit.isSuccess(exit) ? exit.value : `read failed: ${String(exit.cause)}`
  }
  return { read, close: () => runtime.dispose() }
}
