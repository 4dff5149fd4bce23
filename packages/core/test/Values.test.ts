import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import * as Values from "../src/internal/values.js"
import { seeded } from "./support.js"

const num = (literal: string, options?: Values.ParseOptions) => Values.parse("float", literal, options)

describe("Values numbers", () => {
  it("reads Spanish and English amounts, with and without thousands separators", () => {
    for (const [literal, expected] of [
      ["1.234,56", 1234.56],
      ["1,234.56", 1234.56],
      ["1234.56", 1234.56],
      ["1234,56", 1234.56],
      ["1 234,56", 1234.56],
      ["1\u00a0234,56", 1234.56],
      ["1'234.56", 1234.56],
      ["1.234.567,89", 1234567.89],
      ["1,234,567.89", 1234567.89],
      ["1,23,456.78", 123456.78],
      ["0,5", 0.5],
      [",5", 0.5],
      ["0.125", 0.125],
      ["0042", 42],
      ["12", 12]
    ] as const) {
      assert.strictEqual(num(literal), expected, literal)
    }
  })

  it("reads a lone separator before three digits as thousands (es and en), unless told it is the decimal one", () => {
    assert.strictEqual(num("1.234"), 1234)
    assert.strictEqual(num("1,234"), 1234)
    assert.strictEqual(Values.parse("integer", "12.500"), 12500)
    // No valid grouping: the integer part has four digits, so the separator is decimal.
    assert.strictEqual(num("1234.567"), 1234.567)
    assert.strictEqual(num("1,234", { decimalSeparator: "," }), 1.234)
    assert.strictEqual(num("1.234", { decimalSeparator: "." }), 1.234)
    // The option only settles the ambiguous case.
    assert.strictEqual(num("1.234,5", { decimalSeparator: "." }), 1234.5)
  })

  it("reads negative forms", () => {
    for (const literal of ["-12,50", "−12,50", "(12.50)", "12,50-", "- 12,50 €", "-$12.50", "$-12.50", "(USD 12.50)"]) {
      assert.strictEqual(num(literal), -12.5, literal)
    }
    assert.strictEqual(num("+12,50"), 12.5)
    assert.strictEqual(num("-0,00"), 0)
    assert.isFalse(Object.is(num("-0,00"), -0))
  })

  it("ignores currency symbols, codes and words, and percent signs", () => {
    for (const literal of [
      "1.234,56 €",
      "€1.234,56",
      "$1,234.56",
      "US$ 1,234.56",
      "U$S 1.234,56",
      "USD 1,234.56",
      "1.234,56 EUR",
      "MXN $1,234.56",
      "$ 1.234,56 ARS",
      "1.234,56 pesos",
      "1.234,56 M.N.",
      "RM1,234.56",
      "1.234,56 dólares"
    ]) {
      assert.strictEqual(num(literal), 1234.56, literal)
    }
    assert.strictEqual(num("21 %"), 21)
    assert.strictEqual(num("10,5%"), 10.5)
  })

  it("keeps integers whole and refuses fractions for integer fields", () => {
    assert.strictEqual(Values.parse("integer", "10"), 10)
    assert.strictEqual(Values.parse("integer", "10,00"), 10)
    assert.strictEqual(Values.parse("integer", "1.234.567"), 1234567)
    assert.isNull(Values.parse("integer", "10,5"))
    assert.isNull(Values.parse("integer", "99999999999999999999"))
  })

  it("reads a quantity with its unit and an amount with more currencies (2 Stk, 100 Nos, CHF 1'234.50, Fr. 12.50)", () => {
    const cases: ReadonlyArray<readonly [string, number]> = [
      ["12 unidades", 12],
      ["2 Stk", 2],
      ["1,5 h", 1.5],
      ["10 m²", 10],
      ["3 pcs", 3],
      ["0,250 kg", 0.25],
      ["100 Nos", 100],
      ["2.15 lb", 2.15],
      ["CHF 1'234.50", 1234.5],
      ["Fr. 12.50", 12.5],
      ["Rs. 1,23,456.00", 123456],
      ["₹ 21,358.00", 21358],
      ["S$5.00", 5],
      ["R$ 1.234,50", 1234.5],
      ["₱1,250.00", 1250],
      ["THB 350", 350]
    ]
    for (const [literal, value] of cases) assert.strictEqual(num(literal), value, literal)
  })

  it("gives null for what is not a number", () => {
    for (const literal of [
      "",
      "   ",
      "abc",
      "12 meses",
      "12 kg EUR",
      "1.2.3",
      "1.2345.678",
      "12,",
      "1,234.567,89",
      "1.234 567",
      "--1",
      "€"
    ]) {
      assert.isNull(num(literal), literal)
    }
  })
})

