/**
 * One worker thread as the pool sees it: its events (decoded messages, errors, exit) in a queue the pool's slot
 * fiber reads with time limits, its page count and its last reported memory.
 */
import { type ResourceLimits, type Transferable, Worker } from "node:worker_threads"
import { Effect, Option, Queue, Schema } from "effect"
import { PoolError } from "./error.js"
import { FromWorker, type Memory, type Run } from "./protocol.js"

/** Something that happened to a worker thread. */
export type Event =
  | FromWorker
  /** An uncaught exception ended the thread (`ERR_WORKER_OUT_OF_MEMORY` when it hit `resourceLimits`). */
  | { readonly _tag: "Error"; readonly message: string }
  /** The thread ended (after an `Error`, a `process.exit()` or `terminate()`). */
  | { readonly _tag: "Exit"; readonly code: number }

/** How to start a worker thread. */
export interface SpawnOptions {
  readonly script: URL
  readonly workerData: unknown
  readonly resourceLimits: ResourceLimits
}

/** A live worker thread. The mutable fields are updated by the one slot fiber that owns it. */
export interface Thread {
  readonly threadId: number
  readonly events: Queue.Queue<Event>
  readonly post: (message: Run, transfer?: ReadonlyArray<Transferable>) => void
  /** Ends the thread at once (idempotent); resolves once it has exited. See `stop` for a busy thread. */
  readonly terminate: Effect.Effect<void>
  pages: number
  memory: Memory | undefined
  /** The cancel flag of the task it is running, if any. */
  running: Int32Array | undefined
}

const decode = Schema.decodeUnknownExit(FromWorker)

/** Starts a worker thread; `onExit` runs once when it ends, however it ends. */
export const spawn = (options: SpawnOptions, onExit: (thread: Thread) => void): Effect.Effect<Thread, PoolError> =>
  Effect.gen(function* () {
    const events = yield* Queue.unbounded<Event>()
    const worker = yield* Effect.try({
      try: () =>
        new Worker(options.script, {
          workerData: options.workerData,
          resourceLimits: options.resourceLimits,
          // Flags of the parent (a test runner's loaders, --inspect) do not apply to the worker script.
          execArgv: []
        }),
      catch: (error) =>
        new PoolError({ reason: "WorkerFailed", message: `a worker thread could not be created: ${String(error)}` })
    })
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()))
    const thread: Thread = {
      threadId: worker.threadId,
      events,
      post: (message, transfer) => worker.postMessage(message, transfer),
      terminate: Effect.promise(() => worker.terminate().then(() => exited)),
      pages: 0,
      memory: undefined,
      running: undefined
    }
    worker.on("message", (raw: unknown) => {
      const message = decode(raw)
      Queue.offerUnsafe(
        events,
        message._tag === "Success"
          ? message.value
          : { _tag: "Error", message: `the worker sent a malformed message: ${String(message.cause)}` }
      )
    })
    worker.on("error", (error: Error) => {
      const code = "code" in error && typeof error.code === "string" ? `${error.code}: ` : ""
      Queue.offerUnsafe(events, { _tag: "Error", message: `${code}${error.message}` })
    })
    worker.on("messageerror", (error: Error) => {
      Queue.offerUnsafe(events, { _tag: "Error", message: `a message could not be deserialized: ${error.message}` })
    })
    worker.once("exit", (code: number) => {
      Queue.offerUnsafe(events, { _tag: "Exit", code })
      onExit(thread)
    })
    return thread
  })

/** Whether an event ends the running task. */
export const endsTask = (event: Event): boolean => event._tag !== "Ready" && event._tag !== "Progress"

/**
 * Ends a thread; a busy one is first asked to stop (its task's cancel flag) and given `graceMs` to finish its task,
 * then, if it has not, `busyGraceMs` more (with a warning) before it is terminated busy.
 * `worker.terminate()` must not land while the thread is inside a synchronous native call: onnxruntime-node runs
 * inference synchronously on the worker's JS thread, and a termination pending when that call returns makes the
 * addon throw a C++ exception that aborts the whole process (seen with a 99-megapixel scan: its page ran over the
 * limit, the grace ran out inside a detection call, and the worker process died with SIGABRT). Once the task has
 * ended, the thread is back in its event loop and terminating it is safe; the second grace is for a native call
 * that outlasts the first on a loaded machine, while a task stuck for good (a WASM loop) still ends. Returns
 * whether both ran out (the thread was terminated busy).
 */
export const stop = (thread: Thread, graceMs: number, busyGraceMs = 0): Effect.Effect<boolean> =>
  Effect.gen(function* () {
    const flag = thread.running
    let forced = false
    if (flag !== undefined) {
      Atomics.store(flag, 0, 1)
      const waitEnd: Effect.Effect<void> = Effect.flatMap(Queue.take(thread.events), (event) =>
        endsTask(event) ? Effect.void : waitEnd
      )
      forced = Option.isNone(yield* waitEnd.pipe(Effect.timeoutOption(graceMs)))
      if (forced && busyGraceMs > 0) {
        yield* Effect.logWarning(
          `worker thread ${thread.threadId} did not stop within ${graceMs} ms; waiting up to ${busyGraceMs} ms more ` +
            "for its current (native) call to return before terminating it"
        )
        forced = Option.isNone(yield* waitEnd.pipe(Effect.timeoutOption(busyGraceMs)))
      }
      thread.running = undefined
    }
    yield* thread.terminate
    return forced
  })
