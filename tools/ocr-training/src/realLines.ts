/**
 * Line crops of whole pages for tuning a head on data the benchmarks do not score:
 * `node src/realLines.ts <sroie|funsd|spanish> <first page> <pages> <out.bin>`. SROIE and FUNSD pages in name
 * order, as `@legible/ocr-onnx/bench/datasets.ts` takes them (the benchmarks read the first 10 of each, the OCR
 * benchmark up to 30); `spanish`: pages `first` … `first + pages − 1` of each kind of the Spanish benchmark's page
 * generator (it draws pages 0 and 1 of each), each rendered in its three conditions with other noise seeds than the
 * benchmark's.
 *
 * Each page goes through the reader's own render (`renderForOcr`: small images enlarged towards 2,000 px), the real
 * detector and DB post-processing, and `cropLine`, like inference. A detected box is kept with its truth when it
 * matches one SROIE line (axis-aligned IoU ≥ 0.5, one to one) or a run of words (FUNSD, Spanish: every word over
 * half inside the box has its centre in it, the words cover at least 60 % of its length; read left to right). Boxes
 * wider than the recognizer's longest input, and truths with a character outside the dictionary, are skipped.
 *
 * Cache: the `samples.ts` records without the pooled map (`readSamples(path, dim, dim, 0)`): uint16 T, uint16 L,
 * L × uint16 labels, T rows of the head's D float32 features.
 */
import * as Fs from "node:fs"
import { funsd, sroie } from "@legible/ocr-onnx/bench/datasets.ts"
import { type Boxed, iou } from "@legible/ocr-onnx/bench/metrics.ts"
import { conditions, renderPage, spanishPages, truthWords } from "@legible/ocr-onnx/bench/spanish.pages.ts"
import {
  boxRect,
  cropLine,
  defaultLimits,
  defaultOcrConfig,
  modelFiles,
  type OrientedBox,
  openDocument,
  type Rect,
  renderForOcr,
  withPage
} from "@legible/ocr-onnx/training"
import { Effect } from "effect"
import { encodeLabels, encodeRecord, featureSession, pageDetector } from "./samples.ts"

const [dataset, first, count, out] = process.argv.slice(2)
if (
  (dataset !== "sroie" && dataset !== "funsd" && dataset !== "spanish") ||
  first === undefined ||
  count === undefined ||
  out === undefined
) {
  throw new Error("usage: realLines.ts <sroie|funsd|spanish> <first page> <pages> <out.bin>")
}
const dictionary = Fs.readFileSync(modelFiles().dictionary, "utf8").replace(/\n$/, "").split("\n")

/** A page to read: its image bytes and truth (boxes in the image's native pixels). */
interface Page {
  readonly id: string
  readonly bytes: () => Uint8Array
  readonly truth: ReadonlyArray<Boxed>
}

/** Spanish benchmark-style pages the benchmark does not draw, truth words turned with the page like its ink. */
const spanish = (from: number, n: number): Array<Page> =>
  spanishPages(from + n)
    .slice(3 * from)
    .flatMap((page, k) =>
      conditions.map((condition, c): Page => {
        const scale = condition.dpi / 72
        const cx = (page.width * scale) / 2
        const cy = (page.height * scale) / 2
        const a = (condition.degrees * Math.PI) / 180
        const truth = truthWords(page).map((w) => {
          const x = ((w.x0 + w.x1) / 2) * scale - cx
          const y = ((w.y0 + w.y1) / 2) * scale - cy
          const ux = x * Math.cos(a) - y * Math.sin(a) + cx
          const uy = x * Math.sin(a) + y * Math.cos(a) + cy
          const hw = ((w.x1 - w.x0) / 2) * scale
          const hh = ((w.y1 - w.y0) / 2) * scale
          return { text: w.text, x0: ux - hw, y0: uy - hh, x1: ux + hw, y1: uy + hh }
        })
        return {
          id: `${page.kind}-${from + Math.floor(k / 3)}-${c}`,
          bytes: () => renderPage(page, condition, 90_000 + 1000 * c + k),
          truth
        }
      })
    )

const pages: Array<Page> =
  dataset === "spanish"
    ? spanish(Number(first), Number(count))
    : (dataset === "sroie" ? sroie : funsd)(Number(first) + Number(count))
        .slice(Number(first))
        .map((s) => ({ id: s.id, bytes: () => new Uint8Array(Fs.readFileSync(s.image)), truth: s.truth }))

