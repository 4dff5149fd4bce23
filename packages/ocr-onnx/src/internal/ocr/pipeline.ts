import { Duration, Effect } from "effect"
import { readingOrder } from "../readingOrder.js"
import { boxRect, type OrientedBox } from "./box.js"
import { applyFlips, clsFlips } from "./classify.js"
import { type OcrConfig, withConfig } from "./config.js"
import { cropLine, glyphBoxes, inkColumns, sliceColumns, splitColumns, writeClsInput } from "./crop.js"
import { type CtcChar, cropWords, ctcDecode, modelSpaces, restoreSpaces, timestepColumn } from "./ctc.js"
import { coverage, dbPostprocess, largestFirst, mergeOverlapping } from "./dbPostprocess.js"
import { mendDots } from "./dots.js"
import {
  type EngineLexicon,
  type InferenceSession,
  type OcrEngine,
  OcrError,
  pageLexicon,
  pageWordLists,
  type Tensor
} from "./engine.js"
import { type PageImage, validateImage } from "./image.js"
import {
  decideLanguages,
  type LanguageDecision,
  profileWords,
  readDoubles,
  ruleMarks,
  settleLetters
} from "./language.js"
import { correctDiacritics, ownLettersOf, settleLookalikes, withAlternatives, withLetters } from "./lexicon.js"
import { preprocess } from "./preprocess.js"
import { degreeRings } from "./ring.js"
import { type OcrWord, withoutEchoes, wordsOnPage } from "./words.js"

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

