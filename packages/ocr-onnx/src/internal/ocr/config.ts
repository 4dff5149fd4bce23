/**
 * Every threshold of the OCR pipeline in one immutable object. A call overrides some of them with `withConfig`,
 * which returns a new object: nothing in the engine is mutated per call.
 */
export interface OcrConfig {
  /**
   * Detection input size relative to the page image (0.5: a 200 DPI render is detected at ≈100 DPI): lower loses
   * text, higher costs CPU and reads noisy pages worse (MEASUREMENTS.md, "Detection scale").
   */
  readonly detScale: number
  /** Cap on the detection input's longest side, in pixels (memory grows with it). */
  readonly detMaxSide: number
  /**
   * Small print: a first-pass box under `detRefineBelow` detection pixels high and at least twice as long (a piece of
   * a line) has the rows around it detected again at `detRefineFactor` times `detScale`, at most 1 (`detRefineBelow`
   * 0, or a first pass at 1 already: never; `detect` in `pipeline.ts`). At the half scale whole lines come out taller
   * than 14 pixels and pieces of barely visible print shorter (MEASUREMENTS.md, "Small print").
   */
  readonly detRefineBelow: number
  readonly detRefineFactor: number
  /** A probability-map pixel is text above this. */
  readonly detThreshold: number
  /** A component is kept when its mean probability reaches this (DB "box score"). */
  readonly detBoxScore: number
  /** DB unclip ratio: boxes grow by area·ratio/perimeter on each side. */
  readonly detUnclipRatio: number
  /** Components with a shorter side below this (detection pixels, before unclip) are noise. */
  readonly detMinSide: number
  /** At most this many boxes per page, the largest kept (a guard against noise floods). */
  readonly detMaxBoxes: number
  /** A component this many times longer than wide has its own angle; shorter ones take the page's axis. */
  readonly detMinElongation: number
  /**
   * A box with this fraction of its area inside a larger box on the same line is merged into it (0: never), see
   * `mergeOverlapping` in `dbPostprocess.ts`.
   */
  readonly detMergeCover: number
  /**
   * Recognition input height (48 for PP-OCRv3/v4, 32 for older CRNN ones). The declared input height is freed at
   * load time, so PP-OCRv4 also runs at 33–47, but the Latin head was trained at 48 (MEASUREMENTS.md, "Recognition
   * height").
   */
  readonly recHeight: number
  /** Longest recognition input, in pixels at height 48; longer lines are split at gaps. */
  readonly recMaxWidth: number
  /**
   * Boxes longer than this many times their height are rules or borders, not text: a 7 pt line across an A4 page
   * is about 60 with the unclip margin. Skipping them saves reading thousands of columns of nothing.
   */
  readonly recMaxAspect: number
  /** Classifier input height and width (fixed by the model). */
  readonly clsHeight: number
  readonly clsWidth: number
  /** Lines per classifier run. */
  readonly clsBatch: number
  /**
   * The classifier first reads this many lines, the largest (0: all at once). Only when one of them reads upside
   * down are the others classified too: on an upright page (nearly every page) that is one run instead of one per
   * `clsBatch` lines. A page whose largest lines are all upright is taken as upright throughout.
   */
  readonly clsSample: number
  /** A line is turned 180° when the classifier says so with at least this score. */
  readonly clsThreshold: number
  /** Whether to run the 180° classifier at all. */
  readonly useClassifier: boolean
  /**
   * A column-projection gap of this fraction of the crop height between two characters is a space: 0.25 (12 px)
   * because Helvetica's "11" leaves an 11 px gap (MEASUREMENTS.md, "Spaces").
   */
  readonly spaceGap: number
  /**
   * A space between two characters where the model gives the space class at least this probability between them
   * (0: off), see `modelSpaces` in `ctc.ts`.
   */
  readonly spaceProb: number
  /** Lines whose mean character probability is below this are dropped (PaddleOCR's drop_score). */
  readonly minLineScore: number
  /**
   * A box at most this many times as long as high (a character or two: a lone quantity "1" in a table) read below
   * `minLineScore` is read again from the crops of `glyphBoxes` in `crop.ts`, and the surest reading kept (0:
   * never). The recognizer is unsure of a narrow glyph alone in a tight crop (MEASUREMENTS.md, "Lone glyphs").
   */
  readonly glyphMaxAspect: number
  /** Map full-width forms (U+FF01–FF5E, U+3000) that the Chinese dictionary prefers to ASCII. */
  readonly foldFullWidth: boolean
  /**
   * How far the engine's lexicon may overrule the recognizer's marks (`correctLetters` in `lexicon.ts`): a word not
   * in the lexicon takes a variant that is when the model's odds against the variant are at most e^lexiconWeight
   * to 1 (2.3: 10 to 1), of which at most e^lexiconAddWeight to 1 (0.69: 2 to 1) for marks added to letters read
   * bare, since print drops accents by habit on capitals (words in lower case take them under lexiconWeight);
   * `lexiconWeight` 0: never (MEASUREMENTS.md, "Lexicon weights", "Marks on worn scans").
   */
  readonly lexiconWeight: number
  readonly lexiconAddWeight: number
  /**
   * Whether a page's marks are ruled by its language (`ruleMarks` in `language.ts`): only the marks of the languages
   * its function words tell appear, none on English; on a page that tells none, a marked word stays only when the
   * lexicon lists it; dots read as marks or letters are mended first (`dots.ts`: "Bakkerïj", "Díijkstra")
   * (MEASUREMENTS.md, "Languages and marks", "Marks on worn scans").
   */
  readonly markRule: boolean
  /**
   * A ring read "º" right after a flat-topped capital is read "°" when its top is at least `ringDrop` of the
   * capital's height below the capital's, the capital being at least `ringMinHeight` page pixels high (`ringDrop` 0:
   * never; `degreeRings` in `ring.ts`): an ordinal indicator's top is at the cap height in every face measured, and
   * on smaller capitals noise moves an edge by as much (MEASUREMENTS.md, "Degree sign or ordinal indicator").
   */
  readonly ringDrop: number
  readonly ringMinHeight: number
}

/** The defaults, measured on 200 DPI renders (MEASUREMENTS.md). */
export const defaultOcrConfig: OcrConfig = {
  detScale: 0.5,
  detMaxSide: 1600,
  detRefineBelow: 14,
  detRefineFactor: 1.5,
  detThreshold: 0.3,
  detBoxScore: 0.6,
  detUnclipRatio: 1.5,
  detMinSide: 3,
  detMaxBoxes: 1000,
  detMinElongation: 3,
  detMergeCover: 0.5,
  recHeight: 48,
  recMaxWidth: 1280,
  recMaxAspect: 150,
  clsHeight: 48,
  clsWidth: 192,
  clsBatch: 8,
  clsSample: 8,
  clsThreshold: 0.9,
  useClassifier: true,
  spaceGap: 0.25,
  spaceProb: 0,
  minLineScore: 0.5,
  glyphMaxAspect: 1.25,
  foldFullWidth: true,
  lexiconWeight: 2.3,
  lexiconAddWeight: 0.69,
  markRule: true,
  ringDrop: 0.045,
  ringMinHeight: 16
}

/** The detection scales a reader may be given (`OnnxReader` `models.detectionScale`). */
export const detScaleRange = { minimum: 0.25, maximum: 1 } as const

/** A new configuration with some thresholds overridden. */
export const withConfig = (base: OcrConfig, overrides?: Partial<OcrConfig>): OcrConfig =>
  overrides === undefined ? base : { ...base, ...overrides }
