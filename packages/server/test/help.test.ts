/** The CLI's `--help`: every flag and argument of every command is described; `skills apply` shows the file format. */
import { NodeServices } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestConsole } from "effect/testing"
import * as Cli from "../src/internal/cli.js"

const COMMANDS: ReadonlyArray<readonly [ReadonlyArray<string>, number]> = [
  [["serve"], 1],
  [["migrate"], 0],
  [["token"], 6],
  [["skills", "apply"], 2],
  [["catalogs", "import"], 4],
  [["keys", "create"], 7],
  [["quickstart"], 0]
]

const help = (path: ReadonlyArray<string>) =>
  Cli.run([...path, "--help"]).pipe(
    Effect.andThen(TestConsole.logLines),
    Effect.map((lines) => lines.map(String).join("\n")),
    Effect.provide(Layer.fresh(TestConsole.layer)),
    Effect.provide(NodeServices.layer)
  )

/** The lines of a help section (`FLAGS`, `ARGUMENTS`) up to the next heading. */
const section = (text: string, heading: string): ReadonlyArray<string> => {
  const lines = text.split("\n")
  const start = lines.indexOf(heading)
  if (start === -1) return []
  const end = lines.findIndex((line, i) => i > start && /^[A-Z][A-Z ]+$/.test(line))
  return lines.slice(start + 1, end === -1 ? undefined : end).filter((line) => line.trim().length > 0)
}

describe("legible --help", () => {
  it.effect("describes every flag and argument of every command", () =>
    Effect.gen(function* () {
      for (const [path, count] of COMMANDS) {
        const text = yield* help(path)
        expect(text).toContain(`legible ${path.join(" ")}`)
        const entries = [...section(text, "FLAGS"), ...section(text, "ARGUMENTS")]
        expect(entries, path.join(" ")).toHaveLength(count)
        for (const entry of entries) {
          // "  --name string    The key's name": a name and its type, then at least two spaces and words.
          expect(entry, `${path.join(" ")}: ${entry}`).toMatch(/^\s+\S+(?: \S+)?\s{2,}[^\s(].*$/)
        }
      }
    })
  )

  it.effect("skills apply shows the skill file format, an example and where the whole format is", () =>
    Effect.gen(function* () {
      const text = yield* help(["skills", "apply"])
      for (const words of ["slug", "order", "aliases", "catalogId", "keyColumns", "aproximada", "Skill files"]) {
        expect(text).toContain(words)
      }
      const example = text.match(/with factura\.json: (\{.*\})/)?.[1]
      expect(example, text).toBeDefined()
      const skill = JSON.parse(example!) as { slug: string; fields: ReadonlyArray<{ type: string }> }
      expect(skill.slug).toBe("factura")
      expect(skill.fields.map((field) => field.type)).toContain("catalog")
    })
  )
})
