/**
 * The new classification layer: initialised from the Chinese head where a class has a twin (ASCII, the accented
 * letters it has, blank and space) or a look-alike (ñ from n, ¿ from ?), then trained with CTC and Adam on cached
 * backbone features, in plain Float32Array loops.
 */

import type { Random } from "@legible/ocr-onnx/bench/random.ts"
import type { HeadWeights } from "@legible/ocr-onnx/training"
import { ctcLoss } from "./ctc.ts"

/** Look-alikes for classes the Chinese dictionary lacks: where their weights start from. */
const lookAlike: Record<string, string> = {
  "¿": "?",
  "¡": "!",
  "€": "C",
  ß: "B",
  Œ: "O",
  œ: "o",
  Æ: "A",
  æ: "a",
  º: "o",
  ª: "a",
  "«": "<",
  "»": ">",
  "–": "-",
  "—": "-",
  "‘": "'",
  "’": "'",
  "“": '"',
  "”": '"',
  "•": "·",
  "…": ".",
  "£": "L",
  µ: "u",
  "½": "1",
  "¼": "1",
  "¾": "3",
  "¹": "1",
  "²": "2",
  "³": "3",
  "±": "+",
  "©": "C",
  Ø: "O",
  ø: "o",
  ÿ: "y",
  Ÿ: "Y"
}

/** The column of the old head where class `label` of the new dictionary starts. */
const sourceColumn = (label: string, old: ReadonlyMap<string, number>): number | undefined => {
  const direct = old.get(label)
  if (direct !== undefined) return direct
  const alike = lookAlike[label]
  if (alike !== undefined && old.has(alike)) return old.get(alike)
  const base = label.normalize("NFD").replace(/[\u0300-\u036f]/g, "")
  return old.get(base)
}

/**
 * A head over `labels` (blank, entries, space) initialised from `old` (the Chinese head over `oldLabels`). Classes
 * that start from a look-alike get their bias lowered by `newBias` so that the old reading wins until training
 * moves them.
 */
export const initialHead = (
  old: HeadWeights,
  oldLabels: ReadonlyArray<string>,
  labels: ReadonlyArray<string>,
  random: Random,
  newBias = 2
): HeadWeights => {
  const d = old.inputs
  const c = labels.length
  const weight = new Float32Array(d * c)
  const bias = new Float32Array(c)
  const index = new Map<string, number>()
  oldLabels.forEach((label, k) => {
    if (k > 0 && !index.has(label)) index.set(label, k)
  })
  for (let k = 0; k < c; k++) {
    const label = labels[k]!
    const from = k === 0 ? 0 : sourceColumn(label, index)
    for (let i = 0; i < d; i++) {
      const w = from === undefined ? 0 : old.weight[i * old.classes + from]!
      weight[i * c + k] = w + (random() - 0.5) * 0.01
    }
    bias[k] = from === undefined ? -5 : old.bias[from]! - (index.get(label) === from || k === 0 ? 0 : newBias)
  }
  return { inputs: d, classes: c, weight, bias }
}

/** Logits [T, C] of features [T, D] through a head. */
export const logits = (head: HeadWeights, features: Float32Array, t: number): Float32Array => {
  const { inputs: d, classes: c, weight, bias } = head
  const out = new Float32Array(t * c)
  for (let i = 0; i < t; i++) {
    const row = out.subarray(i * c, (i + 1) * c)
    row.set(bias)
    for (let j = 0; j < d; j++) {
      const f = features[i * d + j]!
      if (f === 0) continue
      const w = j * c
      for (let k = 0; k < c; k++) row[k]! += f * weight[w + k]!
    }
  }
  return out
}

/** Greedy CTC decoding of logits: class indices, runs merged, blanks dropped. */
export const greedy = (z: Float32Array, t: number, c: number): Array<number> => {
  const out: Array<number> = []
  let previous = 0
  for (let i = 0; i < t; i++) {
    let best = 0
    for (let k = 1; k < c; k++) if (z[i * c + k]! > z[i * c + best]!) best = k
    if (best !== 0 && best !== previous) out.push(best)
    previous = best
  }
  return out
}

