import { assert, describe, it } from "@effect/vitest"
import type { Document } from "@legible/core"
import { address } from "../../../src/internal/local/address.js"
import { addressEnd } from "../../../src/internal/local/addressText.js"
import { company } from "../../../src/internal/local/issuer.js"
import { layout } from "../../../src/internal/local/layout.js"
import { type Cell, document, page } from "../../support/documents.js"

const row = (text: string): ReadonlyArray<Cell> => [[40, text]]

/** A row of two cells: one at the left margin, one at `x`. */
const beside = (left: string, right: string, x: number): ReadonlyArray<Cell> => [
  [40, left],
  [x, right]
]

const issuerOf = (...texts: ReadonlyArray<string>) => company(layout(document([page(1, texts.map(row))])))?.text ?? null

const issuerOfRows = (rows: Parameters<typeof page>[1]) => company(layout(document([page(1, rows)])))?.text ?? null

/** The issuer of a page of one-cell rows at the top and footer lines at its bottom. */
const issuerWithFooter = (top: ReadonlyArray<string>, footer: ReadonlyArray<string>) =>
  issuerOfRows([
    ...top.map(row),
    ...footer.map((text, i) => ({ y: 770 + 12 * i, cells: [[40, text]] as ReadonlyArray<Cell> }))
  ])

/**
 * A page of one-cell rows whose words the reader read with the given confidence (by word), and of their letters (by
 * default, the same).
 */
const readPage = (
  texts: ReadonlyArray<string>,
  confidence: (word: string) => number,
  letters: (word: string) => number = confidence
): Document.ReadPage => {
  const p = page(1, texts.map(row))
  const read = (w: Document.ReadWord) => ({ ...w, confidence: confidence(w.word), letters: letters(w.word) })
  return { ...p, lines: p.lines.map((l) => ({ words: l.words.map(read) })) }
}

const addressOf = (
  texts: ReadonlyArray<string>,
  confidence: (word: string) => number = () => 1,
  letters?: (word: string) => number
) => address(layout(document([readPage(texts, confidence, letters)])))?.text ?? null

