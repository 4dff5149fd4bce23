/**
 * A least-recently-used cache of values with a size, bounded by the total size: a read moves its entry to the end,
 * and a write evicts from the front until the total fits. A value larger than the bound is never kept.
 */
export interface Lru<A> {
  readonly get: (key: string) => A | undefined
  readonly set: (key: string, value: A) => void
  readonly delete: (key: string) => void
}

/** A cache holding at most `maxSize` in all, each value measured by `sizeOf` (bytes, or 1 to count entries). */
export const make = <A>(maxSize: number, sizeOf: (value: A) => number): Lru<A> => {
  const entries = new Map<string, A>()
  let size = 0
  const remove = (key: string) => {
    const old = entries.get(key)
    if (old === undefined) return
    entries.delete(key)
    size -= sizeOf(old)
  }
  return {
    get: (key) => {
      const value = entries.get(key)
      if (value !== undefined) {
        entries.delete(key)
        entries.set(key, value)
      }
      return value
    },
    set: (key, value) => {
      remove(key)
      if (sizeOf(value) > maxSize) return
      entries.set(key, value)
      size += sizeOf(value)
      for (const [oldest, evicted] of entries) {
        if (size <= maxSize) break
        entries.delete(oldest)
        size -= sizeOf(evicted)
      }
    },
    delete: remove
  }
}