/** A training sample: features [T, D] and labels. */
export interface TrainSample {
  readonly t: number
  readonly labels: ArrayLike<number>
  readonly features: Float32Array
}

/** Adam options for `train`. */
export interface TrainOptions {
  readonly epochs: number
  readonly batch: number
  readonly learningRate: number
  /** L2 pull towards the initial weights (keeps the classes the old head read well). */
  readonly anchor: number
  readonly random: Random
  readonly onEpoch?: (epoch: number, loss: number, head: HeadWeights) => void
}

/** Trains a copy of the head and returns it. */
export const train = (initial: HeadWeights, samples: ReadonlyArray<TrainSample>, options: TrainOptions) => {
  const { inputs: d, classes: c } = initial
  const weight = initial.weight.slice()
  const bias = initial.bias.slice()
  const head: HeadWeights = { inputs: d, classes: c, weight, bias }
  const gw = new Float32Array(d * c)
  const gb = new Float32Array(c)
  const mw = new Float32Array(d * c)
  const vw = new Float32Array(d * c)
  const mb = new Float32Array(c)
  const vb = new Float32Array(c)
  const beta1 = 0.9
  const beta2 = 0.999
  let step = 0
  const order = samples.map((_, i) => i)
  const active: Array<number> = []
  for (let epoch = 0; epoch < options.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(options.random() * (i + 1))
      ;[order[i], order[j]] = [order[j]!, order[i]!]
    }
    let total = 0
    let counted = 0
    // Cosine decay of the learning rate over all epochs.
    for (let from = 0; from < order.length; from += options.batch) {
      gw.fill(0)
      gb.fill(0)
      let n = 0
      for (const index of order.slice(from, from + options.batch)) {
        const sample = samples[index]!
        const z = logits(head, sample.features, sample.t)
        const g = new Float32Array(sample.t * c)
        const loss = ctcLoss(z, sample.t, c, sample.labels, g)
        if (!Number.isFinite(loss)) continue
        total += loss
        counted++
        n++
        for (let t = 0; t < sample.t; t++) {
          const row = g.subarray(t * c, (t + 1) * c)
          // Most classes have a negligible gradient at a timestep (softmax ≈ 0, no label there): the weight
          // gradient only visits the others, which halves the cost of a step.
          active.length = 0
          for (let k = 0; k < c; k++) {
            gb[k]! += row[k]!
            if (Math.abs(row[k]!) > 1e-5) active.push(k)
          }
          for (let j = 0; j < d; j++) {
            const f = sample.features[t * d + j]!
            if (f === 0) continue
            const w = j * c
            for (const k of active) gw[w + k]! += f * row[k]!
          }
        }
      }
      if (n === 0) continue
      step++
      const progress = (epoch + from / order.length) / options.epochs
      const lr = options.learningRate * 0.5 * (1 + Math.cos(Math.PI * progress))
      const correction1 = 1 - beta1 ** step
      const correction2 = 1 - beta2 ** step
      for (let k = 0; k < d * c; k++) {
        const g = gw[k]! / n + options.anchor * (weight[k]! - initial.weight[k]!)
        mw[k] = beta1 * mw[k]! + (1 - beta1) * g
        vw[k] = beta2 * vw[k]! + (1 - beta2) * g * g
        weight[k]! -= (lr * (mw[k]! / correction1)) / (Math.sqrt(vw[k]! / correction2) + 1e-8)
      }
      for (let k = 0; k < c; k++) {
        const g = gb[k]! / n
        mb[k] = beta1 * mb[k]! + (1 - beta1) * g
        vb[k] = beta2 * vb[k]! + (1 - beta2) * g * g
        bias[k]! -= (lr * (mb[k]! / correction1)) / (Math.sqrt(vb[k]! / correction2) + 1e-8)
      }
    }
    options.onEpoch?.(epoch, total / Math.max(1, counted), head)
  }
  return head
}
