/**
 * Training samples: synthetic lines run through the real pipeline stages (the PP-OCRv4 detector and DB
 * post-processing find the line's box, `cropLine` warps it to height 48) and the frozen PP-OCRv4 recognition
 * backbone, whose [T, D] features (the tensor that feeds the final MatMul) are cached with the label sequence.
 *
 * Next to those features, the backbone's output before the neck (its height-pooled [480, T] map, `AveragePool`) is
 * cached too, so that a head on both can be measured from the same cache.
 *
 * Cache format (little-endian), one record per line: uint16 T, uint16 L, L × uint16 labels, then T rows of
 * D + P float32 (the head's features, then the pooled backbone map).
 */
import * as Fs from "node:fs"
import { type Random, seeded } from "@legible/ocr-onnx/bench/random.ts"
import {
  chineseModels,
  cropLine,
  dbPostprocess,
  defaultOcrConfig,
  exposeOutput,
  findHead,
  graftHead,
  inspect,
  type LineCrop,
  type PageImage,
  preprocess
} from "@legible/ocr-onnx/training"
import * as ort from "onnxruntime-node"
import { covers, loadFonts } from "./fonts.ts"
import { randomStyle, renderLine } from "./render.ts"
import { line } from "./text.ts"

const sessionOptions: ort.InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  graphOptimizationLevel: "all",
  executionMode: "sequential"
}

/** Width of the pooled backbone map cached next to the head's features. */
export const POOLED = 480

/** The frozen backbone: the Chinese recognizer with a one-class head (so no 6,625-way softmax is computed). */
export const featureSession = async () => {
  const model = new Uint8Array(Fs.readFileSync(chineseModels().recognition))
  const head = findHead(inspect(model))
  const small = graftHead(model, {
    inputs: head.inputs,
    classes: 1,
    weight: new Float32Array(head.inputs),
    bias: new Float32Array(1)
  })
  const pooled = inspect(model).nodes.find((n) => n.opType === "AveragePool")?.outputs[0]
  if (pooled === undefined) throw new Error("the recognizer has no AveragePool before its neck")
  const session = await ort.InferenceSession.create(
    exposeOutput(exposeOutput(small, head.features), pooled),
    sessionOptions
  )
  /** The backbone's outputs for one line crop. */
  const run = (crop: LineCrop) =>
    session.run({
      [session.inputNames[0]!]: new ort.Tensor("float32", crop.tensor, [1, 3, crop.height, crop.width])
    })
  return { session, run, output: head.features, pooled, dim: head.inputs }
}

/** The detector session and a function that finds every text box of an image (DB post-processing included). */
export const pageDetector = async () => {
  const session = await ort.InferenceSession.create(chineseModels().detection, sessionOptions)
  return async (image: PageImage) => {
    const input = preprocess(image, defaultOcrConfig)
    const out = await session.run({
      [session.inputNames[0]!]: new ort.Tensor("float32", input.tensor, [1, 3, input.height, input.width])
    })
    const map = out[session.outputNames[0]!]!
    return dbPostprocess(
      { data: map.data as Float32Array, width: input.width, height: input.height },
      input.scaleX,
      input.scaleY,
      defaultOcrConfig
    )
  }
}

/** The detector session and a function that finds the one text box of a line image (or undefined). */
export const lineDetector = async () => {
  const detect = await pageDetector()
  return async (image: PageImage) => {
    const boxes = await detect(image)
    return boxes.length === 1 ? boxes[0] : undefined
  }
}

/** Class indices of a text: 1..N the dictionary, N + 1 the space; undefined if a character has no class. */
export const encodeLabels = (text: string, dictionary: ReadonlyArray<string>): Array<number> | undefined => {
  const index = new Map(dictionary.map((c, i) => [c, i + 1] as const))
  const out: Array<number> = []
  for (const c of text) {
    const k = c === " " ? dictionary.length + 1 : index.get(c)
    if (k === undefined) return undefined
    out.push(k)
  }
  return out
}

/** One cache record: uint16 T, uint16 L, the L labels as uint16, then `rows` ([T, width] float32). */
export const encodeRecord = (labels: ArrayLike<number>, t: number, rows: Float32Array): Buffer => {
  const record = Buffer.alloc(4 + 2 * labels.length + 4 * rows.length)
  record.writeUInt16LE(t, 0)
  record.writeUInt16LE(labels.length, 2)
  for (let i = 0; i < labels.length; i++) record.writeUInt16LE(labels[i]!, 4 + 2 * i)
  Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength).copy(record, 4 + 2 * labels.length)
  return record
}

