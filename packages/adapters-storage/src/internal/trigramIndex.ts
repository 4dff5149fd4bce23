/**
 * A compact in-process trigram index of one catalog column: postings per trigram code (record positions) in typed
 * arrays, searched by counting shared trigrams per record ("ScanCount"). Trigrams and similarity are core's
 * (`CatalogMatch.forEachTrigram`, `CatalogMatch.similarityOf`): the index ranks exactly as `pg_trgm` would.
 */
import { CatalogMatch } from "@legible/core"
import { heapPush, heapReplaceRoot } from "./heap.js"
import { compareUuids, readUuid, UUID_BYTES, writeUuid } from "./uuidBytes.js"

const { forEachTrigram, similarityOf, TRIGRAM_CODES } = CatalogMatch

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
 * bytes (keys hold only `a-z`, `0-9` and spaces) and counts its trigrams; `parts` then allocates the postings once,
 * at their final size, and fills them.
 */
export class TrigramIndexBuilder {
  private ids = new Uint8Array(UUID_BYTES * 1024)
  private text = new Uint8Array(64 * 1024)
  private ends = new Uint32Array(1024)
  private counts = new Uint16Array(1024)
  private readonly frequencies = new Uint32Array(TRIGRAM_CODES)
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
    writeUuid(this.ids, this.count * UUID_BYTES, id)
    this.ends[this.count] = this.textLength
    const frequencies = this.frequencies
    let distinct = 0
    forEachTrigram(key, (code) => {
      frequencies[code]! += 1
      distinct++
    })
    this.counts[this.count] = Math.min(distinct, 0xffff)
    this.count++
  }

  /**
   * The index's typed arrays: postings allocated once at their final size and filled in a second pass over the
   * keys. Synchronous and long at a million records (`MEASUREMENTS.md`): the SQL store runs it in a worker thread
   * and transfers the arrays back (`fromParts`). The builder must not be used afterwards.
   */
  parts(): TrigramIndexParts {
    const size = this.count
    const offsets = new Uint32Array(TRIGRAM_CODES + 1)
    for (let code = 0; code < TRIGRAM_CODES; code++) {
      offsets[code + 1] = (offsets[code] ?? 0) + (this.frequencies[code] ?? 0)
    }
    const postings = new Uint32Array(offsets[TRIGRAM_CODES] ?? 0)
    const fill = offsets.slice(0, TRIGRAM_CODES)
    const text = Buffer.from(this.text.buffer, this.text.byteOffset, this.textLength)
    let start = 0
    for (let r = 0; r < size; r++) {
      const end = this.ends[r] ?? start
      forEachTrigram(text.toString("latin1", start, end), (code) => {
        const at = fill[code]!
        postings[at] = r
        fill[code] = at + 1
      })
      start = end
    }
    const ids = this.ids.slice(0, size * UUID_BYTES)
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

/** The index over built parts (their arrays are used as they are, not copied). */
export const fromParts = (parts: TrigramIndexParts): TrigramIndex => {
  const { size, ids, offsets, postings, counts } = parts
  if (offsets.length !== TRIGRAM_CODES + 1 || ids.length !== size * UUID_BYTES || counts.length !== size) {
    throw new RangeError(`trigram index parts of mismatched sizes (${size} records)`)
  }
  if ((offsets[TRIGRAM_CODES] ?? 0) !== postings.length) throw new RangeError("trigram index postings cut short")
  // Scratch for ScanCount, allocated once per index.
  const shared = new Uint16Array(size)
  const touched = new Uint32Array(size)
  const search = (query: string, minSimilarity: number, limit: number): ReadonlyArray<IndexHit> => {
    // Shortest postings first: see the long ones below.
    const codes: Array<number> = []
    forEachTrigram(query, (code) => codes.push(code))
    codes.sort((a, b) => offsets[a + 1]! - offsets[a]! - (offsets[b + 1]! - offsets[b]!))
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
      x.similarity > y.similarity || (x.similarity === y.similarity && compareUuids(ids, x.position, y.position) < 0)
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
    idAt: (position) => readUuid(ids, position * UUID_BYTES),
    search
  }
}
