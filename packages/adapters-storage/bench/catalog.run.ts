/**
 * The catalog matching benchmark, on PostgreSQL in a fresh database (dropped at the end): 2M supplier records over
 * 92 catalogs of as many clients (`catalog.seed.ts`), then, for the 10k, 100k and 1M catalogs, through the real
 * `CatalogMatcher` over the SQL `CatalogStore`:
 * - exact lookup latency (`exacta` on the name as written, and on the tax id read with confusables; and the indexed
 *   key lookup alone, through the store);
 * - approximate lookup latency and outcome on OCR-corrupted names (`catalog.queries.ts`) at the default threshold:
 *   top-1 accuracy on names present in the catalog, false matches on names absent from it — with the in-process
 *   index (the default from 5,000 records) and, for comparison, with `pg_trgm` in SQL;
 * - a fast-fuzzy `Searcher` over the same names as the side-by-side baseline (10k and 100k);
 * - `SELECT 1` as the round-trip baseline.
 * Before anything is measured, every matcher path runs on a catalog of another client (`filler-0`, 10k records,
 * not measured): a long-running process is warm, and the first measured catalog should not pay for the JIT. Every
 * matcher path of every catalog is measured before the baselines and the index sizes, which leave hundreds of MB of
 * garbage behind (the 100k `Searcher` alone holds ~250 MB): their collections would otherwise land inside later
 * measurements. Percentiles are of every measured call (1,000 per path), none dropped.
 * Run: `npm run bench:catalog -w @legible/adapters-storage` (BENCH_SCALE shrinks every catalog, e.g. 0.05, for a
 * quick run; BENCH_DATABASE_URL reuses a seeded database and leaves it in place).
 */
import * as Os from "node:os"
import { it } from "@effect/vitest"
import { type Catalog, CatalogMatch, CatalogMatching, Ports, type Skill } from "@legible/core"
import { Effect, Layer, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Searcher } from "fast-fuzzy"
import * as Database from "../src/Database.js"
import * as CatalogIndex from "../src/internal/catalogIndex.js"
import { keyRows } from "../src/internal/catalogKeys.js"
import * as SqlCatalogStore from "../src/SqlCatalogStore.js"
import { freshPostgresUrl } from "../test/support/databases.js"
import { corruptIdentifier, corruptName, prng } from "./catalog.queries.js"
import { absentNames, type BenchCatalog, measuredCatalogs, seed } from "./catalog.seed.js"

const SCALE = Number(process.env.BENCH_SCALE ?? 1)
const EXACT_QUERIES = 1_000
const APPROXIMATE_QUERIES = 1_000
const BASELINE_QUERIES = 1_000
const SQL_PATH_QUERIES = 100
const SEARCHER_QUERIES: Readonly<Record<string, number>> = { c10k: 400, c100k: 100 }
const WARMUP = 20
/** Queries per matcher path on the warm-up catalog. */
const PROCESS_WARMUP = 300

const log = (line: string) => process.stdout.write(`${line}\n`)
const ms = (value: number) => value.toFixed(2).padStart(8)
const pct = (part: number, whole: number) =>
  whole === 0 ? "   n/a" : `${((100 * part) / whole).toFixed(1).padStart(5)}%`

const percentile = (times: ReadonlyArray<number>, p: number) => {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN
}

interface Timing {
  readonly p50: number
  readonly p95: number
  /**
   * This process's CPU time per call (user + system, every thread, ms): what a loaded machine inflates least, as
   * the other engineers' processes delay this one's wall-clock time but not its own work.
   */
  readonly cpu: number
}
const timing = (times: ReadonlyArray<number>, cpuMicros = Number.NaN): Timing => ({
  p50: percentile(times, 50),
  p95: percentile(times, 95),
  cpu: cpuMicros / 1000 / times.length
})

