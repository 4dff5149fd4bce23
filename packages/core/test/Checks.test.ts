import { describe, expect, it } from "vitest"
import * as Checks from "../src/Checks.js"

// Public identifiers: tax authorities', listed companies' and the schemes' own documentation examples.
const VALID: ReadonlyArray<readonly [Checks.Identifier, string]> = [
  ["cuit", "33-69345023-9"], // AFIP
  ["cuit", "30-70308853-4"],
  ["cuit", "30-54668997-9"], // YPF
  ["cuit", "20-17254359-7"],
  ["nif", "12345678Z"], // the Ministry's example DNI
  ["nif", "X1234567L"], // a NIE
  ["nif", "A28015865"], // Telefónica (a CIF through the NIF check)
  ["nie", "Y2345678Z"],
  ["cif", "A48010615"], // Iberdrola
  ["cif", "A46103834"], // Mercadona
  ["cif", "Q2826000H"], // a public body: the control is a letter
  ["rfc", "WMT970714R10"], // Walmart de México
  ["rfc", "SAT970701NN3"], // SAT
  ["rfc", "GODE561231GR8"], // SAT's example of a person
  ["rfc", "XAXX010101000"], // the generic RFC of the public
  ["rut", "12.345.678-5"],
  ["rut", "96.790.240-3"],
  ["rut", "61.002.000-3"],
  ["nit", "800.197.268-4"], // DIAN
  ["nit", "890.900.608-9"],
  ["nit", "860.034.313-7"],
  ["ruc", "20131312955"], // SUNAT
  ["ruc", "20100047218"],
  ["ruc", "20100070970"],
  ["vat", "ESA28015865"],
  ["vat", "DE136695976"],
  ["vat", "IT00743110157"],
  ["vat", "PT501964843"],
  ["vat", "BE0403170701"],
  ["vat", "NL004495445B01"],
  ["vat", "FR40303265045"],
  ["vat", "ATU13585627"],
  ["iban", "GB82 WEST 1234 5698 7654 32"],
  ["iban", "DE89370400440532013000"],
  ["iban", "ES91 2100 0418 4502 0005 1332"],
  ["iban", "FR1420041010050500013M02606"],
  ["iban", "NL91ABNA0417164300"]
]

/** Every literal one digit away from `literal`: each digit replaced by each other digit. */
const mutations = function* (literal: string): Generator<string> {
  for (let i = 0; i < literal.length; i++) {
    const c = literal[i] ?? ""
    if (!/\d/.test(c)) continue
    for (const other of "0123456789") if (other !== c) yield literal.slice(0, i) + other + literal.slice(i + 1)
  }
}

/** Where the check character is printed: IBANs' 4th character, Dutch VAT's digit before the B, else the last. */
const checkIndex = (kind: Checks.Identifier, literal: string): number => {
  if (kind === "iban") return 3
  if (kind === "vat" && literal.startsWith("NL")) return literal.indexOf("B") - 1
  return literal.search(/[0-9A-Z][^0-9A-Z]*$/)
}

describe("identifier checks", () => {
  it.each(VALID)("%s %s holds", (kind, literal) => {
    expect(Checks.identifier(kind, literal)).toBeUndefined()
    expect(Checks.identifier(kind, literal.toLowerCase())).toBeUndefined()
  })

  it.each(VALID.filter(([, l]) => l !== "XAXX010101000"))("%s %s: any other check character fails", (kind, literal) => {
    const at = checkIndex(kind, literal)
    const c = literal[at] ?? ""
    for (const other of "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
      if (other === c) continue
      const mutated = literal.slice(0, at) + other + literal.slice(at + 1)
      expect([kind, mutated, Checks.identifier(kind, mutated)]).not.toEqual([kind, mutated, undefined])
    }
  })

  // Schemes whose check maps every remainder to its own character catch every one-digit substitution.
  const catchesEverySubstitution = new Set<Checks.Identifier>(["cuit", "nif", "nie", "rut", "iban"])
  it.each(VALID.filter(([kind]) => catchesEverySubstitution.has(kind)))(
    "%s %s: every one-digit substitution fails",
    (kind, literal) => {
      for (const mutated of mutations(literal))
        expect([mutated, Checks.identifier(kind, mutated)]).not.toEqual([mutated, undefined])
    }
  )

  it("the other schemes catch most substitutions", () => {
    for (const [kind, literal] of VALID.filter(([k]) => !catchesEverySubstitution.has(k))) {
      if (literal === "XAXX010101000") continue
      const all = [...mutations(literal)]
      const caught = all.filter((m) => Checks.identifier(kind, m) !== undefined).length
      expect(caught / all.length, `${kind} ${literal}`).toBeGreaterThan(0.8)
    }
  })

  it("Luhn over digits: France's SIREN and SIRET, a substituted digit caught; no digits, no pass", () => {
    expect(Checks.luhn("732829320")).toBe(true)
    expect(Checks.luhn("73282932000074")).toBe(true)
    expect(Checks.luhn("73282932000075")).toBe(false)
    expect(Checks.luhn("")).toBe(false)
    expect(Checks.luhn("7328 2932")).toBe(false)
  })

  it("refuses the wrong shape as format, not checksum", () => {
    expect(Checks.identifier("cuit", "30-7030885-4")).toBe("format")
    expect(Checks.identifier("cuit", "99-70308853-4")).toBe("format")
    expect(Checks.identifier("nif", "1234567Z")).toBe("format")
    expect(Checks.identifier("rfc", "WMT971314R10")).toBe("format") // month 13
    expect(Checks.identifier("ruc", "30131312955")).toBe("format")
    expect(Checks.identifier("vat", "XX123456789")).toBe("format")
    expect(Checks.identifier("iban", "ES91 2100 0418 4502 0005 133")).toBe("format")
  })
})

