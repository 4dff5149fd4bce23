import { defineConfig } from "vitest/config"
import { shared } from "../../vitest.shared.ts"

/**
 * The soak run (`npm run soak`, not part of CI): mixed traffic against `api` + 2 `worker` processes on a private
 * PostgreSQL for `LEGIBLE_SOAK_SECONDS` (default 120), with a worker and PostgreSQL killed and restarted during the
 * run; prints its figures as it goes, so the console is not intercepted.
 */
export default defineConfig({
  ...shared,
  test: {
    ...shared.test,
    include: ["reliability/soak.run.ts"],
    testTimeout: 24 * 3_600_000,
    hookTimeout: 600_000,
    disableConsoleIntercept: true
  }
})
