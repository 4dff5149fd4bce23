import { Effect, Schema } from "effect"
import type { Catalog } from "./Catalog.js"
import type { ClientId } from "./Directory.js"
import { InvalidRequest, SkillNotFound } from "./Errors.js"
import { CatalogStore, SkillStore } from "./Ports.js"
import { type Review, type Skill, type SkillField, validateFields } from "./Skill.js"
import * as Timestamp from "./Timestamp.js"
import { isUuid } from "./Uuid.js"

/** Longest accepted skill name, in characters. */
export const MAX_NAME = 200
/** Longest accepted instructions, in characters. */
export const MAX_INSTRUCTIONS = 20_000
/** Most fields a skill may define, counting sub-fields at every depth. */
export const MAX_FIELDS = 500
/** Deepest nesting of `object` sub-fields (a top-level field is depth 1). */
export const MAX_DEPTH = 5

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/

/** A skill's content as a client defines it: what `create`, `update` and `apply` store as a new version. */
export interface Definition {
  readonly name: string
  readonly instructions: string
  readonly fields: ReadonlyArray<SkillField>
  /** The review setting (extension): which fields must be present, confident and pass their checks. */
  readonly review?: Review | undefined
}

/** `create` of a slug the client already has (use `update` for a new version). */
export class SkillExists extends Schema.TaggedError<SkillExists>()("SkillExists", {
  slug: Schema.String
}) {}

const countFields = (fields: ReadonlyArray<SkillField>, depth: number): { count: number; depth: number } => {
  let count = 0
  let deepest = depth
  for (const f of fields) {
    count++
    if (f.fields !== undefined) {
      const inner = countFields(f.fields, depth + 1)
      count += inner.count
      deepest = Math.max(deepest, inner.depth)
    }
  }
  return { count, depth: deepest }
}

const catalogFields = (fields: ReadonlyArray<SkillField>, path = ""): Array<[string, SkillField]> =>
  fields.flatMap(
    (f): Array<[string, SkillField]> => [
      ...(f.catalog !== undefined ? [[`${path}${f.name}`, f] as [string, SkillField]] : []),
      ...(f.fields !== undefined ? catalogFields(f.fields, `${path}${f.name}.`) : [])
    ]
  )

/** The problems of a definition a schema cannot see: sizes, field rules (`Skill.validateFields`), catalog columns. */
export const problems = (
  definition: Definition,
  catalogs: ReadonlyMap<string, Catalog | undefined>
): ReadonlyArray<string> => {
  const found: Array<string> = []
  const name = definition.name.trim()
  if (name.length === 0) found.push("name is required")
  if (name.length > MAX_NAME) found.push(`name must be at most ${MAX_NAME} characters`)
  if (definition.instructions.length > MAX_INSTRUCTIONS) {
    found.push(`instructions must be at most ${MAX_INSTRUCTIONS} characters`)
  }
  if (definition.fields.length === 0) found.push("fields must not be empty")
  for (const name of definition.review?.required ?? []) {
    if (!definition.fields.some((f) => f.name === name)) found.push(`review requires "${name}", which is not a field`)
  }
  const size = countFields(definition.fields, 1)
  if (size.count > MAX_FIELDS) found.push(`a skill may define at most ${MAX_FIELDS} fields`)
  if (size.depth > MAX_DEPTH) found.push(`object fields may nest at most ${MAX_DEPTH} levels deep`)
  if (found.length > 0) return found
  found.push(...validateFields(definition.fields))
  for (const [where, field] of catalogFields(definition.fields)) {
    const config = field.catalog!
    const catalog = catalogs.get(config.catalogId)
    if (catalog === undefined) {
      found.push(`catalog field "${where}" references catalog ${config.catalogId}, which does not exist`)
      continue
    }
    const known = new Set<string>(catalog.columns)
    const unknown = [...config.keyColumns, ...config.outputColumns].filter((c) => !known.has(c))
    if (unknown.length > 0) {
      found.push(`catalog field "${where}" names unknown columns of "${catalog.name}": ${unknown.join(", ")}`)
    }
  }
  return found
}

