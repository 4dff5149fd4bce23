import { Duration, Effect, Queue, type Scope } from "effect"

/** Opens a listener on a channel; its queue fails when the connection is lost. */
export type Listen = (channel: string) => Effect.Effect<Queue.Dequeue<unknown, unknown>, unknown, Scope.Scope>

/**
 * Keeps one listening connection on `channel` for the life of the current scope, re-opened `relistenMs` after a
 * failure: `signal` runs once the listener is confirmed (anything written while nobody listened is found by the
 * next read) and after every batch of notifications. A failure only slows wake-ups down to polling.
 */
export const keepListening = (
  listen: Listen,
  channel: string,
  relistenMs: number,
  signal: Effect.Effect<void>,
  label: string
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.scoped(
    Effect.gen(function* () {
      const notifications = yield* listen(channel)
      yield* signal
      while (true) {
        yield* Queue.takeAll(notifications)
        yield* signal
      }
    })
  ).pipe(
    Effect.catchCause((cause) => Effect.logWarning(`${label}: listening failed; listening again`, cause)),
    Effect.andThen(Effect.sleep(Duration.millis(relistenMs))),
    Effect.forever,
    Effect.forkScoped,
    Effect.asVoid
  )
