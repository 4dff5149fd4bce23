/**
 * `serve`: the roles of a process. `api` serves HTTP only; `worker` runs the job loop (`Worker.start` with
 * `Processing.process`), the sweep of expired idempotency keys and, when a retention is set, the archive sweep; `all` does both in one process. On SIGTERM
 * or SIGINT the HTTP server stops accepting and drains, and the worker stops claiming and lets jobs in flight finish
 * within `LEGIBLE_SHUTDOWN_GRACE_SECONDS` (the rest are released for another worker).
 */
import { createServer } from "node:http"
import * as Os from "node:os"
import { NodeHttpServer } from "@effect/platform-node"
import { type Auth, Console, Http, WebhookSender } from "@legible/adapters-http"
import * as ConsoleFiles from "@legible/console"
import {
  Archive,
  type Document,
  type Errors,
  Idempotency,
  type Ports,
  Processing,
  type Webhook,
  WebhookDispatch,
  Worker
} from "@legible/core"
import { Duration, Effect, Layer, Logger, Predicate, References, Schema } from "effect"
import { HttpRouter, HttpServer, type HttpServerError } from "effect/http"
import { SqlClient } from "effect/sql"
import type * as Config from "./Config.js"
import type { DataDirInUse } from "./internal/lock.js"
import * as Jwt from "./Jwt.js"
import * as Layers from "./Layers.js"

/** What a process runs. */
export type Role = "api" | "worker" | "all"

/** The roles, for the CLI. */
export const ROLES: ReadonlyArray<Role> = ["api", "worker", "all"]

/** JSON log lines (or pretty ones) on stderr at the configured level; stdout stays for command output. */
export const logging = (settings: Config.Settings): Layer.Layer<never> =>
  Layer.mergeAll(
    Logger.layer([settings.logFormat === "json" ? Logger.withConsoleError(Logger.formatJson) : Logger.consolePretty()]),
    Layer.succeed(Logger.LogToStderr, true),
    Layer.succeed(References.MinimumLogLevel, settings.logLevel)
  )

/** A worker id that names the host and the process (the queue records it as the job's `locked_by`). */
export const workerId = (): string => `${Os.hostname()}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`

/**
 * The largest request head (request line and headers) accepted, in bytes. Node's default of 16 KiB answers 431 to
 * a 16 KB `x-api-key` before the application sees it; at 64 KiB such a request reaches the key check and gets the
 * spec's 401, while a head above this limit is still refused by Node with 431 before anything is parsed further.
 */
export const MAX_HEADER_BYTES = 64 * 1024

/** The Node HTTP server of the `api` role (the header limit above; everything else Node's defaults). */
export const httpServer = () => createServer({ maxHeaderSize: MAX_HEADER_BYTES })

/** The HTTP server could not listen: the message names the address and the system's reason. */
export class ListenError extends Schema.TaggedError<ListenError>()("ListenError", {
  message: Schema.String
}) {}

/** `cannot listen on 127.0.0.1:8080: address already in use (EADDRINUSE)…` from Node's `listen` error. */
export const listenError = (host: string, port: number, cause: unknown): ListenError => {
  const code = Predicate.hasProperty(cause, "code") && typeof cause.code === "string" ? cause.code : undefined
  const raw = cause instanceof Error ? cause.message : String(cause)
  // Node writes "listen EADDRINUSE: address already in use 127.0.0.1:8080" or "getaddrinfo ENOTFOUND host".
  const reason = code === "ENOTFOUND" ? "no such host" : raw.replace(/^\w+ [A-Z]+: /, "").replace(/ \S+:\d+$/, "")
  const hint =
    code === "EADDRINUSE"
      ? "; another process listens there: stop it or set LEGIBLE_PORT"
      : code === "EACCES"
        ? "; ports below 1024 need privileges: set LEGIBLE_PORT"
        : code === "EADDRNOTAVAIL" || code === "ENOTFOUND"
          ? "; set LEGIBLE_HOST to an address of this machine"
          : ""
  return new ListenError({
    message: `cannot listen on ${host}:${port}: ${reason}${code !== undefined && !reason.includes(code) ? ` (${code})` : ""}${hint}`
  })
}

/** Why the HTTP server could not start. */
export type ApiError = Auth.ConfigError | Jwt.SecretError | ListenError

/** Why a process could not start. */
export type StartError = ApiError | Errors.StorageError | DataDirInUse | Document.DocumentError

/** The HTTP server on `LEGIBLE_HOST:LEGIBLE_PORT` with the whole application; logs the address once listening. */
export const api = (
  settings: Config.Settings
): Layer.Layer<HttpServer.HttpServer, ApiError, Http.Services | SqlClient.SqlClient> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const auth = yield* Jwt.authConfig(settings)
      const sql = yield* SqlClient.SqlClient
      const app = Http.layer({
        auth,
        bodyLimit: settings.maxBodyBytes,
        defaultModel: settings.defaultModel,
        maxAttempts: settings.worker.maxAttempts,
        models: Layers.models(settings),
        idempotencyRetention: settings.idempotencyRetentionMs,
        readiness: sql`SELECT 1`,
        webhooks: webhookTransport(settings)
      }).pipe(Layer.merge(ConsoleFiles.built() ? Console.layer({ directory: ConsoleFiles.directory }) : Layer.empty))
      const listening = Layer.effectDiscard(
        HttpServer.addressFormattedWith((address) => Effect.logInfo("listening").pipe(Effect.annotateLogs({ address })))
      )
      return HttpRouter.serve(app, { disableLogger: true, disableListenLog: true }).pipe(
        Layer.merge(listening),
        Layer.provideMerge(
          NodeHttpServer.layer(httpServer, {
            host: settings.host,
            port: settings.port,
            gracefulShutdownTimeout: Duration.seconds(settings.shutdownGraceSeconds)
          })
        ),
        Layer.catchTag("ServeError", (error: HttpServerError.ServeError) =>
          Layer.effect(HttpServer.HttpServer, Effect.fail(listenError(settings.host, settings.port, error.cause)))
        )
      )
    })
  )

