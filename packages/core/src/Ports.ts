import { Context, type Effect } from "effect"
import type { StoredApiKey } from "./ApiKey.js"
import type { Catalog, CatalogRecord } from "./Catalog.js"
import type { CatalogQuery } from "./CatalogMatch.js"
import type { Client, ClientId, User } from "./Directory.js"
import type { DocumentError, ReadDocument, ReadOptions } from "./Document.js"
import type { IdempotencyKeyInFlight, InvalidRequest, LeaseLost, QuotaExceeded, StorageError } from "./Errors.js"
import type { ExtractionRecord, ExtractionResult, Status, StatusChange } from "./Extraction.js"
import type { ExtractorError, ExtractRequest, ExtractResponse } from "./Extractor.js"
import type { CatalogValue } from "./Field.js"
import type { ExtractionFilter } from "./ListQuery.js"
import type { Period, Quota } from "./Quota.js"
import type { Review, Skill, SkillField } from "./Skill.js"
import type { ListedPage, View } from "./StoredResult.js"
import type { Timestamp } from "./Timestamp.js"
import type { WebhookStore } from "./Webhook.js"

/** The rows a caller may see: one client's, in the live world or the test-key sandbox. */
export interface Scope {
  readonly clientId: ClientId
  readonly sandbox: boolean
}

/**
 * The port to the clients and users known to legible. Users are recorded as they present tokens, keyed by
 * (client, id): one client's user never changes another client's user of the same id.
 */
export class Directory extends Context.Service<
  Directory,
  {
    /** Creates the client or renames it. */
    upsertClient(client: Client): Effect.Effect<Client, StorageError>
    getClient(id: ClientId): Effect.Effect<Client | undefined, StorageError>
    /**
     * Records the user (and its client, named after its id when new) with its latest name, email and role; only
     * the user of that client and id is written.
     */
    upsertUser(user: User): Effect.Effect<User, StorageError>
    /** The user `id` of client `clientId`. */
    getUser(clientId: ClientId, id: string): Effect.Effect<User | undefined, StorageError>
  }
>()("@legible/core/Directory") {}

/** A key found by its hash, with the user who created it. */
export interface AuthenticatedKey {
  readonly key: StoredApiKey
  readonly user: User
}

/** The port to stored API keys. Keys are stored only as hashes; revocation takes effect on the next lookup. */
export class ApiKeyStore extends Context.Service<
  ApiKeyStore,
  {
    insert(key: StoredApiKey): Effect.Effect<void, StorageError>
    /** The client's keys that are not revoked, newest first. */
    list(clientId: ClientId): Effect.Effect<ReadonlyArray<StoredApiKey>, StorageError>
    /** Revokes the client's active key; `false` when it is missing, already revoked or another client's. */
    revoke(clientId: ClientId, id: string, now: Timestamp): Effect.Effect<boolean, StorageError>
    /** One indexed lookup of an active key by the hash of its secret. */
    findActive(hash: string): Effect.Effect<AuthenticatedKey | undefined, StorageError>
    /** Sets `last_used` to `now` unless it was set less than a minute before `now`. */
    touch(id: string, now: Timestamp): Effect.Effect<void, StorageError>
  }
>()("@legible/core/ApiKeyStore") {}

/** What a client submits to create a skill or a new version of it. */
export interface SkillInput {
  readonly clientId: ClientId
  readonly slug: string
  readonly name: string
  readonly instructions: string
  readonly fields: ReadonlyArray<SkillField>
  /** The review setting (extension); absent: processing always ends `completado`. */
  readonly review?: Review | undefined
}

/** The port to skills. Every `put` of an existing slug stores a new version; old versions stay readable. */
export class SkillStore extends Context.Service<
  SkillStore,
  {
    /** Creates the skill (version 1) or its next version. */
    put(input: SkillInput, now: Timestamp): Effect.Effect<Skill, StorageError>
    /** The latest version of the client's skill with this slug. */
    findBySlug(clientId: ClientId, slug: string): Effect.Effect<Skill | undefined, StorageError>
    /** The latest version, or the given one, of the client's skill with this id. */
    findById(clientId: ClientId, id: string, version?: number): Effect.Effect<Skill | undefined, StorageError>
    list(clientId: ClientId): Effect.Effect<ReadonlyArray<Skill>, StorageError>
    /** Deletes the skill (its extractions keep their skill name and id); `false` when missing. */
    remove(clientId: ClientId, slug: string): Effect.Effect<boolean, StorageError>
  }
