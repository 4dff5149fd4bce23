/**
 * The world of the socket contract suite: a built server (one process `serve --role all`, or `--role api` plus a
 * `--role worker` started after a first submission, so a queued read is observed), three clients' users, their
 * catalogs and the demo invoice skill (through the operator endpoints), keys, and completed extractions of the
 * sample invoice.
 */
import { type Client, client, type Json, SAMPLE_PDF, seedSkill, token } from "../support/http.js"
import { type Running, SECRET, type Server, startServer, startWorker } from "../support/process.js"
import { v1 } from "../support/typed.js"

/** The users of the suite. */
export const USERS = {
  alice: { sub: "alice", clientId: "client-a", name: "Alice Martín", email: "alice@a.test" },
  bob: { sub: "bob", clientId: "client-b", name: "Bob", email: "bob@b.test" },
  root: { sub: "root", clientId: "ops", name: "Root", email: "root@ops.test", role: "global_admin" as const }
} as const

/** A file name with quotes, a semicolon and non-Latin letters, for the download's `Content-Disposition`. */
export const TRICKY_NAME = 'factura "ñ"; 北京 0001.pdf'

/** Everything the contract groups use. */
export interface World {
  readonly engine: "pglite" | "postgres"
  readonly server: Server
  readonly api: Client
  readonly tokens: { readonly alice: string; readonly bob: string; readonly root: string }
  readonly keys: { readonly alice: string; readonly aliceTest: string; readonly bob: string; readonly root: string }
  /** Completed extractions: two of alice's (the first with `TRICKY_NAME`), one of bob's, one of alice's test key. */
  readonly ids: { readonly alice1: string; readonly alice2: string; readonly bob1: string; readonly aliceTest1: string }
  readonly skillIds: { readonly alice: string }
  /** A read taken while the extraction was still queued (split roles only). */
  readonly queuedRead: Json | undefined
  /** The worker process of split roles. */
  readonly worker: Running | undefined
  readonly stop: () => Promise<void>
}

/** Starts the server and builds the world. `split` runs api and worker as two processes (PostgreSQL only). */
export const makeWorld = async (options: {
  readonly engine: "pglite" | "postgres"
  readonly env: Record<string, string>
  readonly split: boolean
}): Promise<World> => {
  const env = {
    LEGIBLE_JWT_SECRET: SECRET,
    LEGIBLE_OCR_WORKERS: "1",
    LEGIBLE_MAX_BODY_BYTES: String(2 * 1024 * 1024),
    LEGIBLE_LOG_LEVEL: "Info",
    ...options.env
  }
  const server = await startServer({ env, args: ["serve", "--role", options.split ? "api" : "all"] })
  let worker: Running | undefined
  try {
    return await populate(options, env, server, (started) => {
      worker = started
    })
  } catch (error) {
    // A set-up that fails must not leave its processes serving.
    await worker?.stop("SIGKILL")
    await server.stop("SIGKILL")
    throw error
  }
}

const populate = async (
  options: { readonly engine: "pglite" | "postgres"; readonly split: boolean },
  env: Record<string, string>,
  server: Server,
  onWorker: (worker: Running) => void
): Promise<World> => {
  const api = client(server.url)
  const tokens = { alice: token(USERS.alice), bob: token(USERS.bob), root: token(USERS.root) }
  // Keys first: creating one records the token's user and client, which the operator endpoints rely on.
  const keys = {
    alice: await api.createKey(tokens.alice, "alice live"),
    aliceTest: await api.createKey(tokens.alice, "alice test", "test"),
    bob: await api.createKey(tokens.bob, "bob live"),
    root: await api.createKey(tokens.root, "root live")
  }
  const aliceSkill = await seedSkill(api, tokens.alice)
  await seedSkill(api, tokens.bob)
  const alice1 = await api.submit(keys.alice, SAMPLE_PDF, TRICKY_NAME)
  let queuedRead: Json | undefined
  let worker: Running | undefined
  if (options.split) {
    queuedRead = (await v1(api, keys.alice).read(alice1)).body as Json
    worker = await startWorker(env)
    onWorker(worker)
  }
  const alice2 = await api.submit(keys.alice, SAMPLE_PDF, "otra-factura.pdf")
  const bob1 = await api.submit(keys.bob, SAMPLE_PDF, "factura-bob.pdf")
  const aliceTest1 = await api.submit(keys.aliceTest, SAMPLE_PDF, "sandbox.pdf")
  for (const [key, id] of [
    [keys.alice, alice1],
    [keys.alice, alice2],
    [keys.bob, bob1],
    [keys.aliceTest, aliceTest1]
  ] as const) {
    await api.awaitFinal(key, id)
  }
  return {
    engine: options.engine,
    server,
    api,
    tokens,
    keys,
    ids: { alice1, alice2, bob1, aliceTest1 },
    skillIds: { alice: aliceSkill },
    queuedRead,
    worker,
    stop: async () => {
      await worker?.stop()
      await server.stop()
    }
  }
}
