/** The handlers of the operator extensions: skills, catalogs, quotas (JWT) and archive (API key). */
import {
  Archive,
  Catalogs,
  Errors as CoreErrors,
  type Directory,
  Ports,
  Quotas,
  type Skill,
  Skills
} from "@legible/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "./Api.js"
import * as Errors from "./Errors.js"
import type { SkillFieldInput } from "./Extensions.js"
import { knownId } from "./Handlers.js"
import { CurrentCaller, CurrentUser } from "./Security.js"

/** Completes a field as written by a client with the defaults of the optional members. */
export const toSkillField = (input: SkillFieldInput): Skill.SkillField => ({
  name: input.name,
  order: input.order,
  type: input.type,
  isList: input.isList ?? false,
  description: input.description ?? "",
  aliases: input.aliases ?? [],
  ...(input.fields !== undefined ? { fields: input.fields.map(toSkillField) } : {}),
  ...(input.catalog !== undefined ? { catalog: input.catalog } : {})
})

const toDefinition = (body: {
  readonly name: string
  readonly instructions?: string
  readonly fields: ReadonlyArray<SkillFieldInput>
}): Skills.Definition => ({
  name: body.name,
  instructions: body.instructions ?? "",
  fields: body.fields.map(toSkillField)
})

const skillView = (skill: Skill.Skill) => ({
  id: skill.id,
  slug: skill.slug,
  name: skill.name,
  version: skill.version,
  instructions: skill.instructions,
  fields: skill.fields,
  created_at: skill.createdAt,
  updated_at: skill.updatedAt
})

const VERSION = /^[1-9]\d{0,8}$/

/**
 * Records the token's user (and its client) before a write that references the client: an operator may manage
 * skills and catalogs before ever creating a key.
 */
const recordUser = Effect.fnUntraced(function* (user: Directory.User) {
  yield* (yield* Ports.Directory).upsertUser(user)
})

/** The skill endpoints. */
export const skills = HttpApiBuilder.group(
  Api,
  "skills",
  Effect.fn(function* (handlers) {
    const services = yield* Effect.context<Ports.SkillStore | Ports.CatalogStore | Ports.Directory>()
    const run = <A, E, R extends Ports.SkillStore | Ports.CatalogStore | Ports.Directory>(
      effect: Effect.Effect<A, E, R>
    ) => effect.pipe(Effect.provideContext(services), Errors.respond)
    return handlers.handleAll({
      create: ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) =>
          run(Effect.andThen(recordUser(user), Skills.create(user.clientId, payload.slug, toDefinition(payload)))).pipe(
            Effect.map(skillView)
          )
        ),
      update: ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) =>
          run(Effect.andThen(recordUser(user), Skills.update(user.clientId, params.slug, toDefinition(payload)))).pipe(
            Effect.map(skillView)
          )
        ),
      list: () =>
        Effect.flatMap(CurrentUser, (user) =>
          run(Skills.list(user.clientId)).pipe(Effect.map((all) => ({ skills: all.map(skillView) })))
        ),
      read: ({ params, query }) =>
        Effect.flatMap(CurrentUser, (user) => {
          if (query.version !== undefined && !VERSION.test(query.version)) {
            return Effect.fail(new Errors.BadRequest({ error: "version must be a positive integer" }))
          }
          const version = query.version === undefined ? undefined : Number(query.version)
          return run(Skills.read(user.clientId, params.slug, version)).pipe(Effect.map(skillView))
        }),
      remove: ({ params }) =>
        Effect.flatMap(CurrentUser, (user) =>
          run(Skills.remove(user.clientId, params.slug)).pipe(Effect.as({ message: "skill deleted" }))
        )
    })
  })
)

const catalogNotFound = (id: string) => new CoreErrors.CatalogNotFound({ id })

/** The catalog endpoints. */
export const catalogs = HttpApiBuilder.group(
  Api,
  "catalogs",
  Effect.fn(function* (handlers) {
    const services = yield* Effect.context<Ports.CatalogStore | Ports.Directory>()
    const run = <A, E, R extends Ports.CatalogStore | Ports.Directory>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.provideContext(services), Errors.respond)
    return handlers.handleAll({
      create: ({ payload }) =>
        Effect.flatMap(CurrentUser, (user) =>
          run(Effect.andThen(recordUser(user), Catalogs.create(user.clientId, payload))).pipe(
            Effect.map((c) => ({ id: c.id, name: c.name, columns: c.columns, created_at: c.createdAt, records: 0 }))
          )
        ),
      list: () =>
        Effect.flatMap(CurrentUser, (user) =>
          run(Catalogs.list(user.clientId)).pipe(
            Effect.map((all) => ({
              catalogs: all.map(({ catalog: c, records }) => ({
                id: c.id,
                name: c.name,
                columns: c.columns,
                created_at: c.createdAt,
                records
              }))
            }))
          )
        ),
      importRecords: ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) =>
          run(
            knownId(params.catalog_id, catalogNotFound).pipe(
              Effect.flatMap((id) =>
                Catalogs.importRecords(
                  user.clientId,
                  id,
                  typeof payload === "string" ? { _tag: "Csv", text: payload } : { _tag: "Json", records: payload }
                )
              )
            )
          ).pipe(Effect.map((imported) => ({ imported })))
        ),
      remove: ({ params }) =>
        Effect.flatMap(CurrentUser, (user) =>
          run(
            knownId(params.catalog_id, catalogNotFound).pipe(Effect.flatMap((id) => Catalogs.remove(user.clientId, id)))
          ).pipe(Effect.as({ message: "catalog deleted" }))
        )
    })
  })
)

/** The quota endpoints. */
export const quotas = HttpApiBuilder.group(
  Api,
  "quotas",
  Effect.fn(function* (handlers) {
    const services = yield* Effect.context<Ports.QuotaStore | Ports.Directory>()
    const run = <A, E, R extends Ports.QuotaStore | Ports.Directory>(effect: Effect.Effect<A, E, R>) =>
      effect.pipe(Effect.provideContext(services), Errors.respond)
    return handlers.handleAll({
      set: ({ params, payload }) =>
        Effect.flatMap(CurrentUser, (user) => run(Quotas.set(user, params.client_id, payload))),
      get: ({ params }) =>
        Effect.flatMap(CurrentUser, (user) =>
          run(Quotas.get(user, params.client_id)).pipe(
            Effect.map(
              (quota) =>
                quota ?? {
                  client_id: params.client_id,
                  limit: null,
                  period: "month" as const,
                  period_start: null,
                  used: 0
                }
            )
          )
        )
    })
  })
)

/** The archive endpoints. */
export const archive = HttpApiBuilder.group(
  Api,
  "archive",
  Effect.fn(function* (handlers) {
    const services = yield* Effect.context<Ports.ExtractionStore>()
    const switchTo = (id: string, archived: boolean) =>
      Effect.flatMap(CurrentCaller, (caller) =>
        knownId(id, (bad) => new CoreErrors.ExtractionNotFound({ id: bad })).pipe(
          Effect.flatMap((known) => (archived ? Archive.archive(caller, known) : Archive.unarchive(caller, known))),
          Effect.provideContext(services),
          Errors.respond,
          Effect.map((extraction) => ({
            message: archived ? "extraction archived" : "extraction unarchived",
            extraction
          }))
        )
      )
    return handlers.handleAll({
      archive: ({ params }) => switchTo(params.extraction_id, true),
      unarchive: ({ params }) => switchTo(params.extraction_id, false)
    })
  })
)
