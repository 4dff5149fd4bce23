/**
 * Reading order for text on a page, pure: estimate the page's rotation and skew from the lines' own angles, turn
 * every item into that deskewed frame, then cut the page recursively (XY-cut) into sections at wide horizontal
 * gaps, columns at wide vertical gutters and bands at narrower gaps, and read what is left as rows left to right,
 * top to bottom. A gutter whose two sides share most rows is a table and is read row by row; two columns of text
 * set on one baseline grid look the same and are read row by row too (a known limit).
 * Used for OCR lines; text-layer words work too (`placedFromRect`).
 */

/** An item on the page: an oriented rectangle (centre, size along and across its text, reading direction). */
export interface Placed {
  readonly cx: number
  readonly cy: number
  readonly width: number
  readonly height: number
  /** Reading direction in radians, y down (positive turns clockwise on screen); 0 for upright text. */
  readonly angle: number
}

/** An upright item from an axis-aligned rectangle. */
export const placedFromRect = (x0: number, y0: number, x1: number, y1: number): Placed => ({
  cx: (x0 + x1) / 2,
  cy: (y0 + y1) / 2,
  width: x1 - x0,
  height: y1 - y0,
  angle: 0
})

/** How the text sits on the page: a quarter-turn rotation and a small skew on top of it. */
export interface PageOrientation {
  /** Degrees the text is turned clockwise: 0, 90, 180 or 270. */
  readonly rotation: 0 | 90 | 180 | 270
  /** Radians of residual skew, clockwise positive, within ±45°. */
  readonly skew: number
}

/** Thresholds of the reading order. */
export interface ReadingOrderOptions {
  /** Two items are on one row when they overlap vertically by this fraction of the shorter one. */
  readonly rowOverlap: number
  /** A horizontal gap of this many median item heights (between item cores) separates sections. */
  readonly sectionGap: number
  /** A vertical gap between columns must be at least this many median item heights wide. */
  readonly gutter: number
  /** Each side of a column split must hold at least this many rows. */
  readonly minColumnRows: number
  /** Two items across a gutter share a row when they overlap vertically by this fraction of the shorter one. */
  readonly tableOverlap: number
  /** A split whose sides share rows this often is a table (read by rows), not columns. */
  readonly tableAlignment: number
  /** Only items at least this many times longer than tall vote on the skew (a lone glyph's angle is noise). */
  readonly skewMinElongation: number
}

/** The defaults. */
export const defaultReadingOrderOptions: ReadingOrderOptions = {
  rowOverlap: 0.5,
  sectionGap: 1.2,
  gutter: 1.2,
  minColumnRows: 3,
  tableOverlap: 0.75,
  tableAlignment: 0.5,
  skewMinElongation: 3
}

/** The page's reading order: rows of item indices, and the orientation it was computed in. */
export interface ReadingOrder extends PageOrientation {
  readonly rows: ReadonlyArray<ReadonlyArray<number>>
}

const TAU = 2 * Math.PI
const wrap = (a: number): number => {
  const r = ((a % TAU) + TAU) % TAU
  return r > Math.PI ? r - TAU : r
}

/**
 * The rotation most of the text (weighted by length) reads at, and the skew as the length-weighted median of the
 * elongated items' angles around it: a median, because a few mis-detected boxes must not tilt the whole page.
 */
export const estimateOrientation = (
  items: ReadonlyArray<Placed>,
  options: ReadingOrderOptions = defaultReadingOrderOptions
): PageOrientation => {
  const votes = [0, 0, 0, 0]
  for (const it of items) {
    const q = ((Math.round(wrap(it.angle) / (Math.PI / 2)) % 4) + 4) % 4
    votes[q]! += it.width
  }
  const q = votes.indexOf(Math.max(...votes))
  const rotation = ([0, 90, 180, 270] as const)[q] ?? 0
  const base = (rotation * Math.PI) / 180
  const samples = items
    .filter((it) => it.width >= options.skewMinElongation * it.height)
    .map((it) => ({ a: wrap(it.angle - base), w: it.width }))
    .filter((s) => Math.abs(s.a) < Math.PI / 4)
    .sort((x, y) => x.a - y.a)
  const total = samples.reduce((acc, s) => acc + s.w, 0)
  let acc = 0
  let skew = 0
  for (const s of samples) {
    acc += s.w
    if (acc >= total / 2) {
      skew = s.a
      break
    }
  }
  return { rotation, skew }
}

/** An item's axis-aligned extent in the deskewed frame. */
interface Frame {
  readonly x0: number
  readonly x1: number
  readonly y0: number
  readonly y1: number
  readonly cy: number
  readonly h: number
}

const toFrame = (it: Placed, turn: number): Frame => {
  const c = Math.cos(turn)
  const s = Math.sin(turn)
  const x = it.cx * c + it.cy * s
  const y = -it.cx * s + it.cy * c
  const phi = it.angle - turn
  const ac = Math.abs(Math.cos(phi))
  const as = Math.abs(Math.sin(phi))
  const ex = (ac * it.width + as * it.height) / 2
  const ey = (as * it.width + ac * it.height) / 2
  return { x0: x - ex, x1: x + ex, y0: y - ey, y1: y + ey, cy: y, h: 2 * ey }
}

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!
}

const overlapY = (a: Frame, b: Frame): number => Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)

