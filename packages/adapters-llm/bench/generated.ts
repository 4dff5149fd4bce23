/**
 * The generated set as benchmark entries: each document's PDF (read from its text layer); for the first
 * `ocrPerLanguage` documents of each language in each half, its page rasterised at 200 DPI (greyscale, turned
 * slightly) for OCR; and for the first `scanPerLanguage`, its page as a worn scan (`scan`: faded, blurred, grainy,
 * a JPEG) for OCR. The truth comes from the generator.
 */
import type { Entry } from "./datasets.js"
import { type GeneratedDocument, generate, LANGUAGES, pdf, raster, scan } from "./generator/index.js"
import { seeded } from "./generator/random.js"
import type { Truth } from "./truth.js"

const truthOf = (document: GeneratedDocument): Record<string, Truth> => ({
  // The generator printed them: an OCR misreading does not make them absent.
  issuer: { kind: "name", text: document.truth.issuer, printed: true },
  address: { kind: "name", text: document.truth.address, printed: true },
  number:
    document.truth.number === null
      ? { kind: "none" }
      : { kind: "number", accept: [document.truth.number], printed: true },
  date: { kind: "date", iso: document.truth.date },
  total: { kind: "amount", value: document.truth.total },
  items: { kind: "items", lines: document.truth.items }
})

/** The generated entries: `perLanguage` documents per language, and the OCR and scanned subsets. */
export const generatedSet = (options: {
  readonly perLanguage: number
  readonly ocrPerLanguage: number
  readonly scanPerLanguage: number
  readonly seed: number
}): {
  readonly text: ReadonlyArray<Entry>
  readonly ocr: ReadonlyArray<Entry>
  readonly scanned: ReadonlyArray<Entry>
} => {
  const documents = generate(options.perLanguage * LANGUAGES.length, options.seed)
  const text = documents.map((d) => ({ id: d.id, truth: truthOf(d), bytes: pdf(d.page) }))
  const half = Math.ceil(documents.length / 2)
  // An image subset takes documents from both halves alike: the first ones of each half, by index.
  const subset = (perLanguage: number, image: (d: GeneratedDocument, bytes: Uint8Array) => Uint8Array) => {
    const perHalf = Math.ceil(perLanguage / 2)
    const chosen = [
      ...documents.slice(0, perHalf * LANGUAGES.length),
      ...documents.slice(half, half + (perLanguage - perHalf) * LANGUAGES.length)
    ]
    return chosen.map((d) => ({
      id: d.id,
      truth: truthOf(d),
      bytes: image(d, text[d.index]?.bytes ?? pdf(d.page)),
      half: d.index < half ? ("first" as const) : ("second" as const)
    })) satisfies ReadonlyArray<Entry>
  }
  const ocr = subset(options.ocrPerLanguage, (d, bytes) => raster(bytes, 200, d.index % 2 === 0 ? 0.3 : -0.2))
  // The scan's wear draws from a stream of its own, so that it does not change the documents.
  const scanned = subset(options.scanPerLanguage, (d, bytes) =>
    scan(bytes, seeded(options.seed * 1_000_003 + d.index + 0x2545f491))
  )
  return { text, ocr, scanned }
}