const detectOnce = Effect.fnUntraced(function* (session: InferenceSession, image: PageImage, config: OcrConfig) {
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

/** Rows `y0` to `y1` of a page image, as an image of their own (a view: rows are packed). */
const pageRows = (image: PageImage, y0: number, y1: number): PageImage => {
  const stride = image.width * image.channels
  return { ...image, height: y1 - y0, data: image.data.subarray(y0 * stride, y1 * stride) }
}

/** A band of page rows, `y0` included, `y1` excluded. */
export interface Band {
  readonly y0: number
  readonly y1: number
}

/** The second pass's detection scale: `detRefineFactor` times the first's, at most 1. */
export const refineScale = (config: OcrConfig): number => Math.min(1, config.detScale * config.detRefineFactor)

/**
 * The scales both passes really detect a page at: the first pass's input is capped at `detMaxSide` on its longest
 * side, a band's on the page's width (an A4 page at 200 DPI is detected at ≈0.68 at most).
 */
const passScales = (image: PageImage, config: OcrConfig): { readonly first: number; readonly second: number } => ({
  first: Math.min(config.detScale, config.detMaxSide / Math.max(image.width, image.height)),
  second: Math.min(refineScale(config), config.detMaxSide / image.width)
})

/** Whether a first-pass box is under `detRefineBelow` detection pixels high. */
const small = (image: PageImage, config: OcrConfig): ((box: OrientedBox) => boolean) => {
  const scale = passScales(image, config).first
  return (box) => box.height * scale < config.detRefineBelow
}

/**
 * Whether a first-pass box is a piece of a line of small print: small (`small`), at least twice as long (a few
 * characters: a lone digit, dash or accent is no evidence) and along the rows (bands are rows: a piece of a line
 * turned by 90° would send a band three times its length, to find nothing whole in it).
 */
const smallPrint = (image: PageImage, config: OcrConfig): ((box: OrientedBox) => boolean) => {
  const isSmall = small(image, config)
  return (box) => isSmall(box) && box.width >= 2 * box.height && Math.abs(Math.sin(box.angle)) < 0.2
}

/**
 * The bands of page rows to detect again: around each piece of small print (`smallPrint`), its own rows and as
 * many again above and below, across the whole page (the rest of a small line is often not found at all);
 * overlapping bands merged.
 */
export const smallPrintBands = (
  boxes: ReadonlyArray<OrientedBox>,
  image: PageImage,
  config: OcrConfig
): Array<Band> => {
  const bands = boxes
    .filter(smallPrint(image, config))
    .map((box) => {
      const r = boxRect(box)
      const h = r.y1 - r.y0
      return { y0: Math.max(0, Math.floor(r.y0 - h)), y1: Math.min(image.height, Math.ceil(r.y1 + h)) }
    })
    .sort((a, b) => a.y0 - b.y0)
  const merged: Array<Band> = []
  for (const band of bands) {
    const last = merged[merged.length - 1]
    if (last !== undefined && band.y0 <= last.y1)
      merged[merged.length - 1] = { y0: last.y0, y1: Math.max(last.y1, band.y1) }
    else merged.push(band)
  }
  // The detector's input sides are multiples of 32: a band of another height would be stretched to one, so each
  // grows evenly to the next height that is one at the second pass's scale (within the page).
  const unit = 32 / passScales(image, config).second
  return merged.map(({ y0, y1 }) => {
    const height = Math.min(image.height, Math.round(Math.ceil((y1 - y0) / unit) * unit))
    const top = Math.max(0, Math.min(image.height - height, Math.round((y0 + y1 - height) / 2)))
    return { y0: top, y1: top + height }
  })
}

/**
 * The boxes of both passes together: the first pass's boxes of ordinary height stand; a small one (a piece of the
 * line, or a short word or digit of it) gives way when the second-pass boxes together cover half of it; a
 * second-pass box (the same line found in two bands merged first, as `dbPostprocess` merges) joins unless it
 * overlaps an ordinary box by a fifth of either (it would read that text twice).
 */
export const mergeRefined = (
  first: ReadonlyArray<OrientedBox>,
  second: ReadonlyArray<OrientedBox>,
  image: PageImage,
  config: OcrConfig
): Array<OrientedBox> => {
  const isSmall = small(image, config)
  const ordinary = first.filter((box) => !isSmall(box))
  // Bands grown to the detector's size may overlap and find a line twice.
  const found = config.detMergeCover > 0 ? mergeOverlapping(second, config.detMergeCover) : second
  const added = found.filter((box) => ordinary.every((big) => coverage(box, big) < 0.2 && coverage(big, box) < 0.2))
  const kept = first.filter((box) => isSmall(box) && added.reduce((sum, r) => sum + coverage(box, r), 0) < 0.5)
  return largestFirst([...ordinary, ...kept, ...added], config)
}

/**
 * Detection, with small print detected again at a finer scale. At the default half scale, 5 pt type at 200 DPI
 * gets no response at all and 5.5 pt lines are found as a piece or two; where the first pass finds such a piece
 * (`smallPrintBands`), the rows around it are detected again at a finer scale (`refineScale`) and the boxes found
 * wholly inside them take its place (`mergeRefined`).
 */
const detect = Effect.fnUntraced(function* (session: InferenceSession, image: PageImage, config: OcrConfig) {
  const boxes = yield* detectOnce(session, image, config)
  const scales = passScales(image, config)
  // A second pass no finer than the first (a page too wide for the cap, or a first pass at 1) would find the same.
  if (config.detRefineBelow <= 0 || scales.second <= scales.first * 1.05) return boxes
  const bands = smallPrintBands(boxes, image, config)
  if (bands.length === 0) return boxes
  const fine = { ...config, detScale: scales.second }
  const second: Array<OrientedBox> = []
  for (const band of bands) {
    for (const box of yield* detectOnce(session, pageRows(image, band.y0, band.y1), fine)) {
      const r = boxRect(box)
      // A box cut by the band's edge is part of a line outside it (the page's own edges cut nothing).
      const top = band.y0 === 0 || r.y0 >= 1
      const bottom = band.y1 === image.height || r.y1 <= band.y1 - band.y0 - 1
      if (top && bottom) second.push({ ...box, cy: box.cy + band.y0 })
    }
  }
  return mergeRefined(boxes, second, image, config)
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

/** A line as recognised, before the page's language rules its marks: characters and what places its words. */
interface ReadLine {
  readonly box: OrientedBox
  readonly score: number
  readonly chars: ReadonlyArray<CtcChar>
  readonly crop: { readonly box: OrientedBox; readonly scale: number }
  readonly ink: Uint8Array
  readonly stride: number
}

/**
 * One crop of a box read, or undefined when nothing is read; `minLineScore` is left to the caller. One run per
 * piece: batched pieces measured slower (MEASUREMENTS.md, "Recognition batches").
 */
const readCrop = Effect.fnUntraced(function* (
  engine: OcrEngine,
  image: PageImage,
  box: OrientedBox,
  config: OcrConfig
): Effect.fn.Return<ReadLine | undefined, OcrError> {
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
    const read = withLetters(
      settleLookalikes(
        ctcDecode(out.data, t, c, engine.labels, from / stride),
        out.data,
        c,
        engine.labels,
        from / stride
      ),
      out.data,
      c,
      engine.labels,
      engine.families,
      from / stride
    )
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
  // The characters keep the alternatives of their marks until the page's language is known (`ruledLines`).
  const rings = degreeRings(crop, chars, stride, config)
  return { box, score, chars: rings, crop: { box: crop.box, scale: crop.scale }, ink, stride }
})

// Cased letters and decimal digits: "º", "ª" and superscripts are letters and numbers too, and what a wider crop of
// a tick or a speck on a form reads.
const alphanumeric = (ch: CtcChar): boolean => /^[\p{Lu}\p{Ll}\p{Nd}]+$/u.test(ch.text)

/**
 * One line recognised, or undefined when it reads as nothing credible. A box no longer than `glyphMaxAspect` times
 * its height read below `minLineScore` is read again from the crops of `glyphBoxes`, and the surest reading of
 * letters and digits kept; the line keeps the detected box (its words take their places from the crop they were
 * read in).
 */
const recognizeLine = Effect.fnUntraced(function* (
  engine: OcrEngine,
  image: PageImage,
  box: OrientedBox,
  config: OcrConfig
): Effect.fn.Return<ReadLine | undefined, OcrError> {
  if (box.width > config.recMaxAspect * box.height) return undefined
  let best = yield* readCrop(engine, image, box, config)
  if (box.width <= config.glyphMaxAspect * box.height && (best === undefined || best.score < config.minLineScore)) {
    for (const again of glyphBoxes(box)) {
      const read = yield* readCrop(engine, image, again, config)
      // Only letters and digits: what a wider crop of a checkbox or a speck reads is a bracket or a quote.
      if (read?.chars.every(alphanumeric) && (best === undefined || read.score > best.score)) best = read
    }
  }
  return best === undefined || best.score < config.minLineScore ? undefined : { ...best, box }
})

/**
 * The characters of a page's lines with their marks checked against the word lists of the page's languages
 * (`pageLexicon`; English's names the loanwords, `correctLetters`), their dots mended (`dots.ts`) and their marks
 * ruled by those languages (`language.ts`): all decided on the whole page, as one line has too few function words
 * to tell (MEASUREMENTS.md, "Languages and marks").
 */
export const pageMarks = (
  lines: ReadonlyArray<ReadonlyArray<CtcChar>>,
  loaded: EngineLexicon | undefined,
  config: OcrConfig,
  context = ""
): Array<Array<CtcChar>> => {
  const lexicons = config.lexiconWeight > 0 ? loaded : undefined
  const decision = config.markRule || lexicons !== undefined ? pageDecision(lines, context) : undefined
  const lexicon = lexicons === undefined ? undefined : pageLexicon(lexicons, decision?.languages)
  const weights = { weight: config.lexiconWeight, addWeight: config.lexiconAddWeight }
  const own = ownLettersOf(decision?.languages)
  return lines.map((chars) => {
    const checked =
      lexicon === undefined ? [...chars] : correctDiacritics(chars, lexicon, weights, lexicons?.lists.get("en"), own)
    if (decision === undefined || !config.markRule) return checked
    return ruleMarks(mendDots(checked, lexicon), decision, lexicons?.words)
  })
}

/**
 * The languages a page's lines are written in (`decideLanguages`), with the words of the text around them when
 * they are a part of a page (`context`: the text layer of a page whose image they are read from).
 */
export const pageDecision = (lines: ReadonlyArray<ReadonlyArray<CtcChar>>, context = ""): LanguageDecision =>
  decideLanguages([
    ...lines.flatMap((chars) => profileWords(chars.map((ch) => ch.text).join(""))),
    ...profileWords(context)
  ])

/**
 * The page's lines with their marks checked and ruled (`pageMarks`), against the lists of the page's languages,
 * loaded on the first page that needs them (`pageWordLists`; none for a page with no line); lines with no word left
 * and the detector's echoes (`withoutEchoes`) are dropped.
 */
const ruledLines = Effect.fnUntraced(function* (
  engine: OcrEngine,
  lines: ReadonlyArray<ReadLine>,
  config: OcrConfig,
  context: string
) {
  const chars = lines.map((l) => l.chars)
  const decision = pageDecision(chars, context)
  const lexicon =
    engine.lexicon === undefined || config.lexiconWeight <= 0 || lines.length === 0
      ? undefined
      : yield* pageWordLists(engine.lexicon, decision.languages)
  const marked = pageMarks(chars, lexicon, config, context)
  const listed = lexicon === undefined ? undefined : pageLexicon(lexicon, decision.languages)
  const read = lines.flatMap((line, k) => {
    const settled = readDoubles(settleLetters(marked[k]!, decision, listed), decision, listed)
    const spaced = restoreSpaces(settled, line.ink, config.spaceGap * config.recHeight, line.stride)
    const words = cropWords(spaced, line.ink, line.stride)
    return words.length === 0
      ? []
      : [{ box: line.box, score: line.score, words: wordsOnPage(line.crop, words, config.foldFullWidth) }]
  })
  return withoutEchoes(read)
})

const millis = (d: Duration.Duration): number => Duration.toMillis(d)

/**
 * OCR of one page image: detection, the 180° classifier, recognition line by line, words with boxes from the CTC
 * timesteps, and lines in reading order. `options` override the engine's thresholds for this call only; `context` is
 * the text around the image when it is a part of a page (its marks are ruled by that page's languages).
 */
export const recognizePage = Effect.fn("OcrEngine.recognizePage")(function* (
  engine: OcrEngine,
  image: PageImage,
  options?: Partial<OcrConfig>,
  context = ""
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
      // A line the classifier turned is read both ways and kept the way the recognizer is surer of: the classifier
      // sees a line squeezed into 192 columns and turns long upright ones (MEASUREMENTS.md, "180° classifier").
      // Ties keep the turn.
      return Effect.zipWith(
        recognizeLine(engine, image, box, config),
        recognizeLine(engine, image, upright, config),
        (turned, asIs) => (asIs !== undefined && (turned === undefined || asIs.score > turned.score) ? asIs : turned)
      )
    })
  )
  const lines = yield* ruledLines(
    engine,
    recognized.filter((l) => l !== undefined),
    config,
    context
  )
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
