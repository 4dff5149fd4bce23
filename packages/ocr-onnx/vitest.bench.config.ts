import { defineConfig } from "vitest/config"
import { shared } from "../../vitest.shared.ts"

/**
 * Every benchmark of the package (`bench/**\/*.run.ts`, listed in `bench/README.md`), one file after the other so
 * that their timings do not share the cores; each prints its figures. Not part of `npm test`.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ["bench/**/*.run.ts"],
    fileParallelism: false,
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
    disableConsoleIntercept: true
  }
})
