/**
 * Chooses per-class biases of the merged head by coordinate descent on lines the benchmarks do not score
 * (`tuneSets.ts`): `node src/classBias.ts [--rounds 2 --steps -1,-0.5,-0.25,0.25,0.5,1 --penalty 1]`.
 *
 * Starts from the group biases of `chosenMerge` without its per-class ones (or with them: `--from-chosen`), and
 * tries, for one coordinate (a class or a small group of classes, `coordinates`) at a time, each step added to its
 * bias, keeping a step when it lowers the objective by more than `--min-gain`: the sum of the four sets' CER, plus
 * `--penalty` × the shortfall of the Spanish pages' special-character recall below 95 % and of the synthetic lines'
 * below the starting merge's. Prints every kept step and, at the end, the `--classes` JSON for `merge:rec`.
 */
import { parseArgs } from "node:util"
import { stringOptions } from "./args.ts"
import { baseClasses, chosenMerge, expertColumns, mergeBias } from "./experts.ts"
import { logits } from "./head.ts"
import { type LineScores, readLine, scoreTexts } from "./lineScore.ts"
import { loadTuneData, scoreMerge, tuneDataOptions } from "./tuneSets.ts"

const { values } = parseArgs({
  options: {
    ...tuneDataOptions,
    ...stringOptions({
      rounds: "2",
      steps: "-1,-0.5,-0.25,0.25,0.5,1",
      penalty: "1",
      "min-gain": "0.0001"
    }),
    "from-chosen": { type: "boolean", default: false }
  }
})
const log = (line: string) => process.stdout.write(`${line}\n`)

/**
 * The coordinates: each Spanish letter with marks on its own (upper and lower case apart), the other marked letters
 * of French, Portuguese and German, the ones rare in all of them, the other letters, ° º ª ¿ ¡ € on their own, and
 * the remaining symbols.
 */
export const coordinates: ReadonlyArray<ReadonlyArray<string>> = [
  ..."áéíóúñüÁÉÍÓÚÑÜ".split("").map((c) => [c]),
  "àâãäçèêôõö".split(""),
  "ÀÂÃÄÇÈÊÔÕÖ".split(""),
  "ìòåýÿîïùûë".split(""),
  "ÌÒÅÝŸÎÏÙÛË".split(""),
  "ØøÆæŒœß".split(""),
  ["°"],
  ["º"],
  ["ª"],
  ["¿"],
  ["¡"],
  ["€"],
  [..."£¥«»·§©®±×÷µ²³½¼¾–—‘’“”•…"]
]

const data = await loadTuneData({ trained: values.trained, cache: values.cache, seed: Number(values.seed), log })
const { labels, sets } = data
log(`sets: ${sets.map((s) => `${s.name} ${s.samples.length} lines`).join(", ")}`)
const choice = { ...chosenMerge, classes: values["from-chosen"] ? (chosenMerge.classes ?? {}) : {} }
const columns = expertColumns(data.chinese, data.latin, baseClasses(labels, data.chineseLabels, choice.marks))
const votes = sets.map((set) => set.samples.map((s) => logits(columns, s.features, s.t)))

const c = labels.length
const s = 1 / (1 + choice.alpha)
/** The merged logits without bias, per set and line, and each line's truth. */
const merged = sets.map((set, k) =>
  set.latinLogits.map((zl, n) => zl.map((z, i) => s * (z + choice.alpha * votes[k]![n]![i]!)))
)
const truths = sets.map((set) => set.samples.map((sample) => Array.from(sample.labels, (k) => labels[k]!).join("")))
const classes = new Map<string, number>(Object.entries(choice.classes))
const biasNow = () => mergeBias(labels, { ...choice, classes: Object.fromEntries(classes) })
const read = (z0: Float32Array, t: number, bias: Float32Array) =>
  readLine(
    z0.map((z, i) => z + bias[i % c]!),
    t,
    labels,
    { spaceProb: 0.1, minLineScore: 0.5 }
  )
/** Every line read with the current biases. */
let reads = sets.map((set, k) => set.samples.map((sample, n) => read(merged[k]![n]!, sample.t, biasNow())))
const score = (r: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<LineScores> =>
  sets.map((set, k) =>
    scoreTexts(
      r[k]!.map((line, n) => ({ truth: truths[k]![n]!, read: line })),
      set.upper
    )
  )
/**
 * The lines whose reading a bias step on `group` may change: those where one of its classes comes within `reach`
 * of the best class at some timestep (elsewhere the step moves the softmax by under e^−(reach − step)). The search
 * re-reads only those; the figures it ends with are exact (`evaluate`).
 */
const reach = 5
const touched = (group: ReadonlyArray<number>, bias: Float32Array) =>
  sets.map((set, k) =>
    set.samples.map((sample, n) => {
      const z0 = merged[k]![n]!
      for (let t = 0; t < sample.t; t++) {
        let top = -Infinity
        for (let j = 0; j < c; j++) top = Math.max(top, z0[t * c + j]! + bias[j]!)
        for (const j of group) if (z0[t * c + j]! + bias[j]! > top - reach) return true
      }
      return false
    })
  )
const evaluate = (): ReadonlyArray<LineScores> =>
  sets.map((set, k) => scoreMerge(set, labels, votes[k]!, choice.alpha, biasNow(), 0.1))
const pct = (x: number) => (x * 100).toFixed(2)
const show = (r: ReadonlyArray<LineScores>) =>
  r.map((s, k) => `${sets[k]!.name} ${pct(s.cer)} % sp ${pct(s.special)} % stray ${s.strayNonAscii}`).join(" | ")

const start = score(reads)
const penalty = Number(values.penalty)
const objective = (r: ReadonlyArray<LineScores>) =>
  r.reduce((acc, s) => acc + s.cer, 0) +
  penalty * Math.max(0, 0.95 - r[1]!.special) +
  penalty * Math.max(0, start[0]!.special - r[0]!.special)
let best = objective(start)
log(`start ${best.toFixed(5)}: ${show(start)}`)
const steps = values.steps.split(",").map(Number)
for (let round = 0; round < Number(values.rounds); round++) {
  let moved = false
  for (const group of coordinates) {
    const before = group.map((c) => classes.get(c) ?? 0)
    let bestStep = 0
    let bestScores: ReadonlyArray<LineScores> | undefined
    let bestReads = reads
    const lines = touched(
      group.map((label) => labels.indexOf(label)),
      biasNow()
    )
    for (const step of steps) {
      group.forEach((label, i) => {
        classes.set(label, before[i]! + step)
      })
      const bias = biasNow()
      const r = reads.map((set, k) =>
        set.map((line, n) => (lines[k]![n] ? read(merged[k]![n]!, sets[k]!.samples[n]!.t, bias) : line))
      )
      const scores = score(r)
      const o = objective(scores)
      if (o < best - Number(values["min-gain"])) {
        best = o
        bestStep = step
        bestScores = scores
        bestReads = r
      }
    }
    reads = bestReads
    group.forEach((c, i) => {
      const b = before[i]! + bestStep
      if (b === 0) classes.delete(c)
      else classes.set(c, b)
    })
    if (bestScores !== undefined) {
      moved = true
      log(
        `round ${round + 1} ${group.join("")} ${bestStep > 0 ? "+" : ""}${bestStep} → ${best.toFixed(5)}: ${show(bestScores)}`
      )
    }
  }
  if (!moved) break
}
const exact = evaluate()
log(`exact ${objective(exact).toFixed(5)}: ${show(exact)}`)
log(`--classes '${JSON.stringify(Object.fromEntries([...classes].filter(([, b]) => b !== 0)))}'`)