const groupDigits = (digits: string, separator: string): string => {
  const groups: Array<string> = []
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end))
  return groups.join(separator)
}

/** `|cents|/100` written with `thousands` and `decimal` separators (no grouping when `thousands` is empty). */
const formatAmount = (cents: number, thousands: string, decimal: string): string => {
  const abs = Math.abs(cents)
  const integer = String(Math.floor(abs / 100))
  const fraction = String(abs % 100).padStart(2, "0")
  return `${thousands === "" ? integer : groupDigits(integer, thousands)}${decimal}${fraction}`
}

const conventions: ReadonlyArray<readonly [string, string]> = [
  [".", ","],
  [",", "."],
  ["", "."],
  ["", ","],
  [" ", ","],
  ["\u00a0", ","],
  ["'", "."]
]

const signed: ReadonlyArray<(body: string) => string> = [
  (b) => `-${b}`,
  (b) => `(${b})`,
  (b) => `${b}-`,
  (b) => `-${b} €`,
  (b) => `$ -${b}`,
  (b) => `(USD ${b})`
]

const unsigned: ReadonlyArray<(body: string) => string> = [
  (b) => b,
  (b) => `${b} €`,
  (b) => `€${b}`,
  (b) => `$${b}`,
  (b) => `${b} EUR`,
  (b) => `MXN ${b}`,
  (b) => `${b} pesos`,
  (b) => `ARS ${b}`
]

const Cents = Schema.Int.check(Schema.isBetween({ minimum: -100_000_000_000, maximum: 100_000_000_000 }))
const Whole = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 9_000_000_000_000 }))
const Millis = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000_000 }))

describe("Values number properties", () => {
  it.prop(
    "an amount written in every convention, sign and currency form parses back to itself",
    [Cents],
    ([cents]) => {
      const expected = cents / 100
      for (const [thousands, decimal] of conventions) {
        const body = formatAmount(cents, thousands, decimal)
        for (const wrap of cents < 0 ? signed : unsigned) {
          const literal = wrap(body)
          assert.strictEqual(num(literal), expected, literal)
        }
      }
    },
    seeded(4101, 300)
  )

  it.prop(
    "a whole number grouped by `.`, `,` or spaces, or not grouped, parses back as an integer",
    [Whole],
    ([n]) => {
      const digits = String(n)
      for (const literal of [digits, groupDigits(digits, "."), groupDigits(digits, ","), groupDigits(digits, " ")]) {
        assert.strictEqual(Values.parse("integer", literal), n, literal)
      }
    },
    seeded(4102, 300)
  )

  it.prop(
    "three decimals without grouping parse back when the decimal separator is named",
    [Millis],
    ([m]) => {
      const literal = `${Math.floor(m / 1000)}.${String(m % 1000).padStart(3, "0")}`
      assert.strictEqual(num(literal, { decimalSeparator: "." }), m / 1000, literal)
      assert.strictEqual(num(literal.replace(".", ","), { decimalSeparator: "," }), m / 1000, literal)
    },
    seeded(4103, 300)
  )
})

