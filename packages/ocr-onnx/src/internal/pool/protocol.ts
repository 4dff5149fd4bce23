/**
 * The messages between the pool (main thread) and a worker thread. The pool sends one `Run` at a time; the worker
 * answers `Ready` once after loading, then for each run any number of `Progress` (one per page) and one `Done` or
 * `Failed`; the pool may ask a run to stop through its `cancel` flag. Every answer carries the worker's
 * `process.memoryUsage()` so the pool can recycle it (see `pool.ts`).
 */
import { Schema } from "effect"

/** `process.memoryUsage()` in bytes, as measured inside the worker. */
export const Memory = Schema.Struct({
  rss: Schema.Finite,
  heapTotal: Schema.Finite,
  heapUsed: Schema.Finite,
  external: Schema.Finite,
  arrayBuffers: Schema.Finite
})
/** `process.memoryUsage()` in bytes, as measured inside the worker. */
export type Memory = typeof Memory.Type

/**
 * Main thread → worker: run one task. `cancel` is shared memory (an Int32 at index 0) that the pool sets to 1 when
 * it wants the task to stop: a task should check it between steps (see `pool.ts` for why the pool cannot simply
 * terminate a busy thread).
 */
export const Run = Schema.TaggedStruct("Run", {
  id: Schema.Int,
  input: Schema.Unknown,
  cancel: Schema.instanceOf(SharedArrayBuffer)
})
/** Main thread → worker: run one task. */
export type Run = typeof Run.Type

/** The worker loaded its modules and waits for tasks. */
export const Ready = Schema.TaggedStruct("Ready", {})
/** A task finished `pages` more pages (restarts the page time limit). */
export const Progress = Schema.TaggedStruct("Progress", { id: Schema.Int, pages: Schema.Int, memory: Memory })
/** A task's result. */
export const Done = Schema.TaggedStruct("Done", { id: Schema.Int, output: Schema.Unknown, memory: Memory })
/** A task threw: the worker's state is suspect, so the pool replaces it. */
export const Failed = Schema.TaggedStruct("Failed", { id: Schema.Int, message: Schema.String, memory: Memory })

/** Worker → main thread. */
export const FromWorker = Schema.Union([Ready, Progress, Done, Failed])
/** Worker → main thread. */
export type FromWorker = typeof FromWorker.Type
