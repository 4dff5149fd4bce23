/**
 * Text printed inside the images of a page whose text layer is read: a letterhead's logo (`QualityHosting`, a shop's
 * name drawn as a picture), a stamp, a pasted table. The text layer never holds it, so a document whose company name
 * is only in its logo had none. Each image region (`textRegions`) is cut from the page's grey render, with the text
 * layer's own words painted out (`regionImage`: a header band drawn under live text is not read twice), read by OCR,
 * and its lines placed among the page's in points (`placedLines`, `withImageLines`).
 */
import type { GreyPage } from "./mupdf/render.js"
import type { Rect } from "./ocr/box.js"
import type { PageImage } from "./ocr/image.js"
import type { OcrPage } from "./ocr/pipeline.js"

/** A word of a page in points, read from its text layer or by OCR (`pictured`: from one of its pictures). */
export interface PageWord extends Rect {
  readonly word: string
  readonly confidence: number
  /** The confidence in its letters, marks aside (`OcrWord.letters`; 1 on a text layer). */
  readonly letters: number
  readonly pictured?: true
}

/** A line of a picture's words. */
export interface PlacedLine {
  readonly words: ReadonlyArray<PageWord & { readonly pictured: true }>
}

/** The least an image must measure, in points, to hold a line of text: a 7 pt word's height, two letters' width. */
const MIN_HEIGHT = 8
const MIN_WIDTH = 16
/** An image over this share of the page is its background or its scan: the text layer is that page's text. */
const MAX_COVERAGE = 0.5
/** At most this many regions a page, the largest: a page of many pictures is a catalogue, not a letterhead. */
const MAX_REGIONS = 6

const area = (r: Rect): number => Math.max(0, r.x1 - r.x0) * Math.max(0, r.y1 - r.y0)

const intersects = (a: Rect, b: Rect): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1

const union = (a: Rect, b: Rect): Rect => ({
  x0: Math.min(a.x0, b.x0),
  y0: Math.min(a.y0, b.y0),
  x1: Math.max(a.x1, b.x1),
  y1: Math.max(a.y1, b.y1)
})

/**
 * The regions of a page's images worth reading (pure): clipped to the page, none over `MAX_COVERAGE` of it (a
 * background is no logo, and makes one with none), images that overlap made one (a logo drawn in pieces is read
 * once), at least `MIN_WIDTH` × `MIN_HEIGHT` points and no more than `MAX_COVERAGE` of the page, the `MAX_REGIONS`
 * largest, top to bottom.
 */
export const textRegions = (images: ReadonlyArray<Rect>, width: number, height: number): Array<Rect> => {
  const clipped = images
    .map((r) => ({
      x0: Math.max(0, r.x0),
      y0: Math.max(0, r.y0),
      x1: Math.min(width, r.x1),
      y1: Math.min(height, r.y1)
    }))
    .filter((r) => r.x1 > r.x0 && r.y1 > r.y0 && area(r) <= MAX_COVERAGE * width * height)
  const merged: Array<Rect> = []
  for (const image of clipped) {
    let region = image
    for (let i = merged.length - 1; i >= 0; i--) {
      const other = merged[i]!
      if (intersects(region, other)) {
        region = union(region, other)
        merged.splice(i, 1)
      }
    }
    merged.push(region)
  }
  return merged
    .filter((r) => r.x1 - r.x0 >= MIN_WIDTH && r.y1 - r.y0 >= MIN_HEIGHT && area(r) <= MAX_COVERAGE * width * height)
    .sort((a, b) => area(b) - area(a))
    .slice(0, MAX_REGIONS)
    .sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0)
}

/** White around a region's cut, in pixels: the detector finds no text touching an image's edge. */
const MARGIN = 8

/** Where a region's image sits in the render, in pixels: its cut and the white margin around it. */
export interface Cut {
  readonly x: number
  readonly y: number
  readonly image: PageImage
}

/**
 * A region cut from the grey render with `MARGIN` pixels of white around it, the text layer's words inside it
 * painted white (pure): what OCR reads there is the image's own text.
 */
export const regionImage = (grey: GreyPage, region: Rect, words: ReadonlyArray<Rect>): Cut | undefined => {
  const x0 = Math.max(0, Math.floor(region.x0 / grey.scale))
  const y0 = Math.max(0, Math.floor(region.y0 / grey.scale))
  const x1 = Math.min(grey.width, Math.ceil(region.x1 / grey.scale))
  const y1 = Math.min(grey.height, Math.ceil(region.y1 / grey.scale))
  if (x1 - x0 < 2 || y1 - y0 < 2) return undefined
  const width = x1 - x0 + 2 * MARGIN
  const height = y1 - y0 + 2 * MARGIN
  const data = new Uint8Array(width * height).fill(255)
  for (let y = y0; y < y1; y++) {
    const from = y * grey.width
    data.set(grey.pixels.subarray(from + x0, from + x1), (y - y0 + MARGIN) * width + MARGIN)
  }
  for (const w of words) {
    if (!intersects(w, region)) continue
    const wx0 = Math.max(0, Math.floor(w.x0 / grey.scale) - x0 + MARGIN - 1)
    const wx1 = Math.min(width, Math.ceil(w.x1 / grey.scale) - x0 + MARGIN + 1)
    const wy0 = Math.max(0, Math.floor(w.y0 / grey.scale) - y0 + MARGIN - 1)
    const wy1 = Math.min(height, Math.ceil(w.y1 / grey.scale) - y0 + MARGIN + 1)
    for (let y = wy0; y < wy1; y++) data.fill(255, y * width + wx0, y * width + wx1)
  }
  return { x: x0 - MARGIN, y: y0 - MARGIN, image: { width, height, channels: 1, data } }
}

/** The lines OCR read in a cut, in page points (pure). */
export const placedLines = (page: OcrPage, cut: Cut, scale: number): Array<PlacedLine> =>
  page.lines
    .map((line) => ({
      words: line.words
        .filter((w) => w.text.trim() !== "")
        .map((w) => ({
          word: w.text,
          x0: (cut.x + w.x0) * scale,
          y0: (cut.y + w.y0) * scale,
          x1: (cut.x + w.x1) * scale,
          y1: (cut.y + w.y1) * scale,
          confidence: w.confidence,
          letters: w.letters,
          pictured: true as const
        }))
    }))
    .filter((line) => line.words.length > 0)

/** A line as its place among a page's needs it: its words' heights. */
interface Banded {
  readonly words: ReadonlyArray<{ readonly y0: number; readonly y1: number }>
}

const top = (line: Banded): number => Math.min(...line.words.map((w) => w.y0))
const middle = (line: Banded): number =>
  (Math.min(...line.words.map((w) => w.y0)) + Math.max(...line.words.map((w) => w.y1))) / 2

/**
 * The page's lines with the images' lines among them (pure): each before the first text line that starts below its
 * middle, so that a logo over the letterhead reads first and one beside a line reads with it.
 */
export const withImageLines = <L extends Banded, I extends Banded>(
  lines: ReadonlyArray<L>,
  images: ReadonlyArray<I>
): Array<L | I> => {
  const out: Array<L | I> = [...lines]
  for (const line of [...images].sort((a, b) => middle(a) - middle(b))) {
    const at = out.findIndex((other) => other.words.length > 0 && top(other) > middle(line))
    out.splice(at < 0 ? out.length : at, 0, line)
  }
  return out
}
