/**
 * What only the SQL adapters can show: what the tables hold (hashes, folded names, job rows), the wake-up
 * notification, and documents kept as files.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, assert, layer } from "@effect/vitest"
import { ApiKey, Ports } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect, Exit, Layer, Queue } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/Database.js"
import * as SqlExtractionStore from "../../src/internal/extractionStore.js"
import * as SqlStorage from "../../src/SqlStorage.js"
import { extractionId, recordOf, scopeOf, submissionOf } from "./extractionFixtures.js"
import { tenant } from "./support.js"

/** A database layer (PGlite or PostgreSQL) as the test support builds them. */
export type DatabaseLayer = Layer.Layer<SqlClient.SqlClient | Database.Notifications, unknown>

const id = (n: number) => extractionId(n + 500)

/** Every row of every table of the schema, as text. */
const everyRowAsText = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const tables = yield* sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`
  const texts = yield* Effect.forEach(
    tables,
    (table) => sql<{ row: string }>`SELECT t::text AS row FROM ${sql(table.name)} t`
  )
  return texts.flat().map((r) => r.row)
})

const jobOf = (extraction: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ state: string; attempts: number; max_attempts: number; due: boolean }>`
      SELECT state, attempts, max_attempts, run_at <= now() AS due FROM jobs WHERE extraction_id = ${extraction}`
  )

const countsOf = (extraction: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) =>
      sql<{ extractions: bigint; documents: bigint; jobs: bigint }>`
      SELECT (SELECT count(*) FROM extractions WHERE id = ${extraction}) AS extractions,
        (SELECT count(*) FROM documents WHERE extraction_id = ${extraction}) AS documents,
        (SELECT count(*) FROM jobs WHERE extraction_id = ${extraction}) AS jobs`
  ).pipe(Effect.map((rows) => rows.map((r) => [Number(r.extractions), Number(r.documents), Number(r.jobs)])[0]))

/** Runs the SQL-only checks against a database layer. */
export const sqlStorageContract = (name: string, database: DatabaseLayer) => {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "legible-documents-"))

  layer(SqlStorage.layer().pipe(Layer.provideMerge(database)))(`SQL storage: ${name}`, (it) => {
    it.effect("API keys: no column of any table holds the secret, only its SHA-256", () =>
      Effect.gen(function* () {
        const { client, user } = yield* tenant("sql-hash")
        yield* (yield* Ports.ApiKeyStore).insert(
          Fixtures.storedKey({ id: id(1), clientId: client.id, userId: user.id })
        )
        const rows = yield* everyRowAsText
        assert.isTrue(
          rows.some((row) => row.includes(Fixtures.LIVE_KEY_HASH)),
          "the hash is stored"
        )
        assert.isFalse(
          rows.some((row) => row.includes(Fixtures.LIVE_KEY)),
          "the key is not"
        )
        assert.isFalse(
          rows.some((row) => row.includes(Fixtures.LIVE_KEY.slice(8, 30))),
          "nor a long part of it"
        )
        assert.strictEqual(ApiKey.hash(Fixtures.LIVE_KEY), Fixtures.LIVE_KEY_HASH)
      })
    )

    it.effect("a submission writes its row, its document and a due queued job; a failed one writes none", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("sql-submit")
        const store = yield* Ports.ExtractionStore
        yield* store.submit(submissionOf(recordOf(mine, 510, { originName: "Ñandú CRÈME.pdf" }), 4))
        assert.deepStrictEqual(yield* countsOf(id(10)), [1, 1, 1])
        assert.deepStrictEqual(yield* jobOf(id(10)), [{ state: "queued", attempts: 0, max_attempts: 4, due: true }])
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ folded: string; location: string }>`
          SELECT origin_name_folded AS folded, document_location AS location FROM extractions WHERE id = ${id(10)}`
        assert.deepStrictEqual(row, { folded: "nandu creme.pdf", location: "db" })
        assert.isTrue(Exit.isFailure(yield* Effect.exit(store.submit(submissionOf(recordOf(mine, 511), 0)))))
        assert.deepStrictEqual(yield* countsOf(id(11)), [0, 0, 0])
      })
    )

    it.effect("a committed submission notifies the jobs channel with its id", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("sql-notify")
        const queue = yield* (yield* Database.Notifications).listen(SqlExtractionStore.defaultJobsChannel)
        yield* (yield* Ports.ExtractionStore).submit(submissionOf(recordOf(mine, 520)))
        assert.strictEqual(yield* Queue.take(queue), id(20))
      }).pipe(Effect.scoped)
    )
  })

  const filesLayer = SqlStorage.layer({ documents: { directory } }).pipe(Layer.provideMerge(database))
  layer(filesLayer)(`SQL storage with documents in a directory: ${name}`, (it) => {
    afterAll(() => fs.rmSync(directory, { recursive: true, force: true }))

    it.effect("the document is a file named after the extraction id, and nothing else is left", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("sql-files")
        const record = recordOf(mine, 530, { originName: "../../etc/passwd" })
        const submission = submissionOf(record)
        yield* (yield* Ports.ExtractionStore).submit(submission)
        assert.deepStrictEqual(fs.readdirSync(directory), [id(30)])
        assert.deepStrictEqual(new Uint8Array(fs.readFileSync(path.join(directory, id(30)))), submission.document)
        assert.deepStrictEqual(yield* countsOf(id(30)), [1, 0, 1], "no documents row")
        const document = yield* (yield* Ports.DocumentStore).get(scopeOf(mine), id(30))
        assert.deepStrictEqual(document, {
          bytes: submission.document,
          fileName: "../../etc/passwd",
          mimeType: record.mimeType
        })
      })
    )

    it.effect("a failed submission removes its file", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("sql-files-fail")
        const failed = yield* Effect.exit((yield* Ports.ExtractionStore).submit(submissionOf(recordOf(mine, 540), 0)))
        assert.isTrue(Exit.isFailure(failed))
        assert.isFalse(fs.existsSync(path.join(directory, id(40))))
        assert.isFalse(fs.readdirSync(directory).some((file) => file.endsWith(".tmp")))
        assert.deepStrictEqual(yield* countsOf(id(40)), [0, 0, 0])
      })
    )

    it.effect("a document whose file is gone is not found", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("sql-files-gone")
        yield* (yield* Ports.ExtractionStore).submit(submissionOf(recordOf(mine, 550)))
        fs.rmSync(path.join(directory, id(50)))
        assert.isUndefined(yield* (yield* Ports.DocumentStore).get(scopeOf(mine), id(50)))
      })
    )
  })
}
