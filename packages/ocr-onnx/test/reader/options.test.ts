/**
 * The reader's options: documented defaults, overrides, model paths passed through, and `layerConfig` reading them
 * from a `ConfigProvider` (no environment variables are read by the package itself).
 */
import { describe, expect, it } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Config, ConfigProvider, Effect, Layer } from "effect"
import { beforeAll } from "vitest"
import * as OnnxReader from "../../src/OnnxReader.js"
import { buildDist } from "../pool/build.js"
import { imagePdf, invoice, textPdf } from "../support/synthetic.js"

beforeAll(buildDist)

describe("OnnxReader options", () => {
  it("has the documented defaults", () => {
    const settings = OnnxReader.settings({ poolSize: 2 })
    expect(settings).toMatchObject({
      poolSize: 2,
      queueCapacity: 16,
      pageTimeLimitMs: 60_000,
      documentTimeLimitMs: 600_000,
      pagesPerWorker: 200,
      workerMemoryMb: 1_536,
      rssLimitMb: 1_536 * 2 + 1_024,
      maxHeapMb: 512,
      cancelGraceMs: 5_000,
      models: {}
    })
    expect(settings.limits).toMatchObject({ maxPages: 500, maxImagePixels: 100_000_000 })
  })

  it("applies overrides and keeps only the model paths given", () => {
    const settings = OnnxReader.settings({
      poolSize: 3,
      maxPages: 20,
      maxPixels: 1_000_000,
      pagesPerWorker: 5,
      models: { recognition: "/models/rec.onnx", dictionary: "/models/keys.txt", detection: undefined }
    })
    expect(settings.poolSize).toBe(3)
    expect(settings.rssLimitMb).toBe(1_536 * 3 + 1_024)
    expect(settings.limits).toMatchObject({ maxPages: 20, maxImagePixels: 1_000_000 })
    expect(settings.pagesPerWorker).toBe(5)
    expect(settings.models).toEqual({ recognition: "/models/rec.onnx", dictionary: "/models/keys.txt" })
  })

  it("refuses a detection scale no reader can run with", () => {
    for (const detectionScale of [0.2, 1.5, Number.NaN]) {
      expect(() => OnnxReader.settings({ models: { detectionScale } })).toThrow(RangeError)
    }
    expect(OnnxReader.settings({ models: { detectionScale: 0.75 } }).models).toEqual({ detectionScale: 0.75 })
  })

  it.live(
    "detects at the scale given: 5 pt print that the default's 100 DPI detection cannot see is read at 0.75",
    () =>
      Effect.gen(function* () {
        const footer = "Esta Administración Federal no se responsabiliza por los datos ingresados"
        const page = {
          width: 595,
          height: 300,
          runs: [
            { text: "Factura de servicios profesionales", x: 40, y: 60, size: 12 },
            { text: footer, x: 40, y: 200, size: 5 }
          ]
        }
        const bytes = imagePdf([page])
        const read = (detectionScale?: number) =>
          Effect.scoped(
            Effect.gen(function* () {
              const reader = yield* OnnxReader.make({ poolSize: 1, models: { detectionScale } })
              const document = yield* reader.read(bytes)
              return document.pages[0]!.lines.map((line) => line.words.map((w) => w.word).join(" "))
            })
          )
        expect(yield* read()).toEqual(["Factura de servicios profesionales"])
        expect(yield* read(0.75)).toEqual(["Factura de servicios profesionales", footer])
      })
  )

  it.live("builds the layer from Config", () =>
    Effect.gen(function* () {
      const layer = OnnxReader.layerConfig({
        poolSize: Config.Int("WORKERS"),
        maxPages: Config.Int("MAX_PAGES")
      }).pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ WORKERS: "1", MAX_PAGES: "1" }))))
      const outcome = yield* Effect.gen(function* () {
        const reader = yield* Ports.DocumentReader
        const one = yield* reader.read(textPdf([invoice]).bytes)
        const two = yield* Effect.flip(reader.read(textPdf([invoice, invoice]).bytes))
        return { pages: one.numPages, refused: two.reason }
      }).pipe(Effect.provide(layer))
      expect(outcome).toEqual({ pages: 1, refused: "TooManyPages" })
    })
  )
})
