/**
 * The contract suite over a real socket against the BUILT server on PostgreSQL, in a fresh database
 * `legible_test_<random>` created and dropped here: `serve --role api` and, after a first submission is read while
 * queued, `serve --role worker` (documents in the database).
 */
import { afterAll, beforeAll, describe } from "vitest"
import { databaseFailures } from "./contract/failures.js"
import { keys } from "./contract/keys.js"
import { list } from "./contract/list.js"
import { patch } from "./contract/patch.js"
import { reads } from "./contract/reads.js"
import { makeWorld, type World } from "./contract/setup.js"
import { submit } from "./contract/submit.js"
import { createDatabase, type TestDatabase } from "./support/postgres.js"
import { tempDir } from "./support/process.js"

describe("socket contract on PostgreSQL (api and worker processes)", () => {
  const data = tempDir("legible-socket-pg-")
  let database: TestDatabase | undefined
  let current: World | undefined
  const world = (): World => {
    if (current === undefined) throw new Error("the server did not start")
    return current
  }
  beforeAll(async () => {
    database = await createDatabase()
    current = await makeWorld({
      engine: "postgres",
      split: true,
      env: { LEGIBLE_DATABASE_URL: database.url, LEGIBLE_DATA_DIR: data.path, LEGIBLE_DATABASE_MAX_CONNECTIONS: "4" }
    })
  })
  afterAll(async () => {
    await current?.stop()
    await database?.drop()
    data.dispose()
  })
  describe("keys", () => keys(world))
  describe("reads", () => reads(world))
  describe("submit", () => submit(world))
  describe("list", () => list(world))
  describe("status", () => patch(world))
  describe("database failures", () =>
    databaseFailures(world, () => {
      if (database === undefined) throw new Error("no database")
      return database.url
    }))
})
