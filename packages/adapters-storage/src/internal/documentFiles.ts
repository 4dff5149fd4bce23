import { randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { Errors } from "@legible/core"
import { Effect } from "effect"

// A file-system failure is a storage access failure (spec 4.4: 500), not a passing outage of the database (503).
const failure = (operation: string) => (cause: unknown) =>
  new Errors.StorageError({
    reason: "Unknown",
    message: `${operation}: ${cause instanceof Error ? cause.message : String(cause)}`,
    cause
  })

/** Where the document of `name` lives: names are server-made (the extraction id), never the client's file name. */
const fileOf = (directory: string, name: string) => path.join(directory, name)

/**
 * Writes a document durably: to a temporary name, fsync'd, then renamed into place and the directory fsync'd,
 * so a crash leaves either no file or the whole file under its final name.
 */
export const write = (directory: string, name: string, bytes: Uint8Array): Effect.Effect<void, Errors.StorageError> =>
  Effect.tryPromise({
    try: async () => {
      await fs.mkdir(directory, { recursive: true })
      const temporary = path.join(directory, `.${name}.${randomUUID()}.tmp`)
      const handle = await fs.open(temporary, "wx")
      try {
        await handle.writeFile(bytes)
        await handle.sync()
      } finally {
        await handle.close()
      }
      try {
        await fs.rename(temporary, fileOf(directory, name))
      } catch (error) {
        await fs.rm(temporary, { force: true })
        throw error
      }
      const dir = await fs.open(directory, "r")
      try {
        await dir.sync()
      } finally {
        await dir.close()
      }
    },
    catch: failure("DocumentStore.write")
  })

/** Removes a document (a submission whose transaction failed); a missing file is fine. */
export const remove = (directory: string, name: string): Effect.Effect<void, Errors.StorageError> =>
  Effect.tryPromise({
    try: () => fs.rm(fileOf(directory, name), { force: true }),
    catch: failure("DocumentStore.remove")
  })

/** Reads a document, or `undefined` when the file is gone. */
export const read = (directory: string, name: string): Effect.Effect<Uint8Array | undefined, Errors.StorageError> =>
  Effect.tryPromise({
    try: async () => {
      try {
        return new Uint8Array(await fs.readFile(fileOf(directory, name)))
      } catch (error) {
        if (error instanceof Error && "code" in error && error.code === "ENOENT") return undefined
        throw error
      }
    },
    catch: failure("DocumentStore.read")
  })
