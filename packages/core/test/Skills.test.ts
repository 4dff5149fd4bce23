import { assert, describe, it } from "@effect/vitest"
import { type Catalog, type Skill, Skills } from "@legible/core"
import { Fixtures, Memory, TestIds, TestTime } from "@legible/testkit"
import { Effect, Layer } from "effect"

const world = Layer.mergeAll(Memory.layer, TestIds.layer())
const acme = Fixtures.client.id

const field = (name: string, order: number, extra: Partial<Skill.SkillField> = {}): Skill.SkillField => ({
  name,
  order,
  type: "string",
  isList: false,
  description: "",
  aliases: [],
  ...extra
})

const definition = (fields: ReadonlyArray<Skill.SkillField> = [field("numero", 1)]): Skills.Definition => ({
  name: "Albarán",
  instructions: "",
  fields
})

const nest = (depth: number): Skill.SkillField =>
  depth === 1 ? field("leaf", 1) : field(`level${depth}`, 1, { type: "object", fields: [nest(depth - 1)] })

const catalogField = (keyColumns: Array<string>, catalogId: string = Fixtures.ids.catalog) =>
  field("proveedor", 2, {
    type: "catalog",
    catalog: {
      catalogId,
      keyColumns: [keyColumns[0]!, ...keyColumns.slice(1)],
      outputColumns: ["nombre"],
      method: "exacta",
      threshold: 1
    }
  })

describe("Skills.problems", () => {
  const catalogs = new Map<string, Catalog.Catalog | undefined>([[Fixtures.ids.catalog, Fixtures.catalog()]])

  it("lists every problem a schema cannot see", () => {
    assert.deepStrictEqual(Skills.problems(definition(), catalogs), [])
    assert.deepStrictEqual(Skills.problems({ ...definition(), name: " " }, catalogs), ["name is required"])
    assert.deepStrictEqual(Skills.problems(definition([]), catalogs), ["fields must not be empty"])
    assert.deepStrictEqual(Skills.problems(definition([nest(Skills.MAX_DEPTH)]), catalogs), [])
    assert.deepStrictEqual(Skills.problems(definition([nest(Skills.MAX_DEPTH + 1)]), catalogs), [
      `object fields may nest at most ${Skills.MAX_DEPTH} levels deep`
    ])
    const many = Array.from({ length: Skills.MAX_FIELDS + 1 }, (_, i) => field(`f${i}`, i))
    assert.deepStrictEqual(Skills.problems(definition(many), catalogs), [
      `a skill may define at most ${Skills.MAX_FIELDS} fields`
    ])
    assert.include(Skills.problems(definition([field("a", 1), field("a", 2)]), catalogs)[0], "duplicate field name")
    assert.deepStrictEqual(Skills.problems(definition([field("n", 1), catalogField(["cif"])]), catalogs), [])
    assert.deepStrictEqual(Skills.problems(definition([catalogField(["iban", "cif"])]), catalogs), [
      'catalog field "proveedor" names unknown columns of "Proveedores": iban'
    ])
    assert.include(
      Skills.problems(definition([catalogField(["cif"], Fixtures.fixtureId(99))]), new Map())[0],
      "does not exist"
    )
  })
})

describe("Skills use cases", () => {
  it.effect("create stores version 1, update stores the next, read finds any version, remove deletes", () =>
    Effect.gen(function* () {
      yield* TestTime.setFixedNow
      yield* Fixtures.seed
      const created = yield* Skills.create(acme, "albaran", { ...definition(), name: "  Albarán  " })
      assert.deepStrictEqual(
        { slug: created.slug, name: created.name, version: created.version },
        {
          slug: "albaran",
          name: "Albarán",
          version: 1
        }
      )
      const exists = yield* Effect.flip(Skills.create(acme, "albaran", definition()))
      assert.strictEqual(exists._tag, "SkillExists")
      const updated = yield* Skills.update(acme, "albaran", { ...definition(), name: "Albarán v2" })
      assert.strictEqual(updated.version, 2)
      assert.strictEqual(updated.id, created.id)
      assert.strictEqual((yield* Skills.read(acme, "albaran")).version, 2)
      assert.strictEqual((yield* Skills.read(acme, "albaran", 1)).name, "Albarán")
      assert.strictEqual((yield* Effect.flip(Skills.read(acme, "albaran", 3)))._tag, "SkillNotFound")
      assert.deepStrictEqual(
        (yield* Skills.list(acme)).map((s) => s.slug),
        ["albaran", "factura-es"]
      )
      assert.strictEqual((yield* Skills.apply(acme, "albaran", definition())).version, 3)
      assert.strictEqual((yield* Skills.apply(acme, "nuevo", definition())).version, 1)
      yield* Skills.remove(acme, "albaran")
      assert.strictEqual((yield* Effect.flip(Skills.remove(acme, "albaran")))._tag, "SkillNotFound")
      assert.strictEqual((yield* Effect.flip(Skills.update(acme, "albaran", definition())))._tag, "SkillNotFound")
      assert.strictEqual((yield* Effect.flip(Skills.read(acme, "albaran")))._tag, "SkillNotFound")
      // Another client shares nothing, not even the slug space.
      assert.strictEqual((yield* Skills.create(Fixtures.otherClient.id, "factura-es", definition())).version, 1)
      assert.strictEqual((yield* Effect.flip(Skills.remove(Fixtures.otherClient.id, "nuevo")))._tag, "SkillNotFound")
    }).pipe(Effect.provide(world))
  )

  it.effect("refuses bad slugs and definitions, and catalogs of other clients, storing nothing", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      for (const slug of ["", "Albaran", "-x", "x-", "a b", "x".repeat(101), "ñ"]) {
        const error = yield* Effect.flip(Skills.create(acme, slug, definition()))
        assert.strictEqual(error._tag, "InvalidRequest", slug)
      }
      const foreign = yield* Effect.flip(
        Skills.create(Fixtures.otherClient.id, "x", definition([catalogField(["cif"])]))
      )
      assert.strictEqual(foreign._tag, "InvalidRequest")
      if (foreign._tag === "InvalidRequest") assert.include(foreign.message, "does not exist")
      const twoProblems = yield* Effect.flip(
        Skills.create(acme, "x", definition([field("a", 1), field("a", 2), catalogField(["iban"])]))
      )
      if (twoProblems._tag === "InvalidRequest") assert.strictEqual(twoProblems.message.split("; ").length, 2)
      assert.deepStrictEqual(
        (yield* Skills.list(acme)).map((s) => s.slug),
        ["factura-es"]
      )
    }).pipe(Effect.provide(world))
  )
})

describe("Skills ids", () => {
  it.effect("takes ids from the IdGenerator (deterministic in tests)", () =>
    Effect.gen(function* () {
      yield* Fixtures.seed
      const created = yield* Skills.create(acme, "albaran", definition())
      assert.strictEqual(created.id, TestIds.uuid(2))
    }).pipe(Effect.provide(world))
  )
})
