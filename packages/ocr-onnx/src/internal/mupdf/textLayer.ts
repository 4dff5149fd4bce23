/**
 * A PDF page's text layer as lines of words with boxes, and whether it is worth using. Runs inside a worker thread.
 *
 * `textLayer(page, options?)` → `TextLayer`:
 * - `width`/`height`: the page as displayed (after `/Rotate`), in PDF points.
 * - `lines`: words in reading order. A word is a run of non-whitespace characters of one mupdf line (punctuation
 *   stays attached, as a tokenizer splitting on spaces would leave it); its box is the union of its characters'
 *   quads, in points with the origin at the top-left corner of the displayed page. Vertically, a character spans
 *   its font's ascender to descender (mupdf's convention), not its ink.
 * - Reading order: mupdf's blocks (runs of text it grouped by proximity), each block's lines merged into visual rows
 *   (lines overlapping vertically by half their height: the cells of a table row), rows top to bottom. Blocks made
 *   of one row that share that row with other one-row blocks are merged (a label and its value drawn far apart in
 *   the content stream). Blocks are then taken in bands from the top, left to right within a band, so side-by-side
 *   blocks (an emitter's address beside the client's) stay whole instead of interleaving their lines.
 * - `verdict`: `usable: false` when the page should be OCRed instead — no text (`empty`); mostly characters
 *   without a Unicode mapping, i.e. U+FFFD, private-use or control characters, or text drawn with a TrueType font
 *   that has neither `/ToUnicode` nor a `cmap` (`garbage`); almost no letters or digits (`symbols`); or a page
 *   mostly covered by images with little text over them (`scanned`: a scan with a small OCRed header or stamp).
 */
import type { Document } from "@legible/core"
import type { Effect } from "effect"
import type * as mupdf from "mupdf"
import { attempt } from "./errors.js"
import { untrustedFonts } from "./fonts.js"

/** A word of the text layer; coordinates in points, top-left origin on the displayed page. */
export interface TextWord {
  readonly word: string
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

/** A line of words in reading order. */
export interface TextLine {
  readonly words: ReadonlyArray<TextWord>
}

/** Whether the text layer should be used, and why (in a few words for logs and tests). */
export interface Verdict {
  readonly usable: boolean
  readonly reason: "text" | "empty" | "garbage" | "symbols" | "scanned"
  readonly detail: string
}

/** A page's text layer. */
export interface TextLayer {
  readonly width: number
  readonly height: number
  readonly lines: ReadonlyArray<TextLine>
  readonly verdict: Verdict
}

/** Thresholds of the verdict. */
export interface TextLayerOptions {
  /** Unusable when more than this share of the characters has no Unicode mapping. */
  readonly maxGarbageRatio: number
  /** Unusable when fewer than this share of the characters are letters or digits. */
  readonly minAlphanumericRatio: number
  /** A page whose images cover at least this share of its area is a scan… */
  readonly scanCoverage: number
  /** …whose text layer is unusable below this many characters. */
  readonly minCharsOnScan: number
}

/** Defaults: 20 % garbage, 30 % letters or digits, scans covering half the page with fewer than 100 characters. */
export const defaultTextLayerOptions: TextLayerOptions = {
  maxGarbageRatio: 0.2,
  minAlphanumericRatio: 0.3,
  scanCoverage: 0.5,
  minCharsOnScan: 100
}

interface Box {
  x0: number
  y0: number
  x1: number
  y1: number
}

interface Row extends Box {
  readonly lines: Array<{ readonly x0: number; readonly words: ReadonlyArray<TextWord> }>
}

const isSpace = (code: number): boolean =>
  code <= 0x20 || code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200b) || code === 0x3000
const isAlphanumeric = (c: string, code: number): boolean =>
  (code >= 0x30 && code <= 0x39) ||
  ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) ||
  (code >= 0x80 && /^[\p{L}\p{N}]$/u.test(c))
// Spaces and other separators are tested first, so C0 controls never reach this test.
const isGarbage = (code: number): boolean =>
  code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff) || (code >= 0x7f && code < 0xa0)

// A mupdf line: its words (boxes on the displayed page) and its box in the text's own frame (see `frame`).
interface Line {
  readonly words: ReadonlyArray<TextWord>
  box: Box
}

const overlapsAsRow = (a: Box, b: Box): boolean => {
  const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)
  return overlap >= 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0)
}

