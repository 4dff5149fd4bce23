/** The runnable embedding example, as a user runs it: `npm run example:embed` (build, then `node examples/embed.ts`). */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { expect, it } from "vitest"
import { childEnv, ROOT } from "./support/process.js"

it("npm run example:embed extracts the sample now, then through the queue, and exits 0", async () => {
  const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "example:embed"], {
    cwd: ROOT,
    env: childEnv({}),
    timeout: 170_000
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
