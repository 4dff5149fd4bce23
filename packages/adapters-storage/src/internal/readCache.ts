/**
 * Rows of declared reads kept in process, exactly as fresh as the database. Only for an engine whose every statement
 * goes through this process's client (PGlite: one process owns the data directory): the client counts a generation
 * up before every statement that is not a declared read (writes, transaction control, DDL, anything), and a kept
 * result answers only while the generation is still the one it was read at. A read run inside a transaction is
 * never kept (it may see uncommitted rows), and neither is one that another statement overlapped.
 *
 * Stores opt in per statement (`ReadCache.read`); without a cache in context (PostgreSQL, where other processes
 * write too) the statement simply runs. Memory is bounded by entries and by the characters of their text values,
 * and an entry is dropped after `maxAgeMillis` whatever the generation.
 */
import { Clock, Context, Effect } from "effect"
import type { SqlError } from "effect/sql/SqlError"
import type { Statement } from "effect/sql/Statement"

/** The service stores use to run a read that may be answered from memory. */
export interface ReadCache {
  /** Runs `statement`, or answers the rows it gave when no other statement has run since. */
  readonly read: <A>(statement: Statement<A>) => Effect.Effect<ReadonlyArray<A>, SqlError>
}

/** By default every read runs (no engine-owned cache in context). */
export const ReadCache = Context.Reference<ReadCache>("@legible/adapters-storage/ReadCache", {
  defaultValue: () => ({ read: (statement) => statement })
})

/** True while a declared read's statement runs: the client does not count it as a change. */
export const DeclaredRead = Context.Reference<boolean>("@legible/adapters-storage/ReadCache/DeclaredRead", {
  defaultValue: () => false
})

/** Limits of a cache. */
export interface Options {
  readonly maxEntries: number
  /** The characters of the kept rows' text values, summed (the stored results are text). */
  readonly maxChars: number
  readonly maxAgeMillis: number
  /** Whether the session is inside a transaction now. */
  readonly inTransaction: () => boolean
}

/** Counters for tests and measurements. */
export interface Stats {
  readonly hits: number
  readonly misses: number
  /** Statements that were not declared reads, each of which made every kept entry stale. */
  readonly changes: number
  readonly entries: number
  readonly chars: number
}

/** A cache and the hook its client calls before each statement. */
export interface Cache extends ReadCache {
  /** Called by the client before running a statement that is not a declared read. */
  readonly changed: () => void
  readonly stats: () => Stats
}

interface Entry {
  readonly generation: number
  readonly at: number
  readonly rows: ReadonlyArray<unknown>
  readonly chars: number
}

const keyOf = (sql: string, params: ReadonlyArray<unknown>): string =>
  `${sql}\u0000${JSON.stringify(params, (_, value) => (typeof value === "bigint" ? `${value}n` : value))}`

const charsOf = (rows: ReadonlyArray<unknown>): number => {
  let chars = 0
  for (const row of rows) {
    chars += 16
    if (typeof row !== "object" || row === null) continue
    for (const value of Object.values(row)) if (typeof value === "string") chars += value.length
  }
  return chars
}

/** A cache with these limits. */
export const make = (options: Options): Cache => {
  let generation = 0
  // Insertion order is recency: a hit moves its entry to the end, eviction takes the first.
  const entries = new Map<string, Entry>()
  let chars = 0
  let hits = 0
  let misses = 0

  const drop = (key: string, entry: Entry) => {
    entries.delete(key)
    chars -= entry.chars
  }

  const keep = (key: string, entry: Entry) => {
    const previous = entries.get(key)
    if (previous !== undefined) drop(key, previous)
    if (entry.chars > options.maxChars) return
    entries.set(key, entry)
    chars += entry.chars
    for (const [oldestKey, oldest] of entries) {
      if (entries.size <= options.maxEntries && chars <= options.maxChars) break
      drop(oldestKey, oldest)
    }
  }

  const read = <A>(statement: Statement<A>): Effect.Effect<ReadonlyArray<A>, SqlError> =>
    Clock.clockWith((clock) => {
      const [sql, params] = statement.compile()
      const key = keyOf(sql, params)
      const now = clock.currentTimeMillisUnsafe()
      const found = entries.get(key)
      if (found !== undefined) {
        if (found.generation === generation && now - found.at < options.maxAgeMillis) {
          hits++
          entries.delete(key)
          entries.set(key, found)
          return Effect.succeed(found.rows as ReadonlyArray<A>)
        }
        drop(key, found)
      }
      misses++
      const before = generation
      return Effect.map(Effect.provideService(statement, DeclaredRead, true), (rows) => {
        if (generation === before && !options.inTransaction()) {
          keep(key, { generation: before, at: now, rows, chars: charsOf(rows) })
        }
        return rows
      })
    })

  return {
    read,
    changed: () => {
      generation++
    },
    stats: () => ({ hits, misses, changes: generation, entries: entries.size, chars })
  }
}
