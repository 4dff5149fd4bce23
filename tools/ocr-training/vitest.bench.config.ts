import { defineConfig } from "vitest/config"
import { bench } from "../../vitest.shared.ts"

/** The ring rule's face survey (`bench/rings.run.ts`; `vitest.shared.ts` `bench`). */
export default defineConfig(bench)
