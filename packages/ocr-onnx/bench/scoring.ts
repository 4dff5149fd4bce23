/**
 * Scores of one engine on one dataset: engine pages (boxes in pixels or points) against the samples' truth.
 */
import * as Fs from "node:fs"
import * as mupdf from "mupdf"
import type { Sample } from "./datasets.js"
import type { EngineOutput } from "./engines/protocol.js"
import { type Boxed, canonicalText, charErrors, inventedMarks, matchWords, total } from "./metrics.js"

/** An image's size in pixels, as decoded. */
export const imageSize = (path: string): { readonly width: number; readonly height: number } => {
  const image = new mupdf.Image(new Uint8Array(Fs.readFileSync(path)))
  const size = { width: image.getWidth(), height: image.getHeight() }
  image.destroy()
  return size
}

/** What the benchmark prints for one engine on one dataset. */
export interface Scores {
  readonly pages: number
  readonly failures: number
  readonly cer: number
  readonly recall: number | undefined
  readonly precision: number | undefined
  /** Share of the words read that carry a mark the truth over them lacks (`inventedMarks`), and those words. */
  readonly inventedMarks: number
  readonly invented: ReadonlyArray<string>
  readonly pagesPerCoreSecond: number
  readonly pagesPerCpuSecond: number
  readonly medianMs: number
  readonly maxRssMb: number
  readonly startupMs: number
}

const median = (xs: ReadonlyArray<number>) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0

/**
 * Scores an engine's output. Word boxes in points are scaled to the image's pixels (page width ↔ image width).
 * With `upperCase`, texts are compared in upper case (SROIE's labels are). Word matching needs word-level truth,
 * so recall and precision are given for FUNSD only.
 */
export const scorePages = (
  output: EngineOutput,
  samples: ReadonlyArray<Sample>,
  sizes: ReadonlyMap<string, { readonly width: number; readonly height: number }>,
  upperCase: boolean
): Scores => {
  const wordLevel = samples.every((s) => s.dataset === "FUNSD")
  const text = (t: string) => (upperCase ? t.toUpperCase() : t)
  const scored = samples.map((sample) => {
    const page = output.pages.find((p) => p.image === sample.image)
    const size = sizes.get(sample.image)
    const factor = page?.unit === "point" && size !== undefined && page.width > 0 ? size.width / page.width : 1
    const words: Array<Boxed> = (page?.words ?? []).map((w) => ({
      text: text(w.text),
      x0: w.x0 * factor,
      y0: w.y0 * factor,
      x1: w.x1 * factor,
      y1: w.y1 * factor
    }))
    const truth = sample.truth.map((t) => ({ ...t, text: text(t.text) }))
    return {
      failed: page === undefined || page.error !== undefined,
      marks: inventedMarks(words, truth),
      ...charErrors(canonicalText(words), canonicalText(truth)),
      ...(wordLevel ? matchWords(words, truth) : { matched: 0, reference: 0, predicted: 0 })
    }
  })
  const matched = total(scored, (s) => s.matched)
  return {
    pages: samples.length,
    failures: scored.filter((s) => s.failed).length,
    cer:
      total(scored, (s) => s.errors) /
      Math.max(
        1,
        total(scored, (s) => s.length)
      ),
    recall: wordLevel
      ? matched /
        Math.max(
          1,
          total(scored, (s) => s.reference)
        )
      : undefined,
    precision: wordLevel
      ? matched /
        Math.max(
          1,
          total(scored, (s) => s.predicted)
        )
      : undefined,
    inventedMarks:
      total(scored, (s) => s.marks.invented.length) /
      Math.max(
        1,
        total(scored, (s) => s.marks.words)
      ),
    invented: scored.flatMap((s) => s.marks.invented),
    pagesPerCoreSecond: samples.length / ((output.wallMs / 1000) * output.workers),
    pagesPerCpuSecond: samples.length / (output.cpuMs / 1000),
    medianMs: median(output.pages.map((p) => p.ms)),
    maxRssMb: output.maxRssMb,
    startupMs: output.startupMs
  }
}
