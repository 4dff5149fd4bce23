/**
 * The confidence model shipped with legible, fitted by the calibration benchmark
 * (`CONFIDENCE_WRITE=1 npm run bench:confidence -w @legible/adapters-llm`) on the first half of every labelled set
 * (1314 values; figures in `packages/adapters-llm/MEASUREMENTS.md`; the samples are kept in
 * `packages/adapters-llm/bench/confidence.samples.jsonl`). Generated: do
 * not edit by hand.
 */
import type { Model } from "../Confidence.js"

/** The fitted intercept and weights (`Confidence.FEATURES`). */
export const fitted: Model = {
  intercept: 2.8987,
  weights: {
    grounded: 0,
    groundingScore: 0,
    ocr: 0,
    certainty: 1.3093,
    parsed: 0,
    checkPassed: 1.7165,
    checkNotFailed: 0,
    sumsMatch: 0.1938,
    sumsNotMismatched: 0,
    repeatsAgree: 0.045,
    repeatsNotDisagree: 0,
    codeAgrees: 0.8436,
    codeNotDisagree: 0,
    catalogScore: 1.036,
    catalogMargin: 1.0135
  }
}
