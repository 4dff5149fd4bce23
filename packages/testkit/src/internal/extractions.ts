import { type Errors, Extraction, ListQuery, Ports, StoredResult } from "@legible/core"
import { Clock, Effect } from "effect"
import { findActive } from "./apiKeys.js"
import * as Idempotency from "./idempotency.js"
import { conflict, internalId, next, notify, type State, userKey } from "./state.js"
import { recordEvent } from "./webhooks.js"

const scopeOf = (found: Ports.AuthenticatedKey): Ports.Scope => ({
  clientId: found.key.clientId,
  sandbox: found.key.tipo === "test"
})

const visible = (state: State, scope: Ports.Scope, id: string): Extraction.ExtractionRecord | undefined => {
  const record = state.extractions.get(id)
  return record !== undefined && record.clientId === scope.clientId && record.sandbox === scope.sandbox
    ? record
    : undefined
}

const SURROGATE = /[\uD800-\uDFFF]/

/**
 * Code point order, the SQL stores' `COLLATE "C"`. It differs from JavaScript's UTF-16 order only when a string
 * holds characters above U+FFFF, so those alone take the slow path.
 */
export const compareText = (a: string, b: string): number => {
  if (!SURROGATE.test(a) && !SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0
  const ca = Array.from(a, (c) => c.codePointAt(0)!)
  const cb = Array.from(b, (c) => c.codePointAt(0)!)
  for (let i = 0; i < Math.min(ca.length, cb.length); i++) if (ca[i] !== cb[i]) return ca[i]! - cb[i]!
  return ca.length - cb.length
}

/** The sort keys of each `sort_by`, most significant first (the SQL adapters' `ORDER BY`). */
const sortKeys: Record<ListQuery.SortBy, (r: Extraction.ExtractionRecord) => ReadonlyArray<string>> = {
  fecha_creacion: (r) => [r.createdAt, r.id],
  status: (r) => [r.status, r.createdAt, r.id],
  origin_name: (r) => [r.originName, r.id]
}

const matches =
  (filter: ListQuery.ExtractionFilter, search: string | undefined) => (r: Extraction.ExtractionRecord) => {
    if (!filter.includeArchived && r.archived) return false
    if (filter.statuses !== undefined && !filter.statuses.includes(r.status)) return false
    if (filter.skillId !== undefined && r.skillId !== filter.skillId) return false
    if (filter.skillSlug !== undefined && r.skillSlug !== filter.skillSlug) return false
    const day = r.createdAt.slice(0, 10)
    if (filter.startDate !== undefined && day < filter.startDate) return false
    if (filter.endDate !== undefined && day > filter.endDate) return false
    return search === undefined || ListQuery.fold(r.originName).includes(search)
  }

/** The extraction rows of one scope that pass `filter`, sorted and paged; `count` ignores the page. */
export const list = (state: State, scope: Ports.Scope, filter: ListQuery.ExtractionFilter): Ports.ExtractionPage => {
  const search = filter.search === undefined ? undefined : ListQuery.fold(filter.search)
  const keys = sortKeys[filter.sortBy]
  const direction = filter.sortOrder === "asc" ? 1 : -1
  const found = [...state.extractions.values()]
    .filter((r) => r.clientId === scope.clientId && r.sandbox === scope.sandbox)
    .filter(matches(filter, search))
    .sort((a, b) => {
      const ka = keys(a)
      const kb = keys(b)
      for (let i = 0; i < ka.length; i++) {
        const c = compareText(ka[i]!, kb[i]!)
        if (c !== 0) return c * direction
      }
      return 0
    })
  return { items: found.slice(filter.offset, filter.offset + filter.limit), count: found.length }
}

/** The actor recorded for a client's user: the directory's name and email when the user is known. */
const actor = (state: State, clientId: string, userId: string): Extraction.Actor => {
  const user = state.users.get(userKey(clientId, userId))
  return { id: userId, name: user?.name ?? "", email: user?.email ?? "" }
}

/**
 * The in-memory `ExtractionStore`: a submission writes the row, the document and a due job in one step and wakes
 * waiting workers; reads are scoped by client and sandbox; `switchStatus` is a compare-and-set.
 */
export const make = (state: State): Ports.ExtractionStore["Service"] =>
  Ports.ExtractionStore.of({
    submit: ({ record, document, maxAttempts, idempotency }) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.suspend((): Effect.Effect<void, Errors.StorageError | Errors.IdempotencyKeyInFlight> => {
          if (state.extractions.has(record.id)) return Effect.fail(conflict(`extraction ${record.id} already exists`))
          if (!state.clients.has(record.clientId)) {
            return Effect.fail(conflict(`extraction ${record.id} references unknown client ${record.clientId}`))
          }
          if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
            return Effect.fail(conflict(`extraction ${record.id}: maxAttempts must be a positive integer`))
          }
          const lost = idempotency === undefined ? undefined : Idempotency.complete(state, idempotency, record.id)
          if (lost !== undefined) return Effect.fail(lost)
          state.extractions.set(record.id, { ...record })
          state.documents.set(record.id, { bytes: Uint8Array.from(document), mimeType: record.mimeType })
          const seq = next(state)
          const id = internalId(state, "a")
          state.jobs.set(id, {
            id,
            extractionId: record.id,
            state: "queued",
            attempts: 0,
            maxAttempts,
            runAt: now,
            lockedBy: null,
            token: null,
            leaseUntil: null,
            lastError: null,
            seq
          })
          notify(state)
          return Effect.void
        })
      ),
    get: (scope, id) => Effect.sync(() => visible(state, scope, id)),
    // Serialized on each read here: the SQL stores keep the text written at the end of processing.
    readAs: (keyHash, id, view) =>
      Effect.sync(() => {
        const key = findActive(state, keyHash)
        if (key === undefined) return undefined
        const record = visible(state, scopeOf(key), id)
        if (record === undefined) return { key, found: undefined }
        const stored = record.result === null ? null : StoredResult.serialize(record.result)[view]
        return { key, found: { record: { ...record, result: null }, stored } }
      }),
    listAs: (keyHash, filter) =>
      Effect.sync(() => {
        const key = findActive(state, keyHash)
        return key === undefined ? undefined : { key, found: list(state, scopeOf(key), filter) }
      }),
    getForProcessing: (id) => Effect.sync(() => state.extractions.get(id)),
    list: (scope, filter) => Effect.sync(() => list(state, scope, filter)),
    switchStatus: (scope, id, expected, change) =>
      Effect.sync(() => {
        const record = visible(state, scope, id)
        if (record === undefined || record.status !== expected) return undefined
        const updated: Extraction.ExtractionRecord = {
          ...record,
          status: change.status,
          errorMessage: change.errorMessage,
          lastModification: change.lastModification,
          lastUser: actor(state, change.lastUserClientId, change.lastUserId)
        }
        state.extractions.set(id, updated)
        recordEvent(state, record, updated)
        return updated
      }),
    setArchived: (scope, id, archived, now) =>
      Effect.sync(() => {
        const record = visible(state, scope, id)
        if (record === undefined) return undefined
        const updated = { ...record, archived, lastModification: now }
        state.extractions.set(id, updated)
        return updated
      }),
    archiveBefore: (before) =>
      Effect.sync(() => {
        let archived = 0
        for (const record of state.extractions.values()) {
          if (record.archived || !Extraction.isFinal(record.status) || record.createdAt >= before) continue
          state.extractions.set(record.id, { ...record, archived: true })
          archived++
        }
        return archived
      })
  })

/** The in-memory `DocumentStore`: the document of an extraction visible in the scope. */
export const makeDocuments = (state: State): Ports.DocumentStore["Service"] =>
  Ports.DocumentStore.of({
    get: (scope, extractionId) =>
      Effect.sync(() => {
        const record = visible(state, scope, extractionId)
        const document = record === undefined ? undefined : state.documents.get(extractionId)
        if (record === undefined || document === undefined) return undefined
        return { bytes: Uint8Array.from(document.bytes), fileName: record.originName, mimeType: document.mimeType }
      })
  })
