/**
 * The confidence model shipped with legible, fitted by the calibration benchmark
 * (`CONFIDENCE_WRITE=1 npm run bench:confidence -w @legible/adapters-llm`) on the first half of every labelled set
 * (759 values; the samples are kept in `packages/adapters-llm/bench/confidence.samples.jsonl`). Generated: do
 * not edit by hand.
 */
import type { Model } from "../Confidence.js"

/** The fitted intercept and weights (`Confidence.FEATURES`). */
export const fitted: Model = {
  intercept: 1.6686,
  weights: {
    grounded: 0,
    groundingScore: 0,
    ocr: 0.849,
    certainty: 2.9718,
    parsed: 0,
    checkPassed: 2.1646,
    checkNotFailed: 0,
    sumsMatch: 0.2663,
    sumsNotMismatched: 0,
    repeatsAgree: 0.0995,
    repeatsNotDisagree: 0,
    catalogScore: 0,
    catalogMargin: 0
  }
}
