/**
 * In-memory implementations of every storage port of `@legible/core`, over one shared state, honouring the same
 * contracts as the SQL adapters: scoped reads, hashed keys, versioned skills, atomic quota reservations and
 * submissions, a fenced job queue driven by Effect's `Clock`.
 */
import { Ports, Webhook } from "@legible/core"
import { Context, Layer } from "effect"
import * as ApiKeys from "./internal/apiKeys.js"
import * as Catalogs from "./internal/catalogs.js"
import * as Directories from "./internal/directory.js"
import * as Extractions from "./internal/extractions.js"
import * as Idempotency from "./internal/idempotency.js"
import * as Jobs from "./internal/jobQueue.js"
import * as Quotas from "./internal/quotas.js"
import * as Skills from "./internal/skills.js"
import * as InternalState from "./internal/state.js"
import * as Webhooks from "./internal/webhooks.js"

/** The shared mutable state of the in-memory ports (tables by id). */
export type State = InternalState.State
/** A job row of the in-memory queue. */
export type Job = InternalState.Job

/** A fresh, empty state. */
export const makeState: () => State = InternalState.make

/** The in-memory `Directory` over `state`. */
export const makeDirectory: (state: State) => Ports.Directory["Service"] = Directories.make
/** The in-memory `ApiKeyStore` over `state`. */
export const makeApiKeyStore: (state: State) => Ports.ApiKeyStore["Service"] = ApiKeys.make
/** The in-memory `SkillStore` over `state`. */
export const makeSkillStore: (state: State) => Ports.SkillStore["Service"] = Skills.make
/** The in-memory `CatalogStore` over `state`. */
export const makeCatalogStore: (state: State) => Ports.CatalogStore["Service"] = Catalogs.make
/** The in-memory `ExtractionStore` over `state`. */
export const makeExtractionStore: (state: State) => Ports.ExtractionStore["Service"] = Extractions.make
/** The in-memory `DocumentStore` over `state`. */
export const makeDocumentStore: (state: State) => Ports.DocumentStore["Service"] = Extractions.makeDocuments
/** The in-memory `QuotaStore` over `state`. */
export const makeQuotaStore: (state: State) => Ports.QuotaStore["Service"] = Quotas.make
/** The in-memory `IdempotencyStore` over `state`. */
export const makeIdempotencyStore: (state: State) => Ports.IdempotencyStore["Service"] = Idempotency.make
/** The in-memory `WebhookStore` over `state` (status changes record their events in `state.webhookEvents`). */
export const makeWebhookStore: (state: State) => Webhook.WebhookStore["Service"] = Webhooks.make
/** The in-memory `JobQueue` over `state`. */
export const makeJobQueue: (state: State) => Ports.JobQueue["Service"] = Jobs.make

/** Direct access to the state behind `layer`, for tests that arrange or inspect rows the ports do not expose. */
export class MemoryState extends Context.Service<MemoryState, State>()("@legible/testkit/MemoryState") {}

/** Every service `layer` provides. */
export type Services = Ports.StorageServices | Ports.JobQueue | MemoryState

/** All the in-memory ports (and `MemoryState`) over one given state. */
export const context = (state: State): Context.Context<Services> =>
  Context.make(Ports.Directory, makeDirectory(state)).pipe(
    Context.add(Ports.ApiKeyStore, makeApiKeyStore(state)),
    Context.add(Ports.SkillStore, makeSkillStore(state)),
    Context.add(Ports.CatalogStore, makeCatalogStore(state)),
    Context.add(Ports.ExtractionStore, makeExtractionStore(state)),
    Context.add(Ports.DocumentStore, makeDocumentStore(state)),
    Context.add(Ports.QuotaStore, makeQuotaStore(state)),
    Context.add(Ports.IdempotencyStore, makeIdempotencyStore(state)),
    Context.add(Ports.JobQueue, makeJobQueue(state)),
    Context.add(Webhook.WebhookStore, makeWebhookStore(state)),
    Context.add(MemoryState, state)
  )

/** Every storage port in memory over one fresh state per build (a submit is visible to the queue, and so on). */
export const layer: Layer.Layer<Services> = Layer.syncContext(() => context(makeState()))
