/**
 * The contract suite over a real socket against the BUILT server on embedded PGlite (documents in a directory):
 * `node packages/server/dist/bin.js serve` as a child process on a free port, data in a temporary directory.
 */
import * as Path from "node:path"
import { afterAll, beforeAll, describe } from "vitest"
import { documentFiles } from "./contract/failures.js"
import { keys } from "./contract/keys.js"
import { list } from "./contract/list.js"
import { patch } from "./contract/patch.js"
import { reads } from "./contract/reads.js"
import { makeWorld, type World } from "./contract/setup.js"
import { submit } from "./contract/submit.js"
import { seedDataDir, tempDir } from "./support/process.js"

describe("socket contract on PGlite", () => {
  const data = tempDir("legible-socket-")
  let current: World | undefined
  const world = (): World => {
    if (current === undefined) throw new Error("the server did not start")
    return current
  }
  beforeAll(async () => {
    current = await makeWorld({
      engine: "pglite",
      split: false,
      env: { LEGIBLE_DATA_DIR: seedDataDir(data.path), LEGIBLE_DOCUMENTS_DIR: Path.join(data.path, "documents") }
    })
  })
  afterAll(async () => {
    await current?.stop()
    data.dispose()
  })
  describe("keys", () => keys(world))
  describe("reads", () => reads(world))
  describe("submit", () => submit(world))
  describe("list", () => list(world))
  describe("status", () => patch(world))
  describe("documents", () => documentFiles(world, () => Path.join(data.path, "documents")))
})
