/**
 * The Latin head and PP-OCRv4's Chinese head as a product of experts, folded into one linear layer.
 *
 * Greedy CTC takes the best class per timestep, and the log-softmax normalisers are constants per timestep, so the
 * best c of log p_lat(c) + α·log p_chi(base(c)) is the best c of z_lat(c) + α·z_chi(base(c)): a linear layer over
 * the same features, W' = s·(W_lat + α·W_chi[:, base]), b' = s·(b_lat + α·b_chi[base]) + group bias. `base` maps a
 * Latin class to the Chinese class of its base character (á → a, Ñ → N, ¿ → ?, ’ → ', blank → blank, space →
 * space), so the Chinese head, trained on far more real text, votes on the letter while the accent or special mark
 * stays the Latin head's call (the α term is equal for c and its base). `s` = 1 / (1 + α) keeps the softmax a
 * weighted geometric mean of the two experts' distributions, about as sharp as either, which the space and line
 * thresholds (`spaceProb`, `minLineScore`) were measured on.
 */
import type { HeadWeights } from "@legible/ocr-onnx/training"

/** The mark-free form of a letter (á → a, Ñ → N, ÿ → y); other characters as they are. */
const stripMarks = (label: string): string => label.normalize("NFD").replace(/[\u0300-\u036f]/g, "")

/** Whether a class is a letter with marks over an ASCII letter (á, Ñ, ÿ, ç…). */
const marked = (label: string): boolean => label > "\x7e" && /^[A-Za-z]$/.test(stripMarks(label))

/**
 * For each class of `labels` (blank, entries, space), the class of `expertLabels` (same layout) that votes on it, or
 * -1 where the expert abstains. The same ASCII character votes on an ASCII class. Symbols and letters with no ASCII
 * base (¿ ¡ € º ª ß ø œ « » …) abstain: the Chinese head does not read them as their look-alikes (with ¿ → ?,
 * ¡ → !, € → C, º → o it voted them away on held-out lines: € recalled by 77 of 97 instead of 96 at α = 1). Letters
 * with marks take their base letter's vote (`marks: "base"`: á → a, Ñ → N) or abstain (`"abstain"`).
 */
export const baseClasses = (
  labels: ReadonlyArray<string>,
  expertLabels: ReadonlyArray<string>,
  marks: "base" | "abstain"
): Int32Array => {
  const index = new Map<string, number>()
  for (let k = 1; k < expertLabels.length - 1; k++) if (!index.has(expertLabels[k]!)) index.set(expertLabels[k]!, k)
  return Int32Array.from(labels, (label, k) => {
    if (k === 0) return 0
    if (k === labels.length - 1) return expertLabels.length - 1
    if (marked(label)) return marks === "base" ? (index.get(stripMarks(label)) ?? -1) : -1
    return label <= "\x7e" ? (index.get(label) ?? -1) : -1
  })
}

/** Biases added per class group after the merge: lower- and upper-case letters with marks, other non-ASCII. */
export interface GroupBias {
  readonly lower: number
  readonly upper: number
  readonly symbols: number
}

/** The bias of each class of `labels` for `groups` (0 for ASCII, the blank and the space). */
export const groupBias = (labels: ReadonlyArray<string>, groups: GroupBias): Float32Array =>
  Float32Array.from(labels, (label) =>
    label <= "\x7e" ? 0 : marked(label) ? (label === label.toLowerCase() ? groups.lower : groups.upper) : groups.symbols
  )

/** How two heads are folded into one (see the module comment). */
export interface MergeOptions {
  /** Weight of the Chinese expert. */
  readonly alpha: number
  /** Scale of the merged logits (default 1 / (1 + α)). */
  readonly scale?: number
  /** Added to the merged bias, per class (after scaling); omitted: none. */
  readonly bias?: ArrayLike<number>
}

/**
 * The expert's vote on each Latin class as a head over the Latin classes: the Chinese head's column at `base`, or,
 * where it abstains (-1), the Latin head's own column, so that the class keeps its Latin logit in the merged mean.
 */
export const expertColumns = (expert: HeadWeights, latin: HeadWeights, base: Int32Array): HeadWeights => {
  const c = base.length
  if (latin.classes !== c || latin.inputs !== expert.inputs) throw new Error("heads differ in shape")
  const weight = new Float32Array(expert.inputs * c)
  const bias = new Float32Array(c)
  for (let k = 0; k < c; k++) {
    const from = base[k]!
    bias[k] = from < 0 ? latin.bias[k]! : expert.bias[from]!
    for (let i = 0; i < expert.inputs; i++) {
      weight[i * c + k] = from < 0 ? latin.weight[i * c + k]! : expert.weight[i * expert.classes + from]!
    }
  }
  return { inputs: expert.inputs, classes: c, weight, bias }
}

/** The merged head: s·(latin + α·expert columns) + bias. `columns` from `expertColumns`. */
export const mergeHeads = (latin: HeadWeights, columns: HeadWeights, options: MergeOptions): HeadWeights => {
  if (latin.inputs !== columns.inputs || latin.classes !== columns.classes) throw new Error("heads differ in shape")
  const s = options.scale ?? 1 / (1 + options.alpha)
  const a = options.alpha
  return {
    inputs: latin.inputs,
    classes: latin.classes,
    weight: latin.weight.map((w, i) => s * (w + a * columns.weight[i]!)),
    bias: latin.bias.map((b, k) => s * (b + a * columns.bias[k]!) + (options.bias?.[k] ?? 0))
  }
}

/** A merge: the expert's weight, how letters with marks are voted on, the group biases and per-class ones. */
export interface MergeChoice extends GroupBias {
  readonly alpha: number
  readonly marks: "base" | "abstain"
  /** Added to a class's group bias, by label (`classBias.ts` chooses them). */
  readonly classes?: Readonly<Record<string, number>>
}

/** The bias of each class of `labels` for `choice`: its group's (`groupBias`) plus its own (`choice.classes`). */
export const mergeBias = (labels: ReadonlyArray<string>, choice: GroupBias & Pick<MergeChoice, "classes">) => {
  const bias = groupBias(labels, choice)
  for (const [label, b] of Object.entries(choice.classes ?? {})) {
    const k = labels.indexOf(label)
    if (k < 1 || k === labels.length - 1) throw new Error(`no class ${JSON.stringify(label)} to bias`)
    bias[k]! += b
  }
  return bias
}

/**
 * The merge `latin_head.bin` is written with (`merge.ts`): α and the group biases chosen with `tune.ts`, the
 * per-class biases with `classBias.ts` (see `packages/ocr-onnx/models/EXPERIMENTS.md`).
 */
export const chosenMerge: MergeChoice = {
  alpha: 1,
  marks: "base",
  lower: 0.25,
  upper: 0.25,
  symbols: 0,
  classes: {
    ...Object.fromEntries([..."àâãäçèêôõöÀÂÃÄÇÈÊÔÕÖ"].map((c) => [c, -0.25])),
    á: -0.25,
    é: -0.25,
    ó: -0.5,
    ü: -0.5,
    Á: -0.25,
    Í: -0.5,
    Ó: -0.25,
    Ñ: 0.25
  }
}

/** The merged head of `choice`. */
export const mergeChoice = (
  latin: HeadWeights,
  expert: HeadWeights,
  labels: ReadonlyArray<string>,
  expertLabels: ReadonlyArray<string>,
  choice: MergeChoice
): HeadWeights =>
  mergeHeads(latin, expertColumns(expert, latin, baseClasses(labels, expertLabels, choice.marks)), {
    alpha: choice.alpha,
    bias: mergeBias(labels, choice)
  })