describe("Values dates", () => {
  it("reads numeric dates day-first by default", () => {
    for (const literal of [
      "12/03/2024",
      "12-03-2024",
      "12.03.2024",
      "2024-03-12",
      "12/03/24",
      "2024/03/12",
      "12/3/2024"
    ]) {
      assert.strictEqual(Values.parse("date", literal), "2024-03-12", literal)
    }
    assert.strictEqual(Values.parse("date", "20240312"), "2024-03-12")
    assert.strictEqual(Values.parse("date", "2024-03-12T10:30:00Z"), "2024-03-12")
    assert.strictEqual(Values.parse("date", "12/03/2024 14:35"), "2024-03-12")
    assert.strictEqual(Values.parse("date", "12/03/85"), "1985-03-12")
  })

  it("reads month-first when the skill says so, and takes the only real order when one order is impossible", () => {
    assert.strictEqual(Values.parse("date", "03/12/2024", { dateOrder: "mdy" }), "2024-03-12")
    assert.strictEqual(Values.parse("date", "03/25/2024"), "2024-03-25")
    assert.strictEqual(Values.parse("date", "25/03/2024", { dateOrder: "mdy" }), "2024-03-25")
  })

  it("tells a document's date order from its own dates: a 13–31 in either place, else its written dates", () => {
    assert.strictEqual(Values.dateOrderOf("Issue date: 07.05.18\nService period: 07.01.18 - 07.28.18"), "mdy")
    assert.strictEqual(Values.dateOrderOf("Fecha: 08 / 02 / 23  Vto. CAE: 18 / 02 / 23"), "dmy")
    assert.strictEqual(Values.dateOrderOf("Data documento 24 - 05 - 20"), "dmy")
    assert.strictEqual(Values.dateOrderOf("Invoice 03/04/2024, due July 5, 2024"), "mdy")
    assert.strictEqual(Values.dateOrderOf("Rechnung 03.04.2024, Lieferung am 1. März 2024"), "dmy")
    assert.strictEqual(Values.dateOrderOf("Amsterdam, 29 maart 2014"), "dmy")
    // Nothing to go by: amounts, times, phone numbers and ambiguous dates leave the caller's default.
    assert.strictEqual(Values.dateOrderOf("03/04/2024 14:35 TEL 07-5547360 Total 13.50"), undefined)
    assert.strictEqual(Values.dateOrderOf(""), undefined)
  })

  it("with no date to tell, an address in the United States says month first (Dayton, OH 45402)", () => {
    assert.strictEqual(Values.dateOrderOf("ACME LLC\n1200 Industrial Pkwy\nDayton, OH 45402\nDate: 11/05/2024"), "mdy")
    assert.strictEqual(Values.dateOrderOf("Austin, TX 78701-1234 Invoice 03/04/2024"), "mdy")
    // The dates' own evidence comes first; no state code before five figures, no such address.
    assert.strictEqual(Values.dateOrderOf("Dayton, OH 45402 Date: 25/04/2024"), "dmy")
    assert.strictEqual(Values.dateOrderOf("Bristol BS1 2AW Date: 11/05/2024"), undefined)
    assert.strictEqual(Values.dateOrderOf("Calle Mayor 3, 28013 Madrid 11/05/2024"), undefined)
  })

  it("reads written dates in Spanish and English", () => {
    for (const literal of [
      "12 de marzo de 2024",
      "12 de Marzo del 2024",
      "12 marzo 2024",
      "marzo 12, 2024",
      "March 12, 2024",
      "March 12th, 2024",
      "12 Mar 2024",
      "12-MAR-2024",
      "12/mar/2024",
      "12 mar. 2024",
      "martes, 12 de marzo de 2024",
      "Tuesday, March 12, 2024",
      "12 MARZO 24",
      "12 Mar '24",
      "Mar 12 ’24"
    ]) {
      assert.strictEqual(Values.parse("date", literal), "2024-03-12", literal)
    }
    assert.strictEqual(Values.parse("date", "1º de enero de 2025"), "2025-01-01")
    assert.strictEqual(Values.parse("date", "3 set 2024"), "2024-09-03")
    assert.strictEqual(Values.parse("date", "3 sept. 2024"), "2024-09-03")
    assert.strictEqual(Values.parse("date", "31 dic 2024"), "2024-12-31")
    assert.strictEqual(Values.parse("date", "15 ago 2024"), "2024-08-15")
    assert.strictEqual(Values.parse("date", "15 aug 2024"), "2024-08-15")
    assert.strictEqual(Values.parse("date", "7 abr 2024"), "2024-04-07")
    assert.strictEqual(Values.parse("date", "7 ene 2024"), "2024-01-07")
  })

  it("reads month names in German, French, Italian, Portuguese and Dutch, and spaced or dotted numeric dates", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["1. März 2024", "2024-03-01"],
      ["12. Mrz. 2019", "2019-03-12"],
      ["Montag, 4. Dezember 2023", "2023-12-04"],
      ["le 3 août 2024", "2024-08-03"],
      ["12 févr. 2024", "2024-02-12"],
      ["15 maggio 2024", "2024-05-15"],
      ["7 de março de 2024", "2024-03-07"],
      ["2 out 2024", "2024-10-02"],
      ["29 maart 2014", "2014-03-29"],
      ["vrijdag 3 mei 2024", "2024-05-03"],
      ["08 / 02 / 23", "2023-02-08"],
      ["20.03.2023", "2023-03-20"]
    ]
    for (const [literal, iso] of cases) assert.strictEqual(Values.parse("date", literal), iso, literal)
  })

  it("accepts only real calendar dates", () => {
    assert.strictEqual(Values.parse("date", "29/02/2024"), "2024-02-29")
    for (const literal of [
      "29/02/2023",
      "31/04/2024",
      "32/01/2024",
      "00/01/2024",
      "12/13/2014/15",
      "30 feb 2024",
      "2024-02-30"
    ]) {
      assert.isNull(Values.parse("date", literal), literal)
    }
    assert.strictEqual(Values.parse("date", "29/02/1900"), null)
    assert.strictEqual(Values.parse("date", "29/02/2000"), "2000-02-29")
  })

  it("gives null for what is not a date", () => {
    for (const literal of [
      "",
      "marzo 2024",
      "12 de marzo",
      "Fecha: 12/03/2024",
      "12/03",
      "hoy",
      "123/03/2024",
      "12/03/202"
    ]) {
      assert.isNull(Values.parse("date", literal), literal)
    }
  })
})

