/**
 * Typed errors end to end, each followed by a read that succeeds on the same pool (one worker thread, so the next
 * read runs where the failure happened or on its replacement): documents refused for what they are, a page over
 * its time limit, and OCR models that cannot load.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Ports } from "@legible/core"
import { Duration, Effect } from "effect"
import { beforeAll } from "vitest"
import * as OnnxReader from "../../src/OnnxReader.js"
import { buildDist } from "../pool/build.js"
import { invoice, raster, textPdf } from "../support/synthetic.js"
import { encryptedPdf, manyPagesPdf, pixelFlood } from "./documents.js"

beforeAll(buildDist)

const text = textPdf([invoice]).bytes

/** Reads `bad`, expecting `reason`; then reads the text PDF on the same reader. Returns the failure and its time. */
const refusedThenRead = (reader: Ports.DocumentReader["Service"], bad: Uint8Array) =>
  Effect.gen(function* () {
    const [elapsed, error] = yield* Effect.timed(Effect.flip(reader.read(bad)))
    const next = yield* reader.read(text)
    expect(next.pages[0]?.lines[0]?.words[0]?.word).toBe("FACTURA")
    return { error, ms: Duration.toMillis(elapsed) }
  })

describe("OnnxReader errors", () => {
  it.live("refuses what it cannot read with a typed error, and the next read succeeds", () =>
    Effect.gen(function* () {
      const reader = yield* OnnxReader.make({ poolSize: 1 })
      yield* reader.read(text) // the worker is up: the times below are the refusals' own

      const encrypted = yield* refusedThenRead(reader, encryptedPdf())
      expect(encrypted.error.reason).toBe("Encrypted")
      expect(encrypted.error.message).toMatch(/password/)

      const html = yield* refusedThenRead(reader, new TextEncoder().encode("<!doctype html><p>factura</p>"))
      expect(html.error.reason).toBe("UnsupportedType")

      const zip = yield* refusedThenRead(reader, Uint8Array.from([0x50, 0x4b, 0x03, 0x04, ...new Uint8Array(60)]))
      expect(zip.error.reason).toBe("UnsupportedType")

      const corrupt = yield* refusedThenRead(reader, new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Cat"))
      expect(["Corrupt", "NoPages"]).toContain(corrupt.error.reason)

      const flood = yield* refusedThenRead(reader, pixelFlood())
      expect(flood.error.reason).toBe("TooManyPixels")
      expect(flood.error.message).toMatch(/100000 × 100000/)
      expect(flood.ms).toBeLessThan(2_000)

      const many = yield* refusedThenRead(reader, manyPagesPdf(10_000))
      expect(many.error.reason).toBe("TooManyPages")
      expect(many.error.message).toMatch(/10000 pages/)
      expect(many.ms).toBeLessThan(2_000)

      for (const { error } of [encrypted, html, zip, corrupt, flood, many]) expect(error.permanent).toBe(true)
    })
  )

  it.live("fails a page over its time limit with TimeLimit, and the replaced worker reads the next document", () =>
    Effect.gen(function* () {
      // OCR of a page takes over a second here; a text page a few milliseconds.
      const reader = yield* OnnxReader.make({ poolSize: 1, pageTimeLimitMs: 600 })
      const { error } = yield* refusedThenRead(reader, raster(invoice, { format: "png" }).bytes)
      expect(error.reason).toBe("TimeLimit")
      expect(error.message).toMatch(/page 1 took longer than the page time limit \(600 ms\)/)
      expect(error.permanent).toBe(false)
    })
  )

  it.live("fails OCR pages with WorkerFailed when the models cannot load; text pages still read", () =>
    Effect.gen(function* () {
      const reader = yield* OnnxReader.make({ poolSize: 1, models: { recognition: "/nonexistent/rec.onnx" } })
      const { error } = yield* refusedThenRead(reader, raster(invoice, { format: "png", dpi: 100 }).bytes)
      expect(error.reason).toBe("WorkerFailed")
      expect(error.message).toMatch(/the OCR models cannot be loaded: .*\/nonexistent\/rec\.onnx/)
    })
  )
})