const idempotencyRetention = (settings: Config.Settings): Duration.Duration =>
  settings.idempotencyRetentionMs === undefined
    ? Idempotency.DEFAULT_RETENTION
    : Duration.millis(settings.idempotencyRetentionMs)

/** What the webhook transport gets from the settings (the HTTP layer's registration checks use the same). */
export const webhookTransport = (settings: Config.Settings) => ({
  allowPrivate: settings.webhooks.allowPrivate,
  allowHttp: settings.webhooks.allowHttp,
  timeoutMs: settings.webhooks.timeoutMs,
  rotationOverlapMs: settings.webhooks.rotationOverlapMs
})

/**
 * The webhook dispatcher of a worker role: its lease outlasts two attempt timeouts, so a live attempt keeps its
 * claim and a crashed dispatcher's deliveries are taken again soon after.
 */
export const dispatcher = (settings: Config.Settings): Layer.Layer<never, never, Webhook.WebhookOutbox> => {
  const timeoutMs = settings.webhooks.timeoutMs ?? WebhookSender.DEFAULT_TIMEOUT_MS
  return Layer.effectDiscard(
    Effect.gen(function* () {
      const id = workerId()
      yield* WebhookDispatch.start({
        workerId: id,
        concurrency: settings.webhooks.concurrency,
        leaseMs: 2 * timeoutMs + 1_000,
        pollMs: settings.worker.pollMs,
        schedule: settings.webhooks.scheduleMs,
        disableAfterMs: settings.webhooks.disableAfterMs
      })
      yield* Effect.logInfo("webhook dispatcher started").pipe(Effect.annotateLogs({ workerId: id }))
    })
  ).pipe(Layer.provide(WebhookSender.layer(webhookTransport(settings))))
}

/**
 * The job worker (the retention sweep when `LEGIBLE_RETENTION_DAYS` is set, the sweep of expired idempotency keys),
 * stopped gracefully.
 */
export const worker = (
  settings: Config.Settings
): Layer.Layer<never, never, Processing.Services | Ports.JobQueue | Ports.IdempotencyStore> =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const id = workerId()
      const running = yield* Worker.start({
        workerId: id,
        handler:
          settings.worker.dateFloor === undefined
            ? Processing.process
            : Processing.makeHandler({ dateFloor: settings.worker.dateFloor }),
        concurrency: settings.worker.concurrency,
        leaseMs: settings.worker.leaseMs,
        pollMs: settings.worker.pollMs,
        retry: settings.worker.maxAttempts === undefined ? undefined : { maxAttempts: settings.worker.maxAttempts }
      })
      // Added after `start`, so it runs before the scope interrupts the worker's fibers.
      yield* Effect.addFinalizer(() =>
        Effect.gen(function* () {
          const inFlight = yield* running.inFlight
          yield* Effect.logInfo("worker stopping").pipe(
            Effect.annotateLogs({ inFlight, graceSeconds: settings.shutdownGraceSeconds })
          )
          yield* running.stop(settings.shutdownGraceSeconds * 1000)
          yield* Effect.logInfo("worker stopped")
        })
      )
      if (settings.retentionDays !== undefined) yield* Effect.forkScoped(Archive.schedule(settings.retentionDays))
      // Expired keys are already ignored by claims; the sweep keeps the table small, at least as often as keys expire.
      yield* Effect.forkScoped(Idempotency.schedule(Duration.min(Duration.minutes(10), idempotencyRetention(settings))))
      yield* Effect.logInfo("worker started").pipe(
        Effect.annotateLogs({ workerId: id, concurrency: settings.worker.concurrency ?? Worker.defaults.concurrency })
      )
    })
  )

/** The layer of a role over the real services of the settings. */
export const layer = (settings: Config.Settings, role: Role): Layer.Layer<never, StartError> => {
  if (role === "api") return api(settings).pipe(Layer.provide(Layers.api(settings)))
  const work = Layer.merge(worker(settings), dispatcher(settings))
  const parts = role === "worker" ? work : Layer.merge(api(settings), work)
  return parts.pipe(Layer.provide(Layers.all(settings)))
}

/** Runs a role until the process is interrupted (SIGINT/SIGTERM through `NodeRuntime.runMain`). */
export const run = (settings: Config.Settings, role: Role): Effect.Effect<never, StartError> =>
  Layer.launch(layer(settings, role)).pipe(Effect.annotateLogs({ role }), Effect.provide(logging(settings)))
