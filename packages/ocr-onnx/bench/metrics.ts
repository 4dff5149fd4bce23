/**
 * Accuracy measures of the OCR benchmark, pure. Both engines and the ground truth go through the same reading order
 * (`canonicalText`: boxes grouped into rows by vertical overlap, rows top to bottom, boxes left to right), so the
 * character error rate measures what was read, not each engine's own layout analysis.
 */
import { EditDistance } from "@legible/core"

/** A piece of text with its box in image pixels (a word, or a ground-truth line). */
export interface Boxed {
  readonly text: string
  readonly x0: number
  readonly y0: number
  readonly x1: number
  readonly y1: number
}

/** Levenshtein distance between two strings, by UTF-16 code unit (core's, the one grounding and scoring use). */
export const editDistance = EditDistance.levenshtein

/** Whitespace runs (spaces, line breaks) count as one space: layout is not what the CER measures. */
export const normalize = (text: string): string => text.normalize("NFC").replace(/\s+/g, " ").trim()

/** The sum of `count` over the items (the scores add per-page counts up this way). */
export const total = <A>(items: ReadonlyArray<A>, count: (item: A) => number): number =>
  items.reduce((sum, item) => sum + count(item), 0)

/** Whether a character is beyond ASCII (a special character of the Spanish scores). */
export const isSpecial = (ch: string): boolean => ch > "\x7e"

/** The characters beyond ASCII of a text (the special characters of the Spanish scores), NFC. */
export const special = (text: string): Array<string> => Array.from(text.normalize("NFC")).filter(isSpecial)

// Overlap along each axis, as a share of the shorter extent: a truth line's box from a text layer is often half as
// tall as the word boxes an engine draws over it, and a word lies inside its truth line.
const share = (a0: number, a1: number, b0: number, b1: number) =>
  (Math.min(a1, b1) - Math.max(a0, b0)) / Math.max(1e-9, Math.min(a1 - a0, b1 - b0))

/** Whether two boxes overlap by at least half of the narrower and of the shorter. */
const sameplace = (a: Boxed, b: Boxed): boolean =>
  share(a.x0, a.x1, b.x0, b.x1) >= 0.5 && share(a.y0, a.y1, b.y0, b.y1) >= 0.5

/**
 * How many of the characters that `select` picks in the truth's words (or lines) were read as themselves in the
 * same place: in a read word whose box overlaps the truth's by at least half of the narrower and of the shorter,
 * each read character used once; and those that were not. A mark read on the wrong word ("bancaría" for
 * "bancaria") does not stand in for one missed elsewhere on the page, as in a per-page multiset count, and the
 * reading order of the words does not matter.
 */
export const placedHits = (
  truth: ReadonlyArray<Boxed>,
  read: ReadonlyArray<Boxed>,
  select: (ch: string) => boolean
): { readonly hits: number; readonly missed: ReadonlyArray<string> } => {
  const pools = read.map((w) => Array.from(w.text.normalize("NFC")).filter(select))
  let hits = 0
  const missed: Array<string> = []
  for (const item of truth) {
    const wanted = Array.from(item.text.normalize("NFC")).filter(select)
    if (wanted.length === 0) continue
    const near = read.flatMap((w, k) => (sameplace(w, item) ? [pools[k]!] : []))
    for (const ch of wanted) {
      const pool = near.find((p) => p.includes(ch))
      if (pool === undefined) missed.push(ch)
      else {
        pool.splice(pool.indexOf(ch), 1)
        hits++
      }
    }
  }
  return { hits, missed }
}

/** How many of `truth` are found in `read`, each found item used once (multiset intersection size). */
export const multisetHits = (truth: ReadonlyArray<string>, read: ReadonlyArray<string>): number => {
  const counts = new Map<string, number>()
  for (const x of read) counts.set(x, (counts.get(x) ?? 0) + 1)
  let hits = 0
  for (const x of truth) {
    const n = counts.get(x) ?? 0
    if (n > 0) {
      hits++
      counts.set(x, n - 1)
    }
  }
  return hits
}

/** Errors and reference length of one page (sum them over pages, then divide: the corpus CER). */
export interface CharErrors {
  readonly errors: number
  readonly length: number
}

/** Edit distance of `predicted` against `reference`, both normalized. */
export const charErrors = (predicted: string, reference: string): CharErrors => {
  const p = normalize(predicted)
  const r = normalize(reference)
  return { errors: editDistance(p, r), length: r.length }
}