const area = (r: Rect) => Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0)
const overlap = (a: Rect, b: Rect) =>
  area({ x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0), x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1) })
const scaled = (b: Boxed, zoom: number): Rect => ({
  x0: b.x0 * zoom,
  y0: b.y0 * zoom,
  x1: b.x1 * zoom,
  y1: b.y1 * zoom
})

/** SROIE: each truth line to the detected box it overlaps most (IoU ≥ 0.5), one to one. */
const matchLines = (boxes: ReadonlyArray<OrientedBox>, truth: ReadonlyArray<Rect & { text: string }>) => {
  const pairs: Array<{ box: OrientedBox; text: string }> = []
  const used = new Set<number>()
  for (const line of truth) {
    let best = -1
    let bestIou = 0.5
    for (const [k, box] of boxes.entries()) {
      const v = iou({ text: "", ...boxRect(box) }, line)
      if (!used.has(k) && v >= bestIou) {
        best = k
        bestIou = v
      }
    }
    if (best >= 0) {
      used.add(best)
      pairs.push({ box: boxes[best]!, text: line.text })
    }
  }
  return pairs
}

/** FUNSD: the words of each detected box, when no word straddles its edge and they span most of it. */
const matchWords = (boxes: ReadonlyArray<OrientedBox>, words: ReadonlyArray<Rect & { text: string }>) =>
  boxes.flatMap((box) => {
    const r = boxRect(box)
    const touching = words.filter((w) => overlap(w, r) > 0.5 * area(w))
    const inside = touching.filter((w) => {
      const cx = (w.x0 + w.x1) / 2
      const cy = (w.y0 + w.y1) / 2
      return cx >= r.x0 && cx <= r.x1 && cy >= r.y0 && cy <= r.y1
    })
    const straddling = words.some((w) => overlap(w, r) > 0.2 * area(w) && !touching.includes(w))
    if (inside.length === 0 || inside.length !== touching.length || straddling) return []
    const span = Math.max(...inside.map((w) => w.x1)) - Math.min(...inside.map((w) => w.x0))
    if (span < 0.6 * (r.x1 - r.x0)) return []
    const text = [...inside]
      .sort((a, b) => a.x0 + a.x1 - b.x0 - b.x1)
      .map((w) => w.text.trim())
      .filter((t) => t !== "")
      .join(" ")
    return text === "" ? [] : [{ box, text }]
  })

const features = await featureSession()
const detect = await pageDetector()
const fd = Fs.openSync(out, "w")
let kept = 0
let skipped = 0
let timesteps = 0
for (const page of pages) {
  const rendered = await Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(openDocument(page.bytes(), defaultLimits), (opened) =>
        withPage(opened, 0, (p) => renderForOcr(p, opened.kind, defaultLimits))
      )
    )
  )
  // An image document's page is its native pixels at 0.36 pt each: the render's zoom over them.
  const zoom = rendered.width / ((rendered.pageWidth * 200) / 72)
  const image = { width: rendered.width, height: rendered.height, channels: 3 as const, data: rendered.data }
  const boxes = await detect(image)
  const truth = page.truth.map((t) => ({ ...scaled(t, zoom), text: t.text }))
  const pairs = dataset === "sroie" ? matchLines(boxes, truth) : matchWords(boxes, truth)
  for (const { box, text } of pairs) {
    const labels = encodeLabels(text, dictionary)
    const crop = cropLine(image, box, defaultOcrConfig)
    if (labels === undefined || crop.width > defaultOcrConfig.recMaxWidth) {
      skipped++
      continue
    }
    const result = await features.run(crop)
    const f = result[features.output]!
    const t = f.dims[1]!
    const record = encodeRecord(labels, t, (f.data as Float32Array).subarray(0, t * features.dim))
    Fs.writeSync(fd, record)
    kept++
    timesteps += t
  }
  process.stdout.write(`${page.id}: ${boxes.length} boxes, ${pairs.length} matched\n`)
}
Fs.closeSync(fd)
await features.session.release()
process.stdout.write(`${JSON.stringify({ dataset, pages: pages.length, lines: kept, skipped, timesteps })}\n`)