const MONTHS_ES = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre"
]
const MONTHS_EN = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December"
]
const ABBR_ES = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"]
const ABBR_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

const DAY_MS = 86_400_000
const FIRST_DAY = Date.UTC(1000, 0, 1) / DAY_MS
const LAST_DAY = Date.UTC(9999, 11, 31) / DAY_MS
const Day = Schema.Int.check(Schema.isBetween({ minimum: FIRST_DAY, maximum: LAST_DAY }))

describe("Values date properties", () => {
  it.prop(
    "any valid date written in every supported pattern parses back to itself",
    [Day],
    ([day]) => {
      const date = new Date(day * DAY_MS)
      const y = date.getUTCFullYear()
      const m = date.getUTCMonth() + 1
      const d = date.getUTCDate()
      const dd = String(d).padStart(2, "0")
      const mm = String(m).padStart(2, "0")
      const expected = `${y}-${mm}-${dd}`
      const month = m - 1
      const dayFirst = [
        `${dd}/${mm}/${y}`,
        `${d}/${m}/${y}`,
        `${dd}-${mm}-${y}`,
        `${dd}.${mm}.${y}`,
        `${y}-${mm}-${dd}`,
        `${y}/${mm}/${dd}`,
        `${d} de ${MONTHS_ES[month]} de ${y}`,
        `${d} ${MONTHS_ES[month]} ${y}`,
        `${MONTHS_ES[month]} ${d}, ${y}`,
        `${MONTHS_EN[month]} ${d}, ${y}`,
        `${d} ${ABBR_EN[month]} ${y}`,
        `${d} ${ABBR_ES[month]} ${y}`,
        `${dd}-${ABBR_EN[month]?.toUpperCase()}-${y}`,
        `${dd}-${ABBR_ES[month]?.toUpperCase()}-${y}`
      ]
      if (y >= 1970 && y <= 2069) dayFirst.push(`${dd}/${mm}/${String(y % 100).padStart(2, "0")}`)
      for (const literal of dayFirst) assert.strictEqual(Values.parse("date", literal), expected, literal)
      for (const literal of [`${mm}/${dd}/${y}`, `${m}-${d}-${y}`]) {
        assert.strictEqual(Values.parse("date", literal, { dateOrder: "mdy" }), expected, literal)
      }
    },
    seeded(4201, 400)
  )
})

