import type { ApiKey, Catalog, Directory, Extraction, Quota, Skill, Timestamp, Webhook } from "@legible/core"
import { Errors } from "@legible/core"

/** A job row of the in-memory queue (mirrors the SQL `jobs` table). */
export interface Job {
  readonly id: string
  readonly extractionId: string
  state: "queued" | "running" | "done" | "failed"
  attempts: number
  readonly maxAttempts: number
  /** Epoch milliseconds at which a queued job becomes due. */
  runAt: number
  lockedBy: string | null
  token: string | null
  /** Epoch milliseconds at which a running job's lease lapses. */
  leaseUntil: number | null
  lastError: string | null
  /** Insertion order: the tie-breaker of "oldest first". */
  readonly seq: number
}

/** Every version of one skill, oldest first, and whether it was deleted. */
export interface SkillEntry {
  readonly versions: Array<Skill.Skill>
  deleted: boolean
}

/** A stored document. */
export interface DocumentEntry {
  readonly bytes: Uint8Array
  readonly mimeType: string
}

/** An `Idempotency-Key` row (mirrors the SQL `idempotency_keys` table); times in epoch milliseconds. */
export interface IdempotencyEntry {
  readonly fingerprint: string
  readonly token: string
  extractionId: string | null
  readonly claimedAt: number
  readonly expiresAt: number
}

/** A webhook endpoint with its secrets (mirrors the SQL `webhook_endpoints` table). */
export interface WebhookEntry {
  endpoint: Webhook.Endpoint
  secret: string
  previousSecret: string | null
  previousUntil: Timestamp.Timestamp | null
}

/** A pending, delivered or failed delivery of one event to one endpoint (the SQL `webhook_deliveries`). */
export interface WebhookDelivery {
  readonly endpointId: string
  readonly eventId: string
  state: "pending" | "running" | "delivered" | "failed"
  attempts: number
}

/** The one mutable state every in-memory port shares. Each port method reads and writes it in one synchronous step. */
export interface State {
  readonly clients: Map<Directory.ClientId, Directory.Client>
  /** Users by `userKey(clientId, id)`: a user is identified by its client and id, as in SQL. */
  readonly users: Map<string, Directory.User>
  readonly apiKeys: Map<string, ApiKey.StoredApiKey>
  readonly skills: Map<string, SkillEntry>
  readonly catalogs: Map<string, Catalog.Catalog>
  readonly catalogRecords: Map<string, Map<string, Catalog.CatalogRecord>>
  readonly quotas: Map<Directory.ClientId, Quota.Quota>
  readonly extractions: Map<string, Extraction.ExtractionRecord>
  readonly documents: Map<string, DocumentEntry>
  readonly jobs: Map<string, Job>
  /** Idempotency keys by `idempotencyKey(scope, key)`. */
  readonly idempotency: Map<string, IdempotencyEntry>
  /** Callbacks of fibers waiting in `awaitWork`; all are called (and dropped) on every notification. */
  readonly waiters: Set<() => void>
  readonly webhooks: Map<string, WebhookEntry>
  /** Every event written, oldest first (the outbox: one per status change that is an event). */
  readonly webhookEvents: Array<Webhook.Event>
  readonly webhookDeliveries: Array<WebhookDelivery>
  readonly webhookAttempts: Array<Webhook.Attempt & { readonly endpointId: string }>
  /** Counter behind insertion order, job ids and lease tokens. */
  counter: number
}

/** A fresh, empty state. */
export const make = (): State => ({
  clients: new Map(),
  users: new Map(),
  apiKeys: new Map(),
  skills: new Map(),
  catalogs: new Map(),
  catalogRecords: new Map(),
  quotas: new Map(),
  extractions: new Map(),
  documents: new Map(),
  jobs: new Map(),
  idempotency: new Map(),
  waiters: new Set(),
  webhooks: new Map(),
  webhookEvents: [],
  webhookDeliveries: [],
  webhookAttempts: [],
  counter: 0
})

/** The key of user `id` of client `clientId` in `State.users`: unambiguous whatever characters either id holds. */
export const userKey = (clientId: string, id: string): string => JSON.stringify([clientId, id])

/** The next value of the state's counter. */
export const next = (state: State): number => ++state.counter

/**
 * A UUID-shaped id from the state's counter. `kind` is its fourth group's first digit (`a` jobs, `b` lease tokens, `c` webhook events),
 * so these never collide with ids from `IdGenerator` sequences, which use the `8` variant.
 */
export const internalId = (state: State, kind: "a" | "b" | "c"): string =>
  `00000000-0000-4000-${kind}000-${next(state).toString(16).padStart(12, "0")}`

/** Wakes every fiber in `awaitWork`. */
export const notify = (state: State): void => {
  const waiters = [...state.waiters]
  state.waiters.clear()
  for (const wake of waiters) wake()
}

/** The failure a SQL store reports for a broken constraint (duplicate key, unknown reference). */
export const conflict = (message: string): Errors.StorageError =>
  new Errors.StorageError({ reason: "Conflict", message })
