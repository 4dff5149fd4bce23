/** The ranges of the reader's options, in one place: `OnnxReader` checks them, the wire schema and the server too. */
import { Schema } from "effect"
import { detScaleRange } from "./ocr/config.js"

/** Worker threads: 1 to 256. */
export const PoolSize = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 256 }))
/** Pages per document: 1 to 100,000. */
export const MaxPages = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100_000 }))
/** The recognizer's arithmetic. */
export const Precision = Schema.Literals(["auto", "float32", "int8"])
/** A language with a built-in word list that checks the recognizer's marks. */
export const LexiconLanguage = Schema.Literals(["es", "en", "pt", "fr", "it", "de", "nl"])
/**
 * The word lists used when none are named: all of them, each loaded by a worker on the first page that needs it
 * (Italian's is ≈130 MB, held only by a worker that read an Italian page; MEASUREMENTS.md, "Lexicon").
 */
export const defaultLexicon = ["es", "en", "pt", "fr", "it", "de", "nl"] as const satisfies ReadonlyArray<
  typeof LexiconLanguage.Type
>
/** The text detector's input size relative to the page render. */
export const DetectionScale = Schema.Finite.check(Schema.isBetween(detScaleRange))
