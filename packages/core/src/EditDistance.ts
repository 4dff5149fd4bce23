/**
 * Edit distances of whole strings, for catalog scoring, grounding and the local extractor's labels. One pass over
 * the longer string with the shorter one's column as bit vectors when the shorter is ASCII and at most 32
 * characters (Hyyrö 2003, "A bit-vector algorithm for computing Levenshtein and Damerau edit distances"), by rows of
 * the matrix otherwise. Synchronous: the scratch arrays are reused by every call.
 */

/**
 * The optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours, one edit
 * each (a swapped pair is not edited again). Symmetric.
 */
export const osa = (a: string, b: string): number => distance(a, b, true)

/** The Levenshtein distance: insertions, deletions and substitutions, one edit each. Symmetric. */
export const levenshtein = (a: string, b: string): number => distance(a, b, false)

/** 1 − `osa` / the longer length: 1 for equal strings (two empty ones included), 0 for nothing in common. */
export const similarity = (a: string, b: string): number => {
  const longer = Math.max(a.length, b.length)
  return longer === 0 ? 1 : 1 - osa(a, b) / longer
}

/**
 * Whether `a` and `b` are at most one edit apart: one substitution, insertion, deletion or swap of two neighbours
 * (`osa` ≤ 1), without aligning them.
 */
export const withinOneEdit = (a: string, b: string): boolean => {
  if (a === b) return true
  const la = a.length
  const lb = b.length
  if (Math.abs(la - lb) > 1) return false
  // The common prefix, then the common suffix of what is left: one edit leaves at most one character of each side
  // between them, or (same lengths) a swapped pair.
  let prefix = 0
  const shorter = Math.min(la, lb)
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++
  let suffix = 0
  while (suffix < shorter - prefix && a.charCodeAt(la - 1 - suffix) === b.charCodeAt(lb - 1 - suffix)) suffix++
  if (la !== lb) return prefix + suffix >= shorter
  if (prefix + suffix >= la - 1) return true
  return (
    prefix + suffix === la - 2 &&
    a.charCodeAt(prefix) === b.charCodeAt(prefix + 1) &&
    a.charCodeAt(prefix + 1) === b.charCodeAt(prefix)
  )
}

const distance = (a: string, b: string, swaps: boolean): number => {
  const la = a.length
  const lb = b.length
  // Both distances are symmetric: the shorter string is the pattern when it fits in a word.
  if (la <= lb) return la <= WORD && ascii(a) ? byWord(a, b, swaps) : byRows(a, b, swaps)
  return lb <= WORD && ascii(b) ? byWord(b, a, swaps) : byRows(a, b, swaps)
}

/** Pattern lengths `byWord` handles: one bit per character in a 32-bit word. */
const WORD = 32

const ascii = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 128) return false
  return true
}

/** Bit masks of the pattern's positions per character code (scratch of `byWord`: all zero between calls). */
const patternMasks = new Int32Array(128)

/**
 * The distance of a pattern of 0–32 ASCII characters and a text, in one pass over the text. Carries and shifts only
 * move bits upwards, so the bits above the pattern never reach its last one, which tracks the distance. With
 * `swaps`, a swap of neighbours is one edit (the transposition term of Hyyrö's algorithm).
 */
const byWord = (pattern: string, text: string, swaps: boolean): number => {
  const m = pattern.length
  const n = text.length
  if (m === 0) return n
  const masks = patternMasks
  for (let i = 0; i < m; i++) masks[pattern.charCodeAt(i)]! |= 1 << i
  const last = 1 << (m - 1)
  let vp = -1
  let vn = 0
  let d0 = 0
  let previous = 0
  let distance = m
  for (let j = 0; j < n; j++) {
    const c = text.charCodeAt(j)
    const pm = c < 128 ? masks[c]! : 0
    const swap = swaps ? ((~d0 & pm) << 1) & previous : 0
    d0 = ((((pm & vp) >>> 0) + (vp >>> 0)) ^ vp) | pm | vn | swap
    let hp = vn | ~(d0 | vp)
    let hn = d0 & vp
    if ((hp & last) !== 0) distance++
    else if ((hn & last) !== 0) distance--
    hp = (hp << 1) | 1
    hn = hn << 1
    vp = hn | ~(d0 | hp)
    vn = hp & d0
    previous = pm
  }
  for (let i = 0; i < m; i++) masks[pattern.charCodeAt(i)] = 0
  return distance
}

/** The distance by rows of the matrix, for patterns `byWord` cannot take. */
const byRows = (a: string, b: string, swaps: boolean): number => {
  const la = a.length
  const lb = b.length
  if (lb + 1 > rows.prev.length) {
    const width = Math.max(lb + 1, 2 * rows.prev.length)
    rows.before = new Int32Array(width)
    rows.prev = new Int32Array(width)
    rows.row = new Int32Array(width)
  }
  // Three rolling rows of the (la + 1) × (lb + 1) matrix: `before` is row i − 1, `prev` row i, `row` row i + 1.
  let before = rows.before
  let prev = rows.prev
  let row = rows.row
  for (let j = 0; j <= lb; j++) prev[j] = j
  for (let i = 0; i < la; i++) {
    const ai = a.charCodeAt(i)
    const aPrev = i > 0 ? a.charCodeAt(i - 1) : -1
    row[0] = i + 1
    for (let j = 0; j < lb; j++) {
      const bj = b.charCodeAt(j)
      const cost = ai === bj ? 0 : 1
      let min = row[j]! + 1
      let m = prev[j + 1]! + 1
      if (m < min) min = m
      m = prev[j]! + cost
      if (m < min) min = m
      // A swap whose cost is zero never beats matching both characters: `cost` here is one whenever it matters.
      if (swaps && i > 0 && j > 0 && ai === b.charCodeAt(j - 1) && aPrev === bj) {
        m = before[j - 1]! + cost
        if (m < min) min = m
      }
      row[j + 1] = min
    }
    const spare = before
    before = prev
    prev = row
    row = spare
  }
  rows.before = before
  rows.prev = prev
  rows.row = row
  return prev[lb]!
}

/** Scratch rows of `byRows` (grown when a longer string comes). */
const rows = { before: new Int32Array(64), prev: new Int32Array(64), row: new Int32Array(64) }