const boxOf = (boxes: ReadonlyArray<Box>): Box => {
  const box = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }
  for (const b of boxes) {
    box.x0 = Math.min(box.x0, b.x0)
    box.y0 = Math.min(box.y0, b.y0)
    box.x1 = Math.max(box.x1, b.x1)
    box.y1 = Math.max(box.y1, b.y1)
  }
  return box
}

// Text that runs down, up or upside down on the displayed page (a /Rotate that does not match the content) is
// ordered in its own frame: boxes turned by −θ, where θ is the dominant writing direction (a multiple of 90°).
const frame = (box: Box, direction: 0 | 90 | 180 | 270): Box => {
  switch (direction) {
    case 0:
      return box
    case 90:
      return { x0: box.y0, y0: -box.x1, x1: box.y1, y1: -box.x0 }
    case 180:
      return { x0: -box.x1, y0: -box.y1, x1: -box.x0, y1: -box.y0 }
    case 270:
      return { x0: -box.y1, y0: box.x0, x1: -box.y0, y1: box.x1 }
  }
}

// Groups lines (in their block's order) into rows of vertically overlapping lines, rows top to bottom.
const toRows = (lines: ReadonlyArray<Line>): Array<Row> => {
  const rows: Array<Row> = []
  for (const { box, words } of lines) {
    const row = rows.find((r) => overlapsAsRow(r, box))
    if (row === undefined) {
      rows.push({ ...box, lines: [{ x0: box.x0, words }] })
      continue
    }
    row.lines.push({ x0: box.x0, words })
    Object.assign(row, boxOf([row, box]))
  }
  return rows.sort((a, b) => a.y0 - b.y0)
}

// Blocks → reading order: one-row blocks sharing a row merged, then bands from the top, left to right.
const order = (blocks: ReadonlyArray<ReadonlyArray<Line>>): Array<TextLine> => {
  const merged: Array<Array<Row>> = []
  for (const block of blocks.map(toRows)) {
    if (block.length === 1) {
      const row = block[0]!
      const partner = merged.find((other) => other.length === 1 && overlapsAsRow(other[0]!, row))
      if (partner !== undefined) {
        const target = partner[0]!
        target.lines.push(...row.lines)
        Object.assign(target, boxOf([target, row]))
        continue
      }
    }
    merged.push(block)
  }
  const units = merged.map((rows) => ({ rows, box: boxOf(rows) })).sort((a, b) => a.box.y0 - b.box.y0)
  const lines: Array<TextLine> = []
  for (let i = 0; i < units.length; ) {
    const leader = units[i]!.rows[0]!
    let j = i + 1
    while (j < units.length && units[j]!.box.y0 < leader.y1) j++
    const band = units.slice(i, j).sort((a, b) => a.box.x0 - b.box.x0)
    for (const unit of band) {
      for (const row of unit.rows) {
        // A single mupdf line keeps its own word order (right-to-left scripts); merged lines go left to right.
        const parts = row.lines.length === 1 ? row.lines : [...row.lines].sort((a, b) => a.x0 - b.x0)
        lines.push({ words: parts.flatMap((p) => p.words) })
      }
    }
    i = j
  }
  return lines
}

interface Counts {
  chars: number
  garbage: number
  alphanumeric: number
  imageArea: number
}

const judge = (counts: Counts, pageArea: number, options: TextLayerOptions): Verdict => {
  const { chars, garbage, alphanumeric } = counts
  const coverage = pageArea > 0 ? Math.min(1, counts.imageArea / pageArea) : 0
  if (chars === 0) return { usable: false, reason: "empty", detail: "no text layer" }
  if (garbage / chars > options.maxGarbageRatio) {
    return { usable: false, reason: "garbage", detail: `${garbage} of ${chars} characters have no Unicode mapping` }
  }
  if (alphanumeric / chars < options.minAlphanumericRatio) {
    return { usable: false, reason: "symbols", detail: `${alphanumeric} of ${chars} characters are letters or digits` }
  }
  if (coverage >= options.scanCoverage && chars < options.minCharsOnScan) {
    return {
      usable: false,
      reason: "scanned",
      detail: `images cover ${Math.round(coverage * 100)} % of the page, with ${chars} characters of text`
    }
  }
  return { usable: true, reason: "text", detail: `${chars} characters` }
}

