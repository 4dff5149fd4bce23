/**
 * The vitest global set-up of the package: two in-memory PGlite clusters made once per run and dumped
 * (`dumpDataDir`) to files that every test's PGlite starts from (`pglite`, `onUnmigratedEngines` in
 * `databases.ts`): an empty one as `PgliteClient.make` opens it, and one with every migration run. A PGlite started
 * from a dump skips `initdb` (≈1.5 s against ≈9 s with both cores busy) and the migrations, and is still a database
 * of its own.
 */
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Effect } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import type { TestProject } from "vitest/node"
import * as Database from "../../src/Database.js"
import * as PgliteClient from "../../src/internal/pgliteClient.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The file of the dumped empty cluster. */
    readonly pgliteEmpty: string
    /** The file of the dumped migrated cluster. */
    readonly pgliteMigrated: string
  }
}

const dump = (client: PgliteClient.PgliteClient, file: string) =>
  Effect.promise(async () => {
    const blob = await client.pglite.dumpDataDir("none")
    Fs.writeFileSync(file, new Uint8Array(await blob.arrayBuffer()))
  })

export default async function setup(project: TestProject): Promise<() => void> {
  const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "legible-pglite-templates-"))
  const empty = Path.join(directory, "empty.tar")
  const migrated = Path.join(directory, "migrated.tar")
  await Effect.runPromise(
    Effect.gen(function* () {
      const client = yield* PgliteClient.make({})
      yield* dump(client, empty)
      yield* Effect.provideService(Database.migrate, SqlClient.SqlClient, client)
      yield* dump(client, migrated)
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer))
  )
  project.provide("pgliteEmpty", empty)
  project.provide("pgliteMigrated", migrated)
  return () => Fs.rmSync(directory, { recursive: true, force: true })
}
