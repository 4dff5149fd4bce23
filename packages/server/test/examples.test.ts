/** The runnable embedding example, as a user runs it: `node examples/embed.ts` against the built packages. */
import { execFile } from "node:child_process"
import * as Path from "node:path"
import { promisify } from "node:util"
import { expect, it } from "vitest"
import { childEnv, NODE, ROOT, requireBuild } from "./support/process.js"

it("examples/embed.ts extracts the sample now, then through the queue, and exits 0", async () => {
  requireBuild()
  const { stdout } = await promisify(execFile)(NODE, [Path.join(ROOT, "examples/embed.ts")], {
    cwd: ROOT,
    env: childEnv({}),
    timeout: 120_000
  })
  const [direct, queued] = stdout
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  expect(direct).toEqual({
    step: "extractNow",
    pages: 1,
    values: { numero: "F-2026-0042", fecha: "12/03/2026", total: "122,82" }
  })
  expect(queued).toMatchObject({ step: "queued", status: "completado", fields: 3 })
}, 180_000)
