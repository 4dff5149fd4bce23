/** Spec 4.4 and 7 storage failures over the socket: a missing stored document is 404, an unreadable one 500. */
import { mkdirSync, rmSync } from "node:fs"
import * as Path from "node:path"
import { expect, it } from "vitest"
import { SAMPLE_PDF } from "../support/http.js"
import { query } from "../support/postgres.js"
import { v1 } from "../support/typed.js"
import type { World } from "./setup.js"

/** Registers the document-store failure tests (documents kept in `directory`). */
export const documentFiles = (world: () => World, directory: () => string) => {
  it("a stored document that is gone answers 404 {error}; one that cannot be read answers 5xx {error}", async () => {
    const { api, keys } = world()
    const gone = await api.submit(keys.alice, SAMPLE_PDF, "gone.pdf")
    const broken = await api.submit(keys.alice, SAMPLE_PDF, "broken.pdf")
    await api.awaitFinal(keys.alice, gone)
    await api.awaitFinal(keys.alice, broken)
    rmSync(Path.join(directory(), gone))
    const missing = await v1(api, keys.alice).download(gone)
    expect(missing.status).toBe(404)
    expect(missing.body).toEqual({ error: expect.any(String) })
    // A directory where the file should be: reading it fails (EISDIR), a storage access failure.
    rmSync(Path.join(directory(), broken))
    mkdirSync(Path.join(directory(), broken))
    const failed = await v1(api, keys.alice).download(broken)
    // Spec 4.4: a failure to access storage on the download is a 500, with `{error}` and no detail.
    expect(failed.status).toBe(500)
    expect(failed.body).toEqual({ error: expect.any(String) })
    // The extraction itself is still readable.
    expect((await v1(api, keys.alice).read(broken)).status).toBe(200)
  })
}

/** Registers the database failure tests: with the extractions table gone, every `/v1` extraction call is a 500. */
export const databaseFailures = (world: () => World, databaseUrl: () => string) => {
  it("a database failure answers 500 {error} on submit, list, reads, download and the status switch", async () => {
    const { api, keys, ids } = world()
    await query(databaseUrl(), "ALTER TABLE extractions RENAME TO extractions_away")
    try {
      const calls = [
        v1(api, keys.alice).submit({
          file_name: "f.pdf",
          skill: "factura-es",
          file_base64: Buffer.from(SAMPLE_PDF).toString("base64")
        }),
        v1(api, keys.alice).list(),
        v1(api, keys.alice).read(ids.alice1),
        v1(api, keys.alice).detailed(ids.alice1),
        v1(api, keys.alice).download(ids.alice1),
        v1(api, keys.alice).patch(ids.alice1, { status: "incompleto" })
      ]
      for (const reply of await Promise.all(calls)) {
        expect(reply.status).toBe(500)
        expect(reply.body).toEqual({ error: expect.any(String) })
        expect(JSON.stringify(reply.body)).not.toContain("extractions")
      }
    } finally {
      await query(databaseUrl(), "ALTER TABLE extractions_away RENAME TO extractions")
    }
    expect((await v1(api, keys.alice).read(ids.alice1)).status).toBe(200)
  })
}
