import { assert, describe, it } from "@effect/vitest"
import { LEVELS } from "../../../src/internal/local/evidence.js"
import type { Target } from "../../../src/internal/local/labels.js"
import { layout } from "../../../src/internal/local/layout.js"
import { total } from "../../../src/internal/local/totals.js"
import { type Cell, document, page } from "../../support/documents.js"

const TOTAL: Target = { name: "total", type: "float", aliases: [], description: "" }

/** Rows of a label cell and an amount cell at the right margin. */
const lines = (...pairs: ReadonlyArray<readonly [string, string]>): ReadonlyArray<ReadonlyArray<Cell>> =>
  pairs.map(([label, amount]) => [
    [40, label],
    [330, amount]
  ])

/** A row of cells at the given x positions, one text each. */
const cells = (xs: ReadonlyArray<number>, ...texts: ReadonlyArray<string>): ReadonlyArray<Cell> =>
  texts.map((text, i) => [xs[i] ?? 0, text] as const)

/**
 * The total found on one page of rows, with its certainty: read by OCR (its figures may be misread), unless read
 * from a text layer.
 */
const foundOf = (rows: ReadonlyArray<ReadonlyArray<Cell>>, target: Target = TOTAL, source: "ocr" | "text" = "ocr") =>
  total(layout(document([{ ...page(1, rows), source }])), target)

/** Asserts the total found on the rows, confirmed by the document's own arithmetic. */
const assertConfirmed = (rows: ReadonlyArray<ReadonlyArray<Cell>>, text: string) => {
  const found = foundOf(rows)
  assert.strictEqual(found?.text, text)
  assert.strictEqual(found?.certainty, LEVELS.confirmed)
}

const totalOf = (rows: ReadonlyArray<ReadonlyArray<Cell>>, target: Target = TOTAL) =>
  foundOf(rows, target)?.text ?? null

/** The total of rows read by OCR: every word read with some doubt. */
const ocrTotalOf = (rows: ReadonlyArray<ReadonlyArray<Cell>>) => {
  const read = page(1, rows)
  const doubted = {
    ...read,
    lines: read.lines.map((l) => ({ words: l.words.map((w) => ({ ...w, confidence: 0.9 })) }))
  }
  return total(layout(document([doubted])), TOTAL)?.text ?? null
}

/** SROIE's totals block as OCR read it (`X51005200938`), its GST row given. */
const sroieTotals = (gst: readonly [string, string]) =>
  lines(
    ["[Excluded GST) Stb Total (RM)", "106.10"],
    ["Discoumt (RM) :", "Q.DO"],
    gst,
    ["RoundIng (RM) :", "-0.02"],
    ["Total (RM} :", "112.46"],
    ["CASH :", "112.4&"],
    ["Change (RM)", "0.00"]
  )