describe("issuer", () => {
  it("a tax id printed after the name on its line is no part of it", () => {
    const rows = ["Woolworths Group Limited ABN 88 000 014 675", "Bondi Junction NSW 2022", "TAX INVOICE"]
    assert.strictEqual(issuerOf(...rows), "Woolworths Group Limited")
    assert.strictEqual(
      issuerOf("SHARMA TRADERS PVT. LTD. GSTIN: 29ABCDE1234F1Z5", "12, MG Road"),
      "SHARMA TRADERS PVT. LTD."
    )
    assert.strictEqual(
      issuerOf("KEDAI RUNCIT SDN BHD (Co. Reg. No. 123456-X)", "NO.5 JALAN SS2"),
      "KEDAI RUNCIT SDN BHD"
    )
    // A label with no figure after it is no tax id: `VAT` is then a word of the name.
    assert.strictEqual(issuerOf("Acme Tax Services Ltd", "12 High Street"), "Acme Tax Services Ltd")
  })

  it("an address ends in India's or Singapore's six figures, Canada's code or an Australian state's four", () => {
    const india = [
      "SHARMA ELECTRONICS PVT. LTD.",
      "12, MG Road,",
      "Bengaluru, Karnataka 560001",
      "GSTIN: 29ABCDE1234F1Z5"
    ]
    assert.strictEqual(addressOf(india), "12, MG Road, Bengaluru, Karnataka 560001")
    const canada = ["MAPLE HARDWARE INC.", "88 Queen St W, Toronto ON M5H 2N2", "HST# 123456789 RT0001"]
    assert.strictEqual(addressOf(canada), "88 Queen St W, Toronto ON M5H 2N2")
    const australia = ["Bondi Supplies Pty Ltd", "12 Oxford Street", "Bondi Junction NSW 2022", "ABN 88 000 014 675"]
    assert.strictEqual(addressOf(australia), "12 Oxford Street Bondi Junction NSW 2022")
    // Six figures after a number word are a number, no postcode: the block has no end.
    assert.isNull(
      addressOf(["ACME TRADING PTE LTD", "12 Oxford Street", "Receipt No 629117", "GST REG NO: M2-0021389-1"])
    )
  })

  it("a sender line's address after its name, up to its contact", () => {
    const letter = (sender: string) => [sender, "Herrn", "Max Mustermann", "Lindenweg 3", "20095 Hamburg"]
    assert.strictEqual(
      addressOf(letter("Müller Elektro GmbH · Bahnhofstr. 5 · 10115 Berlin")),
      "Bahnhofstr. 5, 10115 Berlin"
    )
    assert.strictEqual(
      addressOf(letter("QualityHosting AG - Uferweg 40-42 - D-63571 Gelnhausen - Tel. 06051 12345")),
      "Uferweg 40-42, D-63571 Gelnhausen"
    )
    // A segment that ends no address (a town alone, a slogan) gives none.
    assert.isNull(addressOf(letter("Müller Elektro GmbH · Ihr Partner für Strom")))
  })

  it("a lone character OCR read after the name's legal form is a speck, no part of the name", () => {
    const rows = ["MINI MARKET NORTHERN Inc. I", "88 STATIONERY LANE", "48374 KUALA LUMPUR", "TEL 018 927 218"]
    assert.strictEqual(issuerOf(...rows), "MINI MARKET NORTHERN Inc.")
    assert.strictEqual(issuerOf("PANADERIA LA ESPIGA S.L. |", "C/ Mayor 1"), "PANADERIA LA ESPIGA S.L.")
    // Without a legal form before it, a last letter may be the name's (`BLOCK C`): kept.
    assert.strictEqual(issuerOf("CAFE BLOCK C", "12 HIGH STREET", "TEL 018 927 218"), "CAFE BLOCK C")
  })

  it("a Dutch postcode's letters are no legal form: the town's line is no name", () => {
    const rows = ["FACTUUR", "Vissergracht 177", "2394 SA Den Haag", "Btw-id: 09275656", "FACTUURNR.", "D-8727-126"]
    assert.isNull(issuerOf(...rows))
    assert.strictEqual(
      issuerOf("Visser Transport B.V.", "Vissergracht 177", "2394 SA Den Haag"),
      "Visser Transport B.V."
    )
    assert.strictEqual(issuerOf("Bouw 2000 SA", "Rue Haute 5"), "Bouw 2000 SA")
  })

  it("a recipient label with a word OCR split by a space still opens the buyer's block", () => {
    const top = ["RECHNUNG", "Müller Platz 98", "99208 Leipzig", "Steuernummer: 24/716/63691"]
    const buyer = ["Elektro Technik GmbH & Co. KG", "Schneider Weg 112", "32709 München"]
    assert.isNull(issuerOf(...top, "RECHNUNGSEMPF ÄNGER", ...buyer))
    assert.isNull(issuerOf(...top, "Rechnungs empfänger:", ...buyer))
    const factura = ["FACTURA COMPLETA", "FACTURA N.º: U 24131", "FECHA: 18-01-2023"]
    assert.isNull(issuerOf(...factura, "DA TOS DEL CLIENTE", "Suministros Alimentación S.L.", "Paseo Talleres 239"))
    // Two words that make no label stay a name.
    assert.strictEqual(issuerOf("ELEKTRO TECHNIK GmbH", "Schneider Weg 112", "32709 München"), "ELEKTRO TECHNIK GmbH")
  })

  it("a receipt's date and time end the letterhead: the department under them is the sale's", () => {
    const rows = ["KWIKMART", "Springfield - 555-555-1234", "03/12/2019 10:42 AM", "GROCERY"]
    assert.isNull(issuerOfRows([...rows.map(row), beside("BANANAS", "$1.24", 300)]))
    // A date with other words on its row (a label) is no stamp: the block goes on.
    const dated = ["Fecha: 03/12/2019", "SUPERMERCADO"]
    assert.strictEqual(issuerOfRows([...dated.map(row), beside("PAN", "1,24", 300)]), "SUPERMERCADO")
  })

  it("a trade's words and a legal form under a brand in another case are the brand's name (KWIK over Stores Ltd)", () => {
    assert.strictEqual(issuerOf("KWIK", "Stores Ltd", "VAT No: GB 220 4302 31"), "KWIK Stores Ltd")
    // A name of its own under a logo's word keeps to itself.
    assert.strictEqual(issuerOf("BLUEWAVE", "Bluewave Design Ltd", "12 High Street"), "Bluewave Design Ltd")
  })

  it("a line under a shop's sign that opens with a legal form is the company, not the sign's second line", () => {
    assert.strictEqual(
      issuerOf("PRIMEUR MARKET", "SAS DISTRIBUTION DU CENTRE", "12 AVENUE DE LA GARE", "75011 PARIS"),
      "SAS DISTRIBUTION DU CENTRE"
    )
    // A legal form on a line of its own is the name's.
    assert.strictEqual(
      issuerOf("BÄCKEREI WEBER", "UG (haftungsbeschränkt)", "Hauptstr. 5"),
      "BÄCKEREI WEBER UG (haftungsbeschränkt)"
    )
    assert.strictEqual(issuerOf("Werkstatt Süd", "GmbH & Co. KG", "Hauptstr. 5"), "Werkstatt Süd GmbH & Co. KG")
    // A name wrapped over two lines, its form at the end, stays one name.
    assert.strictEqual(
      issuerOf("PRIMEUR MARKET", "DU CENTRE SAS", "12 AVENUE DE LA GARE"),
      "PRIMEUR MARKET DU CENTRE SAS"
    )
  })

  it("a legal form with its capital under the name is no line of the name, nor a name", () => {
    assert.strictEqual(
      issuerOf("BOULANGERIE PATISSERIE DUPONT", "SARL AU CAPITAL DE 10 000 EUR", "12 RUE DE LA REPUBLIQUE 69002 LYON"),
      "BOULANGERIE PATISSERIE DUPONT"
    )
    assert.strictEqual(
      issuerOf("Boulangerie Dupont SARL au capital de 10 000 €", "12 rue de la République 69002 Lyon"),
      "Boulangerie Dupont SARL"
    )
    // It marks the name over it, as a legal form alone would, and is none itself.
    assert.strictEqual(
      issuerOf("MARTIN & FILS", "EURL au capital de 5 000 €", "5 impasse des Tilleuls 31000 Toulouse"),
      "MARTIN & FILS"
    )
  })

  it("a seller's label right of the recipient's heads the seller's block", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [[250, "FACTURA Nº 2024/015"]],
      [
        [40, "Cliente:"],
        [250, "Emisor:"]
      ],
      [
        [40, "Talleres Gómez, S.A."],
        [250, "Asesoría Fiscal Ruiz"]
      ],
      [
        [40, "Polígono Sur, nave 3"],
        [250, "NIF 12345678Z"]
      ],
      [
        [40, "41007 Sevilla"],
        [250, "C/ Sierpes 10, 41004 Sevilla"]
      ]
    ]
    assert.strictEqual(issuerOfRows(rows), "Asesoría Fiscal Ruiz")
  })

  it("a craft's word marks a name; its seal under the name is no line of it", () => {
    const address = ["Lindenweg 7", "93047 Regensburg"]
    assert.strictEqual(
      issuerOf("Schreinerei Holzwerk Bauer", "Meisterbetrieb", "Inh. Thomas Bauer", ...address),
      "Schreinerei Holzwerk Bauer"
    )
    assert.strictEqual(issuerOf("Holzwerk Bauer", "Meisterbetrieb", "Inh. Thomas Bauer", ...address), "Holzwerk Bauer")
    for (const name of ["PLOMBERIE CHAUFFAGE MARTIN", "Carpintería Hermanos Ruiz", "Falegnameria Bianchi"])
      assert.strictEqual(issuerOf(name, "Tel. 05 61 12 34 56"), name, name)
  })

  it("a sign over the company named for it, its legal form ending it, is no line of the company's name", () => {
    const address = ["Plaza del Sol, 3 - 09001 Burgos", "Tel. 947 123 456"]
    assert.strictEqual(
      issuerOf("Hotel Miramar", "Miramar Hoteles y Turismo, S.L.", ...address),
      "Miramar Hoteles y Turismo, S.L."
    )
    assert.strictEqual(
      issuerOf("CASA PACO", "Restaurante - Asador", "Paco Martín e Hijos, S.L.", ...address),
      "Paco Martín e Hijos, S.L."
    )
    assert.strictEqual(
      issuerOf("REPSOL", "E.S. LOS PINOS", "ESTACIONES DE SERVICIO PINOS, S.L.", "CTRA. N-340 KM 412"),
      "ESTACIONES DE SERVICIO PINOS, S.L."
    )
    // A brand over a company it does not name stays one name with it, as SROIE's annotators join them.
    assert.strictEqual(
      issuerOf("GHEE HIANG", "GH DISTRIBUTOR & MARKETING SDN BHD", "NO 1, JALAN 2"),
      "GHEE HIANG GH DISTRIBUTOR & MARKETING SDN BHD"
    )
    assert.strictEqual(issuerOf("REWE", "Markt GmbH", "Hauptstr. 12", "80331 München"), "REWE Markt GmbH")
  })

  it("never a tax-status line: IVA:Responsable Inscripto", () => {
    assert.strictEqual(
      issuerOf("IVA:Responsable Inscripto", "Distribuidora del Sur S.R.L.", "CUIT: 30-71234567-8"),
      "Distribuidora del Sur S.R.L."
    )
    assert.isNull(issuerOf("IVA:Responsable Inscripto", "Ingresos Brutos: 901-123456-7"))
  })

  it("a courtesy title opens the addressee's block, its name on the same line: never the issuer", () => {
    const seller = ["Mario Rossi", "Via Roma 1", "20121 Milano"]
    for (const addressee of ["Spett.le Bianchi S.r.l.", "Messrs. Smith & Co. Ltd", "Herrn Max Meier GmbH"])
      assert.isNull(issuerOf(...seller, addressee, "Via Verdi 3"), addressee)
    // Other recipient labels do so alone or before a colon only: `AN NUR ENTERPRISE` is a name.
    assert.strictEqual(issuerOf("AN NUR ENTERPRISE", "NO 12 JALAN MERDEKA"), "AN NUR ENTERPRISE")
  })

  it("a document's title over the seller's block is no name, though the block declares its VAT condition", () => {
    for (const heading of ["REMITO", "Order Confirmation", "COTIZACIÓN"])
      assert.isNull(issuerOf(heading, "Av. San Martín 1234 - Rosario", "IVA RESPONSABLE INSCRIPTO"), heading)
  })

  it("Argentina's sociedad de hecho is a legal form: GOMEZ HNOS. S.H.", () => {
    assert.strictEqual(issuerOf("GOMEZ HNOS. S.H.", "Av. San Martín 1234 - Rosario"), "GOMEZ HNOS. S.H.")
  })

  it("a name ends at its legal form: not the misread title in the next cell", () => {
    assert.strictEqual(
      issuerOfRows([beside("Transportes Padaria SA", "aft tura", 400), [[40, "Largo Construções 149"]]]),
      "Transportes Padaria SA"
    )
    assert.strictEqual(
      issuerOfRows([
        [
          [40, "BÄCKEREI"],
          [120, "WEBER UG"],
          [200, "(haftungsbeschränkt)"]
        ]
      ]),
      "BÄCKEREI WEBER UG (haftungsbeschränkt)"
    )
    // A form in two cells: `GmbH & Co. | KG`.
    assert.strictEqual(
      issuerOfRows([beside("Elektro Wagner GmbH & Co.", "KG", 250), [[40, "Hauptstraße 5"]]]),
      "Elektro Wagner GmbH & Co. KG"
    )
    // Or in cells of their own, as OCR reads wide gaps: `DROGERIE NORD | GmbH | & | Co. | KG`.
    assert.strictEqual(
      issuerOfRows([
        [
          [32, "DROGERIE NORD"],
          [130, "GmbH"],
          [175, "&"],
          [200, "Co."],
          [235, "KG"]
        ],
        [[73, "LOGISTIKSTRASSE 3"]]
      ]),
      "DROGERIE NORD GmbH & Co. KG"
    )
  })

  it("no name with a word OCR misread: a digit between letters (ST0RE) in a word the reader doubted", () => {
    const read = (text: string, confidence: number) =>
      company(layout(document([readPage([text, "NO.53 JALAN PUTRA"], () => confidence)])))?.text ?? null
    assert.isNull(read("SANYU ST0RE SDN BHD", 0.8))
    assert.strictEqual(read("SANYU ST0RE SDN BHD", 1), "SANYU ST0RE SDN BHD")
    assert.strictEqual(read("7-ELEVEN MALAYSIA SDN BHD", 0.8), "7-ELEVEN MALAYSIA SDN BHD")
  })

  it("the letterhead ends at the title under the name: a customer's company after TAX INVOICE is not the issuer", () => {
    const head = [
      "SOON HUAT MACHINERY",
      "(JM0352019-K)",
      "NO.53 JALAN PUTRA 1,",
      "81200 JOHOR BAHRU",
      "TEL : 07-5547360"
    ]
    const after = ["SIMPLIFIED TAX INVOICE", "GOGIANT ENGINEERING (M) SDN BHD", "RECEIPT#: CS00082662"]
    // The registration number under the first line marks it as the name; the customer's is never taken.
    assert.strictEqual(issuerOf(...head, ...after), "SOON HUAT MACHINERY")
    assert.isNull(issuerOf(...head.slice(0, 1), ...head.slice(2), ...after))
    assert.strictEqual(issuerOf("PERNIAGAAN ZHENG HUI", ...head.slice(1), ...after), "PERNIAGAAN ZHENG HUI")
    // A title over the name (a greeting before it) does not end the letterhead.
    assert.strictEqual(issuerOf("Bienvenido / Welcome", "Factura", "Ferretería Pérez S.L."), "Ferretería Pérez S.L.")
  })

  /** Each case's letterhead lines and the issuer they give. */
  const named = (cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]>) => {
    for (const [lines, want] of cases) assert.strictEqual(issuerOf(...lines), want, lines.join(" | "))
  }

  it("OCR's ink-tight boxes: a legal form alone a line under the name is still the name's", () => {
    // Boxes 12 pt tall, 8 pt apart: further than half a line (a text layer's boxes touch), within one.
    const at = (y: number, text: string) => ({ y, cells: [[40, text]] as ReadonlyArray<Cell> })
    const rows = [
      at(40, "FRUTTA E VERDURA SERVIZI"),
      at(60, "S.n.c."),
      at(76, "LARGO MECCANICA 213"),
      at(92, "16538 NAPOLI")
    ]
    assert.strictEqual(company(layout(document([page(1, rows)])))?.text, "FRUTTA E VERDURA SERVIZI S.n.c.")
    // A line that is more than a form is joined only when close.
    const apart = [at(40, "FRUTTA E VERDURA SERVIZI"), at(60, "MERCATO CENTRALE"), at(76, "LARGO MECCANICA 213")]
    assert.strictEqual(company(layout(document([page(1, apart)])))?.text, "FRUTTA E VERDURA SERVIZI")
  })

  it("a title with a number word is the number's label: a misread title over it is no letterhead", () => {
    // OCR read `Fatura` as `atura`; `Fatura n.º` under it labels the number, it does not end the letterhead.
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      row("atura"),
      row("Fatura n.º"),
      row("X 39530"),
      [
        [40, "Prestador:"],
        [300, "Adquirente:"]
      ],
      [
        [40, "Serviços Silva SA"],
        [300, "Gráfica Ferreira SA"]
      ],
      [
        [40, "Largo Silva 223"],
        [300, "Largo Santos 80"]
      ]
    ]
    assert.strictEqual(issuerOfRows(rows), "Serviços Silva SA")
  })

  it("cells across the page are columns: a misread title on the left is no word of the name on the right", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [
        [60, "atura"],
        [330, "Comércio Pereira Lda."]
      ],
      [[330, "Largo Serviços 69"]],
      [
        [51, "Data da fatura:"],
        [156, "08-06-2020"],
        [331, "0864-872 Braga"]
      ]
    ]
    assert.strictEqual(issuerOfRows(rows), "Comércio Pereira Lda.")
    // Near cells are one name: `BAKERY LOGISTICS | LLC`.
    assert.strictEqual(
      issuerOfRows([
        [
          [16, "BAKERY LOGISTICS"],
          [118, "LLC"]
        ],
        row("239 SYSTEMS HIGH STREET")
      ]),
      "BAKERY LOGISTICS LLC"
    )
  })

  it("a name run into the title beside it, copy mark and all, ends at its legal form", () => {
    const rows = ["Werkstatt Bäckerei UG (haftungsbeschränkt) Rechnung (Original)", "Metall Weg 144", "17041 Berlin"]
    assert.strictEqual(issuerOf(...rows), "Werkstatt Bäckerei UG (haftungsbeschränkt)")
  })

  it("a code that opens with a legal form's letters is no name; C/ opens a street, no name", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      row("FACTURA COMPLETA"),
      [
        [40, "FECHA FACTURA"],
        [160, "Nº FACTURA"]
      ],
      [
        [40, "05/02/2024"],
        [160, "SAU-903783"]
      ],
      [
        [40, "DATOS DEL EMISOR:"],
        [330, "FACTURAR A:"]
      ],
      [
        [40, "Ibérica Norte S.A."],
        [330, "Logística Suministros S.A."]
      ]
    ]
    assert.strictEqual(issuerOfRows(rows), "Ibérica Norte S.A.")
    assert.isNull(issuerOf("Factura", "C/ Distribuciones 100", "52517 Bilbao", "NIF: B-19823528"))
  })

  it("a label's particle left without its title words is no name over a title (de of N° de facture)", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      row("FACTURE"),
      row("N° de facture"),
      row("MUO-083366"),
      row("Date de facture"),
      row("16-11-19"),
      [
        [40, "Imprimerie Transports SNC"],
        [330, "Facturé à"]
      ],
      [
        [40, "211 Moreau boulevard"],
        [330, "Atelier Lefèvre SA"]
      ]
    ]
    assert.strictEqual(issuerOfRows(rows), "Imprimerie Transports SNC")
  })

  it("a field's label with a title word (Invoice Date, Datum factuur) is no title ending the letterhead", () => {
    for (const [first, second] of [
      ["TAX INVOICE", "Invoice Date"],
      ["FACTUUR", "Datum factuur"],
      ["TAX INVOICE", "Invoice Number"]
    ]) {
      const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
        row(first ?? ""),
        row("Fact.nr."),
        row("8372/68391"),
        row(second ?? ""),
        row("02-06-24"),
        [
          [40, "Supplier:"],
          [330, "Bill To:"]
        ],
        [
          [40, "Stationery Systems PLC"],
          [330, "Trading Atlas Limited"]
        ]
      ]
      assert.strictEqual(issuerOfRows(rows), "Stationery Systems PLC", second)
    }
  })

  it("a shop word marks a name with no legal form: TOKO (a shop, in Dutch and Malay)", () => {
    const lines = ["TOKO HOLLAND", "TECHNIEKPLEIN 46", "3374 DF UTRECHT", "BTW nummer 56354526"]
    assert.strictEqual(issuerOf(...lines), "TOKO HOLLAND")
    for (const name of ["ALIMENTACIÓN HERMANOS", "MARKT NORD", "SLIJTERIJ DIJKSTRA", "FRUTTA E VERDURA BIANCHI"])
      assert.strictEqual(issuerOf(name, "TECHNIEKPLEIN 46", "3374 DF UTRECHT", "BTW nummer 56354526"), name)
    assert.isNull(issuerOf("HOLLAND", "TECHNIEKPLEIN 46", "3374 DF UTRECHT", "BTW nummer 56354526"))
  })

  it("a legal form on a line of its own under the name marks it: FRUTTA E VERDURA LOMBARDA over S.r.l.", () => {
    const lines = ["FRUTTA E VERDURA LOMBARDA", "S.r.l.", "VIALE SERVIZI 100", "18738 NAPOLI", "C.F.: IT74422039372"]
    assert.strictEqual(issuerOf(...lines), "FRUTTA E VERDURA LOMBARDA S.r.l.")
    assert.strictEqual(addressOf(lines), "VIALE SERVIZI 100 18738 NAPOLI")
    // Without the form, nothing marks the first line as a business: no name, no address under it.
    assert.isNull(issuerOf("ROSSI E BIANCHI", "VIALE SERVIZI 100", "18738 NAPOLI", "C.F.: IT74422039372"))
    assert.strictEqual(issuerOf("ROSSI E BIANCHI", "S.r.l.", "VIALE SERVIZI 100"), "ROSSI E BIANCHI S.r.l.")
  })

  it("a name with a street word that ends in its legal form is a name: LA PLAZA, S.L., Harbour Road Ltd", () => {
    named([
      [
        ["SUPERMERCADOS LA PLAZA, S.L.", "C/ ALCALÁ 12", "28014 MADRID", "TELÉFONO: 912345678"],
        "SUPERMERCADOS LA PLAZA, S.L."
      ],
      [["Harbour Road Trading Ltd", "12 Harbour Road", "Leeds LS1 4AP"], "Harbour Road Trading Ltd"],
      // An address line is still no name.
      [["Calle Mayor 5, 28013 Madrid", "Ferretería Pérez S.L."], "Ferretería Pérez S.L."]
    ])
  })

  it("the tax id printed after the name on its line is not part of it", () => {
    named([
      [["SUPERMERCADOS LA PLAZA, S.L. B-28012345", "C/ ALCALÁ 12", "28014 MADRID"], "SUPERMERCADOS LA PLAZA, S.L."],
      [["Elektro Wagner GmbH DE123456789", "Hauptstraße 5"], "Elektro Wagner GmbH"]
    ])
  })

  it("a legal form after a partner's initial: Studio Bianchi & C. S.a.s., Rossi & C. S.n.c.", () => {
    assert.strictEqual(issuerOf("Studio Bianchi & C. S.a.s.", "Via Po 3, 10124 Torino"), "Studio Bianchi & C. S.a.s.")
    assert.strictEqual(issuerOf("Rossi & C. S.n.c.", "Via Po 3, 10124 Torino"), "Rossi & C. S.n.c.")
    // Initials alone are no form: `M. S. A.` holds no `S.A.` (a trade word would mark the name: `Consulting`).
    assert.isNull(issuerOf("J. M. S. A. Holmgren", "Via Po 3, 10124 Torino"))
  })

  it("legal forms of more countries: C.B., SASU, SPRL, BVBA, S.A.C., E.I.R.L.; AB, SE, AS only closing a name", () => {
    for (const name of [
      "Hermanos Pérez C.B.",
      "Conseil Plus SASU",
      "Bruxelles Services SPRL",
      "Gent Logistics BVBA",
      "Comercial Lima S.A.C.",
      "Servicios Cusco E.I.R.L.",
      "Wiener Handel GesmbH",
      "Stockholm Design AB",
      "Berlin Software SE",
      "Nordic Tools Oy"
    ])
      assert.strictEqual(issuerOf(name, "Calle Mayor 1, 28001 Madrid"), name)
    // Not inside a line, nor as a word of its own.
    assert.isNull(issuerOf("Geöffnet ab 8 Uhr", "Calle Mayor 1, 28001 Madrid"))
    assert.isNull(issuerOf("SE", "Calle Mayor 1, 28001 Madrid"))
  })

  it("a branch's number, the title over the name and a letter's addressee are no issuer's name", () => {
    assert.strictEqual(
      issuerOf("STORE #1234", "GREENLEAF MARKET", "12 ELM ST, SPRINGFIELD, IL 62701"),
      "GREENLEAF MARKET"
    )
    assert.strictEqual(issuerOf("Filiale 0815", "Bäckerei König", "Marktplatz 3"), "Bäckerei König")
    assert.strictEqual(
      issuerOf("TAX INVOICE", "SUNRISE TRADING SDN BHD", "(123456-A)", "NO 5, JALAN 3, 43000 KAJANG"),
      "SUNRISE TRADING SDN BHD"
    )
    // A company sent the letter to someone's attention, or under `Firma`, is the addressee: no name at all.
    assert.isNull(issuerOf("Contoso GmbH", "z. Hd. Frau Meier", "Hafenstr. 1", "20457 Hamburg"))
    assert.isNull(issuerOf("Contoso Ltd", "Attn: Accounts Payable", "9 Dock Rd, Hull HU1 1AA"))
    assert.isNull(issuerOf("Firma", "Beispiel AG", "Hafenstr. 1", "20457 Hamburg"))
  })

  it("a logo's word or a slogan set in another case over the legal name is no line of it", () => {
    assert.strictEqual(
      issuerOf("BLUEWAVE", "Creative studio", "Bluewave Design Ltd", "4 Quay St, Bristol BS1 4DJ"),
      "Bluewave Design Ltd"
    )
    assert.strictEqual(issuerOf("Print & more", "Kopierladen Weber GmbH", "Ringstr. 4"), "Kopierladen Weber GmbH")
    // A name wrapped over lines is set alike: its lines stay one name.
    assert.strictEqual(
      issuerOf("Frutta e Verdura", "Lombarda S.r.l.", "Via Roma 1"),
      "Frutta e Verdura Lombarda S.r.l."
    )
    assert.strictEqual(
      issuerOf("SYARIKAT PERNIAGAAN", "GIN KEE SDN BHD", "NO 1, JALAN 2"),
      "SYARIKAT PERNIAGAAN GIN KEE SDN BHD"
    )
  })

  it("a brand printed over the name (or a sign over its full name) that repeats its first words is not part of it", () => {
    named([
      [["TECK SENG", "TECK SENG TRADING SDN BHD", "(039487-X)", "NO.93, JALAN ANGSA 2,"], "TECK SENG TRADING SDN BHD"],
      // Spaced and dotted otherwise than the name (a logo's text).
      [["MR.D.I.Y", "MR. D.I.Y. (M) SDN BHD", "(860671-D)", "NO.12, JALAN SS 2/3,"], "MR. D.I.Y. (M) SDN BHD"],
      // The sign over the company's full name that opens with it: the full name alone.
      [["dm-drogerie markt", "dm-drogerie markt GmbH + Co. KG", "Am dm-Platz 1"], "dm-drogerie markt GmbH + Co. KG"],
      // A name wrapped over two lines is still joined.
      [["GL HANDICRAFT &", "TAILORING SDN BHD", "19, JALAN KANCIL,"], "GL HANDICRAFT & TAILORING SDN BHD"]
    ])
  })

  it("a line opening with a legal form names a company of its own, under a sign or over it: SARL LPB", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [[40, "LE PETIT BISTROT"]],
      [[40, "SARL LPB - 12 rue des Lilas"]],
      [[40, "69003 LYON"]],
      [[40, "SIRET 123 456 789 00012"]],
      [
        [40, "Table 5"],
        [120, "Couverts 2"],
        [200, "Serveur: Marc"]
      ]
    ]
    assert.strictEqual(issuerOfRows(rows), "SARL LPB")
    // A legal form alone on the line under the name is the name's (`EMPRESA EJEMPLO` over `S.A. DE C.V.`).
    assert.strictEqual(issuerOf("ACME COMERCIAL", "S.A. DE C.V.", "Av. Reforma 100"), "ACME COMERCIAL S.A. DE C.V.")
  })

  it("a market's name by its shop word: MARCHÉ MARTIN", () => {
    assert.strictEqual(issuerOf("MARCHÉ MARTIN", "149 DUPONT CHEMIN", "64671 NANTES"), "MARCHÉ MARTIN")
  })

  it("never an address line: the name, not the street above or below it", () => {
    assert.strictEqual(
      issuerOf("C/ Praga S/N, Calle 4", "11405 Jerez de la Frontera", "Ferretería Pérez"),
      "Ferretería Pérez"
    )
    assert.strictEqual(issuerOf("Hauptstraße 5, 10115 Berlin", "Bäckerei Schmidt"), "Bäckerei Schmidt")
  })

  it("legal forms in each language mark the name, wherever it is among the top lines", () => {
    const forms = [
      "Centros Comerciales Carrefour S.A",
      "Suministros Acme S.L.",
      "Muster Handels GmbH",
      "Boulangerie Dupont SARL",
      "Rossi Forniture S.p.A.",
      "Papelaria Lisboa Lda",
      "De Vries B.V.",
      "SANYU SUPPLY SDN BHD"
    ]
    for (const name of forms) assert.strictEqual(issuerOf("Bienvenido / Welcome", "Factura", name), name, name)
  })

  it("the issuer's cell, not the title or the invoice data sharing its row", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      beside("Facture", "Provence Atelier S.A.", 300),
      [[300, "175 Moreau avenue"]],
      beside("Date d'émission: 16 novembre 2024", "98899 Toulouse", 300)
    ]
    assert.strictEqual(issuerOfRows(rows), "Provence Atelier S.A.")
    assert.strictEqual(
      issuerOf("Druckerei Elektro UG (haftungsbeschränkt) Rechnung", "Weber Ring 210"),
      "Druckerei Elektro UG (haftungsbeschränkt)"
    )
  })

  it("never the recipient: the block under Facturar a, Bill To, Kunde, An, Cliente:", () => {
    for (const label of ["Facturar a", "BILL TO", "Kunde", "An", "Cliente:", "Adresse de facturation", "Aan"])
      assert.isNull(issuerOf("FACTURA", label, "Construcciones García S.L.U.", "Ctra. Ibérica 192"), label)
    assert.strictEqual(issuerOf("Cliente nº: 4795", "Suministros Acme S.L."), "Suministros Acme S.L.")
    assert.strictEqual(issuerOf("AN NUR ENTERPRISE", "NO 5 JALAN MAWAR"), "AN NUR ENTERPRISE")
  })

  it("a sender line keeps the name, not its address; a wrapped name stops at the street", () => {
    assert.strictEqual(issuerOf("QualityHosting AG - Uferweg 40-42 - D-63571 Gelnhausen"), "QualityHosting AG")
    // Commas set the address apart where the name ends in its legal form (a name may hold a comma itself).
    assert.strictEqual(issuerOf("Bäckerei Müller GmbH, Hauptstraße 5, 33100 Paderborn"), "Bäckerei Müller GmbH")
    assert.strictEqual(issuerOf("Acme Widgets, Inc., 12 High Street, London"), "Acme Widgets, Inc.")
    assert.strictEqual(
      issuerOf("HIPER CONSTRUCCIONES S.Coop.", "PLAZA DISTRIBUCIONES 148"),
      "HIPER CONSTRUCCIONES S.Coop."
    )
  })

  it("a name printed after its label is the name alone", () => {
    assert.strictEqual(issuerOf("Sold By : WS Retail Services Pvt. Ltd.,"), "WS Retail Services Pvt. Ltd.")
    // A label of four words (`Nombre de la empresa:`).
    const four = issuerOf("Nombre de la empresa: Ferretería López S.L.", "Calle Mayor 3, 28001 Madrid")
    assert.strictEqual(four, "Ferretería López S.L.")
  })

  it("the letterhead ends at a receipt's first line: an item is never the issuer", () => {
    assert.isNull(issuerOf("Nº ticket: 56/400516", "DETERGENTE 12,16", "CAFÉ MOLIDO 9,90"))
  })

  it("no name by position alone: a first line with no legal form, shop word or label is left empty", () => {
    // NetpresseInvoice: the recipient's name printed at the top left, the issuer only in the footer.
    assert.isNull(issuerOf("ALEXINUX", "de Lattre Alexis", "27 rue Henri Rolland", "69100 Villeurbanne"))
    assert.isNull(issuerOf("Juan Pérez", "C/ Praga S/N, Calle 4"))
  })

  it("shop and trade words of each language mark the name", () => {
    const shops = [
      "PANADERÍA HERMANOS",
      "SOON HUAT MACHINERY ENTERPRISE",
      "Bäckerei Schmidt",
      "Boulangerie du Marché",
      "Ferramenta Bianchi",
      "Mercearia Central",
      "Bakkerij de Molen",
      "GL HANDICRAFT & TAILORING"
    ]
    for (const name of shops) assert.strictEqual(issuerOf("Bienvenido / Welcome", name, "Tel. 912 345 678"), name, name)
  })

  it("the words of inns and eating houses, and of professional firms, of each language mark the name too", () => {
    const names = [
      ...["THE OLD OAK TAVERN", "Gasthaus Zur Linde", "Osteria del Ponte", "TABERNA LOS ARCOS", "Auberge du Lac"],
      ...["JOE'S DINER", "Harbour Eatery"],
      ...["Cervejaria Ribeira", "Eetcafe Het Anker", "Kanzlei Berger & Partner", "Cabinet Martin Architectes"],
      ...[
        "García Abogados",
        "Studio Bianchi Commercialisti",
        "Hartley Solicitors",
        "Van Dam Advocaten",
        "Silva Advogados"
      ]
    ]
    for (const name of names) assert.strictEqual(issuerOf(name, "Tel. 912 345 678"), name, name)
  })

  it("the words of health practices of each language mark the name too", () => {
    const names = [
      ...["Studio Dentistico Dr. Marco Bianchi", "Clínica Dental Sonrisa", "Zahnarztpraxis Dr. Weber"],
      ...["Cabinet Dentaire Dupont", "Clínica Dentária Sorriso", "Tandartspraktijk De Vries", "Riverside Dental"]
    ]
    for (const name of names) assert.strictEqual(issuerOf(name, "Via Garibaldi 22 - 10122 Torino"), name, name)
  })

  it("a window envelope's sender line names the sender its letterhead prints again, whatever its words", () => {
    const rows = (sender: string) => [
      beside("", "Berger Müller", 330),
      beside("", "Goethestraße 14", 330),
      beside("", "60313 Frankfurt am Main", 330),
      row(sender),
      row("Frau"),
      row("Dr. Sabine Vogt"),
      row("Birkenweg 22"),
      row("61348 Bad Homburg")
    ]
    assert.strictEqual(issuerOfRows(rows("Berger Müller · Goethestraße 14 · 60313 Frankfurt")), "Berger Müller")
    // A name the page prints once only is nobody's name by position: the sender line is no letterhead.
    assert.isNull(issuerOfRows(rows("Vogt Schulz · Goethestraße 14 · 60313 Frankfurt")))
  })
})

