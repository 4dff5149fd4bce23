/**
 * Calibration of the confidence: every labelled set of the extractor benchmark (`sets.ts`) is read and extracted
 * with the `local` extractor and finished as processing finishes it (`Processing.finish`: grounding, parsing,
 * checks, the document's sums, confidence); each non-empty top-level value is judged right or wrong against the
 * truth (`truth.ts`). The confidence model is fitted (`Confidence.fit`) on the first half of every set and judged on
 * the second: a reliability table (10 bins: mean confidence, share right, count), the expected calibration error, and
 * the review trade-off — the lowest threshold at which the accepted values are at least 98 % right, and the share
 * of values it sends to review.
 *
 * Run: `npm run bench:confidence -w @legible/adapters-llm`; the options of `local.run.ts` apply (`LEGIBLE_DATA`,
 * `BENCH_OCR=0`, `BENCH_CACHE=0`, `BENCH_GENERATED…`, `BENCH_HALF=first`). `CONFIDENCE_WRITE=1` also writes the fitted model to
 * `packages/core/src/internal/confidenceModel.ts` and the samples it was fitted on (signals and verdicts, no
 * document text; one JSON object per line) to `bench/confidence.samples.jsonl`, from which `CONFIDENCE_REFIT=1` refits without reading anything.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { it } from "@effect/vitest"
import { type Catalog, CatalogMatch, Confidence, Processing, type Skill } from "@legible/core"
import * as Local from "../src/Local.js"
import { DATA, type Entry } from "./datasets.js"
import { cachedReader, ocrEnabled, type ReadResult } from "./ocr.js"
import { halves } from "./report.js"
import { decimalSeparatorOf, name } from "./scoring.js"
import { type BenchSet, documentOf, generatedSets, SETS } from "./sets.js"
import { judge, type Truth } from "./truth.js"

const log = (line: string) => process.stdout.write(`${line}\n`)

const SAMPLES = join(import.meta.dirname, "confidence.samples.jsonl")
const MODEL = join(import.meta.dirname, "..", "..", "core", "src", "internal", "confidenceModel.ts")

/** One judged value: where it came from, its signals and whether it was right. */
interface Sample extends Confidence.Sample {
  readonly set: string
  readonly half: "first" | "second"
  readonly field: string
}

const usage = { tokens_consumidos: 0, prompt_tokens: 0, response_tokens: 0, duration: 0, model: Local.MODEL }

/**
 * A catalog of the names a set's documents are issued by (each document's truth, both halves: a client's catalog
 * of suppliers or shops lists them all), for the catalog values' samples.
 */
const catalogOf = (entries: ReadonlyArray<Entry>, key: string): ReadonlyArray<Catalog.CatalogRecord> => {
  const names = new Set<string>()
  for (const entry of entries) {
    const truth = entry.truth[key]
    if (truth?.kind === "name") names.add(truth.text)
  }
  return [...names].map((nombre, i) => ({ id: `r${i}`, values: { nombre } }))
}

/**
 * A catalog value's sample: the extracted name matched (`aproximada`, the default threshold) against the set's
 * catalog; right when the record found is the document's issuer. `undefined` when nothing was matched.
 */
const catalogSample = (
  literal: string,
  truth: Truth,
  records: ReadonlyArray<Catalog.CatalogRecord>,
  certainty: number | undefined
): Pick<Sample, "signals" | "right"> | undefined => {
  if (truth.kind !== "name") return undefined
  const decision = CatalogMatch.decideApproximate(
    CatalogMatch.prepare(["nombre"], { nombre: literal }),
    records,
    ["nombre"],
    CatalogMatch.DEFAULT_THRESHOLD
  )
  if (decision.record === undefined) return undefined
  const margin = decision.runnerUp === undefined ? 1 : decision.score - decision.runnerUp
  return {
    signals: { grounding: 1, certainty, parsed: true, catalog: { score: decision.score, margin } },
    right: name(decision.record.values.nombre ?? "") === name(truth.text)
  }
}