describe("totals", () => {
  it("a credit note's total below zero, given with its sign; a savings' line on a receipt is none", () => {
    const note = (title: string) =>
      totalOf([
        [[40, title]],
        ...lines(["Devolución 10 cajas tornillos", "-100,00"], ["Base imponible", "-100,00"]),
        ...lines(["IVA 21%", "-21,00"], ["TOTAL", "-121,00"])
      ])
    for (const title of [
      "FACTURA RECTIFICATIVA Nº R-2024-0012",
      "Gutschrift Nr. 12",
      "CREDIT NOTE CN-12",
      "Avoir n° 3"
    ])
      assert.strictEqual(note(title), "-121,00", title)
    assert.isNull(note("TICKET 0045"))
  })

  it("a total OCR misread: the labelled total the money paid makes, of any total's rank", () => {
    const rows = lines(
      ["AGUA MINERAL", "10,16"],
      ["TOTAL A PAGAR", "107,96 €"],
      ["Redondeo", "-0,01"],
      ["TOTAL REDONDEADO", "107,75"],
      ["EFECTIVO", "120,00 €"],
      ["Cambio", "12,25"]
    )
    assert.strictEqual(totalOf(rows), "107,75")
    // `A devolver` is the change: the money paid and the subtotal make 100,88, not the label's 100,08.
    const devolver = lines(
      ["Subtotal:", "100,88 EUR"],
      ["TOTAL FACTURA:", "100,08"],
      ["ENTREGADO:", "110,00"],
      ["A devolver:", "9,12 EUR"]
    )
    assert.strictEqual(totalOf(devolver), "100,88")
    // A promotion is a discount: the subtotal less it makes 143,08, a digit from the label's 143,28.
    const promocao = lines(["Subtotal:", "149,20"], ["Promoção:", "-6,12"], ["Total:", "143,28"])
    assert.strictEqual(totalOf(promocao), "143,08")
  })

  it("a label OCR glued to its amount (`TOTAL7.00`) is read as the two words printed", () => {
    const receipt = [
      cells([40], "KEDAI RUNCIT SDN BHD"),
      ...lines(["BREAD", "3.50"], ["MILK", "3.50"]),
      cells([40], "TOTAL7.00"),
      ...lines(["CASH", "10.00"])
    ]
    assert.strictEqual(totalOf(receipt), "7.00")
    assert.strictEqual(totalOf([cells([40], "Summe12,45"), cells([40], "BAR20,00")]), "12,45")
    // After a colon, as some text layers print it.
    assert.strictEqual(totalOf([cells([40], "Subtotal:1,000.00"), cells([40], "Total:1,200.00")]), "1,200.00")
    // Letters of no amount's label glued to figures are a code, no label and no amount.
    assert.isNull(totalOf([cells([40, 330], "Total", "REF12.50")]))
  })

  it("a tax summary's total of a net amount and its tax at the printed rate is no total", () => {
    const receipt = (due: ReadonlyArray<Cell>) => [
      cells([40], "KEDAI RUNCIT SDN BHD"),
      ...lines(["BREAD", "50.00"], ["RICE", "62.47"]),
      due,
      ...lines(["CASH", "120.00"], ["CHANGE", "7.53"]),
      cells([40, 200, 300], "GST Summary", "Amount(RM)", "Tax(RM)"),
      cells([40, 200, 300], "SR @ 6%", "106.10", "6.37"),
      cells([40, 200, 300], "Total:", "106.10", "6.37")
    ]
    assert.strictEqual(totalOf(receipt(cells([40, 330], "Total (RM):", "112.47"))), "112.47")
    // The total's label lost (OCR): the summary's net is not taken.
    assert.notStrictEqual(totalOf(receipt(cells([330], "112.47"))), "106.10")
    // No rate by a % sign (it heads a column): the page's subtotal and tax figures are the pair.
    const unrated = [
      ...lines(["BREAD", "50.00"], ["RICE", "56.10"], ["Sub Total (RM)", "106.10"], ["Total GST (RM) :", "6.37"]),
      cells([330], "112.47"),
      cells([40, 100, 200, 300], "Tax Code", "%", "Amount", "GST"),
      cells([40, 100, 200, 300], "SR", "6", "106.10", "6.37"),
      cells([40, 200, 300], "Total:", "106.10", "6.37")
    ]
    assert.notStrictEqual(totalOf(unrated), "106.10")
    // A total beside the tax it includes is a total (112.47 at 6 % makes no 6.37).
    assert.strictEqual(totalOf([cells([40, 200, 300], "Total:", "112.47", "6.37"), cells([40], "GST 6%")]), "112.47")
  })

  it("a due label over no money (a date's header beside the town's postcode) leaves the total to the next rank", () => {
    const rows = [
      cells([40, 300], "FACTUUR GPF-620065", "de Vries Dijkstra B.V."),
      cells([300], "Techniekweg 208"),
      cells([40, 300], "TE BETALEN VOOR", "8994 KE Amsterdam"),
      cells([40], "30 - 09 - 2019"),
      ...lines(["SUBTOTAAL:", "EUR 65.641,64"], ["BTW-BEDRAG 20 %:", "EUR 13.128,33"], ["TOTAAL:", "EUR 78.769,97"])
    ]
    assert.strictEqual(totalOf(rows), "78.769,97")
  })

  it("a total whose thousands OCR marked as its cents is written with the other mark for them", () => {
    const rows = (total: string) =>
      lines(["Subtotale:", "€34.979,12"], ["IVA 20 %:", "€6.996,00"], ["Importo totale:", total])
    assert.strictEqual(totalOf(rows("€41,975,12")), "41.975,12")
    assert.strictEqual(totalOf(lines(["Subtotal", "5,400.00"], ["VAT", "1,080.00"], ["Total", "6.480.00"])), "6,480.00")
    assert.strictEqual(totalOf(rows("€41.975,12")), "41.975,12")
  })

  it("an integer by a total label is no amount where the document prints cents (`TOTAL 53 | 990,71`, split)", () => {
    const rows = [...lines(["Conseil", "26 495,36"], ["Formation", "27 495,35"]), cells([330, 420], "TOTAL", "53 €")]
    assert.isNull(totalOf(rows))
    // Its decimal mark printed, the reader lost the cents (`Net Total 25.`): it is the amount.
    assert.strictEqual(
      totalOf([...lines(["TAU SAR PNEAH 24PCS @12.50", "25.00 SR"]), ...lines(["Net Total", "25."])]),
      "25"
    )
    // Amounts printed without cents: an integer is one.
    assert.strictEqual(
      totalOf([...lines(["Conseil", "26495"], ["Formation", "27495"]), cells([330, 420], "TOTAL", "53990 €")]),
      "53990"
    )
  })

  it("a total label OCR lost: the amount paid that the tax summary's gross column makes too", () => {
    const xs = [40, 130, 220, 300]
    const receipt = (paid: string, summary: ReadonlyArray<ReadonlyArray<Cell>>) => [
      ...lines(["2 * Atemschutzmaske 2*9,95", "19,90"], ["Einzelpreis", "9,95"]),
      // `Summe  EUR 19,90`, its label lost: an amount alone.
      [[330, "EUR 19,90"]] as ReadonlyArray<Cell>,
      ...summary,
      ...lines([`gegeben Kreditkarte`, `EUR ${paid}`])
    ]
    const apotheke = [cells(xs, "Typ", "Netto", "MwSt", "Brutto"), cells(xs, "19 %", "16,72", "3,18", "19,90")]
    assert.strictEqual(totalOf(receipt("19,90", apotheke)), "19,90")
    // Two rates and their sum (`A 7% … | B 19% … | Summe …`): the sum's gross.
    const lidl = [
      cells(xs, "MWST%", "MWST", "Netto", "Brutto"),
      cells(xs, "A 7%", "0,62", "8,89", "9,51"),
      cells(xs, "B 19%", "1,65", "8,74", "10,39"),
      cells(xs, "Summe", "2,27", "17,63", "19,90")
    ]
    assert.strictEqual(totalOf(receipt("19,90", lidl)), "19,90")
    // Gross by another name: `Umsatz`, a Spanish summary's `Total`.
    const umsatz = [cells(xs, "Steuer", "Netto", "MwSt", "Umsatz"), cells(xs, "A 19%", "16,72", "3,18", "19,90")]
    assert.strictEqual(totalOf(receipt("19,90", umsatz)), "19,90")
    const total = [
      cells([40, 130, 220, 300, 380], "IVA", "Base", "Cuota", "Total"),
      cells(xs, "21 %", "16,45", "3,45", "19,90")
    ]
    assert.strictEqual(totalOf(receipt("19,90", total)), "19,90")
    // A total OCR misread by a digit (`15,89`) against the amount paid and the summary's gross that agree.
    const misread = [
      ...lines(["Hähnchen süß-sauer", "9,51 A"], ["Premium Vodka", "6,18 B"], ["zu zahlen", "15,89"]),
      ...lines(["Kreditkarte", "15,69"]),
      cells(xs, "MWST%", "MWST", "Netto", "Brutto"),
      cells(xs, "A 7%", "0,62", "8,89", "9,51"),
      cells(xs, "B 19%", "0,99", "5,19", "6,18"),
      cells(xs, "Summe", "1,61", "14,08", "15,69")
    ]
    assert.strictEqual(totalOf(misread), "15,69")
    // No summary, but the lines add up to the amount paid, the total under them read as one more line (`Summe EUR`
    // with `Summe` lost).
    const ikea = [
      ...lines(["POANG Pokis", "10,00"], ["SKANKA", "14,99"], ["DVALA Spblak 90x200", "7,99"]),
      [
        [40, "EUR"],
        [330, "32,98"]
      ] as ReadonlyArray<Cell>,
      ...lines(["EC LASTSCHRIFT", "32,98 EUR"])
    ]
    assert.strictEqual(totalOf(ikea), "32,98")
    // The amount paid and the gross disagree, or no summary: nothing says what the total is.
    assert.isNull(totalOf(receipt("20,00", apotheke)))
    assert.isNull(totalOf(receipt("19,90", [])))
  })

  it("Carrefour: TOTAL A PAGAR over the savings total, the subtotal and discounts", () => {
    const rows = lines(
      ["SUBTOTAL", "30,47"],
      ["DTO. CHEQUE AHORRO", "-21,68"],
      ["14 ART. TOTAL A PAGAR :", "5,30"],
      ["ACUMULADO CLUB:", "0,30"],
      ["TOTAL VENTAJAS EN ESTA COMPRA:", "25,47"],
      ["CAMBIO RECIBIDO", "0,00"]
    )
    assert.strictEqual(totalOf(rows), "5,30")
  })

  it("a tax word with its including word after it names the total: TOTAL (IVA INCL.), TOTAL TVA comprise", () => {
    const receipt = (label: string) =>
      lines(["1 BARRA", "1,10"], ["2 CROISSANT", "2,40"], [label, "3,50"], ["CAMBIO", "1,50"])
    assert.strictEqual(totalOf(receipt("TOTAL (IVA INCL.)")), "3,50")
    assert.strictEqual(totalOf(receipt("TOTAL IVA incluido")), "3,50")
    assert.strictEqual(totalOf(receipt("Total TVA comprise")), "3,50")
    // Not after: a tax's own amount stays a tax.
    assert.isNull(totalOf(receipt("TOTAL IVA")))
    assert.isNull(totalOf(receipt("TOTAL IVA 21%")))
  })

  it("a total with its thousands grouped by spaces (Net à payer 15 080,83 €), not its first group", () => {
    assert.strictEqual(totalOf(lines(["Sous-total:", "12 260,84 €"], ["Net à payer:", "15 080,83 €"])), "15 080,83")
  })

  it("a skill alias the vocabulary knows (Total) does not lift TOTAL VENTAJAS over TOTAL A PAGAR", () => {
    const rows = lines(
      ["SUBTOTAL", "30,47"],
      ["14 ART. TOTAL A PAGAR :", "5,30"],
      ["TOTAL VENTAJAS EN ESTA COMPRA:", "25,47"]
    )
    assert.strictEqual(totalOf(rows, { ...TOTAL, aliases: ["Total"] }), "5,30")
    const inOneCell: ReadonlyArray<ReadonlyArray<Cell>> = [[[40, "TOTAL IMPORTE EN PESOS ARGENTINOS: $ 36.300,00"]]]
    assert.strictEqual(totalOf(inOneCell, { ...TOTAL, aliases: ["Total"] }), "36.300,00")
    const own = lines(
      ["Subtotal", "10,00"],
      ["Importe a liquidar", "12,10"],
      ["Total", "12,10"],
      ["Total ahorro", "3,00"]
    )
    assert.strictEqual(totalOf(own, { ...TOTAL, aliases: ["Importe a liquidar"] }), "12,10")
  })

  it("a date's figures are no amount misread: À payer avant le 12 - 08 - 2024 is a date to pay by", () => {
    const items = [
      ["Installation sur site", "13", "1 735,97", "22 567,61"],
      ["Hébergement web", "17", "1 578,21", "26 829,57"],
      ["Licence logiciel", "7", "1 556,34", "10 894,38"],
      ["Réparation", "13", "58,49", "760,37"],
      ["Licence logiciel", "16", "954,59", "15 273,44"],
      ["Fournitures de bureau", "1", "70,99", "70,99"]
    ]
    const rows = [
      cells([40], "Facture"),
      cells([40, 300], "71129 Marseille", "Réf. facture: F05-9132"),
      cells([40, 300], "SIREN: FR40295766233", "Date d'émission: 13 - 06 - 2024"),
      cells([40, 300], "Téléphone 730 360 557", "À payer avant le: 12 - 08 - 2024"),
      cells([40, 250, 300, 400], "Libellé", "QTÉ", "Prix", "Montant"),
      ...items.map((item) => cells([40, 250, 300, 400], ...item)),
      ...lines(
        ["Montant HT:", "76 396,36 EUR"],
        ["Avantage fidélité:", "-3 819,82 EUR"],
        ["TVA 19 %:", "13 789,54 EUR"],
        ["Net à payer:", "86 366,08 EUR"]
      )
    ]
    assert.strictEqual(totalOf(rows), "86 366,08")
  })

  it("c/IVA and s/IVA: a total with the tax, and a net amount", () => {
    assert.strictEqual(totalOf(lines(["Total s/IVA: $", "1000,00"], ["Total c/IVA: $", "1210,00"])), "1210,00")
    assert.strictEqual(totalOf(lines(["Total c/IVA: $", "1210,00"], ["Total s/IVA: $", "1300,00"])), "1210,00")
  })

  it("a saving, tender or change word OCR misread keeps its amount from the total; a word printed is itself", () => {
    assert.strictEqual(ocrTotalOf(lines(["TOTAL", "12,40"], ["TOTAL EFECTlVO", "20,00"], ["CAMBlO", "7,60"])), "12,40")
    assert.strictEqual(ocrTotalOf(lines(["Summe", "7,16"], ["Gesamt Ruckqeld", "12,84"])), "7,16")
    // `Montant TTC` is the total, not the Dutch `contant` (cash) misread: a word of the total labels is itself.
    const french = lines(["Total HT", "876,44"], ["TVA 20 %", "175,29"], ["Montant TTC", "1.051,73"])
    assert.strictEqual(totalOf(french), "1.051,73")
    assert.strictEqual(ocrTotalOf(french), "1.051,73")
  })

  it("a card's tender (CB, Amex, Bancomat) paid in full confirms the total", () => {
    for (const card of ["CB", "Amex", "Bancomat"]) {
      const found = foundOf(lines(["Total TTC", "12,50"], [card, "12,50"]))
      assert.strictEqual(found?.certainty, LEVELS.confirmed, card)
    }
  })

  it("German receipts: zu zahlen and Summe, not Bar or Rückgeld", () => {
    assert.strictEqual(totalOf(lines(["Summe", "7,16"], ["Bar", "10,00"], ["Rückgeld", "2,84"])), "7,16")
    assert.strictEqual(
      totalOf(lines(["Zwischensumme", "8,00"], ["zu zahlen", "7,16"], ["Gegeben Bar", "20,00"], ["Rückgeld", "12,84"])),
      "7,16"
    )
  })

  it("amount-due labels in each language rank above a larger plain total or subtotal", () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ["Importe total", "121,00"],
      ["Grand Total", "121.00"],
      ["Gesamtbetrag", "121,00"],
      ["Total TTC", "121,00"],
      ["Net à payer", "121,00"],
      ["Totale da pagare", "121,00"],
      ["Total a pagar", "121,00"],
      ["Te betalen", "121,00"],
      ["Net payable", "121.00"],
      ["Invoice amount", "121.00"],
      ["Bruttobetrag", "121,00"],
      ["Endsumme", "121,00"],
      ["Montant dû", "121,00"],
      ["Solde dû", "121,00"],
      ["Netto a pagare", "121,00"],
      ["Eindtotaal", "121,00"]
    ]
    for (const [label, amount] of cases) {
      const rows = lines(["Sous-total / Subtotal", "150,00"], [label, amount], ["Efectivo / Cash / Espèces", "200,00"])
      assert.strictEqual(totalOf(rows), amount, label)
    }
  })

  it("taxes are not the total unless the total includes them; a total without them is a subtotal, never the total", () => {
    const rows = lines(["Total excl. VAT", "100,00"], ["Total VAT", "21,00"], ["Total incl. VAT", "121,00"])
    assert.strictEqual(totalOf(rows), "121,00")
    // A subtotal alone is not the amount due (121,00 is not printed): an empty field, not a wrong one.
    assert.isNull(totalOf(lines(["Total IVA", "21,00"], ["Total sin IVA", "100,00"])))
    assert.strictEqual(totalOf(lines(["Totaal", "12,10"], ["BTW 21%", "2,10"])), "12,10")
  })

  it("Total including VAT is the total, not a slip of Total excluding VAT (a subtotal)", () => {
    const bill = (label: string) => lines(["Monthly charges", "£35.00"], ["Usage charges", "£3.50"], [label, "£38.50"])
    assert.strictEqual(totalOf(bill("Total including VAT")), "38.50")
    assert.strictEqual(totalOf(bill("Total (including VAT at 20%)")), "38.50")
    // The other word, as printed or misread, still names a net amount.
    assert.isNull(totalOf(bill("Total excluding VAT")))
    assert.isNull(ocrTotalOf(bill("Total excludinq VAT")))
  })

  it("a total's label before amounts in columns: the one under the column headed as a total", () => {
    const xs = [40, 200, 330, 420]
    const invoice = (...total: ReadonlyArray<string>) => [
      cells(xs, "Description", "Net Amount", "Tax Amount", "Total Amount"),
      cells(xs, "Boat Earphones", "Rs.423.73", "Rs.76.27", "Rs.500.00"),
      cells(xs, "USB cable", "Rs.84.75", "Rs.15.25", "Rs.100.00"),
      cells([40, 330, 420], ...total)
    ]
    assert.strictEqual(totalOf(invoice("TOTAL:", "Rs.91.52", "Rs.600.00")), "600.00")
    assert.strictEqual(totalOf(invoice("TOTAL:", "Rs. 91.52", "Rs. 600.00")), "600.00")
    // The total's column first: its amount, not the tax after it.
    const first = [
      cells(xs, "Description", "Net Amount", "Total Amount", "Tax Amount"),
      cells([40, 330, 420], "TOTAL:", "600.00", "91.52")
    ]
    assert.strictEqual(totalOf(first), "600.00")
  })

  it("a total's label OCR split in two (Rech nungsbetrag) is the label; halves that are words stay apart", () => {
    assert.strictEqual(totalOf(lines(["Netto", "10,00"], ["MwSt 19%", "1,90"], ["Rech nungsbetrag", "11,90"])), "11,90")
    assert.isNull(totalOf(lines(["Netto", "10,00"], ["Rech nungs betrag", "11,90"])))
  })

  it("SROIE: the rounded total, printed before or after the exact one", () => {
    assert.strictEqual(
      totalOf(lines(["TOTAL INCL. GST", "112.46"], ["ROUNDING ADJ", "-0.01"], ["TOTAL", "112.45"])),
      "112.45"
    )
    assert.strictEqual(
      totalOf(lines(["ROUNDED TOTAL (RM):", "112.45"], ["TOTAL SALES (INCL GST)", "112.46"], ["CASH", "120.00"])),
      "112.45"
    )
  })

  it("a header row of totals with the amounts under it; counts and sentences are not totals", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [40, "Subtotal"],
        [200, "I.V.A."],
        [330, "TOTAL"]
      ],
      [
        [40, "100.000,00"],
        [200, "21.000,00"],
        [330, "121.000,00"]
      ]
    ]
    assert.strictEqual(totalOf(rows), "121.000,00")
    assert.isNull(totalOf(lines(["TOTAL QTY:", "3"], ["GST included in the total of this bill", "7,00"])))
  })

  it("the skill's own alias ranks first", () => {
    const target: Target = { ...TOTAL, aliases: ["Importe a liquidar"] }
    assert.strictEqual(totalOf(lines(["Total", "90,00"], ["Importe a liquidar", "75,00"]), target), "75,00")
  })

  it("a charge under the subtotal (Shipping, Versandkosten, Frais de port) is part of the total", () => {
    for (const shipping of ["Shipping", "Versandkosten", "Frais de port", "Gastos de envío"]) {
      const rows = lines(["Sub Total", "100.00"], ["Discount", "-10.00"], [shipping, "5.00"], ["Grand Total", "95.00"])
      assertConfirmed(rows, "95.00")
    }
    // Taxed with it: (100 + 5) + 21 %.
    assertConfirmed(
      lines(["Subtotal", "100,00"], ["Versand", "5,00"], ["MwSt 21 %", "22,05"], ["Gesamt", "127,05"]),
      "127,05"
    )
  })

  it("a text layer's figures are as printed: no misread mended, no total the page does not print", () => {
    // A gift wrap is no relation's figure: subtotal − discount makes 90.00, a digit from the 95.00 printed.
    const wrapped = lines(
      ["Sub Total", "100.00"],
      ["Discount", "-10.00"],
      ["Gift wrap", "5.00"],
      ["Grand Total", "95.00"]
    )
    assert.strictEqual(foundOf(wrapped, TOTAL, "text")?.text, "95.00")
    assert.strictEqual(foundOf(wrapped, TOTAL, "ocr")?.text, "90.00")
    const misread = lines(["Base imponible", "1 250,00"], ["IVA 21 %", "262,50"], ["TOTAL", "1 572,50"])
    assert.strictEqual(foundOf(misread, TOTAL, "text")?.text, "1 572,50")
  })

  it("SROIE via OCR: 112.46 misread for the 112.45 that subtotal + GST + rounding make", () => {
    assert.strictEqual(totalOf(sroieTotals(["Total GST (RM) :", "6.37"])), "112.45")
  })

  it("a tax its own rate disagrees with was misread, not the total its rate makes (2 868,58 for 2 868,38)", () => {
    const rows = lines(
      ["Incidência:", "30 193,48€"],
      ["Descontos:", "-1 509,67€"],
      ["Total IVA 10 %:", "2 868,58€"],
      ["Valor total:", "31 552,19€"]
    )
    assertConfirmed(rows, "31 552,19")
    // With the rounding printed: 106,10 + 6 % (6,37) − 0,02 makes the label's 112,45, not the 6,57 misread.
    const rounded = lines(["Sub Total", "106.10"], ["GST 6%", "6.57"], ["Rounding", "-0.02"], ["Total", "112.45"])
    assert.strictEqual(totalOf(rounded), "112.45")
    // The total misread instead: the rate makes the sum, a digit from the label's, and the sum is taken.
    const misread = lines(["Base imponible", "1 250,00"], ["IVA 21 %", "262,50"], ["TOTAL", "1 572,50"])
    assert.strictEqual(totalOf(misread), "1.512,50")
  })

  it("a total with a figure lost (faint ink) is the sum its figures make, one figure longer", () => {
    const rows = lines(["Base imponible", "8 615,08"], ["IVA 21 %", "1 809,17"], ["Total factura", "0 424,25"])
    assert.strictEqual(totalOf(rows), "10.424,25")
    // Amounts too short to tell a lost figure from another price keep the label's.
    assert.strictEqual(totalOf(lines(["Subtotal", "10.00"], ["Tax", "2.50"], ["Total", "2.50"])), "2.50")
  })

  it("a tax summary's total that is the subtotal again, plus the rounding, is no second relation", () => {
    // The GST row's label lost: subtotal − rounding (106,08) and the summary's `Total: 106.10` − rounding are one.
    const rows = [
      ...sroieTotals(["", "6.37"]),
      ...lines(["GST SUMMARY", ""]),
      cells([40, 250, 330], "Total:", "106.10", "6.37")
    ]
    // The label stays, as read: no relation makes another amount.
    assert.strictEqual(totalOf(rows), "112.46")
  })

  it("SROIE via OCR: TOTAL 14-10 read as 14.10, which CASH − CHANGE confirms", () => {
    const rows = lines(
      ["TAX AMT (S) 6%", "RM 13.30"],
      ["GST 6%", "RM 0.80"],
      ["TOTAL", "RM 14-10"],
      ["CASH", "RM 20.00"],
      ["CHANGE", "RM 5.90"]
    )
    assertConfirmed(rows, "14.10")
    const letters = lines(["Subtotal", "47.17"], ["GST 6%", "2.83"], ["TOTAL", "RM 5O.OO"], ["CASH", "100.00"])
    assert.strictEqual(totalOf(letters), "50.00")
    // Where the document's amounts do not show a decimal mark with two decimals, `14-10` is not read as money.
    assert.isNull(totalOf(lines(["TOTAL", "14-10"], ["CASH", "20"])))
  })

  it("a whole number beside a tax word is no tax where the amounts have decimals: IVA … Domicilio: Calle 1", () => {
    const rows = [
      cells([40, 330], "Condición frente al IVA: IVA Responsable Inscripto", "Domicilio: Calle 1 - CABA"),
      ...lines(["Subtotal: $", "15000,00"], ["Importe Otros Tributos: $", "0,00"], ["Importe Total: $", "15000,00"])
    ]
    assert.strictEqual(totalOf(rows), "15000,00")
  })

  it("a subtotal a digit from the labelled total does not overrule it: a discount OCR cut (Remi se) is between", () => {
    const rows = lines(["Total HT", "103,94 EUR"], ["Remi se", "-0,80"], ["Montant TTC", "103,14"], ["CB", "103,14"])
    assert.strictEqual(totalOf(rows), "103,14")
    assert.strictEqual(ocrTotalOf(rows), "103,14")
  })

  it("a total its own figures confirm is surer than the label alone", () => {
    const alone = foundOf(lines(["Summe", "7,16"]))
    const paid = total(
      layout(document([page(1, lines(["Summe", "7,16"], ["Bar", "10,00"], ["Rückgeld", "2,84"]))])),
      TOTAL
    )
    assert.strictEqual(alone?.text, "7,16")
    assert.strictEqual(paid?.text, "7,16")
    assert.isAbove(paid?.certainty ?? 0, alone?.certainty ?? 1)
  })

  it("a receipt's lines adding up to the total confirm it; they never pick another", () => {
    const receipt = lines(["PAN DE MOLDE", "1,20"], ["LECHE ENTERA", "0,95"], ["HUEVOS L", "2,10"], ["TOTAL", "4,25"])
    assertConfirmed(receipt, "4,25")
    const misread = lines(["PAN DE MOLDE", "1,20"], ["LECHE ENTERA", "0,95"], ["HUEVOS L", "2,10"], ["TOTAL", "4,26"])
    const kept = foundOf(misread)
    assert.strictEqual(kept?.text, "4,26")
    assert.isBelow(kept?.certainty ?? 1, LEVELS.confirmed)
  })

  it("a German receipt: net − Nachlass + Rundungsdifferenz makes the rounded Summe", () => {
    const rows = lines(
      ["Summe netto", "133,11"],
      ["Nachlass", "-15,99"],
      ["Summe", "117,12"],
      ["Rundungsdifferenz", "-0,02"],
      ["Summe gerundet", "117,10"],
      ["Kreditkarte", "117,10"]
    )
    assertConfirmed(rows, "117,10")
  })

  it("a labelled total the arithmetic confirms over one it does not, of the same rank", () => {
    const rows = lines(
      ["Subtotal", "122.64"],
      ["GST 6%", "7.36"],
      ["Total Incl. of GST", "150.00"],
      ["Total Amt Rounded", "130.00"],
      ["Payment :", "130.00"]
    )
    assert.strictEqual(totalOf(rows), "130.00")
  })

  it("a Summe heading the line items' column is no total: the amount under it is the first line's", () => {
    const items = [40, 250, 330, 460]
    const totals = [250, 460]
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      cells(items, "Bezeichnung", "Anzahl", "Einzelpreis", "Summe"),
      cells(items, "Büromaterial", "3", "315,53", "946,59"),
      cells(totals, "Total:", "928,60 EUR")
    ]
    assert.strictEqual(totalOf(rows), "928,60")
    // A discount word the arithmetic knows: net − Preisvorteil + tax makes the total.
    const figures = [
      cells(totals, "Summe netto:", "946,59 EUR"),
      cells(totals, "Preisvorteil:", "-94,66 EUR"),
      cells(totals, "Mehrwertsteuer 9 %:", "76,67 EUR"),
      cells(totals, "Summe:", "928,60 EUR")
    ]
    assert.strictEqual(totalOf([...rows.slice(0, 2), ...figures]), "928,60")
  })

  it("Portuguese: Total ilíquido is the lines' sum before the discount, Total do documento the total", () => {
    const rows = lines(
      ["Total ilíquido", "270,56"],
      ["Desconto", "-50,12"],
      ["Total do documento", "220,44"],
      ["Pagamento com cartão", "220,44"]
    )
    assert.strictEqual(totalOf(rows), "220,44")
    assert.strictEqual(
      totalOf(lines(["Total ilíquido:", "21,68 €"], ["Desconto:", "-2,69 €"], ["Total:", "18,99"])),
      "18,99"
    )
  })

  it("Gesamtpreis labels a total on its row; over a column of line amounts it labels none", () => {
    const rows = [
      cells([40, 200, 330], "Artikel", "Menge", "Gesamtpreis"),
      cells([40, 200, 330], "Kaffee", "2", "9,98 €")
    ]
    assert.isNull(totalOf(rows))
    assert.strictEqual(totalOf([...rows, ...lines(["Gesamtpreis", "9,98 €"])]), "9,98")
  })

  it("a tax table's sum row (Gesamtbetrag net, tax, gross) totals its last amount, not the net", () => {
    const table = [40, 200, 330]
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      ...lines(["GESAMT:", "163,40"], ["Gegeben:", "180,00"], ["Zurück:", "16,60"]),
      cells(table, "USt Netto", "MwSt", "Brutto"),
      cells(table, "A 19% 137,31", "26,09", "163,40"),
      cells(table, "Gesamtbetrag 137,31", "26,09", "163,40")
    ]
    assert.strictEqual(totalOf(rows), "163,40")
    assert.strictEqual(totalOf(rows.slice(3)), "163,40")
  })

  it("a date between the label and its amount (Total amount due on June 2, 2023) is none of the label's words", () => {
    const rows = (due: string) => lines(["Charges", "45.20"], ["Credits", "-5.00"], [due, "40.20"])
    assert.strictEqual(totalOf(rows("Total amount due on June 2, 2023")), "40.20")
    assert.strictEqual(totalOf(rows("Montant total dû au 02/06/2023")), "40.20")
    assert.strictEqual(totalOf(rows("Zu zahlen bis zum 02.06.2023")), "40.20")
  })

  it("two amount-due labels that disagree, with no arithmetic to decide, give no total", () => {
    assert.isNull(totalOf(lines(["Gesamtbetrag", "25,47"], ["zu zahlen", "5,30"])))
    // The figures decide: 10,00 tendered − 4,70 change makes 5,30.
    assert.strictEqual(
      totalOf(lines(["Gesamtbetrag", "25,47"], ["zu zahlen", "5,30"], ["Bar", "10,00"], ["Rückgeld", "4,70"])),
      "5,30"
    )
    // The same amount twice (the receipt and its card slip's `Betrag EUR`) is no disagreement.
    assert.strictEqual(totalOf(lines(["zu zahlen", "7,16"], ["Betrag EUR", "7,16"])), "7,16")
  })

  it("one figure tendered a slip from the total does not overrule its label, nor confirm it: either may be misread", () => {
    assert.isNull(totalOf(lines(["TOTAL", "25.40"], ["CASH", "25.00"], ["CHANGE", "0.00"], ["GST", "1.44"])))
    // A figure more or less (`1 2,34`, OCR's space cut the total), and a card's payment.
    assert.isNull(totalOf([cells([40, 160, 200, 330], "SUMME", "EUR", "1", "2,34"), ...lines(["Girocard", "12,34"])]))
    assert.isNull(totalOf(lines(["SUMME EUR", "12,84"], ["Kartenzahlung", "12,34"])))
    // A note larger than the total, its change not printed, is no slip.
    assert.strictEqual(totalOf(lines(["SUMME EUR", "2,00"], ["BAR", "20,00"])), "2,00")
    // Tendered − change (two figures) a digit from it does: 30.00 − 4.65 = 25.35 against a misread 25.36.
    assert.strictEqual(totalOf(lines(["TOTAL", "25.36"], ["CASH", "30.00"], ["CHANGE", "4.65"])), "25.35")
  })

  it("a weak label the figures do not confirm abstains; small amounts a digit apart are two prices", () => {
    assert.isNull(totalOf(lines(["Subtotal", "10,00"], ["IVA 21%", "2,10"], ["Totai", "15,00"])))
    // A tax printed alone makes no total: it could not have confirmed the label, which keeps its amount.
    assert.strictEqual(totalOf(lines(["IVA 21%", "2,10"], ["Totai", "15,00"])), "15,00")
    assert.strictEqual(totalOf(lines(["Subtotal", "10,00"], ["IVA 21%", "2,10"], ["Totai", "12,10"])), "12,10")
    // 5,00 = 30,47 − 25,47 is one digit from 5,30, but prices that small differ by a digit all the time.
    assert.strictEqual(
      totalOf(lines(["SUBTOTAL", "30,47"], ["DTO. CHEQUE AHORRO", "-25,47"], ["TOTAL A PAGAR", "5,30"])),
      "5,30"
    )
  })

  it("a Gross Amount is no total's label: on a Malaysian receipt it is the goods' amount before GST", () => {
    // `Gross Amount 40.00 | Total GST Amt 2.40 | Sub Total 42.40`, the total's label lost.
    const rows = lines(
      ["Gross Amount 1", "40.00"],
      ["Total GST Amt :", "2.40"],
      ["Sub Total", "42.40"],
      ["Rounding Adj. :", "0.00"],
      ["(RM)", "42.40"],
      ["Amount Paid", "42.40"],
      ["Amount Change :", "0.00"]
    )
    assert.isNull(totalOf(rows))
  })

  it("Polish invoices: Należność ogółem and Do zapłaty are the amount due, Razem a total", () => {
    assert.strictEqual(totalOf(lines(["Razem netto", "257,59"], ["Należność ogółem:", "316,83 PLN"])), "316,83")
    assert.strictEqual(totalOf(lines(["Wartość netto", "100,00"], ["Do zapłaty", "123,00"])), "123,00")
    assert.strictEqual(totalOf(lines(["Razem", "123,00"])), "123,00")
    // `Suma` over a discount is the lines' sum, not the total.
    assert.strictEqual(
      totalOf(
        lines(
          ["Suma:", "19423,80€"],
          ["Promoción:", "-2913,57€"],
          ["I.V.A. 13 %:", "2146,33€"],
          ["Total:", "18656,56€"]
        )
      ),
      "18656,56"
    )
  })

  it("a label cell with its own figures heads no amount under it: a date to pay by over an order number", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [[330, "Te betalen voor: 27 dec 2022"]],
      [[330, "Ordernummer: 49971"]]
    ]
    assert.isNull(totalOf(rows))
    assert.strictEqual(totalOf([[[330, "Te betalen"]], [[330, "49,71"]]]), "49,71")
  })

  it("a label's first letter OCR read for a figure (5UMME) is still the label, not an amount of 5", () => {
    const rows = [cells([40, 160, 330], "5UMME", "EUR", "4,99"), cells([40, 160, 330], "BAR", "EUR", "10,00")]
    assert.strictEqual(ocrTotalOf([...rows, cells([40, 160, 330], "Ruckgeld", "EUR", "5,01")]), "4,99")
    assert.strictEqual(ocrTotalOf(lines(["Kaffee", "4,99 A"], ["5UMME", "4,99"])), "4,99")
  })

  it("a count between the label and its amount is no total; a label spelled out in spaced letters is the label", () => {
    const items = lines(["Kaffee", "4,99 A"], ["Brot", "7,35 B"])
    const counted: ReadonlyArray<readonly [string, string]> = [
      ["SUMME", "[2]"],
      ["Summe", "(2 Artikel)"],
      ["Total", "2 items"]
    ]
    for (const [label, count] of counted)
      assert.strictEqual(totalOf([...items, cells([40, 200, 330], label, count, "12,34")]), "12,34", count)
    for (const label of ["S U M M E", "T O T A L", "Bonsumme"])
      assert.strictEqual(totalOf([...items, ...lines([label, "12,34"])]), "12,34", label)
    // A count and a tendered amount after it: the label is the count's alone, and no total.
    assert.isNull(totalOf([...items, cells([40, 200, 300, 400], "SUMME", "[2]", "BAR", "20,00")]))
  })

  it("the amount to settle is the amount due (Montant à régler, Fälliger Betrag); a net value (Nettowert) is not", () => {
    const items = lines(["Article", "1.000,00"], ["TVA 20%", "234,56"])
    for (const label of ["Montant à régler", "Net à régler", "Reste à payer", "Fälliger Betrag", "Offener Betrag"])
      assert.strictEqual(totalOf([...items, ...lines([label, "1.234,56"])]), "1.234,56", label)
    for (const label of ["Nettowert", "Summe netto", "Nettosumme"])
      assert.strictEqual(totalOf(lines([label, "100,00"], ["MwSt 19%", "19,00"], ["Summe", "119,00"])), "119,00", label)
    assert.isNull(totalOf(lines(["Nettowert", "100,00"], ["MwSt 19%", "19,00"])))
  })

  it("a service charge between the subtotal and the total is a charge, never OCR's change misread", () => {
    const rows = lines(
      ["2 x Pint of Bitter", "9.80"],
      ["1 x Fish & Chips", "14.50"],
      ["Subtotal", "24.30"],
      ["Service charge 12.5%", "3.04"],
      ["Total", "27.34"],
      ["Card", "27.34"]
    )
    assert.strictEqual(ocrTotalOf(rows), "27.34")
    assert.strictEqual(totalOf(rows), "27.34")
  })
})
