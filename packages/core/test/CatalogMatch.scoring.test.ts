import { assert, describe, it } from "@effect/vitest"
import { type Catalog, CatalogMatch, type Skill } from "@legible/core"
import { Schema } from "effect"
import { fuzzy } from "fast-fuzzy"
import { seeded } from "./support.js"

/** `pg_trgm`'s trigrams written out as strings, independently of the coded implementation. */
const referenceTrigrams = (text: string): Set<string> => {
  const out = new Set<string>()
  for (const word of text.split(/[^a-z0-9]+/).filter((w) => w !== "")) {
    const padded = `  ${word} `
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3))
  }
  return out
}

const referenceSimilarity = (a: string, b: string): number => {
  const ta = referenceTrigrams(a)
  const tb = referenceTrigrams(b)
  const shared = [...ta].filter((t) => tb.has(t)).length
  return ta.size === 0 || tb.size === 0 ? 0 : Math.fround(shared / (ta.size + tb.size - shared))
}

const Key = Schema.String.check(Schema.isPattern(/^[a-e0-2]{1,6}( [a-e0-2]{1,6}){0,2}$/))

describe("trigram similarity", () => {
  it("gives pg_trgm's values (measured on PostgreSQL 15)", () => {
    assert.strictEqual(CatalogMatch.similarity("acme", "acne"), 0.25)
    assert.strictEqual(CatalogMatch.similarity("b 12345678", "8 12345678"), Math.fround(0.6923077))
    assert.strictEqual(CatalogMatch.similarity("abc", "abc abc"), 1)
    assert.strictEqual(CatalogMatch.similarity("", ""), 0)
    assert.strictEqual(CatalogMatch.similarity("a", ""), 0)
  })

  it.prop(
    "equals the set definition, is symmetric and within [0, 1]",
    [Key, Key],
    ([a, b]) => {
      const s = CatalogMatch.similarity(a, b)
      assert.strictEqual(s, referenceSimilarity(a, b))
      assert.strictEqual(s, CatalogMatch.similarity(b, a))
      assert.isAtLeast(s, 0)
      assert.isAtMost(s, 1)
    },
    seeded(911, 300)
  )

  it.prop(
    "scoring's trigram part is the same similarity, on the skeletons",
    [Key, Key],
    ([a, b]) => {
      const expected = referenceSimilarity(CatalogMatch.skeleton(a), CatalogMatch.skeleton(b))
      assert.strictEqual(CatalogMatch.textParts(a, b).trigram, expected)
      assert.strictEqual(
        CatalogMatch.textParts(`${a} ${a} ${b}`, b).trigram,
        referenceSimilarity(CatalogMatch.skeleton(`${a} ${a} ${b}`), CatalogMatch.skeleton(b))
      )
    },
    seeded(914, 300)
  )
})

/** fast-fuzzy's `fuzzy()` as `editRatio` reproduces it: whole strings, Damerau, no folding of its own. */
const FUZZY_OPTIONS = {
  useSellers: false,
  useDamerau: true,
  ignoreCase: false,
  ignoreSymbols: false,
  normalizeWhitespace: false,
  useSeparatedUnicode: true
}

