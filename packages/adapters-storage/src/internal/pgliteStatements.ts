/**
 * Named prepared statements over PGlite's wire protocol. PGlite's own `query` makes six protocol exchanges (parse,
 * describe, bind, describe, execute, sync) and parses and plans the text every time; here a statement is parsed and
 * described once per distinct text and parameter types, then each run is one exchange: bind, execute, sync.
 *
 * Only plain DML and queries are kept (`cacheable`); anything else (DDL, `SET`, …) empties the cache, so a kept
 * statement never outlives a change of the tables it was planned on. The cache holds at most `capacity` statements,
 * the least recently used ones closed in the backend with the next exchange.
 */
import { type messages, type PGlite, parse, protocol, type Results, type RowMode } from "@electric-sql/pglite"

interface Prepared {
  readonly name: string
  /** The parameter types the backend inferred (or was given), for PGlite's serializers. */
  readonly paramTypes: ReadonlyArray<number>
  /** The statement's row description (empty for a statement that returns no rows). */
  readonly description: ReadonlyArray<messages.BackendMessage>
}

/** The statements of one PGlite session; every method must run while the caller holds the session. */
export interface Statements {
  /** Runs `text`: from the cache, or parsed, described and kept first. Fails with PGlite's `DatabaseError`. */
  readonly run: (
    text: string,
    params: ReadonlyArray<unknown>,
    paramTypes: ReadonlyArray<number> | undefined,
    rowMode: RowMode
  ) => Promise<Results>
  /** Forgets every kept statement (closed in the backend with the next exchange). */
  readonly invalidate: () => void
  /** How many statements are kept. */
  readonly size: () => number
}

/**
 * The statements worth keeping: queries (a union may open with a parenthesis) and DML, whose plans the backend
 * revalidates on its own.
 */
export const cacheable = (text: string): boolean => /^[\s(]*(select|insert|update|delete|with|values)\b/i.test(text)

/** Transaction control, which neither is kept nor changes what a kept statement means. */
export const transactionControl = (text: string): boolean =>
  /^\s*(begin|start|commit|end|rollback|savepoint|release|abort)\b/i.test(text)

/** Statements over `db`, rows parsed with `parsers` (PGlite's own merged with the caller's), at most `capacity`. */
export const make = (db: PGlite, parsers: Record<number, (value: string) => unknown>, capacity: number): Statements => {
  // Insertion order is recency: a hit moves its statement to the end, eviction takes the first.
  const kept = new Map<string, Prepared>()
  let pendingCloses: Array<Uint8Array> = []
  let counter = 0

  const close = (prepared: Prepared) => {
    pendingCloses.push(protocol.serialize.close({ type: "S", name: prepared.name }))
  }

  // Closes go first in an exchange: a failure later in it skips the rest until Sync, never them.
  // `syncToFs` after the run only, as PGlite's `query` does once per statement.
  const exchange = (parts: ReadonlyArray<Uint8Array>, syncToFs: boolean) => {
    const closes = pendingCloses
    pendingCloses = []
    return db.execProtocolStream(Buffer.concat([...closes, ...parts, protocol.serialize.sync()]), { syncToFs })
  }

  const prepare = async (key: string, text: string, paramTypes: ReadonlyArray<number> | undefined) => {
    const name = `legible_${++counter}`
    const described = await exchange(
      [
        protocol.serialize.parse({ name, text, types: paramTypes === undefined ? [] : [...paramTypes] }),
        protocol.serialize.describe({ type: "S", name })
      ],
      false
    )
    const prepared: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(described),
      description: described.filter((message) => message.name === "rowDescription")
    }
    kept.set(key, prepared)
    if (kept.size > capacity) {
      const [oldestKey, oldest] = kept.entries().next().value ?? []
      if (oldestKey !== undefined && oldest !== undefined) {
        kept.delete(oldestKey)
        close(oldest)
      }
    }
    return prepared
  }

  const serialize = (params: ReadonlyArray<unknown>, types: ReadonlyArray<number>) =>
    params.map((param, i) => {
      if (param === null || param === undefined) return null
      const serializer = db.serializers[types[i] ?? 0]
      return serializer === undefined ? String(param) : serializer(param)
    })

  const run: Statements["run"] = async (text, params, paramTypes, rowMode) => {
    const key = paramTypes === undefined ? text : `${paramTypes.join(",")}:${text}`
    let prepared = kept.get(key)
    if (prepared === undefined) {
      prepared = await prepare(key, text, paramTypes)
    } else {
      kept.delete(key)
      kept.set(key, prepared)
    }
    const messages = await exchange(
      [
        protocol.serialize.bind({ statement: prepared.name, values: serialize(params, prepared.paramTypes) }),
        protocol.serialize.execute({})
      ],
      true
    )
    const [result] = parse.parseResults([...prepared.description, ...messages], parsers, { rowMode })
    return result ?? { rows: [], fields: [], affectedRows: 0 }
  }

  const invalidate = () => {
    for (const prepared of kept.values()) close(prepared)
    kept.clear()
  }

  return { run, invalidate, size: () => kept.size }
}
