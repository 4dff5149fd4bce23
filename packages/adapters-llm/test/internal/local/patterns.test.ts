import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import {
  amounts,
  amountValue,
  codes,
  dates,
  emails,
  labelledTaxIds,
  phones,
  taxIds
} from "../../../src/internal/local/patterns.js"

const texts = (matches: ReadonlyArray<{ readonly text: string }>) => matches.map((m) => m.text)

/** Each text's dates, as given. */
const readAs = (cases: ReadonlyArray<readonly [string, ReadonlyArray<string>]>) => {
  for (const [text, want] of cases) assert.deepStrictEqual(texts(dates(text)), want, text)
}

const group = (digits: string, separator: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator)

describe("patterns", () => {
  it("codes: one after its label's colon with no space, never a time's minutes", () => {
    assert.deepStrictEqual(texts(codes("FS n.º:78/562057")), ["78/562057"])
    assert.deepStrictEqual(texts(codes("Ticket 1234 19:28")), ["1234"])
  })

  it("dates: numeric day-first or month-first, ISO, Spanish and English month names; not times or phones", () => {
    assert.deepStrictEqual(texts(dates("DATE: 11/01/2019 09:44:00")), ["11/01/2019"])
    // A two-digit year is never cut from longer figures: `08-09-202:1` (OCR broke the year) is no `08-09-20`.
    assert.deepStrictEqual(texts(dates("08-09-202:1  18:16")), [])
    // A hyphen OCR read as a dash still joins a date, given with hyphens.
    assert.deepStrictEqual(texts(dates("22 - 02 — 24  14:43")), ["22 - 02 - 24"])
    assert.deepStrictEqual(texts(dates("Fecha: 03–05–2024")), ["03-05-2024"])
    assert.deepStrictEqual(texts(dates("29-12-2017 y 19.03.18")), ["29-12-2017", "19.03.18"])
    assert.deepStrictEqual(texts(dates("vence el 12 de marzo de 2024")), ["12 de marzo de 2024"])
    assert.deepStrictEqual(texts(dates("Fecha: 3 Ene. 2025")), ["3 Ene. 2025"])
    assert.deepStrictEqual(texts(dates("15 JAN 2018, Jan 15, 2018")), ["15 JAN 2018", "Jan 15, 2018"])
    assert.deepStrictEqual(texts(dates("June 12,2020 10:11")), ["June 12,2020"])
    assert.deepStrictEqual(texts(dates("2024-03-12T10:00")), ["2024-03-12"])
    assert.deepStrictEqual(texts(dates("TEL 07-5547360 / 016-7993391, 32/13/2020")), [])
  })

  it("e-mail addresses and phone numbers; never a date, an amount or a short code", () => {
    assert.deepStrictEqual(texts(emails("Tel: 0113 496 0000  accounts@brightsigns.co.uk")), [
      "accounts@brightsigns.co.uk"
    ])
    assert.deepStrictEqual(texts(emails("info@café-luz.es, a@b")), ["info@café-luz.es"])
    assert.deepStrictEqual(texts(phones("Tel: 0113 496 0000  accounts@x.co")), ["0113 496 0000"])
    assert.deepStrictEqual(texts(phones("Tlf. +34 912 345 678 / (03) 1234-5678")), [
      "+34 912 345 678",
      "(03) 1234-5678"
    ])
    assert.deepStrictEqual(texts(phones("12/03/2024 Total 1.234.567,89 Ref 12345")), [])
  })

  it("dates: a month's name with a two-digit year apart by spaces or an apostrophe (05 Mar 24, Mar 5 '24)", () => {
    assert.deepStrictEqual(texts(dates("DATE 05 Mar 24 14:02")), ["05 Mar 24"])
    assert.deepStrictEqual(texts(dates("5 Mar '24")), ["5 Mar '24"])
    assert.deepStrictEqual(texts(dates("Mar 5 '24")), ["Mar 5 '24"])
    // Never a range, a time or more figures after the month.
    assert.deepStrictEqual(texts(dates("1 - July 31")), [])
    assert.deepStrictEqual(texts(dates("05 Mar 24:00")), [])
    assert.deepStrictEqual(texts(dates("05 Mar 245")), [])
    // Nor a month-first date's day with a four-digit year after it, a figure of another cell before the month
    // (`Reg. No.: GB848 7526 11  Jul 16, 2018`): the 16th of July 2018.
    assert.deepStrictEqual(texts(dates("Reg. No.: GB848 7526 11  Jul 16, 2018")), ["Jul 16, 2018"])
    assert.deepStrictEqual(texts(dates("No. 4 12 Mar 05 2024")), ["Mar 05 2024"])
  })

  it("dates: a time glued to a year, by a mark or none (05.03.2024/12:34, 07.04.2014:38), no year cut short", () => {
    assert.deepStrictEqual(texts(dates("05.03.2024/12:34")), ["05.03.2024"])
    assert.deepStrictEqual(texts(dates("05/03/2024-9:15")), ["05/03/2024"])
    assert.deepStrictEqual(texts(dates("05.03.2024/12")), [])
    // The space before the time lost by OCR; a year glued to figures that make no time is no date.
    assert.deepStrictEqual(texts(dates("05.03.202412:34")), ["05.03.2024"])
    assert.deepStrictEqual(texts(dates("05.03.20241 05.03.2024123")), [])
    // A two-digit year glued to its time is no year of four (`07.04.2014:38`: the 7th of April 2020 at 14:38).
    readAs([
      ["07.04.2014:38", ["07.04.20"]],
      ["Datum 08.10.1614:16 Uhr", ["08.10.16"]],
      ["07/04/2014:38", ["07/04/20"]],
      // …or glued by a slash (`07.03.24/14:22`); figures that make no time after it, no date.
      ["Datum 07.03.24/14:22", ["07.03.24"]],
      ["07.03.24/1422", []]
    ])
  })

  it("dates: spaced and dotted numbers, month names in seven languages; a range is not a date", () => {
    assert.deepStrictEqual(texts(dates("Fecha: 08 / 02 / 23 CAE")), ["08 / 02 / 23"])
    assert.deepStrictEqual(texts(dates("Datum 20.03.2023 10:14")), ["20.03.2023"])
    assert.deepStrictEqual(texts(dates("Data da fatura: 2018 - 05 - 01  HORA: 10:11")), ["2018 - 05 - 01"])
    assert.deepStrictEqual(texts(dates("Data documento 24 - 05 - 20")), ["24 - 05 - 20"])
    // A mark OCR read twice.
    assert.deepStrictEqual(texts(dates("Datum:  09..09.2021  TIJD:  10:39")), ["09.09.2021"])
    // A month first, its comma read as a dot.
    assert.deepStrictEqual(texts(dates("Date of issue: Sep 01. 2023")), ["Sep 01. 2023"])
    // The day read as a cell of its own, two spaces apart from the rest.
    assert.strictEqual(texts(dates("01  .05.19  17:52")).length, 1)
    assert.deepStrictEqual(texts(dates("Amsterdam, 29 maart 2014")), ["29 maart 2014"])
    assert.deepStrictEqual(texts(dates("Datum: 12. Mrz. 2019")), ["12. Mrz. 2019"])
    // A month name with its `l` read as a one or an I, between a day and a year: given as printed.
    assert.deepStrictEqual(texts(dates("DATA: 23 1ug 2020")), ["23 lug 2020"])
    assert.deepStrictEqual(texts(dates("12 Ju1y 2021, 5 apriI 2019")), ["12 july 2021", "5 april 2019"])
    assert.deepStrictEqual(texts(dates("1 1ug 20")), [])
    // An `o` read as a zero, the day and year apart by `de`.
    assert.deepStrictEqual(texts(dates("FECHA: 2 de ag0sto de 2019 HORA: 20:50")), ["2 de agosto de 2019"])
    assert.deepStrictEqual(texts(dates("14 0ttobre 2021")), ["14 ottobre 2021"])
    // Month first too (`Invoice Date:  0ctober 28,  2020`).
    assert.deepStrictEqual(texts(dates("Invoice Date:  0ctober 28,  2020  Time: 16:20")), ["october 28,  2020"])
    assert.deepStrictEqual(texts(dates("Ju1y 4th 2021")), ["july 4th 2021"])
    assert.deepStrictEqual(texts(dates("s0ld 0ut 12, 2021")), [])
    // A month's abbreviation with the space after its dot lost (`Apr.17, 2019`); no month, no date.
    assert.deepStrictEqual(texts(dates("Issue date: Apr.17, 2019 TIME: 13:12")), ["Apr.17, 2019"])
    assert.deepStrictEqual(texts(dates("Ref No.17, 2019")), [])
    // Portuguese `out` (outubro) too, between a day and a year; not the English word.
    assert.deepStrictEqual(texts(dates("DATA: 23 0ut de 2021 HORA: 20:34")), ["23 out de 2021"])
    assert.deepStrictEqual(texts(dates("sold 0ut 2021")), [])
    assert.deepStrictEqual(texts(dates("Lote 2 a00 2019")), [])
    // A day's one read as an `l`.
    assert.deepStrictEqual(texts(dates("FJE-770443  1l ene de 2025  26 ene de 2025")), [
      "11 ene de 2025",
      "26 ene de 2025"
    ])
    assert.deepStrictEqual(texts(dates("Datum: l2 März 2024")), ["12 März 2024"])
    assert.deepStrictEqual(texts(dates("Art. 4l ene 2025")), [])
    // A year first, each figure and mark a cell of its own (two spaces apart in the row's text).
    assert.deepStrictEqual(texts(dates("2024  -  06  -  26  12:25")), ["2024-06-26"])
    assert.deepStrictEqual(texts(dates("Berlin, den 1. März 2024")), ["1. März 2024"])
    assert.deepStrictEqual(texts(dates("le 3 août 2024 ; 1er février 2025")), ["3 août 2024", "1er février 2025"])
    assert.deepStrictEqual(texts(dates("Milano, 15 maggio 2024 - 7 de março de 2024")), [
      "15 maggio 2024",
      "7 de março de 2024"
    ])
    assert.deepStrictEqual(texts(dates("12-MAR-24")), ["12-MAR-24"])
    assert.deepStrictEqual(texts(dates("Billing period: July 1 - July 31, 2015")), ["July 31, 2015"])
    assert.deepStrictEqual(texts(dates("3 items 12 market 2024")), [])
    assert.deepStrictEqual(texts(dates("DATA 25 out 2022")), ["25 out 2022"])
    assert.deepStrictEqual(texts(dates("Data de emissão 27 out de 2022")), ["27 out de 2022"])
    assert.deepStrictEqual(texts(dates("sold out 12 2022, out 25, 2022")), [])
  })

  it("dates OCR misread: a slash read as a one, an l or a bar; a hyphen beside a slash", () => {
    readAs([
      ["Date: 12/0212018 08:30", ["12/02/2018"]],
      ["Date: 12/02|2018", ["12/02/2018"]],
      ["DATE 12l02/2018", ["12/02/2018"]],
      ["12|02/2018", ["12/02/2018"]],
      ["12-02/2018", ["12-02-2018"]],
      // A one between a day and a month of one figure, or a year of another era, stays figures.
      ["Ref 12/212018", []],
      ["Tel 03/1234567", []],
      ["12/0213456", []]
    ])
  })

  it("dates OCR misread on a till: one dot read as a comma, or lost before the time", () => {
    readAs([
      ["07,04.20 14:38", ["07.04.20"]],
      ["Datum 07.04,20", ["07.04.20"]],
      ["07.0420 14:38 Bon 1234", ["07.04.20"]],
      ["0704.20 14:38", ["07.04.20"]],
      ["07.042020 14:38", ["07.04.2020"]],
      // The first mark lost, its space kept.
      ["14 09 . 2019  10:40", ["14.09.2019"]],
      ["14  09 . 2019  10:40", ["14.09.2019"]],
      ["14 09.2019 10:40", ["14.09.2019"]],
      // The second mark lost, its space kept.
      ["14.03 2023   10:23   Bon-Nr.:4711", ["14.03.2023"]],
      ["14 . 03  2023 10:23", ["14.03.2023"]],
      // One mark lost, the time after its label.
      ["DATUM: 06 12. 2022 TIJD: 07:00", ["06.12.2022"]],
      ["14.03 2023 Hora 10:23", ["14.03.2023"]],
      ["14 09.2019 Kasse 3 10:40", []],
      // Both lost, the time after them: given with dots.
      ["07 03 2024 14:22 UHR", ["07.03.2024"]],
      ["07 03 2024", []],
      ["07 33 2024 14:22", []],
      ["Tel 0221 07 03 2024 14:22", []],
      // Spread over cells (two spaces between them).
      ["07  10  2022  15:38", ["07.10.2022"]],
      ["Tel 0221  07  10  2022  15:38", []],
      // No time after the figures, two marks alike or no month: no date.
      ["Artikel 07.0420", []],
      ["Nr 14 09.2019", []],
      ["Art 14.03 2023", []],
      ["12.50 2023 10:23", []],
      ["14 39.2019 10:40", []],
      ["1,23,456.00", []],
      ["12,34.56", []]
    ])
  })

  it("dates OCR misread: an O for a zero, a comma or stray mark for a separator; given as the date printed", () => {
    assert.deepStrictEqual(texts(dates("Datum 14.1O.2019")), ["14.10.2019"])
    assert.deepStrictEqual(texts(dates("26  .  02  .2022  19:03")), ["26.02.2022"])
    assert.deepStrictEqual(texts(dates("Fecha: 14,10.2019 12:34")), ["14.10.2019"])
    assert.deepStrictEqual(texts(dates("24  -  07  - :2021  09:56")), ["24-07-2021"])
    assert.deepStrictEqual(texts(dates("O1.O2.2O")), ["01.02.20"])
    // An `l` or `I` for a one; a mark with the reader's spaces after it, spread over cells.
    assert.deepStrictEqual(texts(dates("Date of issue:  10  .  l2  .  2025  TIME:  16:47")), ["10.12.2025"])
    assert.deepStrictEqual(texts(dates("DATUM:  01/  11/ 2021  Tijd:  1l:26")), ["01/11/2021"])
    assert.deepStrictEqual(texts(dates("Ref I2.1O.2I")), ["12.10.21"])
    assert.deepStrictEqual(texts(dates("Fecha:  23 /  08  /  21  Hora:  20:12")), ["23/08/21"])
    // A till's figures with OCR's spaces are no date: `S = 6.  10.75  .65`.
    assert.deepStrictEqual(texts(dates("S = 6.  10.75  .65")), [])
    // Words are no figures: `il.lo.2019` has no digit in its day or month.
    assert.deepStrictEqual(texts(dates("il.lo.2019")), [])
    // German, Dutch and Portuguese receipts: a two-digit year and the time after it.
    assert.deepStrictEqual(texts(dates("14.10.19 12:34")), ["14.10.19"])
    // Amounts and a list of them are not dates.
    assert.deepStrictEqual(texts(dates("1.10, 20.00  12,50, 10.2019")), [])
    // A time glued to an ISO date by a hyphen OCR read for the space; longer figures are no date.
    assert.deepStrictEqual(texts(dates("2018-08-17-10:11")), ["2018-08-17"])
    assert.deepStrictEqual(texts(dates("2018-08-17-1011")), [])
  })

  it("amounts grouped by an apostrophe (Switzerland), straight or typographic: CHF 1'234.50, Fr. 1’234.50", () => {
    assert.deepStrictEqual(
      amounts("Total CHF 1'234.50 Fr. 1’234.50 12’345’678.00").map((a) => a.value),
      [1234.5, 1234.5, 12345678]
    )
  })

  it("amounts grouped by lakhs and crores (India): 1,23,456.00 and Rs. 12,34,567.50", () => {
    assert.deepStrictEqual(
      amounts("Grand Total ₹ 1,23,456.00 Rs. 12,34,567.50").map((a) => a.value),
      [123456, 1234567.5]
    )
    // Pairs of figures with no paise after them are no amount at all.
    assert.deepStrictEqual(texts(amounts("1,23,456")), [])
    // A figure read for a word's first letter: the word is a label, its figure no amount; a unit is no word.
    assert.deepStrictEqual(texts(amounts("5UMME 4,99 0RTSTARIF 5 Stk 10kg")), ["4,99", "5", "10"])
    // A comma OCR read as a semicolon: the amount's, not two figures (`4  ŒUFS X12  9,04  36;16`).
    assert.deepStrictEqual(texts(amounts("4  ŒUFS X12  9,04  36;16")), ["4", "9,04", "36,16"])
    assert.deepStrictEqual(texts(amounts("Art. 3;125")), ["3", "125"])
    // One capital glued before an amount with its cents (a euro sign read `E`, a speck `M`): the amount; a code's
    // letters, or a letter before a figure with no cents, a code.
    assert.deepStrictEqual(texts(amounts("Kreditkarte M17,06 E2,49 ZJ86 A12 AB12,50")), ["17,06", "2,49"])
  })

  it("amounts: both conventions, currency glued in front; not dates, percentages, codes or phone numbers", () => {
    assert.deepStrictEqual(
      amounts("RM327.00 1.234,56 € $ 1,234.56 -0.02").map((a) => a.value),
      [327, 1234.56, 1234.56, -0.02]
    )
    assert.deepStrictEqual(texts(amounts("IVA 21% el 12/03/2024 ZJ86 SHO1 07-5547360 CAE 73064284586911")), [])
    assert.deepStrictEqual(texts(amounts("Comp. Nro 00000128 total 178000,00")), ["178000,00"])
    // OCR reads a pound sign as `f` before an amount with its pence; a code's letter stays a code's.
    assert.deepStrictEqual(texts(amounts("Grand Total f3,021.71")), ["3,021.71"])
    assert.deepStrictEqual(texts(amounts("Invoice F1234 ref f2024 elf5.00")), [])
    // The rupee's `Rs.` glued to its amount; a number word's dot before figures stays no amount's.
    assert.deepStrictEqual(texts(amounts("TOTAL: Rs.76.27 Rs.500.00 Rs.-40.00")), ["76.27", "500.00", "-40.00"])
    assert.deepStrictEqual(texts(amounts("No.500.00 Nos.12.50")), [])
  })

  it("amounts: thousands grouped by a space, with decimals; a quantity two spaces (a cell) before a price", () => {
    assert.deepStrictEqual(
      amounts("Net à payer:  15 080,83 €").map((a) => a.value),
      [15080.83]
    )
    assert.deepStrictEqual(texts(amounts("Licença de software  18  1 302,76€  23 449,68€")), [
      "18",
      "1 302,76",
      "23 449,68"
    ])
    assert.deepStrictEqual(
      amounts("Maintenance mensuelle  23  533,08 €").map((a) => a.value),
      [23, 533.08]
    )
  })

  it.prop(
    "an amount printed in either convention reads back to its value",
    [Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 99_999_999_99 }))],
    ([cents]) => {
      const integer = String(Math.floor(cents / 100))
      const decimals = String(cents % 100).padStart(2, "0")
      const value = cents / 100
      assert.strictEqual(amountValue(`${group(integer, ".")},${decimals}`), value)
      assert.strictEqual(amountValue(`${group(integer, ",")}.${decimals}`), value)
      assert.deepStrictEqual(
        amounts(`Total: ${group(integer, ".")},${decimals} €`).map((a) => a.value),
        [value]
      )
    },
    { arbitrary: { seed: 4005, runs: 300 } }
  )

  it("tax ids: CUIT with its check digit, Spanish NIF with its letter, NIE, CIF, RFC (core's checks)", () => {
    assert.deepStrictEqual(texts(taxIds("CUIT 23-10058899-4 y 23100588994 y 23-10058899-5")), [
      "23-10058899-4",
      "23100588994"
    ])
    // A remainder of 10 is no check figure: AFIP issues such a number under another prefix, never with a 9.
    assert.deepStrictEqual(texts(taxIds("CUIT 20-12345600-9")), [])
    assert.deepStrictEqual(texts(taxIds("NIF 12345678Z, NIE X1234567L, CIF B12345674, mal 12345678A, B12345678")), [
      "12345678Z",
      "X1234567L",
      "B12345674"
    ])
    assert.deepStrictEqual(texts(taxIds("RFC: GODE561231GR8, GODE561331GR8")), ["GODE561231GR8"])
  })

  it("tax ids: European VAT numbers with their country's prefix, Switzerland's UID", () => {
    assert.deepStrictEqual(
      texts(taxIds("USt-IdNr. DE123456789 · ATU12345678 · NL123456789B01 · GB 123 4567 89 · CHE-123.456.789")),
      ["DE123456789", "ATU12345678", "NL123456789B01", "GB 123 4567 89", "CHE-123.456.789"]
    )
    // Not without its prefix, nor with too few or too many figures.
    assert.deepStrictEqual(texts(taxIds("123456789 DE12345678 DE1234567890")), [])
    // Printed in groups, where its check figures hold; a run that goes on into other figures ends where they do.
    for (const id of [
      "FR 44 732829320",
      "FR44 732 829 320",
      "DE 123 456 788",
      "BE 0456.789.133",
      "NL 0012.34.560.B.01"
    ])
      assert.deepStrictEqual(texts(taxIds(`TVA: ${id}`)), [id], id)
    assert.deepStrictEqual(texts(taxIds("TVA FR 44 732829320 00074")), ["FR 44 732829320"])
    assert.deepStrictEqual(texts(taxIds("DE 123 456 789 · FR 45 732829320 · PRECIO DE 123 456 788")), [])
    assert.deepStrictEqual(texts(taxIds("USt-IdNr.: DE 123 456 788")), ["DE 123 456 788"])
  })

  it("tax ids after their label: national ones with their check figure, printed with no prefix", () => {
    // Italy's partita IVA, France's SIRET and SIREN, Portugal's NIF, Germany's Steuernummer.
    for (const id of ["00743110157", "732 829 320 00074", "732829320", "501964843", "12/345/67890"])
      assert.deepStrictEqual(texts(labelledTaxIds(`N.: ${id}`)), [id], id)
    // Italy's codice fiscale, a person's, with its check letter.
    assert.deepStrictEqual(texts(labelledTaxIds("C.F.: RSSMRA85T10A562S")), ["RSSMRA85T10A562S"])
    // A check figure wrong: none of them; and never by position (`taxIds`).
    assert.deepStrictEqual(texts(labelledTaxIds("N.: 00743110158 732 829 320 00075 501964842 RSSMRA85T10A562T")), [])
    assert.deepStrictEqual(texts(taxIds("P.IVA 00743110157")), [])
  })

  it("codes: words with digits, not amounts with decimals or dates", () => {
    assert.deepStrictEqual(texts(codes("Nº F-2026/0042 del 12/03/2026 por 45,00")), ["F-2026/0042"])
  })
})
