import { defineConfig } from "vitest/config"
import { bench } from "../../vitest.shared.ts"

/** Every benchmark of the package, listed in `bench/README.md` (`vitest.shared.ts` `bench`). */
export default defineConfig(bench)
