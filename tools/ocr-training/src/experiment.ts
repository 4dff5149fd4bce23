/**
 * Which features separate ñ/n, á/a, é/e: a head on the backbone's final 120 features (graftable as it is) against
 * one on those plus the 480-channel map before the neck (more raw detail, needs a graph change to ship). Trains both
 * on the first part of one cache file and scores the rest:
 * `node src/experiment.ts <cache.bin> [train lines] [epochs]`.
 */
import * as Fs from "node:fs"
import { seeded } from "@legible/ocr-onnx/bench/random.ts"
import { chineseModels, type HeadWeights, modelFiles, readHead } from "@legible/ocr-onnx/training"
import { greedy, initialHead, logits, train } from "./head.ts"
import { POOLED, readSamples } from "./samples.ts"

const [cache, trainLines = "480", epochs = "4"] = process.argv.slice(2)
if (cache === undefined) throw new Error("usage: experiment.ts <cache.bin> [train lines] [epochs]")
const dictionary = Fs.readFileSync(modelFiles().dictionary, "utf8").replace(/\n$/, "").split("\n")
const labels = ["", ...dictionary, " "]
const old = readHead(new Uint8Array(Fs.readFileSync(chineseModels().recognition)))
const oldLabels = ["", ...Fs.readFileSync(chineseModels().dictionary, "utf8").split(/\r?\n/), " "]

const widen = (head: HeadWeights, extra: number): HeadWeights => {
  const weight = new Float32Array((head.inputs + extra) * head.classes)
  weight.set(head.weight)
  return { ...head, inputs: head.inputs + extra, weight }
}

for (const use of [old.inputs, old.inputs + POOLED]) {
  const samples = readSamples(cache, old.inputs, use)
  const n = Number(trainLines)
  const [fit, held] = [samples.slice(0, n), samples.slice(n)]
  const random = seeded(1)
  const start = initialHead(old, oldLabels, labels, random)
  const initial = use === old.inputs ? start : widen(start, POOLED)
  const t0 = performance.now()
  const head = train(initial, fit, {
    epochs: Number(epochs),
    batch: 16,
    learningRate: 0.003,
    anchor: 0.0001,
    random
  })
  let errors = 0
  let length = 0
  let specialTotal = 0
  let specialHits = 0
  const confusions = new Map<string, number>()
  for (const s of held) {
    const truth = Array.from(s.labels)
    const read = greedy(logits(head, s.features, s.t), s.t, head.classes)
    // Position-wise comparison is enough to see which special characters become which.
    let d = 0
    for (let i = 0; i < Math.max(truth.length, read.length); i++) if (truth[i] !== read[i]) d++
    errors += Math.min(d, Math.max(truth.length, read.length))
    length += truth.length
    const counts = new Map<number, number>()
    for (const k of read) counts.set(k, (counts.get(k) ?? 0) + 1)
    for (const [i, k] of truth.entries()) {
      if (labels[k]! <= "\x7e") continue
      specialTotal++
      const c = counts.get(k) ?? 0
      if (c > 0) {
        specialHits++
        counts.set(k, c - 1)
      } else if (read.length === truth.length) {
        const key = `${labels[k]}→${labels[read[i]!]}`
        confusions.set(key, (confusions.get(key) ?? 0) + 1)
      }
    }
  }
  const top = [...confusions.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)
  process.stdout.write(
    `features ${use}: ${fit.length} lines × ${epochs} epochs in ${((performance.now() - t0) / 1000).toFixed(0)} s; ` +
      `held-out ${held.length}: positional error ${((errors / length) * 100).toFixed(2)} %, special recall ` +
      `${((specialHits / specialTotal) * 100).toFixed(1)} % of ${specialTotal}; confusions ${top.map(([k, v]) => `${k} ${v}`).join(", ")}\n`
  )
}
