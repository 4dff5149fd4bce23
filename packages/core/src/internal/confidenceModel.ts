/**
 * The confidence model shipped with legible, fitted by the calibration benchmark
 * (`CONFIDENCE_WRITE=1 npm run bench:confidence -w @legible/adapters-llm`) on the first half of every labelled set
 * (626 values; the samples are kept in `packages/adapters-llm/bench/confidence.samples.jsonl`). Generated: do
 * not edit by hand.
 */
import type { Model } from "../Confidence.js"

/** The fitted intercept and weights (`Confidence.FEATURES`). */
export const fitted: Model = {
  intercept: 3.5391,
  weights: {
    grounded: 0,
    groundingScore: 0,
    ocr: 0,
    certainty: 0,
    parsed: 0,
    checkPassed: 1.5515,
    checkNotFailed: 0,
    sumsMatch: 0,
    sumsNotMismatched: 0,
    repeatsAgree: 0,
    repeatsNotDisagree: 0,
    catalogScore: 0,
    catalogMargin: 0
  }
}