/** Checks a slug and a definition against the client's catalogs; the `InvalidRequest` lists every problem. */
export const validate = Effect.fn("Skills.validate")(function* (
  clientId: ClientId,
  slug: string,
  definition: Definition
) {
  if (!SLUG.test(slug)) {
    return yield* new InvalidRequest({
      message: "slug must be 1 to 100 lower-case letters, digits and dashes, not starting or ending with a dash"
    })
  }
  const store = yield* CatalogStore
  const catalogs = new Map<string, Catalog | undefined>()
  for (const [, field] of catalogFields(definition.fields)) {
    const id = field.catalog!.catalogId
    // An id that is not a UUID names no catalog: it is not looked up (a SQL uuid column would refuse it).
    if (!catalogs.has(id)) catalogs.set(id, isUuid(id) ? yield* store.get(clientId, id) : undefined)
  }
  const found = problems(definition, catalogs)
  if (found.length > 0) return yield* new InvalidRequest({ message: found.join("; ") })
})

const put = Effect.fnUntraced(function* (clientId: ClientId, slug: string, definition: Definition) {
  yield* validate(clientId, slug, definition)
  return yield* (yield* SkillStore).put(
    {
      clientId,
      slug,
      name: definition.name.trim(),
      instructions: definition.instructions,
      fields: definition.fields,
      ...(definition.review === undefined ? {} : { review: definition.review })
    },
    yield* Timestamp.now
  )
})

/** Creates a skill (version 1); a slug the client already has is `SkillExists`. */
export const create = Effect.fn("Skills.create")(function* (clientId: ClientId, slug: string, definition: Definition) {
  if ((yield* (yield* SkillStore).findBySlug(clientId, slug)) !== undefined) return yield* new SkillExists({ slug })
  return yield* put(clientId, slug, definition)
})

/** Whether a string has the shape of a skill slug (anything else names no skill and is never looked up). */
export const isSlug = (slug: string): boolean => SLUG.test(slug)

/** Stores the next version of an existing skill; extractions keep the version they ran with. */
export const update = Effect.fn("Skills.update")(function* (clientId: ClientId, slug: string, definition: Definition) {
  if (!SLUG.test(slug) || (yield* (yield* SkillStore).findBySlug(clientId, slug)) === undefined) {
    return yield* new SkillNotFound({ skill: slug })
  }
  return yield* put(clientId, slug, definition)
})

/** Creates the skill or stores its next version (what a deployment script wants: `skills apply`). */
export const apply = Effect.fn("Skills.apply")(function* (clientId: ClientId, slug: string, definition: Definition) {
  return yield* put(clientId, slug, definition)
})

/** The client's skills, latest versions, by slug. */
export const list = Effect.fn("Skills.list")(function* (clientId: ClientId) {
  return yield* (yield* SkillStore).list(clientId)
})

/** The latest version of a skill, or the given one. */
export const read = Effect.fn("Skills.read")(function* (clientId: ClientId, slug: string, version?: number) {
  if (!SLUG.test(slug)) return yield* new SkillNotFound({ skill: slug })
  const store = yield* SkillStore
  const latest = yield* store.findBySlug(clientId, slug)
  if (latest === undefined) return yield* new SkillNotFound({ skill: slug })
  if (version === undefined || version === latest.version) return latest
  const found: Skill | undefined = yield* store.findById(clientId, latest.id, version)
  if (found === undefined) return yield* new SkillNotFound({ skill: `${slug}@${version}` })
  return found
})

/** Deletes a skill; its extractions keep their skill name and id. */
export const remove = Effect.fn("Skills.remove")(function* (clientId: ClientId, slug: string) {
  if (!SLUG.test(slug) || !(yield* (yield* SkillStore).remove(clientId, slug))) {
    return yield* new SkillNotFound({ skill: slug })
  }
})
