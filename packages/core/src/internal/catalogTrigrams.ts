/**
 * Trigrams as PostgreSQL's `pg_trgm` makes them, for normalized keys (only `a-z`, `0-9` and spaces): each word is
 * padded with two spaces in front and one behind, its trigrams are taken as a set, and similarity is
 * shared / (|a| + |b| − shared) rounded to a float4 — so scoring, the in-memory store, the SQL store's in-process
 * index and `pg_trgm` itself rank candidates identically.
 */

/** Trigram codes: space 0, `a-z` 1–26, `0-9` 27–36, other characters separate words (as in `pg_trgm`). */
const ALPHABET = 37
/** Number of distinct trigram codes. */
export const TRIGRAM_CODES = ALPHABET * ALPHABET * ALPHABET

const charCode = (c: number): number => {
  if (c >= 97 && c <= 122) return c - 96
  if (c >= 48 && c <= 57) return c - 48 + 27
  return 0
}

/**
 * Writes each trigram code of `text`, word by word (a code may repeat across words), into `codeScratch` and returns
 * how many it wrote. Synchronous: callers read the scratch before anything else writes it.
 */
const codesOf = (text: string): number => {
  // A key of n characters has at most n + 2 trigrams per word boundary: 2n + 2 bounds them all.
  if (2 * text.length + 2 > codeScratch.length) codeScratch = new Int32Array(4 * text.length + 4)
  const codes = codeScratch
  let n = 0
  const len = text.length
  let i = 0
  while (i < len) {
    while (i < len && charCode(text.charCodeAt(i)) === 0) i++
    if (i >= len) break
    let j = i
    while (j < len && charCode(text.charCodeAt(j)) !== 0) j++
    let a = 0
    let b = 0
    for (let p = i; p <= j; p++) {
      const c = p < j ? charCode(text.charCodeAt(p)) : 0
      codes[n++] = a * ALPHABET * ALPHABET + b * ALPHABET + c
      a = b
      b = c
    }
    i = j
  }
  return n
}

/** Scratch of `codesOf` (grown for long keys). */
let codeScratch = new Int32Array(256)

/** The distinct trigram codes of `text`, ascending (a compact set, compared with keys by `similarityToSorted`). */
export const sortedTrigrams = (text: string): Int32Array => {
  const n = codesOf(text)
  const codes = codeScratch
  // Sorted in place, duplicates dropped, then copied out at their number.
  codes.subarray(0, n).sort()
  let distinct = 0
  for (let k = 0; k < n; k++) if (k === 0 || codes[k] !== codes[distinct - 1]) codes[distinct++] = codes[k]!
  return codes.slice(0, distinct)
}

/** Stamps marking the codes of the set last compared against (`similarityToSorted`), and of a text's own codes. */
const setMarks = new Int32Array(TRIGRAM_CODES)
const textMarks = new Int32Array(TRIGRAM_CODES)
let setStamp = 0
let textStamp = 0
let markedSet: Int32Array | undefined

/** The next stamp of `marks`, cleared when the stamps run out. */
const nextStamp = (stamp: number, marks: Int32Array): number => {
  if (stamp < 0x7fffffff) return stamp + 1
  marks.fill(0)
  return 1
}

/**
 * `pg_trgm`'s similarity of a normalized key and a `sortedTrigrams` set, without building the key's set: its codes
 * are deduplicated and looked up by stamps. Comparing many keys with one set marks the set once.
 */
export const similarityToSorted = (text: string, set: Int32Array): number => {
  if (markedSet !== set) {
    setStamp = nextStamp(setStamp, setMarks)
    for (let k = 0; k < set.length; k++) setMarks[set[k]!] = setStamp
    markedSet = set
  }
  textStamp = nextStamp(textStamp, textMarks)
  let distinct = 0
  let shared = 0
  const n = codesOf(text)
  for (let k = 0; k < n; k++) {
    const code = codeScratch[k]!
    if (textMarks[code] !== textStamp) {
      textMarks[code] = textStamp
      distinct++
      if (setMarks[code] === setStamp) shared++
    }
  }
  return similarityOf(shared, distinct, set.length)
}

/**
 * Calls `emit` once with each distinct trigram code of `text`, in the order they occur. Synchronous, and `emit` must
 * not call back into this module (it shares the scratch that dedupes the codes).
 */
export const forEachTrigram = (text: string, emit: (code: number) => void): void => {
  textStamp = nextStamp(textStamp, textMarks)
  const n = codesOf(text)
  for (let k = 0; k < n; k++) {
    const code = codeScratch[k]!
    if (textMarks[code] !== textStamp) {
      textMarks[code] = textStamp
      emit(code)
    }
  }
}

/** `pg_trgm`'s float4 similarity from the sizes of two trigram sets and how many they share. */
export const similarityOf = (shared: number, a: number, b: number): number =>
  a <= 0 || b <= 0 ? 0 : Math.fround(shared / (a + b - shared))

/** `pg_trgm`'s `similarity(a, b)` for normalized keys. */
export const similarity = (a: string, b: string): number => similarityToSorted(a, sortedTrigrams(b))