describe("edit ratio", () => {
  it("is the full Damerau-Levenshtein ratio over the whole strings", () => {
    assert.strictEqual(CatalogMatch.editRatio("acme", "acme"), 1)
    assert.strictEqual(CatalogMatch.editRatio("acme", "acne"), 0.75)
    assert.strictEqual(CatalogMatch.editRatio("acme", "amce"), 0.75, "a swap is one edit")
    assert.strictEqual(CatalogMatch.editRatio("acme", "acme iberica"), 1 - 8 / 12, "no substring matching")
  })

  // Swaps, doubled and dropped letters and spaces (also trailing) are common in the short alphabet of `EditText`.
  const EditText = Schema.String.check(Schema.isPattern(/^[ab1 ]{0,12}$/))

  it.prop(
    "equals fast-fuzzy's fuzzy() without substring matching, on keys and identifiers",
    [EditText, EditText],
    ([a, b]) => {
      const expected = fuzzy(a, b, FUZZY_OPTIONS)
      const actual = CatalogMatch.editRatio(a, b)
      if (Number.isNaN(expected)) assert.isNaN(actual)
      else assert.strictEqual(actual, expected)
    },
    seeded(913, 2000)
  )

  // Keys around 32 characters: the shorter string is compared as one bit per character up to 32, by rows beyond.
  const LongText = Schema.String.check(Schema.isPattern(/^[abcde1 ]{24,40}$/))

  it.prop(
    "equals fuzzy() on either side of 32 characters, swaps and trailing spaces included",
    [LongText, LongText, Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 38 }))],
    ([a, b, at]) => {
      // A neighbour swap of `a` too, the edit the bit vectors track on their own.
      const swapped = at + 1 < a.length ? a.slice(0, at) + a.charAt(at + 1) + a.charAt(at) + a.slice(at + 2) : a
      assert.strictEqual(CatalogMatch.editRatio(a, b), fuzzy(a, b, FUZZY_OPTIONS))
      assert.strictEqual(CatalogMatch.editRatio(a, swapped), fuzzy(a, swapped, FUZZY_OPTIONS))
      assert.strictEqual(CatalogMatch.editRatio(b, a), CatalogMatch.editRatio(a, b))
    },
    seeded(914, 1000)
  )

  it("equals fuzzy() on long keys too (its scratch rows grow)", () => {
    const long = "construcciones y reformas del mediterraneo hermanos garcia ".repeat(3)
    const misread = long.replaceAll("rn", "m").replaceAll("cia", "cla")
    assert.strictEqual(CatalogMatch.editRatio(long, misread), fuzzy(long, misread, FUZZY_OPTIONS))
    assert.strictEqual(CatalogMatch.editRatio("ab", "ba"), fuzzy("ab", "ba", FUZZY_OPTIONS))
  })
})

