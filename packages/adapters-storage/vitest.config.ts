import { defineProject } from "vitest/config"
import { shared, sharingModules } from "../../vitest.shared.ts"

/** The package's tests, each in-memory PGlite started from a cluster dumped once per run (`pgliteTemplates.ts`). */
export default defineProject(
  sharingModules({
    ...shared,
    test: { ...shared.test, globalSetup: ["test/support/pgliteTemplates.ts"] }
  })
)
