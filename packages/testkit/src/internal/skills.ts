import { IdGenerator, Ports, type Skill } from "@legible/core"
import { Effect } from "effect"
import { conflict, type SkillEntry, type State } from "./state.js"

const latest = (entry: SkillEntry): Skill.Skill => entry.versions[entry.versions.length - 1]!

const live = (state: State, clientId: string): Array<[string, SkillEntry]> =>
  [...state.skills.entries()].filter(([, e]) => !e.deleted && latest(e).clientId === clientId)

const bySlug = (state: State, clientId: string, slug: string): SkillEntry | undefined =>
  live(state, clientId).find(([, e]) => latest(e).slug === slug)?.[1]

/**
 * The in-memory `SkillStore`: a `put` of a live slug appends the next version under the same id; every version stays
 * readable by `findById(…, version)`; a removed skill is invisible and its slug free again.
 */
export const make = (state: State): Ports.SkillStore["Service"] =>
  Ports.SkillStore.of({
    put: (input, now) =>
      Effect.flatMap(IdGenerator.IdGenerator, (ids) =>
        Effect.suspend(() => {
          // Like the SQL store's upsert, every put draws an id, used only when the slug is new.
          const newId = ids.uuid()
          if (!state.clients.has(input.clientId)) {
            return Effect.fail(conflict(`skill ${input.slug} references unknown client ${input.clientId}`))
          }
          const content = {
            clientId: input.clientId,
            slug: input.slug,
            name: input.name,
            instructions: input.instructions,
            fields: input.fields,
            ...(input.review === undefined ? {} : { review: input.review }),
            updatedAt: now
          }
          const entry = bySlug(state, input.clientId, input.slug)
          if (entry !== undefined) {
            const previous = latest(entry)
            const skill: Skill.Skill = {
              ...content,
              id: previous.id,
              version: previous.version + 1,
              createdAt: previous.createdAt
            }
            entry.versions.push(skill)
            return Effect.succeed(skill)
          }
          const skill: Skill.Skill = { ...content, id: newId, version: 1, createdAt: now }
          if (state.skills.has(skill.id)) return Effect.fail(conflict(`skill ${skill.id} already exists`))
          state.skills.set(skill.id, { versions: [skill], deleted: false })
          return Effect.succeed(skill)
        })
      ),
    findBySlug: (clientId, slug) =>
      Effect.sync(() => {
        const entry = bySlug(state, clientId, slug)
        return entry === undefined ? undefined : latest(entry)
      }),
    findById: (clientId, id, version) =>
      Effect.sync(() => {
        const entry = state.skills.get(id)
        if (entry === undefined || entry.deleted || latest(entry).clientId !== clientId) return undefined
        return version === undefined ? latest(entry) : entry.versions.find((s) => s.version === version)
      }),
    list: (clientId) =>
      Effect.sync(() =>
        live(state, clientId)
          .map(([, e]) => latest(e))
          .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
      ),
    remove: (clientId, slug) =>
      Effect.sync(() => {
        const entry = bySlug(state, clientId, slug)
        if (entry === undefined) return false
        entry.deleted = true
        return true
      })
  })
