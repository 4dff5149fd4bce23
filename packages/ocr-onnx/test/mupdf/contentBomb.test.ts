import { deflateSync } from "node:zlib"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaultLimits } from "../../src/internal/mupdf/limits.js"
import { MAX_PAGE_CONTENT_BYTES, openDocument, withPage } from "../../src/internal/mupdf/open.js"

/** A one-page PDF whose content stream is `stream` with `filter`, written with an exact xref table. */
const pdfWithContent = (stream: Uint8Array, filter: string): Uint8Array => {
  const head = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Count 1 /Kids [3 0 R] >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>"
  ]
  const parts: Array<Buffer> = [Buffer.from("%PDF-1.7\n", "latin1")]
  const offsets: Array<number> = []
  let length = parts[0]!.length
  const push = (b: Buffer) => {
    parts.push(b)
    length += b.length
  }
  head.forEach((object, i) => {
    offsets.push(length)
    push(Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`, "latin1"))
  })
  offsets.push(length)
  push(Buffer.from(`4 0 obj\n<< /Length ${stream.length} ${filter} >>\nstream\n`, "latin1"))
  push(Buffer.from(stream))
  push(Buffer.from("\nendstream\nendobj\n", "latin1"))
  const xref = length
  push(
    Buffer.from(
      `xref\n0 5\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}` +
        `trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
      "latin1"
    )
  )
  return new Uint8Array(Buffer.concat(parts))
}

const loadFirstPage = (bytes: Uint8Array) =>
  Effect.scoped(
    Effect.flatMap(openDocument(bytes, defaultLimits), (opened) =>
      withPage(opened, 0, (page) => Effect.sync(() => page.getBounds()))
    )
  )

describe("withPage: content decompression bombs", () => {
  it.effect("a page whose Flate content inflates past the cap is Corrupt in well under a second, before parsing", () =>
    Effect.gen(function* () {
      const zeros = Buffer.alloc(MAX_PAGE_CONTENT_BYTES + 16 * 1024 * 1024)
      const bomb = pdfWithContent(deflateSync(zeros, { level: 9 }), "/Filter /FlateDecode")
      assert.isBelow(bomb.length, 200_000)
      const started = performance.now()
      const error = yield* Effect.flip(loadFirstPage(bomb))
      assert.strictEqual(error.reason, "Corrupt")
      assert.match(error.message, /page 1: its content inflates beyond 64 MB \(a decompression bomb\)/)
      assert.isBelow(performance.now() - started, 1_000)
    })
  )

  it.effect("nested Flate layers are inflated layer by layer against the same cap", () =>
    Effect.gen(function* () {
      const zeros = Buffer.alloc(MAX_PAGE_CONTENT_BYTES + 1024)
      const twice = deflateSync(deflateSync(zeros, { level: 9 }), { level: 9 })
      const error = yield* Effect.flip(loadFirstPage(pdfWithContent(twice, "/Filter [/FlateDecode /FlateDecode]")))
      assert.match(error.message, /decompression bomb/)
    })
  )

  it.effect(
    "ordinary and damaged Flate content, and unfiltered content, still load (the guard decides only size)",
    () =>
      Effect.gen(function* () {
        const content = Buffer.from("BT /F1 12 Tf 50 800 Td (hola) Tj ET", "latin1")
        const flate = deflateSync(content)
        for (const bytes of [
          pdfWithContent(flate, "/Filter /FlateDecode"),
          pdfWithContent(flate.subarray(0, flate.length - 6), "/Filter /FlateDecode"),
          pdfWithContent(content, "")
        ]) {
          const bounds = yield* loadFirstPage(bytes)
          assert.deepStrictEqual(bounds, [0, 0, 595, 842])
        }
      })
  )
})