// The area of the page covered by images (overlaps counted twice: the caller caps the share at 1).
const imageArea = (page: mupdf.Page, [px0, py0, px1, py1]: readonly [number, number, number, number]): number => {
  let area = 0
  const stext = page.toStructuredText("preserve-images")
  try {
    stext.walk({
      onImageBlock: (bbox, _matrix, image) => {
        image.destroy()
        const w = Math.max(0, Math.min(bbox[2], px1) - Math.max(bbox[0], px0))
        const h = Math.max(0, Math.min(bbox[3], py1) - Math.max(bbox[1], py0))
        area += w * h
      }
    })
  } finally {
    stext.destroy()
  }
  return area
}

const read = (page: mupdf.Page, options: TextLayerOptions): TextLayer => {
  const [px0, py0, px1, py1] = page.getBounds()
  const width = px1 - px0
  const height = py1 - py0
  const untrusted = untrustedFonts(page)
  const fontTrust = new Map<number, boolean>()
  const counts: Counts = { chars: 0, garbage: 0, alphanumeric: 0, imageArea: 0 }
  const blocks: Array<Array<Line>> = []
  let blockLines: Array<Line> = []
  let words: Array<TextWord> = []
  // Characters per writing direction (0, 90, 180, 270 degrees, clockwise on the displayed page).
  const directions = [0, 0, 0, 0]
  let quadrant = 0
  let text = ""
  let box: Box = { x0: 0, y0: 0, x1: 0, y1: 0 }
  const endWord = () => {
    if (text.length > 0)
      words.push({ word: text, x0: box.x0 - px0, y0: box.y0 - py0, x1: box.x1 - px0, y1: box.y1 - py0 })
    text = ""
  }
  const stext = page.toStructuredText("")
  try {
    stext.walk({
      beginTextBlock: () => {
        blockLines = []
      },
      beginLine: (_bbox, _wmode, [dx, dy]) => {
        words = []
        quadrant = Math.abs(dx) >= Math.abs(dy) ? (dx >= 0 ? 0 : 2) : dy >= 0 ? 1 : 3
      },
      onChar: (c, _origin, font, _size, quad) => {
        let trusted = true
        if (untrusted.size > 0) {
          trusted = fontTrust.get(font.pointer) ?? !untrusted.has(font.getName())
          fontTrust.set(font.pointer, trusted)
        }
        font.destroy()
        const code = c.charCodeAt(0)
        if (isSpace(code)) {
          endWord()
          return
        }
        counts.chars++
        directions[quadrant]!++
        if (!trusted || isGarbage(code)) counts.garbage++
        else if (isAlphanumeric(c, code)) counts.alphanumeric++
        const x0 = Math.min(quad[0], quad[2], quad[4], quad[6])
        const y0 = Math.min(quad[1], quad[3], quad[5], quad[7])
        const x1 = Math.max(quad[0], quad[2], quad[4], quad[6])
        const y1 = Math.max(quad[1], quad[3], quad[5], quad[7])
        if (text.length === 0) box = { x0, y0, x1, y1 }
        else {
          box.x0 = Math.min(box.x0, x0)
          box.y0 = Math.min(box.y0, y0)
          box.x1 = Math.max(box.x1, x1)
          box.y1 = Math.max(box.y1, y1)
        }
        text += c
      },
      endLine: () => {
        endWord()
        if (words.length > 0) blockLines.push({ words, box: boxOf(words) })
      },
      endTextBlock: () => {
        if (blockLines.length > 0) blocks.push(blockLines)
      }
    })
  } finally {
    stext.destroy()
  }
  // Image coverage only matters for a sparse text layer; collecting image blocks costs ~30 % more on every page.
  if (counts.chars > 0 && counts.chars < options.minCharsOnScan)
    counts.imageArea = imageArea(page, [px0, py0, px1, py1])
  const dominant = directions.indexOf(Math.max(...directions))
  const direction = ([0, 90, 180, 270] as const)[dominant] ?? 0
  if (direction !== 0) for (const block of blocks) for (const line of block) line.box = frame(line.box, direction)
  return { width, height, lines: order(blocks), verdict: judge(counts, width * height, options) }
}

/** The page's words in reading order, its size, and whether its text layer is usable. */
export const textLayer = (
  page: mupdf.Page,
  options: TextLayerOptions = defaultTextLayerOptions
): Effect.Effect<TextLayer, Document.DocumentError> => attempt(() => read(page, options), "the text layer is damaged")
