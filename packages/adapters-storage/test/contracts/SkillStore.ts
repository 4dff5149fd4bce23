/** The `SkillStore` contract: versions, history, scoping, soft removal. */
import { assert, layer } from "@effect/vitest"
import { Ports } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import { at, type StoresLayer, tenant } from "./support.js"

const input = (clientId: string, slug: string, name: string) =>
  Fixtures.skillInput({ clientId, slug, name, instructions: `Instrucciones de ${name}` })

/** Runs the `SkillStore` contract against `stores`. */
export const skillStoreContract = (name: string, stores: StoresLayer) =>
  layer(stores)(`SkillStore contract: ${name}`, (it) => {
    it.effect("a new slug is version 1; each put of it stores the next version under the same id", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("skills-versions")
        const skills = yield* Ports.SkillStore
        const v1 = yield* skills.put(input(client.id, "factura", "Factura"), at(0))
        assert.strictEqual(v1.version, 1)
        assert.strictEqual(v1.createdAt, at(0))
        assert.strictEqual(v1.updatedAt, at(0))
        assert.deepStrictEqual(v1.fields, Fixtures.invoiceFields)
        const fewerFields = Fixtures.invoiceFields.slice(0, 2)
        const v2 = yield* skills.put({ ...input(client.id, "factura", "Factura v2"), fields: fewerFields }, at(1000))
        assert.strictEqual(v2.id, v1.id)
        assert.strictEqual(v2.version, 2)
        assert.strictEqual(v2.createdAt, at(0), "created once")
        assert.strictEqual(v2.updatedAt, at(1000))
        assert.deepStrictEqual(yield* skills.findBySlug(client.id, "factura"), v2)
        assert.deepStrictEqual(yield* skills.findById(client.id, v1.id), v2)
        assert.deepStrictEqual(yield* skills.findById(client.id, v1.id, 1), v1, "the history keeps version 1")
        assert.deepStrictEqual(yield* skills.findById(client.id, v1.id, 2), v2)
        assert.isUndefined(yield* skills.findById(client.id, v1.id, 3))
      })
    )

    it.effect("a version's review setting is kept with it; a version without one has none", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("skills-review")
        const skills = yield* Ports.SkillStore
        const review = { threshold: 0.9, required: ["total", "cuit"] }
        const v1 = yield* skills.put({ ...input(client.id, "factura", "Factura"), review }, at(0))
        assert.deepStrictEqual(v1.review, review)
        const v2 = yield* skills.put(input(client.id, "factura", "Factura"), at(1))
        assert.notProperty(v2, "review")
        assert.deepStrictEqual((yield* skills.findById(client.id, v1.id, 1))?.review, review)
        assert.notProperty(yield* skills.findBySlug(client.id, "factura"), "review")
      })
    )

    it.effect("skills are the client's own: another client sees none of them", () =>
      Effect.gen(function* () {
        const mine = yield* tenant("skills-scope")
        const theirs = yield* tenant("skills-scope-other")
        const skills = yield* Ports.SkillStore
        const skill = yield* skills.put(input(mine.client.id, "albaran", "Albarán"), at(0))
        assert.isUndefined(yield* skills.findBySlug(theirs.client.id, "albaran"))
        assert.isUndefined(yield* skills.findById(theirs.client.id, skill.id))
        assert.isUndefined(yield* skills.findById(theirs.client.id, skill.id, 1))
        assert.deepStrictEqual(yield* skills.list(theirs.client.id), [])
        // The same slug in another client is another skill.
        const other = yield* skills.put(input(theirs.client.id, "albaran", "Albarán ajeno"), at(0))
        assert.notStrictEqual(other.id, skill.id)
        assert.strictEqual(other.version, 1)
      })
    )

    it.effect("list: the latest version of each live skill, by slug", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("skills-list")
        const skills = yield* Ports.SkillStore
        yield* skills.put(input(client.id, "b-recibo", "Recibo"), at(0))
        yield* skills.put(input(client.id, "a-nomina", "Nómina"), at(0))
        yield* skills.put(input(client.id, "b-recibo", "Recibo v2"), at(1))
        yield* skills.put(input(client.id, "c-borrar", "Borrar"), at(0))
        assert.isTrue(yield* skills.remove(client.id, "c-borrar"))
        const listed = yield* skills.list(client.id)
        assert.deepStrictEqual(
          listed.map((s) => [s.slug, s.version, s.name]),
          [
            ["a-nomina", 1, "Nómina"],
            ["b-recibo", 2, "Recibo v2"]
          ]
        )
      })
    )

    it.effect("remove hides the skill and frees its slug for a new skill", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("skills-remove")
        const skills = yield* Ports.SkillStore
        const old = yield* skills.put(input(client.id, "ticket", "Ticket"), at(0))
        assert.isFalse(yield* skills.remove(client.id, "no-existe"))
        assert.isTrue(yield* skills.remove(client.id, "ticket"))
        assert.isFalse(yield* skills.remove(client.id, "ticket"), "already removed")
        assert.isUndefined(yield* skills.findBySlug(client.id, "ticket"))
        assert.isUndefined(yield* skills.findById(client.id, old.id))
        const fresh = yield* skills.put(input(client.id, "ticket", "Ticket nuevo"), at(5))
        assert.notStrictEqual(fresh.id, old.id)
        assert.strictEqual(fresh.version, 1)
      })
    )

    it.effect("ids that are not UUIDs are simply not found", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("skills-bad-id")
        const skills = yield* Ports.SkillStore
        assert.isUndefined(yield* skills.findById(client.id, "not-a-uuid"))
        assert.isUndefined(yield* skills.findById(client.id, "'; DROP TABLE skills; --", 1))
      })
    )

    it.effect("concurrent puts of one slug get distinct, consecutive versions", () =>
      Effect.gen(function* () {
        const { client } = yield* tenant("skills-race")
        const skills = yield* Ports.SkillStore
        const puts = Array.from({ length: 10 }, (_, i) => input(client.id, "carrera", `Carrera ${i}`))
        const stored = yield* Effect.forEach(puts, (p) => skills.put(p, at(0)), { concurrency: "unbounded" })
        assert.deepStrictEqual(
          stored.map((s) => s.version).sort((a, b) => a - b),
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
        )
        assert.strictEqual(new Set(stored.map((s) => s.id)).size, 1)
        assert.strictEqual((yield* skills.findBySlug(client.id, "carrera"))?.version, 10)
      })
    )
  })
