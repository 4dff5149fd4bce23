/**
 * Worker child processes for the queue tests: spawned with the pinned Node 22 on `fixtures/worker.ts`, which
 * imports the built packages. Every process spawned here is tracked so `killAll` can end it whatever happened.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { Effect } from "effect"

const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url))
const node = Path.join(repoRoot, "node_modules/.bin/node")
const script = fileURLToPath(new URL("./fixtures/worker.ts", import.meta.url))

/** Builds the packages the worker script imports (`dist/`); incremental, so cheap when nothing changed. */
export const build = Effect.try({
  try: () => {
    const started = Date.now()
    execFileSync(
      node,
      [Path.join(repoRoot, "node_modules/typescript/bin/tsc"), "-b", "packages/adapters-storage/tsconfig.build.json"],
      { cwd: repoRoot, stdio: "pipe" }
    )
    return Date.now() - started
  },
  // tsc reports on stdout: without it the failure would only say "Command failed".
  catch: (error) =>
    new Error(
      `building dist/ for the worker processes failed:\n${
        typeof error === "object" && error !== null && "stdout" in error ? String(error.stdout) : String(error)
      }`
    )
})

/** How a worker process ended. */
export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** A running worker process. */
export interface WorkerProcess {
  readonly id: string
  readonly child: ChildProcess
  /** Everything it printed so far (stdout and stderr). */
  readonly output: () => string
  readonly exited: Promise<Exit>
  readonly ready: Promise<void>
}

const spawned = new Set<WorkerProcess>()

/** Settings of a worker process (see `fixtures/worker.ts`). */
export interface WorkerSettings {
  readonly url: string
  readonly leaseMs: number
  readonly concurrency: number
  readonly sleepMs?: number
  readonly pollMs?: number
  readonly graceMs?: number
}

/** Spawns a worker process; `ready` resolves once it prints `ready` (it is claiming by then). */
export const spawnWorker = (id: string, settings: WorkerSettings): WorkerProcess => {
  const child = spawn(node, [script], {
    cwd: repoRoot,
    env: {
      ...process.env,
      QUEUE_DB_URL: settings.url,
      WORKER_ID: id,
      LEASE_MS: String(settings.leaseMs),
      CONCURRENCY: String(settings.concurrency),
      SLEEP_MS: String(settings.sleepMs ?? 0),
      POLL_MS: String(settings.pollMs ?? 200),
      GRACE_MS: String(settings.graceMs ?? 5_000)
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const ready = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes("ready\n")) resolve()
    }
    child.stdout?.on("data", onData)
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once("exit", (code, signal) => reject(new Error(`${id} exited before ready (${code ?? signal}): ${output}`)))
  })
  // A worker killed on purpose never becomes ready: that rejection is expected and handled by whoever awaits it.
  ready.catch(() => undefined)
  const exited = new Promise<Exit>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })))
  const worker: WorkerProcess = { id, child, output: () => output, exited, ready }
  spawned.add(worker)
  void exited.then(() => spawned.delete(worker))
  return worker
}

/** Waits until the worker is ready, failing after `timeoutMs`. */
export const awaitReady = (worker: WorkerProcess, timeoutMs = 30_000) =>
  Effect.promise(() => worker.ready).pipe(
    Effect.timeoutOrElse({
      duration: timeoutMs,
      orElse: () => Effect.die(new Error(`${worker.id} not ready within ${timeoutMs} ms: ${worker.output()}`))
    })
  )

/** Waits for the worker to exit, failing after `timeoutMs`. */
export const awaitExit = (worker: WorkerProcess, timeoutMs: number) =>
  Effect.promise(() => worker.exited).pipe(
    Effect.timeoutOrElse({
      duration: timeoutMs,
      orElse: () => Effect.die(new Error(`${worker.id} did not exit within ${timeoutMs} ms: ${worker.output()}`))
    })
  )

/** Sends a signal to one worker process, by its pid. */
export const signal = (worker: WorkerProcess, name: NodeJS.Signals) =>
  Effect.sync(() => {
    worker.child.kill(name)
  })

/** SIGKILLs every worker process still running (resuming stopped ones first), and waits for them to exit. */
export const killAll = async (): Promise<void> => {
  const running = [...spawned]
  for (const worker of running) {
    worker.child.kill("SIGCONT")
    worker.child.kill("SIGKILL")
  }
  await Promise.all(running.map((worker) => worker.exited))
}
