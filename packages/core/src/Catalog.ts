import { Schema } from "effect"
import { ClientId } from "./Directory.js"
import { Timestamp } from "./Timestamp.js"

/** A client's private catalog: named columns of text. */
export const Catalog = Schema.Struct({
  id: Schema.String,
  clientId: ClientId,
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  columns: Schema.NonEmptyArray(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  createdAt: Timestamp
})
export type Catalog = typeof Catalog.Type

/** A record of a catalog: a UUID and a value per column. */
export const CatalogRecord = Schema.Struct({
  id: Schema.String,
  values: Schema.Record(Schema.String, Schema.String)
})
export type CatalogRecord = typeof CatalogRecord.Type
