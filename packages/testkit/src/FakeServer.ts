/** What the fake provider servers (`FakeAnthropic`, `FakeOpenAI`) share: how a test scripts and inspects them. */
import type { Effect } from "effect"

/** A request as the server received it. */
export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  /** The JSON body, parsed (or the raw text when it is not JSON). */
  readonly body: unknown
  /** When the body had been read (`Date.now()`), to check waits between attempts. */
  readonly at: number
}

/** A running fake on loopback (`R`: the provider's reply type): its base URL, its script and what it received. */
export interface Server<R> {
  /** The base URL to give the SDK (`baseURL`). */
  readonly url: string
  /** Appends replies to the queue; each request takes the next one. */
  script(...replies: ReadonlyArray<R>): Effect.Effect<void>
  /** Every request received so far, in arrival order. */
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** Waits until at least `count` requests have arrived, and returns them. */
  awaitRequests(count: number): Effect.Effect<ReadonlyArray<RecordedRequest>>
  /** The largest number of requests that were in flight (received, not yet answered) at once. */
  readonly maxInFlight: Effect.Effect<number>
  /** Holds every answer (requests are still recorded) until `release`. */
  readonly hold: Effect.Effect<void>
  /** Lets held and later answers go. */
  readonly release: Effect.Effect<void>
}