>()("@legible/core/SkillStore") {}

/** The port to client catalogs and their records. */
export class CatalogStore extends Context.Service<
  CatalogStore,
  {
    create(catalog: Catalog): Effect.Effect<void, StorageError>
    get(clientId: ClientId, id: string): Effect.Effect<Catalog | undefined, StorageError>
    list(clientId: ClientId): Effect.Effect<ReadonlyArray<Catalog>, StorageError>
    /** Deletes the catalog and its records; `false` when missing. */
    remove(clientId: ClientId, id: string): Effect.Effect<boolean, StorageError>
    /** Inserts or replaces records by id; values of unknown columns are refused. */
    upsertRecords(
      clientId: ClientId,
      catalogId: string,
      records: ReadonlyArray<CatalogRecord>
    ): Effect.Effect<number, StorageError | InvalidRequest>
    getRecord(
      clientId: ClientId,
      catalogId: string,
      recordId: string
    ): Effect.Effect<CatalogRecord | undefined, StorageError>
    countRecords(clientId: ClientId, catalogId: string): Effect.Effect<number, StorageError>
    /**
     * Answers one search of a catalog column on the normalized columns written at upsert (see
     * `CatalogMatch.CatalogQuery` for each kind's results and order). Another client's catalog has no records.
     */
    search(
      clientId: ClientId,
      catalogId: string,
      query: CatalogQuery
    ): Effect.Effect<ReadonlyArray<CatalogRecord>, StorageError>
  }
>()("@legible/core/CatalogStore") {}

/** A page of the extraction list: the items and the number of all matching rows (ignoring `limit`). */
export interface ExtractionPage {
  readonly items: ReadonlyArray<ExtractionRecord>
  readonly count: number
}

/** A submission: the new row (status `en cola`), the document's bytes and its job, written atomically. */
export interface Submission {
  readonly record: ExtractionRecord
  readonly document: Uint8Array
  /** Attempts the job gets before it ends in `error`. */
  readonly maxAttempts: number
  /** The `Idempotency-Key` claim this submission answers: recorded as done in the same transaction. */
  readonly idempotency?: IdempotencyClaim | undefined
}

/** An extraction as a read sends it: the record and the text stored ready to send for the view (`StoredResult`). */
export interface StoredRead {
  /** The row; its `result` is given only when no text was stored for it (a result written by older code). */
  readonly record: ExtractionRecord
  /**
   * The view's members as stored at the end of processing, as text or as its UTF-8 bytes (what a store that can
   * hand them over undecoded gives: `StoredResult.render` then sends bytes); `null` when none were stored.
   */
  readonly stored: string | Uint8Array | null
}

/** What a read authenticated by a key's hash found: the key with its user, and what it may see. */
export interface KeyedRead<A> {
  readonly key: AuthenticatedKey
  readonly found: A
}

