/**
 * A page as Markdown that keeps its layout, from lines of words with boxes (pure; text layers and OCR alike).
 *
 * `toMarkdown(lines, options?)`:
 * - one output line per input line, words joined by a space; where a line has cells (words separated by a gap
 *   wider than `cellGap` × the line height) the cells are joined by three spaces, so that separation survives;
 * - a blank line where the vertical gap between two lines exceeds `paragraphGap` × the line height, or where the
 *   next line starts above the previous one (a new column);
 * - runs of ≥ `minTableRows` consecutive lines (no paragraph gap inside) whose cells fall into the same ≥ 2 columns
 *   (column x-ranges that every row's cells overlap one to one) become a Markdown table, set apart by blank lines:
 *   the first row is the header, then a `| --- |` separator; a row missing a column gets an empty cell; `|` and `\`
 *   inside cells are escaped.
 * Lines are taken in the order given (reading order is the caller's); empty lines are skipped.
 */

/** A word with its box (any unit, top-left origin): the shape of core's `ReadWord` and of the text layer's words. */
export interface BoxedWord {
  readonly word: string
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

/** Layout thresholds, as multiples of the median word height of the page. */
export interface MarkdownOptions {
  /** A horizontal gap wider than this separates cells. */
  readonly cellGap: number
  /** A vertical gap wider than this between lines is a paragraph break. */
  readonly paragraphGap: number
  /** Fewest rows that make a table. */
  readonly minTableRows: number
}

/** Defaults: cells 0.8 line heights apart (a space is about 0.2), paragraphs 0.8 apart, tables of 2 rows or more. */
export const defaultMarkdownOptions: MarkdownOptions = { cellGap: 0.8, paragraphGap: 0.8, minTableRows: 2 }

interface Cell {
  readonly text: string
  readonly x0: number
  readonly x1: number
}

interface Line {
  readonly cells: ReadonlyArray<Cell>
  readonly y0: number
  readonly y1: number
}

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? 0 : sorted[Math.floor(sorted.length / 2)]!
}

const escapeCell = (text: string): string => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|")

const toLine = (words: ReadonlyArray<BoxedWord>, height: number, options: MarkdownOptions): Line => {
  const cells: Array<Cell> = []
  let current: { words: Array<string>; x0: number; x1: number } | undefined
  for (const word of words) {
    if (current !== undefined && word.x0 - current.x1 <= options.cellGap * height) {
      current.words.push(word.word)
      current.x1 = Math.max(current.x1, word.x1)
      continue
    }
    if (current !== undefined) cells.push({ text: current.words.join(" "), x0: current.x0, x1: current.x1 })
    current = { words: [word.word], x0: word.x0, x1: word.x1 }
  }
  if (current !== undefined) cells.push({ text: current.words.join(" "), x0: current.x0, x1: current.x1 })
  return {
    cells,
    y0: Math.min(...words.map((w) => w.y0)),
    y1: Math.max(...words.map((w) => w.y1))
  }
}

// Column ranges shared by `lines`: the union of overlapping cell ranges. Undefined when some row puts two cells in
// one column (its cells do not line up with the others').
const columnsOf = (lines: ReadonlyArray<Line>): Array<{ x0: number; x1: number }> | undefined => {
  const ranges = lines.flatMap((l) => l.cells.map((c) => ({ x0: c.x0, x1: c.x1 }))).sort((a, b) => a.x0 - b.x0)
  const columns: Array<{ x0: number; x1: number }> = []
  for (const range of ranges) {
    const last = columns[columns.length - 1]
    if (last !== undefined && range.x0 <= last.x1) last.x1 = Math.max(last.x1, range.x1)
    else columns.push({ ...range })
  }
  for (const line of lines) {
    const used = new Set(line.cells.map((c) => columns.findIndex((col) => c.x0 >= col.x0 && c.x1 <= col.x1)))
    if (used.size !== line.cells.length) return undefined
  }
  return columns.length >= 2 ? columns : undefined
}

const table = (lines: ReadonlyArray<Line>, columns: ReadonlyArray<{ x0: number; x1: number }>): Array<string> => {
  const rows = lines.map((line) => {
    const cells = columns.map(() => "")
    for (const cell of line.cells) {
      cells[columns.findIndex((col) => cell.x0 >= col.x0 && cell.x1 <= col.x1)] = escapeCell(cell.text)
    }
    return `| ${cells.join(" | ")} |`
  })
  return [rows[0]!, `|${columns.map(() => " --- |").join("")}`, ...rows.slice(1)]
}

const plain = (line: Line): string => line.cells.map((c) => c.text).join("   ")

/** The lines as Markdown that keeps their layout (see the module comment). */
export const toMarkdown = (
  lines: ReadonlyArray<{ readonly words: ReadonlyArray<BoxedWord> }>,
  options: MarkdownOptions = defaultMarkdownOptions
): string => {
  const nonEmpty = lines.filter((l) => l.words.length > 0)
  const height = median(nonEmpty.flatMap((l) => l.words.map((w) => w.y1 - w.y0))) || 1
  const parsed = nonEmpty.map((l) => toLine(l.words, height, options))
  // Paragraphs: runs of lines without a wide vertical gap or a jump upwards between them.
  const paragraphs: Array<Array<Line>> = []
  for (const [i, line] of parsed.entries()) {
    const previous = parsed[i - 1]
    const gap = previous === undefined ? 0 : line.y0 - previous.y1
    if (previous === undefined || gap > options.paragraphGap * height || line.y1 <= previous.y0) paragraphs.push([line])
    else paragraphs[paragraphs.length - 1]!.push(line)
  }
  // Blocks of plain lines and tables; a table stands apart from the text around it, as Markdown needs.
  const blocks: Array<string> = []
  for (const paragraph of paragraphs) {
    let text: Array<string> = []
    const flush = () => {
      if (text.length > 0) blocks.push(text.join("\n"))
      text = []
    }
    for (let i = 0; i < paragraph.length; ) {
      // The longest run from i of multi-cell lines that share columns.
      let best: { end: number; columns: Array<{ x0: number; x1: number }> } | undefined
      for (let end = i + 1; end <= paragraph.length && paragraph[end - 1]!.cells.length >= 2; end++) {
        const columns = columnsOf(paragraph.slice(i, end))
        if (columns === undefined) break
        if (end - i >= options.minTableRows) best = { end, columns }
      }
      if (best === undefined) {
        text.push(plain(paragraph[i]!))
        i++
        continue
      }
      flush()
      blocks.push(table(paragraph.slice(i, best.end), best.columns).join("\n"))
      i = best.end
    }
    flush()
  }
  return blocks.join("\n\n")
}
