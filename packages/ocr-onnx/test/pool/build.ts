/**
 * Builds `packages/ocr-onnx/dist` before a test starts worker threads: threads run JavaScript, so the worker entry
 * and the pool's worker side come from `dist/`. Incremental (well under a second when nothing changed); a lock
 * directory keeps two test files from building at once, so no thread loads a half-written file. When the build of
 * the referenced packages fails (another package mid-change), this package alone is compiled against their last
 * built declarations, with a warning.
 */
import { execFileSync } from "node:child_process"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))
const lock = Path.join(repoRoot, "packages/ocr-onnx/dist/.build-lock")

const tsc = (args: ReadonlyArray<string>) =>
  execFileSync(
    Path.join(repoRoot, "node_modules/.bin/node"),
    [Path.join(repoRoot, "node_modules/typescript/bin/tsc"), ...args],
    { cwd: repoRoot, stdio: "pipe" }
  )

// tsc reports on stdout: without it a failure would only say "Command failed".
const outputOf = (error: unknown): string =>
  (typeof error === "object" && error !== null && "stdout" in error ? String(error.stdout) : "") || String(error)

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/** Runs `tsc -b packages/ocr-onnx/tsconfig.build.json`, failing with tsc's output. */
export const buildDist = (): void => {
  Fs.mkdirSync(Path.dirname(lock), { recursive: true })
  const deadline = Date.now() + 120_000
  while (true) {
    try {
      Fs.mkdirSync(lock)
      break
    } catch {
      // A lock left by a killed run is older than any real build.
      const age = Date.now() - (Fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 120_000) Fs.rmSync(lock, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`waited 2 minutes for ${lock}`)
      sleep(100)
    }
  }
  try {
    try {
      tsc(["-b", "packages/ocr-onnx/tsconfig.build.json"])
    } catch (error) {
      tsc(["-p", "packages/ocr-onnx/tsconfig.build.json"])
      console.warn(`tsc -b failed outside packages/ocr-onnx; compiled it alone:\n${outputOf(error)}`)
    }
  } catch (error) {
    throw new Error(`building packages/ocr-onnx/dist for the worker threads failed:\n${outputOf(error)}`)
  } finally {
    Fs.rmSync(lock, { recursive: true, force: true })
  }
}
