/**
 * The line sets merges are chosen on (`tune.ts`, `classBias.ts`), all lines the benchmarks do not score: the 600
 * held-out synthetic lines of `train:rec` (seed + 1000, `generate.ts`); line crops (`realLines.ts`) of Spanish pages
 * 2–5 of each kind of the Spanish benchmark's generator (it scores pages 0 and 1) in its three conditions; real
 * English ones from SROIE receipts 11–30 and FUNSD forms 31–60 in name order (the benchmarks read the first 10 of
 * each; the OCR benchmark at its default 30 also SROIE 11–30). Cached in `cache`, made when absent.
 */
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import {
  chineseModels,
  decodeHead,
  type HeadWeights,
  latinModels,
  modelFiles,
  parseDictionary,
  readHead
} from "@legible/ocr-onnx/training"
import { stringOptions } from "./args.ts"
import { logits } from "./head.ts"
import { type LineScores, readLine, scoreTexts } from "./lineScore.ts"
import { POOLED, readSamples, type Sample } from "./samples.ts"

const exec = promisify(execFile)

/** The command-line options (`util.parseArgs`) of the trained head, the cache folder and the training seed. */
export const tuneDataOptions = stringOptions({
  trained: modelFiles().trainedHead,
  cache: Path.join(Os.tmpdir(), "legible-rec-cache"),
  seed: "20261122"
})

/** One tuning set: its lines and the trained Latin head's logits on them. */
export interface TuneSet {
  readonly name: string
  /** Scored in upper case (SROIE's truth is). */
  readonly upper: boolean
  readonly samples: ReadonlyArray<Sample>
  readonly latinLogits: ReadonlyArray<Float32Array>
}

/** The heads, dictionaries and sets a merge is tuned with. */
export interface TuneData {
  readonly labels: ReadonlyArray<string>
  readonly chineseLabels: ReadonlyArray<string>
  readonly latin: HeadWeights
  readonly chinese: HeadWeights
  readonly sets: ReadonlyArray<TuneSet>
}

const cached = async (
  cache: string,
  name: string,
  script: string,
  args: ReadonlyArray<string>,
  log: (line: string) => void
): Promise<string> => {
  Fs.mkdirSync(cache, { recursive: true })
  const file = Path.join(cache, name)
  if (Fs.existsSync(file)) return file
  const partial = `${file}.partial`
  const { stdout } = await exec(process.execPath, [fileURLToPath(new URL(script, import.meta.url)), ...args, partial], {
    maxBuffer: 1 << 24
  })
  Fs.renameSync(partial, file)
  log(`  ${name}: ${stdout.trim().split("\n").pop()}`)
  return file
}

/** Loads (making the caches where absent) the four tuning sets for the trained head at `trained`. */
export const loadTuneData = async (options: {
  readonly trained: string
  readonly cache: string
  readonly seed: number
  readonly log: (line: string) => void
}): Promise<TuneData> => {
  const labels = parseDictionary(Fs.readFileSync(latinModels().dictionary, "utf8"))
  const chineseLabels = parseDictionary(Fs.readFileSync(chineseModels().dictionary, "utf8"))
  const latin = decodeHead(new Uint8Array(Fs.readFileSync(options.trained)))
  const chinese = readHead(new Uint8Array(Fs.readFileSync(chineseModels().recognition)))
  const heldOutSeed = options.seed + 1000
  const make = (name: string, script: string, args: ReadonlyArray<string>) =>
    cached(options.cache, name, script, args, options.log)
  const specs = [
    {
      name: "synthetic",
      upper: false,
      file: await make(`lines-${heldOutSeed}-600.bin`, "./generate.ts", [
        String(heldOutSeed),
        "600",
        latinModels().dictionary
      ]),
      pooled: POOLED
    },
    {
      name: "Spanish pages",
      upper: false,
      file: await make("real-spanish-2-4.bin", "./realLines.ts", ["spanish", "2", "4"]),
      pooled: 0
    },
    {
      name: "SROIE",
      upper: true,
      file: await make("real-sroie-10-20.bin", "./realLines.ts", ["sroie", "10", "20"]),
      pooled: 0
    },
    {
      name: "FUNSD",
      upper: false,
      file: await make("real-funsd-30-30.bin", "./realLines.ts", ["funsd", "30", "30"]),
      pooled: 0
    }
  ]
  const sets = specs.map((spec): TuneSet => {
    const samples = readSamples(spec.file, latin.inputs, latin.inputs, spec.pooled)
    return {
      name: spec.name,
      upper: spec.upper,
      samples,
      latinLogits: samples.map((s) => logits(latin, s.features, s.t))
    }
  })
  return { labels, chineseLabels, latin, chinese, sets }
}

/**
 * Scores one merge on one set, the way the reader decodes: merged logits = s·(z_lat + α·z_vote) + bias,
 * s = 1 / (1 + α). `votes`: the expert columns' logits on the set's lines.
 */
export const scoreMerge = (
  set: TuneSet,
  labels: ReadonlyArray<string>,
  votes: ReadonlyArray<Float32Array>,
  alpha: number,
  bias: ArrayLike<number>,
  spaceProb: number
): LineScores => {
  const c = labels.length
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
