import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

/**
 * Runs the OCR stage timings (test/ocr/timings.run.ts) as one long test that prints its figures; not in `npm test`.
 * Same source-first resolution of the workspace packages as vitest.shared.ts.
 */
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  resolve: { conditions: ["@legible/source"] },
  ssr: { resolve: { conditions: ["@legible/source"] } },
  test: {
    include: ["test/ocr/timings.run.ts"],
    testTimeout: 600_000,
    disableConsoleIntercept: true
  }
})