/** Runs `run` on each input (after a warm-up on the first ones), timing each call. */
const timed = <I, A, E, R>(inputs: ReadonlyArray<I>, run: (input: I) => Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    for (const input of inputs.slice(0, WARMUP)) yield* run(input)
    const times: Array<number> = []
    const results: Array<A> = []
    const cpu = process.cpuUsage()
    for (const input of inputs) {
      const started = performance.now()
      results.push(yield* run(input))
      times.push(performance.now() - started)
    }
    const used = process.cpuUsage(cpu)
    return { timing: timing(times, used.user + used.system), results }
  })

const field = (catalog: BenchCatalog, config: Partial<Skill.CatalogFieldConfig>): Skill.SkillField => ({
  name: "proveedor",
  order: 1,
  type: "catalog",
  isList: false,
  description: "Proveedor",
  aliases: [],
  catalog: {
    catalogId: catalog.id,
    keyColumns: ["nombre"],
    outputColumns: ["cif"],
    method: "aproximada",
    threshold: CatalogMatch.DEFAULT_THRESHOLD,
    ...config
  }
})

/** Checks the SQL-seeded normalized columns of a sample against `CatalogMatch` (what the service would write). */
const verifySeed = (catalog: BenchCatalog) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      id: string
      values: Record<string, string>
      column_name: string
      norm: string
      legal: string
      ident: string | null
    }>`
      SELECT r.id, r."values", k.column_name, k.norm, k.legal, k.ident FROM catalog_records r
      JOIN catalog_keys k ON k.catalog_id = r.catalog_id AND k.record_id = r.id
      WHERE r.catalog_id = ${catalog.id} ORDER BY md5(r.id::text) LIMIT 4000`
    const wrong = rows.filter((row) => {
      const expected = keyRows([{ id: row.id, values: row.values }]).find((k) => k.col === row.column_name)
      return (
        expected === undefined ||
        expected.key !== row.norm ||
        expected.legal !== row.legal ||
        expected.ident !== row.ident
      )
    })
    if (wrong.length > 0) {
      return yield* Effect.die(new Error(`seeded keys differ from CatalogMatch: ${JSON.stringify(wrong.slice(0, 5))}`))
    }
    return rows.length
  })

interface Outcome {
  readonly top1: number
  readonly wrong: number
  readonly missed: number
  readonly falseMatches: number
}

const outcome = (
  present: ReadonlyArray<string | undefined>,
  targets: ReadonlyArray<string>,
  absent: ReadonlyArray<string | undefined>
): Outcome => ({
  top1: present.filter((id, i) => id !== undefined && id === targets[i]).length,
  wrong: present.filter((id, i) => id !== undefined && id !== targets[i]).length,
  missed: present.filter((id) => id === undefined).length,
  falseMatches: absent.filter((id) => id !== undefined).length
})

