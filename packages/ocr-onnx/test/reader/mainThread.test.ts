/**
 * The reader's main-thread side stays light: importing the package and sniffing an upload (what the HTTP layer does
 * through `DocumentReader.identify`) must not load mupdf, whose WASM belongs in the worker threads.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"
import { beforeAll } from "vitest"
import { buildDist } from "../pool/build.js"

beforeAll(buildDist)

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))
const entry = new URL("../../dist/index.js", import.meta.url).href

// Records every module URL the process resolves, imports the package, identifies a PDF and a PNG, and prints the
// identified types and the resolved URLs as JSON.
const script = `
import { registerHooks } from "node:module"
const resolved = []
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context)
    resolved.push(result.url)
    return result
  }
})
const { Effect } = await import("effect")
const { OnnxReader } = await import(${JSON.stringify(entry)})
const pdf = new TextEncoder().encode("%PDF-1.7\\n1 0 obj << >> endobj\\n%%EOF\\n")
const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
const types = await Effect.runPromise(
  Effect.scoped(
    Effect.gen(function* () {
      const reader = yield* OnnxReader.make({ poolSize: 1 })
      return [yield* reader.identify(pdf), yield* reader.identify(png)]
    })
  )
)
process.stdout.write(JSON.stringify({ types, resolved }))
`

describe("the main thread", () => {
  it("identifies uploads without loading mupdf", () => {
    const out = execFileSync(
      `${repoRoot}node_modules/.bin/node`,
      ["--input-type=module", "--conditions", "node", "-e", script],
      {
        cwd: repoRoot,
        encoding: "utf8",
        timeout: 60_000
      }
    )
    const { types, resolved } = JSON.parse(out) as { types: Array<string>; resolved: Array<string> }
    assert.deepStrictEqual(types, ["application/pdf", "image/png"])
    // The probe works: the package's own modules and file-type were resolved.
    assert.isTrue(resolved.some((url) => url.endsWith("/dist/internal/sniff.js")))
    assert.isTrue(resolved.some((url) => url.includes("/node_modules/file-type/")))
    assert.deepStrictEqual(
      resolved.filter((url) => url.includes("/node_modules/mupdf/") || url.includes("/internal/mupdf/open.js")),
      []
    )
  }, 60_000)
})
