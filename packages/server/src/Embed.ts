/**
 * legible inside a Node application, with no HTTP and no environment variables:
 *
 * - `layer(options)` builds the services you choose: the database (PGlite in memory by default, a PGlite directory,
 *   or PostgreSQL), the OCR reader and the extractor (local rules by default; Anthropic/OpenAI when given keys);
 * - `extractNow(bytes, skill)` reads and extracts one document right now, with no queue and no storage (it needs
 *   only `DocumentReader` and `FieldExtractor`; catalog fields also need a `CatalogMatcher`);
 * - `submit` + `startWorker` + `awaitFinal` run the queued flow of the service in process;
 * - `events` streams the webhook events (`extraction.completed`, `.failed`, `.status_changed`) as they commit, with
 *   no HTTP; `startDispatcher` delivers them to registered endpoints as the worker role does;
 * - for tests, provide `@legible/testkit`'s deterministic layers instead of `layer` (see `examples/`).
 */
import { Extensions, WebhookSender } from "@legible/adapters-http"
import { Router } from "@legible/adapters-llm"
import { Database, SqlJobQueue, SqlStorage, SqlWebhookOutbox } from "@legible/adapters-storage"
import {
  type ApiKeys,
  CatalogMatching,
  type Directory,
  type Document,
  Errors,
  Extraction,
  Extractions,
  type Extractor,
  type Field,
  Ports,
  Processing,
  Retry,
  Skill,
  Skills,
  Timestamp,
  Webhook,
  WebhookDispatch,
  Worker
} from "@legible/core"
import { OnnxReader } from "@legible/ocr-onnx"
import { Effect, Layer, Option, Schedule, Stream } from "effect"
import type * as Layers from "./Layers.js"
import * as Operations from "./Operations.js"

/** What to build. Every part is optional. */
export interface Options {
  /** Default: PGlite in memory (gone with the process). */
  readonly database?: Database.DatabaseOptions | undefined
  /** Keep documents in this directory instead of the database. */
  readonly documents?: { readonly directory: string } | undefined
  /** The OCR reader's settings (pool size, limits, models). */
  readonly reader?: OnnxReader.Options | undefined
  /** The providers; default `local` only (no network). */
  readonly extractor?: Router.Options | undefined
}

/** The storage ports, job queue, catalog matcher, reader and extractor of `options`. */
export const layer = (
  options: Options = {}
): Layer.Layer<Layers.Services, Errors.StorageError | Document.DocumentError> => {
  const stores = SqlStorage.layer({
    documents: options.documents,
    storedAsBytes: options.database?.engine === "postgres"
  })
  const storage = Layer.mergeAll(
    stores,
    SqlJobQueue.layer(),
    SqlWebhookOutbox.layer(),
    CatalogMatching.layer.pipe(Layer.provide(stores))
  ).pipe(Layer.provideMerge(Database.layer(options.database ?? { engine: "pglite" })))
  return Layer.mergeAll(
    storage,
    OnnxReader.layer(options.reader ?? {}),
    Router.layer(options.extractor ?? { local: true })
  )
}

/** The fields of a result, as `extractNow` and `awaitFinal` return them (spec 2.7). */
export type DetailedFields = ReadonlyArray<Field.DetailedField>

/** A skill for `extractNow`: a stored `Skill`, or a definition as written to `POST /api/skills`. */
export type SkillSpec = Skill.Skill | typeof Extensions.SkillDefinition.Type

const isStored = (spec: SkillSpec): spec is Skill.Skill => "version" in spec && "slug" in spec

/** A definition completed into an unsaved skill (version 1 of the slug `inline`), checked like a stored one. */
export const toSkill = (spec: SkillSpec, clientId: string, now: Timestamp.Timestamp) => {
  if (isStored(spec)) return Effect.succeed(spec)
  const fields = spec.fields.map(Extensions.toSkillField)
  const problems = [...(fields.length === 0 ? ["fields must not be empty"] : []), ...Skill.validateFields(fields)]
  return problems.length > 0
    ? Effect.fail(new Errors.InvalidRequest({ message: problems.join("; ") }))
    : Effect.succeed({
        id: "inline",
        clientId,
        slug: "inline",
        name: spec.name,
        version: 1,
        instructions: spec.instructions ?? "",
        fields,
        createdAt: now,
        updatedAt: now
      } satisfies Skill.Skill)
}

/** Creates a client's skill from a definition (as written to `POST /api/skills`), or stores its next version. */
export const defineSkill = Effect.fn("Embed.defineSkill")(function* (
  clientId: string,
  slug: string,
  definition: typeof Extensions.SkillDefinition.Type
) {
  yield* Operations.ensureClient(clientId)
  return yield* Skills.apply(clientId, slug, Extensions.toDefinition(definition))
})