describe("Values booleans and strings", () => {
  it("reads yes/no words and marks", () => {
    for (const literal of [
      "sí",
      "Si",
      "SÍ.",
      "x",
      "X",
      "✓",
      "✔",
      "✔️",
      "☑",
      "[x]",
      "[ X ]",
      "true",
      "yes",
      "verdadero",
      "1",
      // the other languages' yes: de, fr, pt, nl (it's `sì` is es's)
      "Ja",
      "oui",
      "Sim",
      "wahr",
      "vrai"
    ]) {
      assert.strictEqual(Values.parse("boolean", literal), true, literal)
    }
    for (const literal of ["no", "No", "NO.", "false", "falso", "☐", "[ ]", "[]", "0", "Nein", "non", "Não", "nee"]) {
      assert.strictEqual(Values.parse("boolean", literal), false, literal)
    }
    for (const literal of ["", "quizás", "sin datos", "2"]) assert.isNull(Values.parse("boolean", literal), literal)
  })

  it("trims strings and collapses whitespace; an empty string has no parsed value", () => {
    assert.strictEqual(Values.parse("string", "  Suministros\n  Acme\tS.L.  "), "Suministros Acme S.L.")
    assert.strictEqual(Values.parse("string", "a\u200Bb"), "ab")
    assert.isNull(Values.parse("string", " \n\t "))
  })
})

const Fragment = Schema.Literals([
  "1",
  "23",
  "456",
  "2024",
  ".",
  ",",
  " ",
  "-",
  "/",
  "(",
  ")",
  "€",
  "$",
  "%",
  "de",
  "marzo",
  "mar",
  "usd",
  "sí",
  "x",
  "[",
  "]",
  ":",
  "º",
  "\u0301",
  "\u00a0"
])
const Types = Schema.Literals(["string", "integer", "float", "date", "boolean"])

describe("Values robustness", () => {
  it.prop(
    "never throws on arbitrary text, and yields null or a value of the field's JSON type",
    [Types, Schema.String],
    ([type, literal]) => {
      const parsed = Values.parse(type, literal)
      if (parsed === null) return
      const expected = type === "integer" || type === "float" ? "number" : type === "boolean" ? "boolean" : "string"
      assert.strictEqual(typeof parsed, expected)
      if (type === "date") assert.match(String(parsed), /^\d{4}-\d{2}-\d{2}$/)
    },
    seeded(4301, 500)
  )

  it.prop(
    "never throws on text made of the pieces numbers and dates are built from",
    [Types, Schema.Array(Fragment)],
    ([type, pieces]) => {
      const parsed = Values.parse(type, pieces.join(""), { dateOrder: "mdy", decimalSeparator: "," })
      if (type === "integer" && parsed !== null) assert.isTrue(Number.isSafeInteger(parsed))
      if (type === "float" && parsed !== null) assert.isTrue(Number.isFinite(parsed))
    },
    seeded(4302, 1000)
  )
})

const SROIE_KEYS = fileURLToPath(new URL("../../../../shared/data/sroie/key/", import.meta.url))

describe.skipIf(!fs.existsSync(SROIE_KEYS))(
  "Values on real receipts (../shared/data/sroie, skipped when absent)",
  () => {
    it("parses every printed date (day-first, 2- and 4-digit years, / and -) and total", () => {
      const files = fs.readdirSync(SROIE_KEYS)
      assert.strictEqual(files.length, 30)
      for (const file of files) {
        const truth = JSON.parse(fs.readFileSync(path.join(SROIE_KEYS, file), "utf8")) as Record<string, string>
        const [, d, m, y] = /^(\d{2})[/-](\d{2})[/-](\d{2}|\d{4})$/.exec(truth.date ?? "") ?? []
        assert.isDefined(y, `${file}: ${truth.date}`)
        const year = y?.length === 2 ? `20${y}` : y
        assert.strictEqual(Values.parse("date", truth.date ?? ""), `${year}-${m}-${d}`, file)
        assert.strictEqual(Values.parse("float", truth.total ?? ""), Number(truth.total), file)
      }
    })
  }
)
