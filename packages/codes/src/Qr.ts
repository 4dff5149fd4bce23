// QR codes drawn and read with zxing-wasm (ZXing-C++ in WebAssembly, MIT). Its default `locateFile` fetches the
// `.wasm` from a CDN at first use; here the binary is read from the installed package instead (`wasmBinary`), so
// nothing is fetched at run time. One module instance serves reads and writes (the `full` build).
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { Effect, Schema } from "effect"
import { prepareZXingModule, type ReadInputBarcodeFormat, readBarcodes, writeBarcode } from "zxing-wasm/full"

/** A greyscale image, one byte a pixel (0 black, 255 white), rows top to bottom. */
export interface GreyImage {
  readonly width: number
  readonly height: number
  readonly pixels: Uint8Array | Uint8ClampedArray
}

/** A code found in an image: its text, its format and its corners in pixels. */
export interface Found {
  readonly text: string
  readonly format: string
  readonly corners: ReadonlyArray<{ readonly x: number; readonly y: number }>
}

/** zxing-wasm failed to load, write or read. */
export class QrError extends Schema.TaggedError<QrError>()("QrError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

export interface RenderOptions {
  /** Pixels per module (4 by default). */
  readonly moduleSize?: number
  /** White modules around the symbol (4, the standard's quiet zone, by default). */
  readonly quietZone?: number
  /** Error correction level; `M` by default, as the EPC and VeriFactu specifications ask. */
  readonly ecLevel?: "L" | "M" | "Q" | "H"
}

// Set once, before the first read or write: zxing-wasm keeps one module instance per process, and the overrides must
// be in place before it is created. Idempotent, so concurrent first calls are harmless.
let prepared = false
const prepare = (): void => {
  if (prepared) return
  const path = createRequire(import.meta.url).resolve("zxing-wasm/full/zxing_full.wasm")
  const file = readFileSync(path)
  prepareZXingModule({
    overrides: { wasmBinary: file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer }
  })
  prepared = true
}

const attempt = <A>(message: string, run: () => Promise<A>) =>
  Effect.tryPromise({
    try: () => {
      prepare()
      return run()
    },
    catch: (cause) =>
      new QrError({ message: `${message}: ${cause instanceof Error ? cause.message : String(cause)}`, cause })
  })

/** The QR symbol of a text as a greyscale image, `moduleSize` pixels a module, with its quiet zone. */
export const render = Effect.fn("Qr.render")(function* (text: string, options: RenderOptions = {}) {
  const written = yield* attempt("QR write", () =>
    writeBarcode(text, { format: "QRCode", options: `ecLevel=${options.ecLevel ?? "M"}`, addQuietZones: false })
  )
  if (written.error !== "") return yield* new QrError({ message: `QR write: ${written.error}` })
  const { data, width: modules, height } = written.symbol
  const scale = options.moduleSize ?? 4
  const quiet = options.quietZone ?? 4
  const side = (modules + 2 * quiet) * scale
  const pixels = new Uint8Array(side * side).fill(255)
  for (let row = 0; row < height; row++)
    for (let column = 0; column < modules; column++) {
      if ((data[row * modules + column] ?? 255) >= 128) continue
      for (let y = 0; y < scale; y++) {
        const start = ((row + quiet) * scale + y) * side + (column + quiet) * scale
        pixels.fill(0, start, start + scale)
      }
    }
  return { width: side, height: side, pixels } satisfies GreyImage
})

/** The codes zxing finds in a greyscale image (every format it reads unless `formats` narrows them, e.g. `["QRCode"]`). */
export const read = Effect.fn("Qr.read")(function* (
  image: GreyImage,
  formats: ReadonlyArray<ReadInputBarcodeFormat> = []
) {
  const rgba = new Uint8ClampedArray(image.width * image.height * 4)
  for (let index = 0; index < image.width * image.height; index++) {
    const value = image.pixels[index] ?? 255
    rgba[4 * index] = value
    rgba[4 * index + 1] = value
    rgba[4 * index + 2] = value
    rgba[4 * index + 3] = 255
  }
  const results = yield* attempt("QR read", () =>
    readBarcodes(
      { data: rgba, width: image.width, height: image.height, colorSpace: "srgb" },
      { formats: [...formats] }
    )
  )
  return results
    .filter((result) => result.isValid)
    .map(
      (result): Found => ({
        text: result.text,
        format: result.format,
        corners: [
          result.position.topLeft,
          result.position.topRight,
          result.position.bottomRight,
          result.position.bottomLeft
        ]
      })
    )
})