/** Counts of one generation run. */
export interface GenerationStats {
  readonly lines: number
  readonly skipped: number
  readonly timesteps: number
  readonly characters: number
  readonly bytes: number
}

/**
 * Generates `count` samples from `seed` into the cache file `out`. Lines the detector does not find as exactly one
 * box, or wider than the recognizer's longest input, are skipped (and counted) and replaced by new ones.
 */
export const generate = async (options: {
  readonly seed: number
  readonly count: number
  readonly dictionary: ReadonlyArray<string>
  readonly out: string
  readonly onProgress?: (done: number) => void
}): Promise<GenerationStats> => {
  const random: Random = seeded(options.seed)
  const fonts = loadFonts()
  const features = await featureSession()
  const detect = await lineDetector()
  const fd = Fs.openSync(options.out, "w")
  let lines = 0
  let skipped = 0
  let timesteps = 0
  let characters = 0
  let bytes = 0
  try {
    while (lines < options.count) {
      const text = line(random, options.dictionary)
      const labels = encodeLabels(text, options.dictionary)
      const style = randomStyle(random, fonts)
      if (labels === undefined || labels.length === 0 || !covers(style.font.font, text)) {
        skipped++
        continue
      }
      const image = renderLine(text, style, random)
      const box = await detect(image)
      if (box === undefined) {
        skipped++
        continue
      }
      const crop = cropLine(image, box, defaultOcrConfig)
      if (crop.width > defaultOcrConfig.recMaxWidth) {
        skipped++
        continue
      }
      const out = await features.run(crop)
      const f = out[features.output]!
      const t = f.dims[1]!
      // CTC needs at least one timestep per label (and one more between repeated labels).
      if (t < labels.length * 1.2 + 1) {
        skipped++
        continue
      }
      const p = out[features.pooled]!
      if (p.dims[1] !== POOLED || p.dims[3] !== t) throw new Error(`pooled map ${p.dims.join("×")}, T = ${t}`)
      const width = features.dim + POOLED
      const data = f.data as Float32Array
      const map = p.data as Float32Array
      const rows = new Float32Array(t * width)
      for (let i = 0; i < t; i++) {
        rows.set(data.subarray(i * features.dim, (i + 1) * features.dim), i * width)
        // The pooled map is [1, 480, 1, T]: channel-major.
        for (let ch = 0; ch < POOLED; ch++) rows[i * width + features.dim + ch] = map[ch * t + i]!
      }
      const record = encodeRecord(labels, t, rows)
      Fs.writeSync(fd, record)
      lines++
      timesteps += t
      characters += labels.length
      bytes += record.length
      options.onProgress?.(lines)
    }
  } finally {
    Fs.closeSync(fd)
    await features.session.release()
  }
  return { lines, skipped, timesteps, characters, bytes }
}

/** One cached sample. */
export interface Sample {
  readonly t: number
  readonly labels: Uint16Array
  readonly features: Float32Array
}

/**
 * Reads a cache file written by `generate` (`dim`: the head's feature width), keeping the first `use` values of
 * each row (`dim` for the head's features alone, `dim + POOLED` for both). `pooled`: the width of the pooled map
 * in the file's rows (0 in files of real lines, `realLines.ts`, which cache the head's features alone).
 */
export const readSamples = (path: string, dim: number, use = dim, pooled = POOLED): Array<Sample> => {
  const width = dim + pooled
  const buffer = Fs.readFileSync(path)
  const out: Array<Sample> = []
  let at = 0
  while (at < buffer.length) {
    const t = buffer.readUInt16LE(at)
    const l = buffer.readUInt16LE(at + 2)
    const labels = new Uint16Array(l)
    for (let i = 0; i < l; i++) labels[i] = buffer.readUInt16LE(at + 4 + 2 * i)
    const start = at + 4 + 2 * l
    const features = new Float32Array(t * use)
    for (let i = 0; i < t; i++) {
      for (let j = 0; j < use; j++) features[i * use + j] = buffer.readFloatLE(start + 4 * (i * width + j))
    }
    out.push({ t, labels, features })
    at = start + 4 * t * width
  }
  return out
}
