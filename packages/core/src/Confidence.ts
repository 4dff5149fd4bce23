/**
 * How far to trust one extracted value: the probability that it is right, from what is known of it — where it was
 * found in the words (grounding), how sure the OCR was of those words, how sure the extractor was, whether it parses
 * to the field's type, whether it passes its checks (check digits, plausible date, the document's sums) and, for
 * catalog values, the match score and its margin over the runner-up. The signals are combined by a logistic model
 * fitted on labelled documents (`fit`, run by the calibration benchmark; the fitted model ships as data), with every
 * weight kept at or above zero so the confidence never falls when a signal gets better.
 */

/** What is known of one value. Absent signals are unknown, and neither raise nor lower the confidence. */
export interface Signals {
  /** Similarity (0–1) of the literal to the words that support it; `null` when no words do. */
  readonly grounding: number | null
  /** The lowest OCR confidence (0–1) of the supporting words (1 for a text layer). */
  readonly ocr?: number | undefined
  /** The extractor's own probability (0–1) that it wrote this literal. */
  readonly certainty?: number | undefined
  /** Whether the literal parsed to the field's type. */
  readonly parsed: boolean
  /** The value's own check (an identifier's check digit, a plausible date), when it has one. */
  readonly check?: Verdict<"checksum_failed" | "implausible_date"> | undefined
  /** The document's arithmetic that involves this value, when some does. */
  readonly arithmetic?: Verdict<"sum_mismatch"> | undefined
  /** Where the value is printed more than once: whether it reads the same each time. */
  readonly repeats?: Verdict<"repeat_mismatch"> | undefined
  /** Where a machine-readable code on the document (a fiscal QR, an embedded e-invoice) states it: agreed or not. */
  readonly code?: Verdict<"code_mismatch"> | undefined
  /** For catalog values: the match score (0–1) and its margin over the runner-up (0–1; 1 when there is none). */
  readonly catalog?: { readonly score: number; readonly margin: number } | undefined
}

/** The outcome of a check: passed, or failed with the reason's code and what did not hold. */
export interface Verdict<Code extends string> {
  readonly passed: boolean
  readonly code: Code
  /** What was checked, for a person: "check digit fails", "125,40 ≠ lines 120,40 + IVA 5,00". */
  readonly message: string
}

/** The features of the model, each rising with the evidence that the value is right. */
export const FEATURES = [
  "grounded",
  "groundingScore",
  "ocr",
  "certainty",
  "parsed",
  "checkPassed",
  "checkNotFailed",
  "sumsMatch",
  "sumsNotMismatched",
  "repeatsAgree",
  "repeatsNotDisagree",
  "codeAgrees",
  "codeNotDisagree",
  "catalogScore",
  "catalogMargin"
] as const

/** One of `FEATURES`. */
export type Feature = (typeof FEATURES)[number]

/** A fitted model: an intercept and a non-negative weight per feature. */
export interface Model {
  readonly intercept: number
  readonly weights: Readonly<Record<Feature, number>>
}

/** A reason the confidence is what it is: a code and words for a person. */
export interface Reason {
  readonly code:
    | "not_grounded"
    | "fuzzy_grounding"
    | "low_ocr"
    | "low_certainty"
    | "parse_failed"
    | "checksum_failed"
    | "implausible_date"
    | "sum_mismatch"
    | "repeat_mismatch"
    | "code_mismatch"
    | "catalog_score"
    | "catalog_margin"
  readonly message: string
}

/** The probability that a value is right, and what lowered it. */
export interface Assessment {
  readonly confidence: number
  readonly reasons: ReadonlyArray<Reason>
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x))

/** log(p / (1 − p)) with p kept off 0 and 1, so a certain signal stays finite. */
const logit = (p: number) => {
  const q = Math.min(1 - 1e-4, Math.max(1e-4, p))
  return Math.log(q / (1 - q))
}

/** A probability as a feature: its logit over [1 %, 99 %], scaled to [−1, 1] so every feature has one scale. */
const scaledLogit = (p: number) => logit(Math.min(0.99, Math.max(0.01, p))) / Math.log(99)

/**
 * The feature values of a set of signals. An unknown signal takes its feature's neutral value (0 for an absent
 * check, the logit of ½ for an unknown probability), so the model reads "not known" as neither good nor bad. The
 * OCR's confidence counts only for grounded values (there are no words to be sure of otherwise), on [0, 1] so that
 * being found in words, however blurred, is never worse than not being found.
 */
export const features = (s: Signals): Readonly<Record<Feature, number>> => ({
  grounded: s.grounding === null ? 0 : 1,
  groundingScore: s.grounding === null ? 0 : clamp01(s.grounding),
  ocr: s.grounding === null ? 0 : (1 + scaledLogit(s.ocr ?? 0.5)) / 2,
  certainty: s.certainty === undefined ? 0 : scaledLogit(s.certainty),
  parsed: s.parsed ? 1 : 0,
  checkPassed: s.check?.passed === true ? 1 : 0,
  checkNotFailed: s.check?.passed === false ? 0 : 1,
  sumsMatch: s.arithmetic?.passed === true ? 1 : 0,
  sumsNotMismatched: s.arithmetic?.passed === false ? 0 : 1,
  repeatsAgree: s.repeats?.passed === true ? 1 : 0,
  repeatsNotDisagree: s.repeats?.passed === false ? 0 : 1,
  codeAgrees: s.code?.passed === true ? 1 : 0,
  codeNotDisagree: s.code?.passed === false ? 0 : 1,
  catalogScore: s.catalog === undefined ? 0 : clamp01(s.catalog.score),
  catalogMargin: s.catalog === undefined ? 0 : clamp01(s.catalog.margin)
})

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

