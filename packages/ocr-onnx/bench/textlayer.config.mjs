// Runs only the text-layer benchmark (the package's bench config runs every bench/*.run.ts). JavaScript so that the
// package's test tsconfig, which includes bench/, does not type-check a file outside its rootDir through this import.
import { defineConfig } from "vitest/config"
import { shared } from "../../../vitest.shared.ts"

export default defineConfig({
  ...shared,
  root: new URL("..", import.meta.url).pathname,
  test: {
    ...shared.test,
    include: ["bench/textlayer.run.ts"],
    testTimeout: 3_600_000,
    disableConsoleIntercept: true
  }
})
