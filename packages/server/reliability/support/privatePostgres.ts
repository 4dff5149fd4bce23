/**
 * A PostgreSQL server of the test's own: a fresh cluster (`initdb`, trust auth) on a free loopback port, which the
 * test may stop, kill or restart at will. The machine's shared server on 5432 serves every other test and must
 * never be restarted; faults are injected here instead. PostgreSQL refuses to run as root: as root, every command
 * runs as the `postgres` user, in a directory it owns; `dispose` stops the server and removes it.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as Path from "node:path"
import { freePort } from "../../test/support/process.js"

/** Where Debian puts the server's programs (override with `LEGIBLE_TEST_PG_BIN`). */
const pgBin = (): string => {
  const configured = process.env.LEGIBLE_TEST_PG_BIN
  if (configured !== undefined && configured !== "") return configured
  const root = "/usr/lib/postgresql"
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions[0] === undefined) throw new Error(`no PostgreSQL server under ${root}: install postgresql`)
  return Path.join(root, versions[0], "bin")
}

/** A running private cluster. */
export interface PrivatePostgres {
  readonly port: number
  /** The cluster's directory (data and socket). */
  readonly dir: string
  /** `postgres://postgres@127.0.0.1:<port>/<database>`. */
  readonly url: (database?: string) => string
  /** Starts the server (waits until it accepts connections). */
  readonly start: () => void
  /** Stops it: `fast` ends sessions cleanly, `immediate` is a crash (recovery at the next start). */
  readonly stop: (mode?: "fast" | "immediate") => void
  /** Whether it accepts connections now. */
  readonly isReady: () => boolean
  /** Stops it (immediate) and removes the cluster. */
  readonly dispose: () => void
}

const isRoot = (): boolean => process.getuid?.() === 0

/** Runs a shell command as `postgres` when we are root (PostgreSQL refuses root), else as ourselves. */
const asPostgres = (command: string): string =>
  // The shell gets our own arguments only (paths under the temp dir, numbers), quoted for it.
  execFileSync(isRoot() ? "su" : "sh", isRoot() ? ["postgres", "-s", "/bin/sh", "-c", command] : ["-c", command], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000
  })

const quote = (value: string): string => `'${value.replaceAll("'", "'\\''")}'`

/** Creates and starts a cluster on a free port; `database` (if given) is created in it. */
export const startPrivatePostgres = async (options: { readonly database?: string } = {}): Promise<PrivatePostgres> => {
  const bin = pgBin()
  const root = mkdtempSync(Path.join(tmpdir(), "legible-pg-"))
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim())
    chownSync(root, uid, gid)
  }
  const dir = Path.join(root, "data")
  const port = await freePort()
  const pgCtl = Path.join(bin, "pg_ctl")
  asPostgres(`${quote(Path.join(bin, "initdb"))} -D ${quote(dir)} -A trust -U postgres --no-sync -E UTF8 >/dev/null`)
  // Small and quick: no fsync (a crash of the machine is not what the tests simulate; a killed server keeps what
  // the OS has), but synchronous commits, so an acknowledged commit survives an immediate stop.
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses=127.0.0.1",
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
    "-c shared_buffers=64MB"
  ].join(" ")
  const start = () => {
    asPostgres(
      `${quote(pgCtl)} -D ${quote(dir)} -l ${quote(Path.join(root, "log"))} -o ${quote(serverOptions)} -w -t 60 start >/dev/null`
    )
  }
  const stop = (mode: "fast" | "immediate" = "fast") => {
    asPostgres(`${quote(pgCtl)} -D ${quote(dir)} -m ${mode} -w -t 60 stop >/dev/null`)
  }
  const isReady = () => {
    try {
      execFileSync(Path.join(bin, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port), "-q"], { timeout: 10_000 })
      return true
    } catch {
      return false
    }
  }
  const url = (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`
  start()
  if (options.database !== undefined) {
    asPostgres(`${quote(Path.join(bin, "createdb"))} -h 127.0.0.1 -p ${port} -U postgres ${quote(options.database)}`)
  }
  const dispose = () => {
    try {
      if (existsSync(Path.join(dir, "postmaster.pid"))) stop("immediate")
    } catch {
      // already down
    }
    rmSync(root, { recursive: true, force: true })
  }
  return { port, dir, url, start, stop, isReady, dispose }
}
