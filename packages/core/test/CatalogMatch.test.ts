import { assert, describe, it } from "@effect/vitest"
import { CatalogMatch } from "@legible/core"
import { Schema } from "effect"
import { seeded } from "./support.js"

const { normalize, identifierOf } = CatalogMatch

describe("CatalogMatch.normalize", () => {
  it("splits legal forms off, so different spellings and forms compare on the name", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["ACME S.A.", "acme", "sa"],
      ["Acme SA de CV", "acme", "sa de cv"],
      ["Acme, S. A. de C. V.", "acme", "sa de cv"],
      ["Acme S.A.de C.V.", "acme", "sa de cv"],
      ["Suministros Acmé, S.L.", "suministros acme", "sl"],
      ["SUMINISTROS ACME SL", "suministros acme", "sl"],
      ["Papelería Globex S.R.L.", "papeleria globex", "srl"],
      ["Müller GmbH & Co. KG", "muller", "gmbh co kg"],
      ["Initech Inc.", "initech", "inc"],
      ["Initech Incorporated", "initech", "inc"],
      ["O'Brien Ltd", "obrien", "ltd"],
      ["Grupo Norte Sociedad Anónima", "grupo norte", "sa"],
      ["Syarikat Perniagaan Gin Kee Sdn. Bhd.", "syarikat perniagaan gin kee", "sdn bhd"],
      ["Transportes Ruiz S. de R.L. de C.V.", "transportes ruiz", "s de rl de cv"],
      ["Casa Pepe", "casa pepe", ""],
      ["S.A.", "sa", ""]
    ]
    for (const [value, key, legal] of cases) assert.deepStrictEqual(normalize(value), { key, legal }, value)
  })

  it("expands abbreviations and folds connectors, accents, ligatures and symbols", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["Distribuciones Pérez Hnos. S.A. de C.V.", "distribuciones perez hermanos"],
      ["Pérez y Cía.", "perez y compania"],
      ["Johnson & Johnson", "johnson y johnson"],
      ["Johnson and Johnson", "johnson y johnson"],
      ["Avda. de la Constitución, 12", "avenida de la constitucion 12"],
      ["ACME Int'l Corp.", "acme internacional"],
      ["Straße ﬁnanz Ærø", "strasse finanz aero"],
      ["  Ferretería   —  El  Sol!! ", "ferreteria el sol"],
      ["Москва", ""]
    ]
    for (const [value, key] of cases) assert.strictEqual(normalize(value).key, key, value)
  })

  it("keeps words that name properties of plain objects as they are", () => {
    // The abbreviation table is a plain object: its prototype's names must not be read as expansions.
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["Grupo Constructor del Norte S.A.", "grupo constructor del norte"],
      ["constructor", "constructor"],
      ["Tostring Valueof Hasownproperty", "tostring valueof hasownproperty"]
    ]
    for (const [value, key] of cases) assert.strictEqual(normalize(value).key, key, value)
  })

  it("folds Latin characters one by one as the whole value would fold (decomposed, or beyond Latin)", () => {
    // A value with a character past Latin Extended-B is folded as a whole (NFKD over the value); one without, a
    // character at a time. " Ω" only adds a separator, so both readings must agree on every Latin character, also
    // when its decomposed form (base letter and combining marks) is what was written.
    for (let code = 0; code < 0x250; code++) {
      const value = `Ab${String.fromCharCode(code)}cD s.a.`
      const whole = normalize(`${value} Ω`)
      assert.deepStrictEqual(normalize(value), whole, `U+${code.toString(16)}`)
      assert.deepStrictEqual(normalize(value.normalize("NFKD")), whole, `U+${code.toString(16)} decomposed`)
    }
  })

  it("normalizes and folds values of any length (built a chunk of characters at a time)", () => {
    const words = Array.from({ length: 40_000 }, (_, i) => `Garcí${i % 10}`)
    const normalized = normalize(`${words.join(" ")} S.A.`)
    assert.strictEqual(normalized.key, words.map((w) => w.replace("í", "i").toLowerCase()).join(" "))
    assert.strictEqual(normalized.legal, "sa")
    // Folding pairs ("cl" → "d") never spans a space: word by word (short strings) equals the whole at once.
    const perWord = normalized.key.split(" ").map(CatalogMatch.skeleton)
    const folded = CatalogMatch.skeleton(normalized.key)
    assert.strictEqual(folded, perWord.join(" "))
    assert.strictEqual(CatalogMatch.lookalike(folded), perWord.map(CatalogMatch.lookalike).join(" "))
  })

  const Word = Schema.String.check(Schema.isPattern(/^[a-z]{2,8}$/))
  const Words = Schema.Array(Word).check(Schema.isMinLength(1), Schema.isMaxLength(5))
  const Gap = Schema.Literals([" ", "  ", ", ", " - ", "; ", " / "])

  it.prop(
    "case, accents and separators never change the key, which holds only a-z, 0-9 and single spaces",
    [Words, Gap],
    ([ws, gap]) => {
      const plain = normalize(ws.join(" "))
      const accented = ws.join(gap).replaceAll("a", "á").replaceAll("e", "é").replaceAll("n", "ñ").toUpperCase()
      assert.deepStrictEqual(normalize(accented), plain)
      assert.match(plain.key, /^(?:[a-z0-9]+(?: [a-z0-9]+)*)?$/)
      assert.isAbove(plain.key.length, 0, "a legal form is never the whole value")
    },
    seeded(901)
  )
})

describe("CatalogMatch.identifierOf", () => {
  it("reads tax ids and SKUs as identifiers, names and addresses not", () => {
    for (const value of ["B12345678", "b-1234567-8", "20-12345678-9", "GODE561231GR8", "ABC-1234-XL", "X 1234 567"]) {
      assert.isDefined(identifierOf(value), value)
    }
    for (const value of ["Acme", "Calle Mayor 1234", "Local 12B", "A1", "Suministros 2000 Ibérica SL", "12"]) {
      assert.isUndefined(identifierOf(value), value)
    }
  })

  it("folds OCR confusables (O/0, I/l/1, S/5, B/8, Z/2, G/6) and separators", () => {
    const folded = identifierOf("B12345678")?.folded
    assert.strictEqual(folded, "812345678")
    for (const read of ["812345678", "B1234S678", "b-l2345678", "BIZ345678", "B 1234 5678", "B.12345678"]) {
      assert.strictEqual(identifierOf(read)?.folded, folded, read)
    }
    assert.strictEqual(identifierOf("B12345678")?.compact, "B12345678")
    assert.strictEqual(identifierOf("20-0G000O0-1")?.folded, "2006000001")
  })

  const Digits = Schema.String.check(Schema.isPattern(/^[0-9]{8}$/))
  const Letter = Schema.Literals(["A", "B", "C", "F", "X"])
  const swaps: Readonly<Record<string, string>> = { "0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G" }

  it.prop(
    "an identifier read with confusable letters for some digits folds to the same form",
    [Letter, Digits, Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }))],
    ([letter, digits, mask]) => {
      const original = `${letter}${digits}`
      // Swap the digits picked by `mask` (at most 4 of the 8, so the value still reads as an identifier).
      let swapped = 0
      let read = ""
      for (const [i, d] of [...digits].entries()) {
        const swap = swaps[d]
        const pick = (mask >> i) & 1 && swapped < 4 && swap !== undefined
        if (pick) swapped++
        read += pick ? swap : d
      }
      assert.strictEqual(identifierOf(`${letter}${read}`)?.folded, identifierOf(original)?.folded)
    },
    seeded(902)
  )
})