describe("issuer's address", () => {
  const PERNIAGAAN = [
    "PERNIAGAAN ZHENG HUI",
    "JMO326956-V",
    "NO.59 JALAN PERMAS 9/5",
    "BANDAR BARU PERMAS JAYA",
    "81760 JOHOR BAHRU",
    "TEL: 07-386 7524 FAX : 07-386 3793"
  ]

  it("the lines under the name up to the contacts, without the registration code printed alone", () => {
    assert.strictEqual(addressOf(PERNIAGAAN), "NO.59 JALAN PERMAS 9/5 BANDAR BARU PERMAS JAYA 81760 JOHOR BAHRU")
    assert.strictEqual(
      addressOf([
        "SAM SAM TRADING CO",
        "(742016-W)",
        "67,JLN MEWAH 25/63 TMN SRI MUDA,",
        "40400 SHAH ALAM.",
        "TEL/FAX : 03-51213881"
      ]),
      "67,JLN MEWAH 25/63 TMN SRI MUDA, 40400 SHAH ALAM."
    )
  })

  it("ends before a document's title in any of the seven languages (FACTURE N°, Rechnung, Fattura)", () => {
    for (const title of ["FACTURE N° 2026-1187", "Rechnung 2026-1188", "FATTURA N. 331", "Factuur 2026-17"])
      assert.strictEqual(
        addressOf(["HÔTEL DU PORT SARL", "12 quai de la Marine, 13002 Marseille", title, "Client : M. Paul Girard"]),
        "12 quai de la Marine, 13002 Marseille",
        title
      )
  })

  it("starts at its first line with a figure or a street word: a branch name is not the address", () => {
    const rows = [
      "IKANO HANDEL SDN BHD",
      "IKEA CHERAS",
      "NO 2A JALAN COCHRANE",
      "TAMAN MALURI",
      "55100 KUALA LUMPUR",
      "TEL: 1300-88-4532"
    ]
    assert.strictEqual(addressOf(rows), "NO 2A JALAN COCHRANE TAMAN MALURI 55100 KUALA LUMPUR")
  })

  it("given only when a contact or tax line closes it: a block that runs on is no address to vouch for", () => {
    // The receipt's title and lines follow the address with no phone or tax line between them.
    assert.isNull(
      addressOf([
        "KEDAI RUNCIT MAJU ENTERPRISE",
        "NO.12, JALAN BESAR,",
        "45600 BATANG BERJUNTAI",
        "CASH BILL",
        "MILO 1KG"
      ])
    )
    // A figure alone under the town, from another column.
    assert.isNull(
      addressOf(["Martin Garage SA", "218 Dupont place", "07637 Marseille", "60891", "Nº TVA: 502 689 409"])
    )
    // The page ends under it.
    assert.isNull(addressOf(["LEE WAH FLORIST SDN BHD", "129, JALAN TUN H.S LEE,", "50000 KUALA LUMPUR."]))
    assert.strictEqual(
      addressOf(["LEE WAH FLORIST SDN BHD", "129, JALAN TUN H.S LEE,", "50000 KUALA LUMPUR.", "TEL 03-20782822"]),
      "129, JALAN TUN H.S LEE, 50000 KUALA LUMPUR."
    )
  })

  it("closed by a phone number or a mail address under it, with no label, as American and British letterheads do", () => {
    assert.strictEqual(
      addressOf(["ACME PLUMBING SUPPLY LLC", "1200 Industrial Pkwy", "Dayton, OH 45402", "(937) 555-0142", "INVOICE"]),
      "1200 Industrial Pkwy Dayton, OH 45402"
    )
    assert.strictEqual(
      addressOf(["Northwind Consulting Ltd", "18 Queen Street", "Edinburgh EH2 1JX", "0131 496 0000"]),
      "18 Queen Street Edinburgh EH2 1JX"
    )
    assert.strictEqual(
      addressOf([
        "BrightPath Software Inc.",
        "500 Market Street, Suite 210",
        "San Francisco, CA 94105",
        "billing@brightpath.io"
      ]),
      "500 Market Street, Suite 210 San Francisco, CA 94105"
    )
    // A street or a park named `Business` is no business's register line.
    assert.strictEqual(
      addressOf(["ACME Corp.", "Unit 5, Riverside Business Park", "Leeds LS11 5DR", "Tel: 0113 496 0000"]),
      "Unit 5, Riverside Business Park Leeds LS11 5DR"
    )
    assert.strictEqual(
      addressOf(["ACME Corp.", "123 Business Rd.", "Springfield, IL 62701", "(217) 555-0100"]),
      "123 Business Rd. Springfield, IL 62701"
    )
    // Five figures alone are no phone number: another column's value, and the block still runs on.
    assert.isNull(addressOf(["Martin Garage SA", "218 Dupont place", "07637 Marseille", "60891", "INVOICE"]))
  })

  it("given only when its last lines end as addresses end: a postcode, a state or a country", () => {
    assert.isNull(
      addressOf(["SOON HUAT MACHINERY ENTERPRISE", "NO.53 JALAN PUTRA 1,", "TAMAN SRI PUTRA,", "TEL : 07-5547360"])
    )
    assert.strictEqual(
      addressOf([
        "B & BEST RESTAURANT",
        "NO.12,JALAN SS4C/5,PETALING JAYA",
        "SELANGOR DARUL EHSAN",
        "TEL : 012-2060 778"
      ]),
      "NO.12,JALAN SS4C/5,PETALING JAYA SELANGOR DARUL EHSAN"
    )
  })

  it("closed by a tax id or register line in each language, however it is dotted", () => {
    const closers = [
      "USt-IdNr.: DE123456789",
      "N.I.F.: B12345678",
      "BTW nummer NL123456789B01",
      "N° TVA FR12345678901",
      "St.-Nr. DE584839266",
      "St.-Nr. 52/368/09216",
      // A document's own line with no colon: its number, an order, a reference, an account.
      "Inv. No. 2023-1187",
      "Order No 4711",
      "Our ref AB/12",
      "Customer 10023"
    ]
    for (const closer of closers)
      assert.strictEqual(
        addressOf(["Elektro Wagner GmbH", "Hauptstraße 5", "10115 Berlin", closer]),
        "Hauptstraße 5 10115 Berlin",
        closer
      )
  })

  it("a street named after a trade is the address, not the name's next line: BÄCKEREI RING 161", () => {
    const rows = ["GETRÄNKE NORD", "BÄCKEREI RING 161", "21081 LEIPZIG", "USt-IdNr.: 73/705/83030"]
    assert.strictEqual(issuerOf(...rows), "GETRÄNKE NORD")
    assert.strictEqual(addressOf(rows), "BÄCKEREI RING 161 21081 LEIPZIG")
    // A town alone is not the address.
    assert.isNull(addressOf(["GETRÄNKE NORD GmbH", "21081 LEIPZIG", "USt-IdNr.: 73/705/83030"]))
  })

  it("read cell by cell: the document's data printed beside it is not part of it", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      beside("FACTUUR", "Visser de Vries BV", 330),
      [[330, "Noordstraat 118"]],
      beside("Factuurdatum", "9212 MD Den Haag", 330),
      beside("03/10/2018", "BTW nummer: NL294131219B01", 330)
    ]
    assert.strictEqual(address(layout(document([page(1, rows)])))?.text ?? null, "Noordstraat 118 9212 MD Den Haag")
  })

  it("ends at a postcode as each country writes it, never at a street number", () => {
    const ends = [
      ...["81200 JOHOR BAHRU", "456OO BATANG BERJUNTAI", "D-63571 Gelnhausen", "1012 AB Amsterdam", "1000-001 Lisboa"],
      ...["Leeds LS1 4AP", "KLANG, SELANGOR", "JALAN IPOH 51200 KUALA LUMPUR MALAYSIA", "Springfield, IL 62704"]
    ]
    const others = [
      ...["LOT 1851-A & 1851-B, JALAN KPB 6,", "NO.53 JALAN PUTRA 1,", "TAMAN MALURI", "03-51213881"],
      "07637 Marseille 60891"
    ]
    for (const line of [...ends, ...others]) assert.strictEqual(addressEnd(line), ends.includes(line), line)
  })

  it("withheld when the reader doubted a word of it: position alone cannot check an OCR slip", () => {
    // SROIE via OCR: `456OO` read for 45600 with a low confidence.
    const rows = ["TEO HENG STATIONERY & BOOKS", "NO. 53, JALAN BESAR,", "456OO BATANG BERJUNTAI", "TEL : 03-3271 9872"]
    assert.strictEqual(addressOf(rows), "NO. 53, JALAN BESAR, 456OO BATANG BERJUNTAI")
    assert.isNull(addressOf(rows, (word) => (word === "456OO" ? 0.4 : 0.97)))
    // A doubted word of the name or the contacts is not the address's.
    assert.strictEqual(
      addressOf(rows, (word) => (word === "TEO" || word === "TEL" ? 0.4 : 0.97)),
      "NO. 53, JALAN BESAR, 456OO BATANG BERJUNTAI"
    )
  })

  it("on an OCR page, a cell close after the address's is the same line (RUA SILVA | 111), not another column", () => {
    const rows = [
      [[40, "FRUTARIA TRANSPORTES S.A."]],
      // `SILVA` ends at 85: `111` 11 pt on (over the 0.8-height cell gap, under 1.2 heights), the date far off.
      [
        [40, "RUA SILVA"],
        [96, "111"],
        [300, "17/09/2021"]
      ],
      [[40, "0552-144 PORTO"]],
      [[40, "NIF: PT757983481"]]
    ] as const
    const read = (source: "ocr" | "text") => address(layout(document([{ ...page(1, rows), source }])))?.text ?? null
    assert.strictEqual(read("ocr"), "RUA SILVA 111 0552-144 PORTO")
    // A text layer's boxes hold the whole glyph, bearings and all: there the gap is the printer's.
    assert.strictEqual(read("text"), "RUA SILVA 0552-144 PORTO")
  })

  it("on an OCR page, a cell close before the address's is the same line (AVDA. | CONSTRUCCIONES 198)", () => {
    // A receipt's centred name over the street's name alone: `AVDA.` ends at 84, 11 pt before the street.
    const rows = [
      [[100, "HIPER NORTE S.L."]],
      [
        [59, "AVDA."],
        [95, "CONSTRUCCIONES 198"]
      ],
      [[100, "75267 MADRID"]],
      [[100, "CIF B53923922"]]
    ] as const
    const read = address(layout(document([{ ...page(1, rows), source: "ocr" as const }])))?.text ?? null
    assert.strictEqual(read, "AVDA. CONSTRUCCIONES 198 75267 MADRID")
  })

  it("read past another column's line the reader set between two of its lines, not past a gap in its column", () => {
    // The generated Italian invoice by OCR: the number under `Fattura n.` sits a little over `P. IVA`'s baseline.
    const rows = (vat: number) => [
      {
        y: 40,
        cells: [
          [40, "Tipografia Costruzioni S.a.s."],
          [330, "FATTURA"]
        ] as const
      },
      { y: 56, cells: [[40, "Via Ricci 21"]] as const },
      {
        y: 72,
        cells: [
          [40, "27530 Bologna"],
          [330, "Fattura n."]
        ] as const
      },
      { y: 84, cells: [[330, "387913"]] as const },
      { y: vat, cells: [[40, "P. IVA: 76039844843"]] as const }
    ]
    const read = (vat: number) => address(layout(document([{ ...page(1, rows(vat)), source: "ocr" }])))?.text ?? null
    assert.strictEqual(read(94), "Via Ricci 21 27530 Bologna")
    // The tax line a blank line further down: the block ended at the gap, unclosed, so no address.
    assert.isNull(read(120))
  })

  it("given when only a word's marks were in doubt, not its letters (JALAN read at 0.33 for an `Á`)", () => {
    const rows = ["TEO HENG STATIONERY & BOOKS", "NO. 53, JALAN BESAR,", "45600 BATANG BERJUNTAI", "TEL : 03-3271 9872"]
    const jalan = (word: string) => (word === "JALAN" ? 0.33 : 0.97)
    assert.strictEqual(
      addressOf(rows, jalan, () => 0.97),
      "NO. 53, JALAN BESAR, 45600 BATANG BERJUNTAI"
    )
    // A letter in doubt (`MUBA` for `MUDA`: no mark shares its probability) withholds it still.
    assert.isNull(addressOf(rows, jalan, jalan))
  })

  it("a legal form OCR misread by a letter is the form, written as such (SIN BHI, GmbH.)", () => {
    assert.strictEqual(
      issuerOf("3 1 812 012", "WAHIN HARDWARE SIN BHI", "148481-U", "425, JALAN FAHANG,"),
      "WAHIN HARDWARE SDN BHD"
    )
    assert.strictEqual(issuerOf("GOGIANT ENGINEERING (M) SDN BHI"), "GOGIANT ENGINEERING (M) SDN BHD")
    assert.strictEqual(issuerOf("Elektro Wagner GmbH.", "Hauptstraße 5"), "Elektro Wagner GmbH")
    assert.strictEqual(issuerOf("Druckerei Neumann Gmbl"), "Druckerei Neumann GmbH")
    // A dotted form's `l` read as a one, its last dot lost.
    assert.strictEqual(issuerOf("PANIFICIO ESPOSITO S.r.1", "LARGO BIANCHI 186"), "PANIFICIO ESPOSITO S.r.l.")
    assert.strictEqual(issuerOf("OFFICINA ROSSI S.R.1.", "VIA ROMA 12"), "OFFICINA ROSSI S.R.L.")
    assert.strictEqual(issuerOf("Studio Verdi S.r.l.", "Via Roma 12"), "Studio Verdi S.r.l.")
    // Or as a capital I among small letters; among capitals an I is an I.
    assert.strictEqual(issuerOf("SUPERMERCATO OFFICINA S.r.I.", "VIA ROMA 12"), "SUPERMERCATO OFFICINA S.r.l.")
    assert.strictEqual(issuerOf("MERCATO ROSSI S.R.I.", "VIA ROMA 12"), "MERCATO ROSSI S.R.I.")
    // A name printed right, and a Spanish `sin` that no legal form follows, stay as printed.
    assert.strictEqual(issuerOf("AEON CO. (M) BHD"), "AEON CO. (M) BHD")
    assert.strictEqual(issuerOf("AEON CO. (M) BHO"), "AEON CO. (M) BHD")
    assert.strictEqual(issuerOf("AEON CO. BH0"), "AEON CO. BHD")
    assert.strictEqual(issuerOf("Panadería Sin Gluten S.L."), "Panadería Sin Gluten S.L.")
    assert.isNull(issuerOf("Precios sin IVA"))
    // A mark OCR invented on a form's word is dropped: forms are written without them; the name's own marks stay.
    assert.strictEqual(issuerOf("Müller Schneider ÜG (haftungsbeschränkt)"), "Müller Schneider UG (haftungsbeschränkt)")
    assert.strictEqual(issuerOf("Distribuição Lusitana Únipessoal Lda."), "Distribuição Lusitana Unipessoal Lda.")
    // Forms French writes with a mark keep it.
    assert.strictEqual(issuerOf("Example Retail EU S.à r.l."), "Example Retail EU S.à r.l.")
    assert.strictEqual(issuerOf("Atelier Genevois Sàrl"), "Atelier Genevois Sàrl")
  })

  it("the seller's block printed beside the buyer's: the seller's, left of the buyer's label", () => {
    const two = (left: string, right: string) => beside(left, right, 330)
    const data = [
      [[330, "INVOICE"]],
      [
        [330, "Inv. No.:"],
        [435, "P-6973-040"]
      ]
    ] as const
    // Under a seller's label, which is no line of the name.
    for (const [seller, buyer] of [
      ["Seller:", "Bill To:"],
      ["CEDENTE", "INTESTATARIO"],
      ["Sprzedawca:", "Nabywca:"],
      ["Proveedor", "Facturar a"]
    ] as const)
      assert.strictEqual(
        issuerOfRows([
          ...data,
          two(seller, buyer),
          two("Pioneer Engineering Inc.", "Harbour Hardware PLC"),
          two("23 Logistics Lane", "89 Trading Lane")
        ]),
        "Pioneer Engineering Inc.",
        seller
      )
    // The seller's name on the buyer's label row.
    assert.strictEqual(
      issuerOfRows([...data, two("Kowalski Sp. z o.o.", "Nabywca"), two("ul. Długa 5", "Jansen B.V.")]),
      "Kowalski Sp. z o.o."
    )
    // A name right of the buyer's label is the buyer's (its value), and a label over the name is none of it.
    assert.isNull(issuerOfRows([two("Bill to:", "Acme Consulting Ltd"), two("Beta Trading GmbH", "12 High Street")]))
    assert.strictEqual(issuerOf("From:", "Sunrise Studio LLC", "To:", "Contoso Ltd"), "Sunrise Studio LLC")
    // A delivery note's number label under the data is no title that ends the letterhead.
    assert.strictEqual(
      issuerOfRows([
        [[330, "FACTURA"]],
        [[330, "Albarán nº"]],
        [[330, "24342"]],
        two("Proveedor", "Facturar a"),
        two("Logística Núñez S.L.U.", "García Núñez S.A.")
      ]),
      "Logística Núñez S.L.U."
    )
  })

  it("the buyer's label the reader ran into the seller's name is cut where the name ends in its legal form", () => {
    assert.strictEqual(
      issuerOf("Druckerei Elektro UG (haftungsbeschränkt) Rechnungsempfänger", "Weber Ring 210"),
      "Druckerei Elektro UG (haftungsbeschränkt)"
    )
    assert.strictEqual(issuerOf("Pioneer Engineering Inc. Bill To"), "Pioneer Engineering Inc.")
  })

  it("trade words and forms of Malaysian and other letterheads mark a name without a company form", () => {
    assert.strictEqual(issuerOf("PASARAYA BESTMART", "NO.12, JALAN SS4C/5"), "PASARAYA BESTMART")
    assert.strictEqual(issuerOf("KLINIK KESIHATAN ANDA", "NO 7, JALAN IPOH"), "KLINIK KESIHATAN ANDA")
    assert.strictEqual(issuerOf("TAN & LEE PLT", "LOT 1851-A"), "TAN & LEE PLT")
    assert.strictEqual(issuerOf("Optik Schmidt", "Hauptstraße 4"), "Optik Schmidt")
    assert.strictEqual(issuerOf("KEDAI RUNCIT AH SENG", "NO 5, JALAN 3"), "KEDAI RUNCIT AH SENG")
    assert.strictEqual(issuerOf("KOPITIAM WAN LOK", "NO 5, JALAN 3"), "KOPITIAM WAN LOK")
    assert.strictEqual(issuerOf("SEVEN STAR MINIMART", "NO 5, JALAN 3"), "SEVEN STAR MINIMART")
    assert.strictEqual(issuerOf("Luigi's Pizzeria", "12 High Street"), "Luigi's Pizzeria")
    // A letterhead with no such mark still gives no name.
    assert.isNull(issuerOf("Sunrise Studio", "12 High Street"))
  })

  it("a letterhead that is a logo: the name over the footer's register line, when marked or printed again", () => {
    const top = [row("FACTURE"), row("236 Boulangerie place"), row("21830 Lyon"), row("SIRET: 91689658940012")]
    const foot = (name: string, legal: string) => [
      { y: 781, cells: [[249, name]] as ReadonlyArray<Cell> },
      { y: 792, cells: [[215, legal]] as ReadonlyArray<Cell> }
    ]
    const read = (rows: Parameters<typeof page>[1]) => company(layout(document([page(1, rows)])))?.text ?? null
    assert.strictEqual(
      read([...top, ...foot("Moreau Boulangerie SAS", "SAS au capital de 10 000 € - RCS Lyon 403 119 378")]),
      "Moreau Boulangerie SAS"
    )
    assert.strictEqual(
      read([...top, ...foot("Gráficas Alimentación S.Coop.", "Registro Mercantil de Madrid, Tomo 0014, Folio 87")]),
      "Gráficas Alimentación S.Coop."
    )
    // A plain name only when the document prints it again; a street with a trade word is no name.
    const netpresse = foot("NETPRESSE", "Sarl au capital de 10 000€ - RCS Paris B 530 848 134")
    assert.isNull(read([...top, ...netpresse]))
    assert.strictEqual(read([...top, row("Titulaire du compte : NETPRESSE"), ...netpresse]), "NETPRESSE")
    assert.isNull(read([...top, { y: 781, cells: [[249, "Merci de votre confiance"]] }]))
    // The register line's long word with a letter OCR misread.
    assert.strictEqual(
      read([...top, ...foot("Harbour Pioneer SDN BHD", "Compuny No. 03646416")]),
      "Harbour Pioneer SDN BHD"
    )
    assert.isNull(read([...top, ...foot("Harbour Pioneer SDN BHD", "Compute No. 03646416")]))
    // A figure OCR read for a letter (`s0ciale`), the register's short word misread too (`REZ` for `REA`).
    assert.strictEqual(
      read([...top, ...foot("Rossi Trasporti S.a.s.", "REZ MI-9681686 - Capitale s0ciale € 10.000 i.v.")]),
      "Rossi Trasporti S.a.s."
    )
  })

  it("a Malaysian company's registration number marks the name it is printed under or after", () => {
    const address = ["NO 5, JALAN BESAR,", "43000 KAJANG, SELANGOR.", "TAX INVOICE"]
    assert.strictEqual(issuerOf("UNIQUE GIFT GALLERY", "(123456-A)", ...address), "UNIQUE GIFT GALLERY")
    assert.strictEqual(issuerOf("UNIQUE GIFT GALLERY", "002043319-W", ...address), "UNIQUE GIFT GALLERY")
    assert.strictEqual(issuerOf("UNIQUE GIFT GALLERY (1074617K)", ...address), "UNIQUE GIFT GALLERY")
    assert.strictEqual(issuerOf("GOLDEN KEY MAKER", "CO. REG. NO: 000123456-A", ...address), "GOLDEN KEY MAKER")
    // `Co.` before `Reg.` is no legal form: the registration line is not part of a marked name either.
    assert.strictEqual(issuerOf("KEY MAKER ENTERPRISE", "CO. REG. NO: 000123456-A", ...address), "KEY MAKER ENTERPRISE")
    // So does the tax id alone on the line under it: a freelancer's name, a firm's with no legal form.
    assert.strictEqual(
      issuerOf("María López Fernández", "NIF: 12345678Z", "C/ Mayor 12, 28013 Madrid"),
      "María López Fernández"
    )
    assert.strictEqual(issuerOf("Bright Ideas Design", "VAT Reg No: GB 123 4567 89", "INVOICE"), "Bright Ideas Design")
    // Under the trade the freelancer prints in running words between them; not under a name's second line.
    assert.strictEqual(
      issuerOf("Laura Gómez Ruiz", "Diseño gráfico y web", "NIF: 12345678Z", "C/ Mayor, 15, 2º B", "28013 Madrid"),
      "Laura Gómez Ruiz"
    )
    assert.isNull(issuerOf("Laura Gómez Ruiz", "Pedro Gómez Ruiz", "NIF: 12345678Z", "C/ Mayor, 15", "28013 Madrid"))
    assert.strictEqual(issuerOf("YONG CEN", "GST ID: 000123456789", ...address), "YONG CEN")
    // Printed under the address, it marks the address's last line no more than the name over the address.
    assert.isNull(
      issuerOf(
        "GL HANDCRAFT & TAM CRNG",
        "19, JALAM RANCIL,",
        "55100 RUALA LUMPUR",
        "MALAYSIA",
        "company Reg No. :75495-V"
      )
    )
    // A code that is no registration number (a phone number, a bare figure) marks nothing.
    assert.isNull(issuerOf("UNIQUE GIFT GALLERY", "TEL: 03-87654321", ...address))
    assert.isNull(issuerOf("UNIQUE GIFT GALLERY", "(123456)", ...address))
  })

  it("a seller's label over a name with no legal form marks it: Datos del emisor, Seller:, Lieferant", () => {
    const blocks = (seller: string, buyer: string) =>
      issuerOfRows([
        [[40, "FACTURA"]],
        [
          [40, seller],
          [300, buyer]
        ],
        [
          [40, "Reformas Gómez"],
          [300, "Ana Ruiz"]
        ],
        [
          [40, "C/ Sol 3, 28001 Madrid"],
          [300, "C/ Luna 5, 28002 Madrid"]
        ]
      ])
    for (const [seller, buyer] of [
      ["Datos del emisor", "Datos del cliente"],
      ["Seller:", "Bill to:"],
      ["Lieferant", "Rechnungsempfänger"],
      ["Fornitore", "Cliente"]
    ] as const)
      assert.strictEqual(blocks(seller, buyer), "Reformas Gómez", seller)
    // Under a heading that is no seller's label, the plain name stays unmarked.
    assert.isNull(blocks("Datos", "Datos del cliente"))
  })

  it("a letterhead that is a logo: the name opening the footer's register line, or over its address", () => {
    const read = (...footer: ReadonlyArray<string>) =>
      issuerWithFooter(["Factuur", "Jan de Vries", "Kerkstraat 12", "1234 AB Amsterdam"], footer)
    assert.strictEqual(read("Koffiehuis B.V. · Weena 664 · 3012 CN Rotterdam · KvK 24275051"), "Koffiehuis B.V.")
    assert.strictEqual(
      read("Muster GmbH | Amtsgericht Charlottenburg HRB 12345 | Geschäftsführer: H. Muster"),
      "Muster GmbH"
    )
    assert.strictEqual(read("Koffiehuis B.V.", "Weena 664", "3012 CN Rotterdam", "KvK 24275051"), "Koffiehuis B.V.")
    // A legal form alone opening the line names no one.
    assert.isNull(read("SARL - RCS Lyon 123 456 789 - 8 rue Royale 69001 Lyon"))
    // An Italian footer's VAT number marks it (`P.IVA`), with no register named.
    const italian = "Bianchi Caffè S.p.A. - Via Torricelli 1 - 40041 Gaggio Montano (BO) - P.IVA 01234567890"
    assert.strictEqual(read(italian), "Bianchi Caffè S.p.A.")
    // What opens the line is a name only when it ends in its legal form.
    assert.isNull(read("Capitale sociale € 10.000 i.v. - P.IVA 01234567890"))
    assert.isNull(read("Geschäftsführer: Hans Muster · Amtsgericht Berlin HRB 12345"))
    assert.isNull(read("Weena 664 · 3012 CN Rotterdam · KvK 24275051"))
    assert.isNull(read("Koffiehuis · Weena 664 · KvK 24275051"))
    // Three lines of address between are too far for the name to be the register's.
    assert.isNull(read("Koffiehuis B.V.", "Weena 664", "Gebouw 3", "3012 CN Rotterdam", "KvK 24275051"))
    // With no register, the name opening a contact line, ended by its legal form.
    const contacts = "Acme Web Services LLC · 500 Market St, San Francisco, CA 94105 · billing@acmeweb.com"
    assert.strictEqual(read(contacts), "Acme Web Services LLC")
    assert.strictEqual(read("Studio Rossi S.r.l. | Tel. 02 1234567 | www.studiorossi.it"), "Studio Rossi S.r.l.")
    assert.isNull(read("Acme Web Services · 500 Market St, San Francisco, CA 94105 · billing@acmeweb.com"))
    assert.isNull(read("Thank you for your business · Acme Web Services LLC"))
    // Its parts apart by commas: the name ended by its legal form before an address.
    const commas = "Muster Software GmbH, Beispielweg 3, 20095 Hamburg, USt-IdNr. DE123456789"
    assert.strictEqual(read(commas), "Muster Software GmbH")
    assert.isNull(read("Muster Software, Beispielweg 3, 20095 Hamburg, USt-IdNr. DE123456789"))
  })

  it("a footer's name on the contact line over the register's; never one the register's words follow in its part", () => {
    const top = ["Rechnung", "Max Mustermann", "Lindenweg 4", "80331 München"]
    const read = (...footer: ReadonlyArray<string>) => issuerWithFooter(top, footer)
    const contact = "Musterhandel GmbH · Hauptstraße 1 · 10115 Berlin · Geschäftsführer: Hans Beispiel"
    assert.strictEqual(read(contact, "Amtsgericht Berlin HRB 123456 · USt-IdNr. DE123456789"), "Musterhandel GmbH")
    // A name the register's words follow in one part is not taken.
    const capital =
      "Télécom Exemple SAS au capital de 1 000 000 € - 12 avenue de France 75013 Paris - RCS Paris 421 938 861"
    assert.isNull(read(capital))
    assert.isNull(read("GadgetZone Ltd, registered in England and Wales, company no. 08812345"))
    // The register's own line, its parts apart by commas, opened by the name ended by its legal form before an address.
    assert.strictEqual(
      read("Fabrikam Supplies Ltd, 12 High Street, Bradford BD1 1AA. Company No. 01234567. VAT GB 987 6543 21"),
      "Fabrikam Supplies Ltd"
    )
    assert.isNull(read("Thank you for your order", "Amtsgericht Berlin HRB 123456"))
    // Nor a label's line, a sentence or a parent company's line: a bank, an agent, a group is not the issuer.
    const bank = "Bankverbindung: Commerzbank AG, IBAN DE02 1203 0000 0000 2020 51 · Amtsgericht Berlin HRB 12345"
    assert.isNull(read(bank))
    assert.isNull(read("Paiement par virement à BNP Paribas SA, RCS Paris 662 042 449"))
    assert.isNull(read("Ein Unternehmen der Beispiel Holding AG, Amtsgericht München HRB 99999"))
    // Columns of a footer, the register's entry beside the name: the name is not taken apart from them.
    const columns: ReadonlyArray<Cell> = [
      [40, "Musterhandel GmbH"],
      [200, "Amtsgericht Berlin HRB 12345"],
      [400, "Commerzbank AG"]
    ]
    const rows = [...top.map(row), { y: 770, cells: columns }]
    assert.isNull(issuerOfRows(rows))
  })

  it("a web or mail address is no letterhead's name, its `co.` no company's", () => {
    const footer = "GadgetZone Ltd · 5 Park Row · Leeds LS1 5HD · sales@gadgetzone.co.uk"
    const rows = [
      { y: 40, cells: [[40, "www.gadgetzone.co.uk"]] as ReadonlyArray<Cell> },
      { y: 56, cells: [[300, "VAT Invoice"]] as ReadonlyArray<Cell> },
      { y: 72, cells: [[40, "Invoice number: GZ-UK-88213"]] as ReadonlyArray<Cell> },
      { y: 780, cells: [[40, footer]] as ReadonlyArray<Cell> }
    ]
    assert.strictEqual(issuerOfRows(rows), "GadgetZone Ltd")
    assert.isNull(issuerOf("John Carter Photography", "12 Mill Lane, Bristol BS1 5QT", "john@cartershots.co.uk"))
    assert.isNull(issuerOf("WWW.SHOPNOW.COM.MY", "TAX INVOICE"))
  })

  it("a plain letterhead name spelled as the page's web address is marked by it; a mail address marks none", () => {
    const invoice = (...head: ReadonlyArray<string>) =>
      issuerOf(...head, "INVOICE", "Invoice No: 2024-017", "Bill to:", "Northwind Traders", "1 Harbour Road, Leeds")
    const street = "22 Canal Street, Manchester M1 3HE"
    assert.strictEqual(invoice("BLUEWAVE DESIGN", street, "www.bluewave-design.co.uk"), "BLUEWAVE DESIGN")
    assert.strictEqual(invoice("Bluewave", street, "https://bluewave.io"), "Bluewave")
    // Another name, a slogan, or a mail address (a customer's is printed in its block): no mark.
    assert.isNull(invoice("Jane Smith", street, "www.bluewave.io"))
    assert.isNull(invoice("Creative studio for brands", street, "www.bluewave.io"))
    assert.isNull(invoice("Bluewave Design", street, "hello@bluewavedesign.com"))
  })

  it("a legal form alone in its cell before the recipient's label ends the name before it (OCR's wide gap)", () => {
    const rows: ReadonlyArray<ReadonlyArray<Cell>> = [
      [[330, "FACTURE"]],
      [
        [53, "Bâtiment Boulangerie"],
        [165, "SA"],
        [330, "Facturé à"]
      ],
      beside("111 Lefèvre allée", "Garage Atelier SAS", 330),
      beside("50862 Lyon", "52 Imprimerie chemin", 330)
    ]
    assert.strictEqual(issuerOfRows(rows), "Bâtiment Boulangerie SA")
    // A name of its own in the next cell is no form to join: the business is the one with the form.
    const two: ReadonlyArray<ReadonlyArray<Cell>> = [
      [[330, "FACTURE"]],
      [
        [53, "Jean Martin"],
        [130, "Atelier Martin SARL"],
        [330, "Facturé à"]
      ],
      beside("111 rue Lefèvre", "Garage Atelier SAS", 330)
    ]
    assert.strictEqual(issuerOfRows(two), "Atelier Martin SARL")
  })

  it("a legal form alone under a plain line marks it before a shop word further down does", () => {
    const rows = ["FRUTAS HERMANOS GARCÍA", "C.B.", "Mercado Central, puesto 14", "46001 Valencia", "CIF E46123456"]
    assert.strictEqual(issuerOf(...rows), "FRUTAS HERMANOS GARCÍA C.B.")
    // A name's words with the form are no form alone: the title over them is no name.
    assert.strictEqual(
      issuerOf("TAX INVOICE", "SUNRISE TRADING SDN BHD", "NO 5 JALAN SS2/4"),
      "SUNRISE TRADING SDN BHD"
    )
  })

  it("a label with its words again in brackets (Buyer (Bill to)) opens the buyer's block: no issuer of it", () => {
    const rows = [
      beside("Shree Ganesh Agencies", "Invoice No.", 330),
      beside("12, MG Road, Shivaji Nagar", "SGT/2024-25/0412", 330),
      row("Pune - 411005"),
      row("Buyer (Bill to)"),
      row("Patil Hardware Stores"),
      row("Station Road, Satara - 415001")
    ]
    assert.isNull(issuerOfRows(rows))
    assert.isNull(address(layout(document([page(1, rows)])))?.text ?? null)
    assert.strictEqual(issuerOf("Shree Ganesh Traders", "12, MG Road", "Buyer (Bill to)"), "Shree Ganesh Traders")
  })

  it("a title word with a label word OCR misread (Datun factuur) is a label, not the title that ends a letterhead", () => {
    const right = (text: string): ReadonlyArray<Cell> => [[330, text]]
    const rows = [
      right("FACTUUR"),
      right("Nummer"),
      right("2784/69898"),
      right("Datun factuur"),
      right("10.06.20"),
      beside("Bouw Installatietechniek B.V", "Aan:", 330),
      beside("Techniekweg 59", "Transport Noord B.V.", 330)
    ]
    assert.strictEqual(issuerOfRows(rows), "Bouw Installatietechniek B.V")
  })

  it("the owner named under a plain line (Inh. Peter Holzmann, Prop. J. Smith) marks it as the trading name", () => {
    const rows = ["Schreinerei Holzmann", "Inh. Peter Holzmann", "Waldweg 3", "83022 Rosenheim", "Tel. 08031 12345"]
    assert.strictEqual(issuerOf(...rows), "Schreinerei Holzmann")
    assert.strictEqual(addressOf(rows), "Waldweg 3 83022 Rosenheim")
    assert.strictEqual(
      issuerOf("Harbour View Fish Bar", "Prop. J. Smith", "4 Quay Road", "Whitby YO21 1DH"),
      "Harbour View Fish Bar"
    )
    // A word that opens as the label does labels no owner.
    assert.isNull(issuerOf("Harbour View", "Inhalt der Lieferung", "4 Quay Road", "Whitby YO21 1DH"))
  })

  it("a letterhead's name goes on with its share capital: the name ends at its legal form", () => {
    const rows = ["BOULANGERIE DUPAIN SARL au capital de 8 000 €", "14 place du Marché 33000 Bordeaux", "Facture"]
    assert.strictEqual(issuerOf(...rows), "BOULANGERIE DUPAIN SARL")
  })

  it("the business cheques are made out to, when no letterhead or footer names one", () => {
    const rows = (line: string) => ["INVOICE", "Invoice #: 20931", "Bill To:", "Jane Smith", line, "Thank you!"]
    const english = "Please make all checks payable to Brightline Web Services Inc."
    assert.strictEqual(issuerOf(...rows(english)), "Brightline Web Services Inc.")
    assert.strictEqual(issuerOf(...rows("Chèques à l'ordre de Atelier Martin SARL")), "Atelier Martin SARL")
    assert.strictEqual(issuerOf(...rows("Cheques a la orden de Reformas Gómez S.L.")), "Reformas Gómez S.L.")
    // A name no legal form ends is no business's for sure.
    assert.isNull(issuerOf(...rows("Please make all checks payable to John Carter")))
    // An invoice made out to someone names its customer.
    assert.isNull(issuerOf(...rows("This invoice is made out to Northwind Traders Ltd")))
  })

  it("a Dutch postcode's letters are no legal form (1400 SB, 1012 BV); a line holding a date is no name", () => {
    assert.isNull(
      issuerOf("Verkoopfactuur L-7696-077", "Installatietechniekstraat 85", "DATUM 20 dec 2024 1400 SB Eindhoven")
    )
    assert.isNull(issuerOf("Jansen Installatie", "Kerkstraat 1", "1012 BV AMSTERDAM", "FACTUUR"))
    assert.strictEqual(
      issuerOf("Jansen Installatie B.V.", "Kerkstraat 1", "1012 BV Amsterdam"),
      "Jansen Installatie B.V."
    )
    // A date's cells run into a name's: no name (the three had been given as one).
    const dated = [
      [
        [40, "DATUM"],
        [150, "20 dec 2024"],
        [300, "Schmidt GmbH"]
      ] as ReadonlyArray<Cell>
    ]
    assert.isNull(issuerOfRows([row("RECHNUNG"), ...dated]))
  })

  it("the holder of the account to pay into, when no letterhead or footer names one", () => {
    const rows = (...lines: ReadonlyArray<string>) => ["INVOICE", "Invoice #: 20931", "Total due 120,00", ...lines]
    assert.strictEqual(issuerOf(...rows("Kontoinhaber: Muster Software GmbH")), "Muster Software GmbH")
    const cuenta = "Titular de la cuenta: Suministros Norte, S.L."
    assert.strictEqual(issuerOf(...rows(cuenta, "IBAN ES91 2100 0418 4502 0005 1332")), "Suministros Norte, S.L.")
    assert.strictEqual(issuerOf(...rows("Remit To:", "Acme Widgets LLC", "PO Box 123")), "Acme Widgets LLC")
    // In a cell beside its label, with the account's other details in the row.
    const account: ReadonlyArray<Cell> = [
      ...beside("Account name:", "Northwind Design Ltd", 150),
      [400, "Sort code: 12-34"]
    ]
    assert.strictEqual(issuerOfRows([...rows().map(row), account]), "Northwind Design Ltd")
    // The beneficiary's bank is no payee; a holder no legal form ends is no business's for sure.
    assert.isNull(issuerOf(...rows("Beneficiary bank: Chase Bank N.A.")))
    assert.isNull(issuerOf(...rows("Kontoinhaber: Max Mustermann")))
  })

  it("another party's label under the address ends it: the lines after it are that party's", () => {
    const rows = ["From:", "Fabrikam Inc.", "200 Main St, Chicago, IL 60601", "To:", "Contoso Ltd", "9 Dock Rd"]
    assert.strictEqual(addressOf([...rows, "Hull HU1 1AA", "INVOICE 4471"]), "200 Main St, Chicago, IL 60601")
    assert.isNull(addressOf(["Fabrikam Inc.", "Bill to:", "Contoso Ltd", "9 Dock Rd, Hull HU1 1AA", "Tel 01482 0000"]))
  })

  it("an address whose last line the contact line shares: … SELANGOR. TEL: 03-1234567", () => {
    const name = ["KEDAI ABC SDN BHD", "(123456-A)"]
    assert.strictEqual(
      addressOf([...name, "NO 5, JALAN BESAR, 43000 KAJANG, SELANGOR. TEL: 03-1234567", "TAX INVOICE"]),
      "NO 5, JALAN BESAR, 43000 KAJANG, SELANGOR."
    )
    assert.strictEqual(
      addressOf([...name, "NO 5, JALAN BESAR,", "43000 KAJANG, SELANGOR. TEL: 03-1234567", "TAX INVOICE"]),
      "NO 5, JALAN BESAR, 43000 KAJANG, SELANGOR."
    )
    // What comes before the contact must still end as an address does.
    assert.isNull(addressOf([...name, "NO 5, JALAN BESAR, TEL: 03-1234567", "TAX INVOICE"]))
  })

  it("no address under a line no legal form or shop word marks as a name", () => {
    const rows = ["Factuurnr. Datum", "Factuuradres", "Jansenweg 106", "5634 DG Rotterdam", "KvK 12345678"]
    assert.isNull(addressOf(rows))
    assert.strictEqual(
      addressOf(["Smit Groothandel BV", "Jansenweg 106", "5634 DG Rotterdam", "KvK 12345678"]),
      "Jansenweg 106 5634 DG Rotterdam"
    )
  })

  it("a letterhead with no name (a logo's): the street line heading its column, down to its tax or contact line", () => {
    const rowsOf = (...rows: ReadonlyArray<ReadonlyArray<Cell>>) => address(layout(document([page(1, rows)])))?.text
    const logo = (title: ReadonlyArray<Cell>) =>
      rowsOf(
        title,
        beside("Número de factura: Q 07524", "Avda. del Sur 197", 330),
        beside("Fecha: 02/09/2021", "02752 Zaragoza", 330),
        beside("Cliente: 3261", "CIF: B22316525", 330),
        row("Datos del cliente"),
        row("Distribuciones Ibérica S.A."),
        row("Calle Norte 224"),
        row("52142 Málaga")
      )
    assert.strictEqual(logo(row("FACTURA")), "Avda. del Sur 197 02752 Zaragoza")
    assert.strictEqual(logo([[330, "FACTURA COMPLETA"]]), "Avda. del Sur 197 02752 Zaragoza")
    // A name no legal form marks over it (a person's trade), or a label: not a letterhead with no name.
    assert.isUndefined(logo([[330, "Jane Doe Design"]]))
    assert.isUndefined(logo([[330, "Remitente:"]]))
    // A block nothing closes (the items follow) is no address to vouch for.
    assert.isUndefined(rowsOf(row("FACTURA"), row("Avda. del Sur 197"), row("02752 Zaragoza"), row("Tornillos 4,00")))
    // A German street's compound spelled with `ß` (`Schneiderstraße`) is a street as `…strasse` is.
    const german = rowsOf(
      row("Rechnung (Original)"),
      [[330, "Schneiderstraße 202"]],
      beside("Rechnungs-Nr. D 75404", "08730 Stuttgart", 330),
      beside("Rechnungsdatum 01.10.2019", "USt-IdNr. DE289859820", 330)
    )
    assert.strictEqual(german, "Schneiderstraße 202 08730 Stuttgart")
  })

  it("Portuguese courtesy titles and Adquirente open the buyer's block: its name is not the issuer", () => {
    for (const label of ["Exmo.(s) Sr.(s)", "Adquirente", "Exmo. Sr."])
      assert.isNull(issuerOf("FATURA", "Rua Ferreira 14", label, "Padaria Lusitana Lda."), label)
  })

  it("a recipient's label with its plural in brackets (Señor(es):) opens the buyer's block: never the issuer", () => {
    // The seller's VAT condition under its name marks it.
    const seller = ["LA CASA DEL TORNILLO", "Av. San Martín 456 - Rosario", "IVA RESPONSABLE INSCRIPTO"]
    for (const label of ["Señor(es): CLIENTE EJEMPLO S.A.", "Cliente(s): CLIENTE EJEMPLO S.A."]) {
      assert.strictEqual(issuerOf(...seller, label, "Domicilio: Av. Corrientes 1234"), seller[0], label)
      assert.isNull(issuerOf(...seller.slice(0, 2), label, "Domicilio: Av. Corrientes 1234"), label)
    }
    assert.strictEqual(
      issuerOf("Distribuidora Norte S.R.L.", ...seller.slice(1), "Señor(es): CLIENTE EJEMPLO S.A."),
      "Distribuidora Norte S.R.L."
    )
  })

  it("opening hours close the address: an address has no time of day", () => {
    const head = ["ABC TRADING SDN BHD", "NO.12, JALAN SS 2/3,", "47300 PETALING JAYA, SELANGOR"]
    for (const hours of ["OPEN DAILY 10AM - 10PM", "Mo-Fr 8-19h", "Horario 9:00-14:00", "Öffnungszeiten 8 - 20 Uhr"])
      assert.strictEqual(
        addressOf([...head, hours, "TAX INVOICE"]),
        "NO.12, JALAN SS 2/3, 47300 PETALING JAYA, SELANGOR",
        hours
      )
  })
})
