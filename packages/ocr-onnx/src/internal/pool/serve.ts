/**
 * The worker-thread side of the pool: `serve(handler)` answers the pool's `Run` messages one at a time (see
 * `protocol.ts`). A handler reports each finished page with `progress()`, which restarts the pool's page time
 * limit and tells it the worker's memory; a handler that throws makes the pool replace this worker.
 */
import { parentPort, type Transferable } from "node:worker_threads"
import { Schema } from "effect"
import { type FromWorker, type Memory, Run } from "./protocol.js"

/** What a handler can tell the pool while it runs. */
export interface TaskContext {
  /** Reports `pages` more pages done (default 1). */
  readonly progress: (pages?: number) => void
  /** Whether the pool asked this task to stop (time limit, caller gone, closing): stop at the next step. */
  readonly cancelled: () => boolean
}

/** A handler's result, and the buffers to move (not copy) to the main thread. */
export interface Reply {
  readonly output: unknown
  readonly transfer?: ReadonlyArray<Transferable>
}

/** Runs one task in the worker. */
export type Handler = (input: unknown, context: TaskContext) => Promise<Reply>

const memory = (): Memory => {
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage()
  return { rss, heapTotal, heapUsed, external, arrayBuffers }
}

const decodeRun = Schema.decodeUnknownExit(Run)

/** Serves `handler` to the pool that started this worker thread; says `Ready` right away. */
export const serve = (handler: Handler): void => {
  const port = parentPort
  if (port === null) throw new Error("serve() must run in a worker thread started by the pool")
  const post = (message: FromWorker, transfer?: ReadonlyArray<Transferable>) => port.postMessage(message, transfer)
  port.on("message", (raw: unknown) => {
    const run = decodeRun(raw)
    // Only the pool talks to this port; anything else is a bug on the main-thread side, so crash loudly.
    if (run._tag === "Failure") throw new Error(`worker received a message that is not a Run: ${String(run.cause)}`)
    const { id, input, cancel } = run.value
    const flag = new Int32Array(cancel)
    const progress = (pages = 1) => post({ _tag: "Progress", id, pages, memory: memory() })
    const cancelled = () => Atomics.load(flag, 0) !== 0
    handler(input, { progress, cancelled }).then(
      (reply) => post({ _tag: "Done", id, output: reply.output, memory: memory() }, reply.transfer),
      (error: unknown) =>
        post({
          _tag: "Failed",
          id,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
          memory: memory()
        })
    )
  })
  post({ _tag: "Ready" })
}
