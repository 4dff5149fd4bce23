/**
 * The import rules of `.dependency-cruiser.cjs` hold over the whole workspace: no package imports another package's
 * internals (only declared entry points), adapters import only core, and no module imports itself in a cycle.
 */
import { existsSync } from "node:fs"
import * as Path from "node:path"
import { cruise, type IViolation } from "dependency-cruiser"
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options"
import { describe, expect, it } from "vitest"
import { ROOT } from "./support/process.js"

const cruiseAll = async (): Promise<ReadonlyArray<IViolation>> => {
  const options = await extractDepcruiseOptions(Path.join(ROOT, ".dependency-cruiser.cjs"))
  const roots = ["packages", "tools", "examples", "scripts"].filter((dir) => existsSync(Path.join(ROOT, dir)))
  const result = await cruise(roots, { ...options, baseDir: ROOT, validate: true })
  if (typeof result.output === "string") throw new Error("dependency-cruiser returned text, not a result")
  return result.output.summary.violations
}

// One cruise of the workspace (≈2 s) serves both tests; each still fails on its own rules.
let cruised: Promise<ReadonlyArray<IViolation>> | undefined
const violations = (): Promise<ReadonlyArray<IViolation>> => {
  cruised ??= cruiseAll()
  return cruised
}

const describeViolation = (v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}`

describe("the workspace's import rules", () => {
  it("no package imports another package's internals, and every import resolves", async () => {
    const found = await violations()
    expect(
      found
        .filter((v) => v.rule.name === "no-foreign-internals" || v.rule.name === "not-to-unresolvable")
        .map(describeViolation)
    ).toEqual([])
  }, 60_000)

  it("adapters import only core, core imports nothing of ours, and no import cycle", async () => {
    const found = await violations()
    expect(found.map(describeViolation)).toEqual([])
  }, 60_000)
})
