/** Deterministic ids: the n-th UUID of a fixed sequence, and `IdGenerator` layers that hand them out in order. */
import { IdGenerator } from "@legible/core"
import { Layer } from "effect"

/** The n-th UUID of the sequence (n ≥ 0): `00000000-0000-4000-8000-` and n in 12 hex digits. A valid v4 shape. */
export const uuid = (n: number): string => {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`uuid index must be a non-negative integer, got ${n}`)
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`
}

/** An id source that returns `uuid(start)`, `uuid(start + 1)`, … */
export const sequence = (start = 1): { readonly uuid: () => string } => {
  let next = start
  return { uuid: () => uuid(next++) }
}

/** Provides `IdGenerator` with a fresh `sequence(start)` each time the layer is built. */
export const layer = (start = 1): Layer.Layer<never> => Layer.sync(IdGenerator.IdGenerator, () => sequence(start))
