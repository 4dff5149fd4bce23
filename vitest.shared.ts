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