const score = (model: Model, x: Readonly<Record<Feature, number>>) =>
  FEATURES.reduce((z, f) => z + model.weights[f] * x[f], model.intercept)

/** Thresholds below which a signal is named among the reasons. */
const LOW_OCR = 0.8
const LOW_CERTAINTY = 0.8
const FUZZY = 0.999
const LOW_CATALOG_SCORE = 0.9
const LOW_CATALOG_MARGIN = 0.1

const percent = (p: number) => `${Math.round(p * 100)} %`

/** The reasons that lowered the confidence: each signal that fired against the value. */
export const reasons = (s: Signals): ReadonlyArray<Reason> => {
  const out: Array<Reason> = []
  if (s.grounding === null) out.push({ code: "not_grounded", message: "not found in the document's words" })
  else if (s.grounding < FUZZY)
    out.push({ code: "fuzzy_grounding", message: `found only approximately (${percent(s.grounding)} similar)` })
  if (s.grounding !== null && s.ocr !== undefined && s.ocr < LOW_OCR)
    out.push({ code: "low_ocr", message: `the OCR was ${percent(s.ocr)} sure of these words` })
  if (s.certainty !== undefined && s.certainty < LOW_CERTAINTY)
    out.push({ code: "low_certainty", message: `the extractor was ${percent(s.certainty)} sure of it` })
  if (!s.parsed) out.push({ code: "parse_failed", message: "does not parse to the field's type" })
  if (s.check?.passed === false) out.push({ code: s.check.code, message: s.check.message })
  if (s.arithmetic?.passed === false) out.push({ code: s.arithmetic.code, message: s.arithmetic.message })
  if (s.repeats?.passed === false) out.push({ code: s.repeats.code, message: s.repeats.message })
  if (s.code?.passed === false) out.push({ code: s.code.code, message: s.code.message })
  if (s.catalog !== undefined && s.catalog.score < LOW_CATALOG_SCORE)
    out.push({ code: "catalog_score", message: `the catalog match scores ${percent(s.catalog.score)}` })
  if (s.catalog !== undefined && s.catalog.margin < LOW_CATALOG_MARGIN)
    out.push({
      code: "catalog_margin",
      message: `the runner-up scores within ${percent(s.catalog.margin)} of the match`
    })
  return out
}

/** The probability that a value with these signals is right, and what lowered it. */
export const assess = (model: Model, s: Signals): Assessment => ({
  confidence: sigmoid(score(model, features(s))),
  reasons: reasons(s)
})

/** One labelled value: its signals, whether it was right, and how much it counts in a fit (default 1). */
export interface Sample {
  readonly signals: Signals
  readonly right: boolean
  readonly weight?: number | undefined
}

/**
 * Fits the model by (weighted) maximum likelihood with a small L2 penalty, by projected gradient descent: after each step the
 * weights below zero are set to zero, which keeps the confidence monotonic in every signal. Deterministic.
 */
export const fit = (
  samples: ReadonlyArray<Sample>,
  options: { readonly iterations?: number; readonly rate?: number; readonly l2?: number } = {}
): Model => {
  const k = FEATURES.length
  const n = samples.length
  // Row-major features and the labels in typed arrays: the loop below runs iterations × n × k times.
  const x = new Float64Array(n * k)
  const y = new Float64Array(n)
  const weight = new Float64Array(n)
  samples.forEach((sample, i) => {
    weight[i] = sample.weight ?? 1
    const row = features(sample.signals)
    FEATURES.forEach((f, j) => {
      x[i * k + j] = row[f]
    })
    y[i] = sample.right ? 1 : 0
  })
  const w = new Float64Array(k)
  const gradient = new Float64Array(k)
  const rate = options.rate ?? 0.5
  const l2 = options.l2 ?? 1e-3
  const total = weight.reduce((a, b) => a + b, 0)
  let intercept = logit(n === 0 || total === 0 ? 0.5 : y.reduce((a, b, i) => a + b * (weight[i] ?? 1), 0) / total)
  for (let iteration = 0; iteration < (options.iterations ?? 3_000) && total > 0; iteration++) {
    gradient.fill(0)
    let gradientIntercept = 0
    for (let i = 0; i < n; i++) {
      let z = intercept
      for (let j = 0; j < k; j++) z += (w[j] ?? 0) * (x[i * k + j] ?? 0)
      const error = (sigmoid(z) - (y[i] ?? 0)) * (weight[i] ?? 1)
      gradientIntercept += error
      for (let j = 0; j < k; j++) gradient[j] = (gradient[j] ?? 0) + error * (x[i * k + j] ?? 0)
    }
    intercept -= (rate * gradientIntercept) / total
    for (let j = 0; j < k; j++) w[j] = Math.max(0, (w[j] ?? 0) - rate * ((gradient[j] ?? 0) / total + l2 * (w[j] ?? 0)))
  }
  return { intercept, weights: Object.fromEntries(FEATURES.map((f, j) => [f, w[j] ?? 0])) as Record<Feature, number> }
}
