/**
 * Where a literal may be in a document's text: approximate substring search (Sellers, Levenshtein, Ukkonen's cut-off)
 * behind an exact filter, for grounding.
 */

/**
 * Sellers' approximate substring search with Ukkonen's cut-off: calls `hit(end, distance)` for every text position
 * where some substring ending there is within `k` edits of `pattern`. Only the rows that can still be within `k`
 * are computed, so a column costs about k cells.
 */
const approximateSearch = (
  text: Uint16Array,
  from: number,
  to: number,
  pattern: string,
  k: number,
  hit: (end: number, distance: number) => void
): void => {
  const m = pattern.length
  const p = new Uint16Array(m)
  for (let i = 0; i < m; i++) p[i] = pattern.charCodeAt(i)
  const column = new Int32Array(m + 1)
  for (let i = 0; i <= m; i++) column[i] = i
  // Rows 0..k start within k; row k+1 is computed in the first column as the first one that may drop to k.
  let active = Math.min(k + 1, m)
  for (let j = from; j < to; j++) {
    const c = text[j]!
    let diagonal = 0
    let above = 0
    for (let i = 1; i <= active; i++) {
      const left = column[i]!
      const v = p[i - 1] === c ? diagonal : 1 + Math.min(diagonal, above, left)
      diagonal = left
      column[i] = v
      above = v
    }
    while (active > 0 && column[active]! > k) active--
    if (active === m) hit(j, column[m]!)
    else {
      active++
      // The row just brought in was beyond the cut-off: more than k is all that is known, and all that matters.
      column[active] = k + 1
    }
  }
}

/** A text to search: its character codes, and the same codes as a string (for the engine's `indexOf`). */
export interface SearchText {
  readonly text: Uint16Array
  readonly string: string
}

/**
 * Calls `hit(end, distance)` for every position of `haystack` where some substring ending there is within `k` edits
 * of `pattern`. Filtered: cut into k+1 pieces, a pattern within k edits keeps one piece
 * intact (pigeonhole), so only the windows around exact occurrences of a piece (found by the engine's `indexOf`)
 * need the dynamic programme. Pieces shorter than 3 characters would match everywhere: then the whole text is searched.
 */
export const search = (
  haystack: SearchText,
  pattern: string,
  k: number,
  hit: (end: number, distance: number) => void
): void => {
  const { text, string } = haystack
  const m = pattern.length
  const n = text.length
  const size = Math.floor(m / (k + 1))
  if (size < 3) {
    approximateSearch(text, 0, n, pattern, k, hit)
    return
  }
  const windows: Array<readonly [number, number]> = []
  for (let piece = 0; piece <= k; piece++) {
    const offset = piece * size
    const part = pattern.slice(offset, piece === k ? m : offset + size)
    for (let at = string.indexOf(part); at >= 0; at = string.indexOf(part, at + 1)) {
      windows.push([Math.max(0, at - offset - k), Math.min(n, at - offset + m + k)])
    }
  }
  windows.sort((a, b) => a[0] - b[0])
  let start = -1
  let end = -1
  for (const [a, b] of windows) {
    if (a <= end) {
      end = Math.max(end, b)
      continue
    }
    if (start >= 0) approximateSearch(text, start, end, pattern, k, hit)
    start = a
    end = b
  }
  if (start >= 0) approximateSearch(text, start, end, pattern, k, hit)
}
