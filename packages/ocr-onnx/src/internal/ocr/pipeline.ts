import { Duration, Effect } from "effect"
import { readingOrder } from "../readingOrder.js"
import type { OrientedBox } from "./box.js"
import { applyFlips, clsFlips } from "./classify.js"
import { type OcrConfig, withConfig } from "./config.js"
import { cropLine, inkColumns, sliceColumns, splitColumns, writeClsInput } from "./crop.js"
import { type CtcChar, cropWords, ctcDecode, modelSpaces, restoreSpaces, timestepColumn } from "./ctc.js"
import { dbPostprocess } from "./dbPostprocess.js"
import { type InferenceSession, type OcrEngine, OcrError, type Tensor } from "./engine.js"
import { type PageImage, validateImage } from "./image.js"
import { correctDiacritics, withAlternatives } from "./lexicon.js"
import { preprocess } from "./preprocess.js"
import { type OcrWord, wordsOnPage } from "./words.js"

/** A line of recognised words in reading order. */
export interface OcrLine {
  readonly words: ReadonlyArray<OcrWord>
  /** Reading direction in degrees, clockwise positive (≈180 on an upside-down page). */
  readonly angle: number
}

/** A recognised page, in the image's pixel coordinates (the caller scales them to points). */
export interface OcrPage {
  /** Lines in reading order. */
  readonly lines: ReadonlyArray<OcrLine>
  /** The page's skew in degrees, clockwise positive, on top of `rotation`. */
  readonly skewDeg: number
  /** How far the text is turned clockwise: 0, 90, 180 or 270 degrees. */
  readonly rotation: 0 | 90 | 180 | 270
  /** Milliseconds spent per stage (each includes its pre- and post-processing). */
  readonly timings: { readonly det: number; readonly cls: number; readonly rec: number }
}

const firstOutput = (session: InferenceSession, outputs: Record<string, Tensor>): Effect.Effect<Tensor, OcrError> => {
  const name = session.outputNames[0]
  const out = name === undefined ? undefined : outputs[name]
  return out === undefined
    ? Effect.fail(new OcrError({ message: `the model returned no output ${name ?? "(unnamed)"}` }))
    : Effect.succeed(out)
}

const runOne = (session: InferenceSession, data: Float32Array, dims: ReadonlyArray<number>) =>
  session.run({ [session.inputNames[0] ?? "x"]: { data, dims } }).pipe(Effect.flatMap((o) => firstOutput(session, o)))

const detect = Effect.fnUntraced(function* (session: InferenceSession, image: PageImage, config: OcrConfig) {
  const input = preprocess(image, config)
  const out = yield* runOne(session, input.tensor, [1, 3, input.height, input.width])
  const [h, w] = out.dims.slice(-2)
  if (h !== input.height || w !== input.width) {
    return yield* new OcrError({
      message: `the detector returned a ${out.dims.join("×")} map for a ${input.width}×${input.height} input`
    })
  }
  return dbPostprocess({ data: out.data, width: input.width, height: input.height }, input.scaleX, input.scaleY, config)
})

/** The classifier's verdict on each box, `clsBatch` boxes per run. */
const classifyAll = Effect.fnUntraced(function* (
  session: InferenceSession,
  image: PageImage,
  boxes: ReadonlyArray<OrientedBox>,
  config: OcrConfig
) {
  const flips: Array<boolean> = []
  for (let from = 0; from < boxes.length; from += config.clsBatch) {
    const chunk = boxes.slice(from, from + config.clsBatch)
    const batch = new Float32Array(chunk.length * 3 * config.clsHeight * config.clsWidth)
    for (const [k, box] of chunk.entries()) writeClsInput(image, box, config, batch, k)
    const out = yield* runOne(session, batch, [chunk.length, 3, config.clsHeight, config.clsWidth])
    flips.push(...clsFlips(out.data, chunk.length, config.clsThreshold))
  }
  return flips
})

/**
 * The 180° classifier on a sample first (the `clsSample` largest boxes: detection returns them largest first), on
 * the rest only when the sample has a line upside down.
 */
const classify = Effect.fnUntraced(function* (
  session: InferenceSession,
  image: PageImage,
  boxes: ReadonlyArray<OrientedBox>,
  config: OcrConfig
) {
  const size = config.clsSample > 0 ? Math.min(config.clsSample, boxes.length) : boxes.length
  const sampled = yield* classifyAll(session, image, boxes.slice(0, size), config)
  if (size === boxes.length || !sampled.includes(true)) return applyFlips(boxes, sampled)
  const rest = yield* classifyAll(session, image, boxes.slice(size), config)
  return applyFlips(boxes, [...sampled, ...rest])
})

/** Columns of context read on each side of a piece of a long line (a multiple of 8: one timestep per 8). */
const PIECE_MARGIN = 32

/**
 * One line recognised, or undefined when it reads as nothing credible. One run per piece: batches beat it on no
 * measure here (up to 8 pieces within 16 columns of each other, right-padded: recognizer CPU +8 % on FUNSD, +4 % on
 * SROIE, for the same columns; the per-run overhead is only about 1.6 ms, 20 columns' worth).
 */
