/**
 * Scoring a document read by the reader against the synthetic ground truth: text (CER on text the Chinese
 * PP-OCRv4 dictionary can write) and word boxes (IoU in points).
 */
import type { Document } from "@legible/core"
import { iou } from "../../bench/metrics.js"
import { type Box, cer, comparable } from "../ocr/support.js"
import { type TruthPage, truthText } from "../support/synthetic.js"

/** The page's text: words joined by spaces, lines by newlines. */
export const pageText = (page: Document.ReadPage): string =>
  page.lines.map((line) => line.words.map((w) => w.word).join(" ")).join("\n")

const boxes = (page: Document.ReadPage): Array<Box> =>
  page.lines.flatMap((line) => line.words.map((w) => ({ text: w.word, x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1 })))

/** How well an OCRed page matches its truth. */
export interface Score {
  /** Character error rate, accents, €, º and ª ignored (the model cannot write them). */
  readonly cer: number
  /** Share of truth words that some read word overlaps with IoU ≥ 0.5. */
  readonly boxRecall: number
}

/** Scores a page read by OCR against the truth page (both in points). */
export const score = (page: Document.ReadPage, truth: TruthPage): Score => {
  const got = boxes(page)
  const want = truth.lines.flatMap((line) => line.map((w) => ({ text: w.word, ...w })))
  const hits = want.filter((t) => got.some((g) => iou(t, g) >= 0.5)).length
  return {
    cer: cer(comparable(pageText(page)), comparable(truthText(truth))),
    boxRecall: hits / Math.max(1, want.length)
  }
}

/** Every word id of a document, in order. */
export const wordIds = (document: Document.ReadDocument): Array<string> =>
  document.pages.flatMap((page) => page.lines.flatMap((line) => line.words.map((w) => w.id)))