/** Settings of one direct extraction. */
export interface ExtractNowOptions {
  /** Default `local`. */
  readonly model?: string | undefined
  /** Default `ocr_pdf` (page images are rendered only for that mode). */
  readonly mode?: Extraction.Mode | undefined
  /** The client whose catalogs `catalog` fields are matched against. Default `embedded`. */
  readonly clientId?: string | undefined
}

/**
 * Reads `document` and extracts `skill`'s fields now: read → extract → catalog matching → grounding → parsing →
 * assembly, as a worker does, without storing anything. The result is the stored form of an extraction: detailed
 * `fields` (spec 2.7), `usage`, `words`, `fullText`, `numPages`.
 */
export const extractNow = Effect.fn("Embed.extractNow")(function* (
  document: Uint8Array,
  skill: SkillSpec,
  options: ExtractNowOptions = {}
): Effect.fn.Return<
  Extraction.ExtractionResult,
  Document.DocumentError | Extractor.ExtractorError | Errors.StorageError | Errors.InvalidRequest,
  Ports.DocumentReader | Ports.FieldExtractor
> {
  const clientId = options.clientId ?? "embedded"
  const resolved = yield* toSkill(skill, clientId, yield* Timestamp.now)
  const model = options.model ?? "local"
  const mode = options.mode ?? "ocr_pdf"
  const extractor = yield* Ports.FieldExtractor
  if (!extractor.supports(model)) {
    return yield* new Errors.InvalidRequest({ message: `no configured provider serves the model "${model}"` })
  }
  const matcher = yield* Effect.serviceOption(Ports.CatalogMatcher)
  const match: Processing.Match<Errors.StorageError | Errors.InvalidRequest> = Option.isSome(matcher)
    ? matcher.value.match
    : () =>
        Effect.fail(new Errors.InvalidRequest({ message: "the skill has catalog fields: provide a CatalogMatcher" }))
  return yield* Processing.run({ skill: resolved, bytes: document, clientId, mode, model }, match, {
    catalogConcurrency: 1
  })
})

/** The principal of in-process submissions: `user` acting for its client, live (or the sandbox with `sandbox`). */
export const caller = (user: Directory.User, sandbox = false): ApiKeys.Caller => ({
  clientId: user.clientId,
  sandbox,
  keyId: "embedded",
  user: { id: user.id, name: user.name, email: user.email },
  role: user.role
})

/** Queues a document for the caller's skill (as `POST /v1/extractions` does); returns the extraction id. */
export const submit = Effect.fn("Embed.submit")(function* (
  who: ApiKeys.Caller,
  input: {
    readonly fileName: string
    readonly skill: string
    readonly document: Uint8Array
    readonly model?: string | undefined
    readonly mode?: Extraction.Mode | undefined
    readonly maxAttempts?: number | undefined
  }
) {
  const mimeType = yield* (yield* Ports.DocumentReader).identify(input.document)
  const { extraction_id } = yield* Extractions.submit(who, {
    fileName: input.fileName,
    skill: input.skill,
    document: input.document,
    mimeType,
    model: input.model ?? "local",
    mode: input.mode ?? "ocr_pdf",
    maxAttempts: input.maxAttempts ?? Retry.defaultPolicy.maxAttempts
  })
  return extraction_id
})

/** Starts a worker in the current scope (closing the scope stops it); `concurrency` jobs at once, default 2. */
export const startWorker = (options: { readonly concurrency?: number; readonly leaseMs?: number } = {}) =>
  Worker.start({
    workerId: `embedded-${process.pid}`,
    handler: Processing.process,
    concurrency: options.concurrency ?? 2,
    leaseMs: options.leaseMs ?? 60_000,
    pollMs: 1_000,
    retry: { maxAttempts: 3, baseMs: 1_000, capMs: 30_000 }
  })

/** Polls the caller's extraction every `everyMs` (default 100) until it is final; returns the spec's detailed read. */
export const awaitFinal = Effect.fn("Embed.awaitFinal")(function* (who: ApiKeys.Caller, id: string, everyMs = 100) {
  return yield* Extractions.readDetailed(who, id).pipe(
    Effect.repeat({
      schedule: Schedule.spaced(everyMs),
      until: (read) => Extraction.isFinal(read.status)
    })
  )
})

/**
 * Every webhook event committed from now on, of every client and sandbox (each carries `clientId` and `sandbox`):
 * the events the endpoints receive, with no HTTP. At least once; read the extraction for its result.
 */
export const events: Stream.Stream<Webhook.Event, Errors.StorageError, Webhook.WebhookOutbox> = Stream.unwrap(
  Effect.map(Effect.service(Webhook.WebhookOutbox), (outbox) => outbox.events)
)

/**
 * Starts delivering webhook events to the registered endpoints in the current scope, as the worker role does
 * (`WebhookSender` options: by default only public https receivers).
 */
export const startDispatcher = (options: { readonly transport?: WebhookSender.Options | undefined } = {}) =>
  WebhookDispatch.start({ workerId: `embedded-${process.pid}` }).pipe(
    Effect.provide(WebhookSender.layer(options.transport))
  )