const recognizeLine = Effect.fnUntraced(function* (
  engine: OcrEngine,
  image: PageImage,
  box: OrientedBox,
  config: OcrConfig
) {
  if (box.width > config.recMaxAspect * box.height) return undefined
  const lexicon = config.lexiconWeight > 0 ? engine.lexicon : undefined
  const crop = cropLine(image, box, config)
  const ink = inkColumns(crop)
  const chars: Array<CtcChar> = []
  let stride = 8
  for (const [start, end] of splitColumns(ink, config.recMaxWidth)) {
    // Each piece is read with a margin of context on both sides (a space at the cut is visible to the model) and
    // keeps the characters centred inside it, so nothing is read twice.
    const from = Math.max(0, start - PIECE_MARGIN)
    const to = Math.min(crop.width, end + PIECE_MARGIN)
    const out = yield* runOne(engine.rec, sliceColumns(crop, from, to), [1, 3, crop.height, to - from])
    const [t, c] = out.dims.slice(-2)
    // A recognizer trained without use_space_char has no class for the space: one fewer.
    if (t === undefined || c === undefined || (c !== engine.labels.length && c !== engine.labels.length - 1)) {
      return yield* new OcrError({
        message: `the recognizer has ${c} classes but the dictionary gives ${engine.labels.length} (blank + entries + space)`
      })
    }
    if (t === 0) continue
    stride = (to - from) / t
    const read = ctcDecode(out.data, t, c, engine.labels, from / stride)
    const decoded =
      lexicon === undefined ? read : withAlternatives(read, out.data, c, engine.labels, lexicon.families, from / stride)
    // Only a recognizer with a space class (one per label, the space last) has a space probability to read.
    const spaced =
      config.spaceProb > 0 && c === engine.labels.length
        ? modelSpaces(decoded, out.data, c, config.spaceProb, from / stride)
        : decoded
    for (const ch of spaced) {
      const centre = (timestepColumn(ch.first, stride) + timestepColumn(ch.last, stride)) / 2
      if (centre >= start && centre < end) chars.push(ch)
    }
  }
  if (chars.length === 0) return undefined
  const score = chars.reduce((acc, ch) => acc + ch.prob, 0) / chars.length
  if (score < config.minLineScore) return undefined
  const checked =
    lexicon === undefined
      ? chars
      : correctDiacritics(chars, lexicon.words, { weight: config.lexiconWeight, addWeight: config.lexiconAddWeight })
  const words = cropWords(restoreSpaces(checked, ink, config.spaceGap * config.recHeight, stride), ink, stride)
  if (words.length === 0) return undefined
  return { box, score, words: wordsOnPage(crop, words, config.foldFullWidth) }
})

const millis = (d: Duration.Duration): number => Duration.toMillis(d)

/**
 * OCR of one page image: detection, the 180° classifier, recognition line by line, words with boxes from the CTC
 * timesteps, and lines in reading order. `options` override the engine's thresholds for this call only.
 */
export const recognizePage = Effect.fn("OcrEngine.recognizePage")(function* (
  engine: OcrEngine,
  image: PageImage,
  options?: Partial<OcrConfig>
): Effect.fn.Return<OcrPage, OcrError> {
  const invalid = validateImage(image)
  if (invalid !== undefined) return yield* new OcrError({ message: invalid })
  const config = withConfig(engine.config, options)
  const [detTime, detected] = yield* Effect.timed(detect(engine.det, image, config))
  const cls = engine.cls
  const [clsTime, boxes] =
    cls !== undefined && config.useClassifier && detected.length > 0
      ? yield* Effect.timed(classify(cls, image, detected, config))
      : [Duration.zero, detected]
  const [recTime, recognized] = yield* Effect.timed(
    Effect.forEach(boxes, (box, k) => {
      const upright = detected[k]!
      if (box === upright) return recognizeLine(engine, image, box, config)
      // A line the classifier turned is read both ways and kept the way the recognizer is surer of. The classifier
      // sees a line squeezed into 192 columns: on an upright contract in Times it turned two of 22 long lines
      // (1,600 columns and more at height 48), read as "n r osn p epn pns u e au p". Ties keep the turn.
      return Effect.zipWith(
        recognizeLine(engine, image, box, config),
        recognizeLine(engine, image, upright, config),
        (turned, asIs) => (asIs !== undefined && (turned === undefined || asIs.score > turned.score) ? asIs : turned)
      )
    })
  )
  const lines = recognized.filter((l) => l !== undefined)
  const order = readingOrder(lines.map((l) => l.box))
  return {
    lines: order.rows.map((row) => ({
      words: row.flatMap((i) => lines[i]!.words),
      angle: (lines[row[0]!]!.box.angle * 180) / Math.PI
    })),
    skewDeg: (order.skew * 180) / Math.PI,
    rotation: order.rotation,
    timings: { det: millis(detTime), cls: millis(clsTime), rec: millis(recTime) }
  }
})