/** The port to extractions. Every read is scoped: another client's or sandbox's rows are invisible. */
export class ExtractionStore extends Context.Service<
  ExtractionStore,
  {
    /**
     * Writes the extraction row, its document and its job in one transaction, and marks the submission's
     * idempotency claim done in it; a claim no longer held (taken over) fails it all with `IdempotencyKeyInFlight`.
     */
    submit(submission: Submission): Effect.Effect<void, StorageError | IdempotencyKeyInFlight>
    get(scope: Scope, id: string): Effect.Effect<ExtractionRecord | undefined, StorageError>
    /**
     * Authenticates an active key by the hash of its secret and reads an extraction in the key's scope (its client,
     * and the sandbox for a test key), in one round trip: `undefined` when no active key has this hash, `found`
     * `undefined` when the extraction is missing or out of scope.
     */
    readAs(
      keyHash: string,
      id: string,
      view: View
    ): Effect.Effect<KeyedRead<StoredRead | undefined> | undefined, StorageError>
    /** The list of `list` for the active key with this hash, in one round trip; `undefined` when there is none. */
    listAs(keyHash: string, filter: ExtractionFilter): Effect.Effect<KeyedRead<ListedPage> | undefined, StorageError>
    /** Unscoped read for the worker that holds the extraction's job (its document comes from `DocumentStore`). */
    getForProcessing(id: string): Effect.Effect<ExtractionRecord | undefined, StorageError>
    list(scope: Scope, filter: ExtractionFilter): Effect.Effect<ExtractionPage, StorageError>
    /**
     * Applies a status switch if the extraction is still in `expected` (compare-and-set); `undefined` when it is
     * missing or its status changed meanwhile.
     */
    switchStatus(
      scope: Scope,
      id: string,
      expected: Status,
      change: StatusChange
    ): Effect.Effect<ExtractionRecord | undefined, StorageError>
    /** Archives or unarchives; `undefined` when missing. */
    setArchived(
      scope: Scope,
      id: string,
      archived: boolean,
      now: Timestamp
    ): Effect.Effect<ExtractionRecord | undefined, StorageError>
    /** Archives every final extraction created before `before`; returns how many. */
    archiveBefore(before: Timestamp): Effect.Effect<number, StorageError>
  }
>()("@legible/core/ExtractionStore") {}

/** A stored document. */
export interface StoredDocument {
  readonly bytes: Uint8Array
  readonly fileName: string
  readonly mimeType: string
}

/** The port to the original documents (in the database, or in a directory under server-made names). */
export class DocumentStore extends Context.Service<
  DocumentStore,
  {
    get(scope: Scope, extractionId: string): Effect.Effect<StoredDocument | undefined, StorageError>
  }
>()("@legible/core/DocumentStore") {}

/** The port to quotas. `reserve` is one atomic step: concurrent reservations never overshoot the limit. */
export class QuotaStore extends Context.Service<
  QuotaStore,
  {
    /** Counts one extraction in the current period, or fails when the limit is reached. No quota row: unlimited. */
    reserve(clientId: ClientId, now: Timestamp): Effect.Effect<Quota | undefined, StorageError | QuotaExceeded>
    /** Gives back a reservation made at `at` (if its period is still current). */
    release(clientId: ClientId, at: Timestamp): Effect.Effect<void, StorageError>
    get(clientId: ClientId): Effect.Effect<Quota | undefined, StorageError>
    /** Sets the limit (`null`: unlimited) and period, keeping the usage of the current period. */
    set(clientId: ClientId, limit: number | null, period: Period, now: Timestamp): Effect.Effect<Quota, StorageError>
  }
>()("@legible/core/QuotaStore") {}

/** A claimed job: held by one worker until `leaseUntil`, fenced by `token`. */
export interface Lease {
  readonly jobId: string
  readonly extractionId: string
  readonly workerId: string
  readonly token: string
  /** This attempt's number, from 1. */
  readonly attempt: number
  readonly maxAttempts: number
}

/**
 * The port to the extraction job queue. Claims are single autocommit statements; every later write is fenced
 * by the lease token, so a worker whose lease lapsed changes nothing (`LeaseLost`).
 */
export class JobQueue extends Context.Service<
  JobQueue,
  {
    /** Claims the oldest due job (or one whose lease lapsed) and sets its extraction `procesando`. */
    claim(workerId: string, leaseMs: number): Effect.Effect<Lease | undefined, StorageError>
    /** Extends the lease. */
    heartbeat(lease: Lease, leaseMs: number): Effect.Effect<void, StorageError | LeaseLost>
    /**
     * Stores the result, sets the extraction `completado` (or `incompleto` with the message, when the result
     * `needsReview`) and ends the job.
     */
    complete(lease: Lease, result: ExtractionResult): Effect.Effect<void, StorageError | LeaseLost>
    /** Puts the job back in the queue after `delayMs`; its extraction returns to `en cola`. */
    retry(lease: Lease, message: string, delayMs: number): Effect.Effect<void, StorageError | LeaseLost>
    /** Ends the job; its extraction becomes `error` with `message`. */
    fail(lease: Lease, message: string): Effect.Effect<void, StorageError | LeaseLost>
    /** Gives the job back untouched (graceful stop): due now, and this attempt is not counted. */
    release(lease: Lease): Effect.Effect<void, StorageError | LeaseLost>
    /**
     * Ends in `error` every job whose lease lapsed with no attempts left (its worker crashed on every try);
     * returns their extractions' ids.
     */
    reap(): Effect.Effect<ReadonlyArray<string>, StorageError>
    /** Completes when a job may be due (a notification, or `timeoutMs` passing). */
    awaitWork(timeoutMs: number): Effect.Effect<void, StorageError>
  }
