/**
 * The document reader of `@legible/ocr-onnx` (text layer where a PDF has one, OCR where not), used by the benchmark
 * to read documents the way the service does, with an on-disk cache: a read is stored under the SHA-256 of the
 * file's bytes and of the reader's build (its sources, models and package manifest), in
 * `node_modules/.cache/legible-bench/`, so a second run reads nothing. `BENCH_CACHE=0` disables the cache. The
 * reader (one worker: the machine is shared) starts on the first read the cache does not hold.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { type Document, Ports } from "@legible/core"
import { OnnxReader } from "@legible/ocr-onnx"
import { Effect, Exit, Layer, ManagedRuntime } from "effect"

const ROOT = join(import.meta.dirname, "..", "..", "..")
const CACHE = join(ROOT, "node_modules", ".cache", "legible-bench")
// The package that reads: the one `@legible/ocr-onnx` resolves to (a worktree sharing another checkout's
// `node_modules` reads with that checkout's build, whatever its own sources say).
const OCR_PACKAGE = (() => {
  const linked = join(ROOT, "node_modules", "@legible", "ocr-onnx")
  return existsSync(linked) ? realpathSync(linked) : join(ROOT, "packages", "ocr-onnx")
})()

const filesUnder = (dir: string): ReadonlyArray<string> =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: "utf8" })
        .map((f) => join(dir, f))
        .filter((f) => statSync(f).isFile())
        .sort()
    : []

/**
 * A key of the reader's build: changes when any source, model, compiled file or the manifest of `@legible/ocr-onnx`
 * changes.
 */
const buildKey = (() => {
  let key: string | undefined
  return () => {
    if (key !== undefined) return key
    const hash = createHash("sha256")
    for (const file of [
      ...filesUnder(join(OCR_PACKAGE, "src")),
      ...filesUnder(join(OCR_PACKAGE, "models")),
      // Not the compiler's `.tsbuildinfo`: it differs between two builds of one commit.
      ...filesUnder(join(OCR_PACKAGE, "dist")).filter((f) => !f.endsWith(".tsbuildinfo")),
      join(OCR_PACKAGE, "package.json")
    ]) {
      hash.update(relative(OCR_PACKAGE, file))
      hash.update(readFileSync(file))
    }
    key = hash.digest("hex").slice(0, 16)
    return key
  }
})()

/** A read document, or why it could not be read. */
export type ReadResult = Document.ReadDocument | string

/** Reads documents through the cache; `close` stops the reader if it was started. */
export interface CachedReader {
  readonly read: (bytes: Uint8Array) => Promise<ReadResult>
  readonly close: () => Promise<void>
  /** Reads the cache answered and reads the reader did. */
  readonly counts: () => { readonly cached: number; readonly read: number }
}

/** A reader through the disk cache (`BENCH_CACHE=0`: no cache). */
export const cachedReader = (): CachedReader => {
  const useCache = process.env.BENCH_CACHE !== "0"
  let runtime: ManagedRuntime.ManagedRuntime<Ports.DocumentReader, never> | undefined
  let cached = 0
  let fresh = 0
  const readFresh = async (bytes: Uint8Array): Promise<ReadResult> => {
    runtime ??= ManagedRuntime.make(OnnxReader.layer({ poolSize: 1 }).pipe(Layer.orDie))
    const exit = await runtime.runPromiseExit(
      Effect.gen(function* () {
        const reader = yield* Ports.DocumentReader
        return yield* reader.read(bytes)
      })
    )
    return Exit.isSuccess(exit) ? { ...exit.value, images: [] } : `read failed: ${String(exit.cause)}`
  }
  const read = async (bytes: Uint8Array): Promise<ReadResult> => {
    const file = join(CACHE, `${createHash("sha256").update(bytes).update(buildKey()).digest("hex")}.json`)
    if (useCache && existsSync(file)) {
      cached++
      return JSON.parse(readFileSync(file, "utf8")) as ReadResult
    }
    fresh++
    const result = await readFresh(bytes)
    // Failures (a timeout on a busy machine) are not kept: the next run tries again.
    if (useCache && typeof result !== "string") {
      mkdirSync(CACHE, { recursive: true })
      writeFileSync(file, JSON.stringify(result))
    }
    return result
  }
  return {
    read,
    close: async () => {
      await runtime?.dispose()
    },
    counts: () => ({ cached, read: fresh })
  }
}

/** Whether OCR reads (images, rasterised pages) run: `BENCH_OCR=0` skips them. */
export const ocrEnabled = (): boolean => process.env.BENCH_OCR !== "0"
