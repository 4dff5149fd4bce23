/** The handlers of the operator extensions: skills, catalogs, quotas (JWT) and archive (API key). */
import {
  Archive,
  type Catalog,
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
import { Api } from "../Api.js"
import * as Errors from "../Errors.js"
import { toDefinition } from "../Extensions.js"
import { knownId, runner } from "./handling.js"

const skillView = (skill: Skill.Skill) => ({
  id: skill.id,
  slug: skill.slug,
  name: skill.name,
  version: skill.version,
  instructions: skill.instructions,
  fields: skill.fields,
  ...(skill.review === undefined ? {} : { review: skill.review }),
  created_at: skill.createdAt,
  updated_at: skill.updatedAt
})

const VERSION = /^[1-9]\d{0,8}$/

/**
 * Records the token's user (and its client) before a write that references the client: an operator may manage
 * skills and catalogs before ever creating a key.
 */
export const recordUser = Effect.fnUntraced(function* (user: Directory.User) {
  yield* (yield* Ports.Directory).upsertUser(user)
})

/** The skill endpoints. */
export const skills = HttpApiBuilder.group(
  Api,
  "skills",
  Effect.fn(function* (handlers) {
    const { asUser } = yield* runner<Ports.SkillStore | Ports.CatalogStore | Ports.Directory>()
    return handlers.handleAll({
      create: ({ payload }) =>
        asUser((user) =>
          Effect.andThen(recordUser(user), Skills.create(user.clientId, payload.slug, toDefinition(payload)))
        ).pipe(Effect.map(skillView)),
      update: ({ params, payload }) =>
        asUser((user) =>
          Effect.andThen(recordUser(user), Skills.update(user.clientId, params.slug, toDefinition(payload)))
        ).pipe(Effect.map(skillView)),
      list: () =>
        asUser((user) => Skills.list(user.clientId)).pipe(Effect.map((all) => ({ skills: all.map(skillView) }))),
      read: ({ params, query }) => {
        if (query.version !== undefined && !VERSION.test(query.version)) {
          return Effect.fail(new Errors.BadRequest({ error: "version must be a positive integer" }))
        }
        const version = query.version === undefined ? undefined : Number(query.version)
        return asUser((user) => Skills.read(user.clientId, params.slug, version)).pipe(Effect.map(skillView))
      },
      remove: ({ params }) =>
        asUser((user) => Skills.remove(user.clientId, params.slug)).pipe(Effect.as({ message: "skill deleted" }))
    })
  })
)

const catalogNotFound = (id: string) => new CoreErrors.CatalogNotFound({ id })

const catalogView = (catalog: Catalog.Catalog, records: number) => ({
  id: catalog.id,
  name: catalog.name,
  columns: catalog.columns,
  created_at: catalog.createdAt,
  records
})

/** The catalog endpoints. */
export const catalogs = HttpApiBuilder.group(
  Api,
  "catalogs",
  Effect.fn(function* (handlers) {
    const { asUser } = yield* runner<Ports.CatalogStore | Ports.Directory>()
    return handlers.handleAll({
      create: ({ payload }) =>
        asUser((user) => Effect.andThen(recordUser(user), Catalogs.create(user.clientId, payload))).pipe(
          Effect.map((catalog) => catalogView(catalog, 0))
        ),
      list: () =>
        asUser((user) => Catalogs.list(user.clientId)).pipe(
          Effect.map((all) => ({ catalogs: all.map(({ catalog, records }) => catalogView(catalog, records)) }))
        ),
      importRecords: ({ params, payload }) =>
        asUser((user) =>
          knownId(params.catalog_id, catalogNotFound).pipe(
            Effect.flatMap((id) =>
              Catalogs.importRecords(
                user.clientId,
                id,
                typeof payload === "string" ? { _tag: "Csv", text: payload } : { _tag: "Json", records: payload }
              )
            )
          )
        ).pipe(Effect.map((imported) => ({ imported }))),
      remove: ({ params }) =>
        asUser((user) =>
          knownId(params.catalog_id, catalogNotFound).pipe(Effect.flatMap((id) => Catalogs.remove(user.clientId, id)))
        ).pipe(Effect.as({ message: "catalog deleted" }))
    })
  })
)

/** The quota endpoints. */
export const quotas = HttpApiBuilder.group(
  Api,
  "quotas",
  Effect.fn(function* (handlers) {
    const { asUser } = yield* runner<Ports.QuotaStore | Ports.Directory>()
    return handlers.handleAll({
      set: ({ params, payload }) => asUser((user) => Quotas.set(user, params.client_id, payload)),
      get: ({ params }) =>
        asUser((user) => Quotas.get(user, params.client_id)).pipe(
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
    })
  })
)

/** The archive endpoints. */
export const archive = HttpApiBuilder.group(
  Api,
  "archive",
  Effect.fn(function* (handlers) {
    const { asCaller } = yield* runner<Ports.ExtractionStore>()
    const switchTo = (id: string, archived: boolean) =>
      asCaller((caller) =>
        knownId(id, (bad) => new CoreErrors.ExtractionNotFound({ id: bad })).pipe(
          Effect.flatMap((known) => (archived ? Archive.archive(caller, known) : Archive.unarchive(caller, known)))
        )
      ).pipe(
        Effect.map((extraction) => ({
          message: archived ? "extraction archived" : "extraction unarchived",
          extraction
        }))
      )
    return handlers.handleAll({
      archive: ({ params }) => switchTo(params.extraction_id, true),
      unarchive: ({ params }) => switchTo(params.extraction_id, false)
    })
  })
)
