/**
 * Helpers for the OCR golden tests: decoding the synthetic rasters into pixels, turning them round, and scoring a
 * recognised page against its ground truth (character error rate, word-box IoU); the graph onnxruntime makes of a model.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as mupdf from "mupdf"
import * as ort from "onnxruntime-node"
import { type Boxed, iou } from "../../bench/metrics.js"
import type { PageImage } from "../../src/internal/ocr/image.js"
import { type Graph, readGraph } from "../../src/internal/ocr/onnxGraph.js"
import type { OcrPage } from "../../src/internal/ocr/pipeline.js"

/** A PNG/JPEG decoded by mupdf into packed RGB pixels (copied out of the WASM heap). */
export const decodeRaster = (bytes: Uint8Array): PageImage => {
  const image = new mupdf.Image(bytes)
  const pixmap = image.toPixmap()
  const width = pixmap.getWidth()
  const height = pixmap.getHeight()
  const n = pixmap.getNumberOfComponents() + pixmap.getAlpha()
  const stride = pixmap.getStride()
  const pixels = pixmap.getPixels()
  const data = new Uint8Array(width * height * n)
  for (let y = 0; y < height; y++) data.set(pixels.subarray(y * stride, y * stride + width * n), y * width * n)
  pixmap.destroy()
  image.destroy()
  if (n !== 1 && n !== 3 && n !== 4) throw new Error(`unexpected ${n} components`)
  return { width, height, channels: n, data }
}

/** The image turned upside down. */
export const rotate180 = (image: PageImage): PageImage => {
  const { width, height, channels, data } = image
  const out = new Uint8Array(data.length)
  const pixels = width * height
  for (let p = 0; p < pixels; p++) {
    out.set(data.subarray(p * channels, (p + 1) * channels), (pixels - 1 - p) * channels)
  }
  return { ...image, data: out }
}

/** The image turned a quarter clockwise: pixel (x, y) moves to (height − 1 − y, x). */
export const rotate90 = (image: PageImage): PageImage => {
  const { width, height, channels, data } = image
  const out = new Uint8Array(data.length)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * channels
      out.set(data.subarray(from, from + channels), (x * height + (height - 1 - y)) * channels)
    }
  }
  return { width: height, height: width, channels, data: out }
}

/** A word box in pixels. */
export type Box = Boxed

/**
 * Text as the Chinese PP-OCRv4 dictionary can write it: accents stripped, and €, º and ª dropped (it has none of
 * them); whitespace collapsed.
 */
export const comparable = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[€ºª]/g, "")
    .replace(/[ \t]+/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .join("\n")

/** Levenshtein distance between two strings (by UTF-16 unit; the compared texts are Latin). */
export const editDistance = (a: string, b: string): number => {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    prev = cur
  }
  return prev[b.length]!
}

/** Character error rate of `got` against `want`: edit distance over the truth's length. */
export const cer = (got: string, want: string): number => editDistance(got, want) / Math.max(1, want.length)

/** The page's text: words joined by spaces, lines by newlines. */
export const pageText = (page: OcrPage): string =>
  page.lines.map((l) => l.words.map((w) => w.text).join(" ")).join("\n")

/** The page's words as boxes. */
export const pageBoxes = (page: OcrPage): Array<Box> =>
  page.lines.flatMap((l) => l.words.map((w) => ({ text: w.text, x0: w.x0, y0: w.y0, x1: w.x1, y1: w.y1 })))

/** For each truth word, the best IoU of any recognised word box. */
export const bestIous = (truth: ReadonlyArray<Box>, got: ReadonlyArray<Box>): Array<number> =>
  truth.map((t) => Math.max(0, ...got.map((g) => iou(t, g))))

/** The axis-aligned hull of a quad [x0, y0, …, x3, y3]. */
export const quadBox = (text: string, q: ReadonlyArray<number>): Box => {
  const xs = [q[0]!, q[2]!, q[4]!, q[6]!]
  const ys = [q[1]!, q[3]!, q[5]!, q[7]!]
  return { text, x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) }
}

/** The graph onnxruntime runs for these model bytes after its own optimizations (one thread, level "all"). */
export const optimizedGraph = async (bytes: Uint8Array): Promise<Graph> => {
  const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "optimized-"))
  try {
    const optimized = Path.join(dir, "optimized.onnx")
    const session = await ort.InferenceSession.create(bytes, {
      intraOpNumThreads: 1,
      graphOptimizationLevel: "all",
      optimizedModelFilePath: optimized
    })
    await session.release()
    return readGraph(new Uint8Array(Fs.readFileSync(optimized)))
  } finally {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}
