import { assert, describe, it } from "@effect/vitest"
import { date } from "../../../src/internal/local/dates.js"
import type { Target } from "../../../src/internal/local/labels.js"
import { layout } from "../../../src/internal/local/layout.js"
import { type Cell, document, page } from "../../support/documents.js"

const FECHA: Target = { name: "fecha", type: "date", aliases: [], description: "Fecha de emisión" }

const dateOf = (rows: ReadonlyArray<ReadonlyArray<Cell>>, target: Target = FECHA) =>
  date(layout(document([page(1, rows)])), target)?.text ?? null

const row = (text: string): ReadonlyArray<Cell> => [[40, text]]

describe("dates", () => {
  it("a German till's security module's start is the sale's date; another start, a period's", () => {
    const till = ["EDEKA Center Muster", "BANANE 1,29 B", "SUMME EUR 1,29"]
    assert.strictEqual(dateOf([...till, "TSE-Start: 2024-03-07T14:22:30"].map(row)), "2024-03-07")
    assert.strictEqual(dateOf([...till, "TSE Start 2024-03-07 14:22:30"].map(row)), "2024-03-07")
    assert.isNull(dateOf([...till, "Start: 2024-03-07T14:22:30"].map(row)))
    assert.isNull(dateOf([...till, "Beginn 01.03.2024"].map(row)))
  })

  it("a sentence over a receipt's date is no header, whatever label its words misread may look like", () => {
    const read = (texts: ReadonlyArray<string>) => {
      const p = page(1, texts.map(row))
      const doubted = { ...p, lines: p.lines.map((l) => ({ words: l.words.map((w) => ({ ...w, confidence: 0.9 })) })) }
      return date(layout(document([doubted])), FECHA)?.text ?? null
    }
    const receipt = ["MINI MARKET FOODS Ltd", "Total Due: 96.50", "CHANGE: 3.50"]
    assert.strictEqual(read([...receipt, "Thank you for shopping with us", "28-05-2019 08:28"]), "28-05-2019")
    // A short header read with a slip still labels (`Shopping` for `Shipping`): a delivery date.
    assert.isNull(read([...receipt, "Shopping date", "28-05-2019 08:28"]))
  })

  it("a town the reader doubted before a date's label is no label word it is a slip away from (Valencia)", () => {
    const p = page(1, [
      [
        [40, "01911 Valencia"],
        [300, "Fecha factura: 04.09.2023"]
      ],
      [[300, "F. vencimiento: 04.10.2023"]]
    ])
    const doubted = { ...p, lines: p.lines.map((l) => ({ words: l.words.map((w) => ({ ...w, confidence: 0.9 })) })) }
    assert.strictEqual(date(layout(document([{ ...doubted, source: "ocr" }])), FECHA)?.text ?? null, "04.09.2023")
  })

  it("another column's label on the date's row is not its label where a date's header is over it", () => {
    const rows = (vat: ReadonlyArray<Cell>) => [
      [
        [60, "Pioneer Supplies Corp."],
        [385, "INVOICE"]
      ] as ReadonlyArray<Cell>,
      [
        [60, "London JS2 2BE"],
        [385, "Date"]
      ] as ReadonlyArray<Cell>,
      vat,
      [[102, "GB717 4967 42"]] as ReadonlyArray<Cell>,
      [[385, "Pay by"]] as ReadonlyArray<Cell>,
      [[385, "02/10/2022"]] as ReadonlyArray<Cell>
    ]
    assert.strictEqual(
      dateOf(
        rows([
          [60, "VAT No."],
          [385, "12/12/2021"]
        ])
      ),
      "12/12/2021"
    )
    // `Pay by` labels a due date, never the issue date.
    assert.isNull(
      dateOf(
        rows([
          [60, "VAT No."],
          [385, "Ref 4711"]
        ])
      )
    )
  })

  it("AFIP: the spaced issue date, not the CAE expiry printed first", () => {
    const rows = [row("CAE N°: 73064284586911 Fecha de Vto. de CAE: 18/02/2023"), row("Fecha de Emisión: 08 / 02 / 23")]
    assert.strictEqual(dateOf(rows), "08 / 02 / 23")
  })

  it("a label naming the issue date and the delivery date as one, by a slash: the issue date", () => {
    const cells = (label: string, value: string): ReadonlyArray<Cell> => [
      [40, label],
      [300, value]
    ]
    assert.strictEqual(dateOf([cells("Rechnungsdatum/Lieferdatum", "12 März 2019")]), "12 März 2019")
    assert.strictEqual(dateOf([row("Invoice / Delivery date: 12/03/2019")]), "12/03/2019")
    assert.strictEqual(dateOf([row("Fecha factura/pedido: 12/03/2019")]), "12/03/2019")
    // A delivery date alone is none; nor is one whose slash parts no issue word names.
    assert.isNull(dateOf([cells("Lieferdatum", "12 März 2019")]))
    assert.isNull(dateOf([row("Liefer-/Versanddatum: 12.03.2019")]))
  })

  it("an issue date by its label over due, delivery and order dates, in each language", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["Fecha de vencimiento: 10/04/2024", "Fecha: 10/03/2024", "10/03/2024"],
      ["Due date: 10/04/2024", "Invoice date: 10/03/2024", "10/03/2024"],
      ["Fällig am 10.04.2024", "Rechnungsdatum 10.03.2024", "10.03.2024"],
      ["Date d'échéance : 10/04/2024", "Date de facture : 10/03/2024", "10/03/2024"],
      ["Scadenza 10/04/2024", "Data fattura 10/03/2024", "10/03/2024"],
      ["Vencimento: 10/04/2024", "Data de emissão: 10/03/2024", "10/03/2024"],
      ["Vervaldatum: 10-04-2024", "Factuurdatum: 10-03-2024", "10-03-2024"],
      ["Lieferdatum: 02.03.2024", "Datum: 10.03.2024", "10.03.2024"],
      ["A PAYER AVANT LE 9 février 2021", "Date d'émission : 10 janvier 2021", "10 janvier 2021"],
      ["Pagare entro il 10/04/2024", "Data 10/03/2024", "10/03/2024"]
    ]
    for (const [other, issue, want] of cases) assert.strictEqual(dateOf([row(other), row(issue)]), want, issue)
    // The last day to pay, with no issue date read: no date rather than the wrong one.
    for (const due of ["A PAYER AVANT LE 9 février 2021", "Pay before 10/04/2024", "Pagar antes de 10/04/2024"])
      assert.isNull(dateOf([row(due)]), due)
  })

  it("a coupon's or a return's last day is not the receipt's date printed under it", () => {
    const cases: ReadonlyArray<string> = [
      "Coupon einlösbar bis 25.04.2020",
      "Umtausch bis 15.05.2020",
      "Devoluciones hasta 15.05.2020",
      "Returns accepted until 15.05.2020",
      "Offre valable jusqu'au 15.05.2020",
      "Promozione valida fino al 15.05.2020",
      "Trocas até 15.05.2020"
    ]
    for (const coupon of cases)
      assert.strictEqual(dateOf([row(coupon), row("15.04.2020 12:34 Bon 1234")]), "15.04.2020", coupon)
  })

  it("a code glued to a word is no label: the column header above the date names it", () => {
    const rows = [
      [
        [40, "19627 Kuala Lumpur"],
        [400, "Invoice Date"]
      ],
      [
        [40, "Company Reg. No.: 566832-U"],
        [400, "12-12-2018"]
      ],
      [[400, "Pay by"]],
      [[400, "01-11-2019"]]
    ] satisfies ReadonlyArray<ReadonlyArray<Cell>>
    assert.strictEqual(dateOf(rows), "12-12-2018")
    // A label glued to its own date still labels it.
    assert.strictEqual(dateOf([row("Due: 01-11-2019"), row("Date:12-12-2018")]), "12-12-2018")
    // A label word with a figure OCR read for a letter still labels its date (`unti1`), where a code does not.
    assert.strictEqual(dateOf([row("Returns accepted unti1 20-12-2019"), row("20-11-2019 15:02")]), "20-11-2019")
    // A bracket OCR read for a label's first letter (`[ate` for `Date`) makes no other word of it (`até`, until).
    assert.strictEqual(dateOf([row("Invoice No.: CS0013132"), row("[ate  :  04/12/17 5:06 PM")]), "04/12/17")
    assert.isNull(dateOf([row("Válido até 30/06/2024")]))
  })

  it("a credit note's reference to the invoice it corrects dates that invoice", () => {
    assert.strictEqual(
      dateOf([
        row("FACTURA RECTIFICATIVA Nº R-2024-0012"),
        row("Rectifica a la factura Nº F-2024-0345 de fecha 10/01/2024"),
        row("Fecha: 25/01/2024")
      ]),
      "25/01/2024"
    )
    assert.strictEqual(
      dateOf([row("Gutschrift Nr. 12"), row("Storno zu Rechnung 2024-17 vom 03.02.2024"), row("Datum: 10.02.2024")]),
      "10.02.2024"
    )
  })

  it("month names: 29 maart 2014, 1. März 2024", () => {
    assert.strictEqual(dateOf([row("Amsterdam, 29 maart 2014")]), "29 maart 2014")
    assert.strictEqual(dateOf([row("Berlin, den 1. März 2024")]), "1. März 2024")
  })

  it("a billing period is not the date; with nothing else printed the field is empty", () => {
    assert.isNull(dateOf([row("Billing period: July 1 - July 31, 2015")]))
    assert.isNull(dateOf([row("Periodo facturado: 01/07/2015 - 31/07/2015")]))
    // Each date of the range written with its article.
    assert.strictEqual(
      dateOf([row("le 7 juin 2022"), row("Période du le 1 juin 2022 -le 28 juin 2022")]),
      "7 juin 2022"
    )
    assert.strictEqual(
      dateOf([row("Service period 01/07/2015 to 31/07/2015"), row("Invoice date 02/08/2015")]),
      "02/08/2015"
    )
    // A label with its own value in the next cell heads no date under it (`Nº operación: | 23/441825`).
    const operation: ReadonlyArray<Cell> = [
      [40, "Nº operación:"],
      [150, "23/441825"]
    ]
    assert.strictEqual(dateOf([operation, row("10-06-2023  07:28")]), "10-06-2023")
    // A payment's or an operation's word names a date only beside a date's word (`Forma de pago` labels none).
    const pago: ReadonlyArray<Cell> = [[40, "Forma de pago"]]
    assert.strictEqual(dateOf([pago, row("10-06-2023  07:28")]), "10-06-2023")
    assert.strictEqual(dateOf([[[40, "Nº operación 10-06-2023"]]]), "10-06-2023")
    assert.isNull(dateOf([[[40, "Fecha de pago: 10-06-2023"]]]))
    // A bill's billing date is its date, its billing period a period.
    assert.strictEqual(
      dateOf([row("Billing date: 03/01/2024"), row("Billing period: 02/01/2024 - 02/29/2024")]),
      "03/01/2024"
    )
  })

  it("the date a document's number is given with (Facture n° 123 du …) is its issue date, not a period's start", () => {
    // Each beside a due date, which a bare date would be tied with.
    const due = row("Échéance : 31/03/2019")
    assert.strictEqual(dateOf([row("Facture n° 12345678 du 01/03/2019"), due]), "01/03/2019")
    assert.strictEqual(dateOf([row("Fattura n. 7/2019 del 15/03/2019"), row("Scadenza 15/04/2019")]), "15/03/2019")
    assert.strictEqual(dateOf([row("Rechnung Nr. 2019-5 vom 12.03.2019"), row("Fällig am 26.03.2019")]), "12.03.2019")
    assert.strictEqual(dateOf([row("FACTURE FA190301234 du 12 mars 2019"), due]), "12 mars 2019")
    // The invoice's noun with no number between (`Facture du`, `Votre facture` over `du …`, `Your bill of`).
    const debit = row("Montant prélevé le 20/03/2024")
    assert.strictEqual(dateOf([row("Facture du 12/03/2024"), debit]), "12/03/2024")
    assert.strictEqual(dateOf([row("Votre facture"), row("du 12 mars 2024"), debit]), "12 mars 2024")
    assert.strictEqual(dateOf([row("Your bill of 12 March 2024"), row("Debited on 20/03/2024")]), "12 March 2024")
    // A direct debit's day dates no invoice; a delivery note's date is another document's.
    assert.isNull(dateOf([row("Votre relevé"), debit]))
    assert.isNull(dateOf([row("Bon de livraison du 12/03/2024")]))
    // A period stays a period, numbered or not.
    assert.isNull(dateOf([row("Facture du 01/03/2019 au 31/03/2019")]))
    assert.isNull(dateOf([row("Facture n° 123 du 01/03/2019 au 31/03/2019")]))
    assert.isNull(dateOf([row("Consommation du 01/03/2019")]))
  })

  it("a field that asks for the due date gets it, by its own name", () => {
    const due: Target = { name: "fecha_vencimiento", type: "date", aliases: [], description: "" }
    assert.strictEqual(dateOf([row("Fecha: 10/03/2024"), row("Vencimiento: 10/04/2024")], due), "10/04/2024")
  })

  it("the label above its date (a column header)", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Vencimiento"],
        [240, "Fecha"]
      ],
      [
        [40, "10/04/2024"],
        [240, "10/03/2024"]
      ]
    ]
    assert.strictEqual(dateOf(rows), "10/03/2024")
    // A figure's label and its amount over a receipt's date is no column header: `BALANCE DUE` names no due date.
    const receipt = (label: string, amount: string): ReadonlyArray<ReadonlyArray<Cell>> => [
      row("TESCO STORES"),
      [
        [40, label],
        [200, amount]
      ],
      row("12/03/24 14:23")
    ]
    assert.strictEqual(dateOf(receipt("BALANCE DUE", "3.29")), "12/03/24")
    assert.strictEqual(dateOf(receipt("Vencimiento", "")), null)
  })

  it("an ambiguous date is returned as printed, whatever order the page writes (assembly reads it)", () => {
    assert.strictEqual(dateOf([row("Issue date: 07.05.18"), row("Service period: 07.01.18 - 07.28.18")]), "07.05.18")
    assert.strictEqual(dateOf([row("Invoice date: 04/05/2024"), row("Ship date: 03/25/2024")]), "04/05/2024")
  })

  it("spaced dates with hyphens: 24 - 05 - 20 under Data documento", () => {
    const rows = [row("Data documento"), row("24 - 05 - 20"), row("Scad."), row("23 - 06 - 20")]
    assert.strictEqual(dateOf(rows), "24 - 05 - 20")
  })

  it("a last day to pay (data limite, fecha límite) is a due date, not the issue date", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Rua Serviços 225"],
        [330, "2018-03-28"]
      ],
      [[40, "Data limite de pagamento: 2018-04-27"]],
      [[40, "Data de entrega: 2018-03-19"]]
    ]
    assert.strictEqual(dateOf(rows), "2018-03-28")
  })

  it("a due-date label OCR misread (Vencirniento) still names a due date; a printed word is itself", () => {
    const rows = [row("Vencirniento: 02/04/23"), row("Zaragoza, 16/02/23")]
    const read = page(1, rows)
    const ocr = { ...read, lines: read.lines.map((l) => ({ words: l.words.map((w) => ({ ...w, confidence: 0.9 })) })) }
    assert.strictEqual(date(layout(document([ocr])), FECHA)?.text, "16/02/23")
    // In a text layer an unknown word is what it prints, and no label: the place before the other dates the letter.
    assert.strictEqual(dateOf(rows), "16/02/23")
  })

  it("unlabelled dates that disagree give no date; a label, or dates that agree, decide", () => {
    // A till receipt's date and a best-before date, both bare.
    assert.isNull(dateOf([row("REWE Markt GmbH"), row("12.03.2020 14:22"), row("31.03.2020")]))
    // The same date twice (the receipt and its card slip), written two ways.
    assert.strictEqual(dateOf([row("12.03.2020 14:22"), row("Datum 12.03.20 Uhrzeit 14:23")]), "12.03.20")
    assert.strictEqual(dateOf([row("12.03.2020 14:22"), row("12.03.20 14:23")]), "12.03.2020")
    // A German till's signature times (`TSE-Start`), year first, agree with the receipt's date.
    const tse = [row("TSE-Start: 2020-03-12T14:22:11.000"), row("TSE-Stop: 2020-03-12T14:22:12.000")]
    assert.strictEqual(dateOf([...tse, row("12.03.2020")]), "12.03.2020")
    assert.strictEqual(dateOf(tse), "2020-03-12")
    assert.isNull(dateOf([...tse, row("TSE-Signatur: 2020-03-13T14:22:11.000")]))
    // A date printed bare is the receipt's, before one that words no label names (`Punktestand am`, `Geburtstag:`).
    for (const other of ["Punktestand am 14.03.2020: 1234", "Geburtstag: 01.01.1980", "Kundenkarte seit 01.03.2015"])
      assert.strictEqual(dateOf([row("12.03.2020 14:22"), row(other)]), "12.03.2020", other)
    // A compound label's kind by the label it opens with (`Fälligkeitsdatum`); one of a kind unknown (`Kaufdatum`,
    // `Besteldatum` over its column) names a date as a bare one does: disagreeing, no date; an issue label decides.
    assert.strictEqual(dateOf([row("Fälligkeitsdatum: 10.04.2020"), row("12.03.2020")]), "12.03.2020")
    assert.isNull(dateOf([row("Kaufdatum: 10.03.2020"), row("12.03.2020")]))
    const columns = (...texts: ReadonlyArray<string>): ReadonlyArray<Cell> => texts.map((t, i) => [40 + i * 120, t])
    assert.strictEqual(
      dateOf([columns("BESTELDATUM", "DATUM FACTUUR"), columns("26.08.2019", "02.09.2019")]),
      "02.09.2019"
    )
    // The label in the cell above a date written with its article (`le 27 mars 2022`).
    assert.strictEqual(
      dateOf([row("Date d'émission"), row("le 27 mars 2022"), row("À payer avant le"), row("le 26 mai 2022")]),
      "27 mars 2022"
    )
    // A delivery date by its participle (`Livré le`), the other one the issue date.
    assert.strictEqual(dateOf([row("Le 25/06/19"), row("Livré le 24/06/19")]), "25/06/19")
  })

  it("Polish invoices: Data wystawienia is the issue date, not the sale's date or the term of payment", () => {
    assert.strictEqual(dateOf([row("Data sprzedaży: 2021-03-01"), row("Data wystawienia: 2021-03-03")]), "2021-03-03")
    assert.strictEqual(dateOf([row("Data wystawienia: 03.03.2021"), row("Termin płatności: 17.03.2021")]), "03.03.2021")
    assert.isNull(dateOf([row("Termin płatności: 17.03.2021")]))
  })
})
