import { defineConfig } from "vitest/config"
import { shared } from "../../vitest.shared.ts"

/** The ring rule's face survey (`bench/rings.run.ts`): prints its figures; not part of `npm test`. */
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
