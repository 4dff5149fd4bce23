/**
 * The seeded generator of invoices and receipts in es, en, de, fr, it, pt and nl. Document `i` is in language
 * `i mod 7` and is an invoice or a receipt by turns, so that any run of consecutive indices (each half of the set)
 * holds every language and both kinds. Its vocabulary is its own: it imports nothing of the extractor.
 */
import { invoice } from "./invoice.js"
import type { GeneratedDocument } from "./page.js"
import { seeded } from "./random.js"
import { receipt } from "./receipt.js"
import { LANGUAGES, VOCABULARY } from "./vocabulary.js"

export type { GeneratedDocument, GeneratedLine, GeneratedTruth } from "./page.js"
export { pdf, raster, scan } from "./render.js"
export { LANGUAGES } from "./vocabulary.js"

/** `count` documents from `seed`; the same arguments give the same documents. */
export const generate = (count: number, seed: number): ReadonlyArray<GeneratedDocument> =>
  Array.from({ length: count }, (_, index) => {
    const language = LANGUAGES[index % LANGUAGES.length] ?? "es"
    // Each document draws from its own stream, so that changing one layout does not reshuffle the others.
    const random = seeded(seed * 1_000_003 + index)
    const kind = Math.floor(index / LANGUAGES.length) % 2 === 0 ? "invoice" : "receipt"
    return kind === "invoice"
      ? invoice(random, VOCABULARY[language], language, index, seeded(seed * 1_000_003 + index + 0x5bd1e995))
      : receipt(random, VOCABULARY[language], language, index, seeded(seed * 1_000_003 + index + 0x27d4eb2f))
  })
