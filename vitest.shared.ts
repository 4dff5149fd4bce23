import type { UserWorkspaceConfig } from "vitest/config"

/** Settings every package's vitest project shares: source-first resolution of the workspace packages. */
export const shared: UserWorkspaceConfig = {
  resolve: { conditions: ["@legible/source"] },
  ssr: { resolve: { conditions: ["@legible/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
}

/**
 * The settings of a package whose tests bound no wall-clock time and start no server, PostgreSQL or PGlite: its
 * files run two at a time (first, together with the other such packages), where the rest of the suite runs one file
 * at a time (2 cores, and timing-bounded tests — leases, time limits, timer lags — must not share them).
 */
export const parallel: UserWorkspaceConfig = {
  ...shared,
  test: { ...shared.test, maxWorkers: 2 }
}

/**
 * A package's settings with the test files of a worker sharing one module graph (`isolate: false`) instead of each
 * importing Effect and the package afresh, which was 60–75 % of these packages' runs. Only for packages whose tests
 * keep no state in modules or globals (no stubbed globals, module mocks, fake timers or environment changes):
 * core, testkit, ocr-training, adapters-http, adapters-llm, adapters-storage, server; `codes` stubs `fetch` and
 * keeps its isolation. vitest runs projects that share modules by `sequence.groupOrder`, one group after the other:
 * the `parallel` ones (order 0) run together with the other `parallel` packages; the others (order 1, one file at a
 * time) after them.
 */
export const sharingModules = (config: UserWorkspaceConfig): UserWorkspaceConfig => ({
  ...config,
  test: {
    ...config.test,
    isolate: false,
    sequence: { ...config.test?.sequence, groupOrder: config.test?.maxWorkers === undefined ? 1 : 0 }
  }
})

/**
 * Settings of every package's benchmarks (`npm run bench`, not part of `npm test`): `bench/**\/*.run.ts`, one file
 * after the other so that their timings do not share the cores, long timeouts, output printed as it comes.
 */
export const bench: UserWorkspaceConfig = {
  ...shared,
  test: {
    ...shared.test,
    include: ["bench/**/*.run.ts"],
    fileParallelism: false,
    testTimeout: 3_600_000,
    hookTimeout: 600_000,
    disableConsoleIntercept: true
  }
}