/** Reads, extracts, finishes and judges a set's documents: one sample per non-empty scored value. */
const samplesOf = async (
  set: BenchSet,
  entries: ReadonlyArray<Entry>,
  read: (bytes: Uint8Array) => Promise<ReadResult>
): Promise<ReadonlyArray<Sample>> => {
  const ordered = set.ordered === true ? entries : [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  // Every field is extracted (line items take part in the document's sums); the top-level values are judged.
  const fields = set.fields.filter(([, f]) => !f.isList)
  const skill: Pick<Skill.Skill, "fields" | "instructions"> = { fields: set.fields.map(([, f]) => f), instructions: "" }
  const out: Array<Sample> = []
  const catalogs = new Map(fields.map(([key]) => [key, catalogOf(entries, key)]))
  for (const [entry, place] of halves(ordered)) {
    const document = await documentOf(entry, read)
    if (typeof document === "string") continue
    const { values, certainty } = Local.extract(skill.fields, document)
    const { assessed } = Processing.finish({
      skill,
      document,
      extracted: { values, usage, certainty },
      catalog: new Map(),
      today: new Date().toISOString().slice(0, 10)
    })
    const context = { text: document.fullText, decimal: decimalSeparatorOf(document.fullText) }
    for (const [key, field] of fields) {
      const truth = entry.truth[key]
      const value = assessed.find((a) => a.path === field.name)
      if (truth === undefined || value?.signals === undefined) continue
      const judged = judge(truth, values[field.name], context, entry.referenceText ?? document.fullText)
      out.push({
        set: set.title,
        half: entry.half ?? place,
        field: key,
        signals: value.signals,
        right: judged.right === 1
      })
      // The same name as a catalog field would match it: a catalog value's sample (score, margin, certainty).
      const records = catalogs.get(key) ?? []
      const literal = values[field.name]
      const matched =
        records.length < 2 || typeof literal !== "string"
          ? undefined
          : catalogSample(literal, truth, records, certainty.get(literal.trim()))
      if (matched !== undefined)
        out.push({ set: set.title, half: entry.half ?? place, field: `catalog:${key}`, ...matched })
    }
  }
  return out
}

const collect = async (): Promise<ReadonlyArray<Sample>> => {
  const reader = cachedReader()
  const ocr = ocrEnabled()
  const samples: Array<Sample> = []
  try {
    for (const set of SETS) {
      const entries = set.entries()
      if (entries === undefined) log(`${set.title}: skipped, ${DATA}/${set.folder} not found`)
      else if (set.ocr !== true || ocr) samples.push(...(await samplesOf(set, entries, reader.read)))
    }
    for (const [set, entries] of generatedSets(ocr)) samples.push(...(await samplesOf(set, entries, reader.read)))
  } finally {
    await reader.close()
  }
  return samples
}

/** The reliability table, the expected calibration error and the review trade-off of predictions. */
const evaluate = (title: string, predictions: ReadonlyArray<{ readonly p: number; readonly right: boolean }>) => {
  log(`\n${title}: ${predictions.length} values, ${predictions.filter((x) => x.right).length} right`)
  log("  bin        mean conf.  share right  count")
  let ece = 0
  for (let bin = 0; bin < 10; bin++) {
    const inBin = predictions.filter((x) => Math.min(9, Math.floor(x.p * 10)) === bin)
    if (inBin.length === 0) continue
    const mean = inBin.reduce((s, x) => s + x.p, 0) / inBin.length
    const share = inBin.filter((x) => x.right).length / inBin.length
    ece += (inBin.length / predictions.length) * Math.abs(mean - share)
    log(
      `  ${(bin / 10).toFixed(1)}–${((bin + 1) / 10).toFixed(1)}    ${mean.toFixed(3).padStart(6)}      ${share.toFixed(3).padStart(6)}    ${String(inBin.length).padStart(5)}`
    )
  }
  log(`  expected calibration error (10 bins): ${ece.toFixed(3)}`)
  // The lowest threshold whose accepted values (confidence ≥ it) are at least 98 % right.
  const sorted = [...predictions].sort((a, b) => b.p - a.p)
  let best: { threshold: number; accepted: number; right: number } | undefined
  let right = 0
  sorted.forEach((x, i) => {
    right += x.right ? 1 : 0
    const next = sorted[i + 1]
    if (next !== undefined && next.p === x.p) return
    if (right / (i + 1) >= 0.98) best = { threshold: x.p, accepted: i + 1, right }
  })
  if (best === undefined) log("  review: no threshold accepts values 98 % right")
  else
    log(
      `  review at threshold ${best.threshold.toFixed(3)}: ${best.accepted} accepted (${((100 * best.right) / best.accepted).toFixed(1)} % right), ${predictions.length - best.accepted} sent to review (${((100 * (predictions.length - best.accepted)) / predictions.length).toFixed(1)} %)`
    )
  return ece
}

const modelSource = (model: Confidence.Model, samples: number): string =>
  `/**
 * The confidence model shipped with legible, fitted by the calibration benchmark
 * (\`CONFIDENCE_WRITE=1 npm run bench:confidence -w @legible/adapters-llm\`) on the first half of every labelled set
 * (${samples} values; figures in \`packages/adapters-llm/MEASUREMENTS.md\`; the samples are kept in
 * \`packages/adapters-llm/bench/confidence.samples.jsonl\`). Generated: do
 * not edit by hand.
 */
import type { Model } from "../Confidence.js"

/** The fitted intercept and weights (\`Confidence.FEATURES\`). */
export const fitted: Model = ${JSON.stringify(
    {
      intercept: Number(model.intercept.toFixed(4)),
      weights: Object.fromEntries(Object.entries(model.weights).map(([k, v]) => [k, Number(v.toFixed(4))]))
    },
    null,
    2
  ).replace(/"(\w+)":/g, "$1:")}
`

it("confidence calibration", { timeout: 3_600_000 }, async () => {
  const samples: ReadonlyArray<Sample> =
    process.env.CONFIDENCE_REFIT === "1"
      ? readFileSync(SAMPLES, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Sample)
      : await collect()
  const first = samples.filter((s) => s.half === "first")
  const second = samples.filter((s) => s.half === "second")
  // Every set weighs the same in the fit, so the generated set's hundreds of documents do not drown the real ones.
  const sets = [...new Set(first.map((s) => s.set))]
  const sizes = new Map(sets.map((set) => [set, first.filter((s) => s.set === set).length]))
  const model = Confidence.fit(
    first.map((s) => ({ ...s, weight: first.length / (sets.length * (sizes.get(s.set) ?? 1)) }))
  )
  log(
    `\nfitted on ${first.length} values of the first halves (${sets.length} sets, each weighing the same): ${JSON.stringify(model)}`
  )
  const predict = (set: ReadonlyArray<Sample>) =>
    set.map((s) => ({ p: Confidence.assess(model, s.signals).confidence, right: s.right }))
  evaluate("first half (fitted on)", predict(first))
  if (process.env.CONFIDENCE_WRITE === "1") {
    writeFileSync(SAMPLES, samples.map((s) => `${JSON.stringify(s)}\n`).join(""))
    writeFileSync(MODEL, modelSource(model, first.length))
    log(`\nwrote ${MODEL} and ${SAMPLES}`)
  } // While the rules are tuned (`BENCH_HALF=first`), the held-out figures stay unseen.
  if (process.env.BENCH_HALF === "first") return
  evaluate("second half (held out)", predict(second))
  evaluate("second half (held out), real documents only", predict(second.filter((s) => !s.set.startsWith("generated"))))
  evaluate(
    "second half (held out), real documents, simple values only",
    predict(second.filter((s) => !s.set.startsWith("generated") && !s.field.startsWith("catalog:")))
  )
  evaluate("second half (held out), catalog values only", predict(second.filter((s) => s.field.startsWith("catalog:"))))
  for (const set of [...new Set(samples.map((s) => s.set))]) {
    const held = second.filter((s) => s.set === set)
    if (held.length > 0) evaluate(`  held out, ${set}`, predict(held))
  }
})
