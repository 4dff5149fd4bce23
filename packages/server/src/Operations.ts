/**
 * The operator commands as effects over the core use cases and ports (the CLI and the quick start call them):
 * clients, skills from JSON, catalog imports from CSV or JSON, API keys.
 */
import { Extensions } from "@legible/adapters-http"
import { ApiKeys, type Catalog, Catalogs, type Directory, Errors, Ports, type Skill, Skills, Uuid } from "@legible/core"
import { Effect, Schema } from "effect"

const invalid = (message: string) => new Errors.InvalidRequest({ message })

/** The client with this id, created (named `name`, default its id) when missing; an existing one is kept as is. */
export const ensureClient = Effect.fn("Operations.ensureClient")(function* (id: string, name?: string) {
  const directory = yield* Ports.Directory
  const found = yield* directory.getClient(id)
  if (found !== undefined) return found
  return yield* directory.upsertClient({ id, name: name ?? id })
})

/** A skill file: one skill (`slug`, `name`, `instructions`, `fields` as in `POST /api/skills`) or an array of them. */
export const SkillFile = Schema.Union([Extensions.CreateSkillBody, Schema.Array(Extensions.CreateSkillBody)])

const decodeSkillFile = Schema.decodeUnknownEffect(SkillFile)

const parseJson = (text: string, what: string) =>
  Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: (error) => invalid(`${what} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  })

/** Replaces a catalog field's `catalogId` that names a catalog of the client (not a UUID) by that catalog's id. */
const resolveCatalogs = (
  fields: ReadonlyArray<Skill.SkillField>,
  catalogs: ReadonlyArray<Catalog.Catalog>
): ReadonlyArray<Skill.SkillField> =>
  fields.map((field) => {
    const nested = field.fields === undefined ? {} : { fields: resolveCatalogs(field.fields, catalogs) }
    if (field.catalog === undefined || Uuid.isUuid(field.catalog.catalogId)) return { ...field, ...nested }
    const byName = catalogs.find((c) => c.name === field.catalog?.catalogId)
    return {
      ...field,
      ...nested,
      catalog: { ...field.catalog, catalogId: byName?.id ?? field.catalog.catalogId }
    }
  })

/**
 * Applies a skill file for a client: each skill is created, or stored as its next version. A catalog field may name
 * its catalog by name instead of id (`"catalogId": "Proveedores"`).
 */
export const applySkills = Effect.fn("Operations.applySkills")(function* (clientId: string, text: string) {
  const json = yield* parseJson(text, "the skill file")
  const decoded = yield* decodeSkillFile(json).pipe(
    Effect.mapError((error) => invalid(`the skill file does not describe skills: ${error.message}`))
  )
  const bodies = Array.isArray(decoded) ? decoded : [decoded]
  yield* ensureClient(clientId)
  const catalogs = (yield* Catalogs.list(clientId)).map((c) => c.catalog)
  const applied: Array<Skill.Skill> = []
  for (const body of bodies as ReadonlyArray<typeof Extensions.CreateSkillBody.Type>) {
    const definition = Extensions.toDefinition(body)
    applied.push(
      yield* Skills.apply(clientId, body.slug, {
        ...definition,
        fields: resolveCatalogs(definition.fields, catalogs)
      })
    )
  }
  return applied
})

/** How import records are written. */
export type RecordFormat = "csv" | "json"

/** The format of a records file: by extension, else by its first character. */
export const formatOf = (path: string, text: string): RecordFormat => {
  const lower = path.toLowerCase()
  if (lower.endsWith(".csv")) return "csv"
  if (lower.endsWith(".json")) return "json"
  const first = text.trimStart()[0]
  return first === "[" || first === "{" ? "json" : "csv"
}

const jsonRecords = Effect.fnUntraced(function* (text: string) {
  const json = yield* parseJson(text, "the records file")
  const list = Array.isArray(json) ? json : typeof json === "object" && json !== null ? [json] : undefined
  if (list === undefined || list.some((r) => typeof r !== "object" || r === null || Array.isArray(r))) {
    return yield* invalid("a JSON records file holds an object or an array of objects (column → value)")
  }
  return list as ReadonlyArray<Readonly<Record<string, unknown>>>
})

const columnsOf = Effect.fnUntraced(function* (format: RecordFormat, text: string) {
  if (format === "json") {
    const names = new Set<string>()
    for (const record of yield* jsonRecords(text)) for (const key of Object.keys(record)) names.add(key)
    names.delete("id")
    return [...names]
  }
  const rows = Catalogs.parseCsv(text)
  if (rows._tag === "Failure") return yield* rows.failure
  return (rows.success[0] ?? []).map((h) => h.trim()).filter((h) => h !== "id")
})

/** The outcome of an import. */
export interface Imported {
  readonly catalog: Catalog.Catalog
  readonly created: boolean
  readonly imported: number
}

/**
 * Imports records into the client's catalog named `name`, creating it (columns from the CSV header or the JSON
 * keys, or `columns` when given) when missing. Records with an `id` replace the record with that id.
 */
export const importCatalog = Effect.fn("Operations.importCatalog")(function* (options: {
  readonly clientId: string
  readonly name: string
  readonly text: string
  readonly format: RecordFormat
  readonly columns?: ReadonlyArray<string> | undefined
}) {
  yield* ensureClient(options.clientId)
  const existing = (yield* Catalogs.list(options.clientId)).find((c) => c.catalog.name === options.name.trim())
  let catalog = existing?.catalog
  if (catalog === undefined) {
    const columns = options.columns ?? (yield* columnsOf(options.format, options.text))
    catalog = yield* Catalogs.create(options.clientId, { name: options.name, columns })
  }
  const imported = yield* Catalogs.importRecords(
    options.clientId,
    catalog.id,
    options.format === "csv"
      ? { _tag: "Csv", text: options.text }
      : { _tag: "Json", records: yield* jsonRecords(options.text) }
  )
  return { catalog, created: existing === undefined, imported } satisfies Imported
})

/** Who a key is created for: the user (recorded in the directory) and the key's name and type. */
export interface KeyRequest {
  readonly user: Directory.User
  readonly nombre: string
  readonly tipo: "live" | "test"
}

/** Creates an API key for a user of a client (both recorded when new); the full key is in the result only. */
export const createKey = Effect.fn("Operations.createKey")(function* (request: KeyRequest) {
  yield* ensureClient(request.user.clientId)
  return yield* ApiKeys.create(request.user, { nombre: request.nombre, tipo: request.tipo })
})

/** The services the operations need. */
export type Services = Ports.StorageServices
