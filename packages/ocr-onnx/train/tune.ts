/**
 * Chooses the merge of `merge.ts` on lines the benchmarks do not score: `node train/tune.ts [--alpha 0,1 …]`.
 *
 * Sets (cached in `--cache`, made when absent): the 600 held-out synthetic lines of `train:rec` (seed 20261122 +
 * 1000, `generate.ts`); line crops (`realLines.ts`) of Spanish pages 2–5 of each kind of the Spanish benchmark's
 * generator (it scores pages 0 and 1) in its three conditions; real English ones from SROIE receipts 11–30 and FUNSD
 * forms 31–60 in name order (the benchmarks read the first 10 of each; `bench/ocr.run.ts` at its default 30 also
 * SROIE 11–30). Every combination of the comma-separated options is scored the way the reader decodes
 * (`lineScore.ts`) and printed as one row: CER and special-character recall on the synthetic lines, CER and stray
 * non-ASCII characters on the English ones.
 */
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs, promisify } from "node:util"
import { parseDictionary } from "../dist/internal/ocr/ctc.js"
import { chineseModels, latinModels } from "../dist/internal/ocr/engine.js"
import { decodeHead, readHead } from "../dist/internal/ocr/graft.js"
import { baseClasses, expertColumns, groupBias } from "./experts.ts"
import { logits } from "./head.ts"
import { type LineScores, readLine, scoreTexts } from "./lineScore.ts"
import { POOLED, readSamples } from "./samples.ts"

const { values } = parseArgs({
  options: {
    trained: { type: "string", default: fileURLToPath(new URL("../models/latin_head.trained.bin", import.meta.url)) },
    cache: { type: "string", default: Path.join(Os.tmpdir(), "legible-rec-cache") },
    seed: { type: "string", default: "20261122" },
    alpha: { type: "string", default: "0,0.5,1,2" },
    marks: { type: "string", default: "base,abstain" },
    lower: { type: "string", default: "0,0.5,1,1.5" },
    upper: { type: "string", default: "0,0.5,1,1.5" },
    symbols: { type: "string", default: "0,0.5" },
    "space-prob": { type: "string", default: "0.1" }
  }
})
const list = (s: string) => s.split(",").map(Number)
const exec = promisify(execFile)
const log = (line: string) => process.stdout.write(`${line}\n`)

const cached = async (name: string, script: string, args: ReadonlyArray<string>): Promise<string> => {
  Fs.mkdirSync(values.cache, { recursive: true })
  const file = Path.join(values.cache, name)
  if (Fs.existsSync(file)) return file
  const partial = `${file}.partial`
  const { stdout } = await exec(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args, partial], {
    maxBuffer: 1 << 24
  })
  Fs.renameSync(partial, file)
  log(`  ${name}: ${stdout.trim().split("\n").pop()}`)
  return file
}

const labels = parseDictionary(Fs.readFileSync(latinModels().dictionary, "utf8"))
const chineseLabels = parseDictionary(Fs.readFileSync(chineseModels().dictionary, "utf8"))
const latin = decodeHead(new Uint8Array(Fs.readFileSync(values.trained)))
const chinese = readHead(new Uint8Array(Fs.readFileSync(chineseModels().recognition)))
const heldOutSeed = Number(values.seed) + 1000
const dictionary = latinModels().dictionary
const sets = [
  {
    name: "synthetic",
    upper: false,
    file: await cached(`lines-${heldOutSeed}-600.bin`, "./generate.ts", [String(heldOutSeed), "600", dictionary]),
    pooled: POOLED
  },
  {
    name: "Spanish pages",
    upper: false,
    file: await cached("real-spanish-2-4.bin", "./realLines.ts", ["spanish", "2", "4"]),
    pooled: 0
  },
  {
    name: "SROIE",
    upper: true,
    file: await cached("real-sroie-10-20.bin", "./realLines.ts", ["sroie", "10", "20"]),
    pooled: 0
  },
  {
    name: "FUNSD",
    upper: false,
    file: await cached("real-funsd-30-30.bin", "./realLines.ts", ["funsd", "30", "30"]),
    pooled: 0
  }
].map((set) => {
  const samples = readSamples(set.file, latin.inputs, latin.inputs, set.pooled)
  return { ...set, samples, latinLogits: samples.map((s) => logits(latin, s.features, s.t)) }
})
log(`sets: ${sets.map((s) => `${s.name} ${s.samples.length} lines`).join(", ")}`)

const c = labels.length
/** Scores of one merge on one set: merged logits = s·(z_lat + α·z_vote) + bias, s = 1 / (1 + α). */
const scoreSet = (
  set: (typeof sets)[number],
  votes: ReadonlyArray<Float32Array>,
  alpha: number,
  bias: Float32Array,
  spaceProb: number
): LineScores => {
  const s = 1 / (1 + alpha)
  const pairs = set.samples.map((sample, n) => {
    const zl = set.latinLogits[n]!
    const zv = votes[n]!
    const z = new Float32Array(sample.t * c)
    for (let i = 0; i < z.length; i++) z[i] = s * (zl[i]! + alpha * zv[i]!) + bias[i % c]!
    const truth = Array.from(sample.labels, (k) => labels[k]!).join("")
    return { truth, read: readLine(z, sample.t, labels, { spaceProb, minLineScore: 0.5 }) }
  })
  return scoreTexts(pairs, set.upper)
}

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
            const [syn, es, sroie, funsd] = sets.map((set, k) => scoreSet(set, votes[k]!, alpha, bias, spaceProb))
            log(
              `${marks} ${alpha} ${lower} ${upper} ${symbols} ${spaceProb} | ${pct(syn!.cer)} ${pct(syn!.special)} | ` +
                `${pct(es!.cer)} ${pct(es!.special)} | ${pct(sroie!.cer)} ${sroie!.strayNonAscii} | ` +
                `${pct(funsd!.cer)} ${funsd!.strayNonAscii}`
            )
          }
}
