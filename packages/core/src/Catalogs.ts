import { Effect, Result } from "effect"
import type { Catalog, CatalogRecord } from "./Catalog.js"
import type { ClientId } from "./Directory.js"
import { CatalogNotFound, InvalidRequest } from "./Errors.js"
import { IdGenerator } from "./IdGenerator.js"
import { CatalogStore } from "./Ports.js"
import * as Timestamp from "./Timestamp.js"
import { isUuid } from "./Uuid.js"

/** Longest accepted catalog or column name, in characters. */
export const MAX_NAME = 200
/** Most columns a catalog may have. */
export const MAX_COLUMNS = 100
/** Most records one import may carry. */
export const MAX_RECORDS = 100_000

const bad = (message: string) => Result.fail(new InvalidRequest({ message }))

/**
 * Parses CSV text (RFC 4180): fields separated by commas, records by CRLF or LF, double-quoted fields may hold
 * commas, line breaks and `""` for a quote. A leading byte-order mark is skipped, as is one final line break and any
 * blank line. A quote inside an unquoted field, text after a closing quote and an unterminated quote are errors.
 */
export const parseCsv = (input: string): Result.Result<Array<Array<string>>, InvalidRequest> => {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const n = text.length
  const rows: Array<Array<string>> = []
  let row: Array<string> = []
  let quotedRow = false
  let line = 1
  let i = 0
  const isBreak = (at: number) => text[at] === "\n" || (text[at] === "\r" && text[at + 1] === "\n")
  // A line with nothing on it is skipped; a line holding one quoted empty field is a record.
  const endRow = () => {
    if (!(row.length === 1 && row[0] === "" && !quotedRow)) rows.push(row)
    row = []
    quotedRow = false
  }
  while (true) {
    let value = ""
    if (text[i] === '"') {
      const opened = line
      quotedRow = true
      i++
      while (true) {
        const quote = text.indexOf('"', i)
        if (quote === -1) return bad(`unterminated quoted field opened on line ${opened}`)
        const chunk = text.slice(i, quote)
        value += chunk
        for (const c of chunk) if (c === "\n") line++
        if (text[quote + 1] === '"') {
          value += '"'
          i = quote + 2
          continue
        }
        i = quote + 1
        break
      }
      if (i < n && text[i] !== "," && !isBreak(i)) return bad(`unexpected text after a closing quote on line ${line}`)
    } else {
      let j = i
      while (j < n && text[j] !== "," && !isBreak(j)) {
        if (text[j] === '"') return bad(`a quote inside an unquoted field on line ${line} (quote the whole field)`)
        j++
      }
      value = text.slice(i, j)
      i = j
    }
    row.push(value)
    if (i >= n) break
    if (text[i] === ",") {
      i++
      continue
    }
    i += text[i] === "\r" ? 2 : 1
    line++
    endRow()
    if (i >= n) return Result.succeed(rows)
  }
  endRow()
  return Result.succeed(rows)
}

/** A record as imported: the optional `id` and a value per column (`null` or absent: no value). */
export type RecordInput = Readonly<Record<string, unknown>>

const toRecords = (
  catalog: Catalog,
  inputs: ReadonlyArray<RecordInput>,
  newId: () => string
): Result.Result<Array<CatalogRecord>, InvalidRequest> => {
  if (inputs.length > MAX_RECORDS) return bad(`an import may carry at most ${MAX_RECORDS} records`)
  const columns = new Set<string>(catalog.columns)
  const records: Array<CatalogRecord> = []
  for (const [index, input] of inputs.entries()) {
    const where = `record ${index + 1}`
    const values: Record<string, string> = {}
    let id: string | undefined
    for (const [key, value] of Object.entries(input)) {
      if (key === "id") {
        if (value === undefined || value === null || value === "") continue
        if (typeof value !== "string" || !isUuid(value)) return bad(`${where}: id must be a UUID`)
        id = value.toLowerCase()
        continue
      }
      if (!columns.has(key)) return bad(`${where}: "${key}" is not a column of catalog "${catalog.name}"`)
      if (value === undefined || value === null) continue
      if (typeof value === "string") values[key] = value
      else if (typeof value === "number" && Number.isFinite(value)) values[key] = String(value)
      else return bad(`${where}: the value of "${key}" must be a string or a number`)
    }
    records.push({ id: id ?? newId(), values })
  }
  return Result.succeed(records)
}

