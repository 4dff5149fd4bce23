/**
 * The API's hot reads on PGlite, in process: `ExtractionStore.readAs` (by id, plain) and `listAs` (20 of 21) through
 * the real stores, on three in-memory databases opened side by side — every statement through PGlite's `query`
 * (six protocol exchanges, parsed and planned each time), kept prepared statements (one exchange), and kept
 * statements plus the read cache (`readCache.ts`) — measured in alternating rounds so that the machine's load
 * touches all three alike. Prints the process's CPU µs per call (median of the rounds) and the read cache's hits.
 * Run: `npm run bench -w @legible/adapters-storage -- bench/reads.run.ts` (BENCH_CALLS per round, BENCH_ROUNDS).
 */
import * as Os from "node:os"
import { it } from "@effect/vitest"
import { Ports, StoredResult } from "@legible/core"
import { Fixtures, TestIds } from "@legible/testkit"
import { Context, Effect, Layer } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as SqlClient from "effect/sql/SqlClient"
import * as Database from "../src/Database.js"
import * as PgliteClient from "../src/internal/pgliteClient.js"
import * as ReadCache from "../src/internal/readCache.js"
import * as SqlStorage from "../src/SqlStorage.js"

const CALLS = Number(process.env.BENCH_CALLS ?? 2_000)
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const HASH = "bench-reads-key"

const log = (line: string) => process.stdout.write(`${line}\n`)

const variants = [
  ["PGlite query (before)", { statements: 0, readCache: false }],
  ["kept statements", { readCache: false }],
  ["kept statements + read cache", {}]
] as const

const filter = {
  limit: 20,
  offset: 0,
  sortBy: "fecha_creacion",
  sortOrder: "desc",
  includeArchived: false
} as const

/** A migrated in-memory PGlite with every store, one live key and 21 completed extractions of its client. */
const open = (config: PgliteClient.PgliteClientConfig) =>
  Effect.gen(function* () {
    const client = yield* PgliteClient.make(config)
    const base = Context.make(SqlClient.SqlClient, client).pipe(Context.add(ReadCache.ReadCache, client.reads))
    yield* Effect.provideContext(Database.migrate, base)
    const stores = yield* Effect.provideContext(Layer.build(SqlStorage.layer()), base)
    const context = Context.merge(base, stores)
    const seed = Effect.gen(function* () {
      const directory = yield* Ports.Directory
      yield* directory.upsertClient(Fixtures.client)
      yield* directory.upsertUser(Fixtures.user())
      yield* (yield* Ports.ApiKeyStore).insert(Fixtures.storedKey({ hash: HASH }))
      const store = yield* Ports.ExtractionStore
      for (let n = 0; n < 21; n++) {
        const record = Fixtures.completedExtraction({ id: TestIds.uuid(5_000_000 + n), errorMessage: null })
        yield* store.submit({ record, document: new TextEncoder().encode(`%PDF ${n}`), maxAttempts: 3 })
      }
    })
    yield* Effect.provideContext(seed, context)
    return { client, context }
  })

const cpuPerCall = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const before = process.cpuUsage()
    for (let i = 0; i < CALLS; i++) yield* effect
    const used = process.cpuUsage(before)
    return (used.user + used.system) / CALLS
  })

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0

it.live(
  "PGlite reads: before, kept statements, read cache",
  () =>
    Effect.gen(function* () {
      log(
        `PGlite reads in process: ${CALLS} calls × ${ROUNDS} rounds; load average ${Os.loadavg()
          .map((n) => n.toFixed(2))
          .join(" ")}`
      )
      const opened = yield* Effect.forEach(variants, ([, config]) => open(config))
      const id = TestIds.uuid(5_000_000)
      const byId = variants.map(() => [] as Array<number>)
      const listed = variants.map(() => [] as Array<number>)
      for (let round = 0; round < ROUNDS; round++) {
        for (const [v, { context }] of opened.entries()) {
          const read = Effect.provideContext(
            Effect.flatMap(Effect.service(Ports.ExtractionStore), (store) => store.readAs(HASH, id, "plain")),
            context
          )
          const list = Effect.provideContext(
            Effect.flatMap(Effect.service(Ports.ExtractionStore), (store) => store.listAs(HASH, filter)),
            context
          )
          const found = yield* read
          if (found?.found?.record.id !== id) return yield* Effect.die(new Error("the read found nothing"))
          const page = (yield* list)?.found
          const shown =
            page === undefined ? [] : JSON.parse(StoredResult.bodyText(StoredResult.renderList(page))).extractions
          if (shown.length !== 20) return yield* Effect.die(new Error("the list is short"))
          byId[v]?.push(yield* cpuPerCall(read))
          listed[v]?.push(yield* cpuPerCall(list))
        }
      }
      log("variant                            readAs µs/call  listAs µs/call  read cache hits/misses")
      for (const [v, [name]] of variants.entries()) {
        const stats = opened[v]?.client.reads.stats()
        log(
          `${name.padEnd(34)} ${median(byId[v] ?? [])
            .toFixed(0)
            .padStart(14)} ${median(listed[v] ?? [])
            .toFixed(0)
            .padStart(15)}  ${stats?.hits ?? 0}/${stats?.misses ?? 0}`
        )
      }
      log(
        `load average after: ${Os.loadavg()
          .map((n) => n.toFixed(2))
          .join(" ")}`
      )
    }).pipe(Effect.scoped, Effect.provide(Reactivity.layer)),
  600_000
)
