/** Keys: generation, hashing and previews (spec 2.1). */
export * as ApiKey from "./ApiKey.js"
/** Use cases of the key endpoints and `/v1` authentication. */
export * as ApiKeys from "./ApiKeys.js"
/** Retention and archiving of extractions (an extension of the spec). */
export * as Archive from "./Archive.js"
/** Catalogs and their records. */
export * as Catalog from "./Catalog.js"
/** Catalog matching, pure: normalization, identifier folding, scoring, decisions and the spec 2.5 value. */
export * as CatalogMatch from "./CatalogMatch.js"
/** The `CatalogMatcher` over the `CatalogStore` (indexed exact lookups, trigram candidates re-ranked in core). */
export * as CatalogMatching from "./CatalogMatching.js"
/** Use cases of catalog management: create, list, delete, import records from CSV or JSON (extensions). */
export * as Catalogs from "./Catalogs.js"
/** Checks a value must pass: tax ids and IBANs with their check digits, plausible dates, the document's sums. */
export * as Checks from "./Checks.js"
/** What the document's machine-readable codes state of a field's concept: the fact, and agreement with a value. */
export * as CodeFacts from "./CodeFacts.js"
/** How far to trust a value: a calibrated probability from its signals, the reasons, and the fit. */
export * as Confidence from "./Confidence.js"
/** Clients, users and roles. */
export * as Directory from "./Directory.js"
/** Documents as read, and why one could not be read. */
export * as Document from "./Document.js"
/** Edit distances of whole strings (optimal string alignment, Levenshtein) and the similarity ratio. */
export * as EditDistance from "./EditDistance.js"
/** Domain errors. */
export * as Errors from "./Errors.js"
/** Extraction resources, statuses and transitions (spec 2.2–2.7, 3.1). */
export * as Extraction from "./Extraction.js"
/** Use cases of the `/v1/extractions` endpoints. */
export * as Extractions from "./Extractions.js"
/** The literal values an extractor returns, and why an extraction attempt failed. */
export * as Extractor from "./Extractor.js"
/** Fields, value shapes and ordering (spec 2.4, 2.5, 4.5). */
export * as Field from "./Field.js"
/** `Idempotency-Key` on submissions: key parsing, claims, replays, the sweep of expired keys. */
export * as Idempotency from "./Idempotency.js"
/** The id source. */
export * as IdGenerator from "./IdGenerator.js"
/** The list query of spec 4.3. */
export * as ListQuery from "./ListQuery.js"
/** A least-recently-used cache bounded by the total size of its values. */
export * as Lru from "./Lru.js"
/** Month names and abbreviations in the seven languages, for reading and finding written dates. */
export * as Months from "./Months.js"
/** Page images of stored documents (extension): the `PageRenderer` port and its use cases. */
export * as PageImages from "./PageImages.js"
/** Every port: storage, queue, catalog matcher, document reader, field extractor, directory. */
export * as Ports from "./Ports.js"
/** The job handler: read, extract, match catalogs, ground, parse and assemble an extraction's result. */
export * as Processing from "./Processing.js"
/** Quota arithmetic. */
export * as Quota from "./Quota.js"
/** Use cases of quota management (`global_admin`, an extension of the spec). */
export * as Quotas from "./Quotas.js"
/** Retry backoff. */
export * as Retry from "./Retry.js"
/** Skills (habilidades). */
export * as Skill from "./Skill.js"
/** Use cases of skill management: create, new versions, list, read, delete (extensions). */
export * as Skills from "./Skills.js"
/** Results serialized once, ready to send, and the read bodies built around them. */
export * as StoredResult from "./StoredResult.js"
/** Timestamps. */
export * as Timestamp from "./Timestamp.js"
/** UUIDs as text: the schema and the guard every id check uses. */
export * as Uuid from "./Uuid.js"
/** Webhooks: events, Standard Webhooks signing, the retry schedule, endpoints and the outbox ports. */
export * as Webhook from "./Webhook.js"
/** The webhook dispatcher loop of the worker role. */
export * as WebhookDispatch from "./WebhookDispatch.js"
/** Use cases of the webhook endpoints (an extension): register, list, change, delete, rotate, log, redeliver. */
export * as Webhooks from "./Webhooks.js"
/** The job worker loop. */
export * as Worker from "./Worker.js"
