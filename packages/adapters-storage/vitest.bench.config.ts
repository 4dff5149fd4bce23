import { defineConfig } from "vitest/config"
import { bench } from "../../vitest.shared.ts"

/** The list and catalog benchmarks, printing their figures (`vitest.shared.ts` `bench`). */
export default defineConfig(bench)
