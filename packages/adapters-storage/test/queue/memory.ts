/**
 * The `JobQueue` harness in memory: jobs and extractions written and read in the state behind `Memory.layer`
 * (`MemoryState`), times relative to Effect's `Clock` (the live one: the contract excludes test services).
 */
import { Timestamp } from "@legible/core"
import { Fixtures, Memory } from "@legible/testkit"
import { Clock, Effect, Layer } from "effect"
import { clientId, extractionId, idsOf, type JobView, jobId, QueueHarness } from "./harness.js"

/** The harness over the `MemoryState` of the layer it is provided with. */
export const harness: Layer.Layer<QueueHarness, never, Memory.MemoryState> = Layer.effect(
  QueueHarness,
  Effect.gen(function* () {
    const state = yield* Memory.MemoryState

    const job = (id: string): Effect.Effect<Memory.Job> =>
      Effect.suspend(() => {
        const found = state.jobs.get(id)
        return found === undefined ? Effect.die(new Error(`no job ${id}`)) : Effect.succeed(found)
      })

    return QueueHarness.of({
      clear: Effect.sync(() => {
        state.jobs.clear()
        state.extractions.clear()
        state.documents.clear()
      }),
      insertJobs: (spec) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const at = Timestamp.fromMillis(now)
          state.clients.set(clientId, { id: clientId, name: "Queue tests" })
          for (let g = 0; g < spec.count; g++) {
            const id = extractionId(spec.batch, g)
            state.extractions.set(
              id,
              Fixtures.extraction({
                id,
                clientId,
                originName: `doc-${g}.pdf`,
                sizeBytes: 1000,
                mode: "ocr_only",
                status: "en cola",
                attempts: 0,
                createdAt: at,
                lastModification: at
              })
            )
            state.jobs.set(jobId(spec.batch, g), {
              id: jobId(spec.batch, g),
              extractionId: id,
              state: "queued",
              attempts: 0,
              maxAttempts: spec.maxAttempts ?? 3,
              runAt: now + (spec.runAtOffsetMs ?? -60_000) + g,
              lockedBy: null,
              token: null,
              leaseUntil: null,
              lastError: null,
              // The state's insertion counter: the tie-breaker of "oldest first".
              seq: ++state.counter
            })
          }
          return idsOf(spec)
        }),
      readJob: (id) =>
        Effect.flatMap(job(id), (row) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const extraction = state.extractions.get(row.extractionId)
            if (extraction === undefined) return Effect.die(new Error(`no extraction ${row.extractionId}`))
            const view: JobView = {
              state: row.state,
              attempts: row.attempts,
              max_attempts: row.maxAttempts,
              locked_by: row.lockedBy,
              lease_token: row.token,
              last_error: row.lastError,
              run_in_ms: row.runAt - now,
              lease_in_ms: row.leaseUntil === null ? null : row.leaseUntil - now,
              updated_at: null,
              status: extraction.status,
              ext_attempts: extraction.attempts,
              error_message: extraction.errorMessage,
              result: extraction.result,
              last_modification: extraction.lastModification
            }
            return Effect.succeed(view)
          })
        ),
      lapse: (id) =>
        Effect.flatMap(job(id), (row) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            row.leaseUntil = now - 1
          })
        ),
      makeDue: (id) =>
        Effect.flatMap(job(id), (row) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            row.runAt = now - 1
          })
        ),
      // What a submission does: every fiber in `awaitWork` wakes up.
      notify: Effect.sync(() => {
        const waiters = [...state.waiters]
        state.waiters.clear()
        for (const wake of waiters) wake()
      })
    })
  })
)

/** The in-memory `JobQueue` (all of `Memory.layer`, over one fresh state) and its harness. */
export const queue = harness.pipe(Layer.provideMerge(Memory.layer))
