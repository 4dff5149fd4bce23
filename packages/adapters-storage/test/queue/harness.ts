/**
 * What the `JobQueue` contract needs besides the port: arranging jobs and inspecting them behind the port's back,
 * on any engine (SQL rows in `support.ts`, the in-memory state in `memory.ts`). Ids are fixed: batch `b`, job `i`
 * → `00000000-0000-4000-8bbb-iiiiiiiiiiii` for the extraction and `…-9bbb-…` for its job.
 */
import type { Extraction } from "@legible/core"
import { Context, type Effect } from "effect"

/** The client every queue fixture belongs to. */
export const clientId = "queue-tests"

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0")

/** The three hex digits of a batch in its ids. */
export const batchHex = (batch: number): string => hex(batch, 3)

/** The extraction id of job `index` of batch `batch`. */
export const extractionId = (batch: number, index: number): string =>
  `00000000-0000-4000-8${batchHex(batch)}-${hex(index, 12)}`

/** The job id of job `index` of batch `batch`. */
export const jobId = (batch: number, index: number): string =>
  `00000000-0000-4000-9${batchHex(batch)}-${hex(index, 12)}`

/** What a batch of jobs looks like. */
export interface JobsSpec {
  readonly batch: number
  readonly count: number
  readonly maxAttempts?: number
  /** `run_at` of the first job, relative to the queue's clock; later jobs follow 1 ms apart. */
  readonly runAtOffsetMs?: number
}

/** The ids of one job and its extraction. */
export interface JobIds {
  readonly jobId: string
  readonly extractionId: string
}

/** The `ids` of a batch, in claim order. */
export const idsOf = (spec: JobsSpec): ReadonlyArray<JobIds> =>
  Array.from({ length: spec.count }, (_, i) => ({
    jobId: jobId(spec.batch, i),
    extractionId: extractionId(spec.batch, i)
  }))

/** A job and its extraction as stored, with times relative to the queue's clock (named after the SQL columns). */
export interface JobView {
  readonly state: string
  readonly attempts: number
  readonly max_attempts: number
  readonly locked_by: string | null
  readonly lease_token: string | null
  readonly last_error: string | null
  /** Milliseconds until `run_at` (negative: due since). */
  readonly run_in_ms: number
  /** Milliseconds until `lease_until`; `null` without a lease. */
  readonly lease_in_ms: number | null
  /** When the job row last changed; `null` where the engine keeps no such time (in memory). */
  readonly updated_at: string | null
  /** The extraction's status. */
  readonly status: string
  /** The extraction's attempts. */
  readonly ext_attempts: number
  readonly error_message: string | null
  /** The stored result, as JSON values. */
  readonly result: unknown
  readonly last_modification: string
}

/** Arranges and inspects the queue's jobs on one engine. */
export class QueueHarness extends Context.Service<
  QueueHarness,
  {
    /** Deletes every job and extraction, so each test starts from an empty queue. */
    readonly clear: Effect.Effect<void, unknown>
    /** Inserts `count` queued jobs with their extractions (`en cola`), as `ExtractionStore.submit` leaves them. */
    readonly insertJobs: (spec: JobsSpec) => Effect.Effect<ReadonlyArray<JobIds>, unknown>
    /** Reads a job and its extraction; dies when there is no such job. */
    readonly readJob: (jobId: string) => Effect.Effect<JobView, unknown>
    /** Makes a running job's lease lapse now, as if its worker had stopped for a whole lease. */
    readonly lapse: (jobId: string) => Effect.Effect<void, unknown>
    /** Makes a queued job due now. */
    readonly makeDue: (jobId: string) => Effect.Effect<void, unknown>
    /** Announces work the way a submission does (SQL: a notification on the jobs channel). */
    readonly notify: Effect.Effect<void, unknown>
  }
>()("legible/test/QueueHarness") {}

/** A small, valid result to complete jobs with. */
export const result = (label: string): Extraction.ExtractionResult => ({
  fields: [],
  usage: { tokens_consumidos: 3, prompt_tokens: 1, response_tokens: 2, duration: 0.5, model: "local" },
  words: {},
  fullText: label,
  numPages: 1
})
