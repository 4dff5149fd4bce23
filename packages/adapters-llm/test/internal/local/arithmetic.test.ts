import { assert, describe, it } from "@effect/vitest"
import {
  decimalMark,
  type Figure,
  misreadAmounts,
  oneDigitApart,
  totalsMade
} from "../../../src/internal/local/arithmetic.js"
import { amounts } from "../../../src/internal/local/patterns.js"

const figure = (role: Figure["role"], cents: number): Figure => ({ role, cents, page: 1, text: String(cents / 100) })

const made = (figures: ReadonlyArray<Figure>, totals: ReadonlyArray<number> = []) =>
  Object.fromEntries([...totalsMade(figures, totals)].map(([cents, by]) => [cents, [...by].sort()]))

describe("the document's arithmetic", () => {
  it("tendered − change, a payment with no change, subtotal + taxes − discounts + rounding", () => {
    assert.deepStrictEqual(made([figure("tendered", 2000), figure("change", 590)]), { 1410: ["payment"] })
    assert.deepStrictEqual(made([figure("tendered", 11710)]), { 11710: ["tendered"] })
    assert.deepStrictEqual(made([figure("subtotal", 10610), figure("tax", 637), figure("rounding", -2)]), {
      11245: ["sum"]
    })
    assert.deepStrictEqual(made([figure("subtotal", 13311), figure("discount", -1599), figure("rounding", -2)]), {
      13309: ["sum"],
      11710: ["sum"]
    })
    // An exact total plus the rounding printed makes the rounded one.
    assert.deepStrictEqual(made([figure("rounding", -2)], [11712]), { 11710: ["rounding"] })
  })

  it("a subtotal alone makes the total only where no tax is printed, and only as itself (net)", () => {
    assert.deepStrictEqual(made([figure("subtotal", 13000)]), { 13000: ["net"] })
    assert.deepStrictEqual(made([figure("subtotal", 1550164), figure("tax", 325534)]), { 1875698: ["sum"] })
  })

  it("one misread digit, on amounts long enough to tell", () => {
    assert.isTrue(oneDigitApart(11246, 11245))
    assert.isFalse(oneDigitApart(11246, 11255 - 1))
    assert.isFalse(oneDigitApart(530, 500))
    assert.isFalse(oneDigitApart(11245, 11245))
  })

  it("the decimal mark of a document whose amounts show two decimals", () => {
    assert.strictEqual(decimalMark(amounts("15.00 7.00 21.0C 18.00 50.00 106.10 6.37")), ".")
    assert.strictEqual(decimalMark(amounts("8,27 68,16 38,76 11,08")), ",")
    assert.isUndefined(decimalMark(amounts("8,27 1.50 38,76 2.20")))
    assert.isUndefined(decimalMark(amounts("15 20 30")))
  })

  it("amounts OCR misread in their punctuation, read back with the document's mark", () => {
    assert.deepStrictEqual(
      misreadAmounts("TOTAL  RM  14-10", ".").map((a) => [a.text, a.value]),
      [["14.10", 14.1]]
    )
    assert.deepStrictEqual(
      misreadAmounts("Total 14,1O", ".").map((a) => a.text),
      ["14.10"]
    )
    assert.deepStrictEqual(
      misreadAmounts("Summe 7·16", ",").map((a) => a.text),
      ["7,16"]
    )
    assert.deepStrictEqual(
      misreadAmounts("TOTAL RM 5O.OO  1O,5O", ".").map((a) => a.text),
      ["50.00", "10.50"]
    )
    // A semicolon read for the comma; a space read between the cents (not before another amount's mark).
    assert.deepStrictEqual(
      misreadAmounts("SUMME EUR 12;34  SUMME EUR 12,3 4", ",").map((a) => a.text),
      ["12,34", "12,34"]
    )
    assert.deepStrictEqual(misreadAmounts("Äpfel 1,5 2,99", ","), [])
    // Dates, times, phone numbers and amounts read right are not misreads.
    assert.deepStrictEqual(misreadAmounts("TOTAL 14.10  12:30", "."), [])
    assert.deepStrictEqual(misreadAmounts("29-12-2017 TEL 07-386 7524 14.10 1,234.56", "."), [])
  })
})
