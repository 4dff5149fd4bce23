/**
 * An exclusive lock on the embedded data directory: PGlite is one session in one process, so a second process
 * opening the same directory (a `serve` beside a `keys create`) would corrupt it. The lock file holds the owner's
 * pid; a lock whose owner is gone is taken over.
 */
import * as Fs from "node:fs/promises"
import * as Path from "node:path"
import { Effect, Schema, type Scope } from "effect"

/** The lock file, inside the data directory. */
export const LOCK_FILE = "legible.lock"

/** Another live process holds the data directory. */
export class DataDirInUse extends Schema.TaggedError<DataDirInUse>()("DataDirInUse", {
  message: Schema.String
}) {}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

const tryAcquire = async (file: string): Promise<number | undefined> => {
  for (let round = 0; round < 3; round++) {
    try {
      await Fs.writeFile(file, `${process.pid}\n`, { flag: "wx", mode: 0o600 })
      return undefined
    } catch (error) {
      if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) throw error
    }
    const owner = Number.parseInt(await Fs.readFile(file, "utf8").catch(() => ""), 10)
    if (Number.isInteger(owner) && owner !== process.pid && alive(owner)) return owner
    await Fs.rm(file, { force: true })
  }
  throw new Error(`could not take ${file}`)
}

/** Holds the lock of `dataDir` for the scope (creating the directory, mode 0700, when missing). */
export const acquire = (dataDir: string): Effect.Effect<void, DataDirInUse, Scope.Scope> => {
  const file = Path.join(dataDir, LOCK_FILE)
  return Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        await Fs.mkdir(dataDir, { recursive: true, mode: 0o700 })
        return tryAcquire(file)
      },
      catch: (error) => new DataDirInUse({ message: `cannot lock ${dataDir}: ${message(error)}` })
    }).pipe(
      Effect.flatMap((owner) =>
        owner === undefined
          ? Effect.void
          : Effect.fail(
              new DataDirInUse({
                message:
                  `the data directory ${dataDir} is in use by process ${owner} (the embedded database allows one ` +
                  "process): stop it first, run this command against it through the HTTP API, or use PostgreSQL " +
                  "(LEGIBLE_DATABASE_URL) to run several processes"
              })
            )
      )
    ),
    () =>
      Effect.promise(async () => {
        const owner = await Fs.readFile(file, "utf8").catch(() => "")
        if (Number.parseInt(owner, 10) === process.pid) await Fs.rm(file, { force: true })
      })
  )
}