/** Gaps in the coverage of intervals: [end of covered run, start of next run) pairs, widest first. */
const gaps = (intervals: ReadonlyArray<readonly [number, number]>): Array<readonly [number, number]> => {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0])
  const out: Array<readonly [number, number]> = []
  let reach = Number.NEGATIVE_INFINITY
  for (const [a, b] of sorted) {
    if (reach !== Number.NEGATIVE_INFINITY && a > reach) out.push([reach, a])
    reach = Math.max(reach, b)
  }
  return out.sort((p, q) => q[1] - q[0] - (p[1] - p[0]))
}

/** Items grouped into rows (vertical overlap), rows top to bottom, items left to right. */
const toRows = (idx: ReadonlyArray<number>, f: ReadonlyArray<Frame>, overlap: number): Array<Array<number>> => {
  const rows: Array<{ members: Array<number>; y0: number; y1: number }> = []
  for (const i of [...idx].sort((a, b) => f[a]!.cy - f[b]!.cy)) {
    const it = f[i]!
    const row = rows.find((r) => {
      const span = { x0: 0, x1: 0, y0: r.y0, y1: r.y1, cy: 0, h: r.y1 - r.y0 }
      return overlapY(it, span) >= overlap * Math.min(it.h, span.h)
    })
    if (row === undefined) rows.push({ members: [i], y0: it.y0, y1: it.y1 })
    else {
      // The row's span is the mean of its members', so a tall item does not swallow the next row.
      const n = row.members.length
      row.members.push(i)
      row.y0 = (row.y0 * n + it.y0) / (n + 1)
      row.y1 = (row.y1 * n + it.y1) / (n + 1)
    }
  }
  return rows
    .map((r) => ({ cy: (r.y0 + r.y1) / 2, members: r.members.sort((a, b) => f[a]!.x0 - f[b]!.x0) }))
    .sort((a, b) => a.cy - b.cy)
    .map((r) => r.members)
}

/**
 * Whether a column split is sound: enough rows on each side, and the sides not sharing rows like a table. Table
 * cells of one row overlap almost fully; lines of two columns with their own leading overlap by chance, hence the
 * stricter overlap here than for grouping rows.
 */
const isColumnSplit = (
  left: ReadonlyArray<number>,
  right: ReadonlyArray<number>,
  f: ReadonlyArray<Frame>,
  o: ReadingOrderOptions
): boolean => {
  if (toRows(left, f, o.rowOverlap).length < o.minColumnRows) return false
  if (toRows(right, f, o.rowOverlap).length < o.minColumnRows) return false
  const [small, big] = left.length <= right.length ? [left, right] : [right, left]
  const aligned = small.filter((i) =>
    big.some((j) => overlapY(f[i]!, f[j]!) >= o.tableOverlap * Math.min(f[i]!.h, f[j]!.h))
  ).length
  return aligned < o.tableAlignment * small.length
}

const splitAt = (
  idx: ReadonlyArray<number>,
  f: ReadonlyArray<Frame>,
  cuts: ReadonlyArray<number>
): Array<Array<number>> => {
  const sorted = [...cuts].sort((a, b) => a - b)
  const parts: Array<Array<number>> = sorted.map(() => [])
  parts.push([])
  for (const i of idx) {
    const k = sorted.findIndex((c) => f[i]!.cy < c)
    parts[k < 0 ? sorted.length : k]!.push(i)
  }
  return parts
}

/**
 * Recursive XY-cut. First the sections (horizontal gaps of at least `sectionGap` median heights: a header, a
 * table, the totals), then columns at a sound vertical gutter, then the widest remaining horizontal gap; a block
 * with none is read as rows. Gaps are measured on the middle 60 % of each item, because the detector's generous
 * boxes of adjacent lines touch.
 */
const xyCut = (idx: ReadonlyArray<number>, f: ReadonlyArray<Frame>, o: ReadingOrderOptions): Array<Array<number>> => {
  if (idx.length <= 1) return idx.length === 0 ? [] : [[...idx]]
  const medianHeight = median(idx.map((i) => f[i]!.h))
  const bands = gaps(idx.map((i) => [f[i]!.cy - 0.3 * f[i]!.h, f[i]!.cy + 0.3 * f[i]!.h] as const))
  const sections = bands.filter(([a, b]) => b - a >= o.sectionGap * medianHeight)
  if (sections.length > 0) {
    return splitAt(
      idx,
      f,
      sections.map(([a, b]) => (a + b) / 2)
    ).flatMap((part) => xyCut(part, f, o))
  }
  for (const [a, b] of gaps(idx.map((i) => [f[i]!.x0, f[i]!.x1] as const))) {
    if (b - a < o.gutter * medianHeight) break
    const cut = (a + b) / 2
    const left = idx.filter((i) => f[i]!.x1 <= cut)
    const right = idx.filter((i) => f[i]!.x0 >= cut)
    if (isColumnSplit(left, right, f, o)) return [...xyCut(left, f, o), ...xyCut(right, f, o)]
  }
  const band = bands[0]
  if (band === undefined) return toRows(idx, f, o.rowOverlap)
  return splitAt(idx, f, [(band[0] + band[1]) / 2]).flatMap((part) => xyCut(part, f, o))
}

/** The items in reading order, as rows of indices, computed in the deskewed frame of the page. */
export const readingOrder = (
  items: ReadonlyArray<Placed>,
  options: ReadingOrderOptions = defaultReadingOrderOptions
): ReadingOrder => {
  const orientation = estimateOrientation(items, options)
  const turn = (orientation.rotation * Math.PI) / 180 + orientation.skew
  const frames = items.map((it) => toFrame(it, turn))
  const rows = xyCut(
    items.map((_, i) => i),
    frames,
    options
  )
  return { ...orientation, rows }
}
