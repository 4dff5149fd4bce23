/**
 * The README's environment table and `Config` agree: every variable `Config.load` reads is in the table, and every
 * variable in the table is read.
 */
import { readFileSync } from "node:fs"
import * as Path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import * as Config from "../src/Config.js"
import { ROOT } from "./support/process.js"

/** The backticked `LEGIBLE_*` names in the first column of the README's "Configuration" table. */
const tableNames = (): ReadonlySet<string> => {
  const readme = readFileSync(Path.join(ROOT, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("\n## Configuration"))
  const table = section.slice(0, section.indexOf("\n## ", 1))
  const names = table
    .split("\n")
    .filter((line) => line.startsWith("| `LEGIBLE_"))
    .flatMap((line) => [...(line.split("|")[1] ?? "").matchAll(/`(LEGIBLE_[A-Z0-9_]+)`/g)].map((match) => match[1]!))
  return new Set(names)
}

/** The names `Config.load` asks its provider for. */
const readNames = Effect.gen(function* () {
  const asked = new Set<string>()
  const empty = Config.fromEnv({})
  const recording = ConfigProvider.make((path) => {
    asked.add(path.join("_"))
    return empty.load(path)
  })
  yield* Config.load.pipe(Effect.provideService(ConfigProvider.ConfigProvider, recording))
  return asked
})

describe("the README's environment table", () => {
  it.effect("lists exactly the variables the server reads", () =>
    Effect.gen(function* () {
      const read = yield* readNames
      const table = tableNames()
      expect(read.size).toBeGreaterThan(30)
      expect(
        [...read].filter((name) => !table.has(name)),
        "read but not in the table"
      ).toEqual([])
      expect(
        [...table].filter((name) => !read.has(name)),
        "in the table but not read"
      ).toEqual([])
    })
  )
})