const measureCatalog = (catalog: BenchCatalog) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const matcher = yield* CatalogMatching.make
    const sqlStore = yield* SqlCatalogStore.make({ minRecords: Number.POSITIVE_INFINITY })
    const sqlMatcher = yield* Effect.provideService(CatalogMatching.make, Ports.CatalogStore, sqlStore)
    const random = prng(0x5eed + catalog.size)

    const sample = yield* sql<{ id: string; values: Record<string, string> }>`
      SELECT id, "values" FROM catalog_records WHERE catalog_id = ${catalog.id}
      ORDER BY md5(id::text || 'query') LIMIT ${Math.max(EXACT_QUERIES, APPROXIMATE_QUERIES)}`
    const targets = sample.map((r) => r.id)
    const name_ = (r: Catalog.CatalogRecord) => r.values.nombre ?? ""

    const exactName = field(catalog, { method: "exacta", threshold: 1 })
    const exactCif = field(catalog, { method: "exacta", keyColumns: ["cif"], outputColumns: ["nombre"], threshold: 1 })
    const byName = yield* timed(sample.slice(0, EXACT_QUERIES), (r) =>
      matcher.match(catalog.clientId, exactName, { nombre: name_(r) })
    )
    const byCif = yield* timed(sample.slice(0, EXACT_QUERIES), (r) =>
      matcher.match(catalog.clientId, exactCif, { cif: corruptIdentifier(random, r.values.cif ?? "", 0) })
    )
    const exactFound = [...byName.results, ...byCif.results].filter(
      (v, i) => v.matching.catalog_record_id === targets[i % EXACT_QUERIES]
    ).length

    const presentQueries = sample.slice(0, APPROXIMATE_QUERIES).map((r) => corruptName(random, name_(r)))
    const absentQueries = (yield* absentNames(catalog, APPROXIMATE_QUERIES)).map((r) => corruptName(random, r.nombre))
    const approximate = field(catalog, {})

    // The first trigram search of the column builds the in-process index (timed on its own).
    const store = yield* Ports.CatalogStore
    const buildStarted = performance.now()
    yield* store.search(catalog.clientId, catalog.id, {
      _tag: "Similar",
      column: "nombre",
      text: "construcciones garcia",
      minSimilarity: 0.5,
      limit: 1
    })
    const build = (performance.now() - buildStarted) / 1000
    // The lookup alone: one indexed equality on (search space, normalized key), through the store.
    const lookup = yield* timed(sample.slice(0, EXACT_QUERIES), (r) =>
      store.search(catalog.clientId, catalog.id, {
        _tag: "Key",
        column: "nombre",
        key: CatalogMatch.normalize(name_(r)).key,
        limit: CatalogMatch.EXACT_CANDIDATES
      })
    )

    const run = (m: typeof matcher) => (query: string) => m.match(catalog.clientId, approximate, { nombre: query })
    const present = yield* timed(presentQueries, run(matcher))
    const absent = yield* timed(absentQueries, run(matcher))
    const idOf = (v: { readonly matching: { readonly catalog_record_id?: string } }) => v.matching.catalog_record_id
    const result = outcome(present.results.map(idOf), targets, absent.results.map(idOf))
    const viaSql = yield* timed(presentQueries.slice(0, SQL_PATH_QUERIES), run(sqlMatcher))
    const sqlAgrees = viaSql.results.filter((v, i) => idOf(v) === idOf(present.results[i] ?? v)).length

    return {
      byName,
      byCif,
      lookup,
      exactFound,
      build,
      present,
      absent,
      result,
      viaSql,
      sqlAgrees,
      targets,
      presentQueries,
      absentQueries
    }
  })

/**
 * What is measured after every matcher path of every catalog: the index's own size (its arrays were built in a
 * worker thread and transferred, which `process.memoryUsage()` does not count; a second build, kept only for this,
 * reports them) and the fast-fuzzy baseline on the same queries.
 */
const measureAfter = (
  name: string,
  catalog: BenchCatalog,
  m: {
    readonly present: ReadonlyArray<string>
    readonly absent: ReadonlyArray<string>
    readonly targets: ReadonlyArray<string>
  }
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const [meta] = yield* sql<{ version: number }>`
      SELECT records_version::int AS version FROM catalogs WHERE id = ${catalog.id}`
    const sized = yield* CatalogIndex.make(sql, { minRecords: 1, cacheBytes: Number.POSITIVE_INFINITY }).get(
      catalog.id,
      "nombre",
      meta?.version ?? 0,
      catalog.size
    )
    const indexMb = (sized?.bytes ?? Number.NaN) / 1e6
    const searcherQueries = SEARCHER_QUERIES[name]
    const searcher =
      searcherQueries === undefined
        ? undefined
        : yield* baseline(catalog, m.present.slice(0, searcherQueries), m.targets, m.absent.slice(0, searcherQueries))
    return { indexMb, searcher }
  })

type MatcherFigures = Effect.Success<ReturnType<typeof measureCatalog>>

