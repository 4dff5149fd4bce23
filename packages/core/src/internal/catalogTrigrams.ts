/**
 * Trigrams as PostgreSQL's `pg_trgm` makes them, for normalized keys (only `a-z`, `0-9` and spaces): each word is
 * padded with two spaces in front and one behind, its trigrams are taken as a set, and similarity is
 * shared / (|a| + |b| − shared) rounded to a float4 — so the in-process index, the in-memory store and the SQL
 * store rank candidates identically. Also a compact in-process trigram index (postings in typed arrays) searched by
 * counting shared trigrams per record ("ScanCount").
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

/** The distinct trigram codes of `text`. */
export const trigrams = (text: string): Set<number> => {
  const n = codesOf(text)
  const set = new Set<number>()
  for (let k = 0; k < n; k++) set.add(codeScratch[k]!)
  return set
}

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

/** `pg_trgm`'s float4 similarity from the sizes of two trigram sets and how many they share. */
export const similarityOf = (shared: number, a: number, b: number): number =>
  a <= 0 || b <= 0 ? 0 : Math.fround(shared / (a + b - shared))

/** `pg_trgm`'s `similarity()` of a normalized key and the trigram set of another. */
export const similarityToSet = (a: string, tb: ReadonlySet<number>): number => {
  const ta = trigrams(a)
  let shared = 0
  for (const code of ta) if (tb.has(code)) shared++
  return similarityOf(shared, ta.size, tb.size)
}

/** `pg_trgm`'s `similarity(a, b)` for normalized keys. */
export const similarity = (a: string, b: string): number => similarityToSet(a, trigrams(b))

/** A hit of an index search: the record's position in the index and its trigram similarity to the query. */
export interface IndexHit {
  readonly position: number
  readonly similarity: number
}

/**
 * A read-only trigram index of one catalog column: postings per trigram code (record positions, ascending) in one
 * typed array, each record's trigram count, and record ids as 16 bytes each.
 */
export interface TrigramIndex {
  readonly size: number
  /** Approximate bytes held. */
  readonly bytes: number
  /** The record id at `position`, as a lower-case UUID. */
  readonly idAt: (position: number) => string
  /**
   * Records with similarity ≥ `minSimilarity` to `text`, best first (ties: lower id first), at most `limit`.
   * Synchronous: its scratch counters are reset before it returns, so no other caller ever sees them.
   */
  readonly search: (text: string, minSimilarity: number, limit: number) => ReadonlyArray<IndexHit>
}

const HEX = "0123456789abcdef"

const writeUuid = (target: Uint8Array, offset: number, id: string): void => {
  const hex = id.replaceAll("-", "")
  for (let k = 0; k < 16; k++) target[offset + k] = Number.parseInt(hex.slice(2 * k, 2 * k + 2), 16)
}

const readUuid = (source: Uint8Array, offset: number): string => {
  const out = uuidCodes
  let i = 0
  for (let k = 0; k < 16; k++) {
    const byte = source[offset + k] ?? 0
    out[i++] = HEX.charCodeAt(byte >> 4)
    out[i++] = HEX.charCodeAt(byte & 15)
    if (k === 3 || k === 5 || k === 7 || k === 9) out[i++] = DASH
  }
  // One string from the 36 codes (appending to a string would allocate one per character).
  return String.fromCharCode.apply(null, out)
}

const DASH = 45
const uuidCodes: Array<number> = new Array<number>(36).fill(0)

