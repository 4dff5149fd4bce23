import { assert, describe, it } from "@effect/vitest"
import type { Target } from "../../../src/internal/local/labels.js"
import { layout } from "../../../src/internal/local/layout.js"
import { documentNumber } from "../../../src/internal/local/numbers.js"
import { type Cell, document, page } from "../../support/documents.js"

const NUMERO: Target = { name: "numero", type: "string", aliases: [], description: "Número de factura" }

const row = (text: string): ReadonlyArray<Cell> => [[40, text]]

const numberOf = (pages: ReadonlyArray<ReadonlyArray<ReadonlyArray<Cell>>>, target: Target = NUMERO) =>
  documentNumber(layout(document(pages.map((rows, i) => page(i + 1, rows)))), target)?.text ?? null

/** The number of one page of rows read by OCR: every word read with some doubt. */
const ocrNumberOf = (rows: ReadonlyArray<ReadonlyArray<Cell>>) => {
  const read = page(1, rows)
  const lines = read.lines.map((l) => ({ words: l.words.map((w) => ({ ...w, confidence: 0.93 })) }))
  return documentNumber(layout(document([{ ...read, lines }])), NUMERO)?.text ?? null
}

describe("document numbers", () => {
  it("AFIP: Factura Nº kept whole, not page 2's Nro. de Orden", () => {
    const first = [row("FACTURA B"), row("Factura Nº 0005-00011643"), row("Fecha de Emisión: 08/02/2023")]
    const second = [row("Nro. de Orden: 4471"), row("Remito Nº 0001-00000077")]
    assert.strictEqual(numberOf([second, first]), "0005-00011643")
    assert.strictEqual(numberOf([first, second]), "0005-00011643")
    assert.strictEqual(numberOf([[row("Punto de Venta: 00005 Comp. Nro: 00011643")]]), "00011643")
  })

  it("a credit note's number by its label: Gutschrift Nr., Avoir n°, Credit Note No., Creditnota nr.", () => {
    const cases = [
      ["Gutschrift Nr. G-2024-011", "G-2024-011"],
      ["Avoir n° AV-0031", "AV-0031"],
      ["Credit Note No. CN-0012", "CN-0012"],
      ["Creditnota nr. CN24-007", "CN24-007"]
    ] as const
    for (const [label, value] of cases) assert.strictEqual(numberOf([[row("Muster Handel GmbH"), row(label)]]), value)
    // A delivery note's number is still another document's.
    assert.isNull(numberOf([[row("Factura"), row("Delivery Note No. 5521")]]))
  })

  it("a word before a colon after a bare number word is a label, whatever figure OCR read in it", () => {
    const cells = (label: string): ReadonlyArray<Cell> => [
      [40, label],
      [120, "C486-10047"]
    ]
    assert.isNull(numberOf([[row("HIPER LEVANTE"), cells("No operaci6n:")]]))
    assert.strictEqual(numberOf([[row("HIPER LEVANTE"), cells("No:")]]), "C486-10047")
  })

  it("a delivery note's number on an invoice is another document's: the number under NÚMERO", () => {
    const rows = [row("Factura"), row("NÚMERO"), row("PFD-194510"), row("Albarán nº"), row("54703")]
    assert.strictEqual(numberOf([rows]), "PFD-194510")
    assert.isNull(numberOf([[row("Factura"), row("Albarán nº 54703"), row("DDT n. 118")]]))
  })

  it("a tax id's label is no number label: Tax ID GB960…, VAT No.; a bare n.º: before a code", () => {
    const cells = (...texts: ReadonlyArray<string>): ReadonlyArray<Cell> => texts.map((t, i) => [40 + i * 120, t])
    assert.isNull(numberOf([[cells("Tax", "ID GB960", "6974 1"), cells("Sales Receipt")]]))
    assert.isNull(numberOf([[cells("Tax", "ID", "30-3856970"), row("VAT No. GB123456789")]]))
    assert.strictEqual(numberOf([[cells("Largo Construções 149", "n.º: RCN-354532")]]), "RCN-354532")
  })

  it("a two-letter abbreviation before a colon needs its number word: OP: 4 is the operator", () => {
    assert.isNull(numberOf([[row("TICKET"), row("07-07-2020 16:28"), row("OP: 4")]]))
    assert.strictEqual(numberOf([[row("N. op.: 5990-633-493809")]]), "5990-633-493809")
    assert.strictEqual(numberOf([[row("Ticket: 1234")]]), "1234")
  })

  it("a house number the reader cut from its street into a cell of its own is still no number", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [[40, "KIM HENG PHARMACY SDN BHD"]],
      [
        [40, "NO.221,"],
        [200, "JALAN ANGSA 4,"]
      ],
      [[40, "43481 SERI KEMBANGAN"]]
    ]
    assert.isNull(numberOf([rows]))
    assert.strictEqual(numberOf([[...rows, [[16, "INVOICE NO : 69610/201/Q6551"]]]]), "69610/201/Q6551")
    // A street in a column beyond the label's value is the letterhead's, beside a number's label.
    const beside: ReadonlyArray<Cell> = [
      [40, "Nummer:"],
      [120, "F-7577-561"],
      [330, "Dijkstraweg 12"]
    ]
    assert.strictEqual(numberOf([[beside]]), "F-7577-561")
  })

  it("a street number is never the document number", () => {
    assert.isNull(numberOf([[row("NO.53 JALAN PUTRA 1,"), row("TAMAN SRI PUTRA, 81200 JOHOR BAHRU")]]))
    assert.isNull(numberOf([[row("Calle Mayor Nº 12"), row("Nº cliente: 4471")]]))
  })

  it("figures in groups after a label give no number: Invoice No: INV 2023 0042 is not 2023", () => {
    assert.isNull(numberOf([[row("Invoice No: INV 2023 0042")]]))
    // As often a tax id (N° TVA), a SIREN or a phone number: the invoice's own label elsewhere decides.
    assert.strictEqual(numberOf([[row("N° TVA : TVA 545 207 881 80705")], [row("Facture N° K 73521")]]), "K 73521")
    // A date after the number is not one of its groups.
    assert.strictEqual(numberOf([[row("Factura Nº 4711 12/03/2023")]]), "4711")
    // After a title with no number word too (`Ticket 0012 345 6789`), but not before an amount (`Ticket 4711 12,50`).
    assert.isNull(numberOf([[row("Ticket 0012 345 6789")]]))
    assert.strictEqual(numberOf([[row("Ticket 4711 12,50")]]), "4711")
  })

  it("a column header that is a document's noun alone, among headers with a date's, heads its number", () => {
    const table = (header: string, date: string) => [
      [
        [40, header],
        [200, date],
        [360, "Customer"]
      ] as ReadonlyArray<Cell>,
      [
        [40, "INV-0042"],
        [200, "12/03/2023"],
        [360, "C-991"]
      ] as ReadonlyArray<Cell>
    ]
    assert.strictEqual(numberOf([table("Invoice", "Date")]), "INV-0042")
    assert.strictEqual(numberOf([table("Factuur", "Datum")]), "INV-0042")
    // Without a date's header the row is no header row; a series column is no document's number.
    assert.isNull(numberOf([table("Invoice", "Account")]))
    assert.isNull(numberOf([table("Serie", "Fecha")]))
  })

  it("a number word glued to its value by its ordinal sign: Facture n°12345678, Factura Nº0005-00011643", () => {
    assert.strictEqual(numberOf([[row("Facture n°12345678 du 01/03/2019")]]), "12345678")
    assert.strictEqual(numberOf([[row("Factura Nº0005-00011643")]]), "0005-00011643")
    // A street number stays one, the sign or not.
    assert.isNull(numberOf([[row("Nº53 JALAN PUTRA")]]))
    // A bare number word's value is near it or under it, not a column away (a postcode whose town OCR set lower).
    const letterhead = (right: string): ReadonlyArray<ReadonlyArray<Cell>> => [
      [
        [54, "Fattura n."],
        [335, "Officina Meccanica S.p.A."]
      ],
      [[334, "Viale Ricci 217"]],
      [
        [54, "Nº"],
        [334, right]
      ],
      [
        [54, "X 79522"],
        [359, "Roma"]
      ]
    ]
    assert.strictEqual(numberOf([letterhead("27101")]), "X 79522")
    assert.strictEqual(
      numberOf([
        [
          [
            [54, "Nº"],
            [90, "27101"]
          ]
        ]
      ]),
      "27101"
    )
    // `N° TVA` read in cells (`Nº | TVA 799 | 217 | 196 | 00656`) labels the tax id: no number.
    const tva: ReadonlyArray<Cell> = [
      [15, "Nº"],
      [40, "TVA 799"],
      [90, "217"],
      [115, "196"],
      [140, "00656"]
    ]
    assert.isNull(numberOf([[tva]]))
    // Glued to its noun (the space OCR lost), the value under them.
    assert.strictEqual(
      numberOf([[row("Date"), row("16 févr. 2023"), row("Nºfacture"), row("H-5616-601")]]),
      "H-5616-601"
    )
  })

  it("an electronic invoice's title: its kind between the noun and its number word, its number under it", () => {
    assert.strictEqual(numberOf([[row("Factura electrónica de venta No. FE-123")]]), "FE-123")
    assert.strictEqual(numberOf([[row("FACTURA ELECTRÓNICA F001-00004321")]]), "F001-00004321")
    assert.strictEqual(numberOf([[row("Fattura elettronica n. 45/2024")]]), "45/2024")
    // A title alone over its number alone (Peru's box: `FACTURA ELECTRÓNICA` over `F001-00001234`).
    assert.strictEqual(
      numberOf([[row("RUC: 20123456789"), row("FACTURA ELECTRÓNICA"), row("F001-00001234")]]),
      "F001-00001234"
    )
    assert.strictEqual(numberOf([[row("INVOICE"), row("INV-0042")]]), "INV-0042")
    // Not a date, a page or a year under it.
    assert.isNull(numberOf([[row("INVOICE"), row("12/03/2024")]]))
    assert.isNull(numberOf([[row("FACTURA"), row("2024")]]))
  })

  it("a compound label's number word is the label's: Rechnungs-Nr. I 86023 keeps its series", () => {
    assert.strictEqual(numberOf([[row("Rechnungs-Nr. I 86023")]]), "I 86023")
    assert.strictEqual(numberOf([[row("Rechnungs-Nr.: A 86023")]]), "A 86023")
    assert.strictEqual(numberOf([[row("Rechnungsnr. 2024-0815")]]), "2024-0815")
    // A compound that names the number itself has no number word after it: a capital `N` alone is the series'.
    assert.strictEqual(numberOf([[row("Factuurnummer N 62670")]]), "N 62670")
    assert.strictEqual(numberOf([[row("Rechnungsnummer Nr. 2024-0815")]]), "2024-0815")
  })

  it("a document type's code before its series and number (Portugal): Fatura FT A/245, Nº Fatura: FT A/245", () => {
    assert.strictEqual(numberOf([[row("Fatura FT A/245")]]), "FT A/245")
    assert.strictEqual(
      numberOf([
        [
          [
            [40, "Nº Fatura:"],
            [200, "FT A/245"]
          ]
        ]
      ]),
      "FT A/245"
    )
    assert.strictEqual(numberOf([[row("Documento: FR FR2024/12")]]), "FR FR2024/12")
    // A word and a fraction is no series: `Page 1/2` after the title.
    assert.isNull(numberOf([[row("FATURA Pag 1/2")]]))
  })

  it("number labels in each language, on the right, in the next cell or under the label", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["Invoice No: INV-2026-118", "INV-2026-118"],
      ["Invoice # 30064443", "30064443"],
      ["Rechnungsnummer: 2024-0815", "2024-0815"],
      ["Facture n° FA-2291", "FA-2291"],
      ["Numero fattura 118/2024", "118/2024"],
      ["Nº da fatura: FT2024/331", "FT2024/331"],
      ["Factuurnummer: 20240042", "20240042"],
      ["Factura simplificada: 3893-020-160319", "3893-020-160319"]
    ]
    for (const [text, want] of cases) assert.strictEqual(numberOf([[row(text)]]), want, text)
    const nextCell: ReadonlyArray<Cell> = [
      [40, "Invoice No."],
      [200, "562044387"]
    ]
    assert.strictEqual(numberOf([[nextCell]]), "562044387")
    const below: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Invoice number"],
        [240, "Date"]
      ],
      [
        [40, "VF1005193039"],
        [240, "12/03/2024"]
      ]
    ]
    assert.strictEqual(numberOf([below]), "VF1005193039")
  })

  it("a series before the number, abbreviations and receipt nouns; a bare number word with a number alone", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["Nº: I 11105", "I 11105"],
      ["NÚMERO: G-3036-787", "G-3036-787"],
      ["NUMMER YXN-439812", "YXN-439812"],
      ["Re.-Nr.: F84-1581", "F84-1581"],
      ["Rg.-Nr. 2019-0815", "2019-0815"],
      ["FS n.º: G011-74613", "G011-74613"],
      ["Factura n.º 3925/30839", "3925/30839"],
      ["Talão n.º: 464683", "464683"],
      ["N. op.: 5990-633-493809", "5990-633-493809"],
      ["Nº operación: D185-69893", "D185-69893"],
      ["Transactienr.: 83/709360", "83/709360"],
      ["SLIP NO : 28709/458/B4993", "28709/458/B4993"]
    ]
    for (const [text, want] of cases) assert.strictEqual(numberOf([[row(text)]]), want, text)
  })

  it("a date label or a time is not a number label; another column's postcode is not the number", () => {
    assert.isNull(numberOf([[row("Invoice Date: 25 June 2019 TIME: 13:34")]]))
    assert.isNull(numberOf([[row("Data da fatura: 2018 - 05 - 01  HORA: 10:11")]]))
    const twoColumns: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Rechnungs-Nr."],
        [300, "29560 Stuttgart"]
      ],
      [
        [40, "877624"],
        [300, "St.-Nr.: 13/642/00942"]
      ]
    ]
    assert.strictEqual(numberOf([twoColumns]), "877624")
    const cityBeside: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "INV. NO."],
        [300, "Manchester HJ4 1HR"]
      ],
      [[40, "0722/43616"]]
    ]
    assert.strictEqual(numberOf([cityBeside]), "0722/43616")
    // The value under the label unread (a series OCR read as a bar): the postcode across the gap is not the
    // number the label's noun, read as a title, has after it.
    const unread: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [55, "Número de factura"],
        [335, "75537 Valencia"]
      ],
      [
        [54, "|24099"],
        [335, "NIF: E99039456"]
      ]
    ]
    assert.isNull(numberOf([unread]))
    // A title's number in its own cell is still its number.
    assert.strictEqual(numberOf([[row("Factuur 2021-0001")]]), "2021-0001")
  })

  it("another document's number is not taken; a field that asks for one gets it by its own label", () => {
    assert.isNull(numberOf([[row("Order No: 4471"), row("Customer invoice account no: 9911")]]))
    const pedido: Target = { name: "numero_pedido", type: "string", aliases: ["Nº de pedido"], description: "" }
    assert.strictEqual(numberOf([[row("Factura Nº F-1"), row("Nº de pedido: PED-7781")]], pedido), "PED-7781")
  })

  it("a label OCR misread (Facturnr. for Factuurnr.) where the reader doubted it, not a foreign word printed", () => {
    assert.strictEqual(ocrNumberOf([row("Facturnr."), row("P-6909-336")]), "P-6909-336")
    // A text layer prints what it prints: `Fakturo nr:` is no label word, and no `Factura Nº` misread either.
    assert.isNull(numberOf([[row("Fakturo nr: F 1234K20/1234/12")]]))
  })

  it("a German till's security module's transaction is no receipt's number, however OCR read it", () => {
    const read = (texts: ReadonlyArray<string>) => ocrNumberOf(texts.map(row))
    assert.isNull(read(["Summe 3,13", "TSE-Transaktion: 12345", "TSE-Start: 2020-05-05T10:33:51"]))
    assert.strictEqual(read(["Bon-Nr.: 5678", "TSE-Transaktion: 12345"]), "5678")
  })

  it("Polish invoices: Faktura VAT nr, Numer, Rachunek nr", () => {
    assert.strictEqual(numberOf([[row("Faktura VAT nr FV/2021/03/15")]]), "FV/2021/03/15")
    assert.strictEqual(numberOf([[row("FAKTURA VAT"), row("Numer: FV/2021/03/15")]]), "FV/2021/03/15")
    assert.strictEqual(numberOf([[row("Rachunek nr 118/2022")]]), "118/2022")
    // The buyer's number is another document's: `Numer klienta` is no label of the invoice's.
    assert.isNull(numberOf([[row("Nr klienta: 4471")]]))
  })

  it("a title with its number right after it, when no label names one", () => {
    assert.strictEqual(numberOf([[row("Factuur 2021-0001")]]), "2021-0001")
    assert.strictEqual(numberOf([[row("INVOICE INV-0042")]]), "INV-0042")
    assert.strictEqual(numberOf([[row("Ihre Rechnung RE-2021-117 vom 03.03.2021")]]), "RE-2021-117")
    assert.strictEqual(numberOf([[row("Verkoopfactuur 7932/55460")]]), "7932/55460")
    assert.strictEqual(numberOf([[row("FACTURE Q 46803")]]), "Q 46803")
    // A label wins over the title's code; a year, a page, a date or an amount is no number.
    assert.strictEqual(numberOf([[row("Invoice 2021-117"), row("Invoice No.: 2021-118")]]), "2021-118")
    for (const text of ["Invoice 2021", "Factura 2 de 3", "Rechnung 1/2", "Invoice 03/05/2021", "Invoice 1.234,56"])
      assert.isNull(numberOf([[row(text)]]), text)
    // A copy mark between the title and the code is part of the title (the document's own number either way).
    assert.strictEqual(numberOf([[row("FACTURA ORIGINAL 929132")]]), "929132")
    assert.strictEqual(numberOf([[row("FACTURA ORIGINAL A 75378")]]), "A 75378")
    assert.strictEqual(numberOf([[row("RECHNUNG (ORIGINAL) U-7408-377")]]), "U-7408-377")
    assert.strictEqual(numberOf([[row("Factura completa 931938")]]), "931938")
    // A German till's slip words take their number so too (`Kasse 2  Bon 0815`); a bakery's `Au Bon Pain` no code.
    assert.strictEqual(
      numberOf([
        [
          [
            [40, "Kasse 2"],
            [120, "Bon 0815"],
            [220, "Filiale 12"]
          ]
        ]
      ]),
      "0815"
    )
    assert.strictEqual(numberOf([[row("Beleg 34512    Kasse 1")]]), "34512")
    assert.isNull(numberOf([[row("Au Bon Pain 12")]]))
  })

  it("an amount after a noun and a colon is no number: a Chilean boleta's tax sentence", () => {
    assert.isNull(numberOf([[row("El IVA de esta boleta es: $1.106")]]))
    assert.strictEqual(
      numberOf([[row("BOLETA ELECTRONICA"), row("N° 4512398"), row("El IVA de esta boleta es: $1.106")]]),
      "4512398"
    )
    // A number word glued to its code by a hyphen is the code's head, not a label: `N-2897-989`.
    assert.strictEqual(numberOf([[row("Sales Invoice N-2897-989")]]), "N-2897-989")
    // Nor is the first letter of a dotted tax id's label that OCR ran into its value (`N.I.F.W84348296`).
    assert.strictEqual(
      numberOf([
        [
          [
            [40, "N.I.F.W84348296"],
            [300, "Nº"],
            [400, "188930"]
          ]
        ]
      ]),
      "188930"
    )
    assert.isNull(numberOf([[row("N.I.F.W84348296")]]))
    // Another qualifier (a corrective invoice names the one it corrects), or a delivery note's title, leaves it
    // unlabelled.
    assert.isNull(numberOf([[row("FACTURA RECTIFICATIVA 929132")]]))
    assert.isNull(numberOf([[row("Lieferschein 2021-117")]]))
  })

  it("a column header No. beside Invoice Date heads the code under it; it is no `No. Invoice` label", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Summit Bright Ltd"],
        [400, "INVOICE"]
      ],
      [
        [40, "No."],
        [120, "Invoice Date"],
        [250, "Pay by"],
        [350, "Order #"]
      ],
      [
        [40, "TWB-947823"],
        [120, "2019-07-03"],
        [250, "2019-08-17"],
        [350, "66625"]
      ]
    ]
    assert.strictEqual(numberOf([rows]), "TWB-947823")
    // In one cell the number word and the noun are one label.
    assert.strictEqual(numberOf([[row("No. Invoice: TWB-947823")]]), "TWB-947823")
  })

  it("a colon the reader set in a cell of its own: SLIP NO | : | 94232/580/D6404", () => {
    assert.strictEqual(
      numberOf([
        [
          [
            [40, "SLIP NO"],
            [120, ":"],
            [140, "94232/580/D6404"]
          ]
        ]
      ]),
      "94232/580/D6404"
    )
    assert.strictEqual(
      numberOf([
        [
          [
            [40, "SLIP NO"],
            [120, ":"],
            [140, "CASHIER"]
          ]
        ]
      ]),
      null
    )
  })

  it("a lone figure is no document's number: Bon-Nr.2 25/169788 is a colon OCR read as 2", () => {
    assert.strictEqual(numberOf([[row("Bon-Nr.2 25/169788")]]), "25/169788")
    assert.strictEqual(numberOf([[row("Ticket: 7")]]), null)
  })

  it("a number word and its noun in two close cells, as OCR splits them: N.º | documento M847-53566", () => {
    const cells = (x: number): ReadonlyArray<Cell> => [
      [16, "N.º"],
      [x, "documento M847-53566"]
    ]
    assert.strictEqual(numberOf([[cells(45)]]), "M847-53566")
    // Far apart they are two columns' text.
    assert.strictEqual(numberOf([[cells(200)]]), null)
  })

  it("a footer's register entry numbers no document: Folio 87 of the Registro Mercantil", () => {
    const footer = {
      y: 800,
      cells: [[224, "Registro Mercantil de Madrid, Tomo 0014, Folio 87"]] as ReadonlyArray<Cell>
    }
    const read = (rows: Parameters<typeof page>[1]) =>
      documentNumber(layout(document([page(1, rows)])), NUMERO)?.text ?? null
    assert.isNull(read([row("FACTURA"), footer]))
    assert.strictEqual(read([row("FACTURA"), row("NÚMERO"), row("WWQ-909716"), footer]), "WWQ-909716")
    // Folio labels a document's number elsewhere on the page (Mexican invoices).
    assert.strictEqual(read([row("Folio: A-1234")]), "A-1234")
  })

  it("OP# before a number is a till's operator; N. op. after its number word is an operation's number", () => {
    assert.isNull(numberOf([[row("KWIKMART"), row("ST# 05483 OP# 009044 TE# 44 TR# 01684")]]))
    assert.strictEqual(numberOf([[row("Scontrino"), row("N. op. 000123")]]), "000123")
  })

  it("the day of a date under a label whose value the reader cut is no number (N° | ticket: | 5 530772)", () => {
    const label: ReadonlyArray<Cell> = [
      [40, "N°"],
      [65, "ticket:"],
      [110, "5 530772"]
    ]
    const dated: ReadonlyArray<Cell> = [
      [40, "19"],
      [65, "janvier"],
      [110, "2021 08:43"]
    ]
    assert.isNull(numberOf([[row("BRICOLAGE GARAGE"), label, dated]]))
    // A code alone under the label is its value.
    assert.strictEqual(numberOf([[row("BRICOLAGE GARAGE"), [[40, "N°"]], [[40, "19-0042"]]]]), "19-0042")
  })

  it("letters OCR read for figures between figures are the figures; a text layer's number is as printed", () => {
    for (const [printed, want] of [
      ["50s380", "505380"],
      ["50S380", "505380"],
      ["12S-0042", "12S-0042"],
      ["2S0042", "2S0042"],
      ["F-2O23-0l42", "F-2023-0142"],
      ["INV-2023O", "INV-2023O"],
      ["A1B2", "A1B2"],
      // A capital read small where the two have one shape; a small letter of its own shape, or two, stay.
      ["x849-86638", "X849-86638"],
      ["INV-2023-v2", "INV-2023-V2"],
      ["2023-a12", "2023-a12"],
      ["ab-123", "ab-123"],
      // A small l beside capitals is a capital I; one among small letters, or alone, stays.
      ["IVl-591738", "IVI-591738"],
      ["lNV-0042", "INV-0042"],
      ["Fl-2024", "FI-2024"],
      ["al-2024", "al-2024"],
      // An O between a series' one letter and figures alone is a zero; a series of two letters keeps it.
      ["FO9-4819", "F09-4819"],
      ["PO-4819", "PO-4819"],
      ["FOX-4819", "FOX-4819"]
    ])
      assert.strictEqual(ocrNumberOf([row(`Factura Nº ${printed}`)]), want, printed)
    assert.strictEqual(numberOf([[row("Factura Nº F-2O23-0l42")]]), "F-2O23-0l42")
    assert.strictEqual(numberOf([[row("Factura Nº x849-86638")]]), "x849-86638")
  })

  it("a label's word with a figure OCR read for its letter (INV0ICE NO:) is the label, where the reader doubted it", () => {
    const read = (text: string, confidence: number) => {
      const printed = page(1, [row("Brightline Software GmbH"), row(text), row("Date: 17/04/2023")])
      const lines = printed.lines.map((l) => ({ words: l.words.map((w) => ({ ...w, confidence })) }))
      return documentNumber(layout(document([{ ...printed, lines }])), NUMERO)?.text ?? null
    }
    assert.strictEqual(read("INV0ICE NO: 2023-1187", 0.93), "2023-1187")
    assert.strictEqual(read("Inv0ice No: 2023-1187", 0.93), "2023-1187")
    // Printed so on a text layer, the word is a code, no label.
    assert.isNull(read("INV0ICE NO: 2023-1187", 1))
  })

  it("another document's number in the column beside the label's leaves the label whole", () => {
    const columns = (...texts: ReadonlyArray<string>): ReadonlyArray<Cell> => texts.map((t, i) => [40 + i * 200, t])
    const pairs: ReadonlyArray<readonly [string, string]> = [
      ["KLANTNUMMER", "FACTUURNUMMER"],
      ["Kundennummer", "Rechnungsnummer"],
      ["Customer No", "Invoice No"],
      ["N° CLIENT", "N° FACTURE"],
      ["ORDER NO", "INVOICE NO"]
    ]
    for (const [other, mine] of pairs)
      assert.strictEqual(numberOf([[columns(other, mine), columns("C-7781", "F-2019-042")]]), "F-2019-042", mine)
    // In its own cell, another document's word still names another number (`Customer Invoice No`).
    assert.isNull(numberOf([[row("Customer Invoice No: C-7781")]]))
  })

  it("a Peruvian boleta's title over its number; a Brazilian NFC-e's nº", () => {
    // `BOLETA DE VENTA ELECTRÓNICA` (the noun `boleta`, its kinds `de venta` and `electrónica`), its series alone under it.
    const boleta = [row("BOTICA SAN JUAN S.A.C."), row("BOLETA DE VENTA ELECTRONICA"), row("B001-00045678")]
    assert.strictEqual(numberOf([boleta]), "B001-00045678")
    assert.strictEqual(numberOf([[row("BOLETA ELECTRÓNICA"), row("B001-00045678")]]), "B001-00045678")
    const nfce = "NFC-e nº 000012345 Série 001 15/04/2024 08:12:33"
    assert.strictEqual(numberOf([[row("PADARIA PAO DOURADO LTDA"), row(nfce)]]), "000012345")
    assert.strictEqual(numberOf([[row("NF-e Nº 4471 Série 1")]]), "4471")
  })

  it("a till's slip by its compound (Kassenbon-Nr., Quittungsnummer); the till's own number is none", () => {
    assert.strictEqual(numberOf([[row("Kassenbon-Nr. 4471")]]), "4471")
    assert.strictEqual(numberOf([[row("Kassenbonnr. 4471")]]), "4471")
    assert.strictEqual(numberOf([[row("Quittungsnummer: Q-4471")]]), "Q-4471")
    assert.isNull(numberOf([[row("Kassen-Nr. 2")]]))
    assert.isNull(numberOf([[row("Kassennummer: 2")]]))
  })
})
