/**
 * The queue under real faults (RELIABILITY.md C.11–C.13, C.16): real worker processes on a fresh PostgreSQL
 * database, killed, paused and stopped by signals. Every handler run is recorded in `job_runs`; triggers record
 * every write to `jobs` and every status change of `extractions` in `writes`, so "exactly once" and "changed
 * nothing" are read from the database itself.
 */
import { afterAll, assert, layer } from "@effect/vitest"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { SqlClient } from "effect/sql"
import * as Database from "../../src/Database.js"
import { freshPostgresUrl } from "../support/databases.js"
import { jobId } from "./harness.js"
import {
  awaitExit,
  awaitReady,
  build,
  killAll,
  signal,
  spawnWorker,
  type WorkerProcess,
  type WorkerSettings
} from "./processes.js"
import { insertJobs } from "./support.js"

class QueueDatabase extends Context.Service<QueueDatabase, { readonly url: string }>()("test/QueueDatabase") {}

// One statement per entry: `@effect/sql-pg` speaks only the extended protocol, one statement per query.
const instrumentation = [
  `CREATE TABLE job_runs (
    id bigserial PRIMARY KEY,
    job_id uuid NOT NULL,
    worker_id text NOT NULL,
    attempt integer NOT NULL,
    token uuid NOT NULL,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    finished_at timestamptz
  )`,
  `CREATE TABLE job_plan (job_id uuid PRIMARY KEY, sleep_ms integer NOT NULL)`,
  `CREATE TABLE writes (
    id bigserial PRIMARY KEY,
    tbl text NOT NULL,
    row_id uuid NOT NULL,
    state text NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp()
  )`,
  `CREATE FUNCTION log_job_write() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO writes (tbl, row_id, state) VALUES ('jobs', NEW.id, NEW.state);
    RETURN NEW;
  END $$`,
  `CREATE FUNCTION log_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.status IS DISTINCT FROM OLD.status OR NEW.result IS DISTINCT FROM OLD.result THEN
      INSERT INTO writes (tbl, row_id, state) VALUES ('extractions', NEW.id, NEW.status);
    END IF;
    RETURN NEW;
  END $$`,
  `CREATE TRIGGER jobs_writes AFTER UPDATE ON jobs FOR EACH ROW EXECUTE FUNCTION log_job_write()`,
  `CREATE TRIGGER extractions_writes AFTER UPDATE ON extractions FOR EACH ROW EXECUTE FUNCTION log_status_change()`
]

const database = Layer.unwrap(
  Effect.gen(function* () {
    const url = yield* freshPostgresUrl
    const buildMs = yield* build
    console.log(`queue processes: built dist in ${buildMs} ms`)
    return Layer.merge(
      Database.layer({ engine: "postgres", url, maxConnections: 4 }),
      Layer.succeed(QueueDatabase, { url: Redacted.value(url) })
    )
  })
)

const prepared = Layer.effectDiscard(
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* Effect.forEach(instrumentation, (statement) => sql.unsafe(statement).unprepared, { discard: true })
  })
).pipe(Layer.provideMerge(database))

const reset = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`TRUNCATE job_runs, job_plan, writes`
  yield* sql`DELETE FROM extractions`
})

const count = (query: Effect.Effect<ReadonlyArray<{ readonly n: unknown }>, unknown>) =>
  query.pipe(Effect.map((rows) => Number(rows[0]?.n ?? Number.NaN)))

/** Polls `check` every 50 ms until it holds; dies with `label` after `timeoutMs`. */
const waitUntil = <R>(label: string, check: Effect.Effect<boolean, unknown, R>, timeoutMs: number) =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      if (yield* check) return
      yield* Effect.sleep(50)
    }
    return yield* Effect.die(new Error(`timed out after ${timeoutMs} ms waiting for ${label}`))
  })

const Run = Schema.Struct({
  worker_id: Schema.String,
  attempt: Schema.Number,
  token: Schema.String,
  started_ms: Schema.Number,
  finished: Schema.Boolean
})

