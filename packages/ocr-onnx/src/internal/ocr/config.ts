/**
 * Every threshold of the OCR pipeline in one immutable object. A call overrides some of them with `withConfig`,
 * which returns a new object: nothing in the engine is mutated per call.
 */
export interface OcrConfig {
  /**
   * Detection input size relative to the page image (0.5: a 200 DPI render is detected at ≈100 DPI). Lower loses
   * text: 0.4 raised FUNSD's character error rate from 16.8 to 21.4 % (10 forms, detector CPU 265 → 165 ms).
   */
  readonly detScale: number
  /** Cap on the detection input's longest side, in pixels (memory grows with it). */
  readonly detMaxSide: number
  /**
   * Small print: a first-pass box under `detRefineBelow` detection pixels high and at least twice as long (a piece of
   * a line) has the rows around it detected again at `detRefineFactor` times `detScale`, at most 1 (`detRefineBelow`
   * 0, or a first pass at 1 already: never; `detect` in `pipeline.ts`). At the half-scale input a whole line comes
   * out at least 16 pixels high, even of 6 pt type at 200 DPI; the pieces found
   * of print the detector can barely see are 7–12 (a 5.5 pt line: one 7-pixel piece, "espo"). Measured with 14 and
   * 0.75 against off: the phone-scanned factura1475 6.07 against 14.64 % character error rate (its 5.5 pt footer read
   * whole), FUNSD forms 40–59 18.54 against 18.64 %, SROIE receipts 11–30 and every rendered Spanish page unchanged,
   * the detector's CPU per FUNSD page +24 ms. A second pass at 1 (twice the first) found that footer in pieces.
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
   * Recognition input height (48 for PP-OCRv3/v4, 32 for older CRNN ones). The recognizer's declared input height
   * is freed at load time, so PP-OCRv4 also runs at 33–47 (its last pooling needs three rows at 1/16 scale), with
   * fewer columns per line; 44 cut the recognizer's CPU by 13 % on FUNSD for +0.3 points of character error rate
   * there, but the Latin head, trained on height-48 features, lost 1.5 points on the noisy 150 DPI Spanish pages.
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
   * A column-projection gap of this fraction of the crop height between two characters is a space. 0.25 (12 px)
   * rather than the prototype's 0.22: Helvetica's "11" leaves an 11 px gap. Character error rate at 0.20 / 0.22 /
   * 0.25: synthetic pages 0.67 / 0.53 / 0.50 %, SROIE 8.5 / 7.6 / 6.7 %, FUNSD 16.6 / 16.4 / 16.5 % (10 pages each).
   */
  readonly spaceGap: number
  /**
   * A space between two characters where the model gives the space class at least this probability between them
   * (0: off), see `modelSpaces` in `ctc.ts`.
   */
  readonly spaceProb: number
  /** Lines whose mean character probability is below this are dropped (PaddleOCR's drop_score). */
  readonly minLineScore: number
  /** Map full-width forms (U+FF01–FF5E, U+3000) that the Chinese dictionary prefers to ASCII. */
  readonly foldFullWidth: boolean
  /**
   * How far the engine's lexicon may overrule the recognizer's marks (`correctLetters` in `lexicon.ts`): a word not
   * in the lexicon takes a variant that is when the model's odds against the variant are at most e^lexiconWeight
   * to 1 (2.3: 10 to 1), of which at most e^lexiconAddWeight to 1 (0.69: 2 to 1) for marks added to letters read
   * bare; `lexiconWeight` 0: never. Chosen on pages no benchmark scores: FUNSD forms 40–79 read 17.09 % CER without
   * the lexicon, 16.56 / 16.51 / 16.49 % at 2.3 / 3.5 / 4.6, SROIE receipts 11–30 4.49 → 4.07 % at all three; the
   * two Spanish e-receipts of `receipts-es` print "AZUCAR", "JAPON", "CUPON", "ARABE", "ATENDIO" without their
   * accents, and the lexicon added them at odds of 4.8 to 70 against: additions need a near-tie. The tilde of ñ is
   * not an accent and is added under `lexiconWeight` alone (`ownLetters` in `lexicon.ts`): with the whole 2.3 for
   * every addition, the 84 pages above (with the Argentine invoices and the benchmark generator's unscored pages)
   * added no "ñ" at all, and the noisy 150 DPI receipts' "PANUELOS" (odds 2.2 and 3.3 to 1) read "PAÑUELOS".
   */
  readonly lexiconWeight: number
  readonly lexiconAddWeight: number
  /**
   * A ring read "º" right after a flat-topped capital is read "°" when its top is at least `ringDrop` of the
   * capital's height below the capital's, the capital being at least `ringMinHeight` page pixels high (`ringDrop` 0:
   * never; `degreeRings` in `ring.ts`). An ordinal indicator's top is at the cap height in every face measured (at
   * most 0.029 below it, in P052 Bold), the degree sign of Helvetica, Arial and their clones 0.06 below it. Chosen on
   * synthetic pages (`bench/rings.run.ts`: 144 faces, clean, scanned and noisy, 150–300 DPI, 3,456 rings of each kind
   * after a capital): the recognizer alone read 7 of the degree signs "°", with the rule 452; 3 ordinal indicators
   * (P052 Bold) became "°". A sweep over the same pages with each ring's measurement logged: 0.035 / 0.045 / 0.05
   * turn 489 / 452 / 410 degree signs and 14 / 4 / 2 ordinals; without the 16-pixel floor, 0.045 turned 13 ordinals,
   * 11 of them on the noisy 150 DPI pages (a cap height of 11–16 pixels, where noise moves an edge by the drop).
   */
  readonly ringDrop: number
  readonly ringMinHeight: number
}

/** The defaults measured on 200 DPI renders (see NOTES-ocr.md). */
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
  foldFullWidth: true,
  lexiconWeight: 2.3,
  lexiconAddWeight: 0.69,
  ringDrop: 0.045,
  ringMinHeight: 16
}

/** The detection scales a reader may be given (`OnnxReader` `models.detectionScale`). */
export const detScaleRange = { minimum: 0.25, maximum: 1 } as const

/** A new configuration with some thresholds overridden. */
export const withConfig = (base: OcrConfig, overrides?: Partial<OcrConfig>): OcrConfig =>
  overrides === undefined ? base : { ...base, ...overrides }
