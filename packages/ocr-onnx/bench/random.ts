/** A seeded generator of floats in [0, 1): the same seed gives the same pages, rasters and training lines. */
export type Random = () => number

/** mulberry32: small, fast and good enough for data generation. */
export const seeded = (seed: number): Random => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
