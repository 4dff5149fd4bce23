/**
 * Language decision benchmark (`src/internal/ocr/language.ts`), on ground-truth texts, no OCR: how often the
 * function-word profiles tell a page's language, and how often they tell one line's, on English (FUNSD, 119 forms;
 * SROIE, 30 receipts), Spanish (the rendered pages of `spanish.pages.ts`; the text layers of invoices-ar and
 * receipts-es) and German (receipts-de: AWS Textract's lines, machine OCR, the only text that comes with them).
 * Lines are the truth boxes in one reading order (`canonicalText`).
 *
 * Printed per set, for the page and for the line as the unit: the share decided as exactly the set's language, as
 * languages that include it, undecided (no language: the lexicon then rules the marks), and wrong (languages
 * without it: marks of another language allowed, or the set's own removed). Skips a set whose folder is absent.
 * Run: `npx vitest run --config vitest.bench.config.ts bench/language.run.ts` in `packages/ocr-onnx`.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"
import { it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { decideLanguages, type Language, profileWords } from "../src/internal/ocr/language.js"
import { dataRoot, funsd, sroie } from "./datasets.js"
import { type Boxed, canonicalText } from "./metrics.js"
import { pdfPage, spanishPages, truthWords } from "./spanish.pages.js"

const log = (line: string) => process.stdout.write(`${line}\n`)

interface TextSet {
  readonly name: string
  readonly language: Language
  /** Each page's lines. */
  readonly pages: ReadonlyArray<ReadonlyArray<string>>
}

const linesOf = (boxes: ReadonlyArray<Boxed>): Array<string> => canonicalText(boxes).split("\n")

const Blocks = Schema.Array(Schema.Struct({ BlockType: Schema.String, Text: Schema.optionalKey(Schema.String) }))
const decodeBlocks = Schema.decodeUnknownSync(Schema.fromJsonString(Blocks))

const pdfSet = (folder: string): Array<ReadonlyArray<string>> => {
  const dir = Path.join(dataRoot, folder)
  if (!Fs.existsSync(dir)) return []
  return Fs.readdirSync(dir)
    .filter((name) => name.endsWith(".pdf"))
    .sort()
    .map((name) => linesOf(pdfPage(Path.join(dir, name), 72).truth))
}

const sets = (): Array<TextSet> => {
  const out: Array<TextSet> = []
  if (Fs.existsSync(Path.join(dataRoot, "funsd")))
    out.push({ name: "FUNSD (119 forms)", language: "en", pages: funsd(119).map((s) => linesOf(s.truth)) })
  if (Fs.existsSync(Path.join(dataRoot, "sroie")))
    out.push({ name: "SROIE (30 receipts)", language: "en", pages: sroie(30).map((s) => linesOf(s.truth)) })
  out.push({
    name: "Spanish rendered pages (12)",
    language: "es",
    pages: spanishPages(4).map((p) => linesOf(truthWords(p)))
  })
  const ar = pdfSet("invoices-ar")
  if (ar.length > 0) out.push({ name: `invoices-ar text layers (${ar.length})`, language: "es", pages: ar })
  const es = pdfSet("receipts-es")
  if (es.length > 0) out.push({ name: `receipts-es text layers (${es.length})`, language: "es", pages: es })
  const de = Path.join(dataRoot, "receipts-de")
  if (Fs.existsSync(de)) {
    const pages = Fs.readdirSync(de)
      .filter((name) => name.endsWith(".textract-blocks.json"))
      .sort()
      .map((name) =>
        decodeBlocks(Fs.readFileSync(Path.join(de, name), "utf8")).flatMap((b) =>
          b.BlockType === "LINE" && b.Text !== undefined ? [b.Text] : []
        )
      )
    out.push({ name: `receipts-de Textract lines (${pages.length})`, language: "de", pages })
  }
  return out
}

type Outcome = "exact" | "includes" | "undecided" | "wrong"

const outcome = (decided: ReadonlyArray<Language>, language: Language): Outcome =>
  decided.length === 0
    ? "undecided"
    : !decided.includes(language)
      ? "wrong"
      : decided.length === 1
        ? "exact"
        : "includes"

const shares = (outcomes: ReadonlyArray<Outcome>): Array<string> =>
  (["exact", "includes", "undecided", "wrong"] as const).map(
    (o) => `${((100 * outcomes.filter((x) => x === o).length) / Math.max(1, outcomes.length)).toFixed(1)} %`
  )

it.live(
  "language decision: page against line",
  () =>
    Effect.sync(() => {
      log("| set | unit | count | exactly its language | including it | undecided | wrong |")
      log("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
      for (const set of sets()) {
        const pages = set.pages.map((lines) =>
          outcome(decideLanguages(lines.flatMap(profileWords)).languages, set.language)
        )
        const lines = set.pages.flatMap((page) =>
          page
            .map(profileWords)
            .filter((words) => words.length > 0)
            .map((words) => outcome(decideLanguages(words).languages, set.language))
        )
        log(`| ${set.name} | page | ${pages.length} | ${shares(pages).join(" | ")} |`)
        log(`| ${set.name} | line | ${lines.length} | ${shares(lines).join(" | ")} |`)
      }
    }),
  600_000
)
