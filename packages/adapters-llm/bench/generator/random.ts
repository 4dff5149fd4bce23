/** A seeded source of random draws (mulberry32): the same seed gives the same documents. */
export interface Random {
  /** A float in [0, 1). */
  readonly next: () => number
  /** An integer in [min, max]. */
  readonly int: (min: number, max: number) => number
  /** One of `items` (not empty). */
  readonly pick: <A>(items: ReadonlyArray<A>) => A
  /** `true` with probability `p`. */
  readonly chance: (p: number) => boolean
}

/** A generator of draws from `seed`. */
export const seeded = (seed: number): Random => {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <A>(items: ReadonlyArray<A>): A => {
    const item = items[Math.floor(next() * items.length)]
    if (item === undefined) throw new RangeError("pick from an empty list")
    return item
  }
  return { next, int, pick, chance: (p) => next() < p }
}
