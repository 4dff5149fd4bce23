import { fileURLToPath } from "node:url"
import { defineProject } from "vitest/config"
import { shared, sharingModules } from "../../vitest.shared.ts"

/** The server's tests, and the repository's examples (`examples/*.test.ts`, a user's own test written with the testkit). */
export default defineProject(
  sharingModules({
    ...shared,
    test: {
      ...shared.test,
      // Absolute: the repository root, wherever vitest is started from.
      dir: fileURLToPath(new URL("../..", import.meta.url)),
      include: ["packages/server/test/**/*.test.ts", "examples/**/*.test.ts"],
      // Relative to this package (the project root), not to `dir`.
      globalSetup: ["test/support/dataDirTemplate.ts"]
    }
  })
)
