/**
 * The list benchmark: 1,000,000 extractions over 50 clients on PostgreSQL (a fresh database, dropped at the end),
 * then p50/p95 of each list shape through the real `ExtractionStore.list`, next to a `SELECT 1` baseline.
 * Run: `npm run bench -w @legible/adapters-storage` (BENCH_ROWS overrides the row count; BENCH_DATABASE_URL
 * points at a database to seed once and reuse while tuning, which is then left in place).
 */
import { it } from "@effect/vitest"
import { type ListQuery, Ports } from "@legible/core"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../src/Database.js"
import * as SqlExtractionStore from "../src/internal/extractionStore.js"
import { freshPostgresUrl } from "../test/support/databases.js"
import { CLIENTS, seed } from "./seed.js"

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000)
const WARMUP = 20
const ITERATIONS = 300
const TARGET_P95_MS = 20

const log = (line: string) => process.stdout.write(`${line}\n`)

const filter = (overrides: Partial<ListQuery.ExtractionFilter> = {}): ListQuery.ExtractionFilter => ({
  limit: 50,
  offset: 0,
  sortBy: "fecha_creacion",
  sortOrder: "desc",
  includeArchived: false,
  ...overrides
})

/** A skill id of client `c` as the seed made it (md5 of `skill-<client>-<k>`). */
const skillIdOf = (sql: SqlClient.SqlClient, client: string) =>
  Effect.map(
    sql<{ id: string }>`SELECT md5('skill-' || ${client} || '-' || '2')::uuid AS id`,
    (rows) => rows[0]?.id ?? ""
  )

const shapes: ReadonlyArray<readonly [string, (skillId: string) => ListQuery.ExtractionFilter]> = [
  ["default (newest 50)", () => filter()],
  ["status = error", () => filter({ statuses: ["error"] })],
  ["status in (en cola, procesando)", () => filter({ statuses: ["en cola", "procesando"] })],
  ["skill id", (skillId) => filter({ skillId })],
  ["skill slug", () => filter({ skillSlug: "skill-3" })],
  ["date range (one month)", () => filter({ startDate: "2025-03-01", endDate: "2025-03-31" })],
  ["search common word (nomina)", () => filter({ search: "nomina" })],
  ["search rare (factura 00042)", () => filter({ search: "factura 00042" })],
  ["sort fecha_creacion asc", () => filter({ sortOrder: "asc" })],
  ["sort fecha_creacion desc", () => filter({ sortOrder: "desc" })],
  ["sort status asc", () => filter({ sortBy: "status", sortOrder: "asc" })],
  ["sort status desc", () => filter({ sortBy: "status", sortOrder: "desc" })],
  ["sort origin_name asc", () => filter({ sortBy: "origin_name", sortOrder: "asc" })],
  ["sort origin_name desc", () => filter({ sortBy: "origin_name", sortOrder: "desc" })],
  ["limit 500", () => filter({ limit: 500 })],
  ["include archived", () => filter({ includeArchived: true })],
  ["sandbox scope", () => filter()]
]

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN

/** Times `run` (warm-up first), each call on the next client in turn; returns p50 and p95 in ms. */
const measure = <A, E, R>(run: (client: number) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    for (let i = 0; i < WARMUP; i++) yield* run(i % CLIENTS)
    const times: Array<number> = []
    for (let i = 0; i < ITERATIONS; i++) {
      const started = performance.now()
      yield* run(i % CLIENTS)
      times.push(performance.now() - started)
    }
    times.sort((a, b) => a - b)
    return { p50: percentile(times, 50), p95: percentile(times, 95) }
  })

const clientId = (n: number) => `bench-client-${String(n).padStart(2, "0")}`
const fmt = (ms: number) => ms.toFixed(2).padStart(8)

const bench = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const store = yield* Ports.ExtractionStore
  const [existing] = yield* sql<{ n: bigint }>`SELECT count(*) AS n FROM extractions`
  if (Number(existing?.n ?? 0) === 0) {
    log(`seeding ${ROWS.toLocaleString("en")} extractions over ${CLIENTS} clients…`)
    const seconds = yield* seed(ROWS, log)
    log(`seeded in ${seconds.toFixed(1)} s`)
  } else {
    log(`reusing ${Number(existing?.n).toLocaleString("en")} seeded extractions`)
    yield* sql.unsafe("ANALYZE extractions")
  }
  const skills = yield* Effect.forEach(
    Array.from({ length: CLIENTS }, (_, c) => clientId(c)),
    (c) => skillIdOf(sql, c)
  )

  const baseline = yield* measure(() => sql`SELECT 1`)
  log("")
  log(`${"shape".padEnd(34)}${"p50 ms".padStart(8)}${"p95 ms".padStart(8)}  p95/baseline  items  count`)
  log(`${"baseline: SELECT 1".padEnd(34)}${fmt(baseline.p50)}${fmt(baseline.p95)}`)
  const failures: Array<string> = []
  // BENCH_ONLY: run only the shapes whose name contains it (while tuning one shape).
  const only = process.env.BENCH_ONLY
  for (const [name, make] of shapes.filter(([name]) => only === undefined || name.includes(only))) {
    const sandbox = name === "sandbox scope"
    const sample = yield* store.list({ clientId: clientId(7), sandbox }, make(skills[7] ?? ""))
    const timing = yield* measure((c) => store.list({ clientId: clientId(c), sandbox }, make(skills[c] ?? "")))
    const ratio = (timing.p95 / baseline.p95).toFixed(1).padStart(8)
    log(
      `${name.padEnd(34)}${fmt(timing.p50)}${fmt(timing.p95)}  ${ratio}×    ${String(sample.items.length).padStart(
        5
      )}  ${sample.count}`
    )
    if (timing.p95 >= TARGET_P95_MS) failures.push(`${name}: p95 ${timing.p95.toFixed(1)} ms`)
  }
  log("")
  log(failures.length === 0 ? `every shape under the p95 target of ${TARGET_P95_MS} ms` : `over target: ${failures}`)
})

it.effect(
  "list benchmark on PostgreSQL",
  () =>
    Effect.gen(function* () {
      // BENCH_DATABASE_URL: an existing database to seed once and reuse while tuning (never dropped).
      const kept = process.env.BENCH_DATABASE_URL
      const url = kept === undefined ? yield* freshPostgresUrl : Redacted.make(kept)
      const stores = SqlExtractionStore.layer().pipe(
        Layer.provideMerge(Database.layer({ engine: "postgres", url, maxConnections: 4 }))
      )
      yield* Effect.provide(bench, stores)
    }).pipe(Effect.scoped),
  { timeout: 3_600_000 }
)