const runsOf = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`
      SELECT worker_id, attempt, token::text,
        (extract(epoch FROM started_at) * 1000)::float8 AS started_ms, finished_at IS NOT NULL AS finished
      FROM job_runs WHERE job_id = ${id} ORDER BY id`
    return yield* Schema.decodeUnknownEffect(Schema.Array(Run))(rows)
  })

const JobState = Schema.Struct({
  state: Schema.String,
  attempts: Schema.Number,
  status: Schema.String,
  error_message: Schema.NullOr(Schema.String),
  full_text: Schema.NullOr(Schema.String)
})

const jobState = (id: string) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`
      SELECT j.state, j.attempts, e.status, e.error_message, e.result->>'fullText' AS full_text
      FROM jobs j JOIN extractions e ON e.id = j.extraction_id WHERE j.id = ${id}`
    const [row] = yield* Schema.decodeUnknownEffect(Schema.Array(JobState))(rows)
    if (row === undefined) return yield* Effect.die(new Error(`no job ${id}`))
    return row
  })

const plan = (id: string, sleepMs: number) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`INSERT INTO job_plan (job_id, sleep_ms) VALUES (${id}, ${sleepMs}::integer)`
  })

/** Every extraction of the run that reached `completado` did so exactly once, and none is left unfinished. */
const assertFinishedExactlyOnce = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const unfinished = yield* count(sql`SELECT count(*) AS n FROM extractions WHERE status IN ('en cola', 'procesando')`)
  assert.strictEqual(unfinished, 0, "extractions left en cola/procesando")
  const twice = yield* count(sql`
    SELECT count(*) AS n FROM (
      SELECT row_id FROM writes WHERE tbl = 'extractions' AND state IN ('completado', 'error')
      GROUP BY row_id HAVING count(*) <> 1
    ) t`)
  assert.strictEqual(twice, 0, "extractions finished more than once")
  const final = yield* count(sql`
    SELECT count(DISTINCT row_id) AS n FROM writes WHERE tbl = 'extractions' AND state IN ('completado', 'error')`)
  const all = yield* count(sql`SELECT count(*) AS n FROM extractions`)
  assert.strictEqual(final, all)
  // The stored result is the one written by the run that held the final lease.
  const mismatched = yield* count(sql`
    SELECT count(*) AS n FROM extractions e
    WHERE e.status = 'completado' AND NOT EXISTS (
      SELECT 1 FROM job_runs r JOIN jobs j ON j.id = r.job_id
      WHERE j.extraction_id = e.id AND e.result->>'fullText' = r.worker_id || ' ' || r.token::text
        AND r.attempt = j.attempts)`)
  assert.strictEqual(mismatched, 0, "results not written by the final attempt")
})

afterAll(() => killAll())

/** Each test ends with no worker process left, whatever happened: a leftover would claim the next test's jobs. */
const stopAll = Effect.promise(killAll)

const settings = (url: string, overrides: Partial<WorkerSettings> = {}): WorkerSettings => ({
  url,
  leaseMs: 1_000,
  concurrency: 4,
  pollMs: 200,
  ...overrides
})