const record = (n: number, values: Record<string, string>): Catalog.CatalogRecord => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`,
  values
})

const config = (overrides: Partial<Skill.CatalogFieldConfig> = {}): Skill.CatalogFieldConfig => ({
  catalogId: "00000000-0000-4000-8000-0000000000c1",
  keyColumns: ["nombre"],
  outputColumns: ["cif"],
  method: "aproximada",
  threshold: CatalogMatch.DEFAULT_THRESHOLD,
  ...overrides
})

const decide = (
  c: Skill.CatalogFieldConfig,
  extracted: Record<string, string>,
  records: Array<Catalog.CatalogRecord>
) => {
  const queries = CatalogMatch.prepare(c.keyColumns, extracted)
  const columns = [...c.keyColumns, ...c.outputColumns]
  return c.method === "exacta"
    ? CatalogMatch.decideExact(queries, records, columns)
    : CatalogMatch.decideApproximate(queries, records, columns, c.threshold)
}

const acmeSA = record(1, { nombre: "Acme S.A.", cif: "A11111111" })
const acmeSL = record(2, { nombre: "Acme S.L.", cif: "B22222222" })
const garcia = record(3, { nombre: "Transportes García López S.A. de C.V.", cif: "TGL850101AB1" })
const garcias = record(4, { nombre: "Transportes García Lopes", cif: "TGL850101AB2" })
const suministros = record(5, { nombre: "Suministros Acme S.L.", cif: "B12345678" })

describe("decisions", () => {
  it("exacta: equal after normalization, the same legal form preferred; still several → not found", () => {
    const exact = config({ method: "exacta", threshold: 1 })
    assert.strictEqual(decide(exact, { nombre: "ACME SL" }, [acmeSA, acmeSL]).record?.id, acmeSL.id)
    assert.strictEqual(decide(exact, { nombre: "acmé, s.a." }, [acmeSA, acmeSL]).record?.id, acmeSA.id)
    assert.deepStrictEqual(decide(exact, { nombre: "Acme" }, [acmeSA, acmeSL]), { record: undefined, score: 0 })
    assert.strictEqual(decide(exact, { nombre: "Acme SA de CV" }, [acmeSA]).record?.id, acmeSA.id)
    assert.isUndefined(decide(exact, { nombre: "Acne SA" }, [acmeSA]).record, "exacta never accepts an edit")
    const duplicate = record(9, { nombre: "Acme S.A.", cif: "A11111111" })
    assert.strictEqual(
      decide(exact, { nombre: "Acme" }, [duplicate, acmeSA]).record?.id,
      acmeSA.id,
      "true duplicates are one"
    )
  })

  it("exacta on an identifier folds confusables, preferring the identical raw reading", () => {
    const byCif = config({ method: "exacta", keyColumns: ["cif"], outputColumns: ["nombre"], threshold: 1 })
    assert.strictEqual(decide(byCif, { cif: "B1234S678" }, [suministros]).record?.id, suministros.id)
    const twin = record(6, { nombre: "Otra", cif: "812345678" })
    assert.strictEqual(decide(byCif, { cif: "B12345678" }, [twin, suministros]).record?.id, suministros.id)
    assert.isUndefined(decide(byCif, { cif: "B12345679" }, [suministros]).record)
  })

  it("aproximada: an OCR-corrupted name is found above the threshold", () => {
    const decision = decide(config(), { nombre: "Transpotes Garcia Lopez SA DE CV" }, [garcia, suministros])
    assert.strictEqual(decision.record?.id, garcia.id)
    assert.isAtLeast(decision.score, CatalogMatch.DEFAULT_THRESHOLD)
    assert.isBelow(decision.score, 1)
  })

  it("aproximada: a reading equal once OCR confusables are folded scores 1 (rn/m, cl/d, 0/o, 1/l, 5/s, 8/b)", () => {
    for (const read of [
      "Transp0rtes Garcia L0pez",
      "TRANSPORTES GARClA LOPEZ S.A. DE C.V.",
      "Transportes Garcia Lopez 5.A."
    ]) {
      assert.deepStrictEqual(decide(config(), { nombre: read }, [garcia, garcias]), { record: garcia, score: 1 }, read)
    }
    const modern = record(8, { nombre: "Modern Print", cif: "B88888888" })
    assert.strictEqual(decide(config(), { nombre: "Modem Print" }, [modern]).record?.id, modern.id)
    assert.strictEqual(CatalogMatch.skeleton("modern c1ase 58 garcia"), "modem dase sb garda")
  })

  it("aproximada: a runner-up within the margin makes it not found, with the best score", () => {
    // "Lopex" is one substitution from both "López" and "Lopes".
    const decision = decide(config(), { nombre: "Transportes Garcia Lopex" }, [garcia, garcias])
    assert.isUndefined(decision.record)
    assert.isAtLeast(decision.score, CatalogMatch.DEFAULT_THRESHOLD)
    // Without the near-twin the same reading is found.
    assert.strictEqual(decide(config(), { nombre: "Transportes Garcia Lopex" }, [garcia]).record?.id, garcia.id)
    // The lead needed grows as the best score falls away from 1.
    assert.strictEqual(CatalogMatch.leadNeeded(0.99), CatalogMatch.RUNNER_UP_MARGIN)
    assert.closeTo(CatalogMatch.leadNeeded(0.8), 0.15, 1e-12)
  })

  it("aproximada: below the threshold is not found, with the best score", () => {
    const decision = decide(config(), { nombre: "Ferretería El Sol" }, [garcia, suministros])
    assert.isUndefined(decision.record)
    assert.isAbove(decision.score, 0)
    assert.isBelow(decision.score, CatalogMatch.DEFAULT_THRESHOLD)
    assert.deepStrictEqual(decide(config(), { nombre: "Ferretería El Sol" }, []), { record: undefined, score: 0 })
  })

  it("aproximada identifiers: one edit only when that record is the only one an edit away", () => {
    const byCif = config({ keyColumns: ["cif"], outputColumns: ["nombre"] })
    const oneOff = decide(byCif, { cif: "TGL850101A81" }, [garcia])
    assert.strictEqual(oneOff.record?.id, garcia.id, "B read as 8 folds; 1 → A is the one edit")
    assert.isUndefined(decide(byCif, { cif: "TGL850101AB9" }, [garcia, garcias]).record, "two records one edit away")
    assert.strictEqual(decide(byCif, { cif: "TGL850101AB1" }, [garcia, garcias]).record?.id, garcia.id)
    assert.isUndefined(decide(byCif, { cif: "TGL85010IXY1" }, [garcia]).record, "two edits are never accepted")
    assert.strictEqual(decide(byCif, { cif: "B1234567" }, [suministros]).record?.id, suministros.id, "one deletion")
    const sku = record(7, { nombre: "Tornillo", cif: "AB123" })
    assert.isUndefined(decide(byCif, { cif: "AB124" }, [sku]).record, "one edit in a short code is another code")
    assert.strictEqual(decide(byCif, { cif: "A8I23" }, [sku]).record?.id, sku.id)
  })

  it("several key columns average their scores; nothing read → not found with 0", () => {
    const both = config({ keyColumns: ["nombre", "cif"], outputColumns: [] })
    const decision = decide(both, { nombre: "Suministros Acmc SL", cif: "B12345678" }, [suministros, acmeSL])
    assert.strictEqual(decision.record?.id, suministros.id)
    assert.deepStrictEqual(decide(both, { otra: "x" }, [suministros]), { record: undefined, score: 0 })
  })
})

describe("catalogValue", () => {
  const catalog = { id: config().catalogId, name: "Proveedores" }

  it("found: the full spec 2.5 shape with the key and output columns of the record", () => {
    const value = CatalogMatch.catalogValue(
      catalog,
      config(),
      { nombre: "Acme SA", otra: "x" },
      {
        record: acmeSA,
        score: 0.912345
      }
    )
    assert.deepStrictEqual(value, {
      type: "catalog",
      matching: {
        status: "found",
        method: "aproximada",
        score: 0.9123,
        threshold_used: CatalogMatch.DEFAULT_THRESHOLD,
        extracted_values: { nombre: "Acme SA" },
        catalog_record_id: acmeSA.id,
        key_columns: ["nombre"]
      },
      catalog_values: { nombre: "Acme S.A.", cif: "A11111111" },
      catalog_info: { id: catalog.id, name: "Proveedores", output_columns: ["cif"] }
    })
  })

  it("not found: no record id, empty catalog values; exacta has a null threshold", () => {
    const value = CatalogMatch.catalogValue(
      catalog,
      config({ method: "exacta" }),
      { nombre: "Nada" },
      {
        record: undefined,
        score: 0
      }
    )
    assert.deepStrictEqual(value.matching, {
      status: "not_found",
      method: "exacta",
      score: 0,
      threshold_used: null,
      extracted_values: { nombre: "Nada" },
      key_columns: ["nombre"]
    })
    assert.deepStrictEqual(value.catalog_values, {})
  })

  it("retrieval floor: what a candidate needs to reach the threshold minus the margin", () => {
    assert.strictEqual(CatalogMatch.retrievalFloor(CatalogMatch.DEFAULT_THRESHOLD), 0.2)
    assert.strictEqual(CatalogMatch.retrievalFloor(0.5), 0.2)
    assert.closeTo(CatalogMatch.retrievalFloor(1), (1 - 0.03 - 0.85) / 0.15, 1e-12)
  })
})
