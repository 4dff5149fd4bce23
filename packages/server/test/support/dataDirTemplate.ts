/**
 * The vitest global set-up of the server's tests: one data directory migrated by the BUILT CLI (`bin.js migrate`)
 * once per run, which `seedDataDir` copies for the tests that serve from a data directory but do not test its
 * creation. A server started on a copy skips PGlite's `initdb` and the migrations: ready in ≈3 s against ≈10 s on
 * an empty directory (MEASUREMENTS.md, "Test suite").
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import type { TestProject } from "vitest/node"
import { BIN, childEnv, NODE, requireBuild, tempDir } from "./process.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** A data directory `legible migrate` created, to be copied (never opened) by the tests. */
    readonly migratedDataDir: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  requireBuild()
  const template = tempDir("legible-data-template-")
  await promisify(execFile)(NODE, [BIN, "migrate"], { env: childEnv({ LEGIBLE_DATA_DIR: template.path }) })
  project.provide("migratedDataDir", template.path)
  return template.dispose
}
