/**
 * Renders a `timestamptz` column in core's `Timestamp` form (UTC, microseconds, `+00:00`) inside the database,
 * so both engines return identical strings whatever the session time zone.
 */
export const ts = (column: string, alias: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') AS ${alias}`

/** A bigint column (`@effect/sql-pg` and our PGlite client return `bigint`) as a JS number. */
export const toNumber = (value: bigint | number | string): number => Number(value)
