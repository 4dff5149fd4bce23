import { boxRegionRect, type OrientedBox } from "./box.js"
import type { LineCrop } from "./crop.js"
import { type CropWord, foldFullWidth } from "./ctc.js"

/** A recognised word in page pixels: the axis-aligned hull of its oriented quad. */
export interface OcrWord {
  readonly text: string
  /** The lowest probability among its characters: one doubtful character makes a doubtful word. */
  readonly confidence: number
  /** The same with what the page and the word settle summed in (`CtcChar.letter`: marks, case, look-alikes). */
  readonly letters: number
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

/**
 * The words of one line in page pixels: along the line, their column ranges; across it, the detector's whole
 * unclipped box. That box spans about 1.3–1.45 em, close to the ascender-to-descender box a PDF text layer gives
 * (mupdf: 1.374 em for Helvetica), so OCR and text-layer pages get boxes of the same kind; the glyphs' own band
 * (cap height to descender, 0.7–0.95 em depending on the letters) scored a median IoU of 0.58 against text-layer
 * boxes, the whole box 0.83.
 */
export const wordsOnPage = (
  crop: Pick<LineCrop, "box" | "scale">,
  words: ReadonlyArray<CropWord>,
  fold: boolean
): Array<OcrWord> => {
  const box: OrientedBox = crop.box
  const v0 = -box.height / 2
  const v1 = box.height / 2
  return words.map((w) => {
    const rect = boxRegionRect(box, -box.width / 2 + w.start * crop.scale, -box.width / 2 + w.end * crop.scale, v0, v1)
    return {
      text: fold ? foldFullWidth(w.text) : w.text,
      confidence: Math.min(...w.chars.map((c) => c.prob)),
      letters: Math.min(...w.chars.map((c) => c.letter ?? c.prob)),
      ...rect
    }
  })
}

/** Whether word `a` lies on word `b`: half its width over `b`'s, and half the shorter one's height. */
const onTop = (a: OcrWord, b: OcrWord): boolean =>
  Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) >= 0.5 * (a.x1 - a.x0) &&
  Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) >= 0.5 * Math.min(a.y1 - a.y0, b.y1 - b.y0)

/**
 * The lines without the detector's echoes: a one-character word lying on a word of another line — a sliver of a
 * glyph's edge the detector boxed again, alone or with the next word, and the recognizer read as a letter or figure
 * (`DISH H SOAP`, `2 X K 10.64`, `MINIMERCADO S SERVIÇOS`, `KOFFIE S SNELFILTER` on 200 DPI rasters and worn scans,
 * read at 0.35–1.00). Of one character boxed twice, the surer read stays. A character printed on its own (a tax
 * code, a quantity's `x`) has its own place on the row (MEASUREMENTS.md, "Echoes"). A line left with no word is
 * dropped.
 */
export const withoutEchoes = <L extends { readonly words: ReadonlyArray<OcrWord> }>(
  lines: ReadonlyArray<L>
): Array<L> =>
  lines.flatMap((line, k) => {
    // Of two one-character words on each other (one glyph boxed twice), the surer one stays (the first, if alike).
    const under = (word: OcrWord, w: OcrWord, j: number) =>
      [...w.text].length > 1 || w.confidence > word.confidence || (w.confidence === word.confidence && j < k)
    const echo = (word: OcrWord) =>
      [...word.text].length === 1 &&
      lines.some((other, j) => j !== k && other.words.some((w) => onTop(word, w) && under(word, w, j)))
    if (!line.words.some(echo)) return [line]
    const words = line.words.filter((w) => !echo(w))
    return words.length === 0 ? [] : [{ ...line, words }]
  })