>()("@legible/core/JobQueue") {}

/** An `Idempotency-Key` of a client (per sandbox), held by one request while `token` is its claim. */
export interface IdempotencyClaim {
  readonly scope: Scope
  readonly key: string
  readonly token: string
}

/** What a claim asks for: take the key for this fingerprint unless it is held, done or held by another body. */
export interface IdempotencyClaimRequest extends IdempotencyClaim {
  readonly fingerprint: string
  readonly now: Timestamp
  /** When the key is forgotten (a later claim starts afresh). */
  readonly expiresAt: Timestamp
  /** A claim of the same fingerprint made at or before this instant and never done may be taken over. */
  readonly staleBefore: Timestamp
}

/** What a claim found: the key taken for the caller, or the row that holds it (done or still in flight). */
export type IdempotencyClaimOutcome =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Done"; readonly fingerprint: string; readonly extractionId: string }
  | { readonly _tag: "InFlight"; readonly fingerprint: string }

/**
 * The port to `Idempotency-Key`s. A claim is one atomic step per key (a unique row in the database): of concurrent
 * claims exactly one is `Claimed`; a key past `expiresAt` counts as absent. `ExtractionStore.submit` marks it done.
 */
export class IdempotencyStore extends Context.Service<
  IdempotencyStore,
  {
    claim(request: IdempotencyClaimRequest): Effect.Effect<IdempotencyClaimOutcome, StorageError>
    /** Forgets a claim that is still held with this token and not done (the request was refused or failed). */
    release(claim: IdempotencyClaim): Effect.Effect<void, StorageError>
    /** Deletes every key expired at `now`; returns how many. */
    sweep(now: Timestamp): Effect.Effect<number, StorageError>
  }
>()("@legible/core/IdempotencyStore") {}

/** Every storage port but the job queue: what a storage adapter provides as a whole. */
export type StorageServices =
  | Directory
  | ApiKeyStore
  | SkillStore
  | CatalogStore
  | ExtractionStore
  | DocumentStore
  | QuotaStore
  | IdempotencyStore
  | WebhookStore

/** The port that matches the values read for a `catalog` field against the client's catalog (spec 2.5). */
export class CatalogMatcher extends Context.Service<
  CatalogMatcher,
  {
    /** Searches the field's catalog on its key columns with its method and threshold. */
    match(
      clientId: ClientId,
      field: SkillField,
      extracted: Readonly<Record<string, string>>
    ): Effect.Effect<CatalogValue, StorageError>
  }
>()("@legible/core/CatalogMatcher") {}

/** The port that turns a document's bytes into pages of words (text layer or OCR), locally. */
export class DocumentReader extends Context.Service<
  DocumentReader,
  {
    /** The type of a document from its bytes (magic numbers), or `UnsupportedType`. */
    identify(bytes: Uint8Array): Effect.Effect<string, DocumentError>
    read(bytes: Uint8Array, options?: ReadOptions): Effect.Effect<ReadDocument, DocumentError>
  }
>()("@legible/core/DocumentReader") {}

/** The port that turns a read document and a skill into literal field values (an LLM provider or local rules). */
export class FieldExtractor extends Context.Service<
  FieldExtractor,
  {
    /** Whether this extractor can serve `model` (its provider is configured). */
    supports(model: string): boolean
    extract(request: ExtractRequest): Effect.Effect<ExtractResponse, ExtractorError>
  }
>()("@legible/core/FieldExtractor") {}
