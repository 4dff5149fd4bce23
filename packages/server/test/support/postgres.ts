/**
 * PostgreSQL for the server tests: a fresh database `legible_test_<random>` on the local server (override the admin
 * URL with `LEGIBLE_TEST_POSTGRES_URL`), created and dropped by the test, and plain queries against it.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Redacted } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"

/** The admin URL (its database is only used to create and drop test databases). */
export const ADMIN_URL = process.env.LEGIBLE_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"

/** Runs statements on `url` over one connection; returns the rows of the last. */
export const query = (
  url: string,
  ...statements: ReadonlyArray<string>
): Promise<ReadonlyArray<Record<string, unknown>>> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1 })
        let rows: ReadonlyArray<Record<string, unknown>> = []
        for (const statement of statements) rows = yield* sql.unsafe<Record<string, unknown>>(statement).unprepared
        return rows
      })
    ).pipe(Effect.provide(Reactivity.layer))
  )

/** A fresh database and its URL; `drop` removes it (closing any connection left). */
export interface TestDatabase {
  readonly name: string
  readonly url: string
  readonly drop: () => Promise<void>
}

/** Creates `legible_test_<random>`. */
export const createDatabase = async (): Promise<TestDatabase> => {
  const name = `legible_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`
  await query(ADMIN_URL, `CREATE DATABASE ${name}`)
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return {
    name,
    url: url.toString(),
    drop: async () => {
      await query(ADMIN_URL, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  }
}