/** The fast-fuzzy `Searcher` over the catalog's names (its default options, our default threshold). */
const baseline = (
  catalog: BenchCatalog,
  present: ReadonlyArray<string>,
  targets: ReadonlyArray<string>,
  absent: ReadonlyArray<string>
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const records = yield* sql<{ id: string; nombre: string }>`
      SELECT id, "values"->>'nombre' AS nombre FROM catalog_records WHERE catalog_id = ${catalog.id}`
    const heap = process.memoryUsage().heapUsed
    const started = performance.now()
    const searcher = new Searcher([...records], {
      keySelector: (r: { id: string; nombre: string }) => r.nombre,
      threshold: CatalogMatch.DEFAULT_THRESHOLD,
      returnMatchData: true
    })
    const build = (performance.now() - started) / 1000
    const heapMb = (process.memoryUsage().heapUsed - heap) / 1e6
    const search = (query: string) => Effect.sync(() => searcher.search(query)[0]?.item.id)
    const p = yield* timed(present, search)
    const a = yield* timed(absent, search)
    return { build, heapMb, present: p.timing, result: outcome(p.results, targets, a.results), n: present.length }
  })

/** Runs every matcher path on the warm-up catalog (its own records, corrupted like the measured queries). */
const warmUp = (catalog: BenchCatalog) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const matcher = yield* CatalogMatching.make
    const random = prng(0x3a3a)
    const sample = yield* sql<{ values: Record<string, string> }>`
      SELECT "values" FROM catalog_records WHERE catalog_id = ${catalog.id}
      ORDER BY md5(id::text || 'warm-up') LIMIT ${PROCESS_WARMUP}`
    const exactName = field(catalog, { method: "exacta", threshold: 1 })
    const exactCif = field(catalog, { method: "exacta", keyColumns: ["cif"], outputColumns: ["nombre"], threshold: 1 })
    const approximate = field(catalog, {})
    for (const { values } of sample) {
      yield* matcher.match(catalog.clientId, exactName, { nombre: values.nombre ?? "" })
      yield* matcher.match(catalog.clientId, exactCif, { cif: corruptIdentifier(random, values.cif ?? "", 0) })
      yield* matcher.match(catalog.clientId, approximate, { nombre: corruptName(random, values.nombre ?? "") })
    }
  })

