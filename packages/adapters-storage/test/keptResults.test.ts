/**
 * PostgreSQL's kept stored texts (`readAs` with `storedAsBytes`): a process sends the text it holds while the row's
 * `last_modification` is the one it was read at, and the database's text as soon as another process changed it.
 */
import { assert, layer } from "@effect/vitest"
import { Ports, StoredResult } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as ExtractionStore from "../src/internal/extractionStore.js"
import * as SqlStorage from "../src/SqlStorage.js"
import { extractionId as id, recordOf, submissionOf } from "./contracts/extractionFixtures.js"
import { idOf, tenant } from "./contracts/support.js"
import { postgres } from "./support/databases.js"

const textOf = (read: Ports.KeyedRead<Ports.StoredRead | undefined> | undefined): string | undefined => {
  const stored = read?.found?.stored
  return stored === null || stored === undefined ? undefined : StoredResult.bodyText(stored)
}

layer(Layer.provideMerge(SqlStorage.layer({ storedAsBytes: true }), postgres))(
  "kept stored texts (PostgreSQL)",
  (it) => {
    it.effect("sent from memory while the row is unchanged; the database's text once another process wrote it", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("kept-mine")
        const theirs = yield* tenant("kept-theirs")
        const keys = yield* Ports.ApiKeyStore
        yield* keys.insert(
          Fixtures.storedKey({ id: idOf(3, 990), clientId: mine.client.id, userId: mine.user.id, hash: "kept-mine" })
        )
        yield* keys.insert(
          Fixtures.storedKey({
            id: idOf(3, 991),
            clientId: theirs.client.id,
            userId: theirs.user.id,
            hash: "kept-theirs"
          })
        )
        const store = yield* Ports.ExtractionStore
        // Another api process: a store of its own over the same database.
        const other = Context.get(yield* ExtractionStore.make({ storedAsBytes: true }), Ports.ExtractionStore)
        const sql = yield* SqlClient.SqlClient
        const done = Fixtures.completedExtraction({ ...recordOf(mine, 780), errorMessage: null })
        yield* store.submit(submissionOf(done))
        // The worker writes the stored text when processing ends (`SqlJobQueue.complete`), with `last_modification`.
        const write = (text: string | null) =>
          sql`UPDATE extractions SET result_detailed = ${text}, last_modification = now() WHERE id = ${id(780)}`
        yield* write('"resultado":{"first":0}')
        const first = textOf(yield* store.readAs("kept-mine", id(780), "detailed"))
        assert.strictEqual(first, '"resultado":{"first":0}')
        assert.strictEqual(textOf(yield* store.readAs("kept-mine", id(780), "detailed")), first, "read again")

        // The text changed under an unchanged `last_modification` (no writer does this: every write of a result sets
        // it): the process that holds the text sends it, which shows it was not read again.
        yield* sql`UPDATE extractions SET result_detailed = ${'"resultado":{"changed":1}'} WHERE id = ${id(780)}`
        assert.strictEqual(textOf(yield* store.readAs("kept-mine", id(780), "detailed")), first, "held")
        assert.strictEqual(textOf(yield* other.readAs("kept-mine", id(780), "detailed")), '"resultado":{"changed":1}')

        // A write as the worker makes it is sent on the very next read, by both processes.
        yield* write('"resultado":{"again":2}')
        assert.strictEqual(textOf(yield* store.readAs("kept-mine", id(780), "detailed")), '"resultado":{"again":2}')
        assert.strictEqual(textOf(yield* other.readAs("kept-mine", id(780), "detailed")), '"resultado":{"again":2}')
        assert.strictEqual(textOf(yield* store.readAs("kept-mine", id(780), "detailed")), '"resultado":{"again":2}')

        // Another client's key finds nothing, kept text or not; a row without stored text reads its result.
        assert.isUndefined((yield* store.readAs("kept-theirs", id(780), "detailed"))?.found)
        yield* write(null)
        const fallback = (yield* store.readAs("kept-mine", id(780), "detailed"))?.found
        assert.isNull(fallback?.stored)
        assert.deepStrictEqual(fallback?.record.result, done.result)
      })
    )
  }
)