/** Turns parsed CSV rows into record inputs: the first row names the columns (and optionally `id`). */
export const csvToInputs = (
  rows: ReadonlyArray<ReadonlyArray<string>>
): Result.Result<Array<RecordInput>, InvalidRequest> => {
  const [header, ...data] = rows
  if (header === undefined) return bad("the CSV has no header row")
  const names = header.map((h) => h.trim())
  if (names.some((h) => h.length === 0)) return bad("the CSV header has an empty column name")
  const duplicate = names.find((h, i) => names.indexOf(h) !== i)
  if (duplicate !== undefined) return bad(`the CSV header names "${duplicate}" twice`)
  const inputs: Array<RecordInput> = []
  for (const [index, row] of data.entries()) {
    if (row.length !== names.length) {
      return bad(`CSV record ${index + 1} has ${row.length} fields; the header has ${names.length}`)
    }
    inputs.push(Object.fromEntries(names.map((name, i) => [name, row[i]])))
  }
  return Result.succeed(inputs)
}

/** What a client sends to create a catalog. */
export interface Definition {
  readonly name: string
  readonly columns: ReadonlyArray<string>
}

const validateDefinition = (definition: Definition): Result.Result<Definition, InvalidRequest> => {
  const name = definition.name.trim()
  if (name.length === 0 || name.length > MAX_NAME) return bad(`name must be 1 to ${MAX_NAME} characters`)
  const columns = definition.columns.map((c) => c.trim())
  if (columns.length === 0 || columns.length > MAX_COLUMNS) return bad(`columns must hold 1 to ${MAX_COLUMNS} names`)
  for (const column of columns) {
    if (column.length === 0 || column.length > MAX_NAME) return bad(`column names must be 1 to ${MAX_NAME} characters`)
    if (column === "id") return bad(`"id" is reserved for record ids and cannot be a column`)
  }
  const duplicate = columns.find((c, i) => columns.indexOf(c) !== i)
  if (duplicate !== undefined) return bad(`column "${duplicate}" is named twice`)
  return Result.succeed({ name, columns })
}

/** Creates an empty catalog of the client. */
export const create = Effect.fn("Catalogs.create")(function* (clientId: ClientId, definition: Definition) {
  const valid = validateDefinition(definition)
  if (Result.isFailure(valid)) return yield* valid.failure
  const [first, ...rest] = valid.success.columns
  const catalog: Catalog = {
    id: (yield* IdGenerator).uuid(),
    clientId,
    name: valid.success.name,
    columns: [first!, ...rest],
    createdAt: yield* Timestamp.now
  }
  yield* (yield* CatalogStore).create(catalog)
  return catalog
})

/** The client's catalogs with their record counts, oldest first. */
export const list = Effect.fn("Catalogs.list")(function* (clientId: ClientId) {
  const store = yield* CatalogStore
  const catalogs = yield* store.list(clientId)
  const out: Array<{ readonly catalog: Catalog; readonly records: number }> = []
  for (const catalog of catalogs) out.push({ catalog, records: yield* store.countRecords(clientId, catalog.id) })
  return out
})

/** Deletes a catalog and its records. */
export const remove = Effect.fn("Catalogs.remove")(function* (clientId: ClientId, id: string) {
  if (!(yield* (yield* CatalogStore).remove(clientId, id))) return yield* new CatalogNotFound({ id })
})

/** Records to import: CSV text (header row = columns, optional `id` column) or objects (column → value, `id`). */
export type Import =
  | { readonly _tag: "Csv"; readonly text: string }
  | { readonly _tag: "Json"; readonly records: ReadonlyArray<RecordInput> }

/** Inserts or replaces records of a catalog by id (records without an id get a new one); returns how many. */
export const importRecords = Effect.fn("Catalogs.importRecords")(function* (
  clientId: ClientId,
  catalogId: string,
  input: Import
) {
  const store = yield* CatalogStore
  const catalog = yield* store.get(clientId, catalogId)
  if (catalog === undefined) return yield* new CatalogNotFound({ id: catalogId })
  let inputs: ReadonlyArray<RecordInput>
  if (input._tag === "Csv") {
    const rows = parseCsv(input.text)
    if (Result.isFailure(rows)) return yield* rows.failure
    const parsed = csvToInputs(rows.success)
    if (Result.isFailure(parsed)) return yield* parsed.failure
    inputs = parsed.success
  } else inputs = input.records
  const ids = yield* IdGenerator
  const records = toRecords(catalog, inputs, () => ids.uuid())
  if (Result.isFailure(records)) return yield* records.failure
  if (records.success.length === 0) return 0
  return yield* store.upsertRecords(clientId, catalogId, records.success)
})
