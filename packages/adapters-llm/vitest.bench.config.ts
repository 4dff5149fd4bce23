import { defineConfig } from "vitest/config"
import { bench } from "../../vitest.shared.ts"

/** The local-extractor benchmark, printing its figures (`vitest.shared.ts` `bench`). */
export default defineConfig(bench)
