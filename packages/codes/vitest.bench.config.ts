import { defineConfig } from "vitest/config"
import { bench } from "../../vitest.shared.ts"

/** The package's benchmarks (`npm run bench -w @legible/codes`; `vitest.shared.ts` `bench`). */
export default defineConfig(bench)
