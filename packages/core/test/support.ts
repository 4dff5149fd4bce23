import type { Arbitrary } from "effect"

/** Options of a property test with a fixed seed (reproducible runs) and a number of runs. */
export const seeded = (seed: number, runs = 200): { readonly arbitrary: Arbitrary.CheckOptions } => ({
  arbitrary: { seed, runs }
})