describe("checkFor", () => {
  const field = (name: string, aliases: ReadonlyArray<string> = [], description = "") => ({
    name,
    aliases,
    description
  })
  it("finds the identifier a field's name, aliases or description names", () => {
    expect(Checks.checkFor(field("cuit_emisor"))).toBe("cuit")
    expect(Checks.checkFor(field("emisor", ["CUIL"]))).toBe("cuit")
    expect(Checks.checkFor(field("proveedor_id", [], "NIF del proveedor"))).toBe("nif")
    expect(Checks.checkFor(field("cuenta", [], "IBAN de la cuenta de abono"))).toBe("iban")
    expect(Checks.checkFor(field("vat_number"))).toBe("vat")
    expect(Checks.checkFor(field("supplier", [], "USt-IdNr. des Lieferanten"))).toBe("vat")
    expect(Checks.checkFor(field("rfc-receptor"))).toBe("rfc")
  })
  it("gives none where no identifier is named, even inside longer words", () => {
    expect(Checks.checkFor(field("total", ["importe"], "Importe total de la factura"))).toBeUndefined()
    expect(Checks.checkFor(field("ruta", [], "Ruta de reparto (unidad)"))).toBeUndefined()
    expect(Checks.checkFor(field("nitrogen"))).toBeUndefined()
  })
})

describe("checkOf", () => {
  const field = (name: string, type: string, validate?: Checks.Identifier | "none") => ({
    name,
    type,
    aliases: [],
    description: "",
    ...(validate === undefined ? {} : { validate })
  })
  it("takes the field's validate, its none, or the default its words give text and number fields", () => {
    expect(Checks.checkOf(field("emisor", "string", "cuit"))).toBe("cuit")
    expect(Checks.checkOf(field("nif_cliente", "string", "none"))).toBeUndefined()
    expect(Checks.checkOf(field("nif_cliente", "string"))).toBe("nif")
    expect(Checks.checkOf(field("cuit", "integer"))).toBe("cuit")
    expect(Checks.checkOf(field("cuit_date", "date"))).toBeUndefined()
  })
})

describe("plausibleDate", () => {
  const today = "2026-11-27"
  it("accepts dates between the floor and a year ahead", () => {
    expect(Checks.plausibleDate("2026-11-27", { today })).toBeUndefined()
    expect(Checks.plausibleDate("1990-01-01", { today })).toBeUndefined()
    expect(Checks.plausibleDate("2027-11-27", { today })).toBeUndefined()
  })
  it("refuses years ahead and dates before the floor", () => {
    expect(Checks.plausibleDate("2029-01-01", { today })).toBe("future")
    expect(Checks.plausibleDate("1989-12-31", { today })).toBe("too_old")
    expect(Checks.plausibleDate("2009-12-31", { today, floor: "2010-01-01" })).toBe("too_old")
    expect(Checks.plausibleDate("2026-12-28", { today, daysAhead: 30 })).toBe("future")
    expect(Checks.plausibleDate("not a date", { today })).toBe("format")
  })
})

describe("the document's arithmetic", () => {
  it("quantity × unit price = line total, within a cent", () => {
    expect(Checks.lineTotal({ quantity: 2, unitPrice: 1.25, total: 2.5 })).toBeUndefined()
    expect(Checks.lineTotal({ quantity: 1.234, unitPrice: 2.99, total: 3.69 })).toBeUndefined()
    expect(Checks.lineTotal({ quantity: 2, unitPrice: 1.25, total: 2.6 })).toBe("mismatch")
  })
  it("lines add up to the subtotal", () => {
    expect(Checks.linesSum([2.5, 3.69, 10], 16.19)).toBeUndefined()
    expect(Checks.linesSum([2.5, 3.69, 10], 17.19)).toBe("mismatch")
  })
  it("subtotal + taxes − discounts = total", () => {
    expect(Checks.totals({ subtotal: 120.4, taxes: [5], discounts: [], total: 125.4 })).toBeUndefined()
    expect(Checks.totals({ subtotal: 100, taxes: [21], discounts: [-10], total: 111 })).toBeUndefined()
    expect(Checks.totals({ subtotal: 120.4, taxes: [5], discounts: [], total: 135.4 })).toBe("mismatch")
  })
})
