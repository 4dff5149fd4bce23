/**
 * Marks read by OCR on the generated documents, per language: of the words read whose letters (marks taken off)
 * are those of a word the document prints, the share whose marks differ from every printed word's ("Consultoría"
 * for "Consultoria", "PAO" for "PÃO"). Other misreadings are left to the character error rate: a word read with
 * other letters is not counted. The printed words are the document's text layer, the same page before rendering.
 */
import type { Entry } from "./datasets.js"
import type { ReadResult } from "./ocr.js"
import { type Half, halves, verboseHalves } from "./report.js"
import { documentOf } from "./sets.js"

const bare = (word: string): string => word.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC")

const wordsOf = (text: string): Array<string> =>
  (
    text
      .normalize("NFC")
      .toLowerCase()
      .match(/\p{L}+/gu) ?? []
  ).filter((w) => w.length >= 2)

/** Words compared and words whose marks differ (`read → printed`), of one read text against the printed one. */
export const markCounts = (
  printed: string,
  read: string
): { readonly compared: number; readonly differ: number; readonly words: ReadonlyArray<string> } => {
  const forms = new Map<string, Set<string>>()
  for (const word of wordsOf(printed)) forms.set(bare(word), (forms.get(bare(word)) ?? new Set()).add(word))
  let compared = 0
  const words: Array<string> = []
  for (const word of wordsOf(read)) {
    const known = forms.get(bare(word))
    if (known === undefined) continue
    compared++
    if (!known.has(word)) words.push(`${word} → ${[...known].join(" | ")}`)
  }
  return { compared, differ: words.length, words }
}

/**
 * The table of marks per language and half (`BENCH_HALF=first`: the first half alone), as lines, of one set read by
 * OCR (`ocr`, titled `title`) against the same documents' text layers (`text`); with `BENCH_VERBOSE`, the words
 * whose marks differ, as the misses are.
 */
export const markTable = async (
  title: string,
  text: ReadonlyArray<Entry>,
  ocr: ReadonlyArray<Entry>,
  read: (bytes: Uint8Array) => Promise<ReadResult>
): Promise<ReadonlyArray<string>> => {
  const printed = new Map(text.map((e) => [e.id, e]))
  const counts = new Map<string, { compared: number; differ: number; docs: number }>()
  const listed: Array<string> = []
  for (const [entry, place] of halves(ocr)) {
    const half: Half = entry.half ?? place
    if (process.env.BENCH_HALF === "first" && half !== "first") continue
    const source = printed.get(entry.id)
    const language = /^gen-\d+-([a-z]+)-/.exec(entry.id)?.[1]
    if (source === undefined || language === undefined) continue
    const [truth, seen] = [await documentOf(source, read), await documentOf(entry, read)]
    if (typeof truth === "string" || typeof seen === "string") continue
    const { compared, differ, words } = markCounts(truth.fullText, seen.fullText)
    if (verboseHalves().includes(half)) for (const word of words) listed.push(`  marks [${half}] ${entry.id}: ${word}`)
    const key = `${language} ${half}`
    const sum = counts.get(key) ?? { compared: 0, differ: 0, docs: 0 }
    counts.set(key, { compared: sum.compared + compared, differ: sum.differ + differ, docs: sum.docs + 1 })
  }
  const rows = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return [
    `\n${title}: words whose marks differ from the printed word's`,
    "| language, half | documents | words compared | marks differ |",
    "| --- | ---: | ---: | ---: |",
    ...rows.map(
      ([key, c]) =>
        `| ${key} | ${c.docs} | ${c.compared} | ${((100 * c.differ) / Math.max(1, c.compared)).toFixed(2)} % (${c.differ}) |`
    ),
    ...listed
  ]
}