/** Boxes as text in one reading order: rows by vertical overlap, top to bottom, left to right within a row. */
export const canonicalText = (items: ReadonlyArray<Boxed>): string => {
  const sorted = items.filter((item) => item.text.trim() !== "").toSorted((a, b) => a.y0 + a.y1 - (b.y0 + b.y1))
  const rows: Array<{ y0: number; y1: number; items: Array<Boxed> }> = []
  for (const item of sorted) {
    const height = item.y1 - item.y0
    // Join the last row whose extent covers half of this item's height (or half of the row's).
    const row = rows.findLast((r) => {
      const overlap = Math.min(r.y1, item.y1) - Math.max(r.y0, item.y0)
      return overlap >= 0.5 * Math.min(height, r.y1 - r.y0)
    })
    if (row === undefined) rows.push({ y0: item.y0, y1: item.y1, items: [item] })
    else {
      row.items.push(item)
      row.y0 = Math.min(row.y0, item.y0)
      row.y1 = Math.max(row.y1, item.y1)
    }
  }
  return rows
    .toSorted((a, b) => a.y0 + a.y1 - (b.y0 + b.y1))
    .map((row) =>
      row.items
        .toSorted((a, b) => a.x0 - b.x0)
        .map((item) => item.text.trim())
        .join(" ")
    )
    .join("\n")
}

/** Intersection over union of two boxes. */
export const iou = (a: Boxed, b: Boxed): number => {
  const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)
  const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0)
  if (w <= 0 || h <= 0) return 0
  const inter = w * h
  return inter / ((a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - inter)
}

/** Counts for word recall and precision on one page. */
export interface WordMatches {
  readonly matched: number
  readonly reference: number
  readonly predicted: number
}

/**
 * Pairs predicted words with reference words one to one (best IoU first) where the boxes overlap with IoU ≥
 * `minIou` and the texts are equal (NFC, trimmed; case kept).
 */
export const matchWords = (
  predicted: ReadonlyArray<Boxed>,
  reference: ReadonlyArray<Boxed>,
  minIou = 0.5
): WordMatches => {
  const p = predicted.filter((w) => w.text.trim() !== "")
  const r = reference.filter((w) => w.text.trim() !== "")
  const pairs: Array<{ i: number; j: number; score: number }> = []
  for (let i = 0; i < p.length; i++) {
    for (let j = 0; j < r.length; j++) {
      const pi = p[i]
      const rj = r[j]
      if (pi === undefined || rj === undefined) continue
      if (normalize(pi.text) !== normalize(rj.text)) continue
      const score = iou(pi, rj)
      if (score >= minIou) pairs.push({ i, j, score })
    }
  }
  const usedP = new Set<number>()
  const usedR = new Set<number>()
  let matched = 0
  for (const pair of pairs.toSorted((a, b) => b.score - a.score)) {
    if (usedP.has(pair.i) || usedR.has(pair.j)) continue
    usedP.add(pair.i)
    usedR.add(pair.j)
    matched++
  }
  return { matched, reference: r.length, predicted: p.length }
}

/** Whether a character is a letter with a diacritic (its NFD has a combining mark: á, ñ, ü, ç; not ß, ¿, º). */
export const isMarked = (ch: string): boolean => /\p{L}\p{M}/u.test(ch.normalize("NFD"))

/**
 * The read words that carry a mark the truth lacks: a word with a marked letter (`isMarked`, NFC) that no truth
 * word (or line) over the same place (overlapping by half of the narrower and of the shorter, as `placedHits`)
 * has. Returned with the count of read words (non-empty), the share's denominator.
 */
export const inventedMarks = (
  read: ReadonlyArray<Boxed>,
  truth: ReadonlyArray<Boxed>
): { readonly words: number; readonly invented: ReadonlyArray<string> } => {
  const words = read.filter((w) => w.text.trim() !== "")
  const invented = words.filter((w) => {
    const marked = Array.from(w.text.normalize("NFC")).filter(isMarked)
    if (marked.length === 0) return false
    const near = truth.filter((t) => sameplace(w, t)).map((t) => t.text.normalize("NFC"))
    return marked.some((ch) => !near.some((t) => t.includes(ch)))
  })
  return { words: words.length, invented: invented.map((w) => w.text) }
}
