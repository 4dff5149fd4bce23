/**
 * The confidence model shipped with legible, fitted by the calibration benchmark
 * (`CONFIDENCE_WRITE=1 npm run bench:confidence -w @legible/adapters-llm`) on the first half of every labelled set
 * (1383 values; figures in `packages/adapters-llm/MEASUREMENTS.md`; the samples are kept in
 * `packages/adapters-llm/bench/confidence.samples.jsonl`). Generated: do
 * not edit by hand.
 */
import type { Model } from "../Confidence.js"

/** The fitted intercept and weights (`Confidence.FEATURES`). */
export const fitted: Model = {
  intercept: 3.4829,
  weights: {
    grounded: 0,
    groundingScore: 0,
    ocr: 0,
    certainty: 0.842,
    parsed: 0,
    checkPassed: 1.3983,
    checkNotFailed: 0,
    sumsMatch: 0.2374,
    sumsNotMismatched: 0,
    repeatsAgree: 0.0457,
    repeatsNotDisagree: 0,
    codeAgrees: 0.6833,
    codeNotDisagree: 0,
    catalogScore: 0.8387,
    catalogMargin: 0.8249
  }
}
