import { defineConfig } from "vitest/config"
import { shared } from "../../vitest.shared.ts"

/** Runs the server benchmark as one long test on Node 22, printing its figures (not part of `npm test`). */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ["bench/**/*.run.ts"],
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
    disableConsoleIntercept: true
  }
})
