import { defineConfig } from "vitest/config"
import { shared } from "../../vitest.shared.ts"

/**
 * The reliability suite (`npm run test:reliability`): every promise of RELIABILITY.md (A1 … E29) against the built
 * server as real child processes on real PostgreSQL, plus the endpoint fuzz test. Files run one at a time: they
 * start processes, kill them and restart PostgreSQL, and 2 cores are shared.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ["reliability/**/*.test.ts"],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000
  }
})
