/**
 * Trains the Latin recognition head: `npm run train:rec -w @legible/ocr-training [-- --lines 12000 --seed 7 …]`.
 *
 * 1. Generates synthetic lines (`generate.ts`, one process per shard; `--workers`), each through the real detector
 *    and crop, and caches the frozen PP-OCRv4 backbone's features with the labels (`--cache`, reused when present).
 * 2. Initialises a head over `models/latin_dict.txt` from the Chinese one and trains it with CTC + Adam.
 * 3. Scores it and the Chinese head on held-out lines (another seed), and writes `models/latin_head.trained.bin`;
 *    `npm run merge:rec` (`merge.ts`) then folds it with the Chinese head into the shipped `models/latin_head.bin`.
 * Prints the data size and the time of each step.
 */
import { execFile } from "node:child_process"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs, promisify } from "node:util"
import { editDistance } from "@legible/ocr-onnx/bench/metrics.ts"
import { seeded } from "@legible/ocr-onnx/bench/random.ts"
import {
  chineseModels,
  decodeHead,
  encodeHead,
  type HeadWeights,
  modelFiles,
  readHead
} from "@legible/ocr-onnx/training"
import { stringOptions } from "./args.ts"
import { greedy, initialHead, logits, type TrainSample, train } from "./head.ts"
import { readSamples } from "./samples.ts"

const { values } = parseArgs({
  options: {
    ...stringOptions({
      seed: "20261122",
      lines: "7500",
      validation: "600",
      workers: "3",
      epochs: "4",
      batch: "16",
      rate: "0.003",
      anchor: "0.0001",
      cache: Path.join(Os.tmpdir(), "legible-rec-cache"),
      out: modelFiles().trainedHead
    }),
    // A head file to fine-tune (e.g. the shipped latin_head.trained.bin) instead of starting from the Chinese one.
    init: { type: "string" }
  }
})
const seed = Number(values.seed)
const lines = Number(values.lines)
const validation = Number(values.validation)
const workers = Number(values.workers)
const dictionaryPath = modelFiles().dictionary
const dictionary = Fs.readFileSync(dictionaryPath, "utf8").replace(/\n$/, "").split("\n")
const labels = ["", ...dictionary, " "]
const log = (line: string) => process.stdout.write(`${line}\n`)
const exec = promisify(execFile)

const shard = async (shardSeed: number, count: number): Promise<string> => {
  Fs.mkdirSync(values.cache, { recursive: true })
  const file = Path.join(values.cache, `lines-${shardSeed}-${count}.bin`)
  if (Fs.existsSync(file)) return file
  const script = fileURLToPath(new URL("./generate.ts", import.meta.url))
  const partial = `${file}.partial`
  const { stdout } = await exec(process.execPath, [script, String(shardSeed), String(count), dictionaryPath, partial], {
    maxBuffer: 1 << 20
  })
  Fs.renameSync(partial, file)
  log(`  shard ${shardSeed}: ${stdout.trim().split("\n").pop()}`)
  return file
}

const started = performance.now()
log(`train:rec seed ${seed}, ${lines} training + ${validation} held-out lines, ${workers} generator processes`)
const perShard = Math.ceil(lines / workers)
const files = await Promise.all([
  ...Array.from({ length: workers }, (_, k) => shard(seed + 1 + k, perShard)),
  shard(seed + 1000, validation)
])
const generatedMs = performance.now() - started
const old = readHead(new Uint8Array(Fs.readFileSync(chineseModels().recognition)))
const trainSamples: Array<TrainSample> = files.slice(0, workers).flatMap((f) => readSamples(f, old.inputs))
const heldOut = readSamples(files[workers]!, old.inputs)
const bytes = files.reduce((n, f) => n + Fs.statSync(f).size, 0)
const timesteps = trainSamples.reduce((n, s) => n + s.t, 0)
const chars = trainSamples.reduce((n, s) => n + s.labels.length, 0)
log(
  `data: ${trainSamples.length} lines (${chars} characters, ${timesteps} timesteps), ${heldOut.length} held out; ` +
    `feature cache ${(bytes / 1e6).toFixed(0)} MB; generation ${(generatedMs / 1000).toFixed(0)} s`
)

