import { configDefaults, defineConfig } from "vitest/config"
import { shared } from "../../vitest.shared.ts"

/**
 * Files whose assertions bound wall-clock times within a few seconds (C14/C15's retry gaps, C16's drain and release
 * within the grace, E26's timeouts and retry waits): they run alone, after the others, so that no other file's
 * load eats their slack.
 */
const TIMED = ["reliability/C-queue-workers.test.ts", "reliability/E-providers.test.ts"]

const suite = {
  ...shared,
  test: { ...shared.test, testTimeout: 600_000, hookTimeout: 300_000 }
}

/**
 * The reliability suite (`npm run test:reliability`): every promise of RELIABILITY.md (A1 … E29) against the built
 * server as real child processes on real PostgreSQL, plus the endpoint fuzz test. Every file has its own database
 * (a fresh one on the shared server, or a private cluster it may stop), its own data directory and free ports, so
 * files do not see each other: the untimed ones run two at a time (2 cores), then the timed ones one at a time.
 */
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        ...suite,
        test: {
          ...suite.test,
          name: "reliability",
          include: ["reliability/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...TIMED],
          maxWorkers: 2,
          sequence: { groupOrder: 0 }
        }
      },
      {
        ...suite,
        test: {
          ...suite.test,
          name: "reliability (timed, alone)",
          include: TIMED,
          maxWorkers: 1,
          sequence: { groupOrder: 1 }
        }
      }
    ]
  }
})
