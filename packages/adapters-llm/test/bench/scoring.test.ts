import { describe, expect, it } from "@effect/vitest"
import {
  amountRight,
  amountValue,
  dateOrderOf,
  dateReadings,
  dateRight,
  decimalSeparatorOf,
  documentNumber,
  name,
  printed,
  sameName
} from "../../bench/scoring.js"

describe("bench scoring: dates", () => {
  it("reads numeric, spaced, dotted and ISO forms", () => {
    expect(dateReadings("20.03.2023")).toEqual(["2023-03-20"])
    expect(dateReadings("08 / 02 / 23")).toEqual(["2023-02-08", "2023-08-02"])
    expect(dateReadings("2024-03-12")).toEqual(["2024-03-12"])
    expect(dateReadings("03/25/2024")).toEqual(["2024-03-25"])
    expect(dateReadings("25/03/99")).toEqual(["1999-03-25"])
  })

  it("reads month names in the seven languages", () => {
    expect(dateReadings("29 maart 2014")).toEqual(["2014-03-29"])
    expect(dateReadings("1. März 2024")).toEqual(["2024-03-01"])
    expect(dateReadings("12 de marzo de 2024")).toEqual(["2024-03-12"])
    expect(dateReadings("March 12th, 2024")).toEqual(["2024-03-12"])
    expect(dateReadings("3 août 2021")).toEqual(["2021-08-03"])
    expect(dateReadings("7 settembre 2022")).toEqual(["2022-09-07"])
    expect(dateReadings("5 de dezembro de 2020")).toEqual(["2020-12-05"])
    expect(dateReadings("12-MAR-2024")).toEqual(["2024-03-12"])
    expect(dateReadings("12-Mar-24")).toEqual(["2024-03-12"])
    expect(dateReadings("12 Mar 24")).toEqual(["2024-03-12"])
    expect(dateReadings("Mar 12 '24")).toEqual(["2024-03-12"])
  })

  it("rejects literals that are not a date", () => {
    expect(dateReadings("Fecha: 12/03/2024")).toEqual([])
    expect(dateReadings("1 - July 31")).toEqual([])
    expect(dateReadings("31/02/2024")).toEqual([])
    expect(dateReadings("0005-00011643")).toEqual([])
  })

  it("settles an ambiguous order by the document's other dates, else accepts either reading", () => {
    expect(dateOrderOf("Due 04/25/2024")).toBe("mdy")
    expect(dateOrderOf("Vence 25/04/2024")).toBe("dmy")
    expect(dateOrderOf("nothing")).toBeUndefined()
    expect(dateRight("03/04/2024", "2024-03-04", "Due date 04/25/2024")).toBe(true)
    expect(dateRight("03/04/2024", "2024-03-04", "Vencimiento 25/04/2024")).toBe(false)
    expect(dateRight("03/04/2024", "2024-04-03", "")).toBe(true)
    expect(dateRight("20.03.2023", "2023-03-21", "")).toBe(false)
    expect(dateRight(undefined, "2023-03-21", "")).toBe(false)
  })
})

describe("bench scoring: amounts", () => {
  it("reads both conventions and ignores currencies", () => {
    expect(amountValue("1.234,56 €", ",")).toBe(1234.56)
    expect(amountValue("1,234.56", ".")).toBe(1234.56)
    expect(amountValue("1 234,56", ",")).toBe(1234.56)
    expect(amountValue("RM 9.00")).toBe(9)
    expect(amountValue("EUR 12,50", ",")).toBe(12.5)
    expect(amountValue("-21,68", ",")).toBe(-21.68)
    expect(amountValue("(3.00)")).toBe(-3)
  })

  it("reads a lone separator as the document's decimal one", () => {
    expect(amountValue("1,000 kg", ",")).toBe(1)
    expect(amountValue("1,000", ".")).toBe(1000)
    expect(amountValue("1.234", ",")).toBe(1234)
    // No grouping has two digits: a lone mark before two is decimal, whatever the page's convention.
    expect(amountValue("65,04", ".")).toBe(65.04)
    expect(amountValue("7.5", ",")).toBe(7.5)
    expect(decimalSeparatorOf("TOTAL 12,50\nIVA 2,17")).toBe(",")
    expect(decimalSeparatorOf("TOTAL 12.50 RM")).toBe(".")
  })

  it("rejects literals with other words, and compares to the cent", () => {
    expect(amountValue("TOTAL 12,50", ",")).toBeUndefined()
    expect(amountValue("Bar 10,00", ",")).toBeUndefined()
    expect(amountValue("12,5,0", ",")).toBeUndefined()
    expect(amountRight("112.46", 112.45, ".")).toBe(false)
    expect(amountRight("112.45", 112.45, ".")).toBe(true)
    expect(amountRight(undefined, 1, ".")).toBe(false)
  })
})

describe("bench scoring: numbers and names", () => {
  it("removes a leading number label and collapses spaces", () => {
    expect(documentNumber("#BLR_WFLD20151000982590")).toBe("BLR_WFLD20151000982590")
    expect(documentNumber("Nº 0005-00011643")).toBe("0005-00011643")
    expect(documentNumber("  F-2024  001 ")).toBe("F-2024 001")
    expect(documentNumber("NO.53")).toBe("53")
  })

  it("compares names without case or spacing differences", () => {
    expect(name("  SANYU  Stationery SHOP ")).toBe(name("sanyu stationery shop"))
    expect(name("Coolblue B.V.")).not.toBe(name("Coolblue"))
    // The annotator's spacing and a trailing full stop are not the document's.
    expect(name("NO. 53 , JALAN PUTRA.")).toBe(name("NO.53, JALAN PUTRA"))
    expect(name("JALAN PUTRA 2")).not.toBe(name("JALAN PUTRA 3"))
    // The annotator's own marks between an address's parts: SROIE's key of a print with periods.
    expect(name("NO 7. SIMPANG OFF BATU VILLAGE. JALAN IPOH BATU 5. 51200 KUALA LUMPUR")).toBe(
      name("NO 7. SIMPANG OFF BATU VILLAGE, JALAN IPOH BATU 5, 51200 KUALA LUMPUR")
    )
    expect(name("BATU VILLAGE. JALAN")).not.toBe(name("BATU VILLAGE JALAN"))
    // A legal form spelled out is its abbreviation; the name itself is still compared whole.
    expect(sameName("Polski Koncern Naftowy ORLEN S.A.", "Polski Koncern Naftowy ORLEN spółka akcyjna")).toBe(true)
    expect(sameName("Mercadona, S.A.", "Mercadona, Sociedad Anónima")).toBe(true)
    expect(sameName("Müller GmbH", "Müller Gesellschaft mit beschränkter Haftung")).toBe(true)
    expect(sameName("Polski Koncern ORLEN S.A.", "Polski Koncern Naftowy ORLEN spółka akcyjna")).toBe(false)
    // Where no form is spelled out, dots still count, as SROIE's exact match has them.
    expect(sameName("AEON CO (M) BHD", "AEON CO. (M) BHD")).toBe(false)
    expect(printed("Coolblue  B.V.", "Factuur\nCOOLBLUE B.V. Weena 664")).toBe(true)
    expect(printed("Polski Koncern Naftowy ORLEN spółka akcyjna", "ORLEN S.A.")).toBe(false)
  })
})