const oldLabels = ["", ...Fs.readFileSync(chineseModels().dictionary, "utf8").split(/\r?\n/), " "]
const random = seeded(seed)
const initial =
  values.init === undefined
    ? initialHead(old, oldLabels, labels, random)
    : decodeHead(new Uint8Array(Fs.readFileSync(values.init)))
if (initial.classes !== labels.length || initial.inputs !== old.inputs) {
  throw new Error(`--init ${values.init}: ${initial.inputs} × ${initial.classes}, not ${old.inputs} × ${labels.length}`)
}

const special = /[^\x20-\x7e]/

/** CER, special-character recall (multiset, per line) and exact lines of a head on the held-out lines. */
const score = (head: HeadWeights, names: ReadonlyArray<string>, lines = heldOut.length) => {
  let errors = 0
  let length = 0
  let specialTotal = 0
  let specialFound = 0
  let exact = 0
  for (const s of heldOut.slice(0, lines)) {
    const truth = Array.from(s.labels, (k) => labels[k]!)
    const read = greedy(logits(head, s.features, s.t), s.t, head.classes).map((k) => names[k] ?? "")
    // The Chinese head reads full-width forms; the pipeline folds them to ASCII.
    const folded = read.map((ch) =>
      ch.replace(/[\uff01-\uff5e]/g, (x) => String.fromCharCode(x.charCodeAt(0) - 0xfee0))
    )
    errors += editDistance(folded.join(""), truth.join(""))
    length += truth.length
    if (folded.join("") === truth.join("")) exact++
    const counts = new Map<string, number>()
    for (const ch of folded) counts.set(ch, (counts.get(ch) ?? 0) + 1)
    for (const ch of truth) {
      if (!special.test(ch)) continue
      specialTotal++
      const n = counts.get(ch) ?? 0
      if (n > 0) {
        specialFound++
        counts.set(ch, n - 1)
      }
    }
  }
  return { cer: errors / length, special: specialFound / specialTotal, exact: exact / Math.min(lines, heldOut.length) }
}

const show = (name: string, r: ReturnType<typeof score>) =>
  log(
    `  ${name}: CER ${(r.cer * 100).toFixed(2)} %, special characters recalled ${(r.special * 100).toFixed(1)} %, ` +
      `lines exact ${(r.exact * 100).toFixed(1)} %`
  )
log("held-out synthetic lines:")
// The Chinese head has 6,625 classes: scored on the first 150 held-out lines only, to save time.
show("Chinese PP-OCRv4 head (150 lines)", score(old, oldLabels, 150))
show(values.init === undefined ? "Latin head, initialised" : `Latin head, from ${values.init}`, score(initial, labels))

const trainStarted = performance.now()
const trained = train(initial, trainSamples, {
  epochs: Number(values.epochs),
  batch: Number(values.batch),
  learningRate: Number(values.rate),
  anchor: Number(values.anchor),
  random,
  onEpoch: (epoch, loss, trained) => {
    const r = score(trained, labels)
    log(
      `  epoch ${epoch + 1}: loss ${loss.toFixed(3)}, held-out CER ${(r.cer * 100).toFixed(2)} %, ` +
        `special ${(r.special * 100).toFixed(1)} % (${((performance.now() - trainStarted) / 1000).toFixed(0)} s)`
    )
  }
})
const trainedMs = performance.now() - trainStarted
show("Latin head, trained", score(trained, labels))
// The bias shift per class group that CTC training calls for (the rarer accented classes come out slightly
// under-confident against their base letters) is chosen with the merge, in `tune.ts`, and applied by `merge.ts`.
Fs.writeFileSync(values.out, encodeHead(trained))
log(
  `wrote ${values.out} (${(Fs.statSync(values.out).size / 1024).toFixed(0)} KB); training ${(trainedMs / 1000).toFixed(0)} s, ` +
    `total ${((performance.now() - started) / 1000).toFixed(0)} s; next: npm run merge:rec -w @legible/ocr-training`
)