const bench = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const [existing] = yield* sql<{ seeded: boolean }>`SELECT to_regclass('bench_catalogs') IS NOT NULL AS seeded`
  let catalogs: ReadonlyMap<string, BenchCatalog>
  if (existing?.seeded === true) {
    log("reusing the seeded catalogs")
    catalogs = yield* measuredCatalogs
  } else {
    log(`seeding 2M catalog records (scale ${SCALE})…`)
    const seeded = yield* seed(log, SCALE)
    log(`seeded in ${seeded.seconds.toFixed(1)} s`)
    catalogs = seeded.catalogs
  }
  const loadAtStart = Os.loadavg()
  const warmUpCatalog = catalogs.get("filler-0")
  if (warmUpCatalog !== undefined) yield* warmUp(warmUpCatalog)
  const baselineTiming = (yield* timed(Array.from({ length: BASELINE_QUERIES }), () => sql`SELECT 1`)).timing
  const measured: Array<readonly [string, BenchCatalog, number, MatcherFigures]> = []
  for (const name of ["c10k", "c100k", "c1m"]) {
    const catalog = catalogs.get(name)
    if (catalog === undefined) continue
    const checked = yield* verifySeed(catalog)
    measured.push([name, catalog, checked, yield* measureCatalog(catalog)])
  }
  const loadAfterMatchers = Os.loadavg()
  const rows: Array<string> = []
  for (const [name, catalog, checked, m] of measured) {
    const after = yield* measureAfter(name, catalog, {
      present: m.presentQueries,
      absent: m.absentQueries,
      targets: m.targets
    })
    const ratio = (t: Timing) => `${(t.p95 / baselineTiming.p95).toFixed(1)}× SELECT 1, cpu ${t.cpu.toFixed(2)} ms`
    const n = m.present.results.length
    rows.push(
      `\n${name}: ${catalog.size.toLocaleString("en")} records (${checked} seeded keys checked against CatalogMatch)`,
      `  exacta, name as written      p50 ${ms(m.byName.timing.p50)} ms  p95 ${ms(m.byName.timing.p95)} ms  (${ratio(m.byName.timing)})`,
      `  key lookup alone (store)     p50 ${ms(m.lookup.timing.p50)} ms  p95 ${ms(m.lookup.timing.p95)} ms  (${ratio(m.lookup.timing)})`,
      `  exacta, cif with confusables p50 ${ms(m.byCif.timing.p50)} ms  p95 ${ms(m.byCif.timing.p95)} ms  (${ratio(m.byCif.timing)})  found ${m.exactFound}/${2 * m.byName.results.length}`,
      `  in-process index build ${m.build.toFixed(2)} s, ${after.indexMb.toFixed(0)} MB of typed arrays (built in a worker thread)`,
      `  aproximada, present          p50 ${ms(m.present.timing.p50)} ms  p95 ${ms(m.present.timing.p95)} ms  (${ratio(m.present.timing)})`,
      `  aproximada, absent           p50 ${ms(m.absent.timing.p50)} ms  p95 ${ms(m.absent.timing.p95)} ms  (${ratio(m.absent.timing)})`,
      `  aproximada via pg_trgm (SQL) p50 ${ms(m.viaSql.timing.p50)} ms  p95 ${ms(m.viaSql.timing.p95)} ms  same decision ${m.sqlAgrees}/${m.viaSql.results.length}`,
      `  top-1 ${m.result.top1}/${n} (${pct(m.result.top1, n)})  wrong ${m.result.wrong}  not found ${m.result.missed}  false matches on absent ${m.result.falseMatches}/${m.absent.results.length} (${pct(m.result.falseMatches, m.absent.results.length)})`
    )
    if (after.searcher !== undefined) {
      const s = after.searcher
      rows.push(
        `  baseline fast-fuzzy Searcher: build ${s.build.toFixed(2)} s, +${s.heapMb.toFixed(0)} MB heap, p50 ${ms(s.present.p50)} ms  p95 ${ms(s.present.p95)} ms, top-1 ${s.result.top1}/${s.n} (${pct(s.result.top1, s.n)})  wrong ${s.result.wrong}  false matches ${s.result.falseMatches}/${s.n}`
      )
    }
  }
  const load = (l: ReadonlyArray<number>) => l.map((x) => x.toFixed(2)).join(", ")
  log(
    `\nload average (1, 5, 15 min) at the start ${load(loadAtStart)}, after the matcher paths ${load(loadAfterMatchers)}, at the end ${load(Os.loadavg())} (${Os.cpus().length} CPUs)`
  )
  log(
    `round-trip baseline SELECT 1 (${BASELINE_QUERIES}): p50 ${ms(baselineTiming.p50)} ms  p95 ${ms(baselineTiming.p95)} ms  cpu ${baselineTiming.cpu.toFixed(2)} ms`
  )
  for (const row of rows) log(row)
  log(`\ndefault threshold ${CatalogMatch.DEFAULT_THRESHOLD}, runner-up margin ${CatalogMatch.RUNNER_UP_MARGIN}`)
})

// `it.live`: the benchmark measures wall-clock time, not the test clock.
it.live(
  "catalog matching benchmark on PostgreSQL",
  () =>
    Effect.gen(function* () {
      const kept = process.env.BENCH_DATABASE_URL
      const url = kept === undefined ? yield* freshPostgresUrl : Redacted.make(kept)
      const stores = SqlCatalogStore.layer().pipe(
        Layer.provideMerge(Database.layer({ engine: "postgres", url, maxConnections: 4 }))
      )
      yield* Effect.provide(bench, stores)
    }).pipe(Effect.scoped),
  { timeout: 3_600_000 }
)
