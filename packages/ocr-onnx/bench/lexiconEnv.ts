/** The benchmarks' word-list option: a variable such as `SPANISH_BENCH_LEXICON` naming the reader's `lexicon`. */
import type { LexiconLanguage } from "../src/internal/ocr/lexicon.js"

// Spelled out, not imported: the engine processes run this file under plain Node, beside the built reader.
const lexiconLanguages = ["es", "en", "pt", "fr", "it", "de", "nl"] as const satisfies ReadonlyArray<LexiconLanguage>

/**
 * A list of languages as written in a variable: comma-separated codes (`es,en`), or `none` (or nothing) for no
 * lexicon; undefined when a code is not one of `es`, `en`, `pt`, `fr`, `it`, `de`, `nl`.
 */
export const parseLexicon = (text: string): ReadonlyArray<LexiconLanguage> | undefined => {
  const codes = text.split(",").map((code) => code.trim().toLowerCase())
  if (codes.length === 1 && (codes[0] === "none" || codes[0] === "")) return []
  return codes.every((code) => lexiconLanguages.some((language) => language === code))
    ? lexiconLanguages.filter((language) => codes.includes(language))
    : undefined
}

/** The languages a variable names (`parseLexicon`), undefined when unset; a value that is not a list is an error. */
export const lexiconFromEnv = (name: string): ReadonlyArray<LexiconLanguage> | undefined => {
  const raw = process.env[name]
  if (raw === undefined) return undefined
  const languages = parseLexicon(raw)
  if (languages === undefined)
    throw new Error(`${name} must be none or a comma-separated list of ${lexiconLanguages.join(", ")}`)
  return languages
}