const compareIds = (ids: Uint8Array, a: number, b: number): number => {
  for (let k = 0; k < 16; k++) {
    const d = (ids[a * 16 + k] ?? 0) - (ids[b * 16 + k] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

/**
 * The typed arrays of a `TrigramIndex`, transferable between threads: record ids (16 bytes each), postings offsets
 * per trigram code (`TRIGRAM_CODES + 1`), postings (record positions, ascending per code) and each record's number
 * of distinct trigrams.
 */
export interface TrigramIndexParts {
  readonly size: number
  readonly ids: Uint8Array
  readonly offsets: Uint32Array
  readonly postings: Uint32Array
  readonly counts: Uint16Array
}

/**
 * Collects records (id and normalized key) and builds a `TrigramIndex` from them. `add` keeps the key as Latin-1
 * bytes and counts its trigrams; `parts` then allocates the postings once, at their final size, and fills them.
 */
export class TrigramIndexBuilder {
  private ids = new Uint8Array(16 * 1024)
  private text = new Uint8Array(64 * 1024)
  private ends = new Uint32Array(1024)
  private counts = new Uint16Array(1024)
  private readonly frequencies = new Uint32Array(TRIGRAM_CODES)
  // `seen[code] = record + 1` dedupes a record's trigrams without a set per record.
  private readonly seen = new Int32Array(TRIGRAM_CODES)
  private count = 0
  private textLength = 0

  /** Records added so far. */
  get size(): number {
    return this.count
  }

  /** Adds a record: its UUID and its normalized key. */
  add(id: string, key: string): void {
    if (this.count === this.ends.length) {
      this.ends = grow(this.ends, this.ends.length * 2)
      this.counts = grow(this.counts, this.counts.length * 2)
      this.ids = grow(this.ids, this.ids.length * 2)
    }
    while (this.textLength + key.length > this.text.length) this.text = grow(this.text, this.text.length * 2)
    const start = this.textLength
    for (let k = 0; k < key.length; k++) this.text[start + k] = key.charCodeAt(k) & 0xff
    this.textLength += key.length
    writeUuid(this.ids, this.count * 16, id)
    this.ends[this.count] = this.textLength
    const r = this.count
    let distinct = 0
    this.eachRecordTrigram(r, start, this.textLength, (code) => {
      this.frequencies[code] = (this.frequencies[code] ?? 0) + 1
      distinct++
    })
    this.counts[r] = Math.min(distinct, 0xffff)
    this.count++
  }

  /** Calls `emit` once per distinct trigram of the key of record `r` (bytes `start`–`end`). */
  private eachRecordTrigram(r: number, start: number, end: number, emit: (code: number) => void): void {
    const text = this.text
    const seen = this.seen
    let i = start
    while (i < end) {
      while (i < end && charCode(text[i] ?? 32) === 0) i++
      if (i >= end) break
      let j = i
      while (j < end && charCode(text[j] ?? 32) !== 0) j++
      let a = 0
      let b = 0
      for (let p = i; p <= j; p++) {
        const c = p < j ? charCode(text[p] ?? 32) : 0
        const code = a * ALPHABET * ALPHABET + b * ALPHABET + c
        if (seen[code] !== r + 1) {
          seen[code] = r + 1
          emit(code)
        }
        a = b
        b = c
      }
      i = j
    }
  }

  /**
   * The index's typed arrays: postings allocated once at their final size and filled in a second pass. Synchronous
   * (~6 s at 1M records): the SQL store runs it in a worker thread and transfers the arrays back (`fromParts`).
   * The builder must not be used afterwards.
   */
  parts(): TrigramIndexParts {
    const size = this.count
    const offsets = new Uint32Array(TRIGRAM_CODES + 1)
    for (let code = 0; code < TRIGRAM_CODES; code++) {
      offsets[code + 1] = (offsets[code] ?? 0) + (this.frequencies[code] ?? 0)
    }
    const postings = new Uint32Array(offsets[TRIGRAM_CODES] ?? 0)
    const fill = offsets.slice(0, TRIGRAM_CODES)
    // A second pass re-derives each record's trigrams: `seen` must forget the first pass.
    this.seen.fill(0)
    let start = 0
    for (let r = 0; r < size; r++) {
      const end = this.ends[r] ?? start
      this.eachRecordTrigram(r, start, end, (code) => {
        const at = fill[code] ?? 0
        postings[at] = r
        fill[code] = at + 1
      })
      start = end
    }
    const ids = this.ids.slice(0, size * 16)
    const counts = this.counts.slice(0, size)
    this.text = new Uint8Array(0)
    this.ids = new Uint8Array(0)
    return { size, ids, offsets, postings, counts }
  }

  /** Builds the index (`parts`, then `fromParts`). The builder must not be used afterwards. */
  build(): TrigramIndex {
    return fromParts(this.parts())
  }
}

const grow = <A extends Uint8Array | Uint16Array | Uint32Array>(array: A, length: number): A => {
  const next = new (array.constructor as new (n: number) => A)(length)
  next.set(array)
  return next
}

/** Pushes onto a heap whose root is the element every other is `better` than. */
const heapPush = <A>(heap: Array<A>, item: A, better: (x: A, y: A) => boolean): void => {
  heap.push(item)
  let i = heap.length - 1
  while (i > 0) {
    const parent = (i - 1) >> 1
    const up = heap[parent]
    if (up === undefined || !better(up, item)) break
    heap[i] = up
    i = parent
  }
  heap[i] = item
}

/** Replaces the root of a non-empty heap and restores the order. */
const heapReplaceRoot = <A>(heap: Array<A>, item: A, better: (x: A, y: A) => boolean): void => {
  let i = 0
  const n = heap.length
  while (true) {
    const left = 2 * i + 1
    if (left >= n) break
    const right = left + 1
    const l = heap[left]
    const r = heap[right]
    if (l === undefined) break
    const worse = r !== undefined && right < n && better(l, r) ? right : left
    const child = heap[worse]
    if (child === undefined || !better(item, child)) break
    heap[i] = child
    i = worse
  }
  heap[i] = item
}

/** The index over built parts (their arrays are used as they are, not copied). */
export const fromParts = (parts: TrigramIndexParts): TrigramIndex => {
  const { size, ids, offsets, postings, counts } = parts
  if (offsets.length !== TRIGRAM_CODES + 1 || ids.length !== size * 16 || counts.length !== size) {
    throw new RangeError(`trigram index parts of mismatched sizes (${size} records)`)
  }
  if ((offsets[TRIGRAM_CODES] ?? 0) !== postings.length) throw new RangeError("trigram index postings cut short")
  // Scratch for ScanCount, allocated once per index.
  const shared = new Uint16Array(size)
  const touched = new Uint32Array(size)
  const search = (query: string, minSimilarity: number, limit: number): ReadonlyArray<IndexHit> => {
    // Shortest postings first: see the long ones below.
    const codes = [...trigrams(query)].sort((a, b) => offsets[a + 1]! - offsets[a]! - (offsets[b + 1]! - offsets[b]!))
    const n = codes.length
    if (n === 0 || limit <= 0) return []
    // similarity = c / (n + m − c) ≤ c / n: fewer than `minShared` shared trigrams can never reach the floor.
    const minShared = Math.max(1, Math.ceil(minSimilarity * n - 1e-9))
    // A record that can reach `minShared` is in at least one of the `n − minShared + 1` shortest postings: those are
    // counted in full; the longest `minShared − 1` (the common trigrams, most of the work) only add to records
    // already seen — by binary search per seen record when that reads fewer entries than the list holds.
    const counted = n - minShared + 1
    // The hot loops index typed arrays within their bounds by construction (hence the `!`).
    let touchedCount = 0
    for (let k = 0; k < counted; k++) {
      const code = codes[k]!
      const end = offsets[code + 1]!
      for (let p = offsets[code]!; p < end; p++) {
        const r = postings[p]!
        const count = shared[r]!
        if (count === 0) touched[touchedCount++] = r
        shared[r] = count + 1
      }
    }
    for (let k = counted; k < n; k++) {
      const code = codes[k]!
      const start = offsets[code]!
      const end = offsets[code + 1]!
      if (touchedCount * Math.log2(end - start + 2) < end - start) {
        for (let t = 0; t < touchedCount; t++) {
          const r = touched[t]!
          let lo = start
          let hi = end
          while (lo < hi) {
            const mid = (lo + hi) >>> 1
            if (postings[mid]! < r) lo = mid + 1
            else hi = mid
          }
          if (lo < end && postings[lo] === r) shared[r] = shared[r]! + 1
        }
      } else {
        for (let p = start; p < end; p++) {
          const r = postings[p]!
          const count = shared[r]!
          if (count !== 0) shared[r] = count + 1
        }
      }
    }
    // The best `limit` in a heap whose root is the worst kept: no array of every record above the floor.
    const better = (x: IndexHit, y: IndexHit) =>
      x.similarity > y.similarity || (x.similarity === y.similarity && compareIds(ids, x.position, y.position) < 0)
    const heap: Array<IndexHit> = []
    for (let t = 0; t < touchedCount; t++) {
      const r = touched[t]!
      const count = shared[r]!
      shared[r] = 0
      if (count < minShared) continue
      const s = similarityOf(count, n, counts[r]!)
      if (s < minSimilarity) continue
      const root = heap[0]
      if (heap.length === limit && root !== undefined && s < root.similarity) continue
      const hit = { position: r, similarity: s }
      if (heap.length < limit) heapPush(heap, hit, better)
      else if (root !== undefined && better(hit, root)) heapReplaceRoot(heap, hit, better)
    }
    return heap.sort((x, y) => (better(x, y) ? -1 : better(y, x) ? 1 : 0))
  }
  return {
    size,
    bytes: ids.byteLength + offsets.byteLength + postings.byteLength + counts.byteLength * 2 + touched.byteLength,
    idAt: (position) => readUuid(ids, position * 16),
    search
  }
}
