/**
 * Chooses the merge of `merge.ts` on lines the benchmarks do not score: `node src/tune.ts [--alpha 0,1 …]`.
 *
 * Sets (cached in `--cache`, made when absent): the 600 held-out synthetic lines of `train:rec` (seed 20261122 +
 * 1000, `generate.ts`); line crops (`realLines.ts`) of Spanish pages 2–5 of each kind of the Spanish benchmark's
 * generator (it scores pages 0 and 1) in its three conditions; real English ones from SROIE receipts 11–30 and FUNSD
 * forms 31–60 in name order (the benchmarks read the first 10 of each; the OCR benchmark at its default 30 also
 * SROIE 11–30). Every combination of the comma-separated options is scored the way the reader decodes
 * (`lineScore.ts`) and printed as one row: CER and special-character recall on the synthetic lines, CER and stray
 * non-ASCII characters on the English ones.
 */
import { parseArgs } from "node:util"
import { stringOptions } from "./args.ts"
import { baseClasses, expertColumns, groupBias } from "./experts.ts"
import { logits } from "./head.ts"
import { loadTuneData, scoreMerge, tuneDataOptions } from "./tuneSets.ts"

const { values } = parseArgs({
  options: {
    ...tuneDataOptions,
    ...stringOptions({
      alpha: "0,0.5,1,2",
      marks: "base,abstain",
      lower: "0,0.5,1,1.5",
      upper: "0,0.5,1,1.5",
      symbols: "0,0.5",
      "space-prob": "0.1"
    })
  }
})
const list = (s: string) => s.split(",").map(Number)
const log = (line: string) => process.stdout.write(`${line}\n`)

const { labels, chineseLabels, latin, chinese, sets } = await loadTuneData({
  trained: values.trained,
  cache: values.cache,
  seed: Number(values.seed),
  log
})
log(`sets: ${sets.map((s) => `${s.name} ${s.samples.length} lines`).join(", ")}`)

const pct = (x: number) => (x * 100).toFixed(2)
log(
  "marks α lower upper symbols spaceProb | synthetic CER special | Spanish pages CER special | SROIE CER stray | " +
    "FUNSD CER stray"
)
for (const marks of values.marks.split(",")) {
  if (marks !== "base" && marks !== "abstain") throw new Error("--marks is base, abstain or both")
  const columns = expertColumns(chinese, latin, baseClasses(labels, chineseLabels, marks))
  const votes = sets.map((set) => set.samples.map((s) => logits(columns, s.features, s.t)))
  for (const alpha of list(values.alpha))
    for (const lower of list(values.lower))
      for (const upper of list(values.upper))
        for (const symbols of list(values.symbols))
          for (const spaceProb of list(values["space-prob"])) {
            const bias = groupBias(labels, { lower, upper, symbols })
            const [syn, es, sroie, funsd] = sets.map((set, k) =>
              scoreMerge(set, labels, votes[k]!, alpha, bias, spaceProb)
            )
            log(
              `${marks} ${alpha} ${lower} ${upper} ${symbols} ${spaceProb} | ${pct(syn!.cer)} ${pct(syn!.special)} | ` +
                `${pct(es!.cer)} ${pct(es!.special)} | ${pct(sroie!.cer)} ${sroie!.strayNonAscii} | ` +
                `${pct(funsd!.cer)} ${funsd!.strayNonAscii}`
            )
          }
}
