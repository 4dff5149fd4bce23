/**
 * The generated set as benchmark entries: each document's PDF (read from its text layer), and for the first
 * `ocrPerLanguage` documents of each language in each half, its page rasterised at 200 DPI (greyscale, turned
 * slightly) for OCR. The truth comes from the generator.
 */
import type { Entry } from "./datasets.js"
import { type GeneratedDocument, generate, LANGUAGES, pdf, raster } from "./generator/index.js"
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

/** The generated entries: `perLanguage` documents per language, and the OCR subset. */
export const generatedSet = (options: {
  readonly perLanguage: number
  readonly ocrPerLanguage: number
  readonly seed: number
}): { readonly text: ReadonlyArray<Entry>; readonly ocr: ReadonlyArray<Entry> } => {
  const documents = generate(options.perLanguage * LANGUAGES.length, options.seed)
  const text = documents.map((d) => ({ id: d.id, truth: truthOf(d), bytes: pdf(d.page) }))
  // The OCR subset takes documents from both halves alike: the first ones of each half, by index.
  const half = Math.ceil(documents.length / 2)
  const perHalf = Math.ceil(options.ocrPerLanguage / 2)
  const chosen = [
    ...documents.slice(0, perHalf * LANGUAGES.length),
    ...documents.slice(half, half + (options.ocrPerLanguage - perHalf) * LANGUAGES.length)
  ]
  const ocr = chosen.map((d) => {
    const bytes = text[d.index]?.bytes ?? pdf(d.page)
    const degrees = d.index % 2 === 0 ? 0.3 : -0.2
    return {
      id: d.id,
      truth: truthOf(d),
      bytes: raster(bytes, 200, degrees),
      half: d.index < half ? "first" : "second"
    } as const
  })
  return { text, ocr }
}
