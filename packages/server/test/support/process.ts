/**
 * The BUILT server as child processes: `node packages/server/dist/bin.js …` on a free loopback port, with the
 * environment a test gives (nothing inherited but PATH/HOME), its output captured, ready once `/healthz` answers.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import { inject } from "vitest"

/** The repository root. */
export const ROOT = fileURLToPath(new URL("../../../../", import.meta.url))
/** The built CLI. */
export const BIN = Path.join(ROOT, "packages/server/dist/bin.js")
/** The Node that runs the tests (the pinned Node 22 of `node_modules/.bin`). */
export const NODE = process.execPath
/** A 48-byte HS256 secret the tests mint tokens with. */
export const SECRET = "server-test-secret-of-forty-eight-bytes-0123456"

/** Fails the suite early with a clear message when the server was not built. */
export const requireBuild = (): void => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`npx tsc -b tsconfig.build.json\` (or \`npm test\`)`)
}

/** A free TCP port on 127.0.0.1. */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/** A temporary directory, removed by `dispose`. */
export const tempDir = (prefix: string): { readonly path: string; readonly dispose: () => void } => {
  const path = mkdtempSync(Path.join(tmpdir(), prefix))
  return { path, dispose: () => rmSync(path, { recursive: true, force: true }) }
}

/**
 * `path` as a data directory holding a copy of the run's migrated one (`dataDirTemplate.ts`), for a test that serves
 * from the embedded database but does not test its creation; left as it is where no template was made (the
 * reliability suite). Returns `path`.
 */
export const seedDataDir = (path: string): string => {
  const template = inject("migratedDataDir")
  if (template !== undefined) cpSync(template, path, { recursive: true })
  return path
}

/** A running CLI process. */
export interface Running {
  readonly child: ChildProcess
  readonly pid: number
  /** Everything written to stdout so far. */
  readonly stdout: () => string
  /** Everything written to stderr so far (the JSON logs). */
  readonly stderr: () => string
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  readonly exited: Promise<number | string>
  /** Sends `signal` (default SIGTERM) and waits for the end, at most `timeoutMs` (then SIGKILL). */
  readonly stop: (signal?: NodeJS.Signals, timeoutMs?: number) => Promise<number | string>
}

/** The environment of a child: the test's variables over a minimal base (no inherited LEGIBLE_*). */
export const childEnv = (env: Record<string, string>): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: process.env.HOME ?? "/tmp",
  ...env
})

/** Starts `bin.js args` with `env`. */
export const launch = (args: ReadonlyArray<string>, env: Record<string, string>, cwd = ROOT): Running => {
  requireBuild()
  const child = spawn(NODE, [BIN, ...args], { cwd, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  let err = ""
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk
  })
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk
  })
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown"))
  )
  const stop = async (signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    const code = await exited
    clearTimeout(timer)
    return code
  }
  return { child, pid: child.pid ?? -1, stdout: () => out, stderr: () => err, exited, stop }
}

/** Runs `bin.js args` to completion. */
export const runCli = async (
  args: ReadonlyArray<string>,
  env: Record<string, string>
): Promise<{ readonly code: number | string; readonly stdout: string; readonly stderr: string }> => {
  const running = launch(args, env)
  const code = await running.exited
  return { code, stdout: running.stdout(), stderr: running.stderr() }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `check` holds, polling every `everyMs`; fails after `timeoutMs` with `what`. */
export const waitFor = async <A>(
  what: string,
  check: () => Promise<A | undefined>,
  timeoutMs = 60_000,
  everyMs = 100
): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    await sleep(everyMs)
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
}

/** Rejects when the process ends (a start that failed). */
const exitedEarly = (running: Running): Promise<never> =>
  running.exited.then((code) => Promise.reject(new Error(`exited with ${code}`)))

/** A served process and its base URL. */
export interface Server extends Running {
  readonly url: string
}

/** Starts `serve --role role` (or other args) on a free port and waits for `/healthz`. */
export const startServer = async (options: {
  readonly env: Record<string, string>
  readonly args?: ReadonlyArray<string>
  readonly timeoutMs?: number
}): Promise<Server> => {
  const port = await freePort()
  const running = launch(options.args ?? ["serve"], { LEGIBLE_PORT: String(port), ...options.env })
  const url = `http://127.0.0.1:${port}`
  try {
    await Promise.race([
      waitFor(
        "the server's /healthz",
        async () => ((await fetch(`${url}/healthz`)).ok ? true : undefined),
        options.timeoutMs ?? 60_000
      ),
      exitedEarly(running)
    ])
  } catch (error) {
    await running.stop("SIGKILL")
    throw new Error(`the server did not start (${String(error)}):\n${running.stderr()}\n${running.stdout()}`)
  }
  return { ...running, url }
}

/** Starts a process that serves no HTTP (`serve --role worker`) and waits until it logs "worker started". */
export const startWorker = async (env: Record<string, string>, timeoutMs = 60_000): Promise<Running> => {
  const running = launch(["serve", "--role", "worker"], env)
  try {
    await Promise.race([
      waitFor(
        "the worker to start",
        async () => (running.stderr().includes("worker started") ? true : undefined),
        timeoutMs
      ),
      exitedEarly(running)
    ])
  } catch (error) {
    await running.stop("SIGKILL")
    throw new Error(`the worker did not start (${String(error)}):\n${running.stderr()}`)
  }
  return running
}

/**
 * Starts `count` workers (`serve --role worker`) at once, so that their start-ups overlap; returns them in order.
 * If one does not start, the others are stopped and the first failure is thrown.
 */
export const startWorkers = async (
  env: Record<string, string>,
  count: number,
  timeoutMs?: number
): Promise<Array<Running>> => {
  const results = await Promise.allSettled(Array.from({ length: count }, () => startWorker(env, timeoutMs)))
  const started = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
  const failed = results.find((result) => result.status === "rejected")
  if (failed !== undefined) {
    await Promise.all(started.map((worker) => worker.stop("SIGKILL")))
    throw failed.reason
  }
  return started
}
