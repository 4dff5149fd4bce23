import { Schema } from "effect"

/**
 * A UUID as text: the 8-4-4-4-12 hexadecimal shape, in either case. Every id legible issues is one, and an id that
 * is not one names nothing (it must not reach a SQL `uuid` column, which would refuse it).
 */
export const Uuid = Schema.String.check(Schema.isGUID())
export type Uuid = typeof Uuid.Type

/** Whether a value is a UUID (`Uuid`). */
export const isUuid: (value: unknown) => value is Uuid = Schema.is(Uuid)
