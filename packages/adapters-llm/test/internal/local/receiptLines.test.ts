import { assert, describe, it } from "@effect/vitest"
import type { Skill } from "@legible/core"
import { splitQuantity } from "../../../src/internal/local/receiptLines.js"
import * as Local from "../../../src/Local.js"
import { type Cell, document, simpleField as field, ITEMS, page } from "../../support/documents.js"

const LINEAS: Skill.SkillField = {
  ...field("lineas", "object"),
  isList: true,
  fields: [
    field("descripcion", "string"),
    field("cantidad", "float"),
    field("precio", "float"),
    field("importe", "float")
  ]
}

const line = (text: string, amount?: string): ReadonlyArray<Cell> =>
  amount === undefined
    ? [[40, text]]
    : [
        [40, text],
        [330, amount]
      ]

describe("receipt lines", () => {
  it("quantity × unit price patterns split into their sub-fields", () => {
    assert.deepStrictEqual(splitQuantity("6 x ( 0,95 )"), { description: "", quantity: "6", price: "0,95" })
    assert.deepStrictEqual(splitQuantity("MANZANAS 2 x 1,25"), {
      description: "MANZANAS",
      quantity: "2",
      price: "1,25"
    })
    assert.deepStrictEqual(splitQuantity("PLATANO 1,000 kg x 2,99 €/kg"), {
      description: "PLATANO",
      quantity: "1,000",
      price: "2,99"
    })
    assert.deepStrictEqual(splitQuantity("AGUA 2 UD 1,25"), { description: "AGUA", quantity: "2", price: "1,25" })
    assert.deepStrictEqual(splitQuantity("6. St 6,46"), { description: "", quantity: "6", price: "6,46" })
    assert.deepStrictEqual(splitQuantity("Milch 3 Stk x 0,99"), { description: "Milch", quantity: "3", price: "0,99" })
    assert.deepStrictEqual(splitQuantity("1 PATATAS GAJO"), { description: "PATATAS GAJO", quantity: "1", price: null })
    assert.deepStrictEqual(splitQuantity("BOLSA 48X60CM"), {
      description: "BOLSA 48X60CM",
      quantity: null,
      price: null
    })
  })

  it("Carrefour: lines with no header row, a quantity row completing the line above, up to the subtotal", () => {
    const rows = [
      line("Centros Comerciales Carrefour S.A"),
      line("CIF: A28425270"),
      line("CROFT TWIST BCO 75", "8,49"),
      line("BEBIDA DE AVENA"),
      line("6 x ( 0,95 )", "5,70"),
      line("BOLSA 48X60CM", "0,15"),
      line("SUBTOTAL", "14,34"),
      line("DTO. CUPON 25% BEB AVENA", "-1,43"),
      line("14 ART. TOTAL A PAGAR :", "12,91")
    ]
    assert.deepStrictEqual(Local.extractFields([LINEAS], document([page(1, rows)])), {
      lineas: [
        { descripcion: "CROFT TWIST BCO 75", cantidad: null, precio: null, importe: "8,49" },
        { descripcion: "BEBIDA DE AVENA", cantidad: "6", precio: "0,95", importe: "5,70" },
        { descripcion: "BOLSA 48X60CM", cantidad: null, precio: null, importe: "0,15" }
      ]
    })
  })

  it("a line's period in brackets leaves it a line; a date's row is none", () => {
    const rows = [
      line("Votre facture"),
      line("Abonnement fibre (du 15/03/2024 au 14/04/2024)", "29,99 €"),
      line("Options et services", "5,00 €"),
      line("Prélevé le 25/03/2024", "34,99 €"),
      line("Total HT", "29,16 €")
    ]
    const { lineas } = Local.extractFields([LINEAS], document([page(1, rows)]))
    assert.deepStrictEqual(
      (lineas as ReadonlyArray<Record<string, unknown>>).map((l) => l.descripcion),
      ["Abonnement fibre (du 15/03/2024 au 14/04/2024)", "Options et services"]
    )
  })

  it("a count opening a line and its price after a times sign: the sign is no word of the name", () => {
    const rows = [line("TICKET N° 000452"), line("2 CROISSANT x 1,10", "2,20"), line("TOTAL TTC", "2,20")]
    assert.deepStrictEqual(Local.extractFields([LINEAS], document([page(1, rows)])), {
      lineas: [{ descripcion: "CROISSANT", cantidad: "2", precio: "1,10", importe: "2,20" }]
    })
  })

  it("an American till's barcode and tax flag after a name are none of its words", () => {
    const rows = [
      line("ST# 01234 OP# 009876 TE# 12 TR# 04521"),
      line("GV MILK 1GAL   007874235186 F", "3.48"),
      line("BREAD WHT      0072250037123", "1.98"),
      line("PAPER 500 SHEETS", "4.99"),
      line("SUBTOTAL", "10.45")
    ]
    const { lineas } = Local.extractFields([LINEAS], document([page(1, rows)]))
    assert.deepStrictEqual(
      (lineas as ReadonlyArray<Record<string, unknown>>).map((l) => l.descripcion),
      ["GV MILK 1GAL", "BREAD WHT", "PAPER 500 SHEETS"]
    )
  })

  it("a till's header with its count's word one space before the description's; a weight under its line", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [[40, "EROSKI S. COOP."]],
      [
        [40, "CANT DESCRIPCION"],
        [200, "PVP"],
        [260, "IMPORTE"]
      ],
      [
        [45, "2"],
        [70, "YOGUR NATURAL 4U"],
        [200, "1,45"],
        [265, "2,90"]
      ],
      [
        [45, "1"],
        [70, "TOMATE RAMA KG"],
        [265, "2,34"]
      ],
      [[70, "1,170 KG X 2,00 E/KG"]],
      [
        [40, "TOTAL COMPRA"],
        [265, "5,24"]
      ]
    ]
    assert.deepStrictEqual(Local.extractFields([LINEAS], document([page(1, rows)])), {
      lineas: [
        { descripcion: "YOGUR NATURAL 4U", cantidad: "2", precio: "1,45", importe: "2,90" },
        { descripcion: "TOMATE RAMA KG", cantidad: "1,170", precio: "2,00", importe: "2,34" }
      ]
    })
  })

  it("a count and price over the line whose amount they make (a Dutch till's), not the line above's", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "OMSCHRIJVING"],
        [200, "BEDRAG"]
      ],
      [
        [40, "AH BANANEN"],
        [205, "1,49"]
      ],
      [[40, "2 X 0,89"]],
      [
        [40, "AH KOMKOMMER"],
        [205, "1,78"]
      ],
      [
        [40, "TOTAAL"],
        [205, "3,27"]
      ]
    ]
    assert.deepStrictEqual(Local.extractFields([ITEMS], document([page(1, rows)])), {
      items: [
        { description: "AH BANANEN", quantity: null, unit_price: null, line_total: "1,49" },
        { description: "AH KOMKOMMER", quantity: "2", unit_price: "0,89", line_total: "1,78" }
      ]
    })
    // In a description, a count and price that do not make its line's amount are not split out of it.
    const line = (description: string, amount: string): ReadonlyArray<Cell> => [
      [40, description],
      [205, amount]
    ]
    const items = (description: string, amount: string) =>
      Local.extractFields([ITEMS], document([page(1, [rows[0] ?? [], line(description, amount), rows[4] ?? []])]))
    assert.deepStrictEqual(items("MANZANAS 2 x 1,25", "3,10"), {
      items: [{ description: "MANZANAS 2 x 1,25", quantity: null, unit_price: null, line_total: "3,10" }]
    })
    assert.deepStrictEqual(items("MANZANAS 2 x 1,25", "2,50"), {
      items: [{ description: "MANZANAS", quantity: "2", unit_price: "1,25", line_total: "2,50" }]
    })
  })

  it("Mercadona: the count glued to the description moves to its own column; one unit costs the line", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Descripción"],
        [250, "P. Unit"],
        [330, "Importe"]
      ],
      line("1 PATATAS GAJO", "1,90"),
      line("1 +PROT NATILLA VAINI", "1,75"),
      [
        [40, "2 BOLSA PAPEL"],
        [250, "0,10"],
        [330, "0,20"]
      ],
      line("TOTAL (€)", "3,85")
    ]
    assert.deepStrictEqual(Local.extractFields([LINEAS], document([page(1, rows)])), {
      lineas: [
        { descripcion: "PATATAS GAJO", cantidad: "1", precio: "1,90", importe: "1,90" },
        { descripcion: "+PROT NATILLA VAINI", cantidad: "1", precio: "1,75", importe: "1,75" },
        { descripcion: "BOLSA PAPEL", cantidad: "2", precio: "0,10", importe: "0,20" }
      ]
    })
  })

  it("Mercadona: a weighed article's name over its weight's row (1 PLATANO over 0,856 kg 2,10 €/kg 1,80)", () => {
    const weighedRows = (header: boolean): ReadonlyArray<ReadonlyArray<Cell>> => [
      ...(header
        ? [
            [
              [40, "Descripción"],
              [250, "P. Unit"],
              [330, "Importe"]
            ] as const
          ]
        : []),
      line("1 PLATANO"),
      [
        [60, "0,856 kg"],
        [250, "2,10 €/kg"],
        [330, "1,80"]
      ],
      line("1 LECHE ENTERA", "0,95"),
      line("1 PAN DE MOLDE", "1,35"),
      line("TOTAL (€)", "4,10")
    ]
    const want = [
      { descripcion: "PLATANO", cantidad: "0,856", precio: "2,10", importe: "1,80" },
      { descripcion: "LECHE ENTERA", cantidad: "1", precio: "0,95", importe: "0,95" },
      { descripcion: "PAN DE MOLDE", cantidad: "1", precio: "1,35", importe: "1,35" }
    ]
    for (const header of [true, false])
      assert.deepStrictEqual(
        Local.extractFields([LINEAS], document([page(1, weighedRows(header))])),
        { lineas: want },
        header ? "under a header" : "no header"
      )
  })

  const item = (description: string, quantity: string | null, unit_price: string | null, line_total: string) => ({
    description,
    quantity,
    unit_price,
    line_total
  })
  /** A row of a four-column table: its cells at the columns' left edges. */
  const row = (...texts: ReadonlyArray<string>): ReadonlyArray<Cell> =>
    texts.map((t, i) => [[40, 300, 380, 480][i] ?? 0, t] as const)
  const itemsOf = (rows: ReadonlyArray<ReadonlyArray<Cell>>) =>
    Local.extractFields([ITEMS], document([page(1, rows)])).items

  it("a speck OCR glued to a description's first or last letter is none of it (·BUTTER, Réparation`)", () => {
    const table = itemsOf([
      row("Libellé", "Qté", "P.U.", "Montant HT"),
      row("Réparation`", "1", "844,25", "844,25"),
      row("Frais de port", "1", "631,51", "631,51"),
      row("Total HT", "", "", "1.475,76")
    ])
    assert.deepStrictEqual(table, [
      item("Réparation", "1", "844,25", "844,25"),
      item("Frais de port", "1", "631,51", "631,51")
    ])
    const till = itemsOf([
      line("Kassenbeleg"),
      line("·BUTTER", "0,78"),
      line("D'ARTAGNAN CAFÉ", "2,10"),
      line("Total:", "2,88")
    ])
    assert.deepStrictEqual(till, [item("BUTTER", null, null, "0,78"), item("D'ARTAGNAN CAFÉ", null, null, "2,10")])
  })

  it("a count with a one OCR read twice (11 for 1) is the count the amount makes at its unit price", () => {
    const header = row("Description", "Qty", "Unit Price", "Amount")
    const got = itemsOf([
      header,
      row("TOMATOES", "11", "14.56", "14.56"),
      row("Lizenz", "11", "665.82", "7324.02"),
      row("Webhosting", "12", "10.00", "25.00")
    ]) as ReadonlyArray<Record<string, string | null>>
    // Printed 11 where it makes the amount; neither reading makes 25.00: as read.
    assert.deepStrictEqual(
      got.map((l) => l.quantity),
      ["1", "11", "12"]
    )
    // A till's line opening with its count, no header: the same.
    const till = itemsOf([
      line("PHARMACY SYSTEMS"),
      [
        [40, "11"],
        [70, "TOMATOES"],
        [250, "14.56"],
        [330, "14.56"]
      ],
      [
        [40, "2"],
        [70, "APPLES"],
        [250, "1.50"],
        [330, "3.00"]
      ],
      line("TOTAL AMOUNT:", "17.56")
    ]) as ReadonlyArray<Record<string, string | null>>
    assert.deepStrictEqual(
      till.map((l) => [l.description, l.quantity, l.unit_price]),
      [
        ["TOMATOES", "1", "14.56"],
        ["APPLES", "2", "1.50"]
      ]
    )
  })

  it("a line under an item with a date that runs into the figures' columns is the item's description", () => {
    const header = row("Description", "Qty", "Unit Price", "Amount")
    assert.deepStrictEqual(
      itemsOf([
        header,
        row("Blue widget", "2", "10.00", "20.00"),
        line("Order ref 12345, delivered 01/03/2024"),
        row("Red gadget", "1", "5.50", "5.50"),
        row("", "", "Total", "25.50")
      ]),
      [
        item("Blue widget Order ref 12345, delivered 01/03/2024", "2", "10.00", "20.00"),
        item("Red gadget", "1", "5.50", "5.50")
      ]
    )
    // AFIP's net amount under the lines, its label and amount in the description's column, is no wrapped text.
    assert.deepStrictEqual(
      itemsOf([
        row("Producto / Servicio", "Cantidad", "Precio Unit.", "Subtotal"),
        row("Servicio de mantenimiento", "1,00", "10000,00", "10000,00"),
        line("Importe Neto Gravado: $ 10000,00"),
        line("Importe Otros Tributos: $ 0,00")
      ]),
      [item("Servicio de mantenimiento", "1,00", "10000,00", "10000,00")]
    )
    // Totals labels in the description's column, in any language the totals know, end the lines.
    for (const [header, first, label] of [
      [["Descrizione", "Q.tà", "Prezzo", "Importo"], "Macchina da caffè X200", "Totale imponibile"],
      [["Omschrijving", "Aantal", "Prijs", "Totaal"], "Wasmachine WX 800", "Totaal excl. btw"],
      [["Artikel", "Menge", "Preis", "Betrag"], "Waschmaschine", "Zwischensumme"]
    ] as const)
      assert.deepStrictEqual(
        itemsOf([row(...header), row(first, "1", "299,00", "299,00"), row(label, "", "", "245,08")]),
        [item(first, "1", "299,00", "299,00")],
        label
      )
    // A speck OCR read alone under a figure is nobody's text.
    assert.deepStrictEqual(
      itemsOf([header, row("Reparatur", "1", "602,73", "602,73"), row("", "T"), row("", "", "Summe", "602,73")]),
      [item("Reparatur", "1", "602,73", "602,73")]
    )
  })

  it("a page's sum carried to the next (Übertrag) ends no table: the next page's lines are read too", () => {
    const header = row("Bezeichnung", "Menge", "Preis", "Betrag")
    const first = page(1, [
      line("Elektro Maier KG"),
      header,
      row("Kabel NYM", "10", "2,50", "25,00"),
      row("", "", "Übertrag", "25,00")
    ])
    const second = page(2, [
      header,
      row("Übertrag", "", "", "25,00"),
      row("Schalter", "2", "6,50", "13,00"),
      row("", "", "Rechnungsbetrag", "38,00")
    ])
    assert.deepStrictEqual(Local.extractFields([ITEMS], document([first, second])).items, [
      item("Kabel NYM", "10", "2,50", "25,00"),
      item("Schalter", "2", "6,50", "13,00")
    ])
    // On a till's roll with no header, a sum carried is no line.
    assert.deepStrictEqual(
      itemsOf([
        line("Kiosk"),
        line("Zeitung", "2,50"),
        line("Übertrag", "2,50"),
        line("Kaffee", "1,80"),
        line("Summe", "4,30")
      ]),
      [item("Zeitung", null, null, "2,50"), item("Kaffee", null, null, "1,80")]
    )
  })

  it("a till's conventions: @ and a currency before the price, € after the amount, a count cell, a unit row", () => {
    // British: `2 @ £1.25`, `1.234 kg @ £2.99/kg`, the pound sign glued to each amount.
    assert.deepStrictEqual(
      itemsOf([
        line("CORNER SHOP LTD"),
        line("BANANAS"),
        [
          [60, "2 @ £1.25"],
          [330, "£2.50"]
        ],
        line("APPLES"),
        [
          [60, "1.234 kg @ £2.99/kg"],
          [330, "£3.69"]
        ],
        line("MILK", "£0.95"),
        line("TOTAL", "£7.14")
      ]),
      [item("BANANAS", "2", "1.25", "2.50"), item("APPLES", "1.234", "2.99", "3.69"), item("MILK", null, null, "0.95")]
    )
    // French: the euro sign after the amounts; German: a unit row under the article (`6 Stk x 0,45`).
    assert.deepStrictEqual(
      itemsOf([
        line("BOULANGERIE"),
        line("BAGUETTE"),
        line("3 x 1,10 €", "3,30 €"),
        line("LAIT", "0,95 €"),
        line("TOTAL", "4,25 €")
      ]),
      [item("BAGUETTE", "3", "1,10", "3,30"), item("LAIT", null, null, "0,95")]
    )
    assert.deepStrictEqual(
      itemsOf([
        line("Bäckerei"),
        line("Brötchen"),
        line("6 Stk x 0,45", "2,70 A"),
        line("Milch", "0,95 A"),
        line("Summe", "3,65")
      ]),
      [item("Brötchen", "6", "0,45", "2,70"), item("Milch", null, null, "0,95")]
    )
    // A German discounter's unit price and count after its times sign (`0,89 × 2`), where they make the amount.
    assert.deepStrictEqual(
      itemsOf([
        line("LIDL"),
        line("Bulgur-Kräuter 0,89 × 2", "1,78 A"),
        line("Vodka 4,99 × 2", "4,99 B"),
        line("zu zahlen", "6,77")
      ]),
      [item("Bulgur-Kräuter", "2", "0,89", "1,78"), item("Vodka 4,99 × 2", null, null, "4,99")]
    )
    // A count in a cell of its own between the article and its unit price, where the two make the amount.
    const cells = (...texts: ReadonlyArray<string>): ReadonlyArray<Cell> =>
      texts.map((t, i) => [[40, 200, 250, 330][i] ?? 0, t] as const)
    assert.deepStrictEqual(
      itemsOf([
        line("SHOP"),
        cells("BANANAS", "2", "1.25", "2.50"),
        cells("PIZZA", "12", "9.99", "9.99"),
        line("TOTAL", "12.49")
      ]),
      [item("BANANAS", "2", "1.25", "2.50"), item("PIZZA 12", null, null, "9.99")]
    )
  })

  it("a price's header over a till's last column, with no quantity's column, heads the line's amount", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "DESCRIZIONE"],
        [250, "IVA"],
        [330, "Prezzo(€)"]
      ],
      [
        [40, "CAPPUCCINO"],
        [250, "10%"],
        [330, "1,50"]
      ],
      [
        [40, "BRIOCHE"],
        [250, "10%"],
        [330, "1,30"]
      ],
      line("TOTALE COMPLESSIVO", "2,80")
    ]
    assert.deepStrictEqual(itemsOf(rows), [item("CAPPUCCINO", null, null, "1,50"), item("BRIOCHE", null, null, "1,30")])
  })

  it("a position column headed one space before the description (Pos. Bezeichnung) is a column of its own", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Pos. Bezeichnung"],
        [300, "Menge"],
        [380, "Einzelpreis"],
        [480, "Gesamt"]
      ],
      [
        [40, "1"],
        [65, "Druckerpapier A4"],
        [300, "5"],
        [380, "4,50"],
        [480, "22,50"]
      ],
      [
        [40, "2"],
        [65, "Toner schwarz"],
        [300, "1"],
        [380, "39,90"],
        [480, "39,90"]
      ],
      [
        [380, "Nettobetrag"],
        [480, "62,40"]
      ]
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("Druckerpapier A4", "5", "4,50", "22,50"),
      item("Toner schwarz", "1", "39,90", "39,90")
    ])
  })

  it("a bakery's and a filling station's till: 2 x Brötchen á 0,45, a litre at 1,799, a currency cell, Betrag", () => {
    assert.deepStrictEqual(splitQuantity("2 x Brötchen"), { description: "Brötchen", quantity: "2", price: null })
    assert.deepStrictEqual(splitQuantity("3X COLA"), { description: "COLA", quantity: "3", price: null })
    assert.deepStrictEqual(splitQuantity("1 XL SHIRT"), { description: "XL SHIRT", quantity: "1", price: null })
    const cells = (...texts: ReadonlyArray<string>): ReadonlyArray<Cell> =>
      texts.map((t, i) => [[40, 280, 330][i] ?? 0, t] as const)
    assert.deepStrictEqual(
      itemsOf([
        line("Bäckerei Müller"),
        line("2 x Brötchen á 0,45", "0,90"),
        line("1 x Bauernbrot", "3,80"),
        line("Säule 4 Super E10"),
        line("38,52 l x 1,799 EUR/l"),
        cells("", "EUR", "69,30"),
        cells("Snickers", "EUR", "1,29"),
        cells("Betrag", "EUR", "75,79"),
        cells("EC-Karte", "EUR", "75,79")
      ]),
      [
        item("Brötchen", "2", "0,45", "0,90"),
        item("Bauernbrot", "1", "3,80", "3,80"),
        item("Säule 4 Super E10", "38,52", "1,799", "69,30"),
        item("Snickers", null, null, "1,29")
      ]
    )
  })

  it("OCR on a till's line: the class glued to the amount (0,38A); a minus read after the unit price (1,40- 8,40)", () => {
    assert.deepStrictEqual(
      itemsOf([
        line("FACTURA SIMPLIFICADA"),
        line("ACEITE OLIVA 1L 0,38A"),
        line("4 UD 6,55"),
        line("LECHE ENTERA 26,20 B"),
        line("6 APPELS 1,40- 8,40"),
        line("TOTAL FACTURA: 35,98")
      ]),
      [
        item("ACEITE OLIVA 1L", null, null, "0,38"),
        item("LECHE ENTERA", "4", "6,55", "26,20"),
        item("APPELS", "6", "1,40", "8,40")
      ]
    )
    // A size glued to its unit is no amount; a minus where the count and price make no amount stays the text's.
    assert.deepStrictEqual(
      itemsOf([
        line("TICKET"),
        line("AGUA MINERAL 1,5L"),
        line("2 UD 0,60", "1,20"),
        line("PEREN 1,40- 8,40"),
        line("TOTAL", "9,60")
      ]),
      [item("AGUA MINERAL 1,5L", "2", "0,60", "1,20"), item("PEREN 1,40-", null, null, "8,40")]
    )
  })

  it("a quantity row with a speck around its price (5 X 1,72., 3 UN .7,91) or a mark on its unit (6 ÚDS 12, 72)", () => {
    assert.deepStrictEqual(
      itemsOf([
        line("Kassabon"),
        line("TOMATEN", "8,60"),
        line("5 X 1,72."),
        line("6 ÚDS 12, 72"),
        line("DETERGENTE", "76,32"),
        line("3 UN .7,91"),
        line("MANTEIGA", "23,73"),
        line("LIQUIDE VAISSELLE"),
        line("1,854 4 kg x 4,21 €/kg", "7,81 A"),
        line("BUTTER"),
        line("0,904 kg x1 12,26 €/kg", "11,08"),
        line("Totaal", "127,54")
      ]),
      [
        item("TOMATEN", "5", "1,72", "8,60"),
        item("DETERGENTE", "6", "12,72", "76,32"),
        item("MANTEIGA", "3", "7,91", "23,73"),
        item("LIQUIDE VAISSELLE", "1,854", "4,21", "7,81"),
        item("BUTTER", "0,904", "12,26", "11,08")
      ]
    )
    // A speck before the count, a space after the decimal mark: `.3 X 9, 94` under its article.
    assert.deepStrictEqual(
      itemsOf([line("SUPERMERCADO"), line("PLÁTANO", "29,82"), line(".3 X 9, 94"), line("Subtotal", "29,82")]),
      [item("PLÁTANO", "3", "9,94", "29,82")]
    )
    // A zero OCR read as an `O` (`6 UN O,74`, `3 x 1,O5`): the row's figures where they make the amount.
    assert.deepStrictEqual(
      itemsOf([
        line("FARMÁCIA"),
        line("PÃO DE FORMA", "4,44"),
        line("6 UN O,74"),
        line("LEITE", "3,15"),
        line("3 x 1,O5"),
        line("TOMATE", "2,00"),
        line("2 x O,90"),
        line("Total", "9,59")
      ]),
      [
        item("PÃO DE FORMA", "6", "0,74", "4,44"),
        item("LEITE", "3", "1,05", "3,15"),
        item("TOMATE", null, null, "2,00")
      ]
    )
    // A tax class read after the unit price too (`12,29 B 36,87 B`), where the count and price make the amount.
    const classed = (price: string) => [
      line("REÇU"),
      [
        [15, "3"],
        [29, "PÂTES 500G"],
        [135, price]
      ] as ReadonlyArray<Cell>,
      line("Total HT", "36,87")
    ]
    assert.deepStrictEqual(itemsOf(classed("12,29 B 36,87 B")), [item("PÂTES 500G", "3", "12,29", "36,87")])
    assert.notDeepEqual(itemsOf(classed("12,28 B 36,87 B")), [item("PÂTES 500G", "3", "12,28", "36,87")])
  })

  it("an amount OCR read with its thousands' mark as its cents' (5.636.80, 1,234,56): the other mark", () => {
    const header = row("Description", "Qty", "Unit Price", "Amount")
    assert.deepStrictEqual(
      itemsOf([header, row("Design work", "4", "RM 1,409.20", "RM 5.636.80"), row("Audit", "1", "1.234.567", "12")]),
      [item("Design work", "4", "RM 1,409.20", "RM 5,636.80"), item("Audit", "1", "1.234.567", "12")]
    )
    assert.deepStrictEqual(itemsOf([header, row("Wartung", "1", "1,234,56", "1.234,56")]), [
      item("Wartung", "1", "1.234,56", "1.234,56")
    ])
  })

  it("a totals label OCR split in two (Zwi schensumme) ends the items: no line of its own", () => {
    const rows = [
      line("BÄCKEREI"),
      line("EIER 10ER", "9,53"),
      line("BROT", "8,92"),
      line("Zwi schensumme: EUR", "18,45")
    ]
    assert.deepStrictEqual(itemsOf(rows), [item("EIER 10ER", null, null, "9,53"), item("BROT", null, null, "8,92")])
  })

  it("OCR's strays on a line: a count between price and amount, a one before the class, specks among the words", () => {
    assert.deepStrictEqual(
      itemsOf([
        line("Scontrino"),
        [
          [40, "1 JAMÓN COCIDO"],
          [250, "10,71"],
          [330, "1 10,71 B"]
        ],
        [
          [40, "2 ACQUA MINERALE"],
          [250, "10,51"],
          [330, "21,02 1 B"]
        ],
        line("WHITE • BREAD", "2.98"),
        line("CHEDDAR ( CHEESE", "3,50"),
        line("CAFFÈ (200 G)", "4,10"),
        line("TOTALE", "42,31")
      ]),
      [
        item("JAMÓN COCIDO", "1", "10,71", "10,71"),
        item("ACQUA MINERALE", "2", "10,51", "21,02"),
        item("WHITE BREAD", null, null, "2.98"),
        item("CHEDDAR CHEESE", null, null, "3,50"),
        item("CAFFÈ (200 G)", null, null, "4,10")
      ]
    )
  })

  it("a quantity row goes to the line next to it whose amount it makes, above or below", () => {
    const rows = [
      line("Ticket de compra"),
      line("4 ud. 9,23"),
      line("CAFÉ MOLIDO", "36,92"),
      line("DETERGENTE", "13,56"),
      line("LAIT DEMI-ÉCRÉMÉ", "52,32"),
      line("6 pce 8,72"),
      line("WHITE BREAD", "0,70"),
      line("1,382 kg x 0,51 RM/kg"),
      line("Balance Due", "103,50")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("CAFÉ MOLIDO", "4", "9,23", "36,92"),
      item("DETERGENTE", null, null, "13,56"),
      item("LAIT DEMI-ÉCRÉMÉ", "6", "8,72", "52,32"),
      item("WHITE BREAD", "1,382", "0,51", "0,70")
    ])
  })

  it("an American till's pounds, ounces and each (2.15 lb @ 0.60 /lb, 3 ea @ 1.99) under the line they make", () => {
    assert.deepStrictEqual(splitQuantity("2.15 LB @ $0.60 / LB"), { description: "", quantity: "2.15", price: "0.60" })
    const rows = [
      line("GREENLEAF MARKET"),
      line("BANANAS", "1.29"),
      line("2.15 lb @ 0.60 /lb"),
      line("PEANUTS ROASTED", "3.00"),
      line("12 oz @ 0.25 /oz"),
      line("LIMES", "1.50"),
      line("3 ea @ 0.50"),
      line("SUBTOTAL", "5.79")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("BANANAS", "2.15", "0.60", "1.29"),
      item("PEANUTS ROASTED", "12", "0.25", "3.00"),
      item("LIMES", "3", "0.50", "1.50")
    ])
  })

  it("a minus before a saving's currency sign (-£0.50) is its amount's sign, not its description's", () => {
    const rows = [
      line("Corner Shop Ltd"),
      line("Cheddar Mature 400g", "£3.75"),
      line("Clubcard Price Saving", "-£0.50"),
      line("Meal Deal Reduction", "- $1.00"),
      line("BALANCE DUE", "£2.25")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("Cheddar Mature 400g", null, null, "3.75"),
      item("Clubcard Price Saving", null, null, "-0.50"),
      item("Meal Deal Reduction", null, null, "-1.00")
    ])
  })

  it("a quantity's cell with its unit after the figure (100 Nos, 2 pcs, 8 hrs) gives the figure", () => {
    const table = itemsOf([
      row("Description of Goods", "Quantity", "Rate", "Amount"),
      row("PVC Pipe 1 inch", "100 Nos", "85.00", "8,500.00"),
      row("Ball Valve", "2 pcs", "240.00", "480.00"),
      row("Fitting labour", "8 hrs", "25.00", "200.00")
    ])
    assert.deepStrictEqual(table, [
      item("PVC Pipe 1 inch", "100", "85.00", "8,500.00"),
      item("Ball Valve", "2", "240.00", "480.00"),
      item("Fitting labour", "8", "25.00", "200.00")
    ])
  })

  it("a litre's price with three decimals under the fuel's name (42,35 L x 1,659 €/L 70,26); a milestone's km no line", () => {
    const rows = [
      line("E.S. LAS ROZAS"),
      line("Ctra. A-6 km 18,5"),
      line("28230 Las Rozas (Madrid)"),
      line("Surtidor 4"),
      line("EFITEC 95 N."),
      line("42,35 L x 1,659 €/L", "70,26"),
      line("Säule 3 Super E10"),
      line("38,21 l x 1,779 EUR/l", "67,98 A"),
      line("TOTAL", "138,24")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("EFITEC 95 N.", "42,35", "1,659", "70,26"),
      item("Säule 3 Super E10", "38,21", "1,779", "67,98")
    ])
    // Three decimals that do not make the amount are no unit price.
    assert.deepStrictEqual(itemsOf([line("GASOLEO"), line("42,35 L x 1,659 €/L", "71,00"), line("TOTAL", "71,00")]), [
      item("GASOLEO", null, null, "71,00")
    ])
  })

  it("a count and price whose times sign OCR lost (6  9.97, 5( 3.70) where they make the amount next to them", () => {
    const rows = [
      line("CASH RECEIPT"),
      line("6  9.97"),
      line("WHITE BREAD", "59.82 B"),
      line("5( 3.70"),
      line("CHICKEN BREAST", "18.50 B"),
      line("SUBTOTAL", "78.32")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("WHITE BREAD", "6", "9.97", "59.82"),
      item("CHICKEN BREAST", "5", "3.70", "18.50")
    ])
    // A count and an amount under a name are its line, not a quantity row: they make no amount near them.
    assert.deepStrictEqual(itemsOf([line("MILK 1L"), line("2  5.00"), line("TOTAL", "5.00")]), [
      item("MILK 1L", null, null, "5.00")
    ])
  })

  it("a count of one read as a zero, where the unit price is the amount (0 | 554.79 | 554,79)", () => {
    const table = itemsOf([
      row("Description", "Quantité", "Prix", "Prix total"),
      row("Maintenance mensuelle", "0", "554,79", "554,79"),
      row("Réparation", "0", "100,00", "200,00")
    ])
    assert.deepStrictEqual(table, [
      item("Maintenance mensuelle", "1", "554,79", "554,79"),
      item("Réparation", "0", "100,00", "200,00")
    ])
  })

  it("OCR's slips on a till's lines: 5B for a class, a lone [ in a name, a stroke before the price, f for £", () => {
    const rows = [
      line("GOUDSE KAAS", "38,12 A"),
      line("4 x 9,53"),
      line("TOMATEN", "65,95 5B"),
      line("5 x 13,19"),
      line("SUMO [ DE LARANJA", "20,06"),
      line("2 UN I 10,03"),
      line("BANANAS", "31.73"),
      line("2.469 kg x 12. 85 f/kg"),
      line("Totaalbedrag", "155,86")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("GOUDSE KAAS", "4", "9,53", "38,12"),
      item("TOMATEN", "5", "13,19", "65,95"),
      item("SUMO DE LARANJA", "2", "10,03", "20,06"),
      item("BANANAS", "2.469", "12.85", "31.73")
    ])
  })

  it("a size glued to its unit (1,5L) leaves a row a description; a lines' sum (Suma) ends the lines", () => {
    const rows = [
      line("Caja: 9"),
      line("AGUA MINERAL 1,5L"),
      line("1,182 kg x 6,15 EUR/kg", "7,27"),
      line("1 ACEITE OLIVA 1L", "2,54"),
      line("Suma", "9,81"),
      line("TOTAL:", "9,81")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("AGUA MINERAL 1,5L", "1,182", "6,15", "7,27"),
      // One unit costs the line.
      item("ACEITE OLIVA 1L", "1", "2,54", "2,54")
    ])
  })

  it("a French till's net amount (Base HT) ends the lines; it is none of them", () => {
    const rows = [
      line("Caissier: 8"),
      line("BAGUETTE", "3,78"),
      line("COMTÉ", "10,74"),
      line("Base HT", "13,75"),
      line("TOTAL:", "14,52")
    ]
    assert.deepStrictEqual(itemsOf(rows), [item("BAGUETTE", null, null, "3,78"), item("COMTÉ", null, null, "10,74")])
  })

  it("a Malaysian till's GST code after the amount (5.20 SR, 3.00 ZR) leaves the line a line", () => {
    const rows = [
      line("SAM SAM TRADING CO"),
      line("TAX INVOICE"),
      line("SUPER GLUE USG-99", "5.20 SR"),
      line("  2 x 1.50"),
      line("A4 COLOR PAPER", "3.00 ZR"),
      line("Total Incl. GST :", "8.20")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("SUPER GLUE USG-99", null, null, "5.20"),
      item("A4 COLOR PAPER", "2", "1.50", "3.00")
    ])
  })

  it("a count, a description and a unit price in cells: the count and price that make the amount", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "4"],
        [80, "BUTTER 250G"],
        [250, "14.76"],
        [330, "59.04"]
      ],
      [
        [40, "1"],
        [80, "MILK 1L"],
        [250, "3.20"],
        [330, "3.20"]
      ],
      line("Incidência", "62.24")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("BUTTER 250G", "4", "14.76", "59.04"),
      item("MILK 1L", "1", "3.20", "3.20")
    ])
  })

  it("OCR's stray marks and spaces in figures: a count read `3.`, a weight and price read `2, 133` and `6, 88`", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "3."],
        [80, "PARMIGIANO"],
        [250, "14,58"],
        [330, "43,74"]
      ],
      [
        [40, "1."],
        [80, "PANE COMUNE"],
        [250, "2,10"],
        [330, "4,20"]
      ],
      line("TOMATES"),
      line("2, 133 kg x 6, 88 €/kg", "14,68"),
      line("TOTALE:", "62,62")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("PARMIGIANO", "3", "14,58", "43,74"),
      // An item's number (`1.`) that does not make the amount is left in its description.
      item("1. PANE COMUNE 2,10", null, null, "4,20"),
      item("TOMATES", "2,133", "6,88", "14,68")
    ])
    // A count glued to a unit of count, as OCR reads `2 UD`, where it makes the line's amount; a size glued to a
    // measure (`1L`) stays the description's.
    assert.deepStrictEqual(
      itemsOf([
        line("2UD 3,37"),
        line("ACEITE OLIVA 1L", "6,74"),
        line("5.un 2,07"),
        line("LEITE MEIO GORDO", "10,35"),
        line("4UD 1,00"),
        line("PAN", "1,00"),
        line("1L 3,20"),
        line("LECHE", "3,20"),
        line("TOTAL:", "21,29")
      ]),
      [
        item("ACEITE OLIVA 1L", "2", "3,37", "6,74"),
        item("LEITE MEIO GORDO", "5", "2,07", "10,35"),
        item("PAN", null, null, "1,00"),
        item("LECHE", null, null, "3,20")
      ]
    )
    // Two numbers a space apart are no decimal: `5, 3 x 1,25` is three at 1,25.
    assert.deepStrictEqual(splitQuantity("PACK 5, 3 x 1,25"), { description: "PACK 5,", quantity: "3", price: "1,25" })
  })

  it("OCR's specks on a till's lines: after an amount (7,34. 6,11`) or price, before or doubling a tax class, after a count", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      line("3u 10,52"),
      line("PATES 500G", "31,56"),
      line("3u6,54"),
      line("BEURRE DOUX", "19,62"),
      line("BEURRE DOUX", "24,21"),
      line("3. X 8,07"),
      line("YOGHURT"),
      line("0,939 kg x 7,82 €/kg", "7,34."),
      line("BANANE", "6,11`"),
      line("PASTA 500G", "32,82"),
      line("3x1 10,94"),
      line("IOGURTE NATURAL"),
      line("1, 634 kg x 3, 08 c/kg", "5,03"),
      [
        [40, "6"],
        [80, "JAMÓN COCIDO"],
        [250, "12,97. 77,82 B"]
      ],
      [
        [40, "4"],
        [80, "ACEITE OLIVA 1L"],
        [250, "13,51"],
        [330, "54,04 IB"]
      ],
      [
        [40, "6"],
        [80, "MANZANA"],
        [250, "10,38"],
        [330, "62,28 A A"]
      ],
      [
        [40, "1'"],
        [80, "QUESO TIERNO"],
        [250, "13,78"],
        [330, "13,78"]
      ],
      line("COMTÉ", "5,39.B"),
      line("TOTAL", "357,66")
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("PATES 500G", "3", "10,52", "31,56"),
      item("BEURRE DOUX", "3", "6,54", "19,62"),
      item("BEURRE DOUX", "3", "8,07", "24,21"),
      item("YOGHURT", "0,939", "7,82", "7,34"),
      item("BANANE", null, null, "6,11"),
      // A stroke glued to the times sign; the euro sign of a price per kilo read as a `c`.
      item("PASTA 500G", "3", "10,94", "32,82"),
      item("IOGURTE NATURAL", "1,634", "3,08", "5,03"),
      item("JAMÓN COCIDO", "6", "12,97", "77,82"),
      item("ACEITE OLIVA 1L", "4", "13,51", "54,04"),
      item("MANZANA", "6", "10,38", "62,28"),
      item("QUESO TIERNO", "1", "13,78", "13,78"),
      item("COMTÉ", null, null, "5,39")
    ])
  })

  it("a quantity column's figure with a mark OCR read after it (`8.`) is the figure, a stroke a one (`I`, `1I1`, `T`)", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Artikel"],
        [200, "Aantal"],
        [300, "Prijs per stuk"],
        [450, "Bedrag"]
      ],
      [
        [40, "Kantoorartikelen"],
        [200, "1"],
        [300, "€282,04"],
        [450, "€282,04"]
      ],
      [
        [40, "Verzendkosten"],
        [200, "8."],
        [300, "€495,69"],
        [450, "€3.965,52"]
      ],
      [
        [40, "Reparação"],
        [200, "I"],
        [300, "€1.296,31"],
        [450, "€1.296,31"]
      ],
      [
        [40, "Retour"],
        [200, "1"],
        [300, "€2,50"],
        [450, "€2,50-"]
      ],
      [
        [40, "Reparatur"],
        [200, "1I1"],
        [300, "€354,88"],
        [450, "€3.903,68"]
      ],
      [
        [40, "Softwarelizenz"],
        [200, "1I"],
        [300, "€665,82"],
        [450, "€7.324,02"]
      ],
      [
        [40, "Transporte"],
        [200, "T"],
        [300, "€813,84"],
        [450, "€813,84"]
      ],
      [
        [40, "Webhosting"],
        [200, "2I"],
        [300, "€10,00"],
        [450, "€25,00"]
      ],
      [
        [40, "Réparation"],
        [200, "8"],
        [300, "40,81.€"],
        [450, "326,48 €"]
      ],
      [
        [40, "Office supplies"],
        [200, "2"],
        [300, "£ 1,143.90"],
        [450, "f 2,287.80"]
      ],
      [
        [40, "Hosting"],
        [300, "€537,68"],
        [450, "€.537,68"]
      ],
      [
        [40, "Lizenz"],
        [200, "1"],
        [300, "665.82"],
        [450, "7324.02"]
      ],
      [
        [40, "Material"],
        [200, "1 1395,20€"],
        [450, "1395,20€"]
      ],
      [
        [40, "Descuento"],
        [300, "€10,00"],
        [450, "€5,00"]
      ],
      line("Subtotaal:", "€4.245,06")
    ]
    const got = Local.extractFields([LINEAS], document([page(1, rows)])).lineas as ReadonlyArray<Record<string, string>>
    // A speck read between a price and its currency sign is no mark of it; an `f` before an amount is a pound sign.
    assert.strictEqual(got.at(-6)?.precio, "40,81€")
    assert.strictEqual(got.at(-5)?.importe, "£ 2,287.80")
    // Nor one read between the currency sign and an amount with its cents.
    assert.strictEqual(got.at(-4)?.importe, "€ 537,68")
    // A count not read where the price is the amount is one; a count run into the price's cell is split from it;
    // where the price is not the amount, no count is made up.
    assert.deepStrictEqual(
      got.slice(-4).map((l) => [l.cantidad ?? null, l.precio]),
      [
        ["1", "€537,68"],
        // A one OCR lost from a count the amount shows (11 × 665.82).
        ["11", "665.82"],
        ["1", "1395,20€"],
        [null, "€10,00"]
      ]
    )
    assert.deepStrictEqual(
      got.slice(0, -6).map((l) => [l.cantidad, l.importe]),
      [
        ["1", "€282,04"],
        ["8", "€3.965,52"],
        ["1", "€1.296,31"],
        ["1", "€2,50-"],
        ["11", "€3.903,68"],
        ["11", "€7.324,02"],
        ["1", "€813,84"],
        // Neither reading makes the amount: the count is left as read.
        ["2I", "€25,00"]
      ]
    )
  })

  it("column headers in each language; figures aligned right go to their header's column; totals end the table", () => {
    const table = (headers: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<Cell>> => [
      [
        [40, headers[0] ?? ""],
        [250, headers[1] ?? ""],
        [320, headers[2] ?? ""],
        [420, headers[3] ?? ""]
      ],
      [
        [40, "Maintenance mensuelle"],
        [250, "23"],
        [345, "533,08 €"],
        [450, "12 260,84 €"]
      ],
      [
        [345, "Sous-total:"],
        [450, "12 260,84 €"]
      ]
    ]
    const want = [item("Maintenance mensuelle", "23", "533,08 €", "12 260,84 €")]
    for (const headers of [
      ["DÉSIGNATION", "QTÉ", "PU HT", "PRIX TOTAL"],
      ["Descrizione", "Q.tà", "Prezzo unitario", "Prezzo"],
      ["DESCRIZIONE", "QTA", "PREZZO", "TOTALE"],
      ["Artikel", "Menge", "Einzelpreis", "Summe"],
      // A header's long word OCR split in two
      ["BESCHREIB UNG", "STK.", "STÜCKPREIS", "GESAMTPREIS"],
      ["Designação", "Qtd.", "Preço un.", "Montante"],
      ["Descripción", "Cant.", "P. Unitario", "Importe"],
      ["Produto", "Qtde", "Valor unitário", "Valor total"],
      ["OMSCHRIJVING", "Aant.", "Prijs per stuk", "BEDRAG"],
      ["Details", "Quantity", "Rate", "Total"],
      // A service's hours and their rate
      ["Service", "Hours", "Hourly rate", "Amount"],
      ["Leistung", "Stunden", "Stundensatz", "Betrag"],
      ["Concepto", "Horas", "Tarifa", "Importe"],
      ["Omschrijving", "Uren", "Uurtarief", "Bedrag"]
    ])
      assert.deepStrictEqual(itemsOf(table(headers)), want, headers.join(" | "))
  })

  it("an article's code column beside the description's: the description's own word heads the description", () => {
    for (const [code, description] of [
      ["Artigo", "Descrição"],
      ["Item", "Description"],
      ["Artikel", "Bezeichnung"],
      ["Article", "Désignation"]
    ]) {
      const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
        [
          [40, code ?? ""],
          [100, description ?? ""],
          [250, "Qty"],
          [300, "Price"],
          [380, "Total"]
        ],
        [
          [40, "PA-001"],
          [100, "Papel A4 80g (resma)"],
          [250, "20"],
          [300, "3,95"],
          [380, "79,00"]
        ]
      ]
      assert.deepStrictEqual(itemsOf(rows), [item("Papel A4 80g (resma)", "20", "3,95", "79,00")], code)
    }
    // Alone, the article's word heads the description.
    assert.deepStrictEqual(
      itemsOf([row("Artikel", "Menge", "Preis", "Betrag"), row("Kabel NYM", "10", "2,50", "25,00")]),
      [item("Kabel NYM", "10", "2,50", "25,00")]
    )
  })

  it("a description whose figures stand on its last line: the lines over it that it goes on from are its own", () => {
    const header = row("Descrizione", "Q.tà", "Prezzo", "Importo")
    assert.deepStrictEqual(
      itemsOf([
        header,
        row("Progettazione logo", "1", "800,00", "800,00"),
        row("Biglietti da visita"),
        row("(stampa 500 pz, carta patinata)", "2", "60,00", "120,00")
      ]),
      [
        item("Progettazione logo", "1", "800,00", "800,00"),
        item("Biglietti da visita (stampa 500 pz, carta patinata)", "2", "60,00", "120,00")
      ]
    )
    // Two lines over it, both its own.
    assert.deepStrictEqual(
      itemsOf([
        header,
        row("Progettazione logo", "1", "800,00", "800,00"),
        row("Biglietti da visita"),
        row("fronte e retro"),
        row("(stampa 500 pz)", "2", "60,00", "120,00")
      ]),
      [
        item("Progettazione logo", "1", "800,00", "800,00"),
        item("Biglietti da visita fronte e retro (stampa 500 pz)", "2", "60,00", "120,00")
      ]
    )
    // A description that opens as a name does not: the line over it went on with the item above.
    assert.deepStrictEqual(
      itemsOf([
        header,
        row("Progettazione logo", "1", "800,00", "800,00"),
        row("(versione colore e bianco/nero)"),
        row("Biglietti da visita", "2", "60,00", "120,00")
      ]),
      [
        item("Progettazione logo (versione colore e bianco/nero)", "1", "800,00", "800,00"),
        item("Biglietti da visita", "2", "60,00", "120,00")
      ]
    )
  })

  it("a description running on toward the next header keeps its words", () => {
    // FatturaPA's courtesy copy: `500 pz` ends the description, nearer `Quantità` than `Descrizione`'s end.
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Descrizione"],
        [195, "Quantità"],
        [260, "Prezzo unitario"],
        [345, "UM"],
        [370, "IVA %"],
        [420, "Prezzo totale"]
      ],
      [
        [40, "Biglietti da visita 500 pz"],
        [195, "2,00"],
        [260, "45,00"],
        [370, "22,00"],
        [420, "90,00"]
      ],
      [
        [40, "Carta intestata A4"],
        [195, "1,00"],
        [260, "120,00"],
        [370, "22,00"],
        [420, "120,00"]
      ]
    ]
    assert.deepStrictEqual(itemsOf(rows), [
      item("Biglietti da visita 500 pz", "2,00", "45,00", "90,00"),
      item("Carta intestata A4", "1,00", "120,00", "120,00")
    ])
  })

  it("Peru's taxed sales and IGV under a boleta's lines are no lines (OP. GRAVADA, IGV 18%)", () => {
    const table = itemsOf([
      row("DESCRIPCION", "CANT", "P.UNIT", "IMPORTE"),
      row("PANADOL FORTE X 10", "2", "8.50", "17.00"),
      row("ALCOHOL 70 250ML", "1", "4.90", "4.90"),
      row("OP. GRAVADA", "", "S/", "18.56"),
      row("IGV 18%", "", "S/", "3.34"),
      row("IMPORTE TOTAL", "", "S/", "21.90")
    ])
    assert.deepStrictEqual(table, [
      item("PANADOL FORTE X 10", "2", "8.50", "17.00"),
      item("ALCOHOL 70 250ML", "1", "4.90", "4.90")
    ])
  })

  it("a code column headed one space before the description (Codigo Descricao) is a column of its own", () => {
    const header: ReadonlyArray<Cell> = [
      [40, "Codigo Descricao"],
      [250, "Qtde"],
      [330, "Vl Unit"],
      [430, "Vl Total"]
    ]
    const lineOf = (code: string, name: string, count: string, price: string, amount: string): ReadonlyArray<Cell> => [
      [40, code],
      [75, name],
      [250, count],
      [330, price],
      [430, amount]
    ]
    const table = itemsOf([
      header,
      lineOf("001", "PAO FRANCES", "0,500", "15,90", "7,95"),
      lineOf("002", "CAFE COADO", "2", "4,50", "9,00"),
      // The count of lines under them ends the table.
      [
        [40, "Qtde. total de itens"],
        [430, "2"]
      ],
      [
        [40, "Valor a pagar R$"],
        [430, "16,95"]
      ]
    ])
    assert.deepStrictEqual(table, [
      item("PAO FRANCES", "0,500", "15,90", "7,95"),
      item("CAFE COADO", "2", "4,50", "9,00")
    ])
  })

  /** The descriptions of a till's lines, printed under its name as (text, amount) rows. */
  const descriptionsOf = (name: string, ...rows: ReadonlyArray<readonly [string, string]>) => {
    const items = Local.extractFields(
      [ITEMS],
      document([page(1, [line(name), ...rows.map(([text, amount]) => line(text, amount))])])
    ).items
    return Array.isArray(items) ? items.map((i) => i.description) : items
  }

  it("Canada's and India's taxes under a till's lines are no lines (HST, TPS, TVQ, CGST)", () => {
    const lines = (...taxes: ReadonlyArray<readonly [string, string]>) =>
      descriptionsOf("Coastal Cafe Ltd.", ["Latte", "5.25"], ["Muffin", "3.75"], ...taxes, ["Total", "10.17"])
    for (const taxes of [
      [["HST 13%", "1.17"]],
      [
        ["TPS 5%", "0.45"],
        ["TVQ 9,975%", "0.72"]
      ],
      [["CGST @ 9%", "0.81"]]
    ] as const)
      assert.deepStrictEqual(lines(...taxes), ["Latte", "Muffin"], taxes[0][0])
  })

  it("a card's or the change's word naming goods leaves its row a line (CARTA IGIENICA, CAMBIO ACEITE)", () => {
    const names = (...rows: ReadonlyArray<readonly [string, string]>) => descriptionsOf("Esselunga S.p.A.", ...rows)
    assert.deepStrictEqual(names(["CARTA IGIENICA", "3,49"], ["CAMBIO ACEITE", "9,90"], ["TOTALE", "13,39"]), [
      "CARTA IGIENICA",
      "CAMBIO ACEITE"
    ])
    assert.deepStrictEqual(names(["CHANGE PURSE", "3.00"], ["CARTE POSTALE", "1.20"], ["TOTAL", "4.20"]), [
      "CHANGE PURSE",
      "CARTE POSTALE"
    ])
    // With only a payment's words beside them, a payment's rows.
    assert.deepStrictEqual(
      names(["LATTE", "1,29"], ["CARTA DI CREDITO", "1,29"], ["CAMBIO", "0,00"], ["TOTALE", "1,29"]),
      ["LATTE"]
    )
  })
})