layer(prepared, { timeout: 180_000, excludeTestServices: true })("queue with worker processes on PostgreSQL", (it) => {
  it.effect(
    "1,000 jobs on 4 worker processes: each processed exactly once, never by two workers",
    () =>
      Effect.gen(function* () {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const { url } = yield* QueueDatabase
        yield* insertJobs({ batch: 1, count: 500 })
        const workers = ["p1", "p2", "p3", "p4"].map((id) => spawnWorker(id, settings(url)))
        yield* Effect.forEach(workers, (worker) => awaitReady(worker))
        const started = Date.now()
        // The second half arrives while they work, each batch notified like a submission.
        for (let batch = 0; batch < 10; batch++) {
          yield* insertJobs({ batch: 2 + batch, count: 50 })
          yield* sql`SELECT pg_notify('legible_jobs', '')`
        }
        yield* waitUntil(
          "1,000 jobs done",
          count(sql`SELECT count(*) AS n FROM jobs WHERE state = 'done'`).pipe(Effect.map((n) => n === 1_000)),
          90_000
        )
        const elapsed = Date.now() - started
        console.log(`queue processes: 1,000 jobs on 4 processes in ${elapsed} ms (${Math.round(1e6 / elapsed)} jobs/s)`)

        assert.strictEqual(yield* count(sql`SELECT count(*) AS n FROM job_runs`), 1_000)
        assert.strictEqual(yield* count(sql`SELECT count(DISTINCT job_id) AS n FROM job_runs`), 1_000)
        assert.strictEqual(yield* count(sql`SELECT count(*) AS n FROM jobs WHERE attempts <> 1`), 0)
        const overlapping = yield* count(sql`
          SELECT count(*) AS n FROM job_runs a JOIN job_runs b ON a.job_id = b.job_id AND a.id < b.id
          WHERE b.started_at < coalesce(a.finished_at, 'infinity')`)
        assert.strictEqual(overlapping, 0)
        const perWorker = yield* sql<{ worker_id: string; n: string }>`
          SELECT worker_id, count(*)::text AS n FROM job_runs GROUP BY worker_id ORDER BY worker_id`
        console.log(`queue processes: jobs per worker ${perWorker.map((r) => `${r.worker_id}=${r.n}`).join(" ")}`)
        assert.strictEqual(perWorker.length, 4, "every worker process took part")
        yield* assertFinishedExactlyOnce

        yield* Effect.forEach(workers, (worker) => signal(worker, "SIGTERM"))
        const exits = yield* Effect.forEach(workers, (worker) => awaitExit(worker, 10_000))
        assert.deepStrictEqual(
          exits.map((exit) => exit.code),
          [0, 0, 0, 0]
        )
      }).pipe(Effect.ensuring(stopAll)),
    150_000
  )

  it.effect(
    "kill -9 mid-job, 8 rounds: every job ends exactly once after its lease, attempts +1 per crash",
    () =>
      Effect.gen(function* () {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const { url } = yield* QueueDatabase
        const workerSettings = settings(url, { concurrency: 2, sleepMs: 300 })
        let spawnedCount = 0
        const spawnOne = () => spawnWorker(`k${++spawnedCount}`, workerSettings)
        const pool = new Map<string, WorkerProcess>()
        for (const worker of [spawnOne(), spawnOne()]) pool.set(worker.id, worker)
        yield* Effect.forEach([...pool.values()], (worker) => awaitReady(worker))
        // Ordinary jobs beside the crashing ones: they must all complete too.
        yield* insertJobs({ batch: 50, count: 100 })

        // Kills per round; the last round's job has 2 attempts and is killed on both: it must end in `error`.
        const rounds = [1, 2, 1, 1, 2, 1, 1, 2]
        let kills = 0
        for (const [round, crashes] of rounds.entries()) {
          const last = round === rounds.length - 1
          const [ids] = yield* insertJobs({ batch: 60 + round, count: 1, maxAttempts: last ? 2 : 5 })
          const id = ids?.jobId ?? ""
          yield* plan(id, 1_500)
          yield* sql`SELECT pg_notify('legible_jobs', '')`
          for (let crash = 1; crash <= crashes; crash++) {
            yield* waitUntil(
              `round ${round}: attempt ${crash} running`,
              runsOf(id).pipe(Effect.map((runs) => runs.some((run) => run.attempt === crash))),
              15_000
            )
            const runs = yield* runsOf(id)
            const holder = runs.find((run) => run.attempt === crash)?.worker_id ?? ""
            const victim = pool.get(holder)
            if (victim === undefined) return yield* Effect.die(new Error(`no live worker ${holder}`))
            yield* signal(victim, "SIGKILL")
            yield* awaitExit(victim, 5_000)
            pool.delete(holder)
            kills++
            const replacement = spawnOne()
            pool.set(replacement.id, replacement)
          }
          yield* waitUntil(
            `round ${round}: job finished`,
            jobState(id).pipe(Effect.map((job) => job.state === "done" || job.state === "failed")),
            20_000
          )
          const job = yield* jobState(id)
          const runs = yield* runsOf(id)
          if (last) {
            assert.strictEqual(job.state, "failed")
            assert.strictEqual(job.status, "error")
            assert.strictEqual(job.attempts, 2)
            assert.match(job.error_message ?? "", /interrupted 2 times/)
          } else {
            assert.strictEqual(job.state, "done")
            assert.strictEqual(job.status, "completado")
            assert.strictEqual(job.attempts, crashes + 1)
            assert.deepStrictEqual(
              runs.map((run) => run.attempt),
              Array.from({ length: crashes + 1 }, (_, i) => i + 1)
            )
            // Written by the surviving attempt, not by a killed one.
            assert.strictEqual(job.full_text, `${runs.at(-1)?.worker_id} ${runs.at(-1)?.token}`)
          }
          // A crashed attempt's successor starts only once the crashed lease lapsed (1 s after its last heartbeat).
          for (let i = 1; i < runs.length; i++) {
            const gap = (runs[i]?.started_ms ?? 0) - (runs[i - 1]?.started_ms ?? 0)
            assert.isTrue(gap >= 900, `round ${round}: attempt ${i + 1} started ${gap} ms after attempt ${i}`)
          }
        }
        yield* waitUntil(
          "the ordinary jobs done",
          count(sql`SELECT count(*) AS n FROM jobs WHERE state NOT IN ('done', 'failed')`).pipe(
            Effect.map((n) => n === 0)
          ),
          30_000
        )
        console.log(`queue processes: ${rounds.length} kill rounds, ${kills} kill -9`)
        yield* assertFinishedExactlyOnce
        const survivors = [...pool.values()]
        // A replacement spawned late may still be starting: signalled before it installs its SIGTERM handler, it
        // would die of the signal (exit code null) rather than drain. Wait until each says ready.
        yield* Effect.forEach(survivors, (worker) => awaitReady(worker))
        yield* Effect.forEach(survivors, (worker) => signal(worker, "SIGTERM"))
        const exits = yield* Effect.forEach(survivors, (worker) => awaitExit(worker, 10_000))
        exits.forEach((exit, i) => {
          assert.strictEqual(exit.code, 0, `${survivors[i]?.id} exited ${exit.code}: ${survivors[i]?.output()}`)
        })
        // An ordinary job counts one attempt per claim: at least one per recorded run (a kill between the claim and
        // the run's first write counts an attempt without a run).
        assert.strictEqual(
          yield* count(sql`
            SELECT count(*) AS n FROM jobs j
            WHERE j.attempts < (SELECT count(*) FROM job_runs r WHERE r.job_id = j.id)`),
          0
        )
        assert.strictEqual(
          yield* count(
            sql`SELECT count(*) AS n FROM jobs WHERE id::text LIKE ${`${jobId(50, 0).slice(0, 24)}%`} AND state = 'done'`
          ),
          100
        )
      }).pipe(Effect.ensuring(stopAll)),
    150_000
  )

  it.effect(
    "a paused stale worker (SIGSTOP past its lease) changes 0 rows when it wakes",
    () =>
      Effect.gen(function* () {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const { url } = yield* QueueDatabase
        const stale = spawnWorker("stale", settings(url, { concurrency: 1 }))
        yield* awaitReady(stale)
        const [ids] = yield* insertJobs({ batch: 80, count: 1 })
        const id = ids?.jobId ?? ""
        yield* plan(id, 1_200)
        yield* sql`SELECT pg_notify('legible_jobs', '')`
        yield* waitUntil("the stale worker running the job", runsOf(id).pipe(Effect.map((r) => r.length === 1)), 15_000)
        yield* signal(stale, "SIGSTOP")
        yield* Effect.sleep(1_300)
        const fresh = spawnWorker("fresh", settings(url, { concurrency: 1 }))
        yield* waitUntil(
          "the fresh worker finishing the job",
          jobState(id).pipe(Effect.map((job) => job.state === "done")),
          20_000
        )
        const before = yield* jobState(id)
        const writesBefore = yield* count(sql`SELECT count(*) AS n FROM writes`)
        yield* signal(stale, "SIGCONT")
        yield* waitUntil(
          "the stale worker noticing it lost the lease",
          Effect.sync(() => stale.output().includes("lease lost")),
          10_000
        ).pipe(Effect.tapCause(() => Effect.sync(() => console.log(`stale output: ${stale.output()}`))))
        // Give it time to try everything it would write (result, heartbeat).
        yield* Effect.sleep(1_500)
        assert.strictEqual(
          yield* count(sql`SELECT count(*) AS n FROM writes`),
          writesBefore,
          "rows written after waking"
        )
        const after = yield* jobState(id)
        assert.deepStrictEqual(after, before)
        assert.strictEqual(after.attempts, 2)
        assert.match(after.full_text ?? "", /^fresh /)
        yield* Effect.forEach([stale, fresh], (worker) => signal(worker, "SIGTERM"))
        const exits = yield* Effect.forEach([stale, fresh], (worker) => awaitExit(worker, 10_000))
        assert.deepStrictEqual(
          exits.map((exit) => exit.code),
          [0, 0]
        )
      }).pipe(Effect.ensuring(stopAll)),
    60_000
  )

  it.effect(
    "SIGTERM: no new claims, in-flight jobs finish, exit 0 within the grace period",
    () =>
      Effect.gen(function* () {
        yield* reset
        const { url } = yield* QueueDatabase
        const worker = spawnWorker("term", settings(url, { concurrency: 2, sleepMs: 800, graceMs: 5_000 }))
        yield* awaitReady(worker)
        const ids = yield* insertJobs({ batch: 90, count: 6 })
        const sql = yield* SqlClient.SqlClient
        yield* sql`SELECT pg_notify('legible_jobs', '')`
        yield* waitUntil(
          "two jobs running",
          count(sql`SELECT count(*) AS n FROM job_runs`).pipe(Effect.map((n) => n === 2)),
          15_000
        )
        const signalled = Date.now()
        yield* signal(worker, "SIGTERM")
        const exit = yield* awaitExit(worker, 10_000)
        const took = Date.now() - signalled
        console.log(`queue processes: SIGTERM with 2 jobs in flight → exit ${exit.code} after ${took} ms`)
        assert.strictEqual(exit.code, 0)
        assert.isTrue(took < 5_000 + 1_000, `exit took ${took} ms`)
        const states = yield* Effect.forEach(ids, (id) => jobState(id.jobId))
        assert.strictEqual(states.filter((s) => s.status === "completado" && s.attempts === 1).length, 2)
        assert.strictEqual(states.filter((s) => s.status === "en cola" && s.attempts === 0).length, 4)
        assert.strictEqual(yield* count(sql`SELECT count(*) AS n FROM job_runs`), 2)
        assert.strictEqual(yield* count(sql`SELECT count(*) AS n FROM job_runs WHERE finished_at IS NULL`), 0)
      }).pipe(Effect.ensuring(stopAll)),
    60_000
  )

  it.effect(
    "SIGTERM past the grace period: in-flight jobs are released (attempt not counted), exit 0",
    () =>
      Effect.gen(function* () {
        yield* reset
        const { url } = yield* QueueDatabase
        const worker = spawnWorker("term-short", settings(url, { concurrency: 2, sleepMs: 30_000, graceMs: 300 }))
        yield* awaitReady(worker)
        const ids = yield* insertJobs({ batch: 91, count: 2 })
        const sql = yield* SqlClient.SqlClient
        yield* sql`SELECT pg_notify('legible_jobs', '')`
        yield* waitUntil(
          "two jobs running",
          count(sql`SELECT count(*) AS n FROM job_runs`).pipe(Effect.map((n) => n === 2)),
          15_000
        )
        const signalled = Date.now()
        yield* signal(worker, "SIGTERM")
        const exit = yield* awaitExit(worker, 10_000)
        const took = Date.now() - signalled
        console.log(`queue processes: SIGTERM past a 300 ms grace → exit ${exit.code} after ${took} ms`)
        assert.strictEqual(exit.code, 0)
        assert.isTrue(took < 3_000, `exit took ${took} ms`)
        for (const id of ids) {
          const job = yield* jobState(id.jobId)
          assert.strictEqual(job.state, "queued")
          assert.strictEqual(job.status, "en cola")
          assert.strictEqual(job.attempts, 0)
        }
      }).pipe(Effect.ensuring(stopAll)),
    60_000
  )
})
