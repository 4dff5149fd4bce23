/**
 * The confidence model shipped with legible, fitted by the calibration benchmark
 * (`CONFIDENCE_WRITE=1 npm run bench:confidence -w @legible/adapters-llm`) on the first half of every labelled set
 * (965 values; the samples are kept in `packages/adapters-llm/bench/confidence.samples.jsonl`). Generated: do
 * not edit by hand.
 */
import type { Model } from "../Confidence.js"

/** The fitted intercept and weights (`Confidence.FEATURES`). */
export const fitted: Model = {
  intercept: 2.1227,
  weights: {
    grounded: 0,
    groundingScore: 0,
    ocr: 0.3684,
    certainty: 2.8238,
    parsed: 0,
    checkPassed: 2.0586,
    checkNotFailed: 0,
    sumsMatch: 0.2345,
    sumsNotMismatched: 0,
    repeatsAgree: 0.0943,
    repeatsNotDisagree: 0,
    catalogScore: 1.2491,
    catalogMargin: 1.1971
  }
}
