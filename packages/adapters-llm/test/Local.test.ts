import { assert, describe, it } from "@effect/vitest"
import type { Document, Skill } from "@legible/core"
import { Fixtures } from "@legible/testkit"
import { Effect } from "effect"
import * as Local from "../src/Local.js"
import { type Cell, document, ITEMS, invoicePage, page, request } from "./support/documents.js"

const field = (
  name: string,
  type: Skill.SkillField["type"],
  description = "",
  extra: Partial<Skill.SkillField> = {}
): Skill.SkillField => ({ name, order: 1, type, isList: false, description, aliases: [], ...extra })

/** A row of two cells: `left` at `x`, `right` at `at` (a label and its value, or two columns). */
const row2 = (x: number, left: string, at: number, right: string): ReadonlyArray<readonly [number, string]> => [
  [x, left],
  [at, right]
]

type Rows = Parameters<typeof page>[1]

const extract = (fields: ReadonlyArray<Skill.SkillField>, rows: Rows) =>
  Local.extractFields(fields, document([page(1, rows)]))

describe("Local: the Spanish invoice", () => {
  it("finds every field of the invoice skill: labels right and below, the table, the catalog key", () => {
    assert.deepStrictEqual(Local.extractFields(Fixtures.skill().fields, document([invoicePage()])), {
      numero: "F-2026/0042",
      fecha: "12/03/2026",
      emisor: "Suministros Acme S.L.",
      total: "1.385,45",
      lineas: [
        { descripcion: "Papel A4 80 g", cantidad: "10", importe: "45,00" },
        // The description wrapped onto a second line belongs to the item above.
        { descripcion: "Tóner negro alta capacidad", cantidad: "2", importe: "1.100,00" }
      ],
      proveedor: { cif: "B12345674" }
    })
  })

  it.effect("as a FieldExtractor: serves `local` only, zero tokens, model local", () =>
    Effect.gen(function* () {
      const extractor = yield* Local.make
      assert.isTrue(extractor.supports("local"))
      assert.isFalse(extractor.supports("gpt-4o-mini"))
      const { usage, values } = yield* extractor.extract(
        request(Fixtures.skill(), document([invoicePage()]), { model: "local" })
      )
      assert.strictEqual(values.numero, "F-2026/0042")
      assert.deepStrictEqual(
        { ...usage, duration: 0 },
        { tokens_consumidos: 0, prompt_tokens: 0, response_tokens: 0, duration: 0, model: "local" }
      )
      assert.isAtLeast(usage.duration, 0)
    })
  )
})

describe("Local: labels", () => {
  it("accent-, case- and (on OCR's pages) slip-tolerant labels from aliases; the value to the right", () => {
    const fields = [field("liquidacion", "float", "", { aliases: ["Importe a liquidar"] })]
    assert.deepStrictEqual(extract(fields, [row2(40, "IMPORTE A LIQUIDAR:", 300, "10,00")]), { liquidacion: "10,00" })
    const slipped = page(1, [[[40, "lMPORTE A LIQUlDAR: 7,50"]]])
    assert.deepStrictEqual(Local.extractFields(fields, document([{ ...slipped, source: "ocr" }])), {
      liquidacion: "7,50"
    })
    // A text layer's words are as printed: a word a slip away from a label's is another word.
    assert.deepStrictEqual(extract(fields, [[[40, "lMPORTE A LIQUlDAR: 7,50"]]]), { liquidacion: null })
    const fine = [field("infraccion", "string", "Hecho denunciado")]
    assert.deepStrictEqual(extract(fine, [[[40, "Location: Oxford Street W1"]]]), { infraccion: null })
    // On OCR's page, a label read word for word before one a slip away (`Location` for `violation`).
    const notice = page(1, [[[40, "Location: Oxford Street W1"]], [[40, "Contravention: Parked on a yellow line"]]])
    assert.deepStrictEqual(Local.extractFields(fine, document([{ ...notice, source: "ocr" }])), {
      infraccion: "Parked on a yellow line"
    })
  })

  it("the value below its label (column headers with values under them)", () => {
    const fields = [field("fecha", "date"), field("pedido", "string", "Número de pedido")]
    const rows = [row2(40, "Fecha", 200, "Número de pedido"), row2(40, "12 de marzo de 2026", 200, "PED-7781")] as const
    assert.deepStrictEqual(extract(fields, rows), { fecha: "12 de marzo de 2026", pedido: "PED-7781" })
  })

  it("labels from the field's name in any case style", () => {
    const fields = [field("fechaVencimiento", "date"), field("forma_pago", "string")]
    const rows = [
      [[40, "Fecha vencimiento: 30/04/2026"]],
      [[40, "Forma de pago:"]],
      [[40, "Forma pago: Transferencia"]]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), { fechaVencimiento: "30/04/2026", forma_pago: "Transferencia" })
  })

  it("a label that goes on to its colon: the value after the colon (Nombre y apellidos: …)", () => {
    const fields = [field("nombre", "string", "Nombre completo"), field("patient", "string", "Patient name")]
    const rows = [[[40, "Nombre y apellidos: Juan Pérez García"]], [[40, "Patient full name: Mary Johnson"]]] as const
    assert.deepStrictEqual(extract(fields, rows), { nombre: "Juan Pérez García", patient: "Mary Johnson" })
  })

  it("a date of a kind of its own (birth, start): the date its label names, never the form's date", () => {
    const fields = [field("nacimiento", "date", "Fecha de nacimiento"), field("fecha", "date", "Fecha")]
    const rows = [[[40, "Fecha: 12/03/2024"]], [[40, "Fecha de nacimiento: 01/02/1980"]]] as const
    assert.deepStrictEqual(extract(fields, rows), { nacimiento: "01/02/1980", fecha: "12/03/2024" })
    const birth = [field("date_of_birth", "date")]
    assert.deepStrictEqual(extract(birth, [[[40, "Date: 03/12/2024"]], [[40, "Date of birth 04/12/1975"]]]), {
      date_of_birth: "04/12/1975"
    })
    // Its abbreviation, whatever words the field's name gives (DOB for date_of_birth, geb. for geburtsdatum).
    assert.deepStrictEqual(
      extract(birth, [[[40, "Date: 03/12/2024"]], [[40, "Patient: Mary Johnson  DOB: 04/12/1975"]]]),
      {
        date_of_birth: "04/12/1975"
      }
    )
    assert.deepStrictEqual(
      extract([field("geburtsdatum", "date")], [[[40, "Datum: 03.12.2024"]], [[40, "geb. 04.12.1975"]]]),
      {
        geburtsdatum: "04.12.1975"
      }
    )
    // A payment's and an operation's date by their labels; none printed, none given (not the invoice's).
    const dated = [field("fecha_pago", "date", "Fecha de pago"), field("fecha_operacion", "date")]
    const invoice = [[[40, "Fecha: 12/03/2024"]], [[40, "Fecha de pago: 20/03/2024"]]] as const
    assert.deepStrictEqual(extract(dated, invoice), { fecha_pago: "20/03/2024", fecha_operacion: null })
    // No date of its kind printed: none, not the form's date; nor another kind's of the same bucket (a start date).
    assert.deepStrictEqual(extract(birth, [[[40, "Date: 03/12/2024"]], [[40, "Start date: 01/04/2024"]]]), {
      date_of_birth: null
    })
  })

  it("a period's start and end: the range's side, or the label's (Desde, Hasta) a field names", () => {
    const fields = [field("periodo_inicio", "date"), field("periodo_fin", "date", "Fin del periodo")]
    const range = [[[40, "Periodo de facturación: del 01/02/2024 al 29/02/2024"]]] as const
    assert.deepStrictEqual(extract(fields, range), { periodo_inicio: "01/02/2024", periodo_fin: "29/02/2024" })
    const afip = [[[40, "Período Facturado Desde: 01/06/2023  Hasta: 30/06/2023"]]] as const
    assert.deepStrictEqual(extract(fields, afip), { periodo_inicio: "01/06/2023", periodo_fin: "30/06/2023" })
  })

  it("an amount labelled on a row with other labels: the one after its own label (Bultos: 3  Peso: 24,5 kg)", () => {
    const fields = [field("bultos", "integer", "Número de bultos"), field("peso", "float", "Peso (kg)")]
    assert.deepStrictEqual(extract(fields, [row2(40, "Bultos: 3", 200, "Peso: 24,5 kg")]), {
      bultos: "3",
      peso: "24,5"
    })
  })

  it("a net figure the totals block does not print: the field's own label (neto, Líquido a percibir)", () => {
    const fields = [field("neto", "float", "Líquido a percibir")]
    const rows = [row2(40, "TOTAL DEVENGADO", 300, "1.570,00"), row2(40, "LÍQUIDO A PERCIBIR", 300, "1.280,33")]
    assert.deepStrictEqual(extract(fields, rows), { neto: "1.280,33" })
  })

  it("another document's number a field's description names (Número de albarán): that document's, by its noun", () => {
    const rows = [
      [[40, "Factura Nº F-2024-001"]],
      [[40, "Nº Albarán: ALB-2024-0456"]],
      [[40, "Order No. 4471"]]
    ] as const
    const albaran = [field("numero", "string", "Número de albarán")]
    assert.deepStrictEqual(extract(albaran, rows), { numero: "ALB-2024-0456" })
    assert.deepStrictEqual(extract([field("order_number", "string")], rows), { order_number: "4471" })
    // The invoice's number, whatever other document its description mentions.
    const factura = [field("numero", "string", "Número de la factura, no el del pedido")]
    assert.deepStrictEqual(extract(factura, rows), { numero: "F-2024-001" })
  })

  it("a header row's labels give the values under them; a number compound names the number (Rechnungsnummer)", () => {
    const fields = [field("kundennr", "string", "Kundennummer"), field("nummer", "string", "Rechnungsnummer")]
    const header: ReadonlyArray<Cell> = [
      [40, "Rechnungsdatum"],
      [150, "Lieferdatum"],
      [260, "Kundennr."],
      [370, "Rechnungsnr."]
    ]
    const values: ReadonlyArray<Cell> = [
      [40, "12.03.2024"],
      [150, "10.03.2024"],
      [260, "K-4471"],
      [370, "R-2024-118"]
    ]
    assert.deepStrictEqual(extract(fields, [header, values]), { kundennr: "K-4471", nummer: "R-2024-118" })
  })

  it("a tax id its field's words name (tva_intracom: N° TVA, not SIRET); Italy's codice fiscale; Spett.le X", () => {
    const fields = [
      field("siret", "string"),
      field("tva_intracom", "string", "Numéro de TVA intracommunautaire"),
      field("codice_fiscale_cliente", "string"),
      field("cliente", "string")
    ]
    const rows = [
      [[40, "SIRET : 732 829 320 00074"]],
      [[40, "N° TVA : FR 44 732829320"]],
      [[40, "Spett.le Bianchi Luca"]],
      [[40, "Codice fiscale: RSSMRA85T10A562S"]]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      siret: "732 829 320 00074",
      tva_intracom: "FR 44 732829320",
      codice_fiscale_cliente: "RSSMRA85T10A562S",
      cliente: "Bianchi Luca"
    })
  })

  it("how a till's slip was paid, where no label says: the tender row under the total; its tax summary's rate", () => {
    const fields = [field("forma_pago", "string", "Forma de pago"), field("tipo_iva", "float", "Tipo de IVA")]
    const rows = [
      row2(40, "LECHE ENTERA", 300, "5,40"),
      row2(40, "TOTAL (€)", 300, "5,40"),
      row2(40, "TARJETA BANCARIA", 300, "5,40"),
      [
        [40, "IVA"],
        [120, "BASE IMPONIBLE (€)"],
        [300, "CUOTA (€)"]
      ],
      [
        [40, "10%"],
        [120, "4,91"],
        [300, "0,49"]
      ]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), { forma_pago: "TARJETA BANCARIA", tipo_iva: "10" })
    const italian = [row2(40, "TOTALE COMPLESSIVO", 300, "5,88"), row2(40, "PAGAMENTO CONTANTE", 300, "10,00")]
    assert.deepStrictEqual(extract([field("payment_method", "string")], italian), { payment_method: "CONTANTE" })
    // A word of paying before the means (`Paid by VISA`, `Gegeben EC-Karte`): the means alone.
    for (const [tender, means] of [
      ["Paid by VISA", "VISA"],
      ["Gegeben EC-Karte", "EC-Karte"]
    ] as const)
      assert.deepStrictEqual(
        extract(
          [field("forma_pago", "string", "Forma de pago")],
          [...italian.slice(0, 1), row2(40, tender, 300, "5,88")]
        ),
        { forma_pago: means }
      )
    // A tender's word in a line above the total buys something (a gift card): no payment.
    const gift = [row2(40, "TARJETA REGALO", 300, "20,00"), row2(40, "TOTAL", 300, "20,00")]
    assert.deepStrictEqual(extract([field("payment_method", "string")], gift), { payment_method: null })
  })

  it("a label that addresses the reader (Ihre USt-IdNr.) is the recipient's; the issuer's name by its party word", () => {
    const fields = [
      field("ust_id_kunde", "string", "USt-IdNr. des Kunden"),
      field("ust_id", "string", "USt-IdNr. des Rechnungsstellers"),
      field("emitente", "string", "Nome do emitente")
    ]
    const rows = [
      [[40, "Muster Software GmbH"]],
      [[40, "USt-IdNr.: DE123456788"]],
      [[40, "Rechnung Nr. 2024-118"]],
      [[40, "Ihre USt-IdNr.: DE811569869"]]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      ust_id_kunde: "DE811569869",
      ust_id: "DE123456788",
      emitente: "Muster Software GmbH"
    })
  })

  it("a list of e-mails or phones: every one printed, once, in reading order; no account's figures", () => {
    const fields = [
      field("emails", "string", "Correos electrónicos", { isList: true }),
      field("telefonos", "string", "", { isList: true })
    ]
    const rows = [
      [[40, "Tel: 0113 496 0000   Fax: 0113 496 0001"]],
      [[40, "Email: sales@acme.example  accounts@acme.example"]],
      [[40, "IBAN: GB29 NWBK 6016 1331 9268 19"]],
      [[40, "Contact: sales@acme.example"]]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      emails: ["sales@acme.example", "accounts@acme.example"],
      telefonos: ["0113 496 0000", "0113 496 0001"]
    })
  })

  it("a number word alone asks for the document's number; the reader's own label (Su referencia); the title", () => {
    const fields = [
      field("numero", "string", "Número"),
      field("referencia", "string", "Referencia del cliente"),
      field("tipo_documento", "string", "Tipo de documento")
    ]
    const rows = [
      [[40, "Muster GmbH"]],
      [[40, "GUTSCHRIFT"]],
      [[40, "Gutschrift Nr. G-2024-011"]],
      [[40, "Su referencia: PED-7781"]],
      [[40, "Total invoice EUR"]]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      numero: "G-2024-011",
      referencia: "PED-7781",
      tipo_documento: "GUTSCHRIFT"
    })
    // A total's label is no title.
    assert.deepStrictEqual(
      extract([fields[2] as Skill.SkillField], [[[40, "Acme Ltd"]], [[40, "Total invoice EUR"]]]),
      {
        tipo_documento: null
      }
    )
  })

  it("the money handed over and the change by their own figures; an amount paid is the total", () => {
    const fields = [
      field("entregado", "float", "Importe entregado"),
      field("cambio", "float", "Cambio devuelto"),
      field("pagado", "float", "Importe pagado")
    ]
    const rows = [
      row2(40, "LECHE", 300, "1,20"),
      row2(40, "PAN", 300, "0,80"),
      row2(40, "TOTAL", 300, "2,00"),
      row2(40, "EFECTIVO", 300, "5,00"),
      row2(40, "CAMBIO", 300, "3,00")
    ]
    assert.deepStrictEqual(extract(fields, rows), { entregado: "5,00", cambio: "3,00", pagado: "2,00" })
  })

  it("a party's phone in its block: the customer's beside the supplier's", () => {
    const fields = [field("telefono_cliente", "string", "Teléfono del cliente"), field("telefono_proveedor", "string")]
    const rows = [
      row2(40, "PROVEEDOR", 300, "CLIENTE"),
      row2(40, "Suministros Norte, S.L.", 300, "Papelería Globex S.A."),
      row2(40, "Tel: 912 345 678", 300, "Tel: 934 567 890")
    ]
    assert.deepStrictEqual(extract(fields, rows), {
      telefono_cliente: "934 567 890",
      telefono_proveedor: "912 345 678"
    })
    // With no label, the first one printed out of the customer's block; never a tax id's figures.
    const unlabelled = [
      [[40, "Acme Widgets LLC"]],
      [[40, "SIRET 732 829 320 00074"]],
      [[40, "billing@acme.example   (415) 555-0100"]]
    ] as const
    assert.deepStrictEqual(extract([field("vendor_phone", "string", "Vendor phone")], unlabelled), {
      vendor_phone: "(415) 555-0100"
    })
  })

  it("a billing and a delivery address side by side: each block's lines under its label, the name left off", () => {
    const fields = [
      field("adresse_facturation", "string", "Adresse de facturation"),
      field("adresse_livraison", "string", "Adresse de livraison")
    ]
    const rows: Rows = [
      [[40, "Dupont Rénovation SARL"]],
      [[40, "12 rue de la Paix 75002 Paris"]],
      row2(40, "Adresse de facturation", 300, "Adresse de livraison"),
      row2(40, "Martin SAS", 300, "Martin SAS - Entrepôt"),
      row2(40, "5 avenue Foch", 300, "ZI Nord, 3 rue des Lilas"),
      row2(40, "69006 Lyon", 300, "69120 Vaulx-en-Velin")
    ]
    assert.deepStrictEqual(extract(fields, rows), {
      adresse_facturation: "5 avenue Foch 69006 Lyon",
      adresse_livraison: "ZI Nord, 3 rue des Lilas 69120 Vaulx-en-Velin"
    })
  })

  it("nothing is invented: a field the document does not show is null, a list without a table is empty", () => {
    const fields = [
      field("iban", "string", "Cuenta bancaria"),
      field("pedidos", "object", "", {
        isList: true,
        fields: [field("referencia", "string"), field("unidades", "integer")]
      })
    ]
    assert.deepStrictEqual(Local.extractFields(fields, document([invoicePage()])), { iban: null, pedidos: [] })
  })
})

describe("Local: the words a reader read from a text page's pictures (a logo)", () => {
  // A text-layer page whose first row a reader read from a picture, with its OCR confidence.
  const withLogo = (logo: string, rows: Rows) => {
    const p = page(1, [[[40, logo]], ...rows])
    const read = (w: Document.ReadWord) => (w.y0 === 40 ? { ...w, confidence: 0.81, pictured: true as const } : w)
    return document([{ ...p, lines: p.lines.map((l) => ({ words: l.words.map(read) })) }])
  }
  const issuer = [field("emisor", "string", "Nombre de la empresa emisora")]
  const sender: Rows = [
    [[40, "Hafenstrasse 12"]],
    [[40, "20457 Hamburg"]],
    [[40, "Tel. 040 123456"]],
    [[40, "RECHNUNG"]]
  ]

  it("a name printed only in the logo, marked by its legal form, where the text gives none", () => {
    assert.deepStrictEqual(Local.extractFields(issuer, withLogo("NORDWIND LOGISTIK GmbH", sender)), {
      emisor: "NORDWIND LOGISTIK GmbH"
    })
    assert.deepStrictEqual(Local.extractFields(issuer, withLogo("NORDWIND LOGISTIK", sender)), { emisor: null })
  })

  it("a logo's brand over the letterhead is no line of it: the text's name, as without the logo", () => {
    // The generated Portuguese invoice a logo was laid over: `PADARIA` (a shop's word) read from the picture on top.
    const rows: Rows = [
      { y: 19, cells: [[58, "PADARIA"]] },
      { y: 43, cells: [[330, "FATURA"]] },
      { y: 99, cells: row2(50, "DATA", 174, "Fatura n.º") },
      { y: 110, cells: row2(50, "26 de janeiro de 2025", 174, "5856/17674") },
      { y: 132, cells: row2(50, "Padaria Atlântico Unipessoal Lda.", 330, "Faturar a:") },
      { y: 152, cells: row2(50, "Praça Oliveira 138", 330, "Padaria Santos Lda.") },
      { y: 164, cells: row2(50, "5033-935 Lisboa", 330, "Av. Silva 69") },
      { y: 176, cells: row2(50, "NIF: PT969531532", 330, "8293-280 Faro") }
    ]
    const p = page(1, rows)
    const read = (w: Document.ReadWord) => (w.y0 === 19 ? { ...w, confidence: 0.73, pictured: true as const } : w)
    const logo = document([{ ...p, lines: p.lines.map((l) => ({ words: l.words.map(read) })) }])
    const fields = [...issuer, field("direccion", "string", "Dirección del emisor")]
    assert.deepStrictEqual(Local.extractFields(fields, logo), {
      emisor: "Padaria Atlântico Unipessoal Lda.",
      direccion: "Praça Oliveira 138 5033-935 Lisboa"
    })
  })
})

describe("Local: a skill written in one language, a document printed in another", () => {
  const line = (text: string): ReadonlyArray<Cell> => [[40, text]]

  it("what the field's words name, as the other languages print it (Room No, Kennzeichen, Closing balance)", () => {
    const stay = [field("habitacion", "string", "Número de habitación"), field("noches", "integer")]
    const folio = [line("Guest Name: Mr John Smith"), row2(40, "Room No: 502", 300, "Nights: 3")]
    assert.deepStrictEqual(extract(stay, folio), { habitacion: "502", noches: "3" })
    assert.deepStrictEqual(extract(stay, ["Zimmer Nr. 31", "Übernachtungen: 4"].map(line)), {
      habitacion: "31",
      noches: "4"
    })
    const car = [field("matricula", "string", "Matrícula del vehículo"), field("kilometros", "integer")]
    assert.deepStrictEqual(extract(car, ["Kennzeichen: BO-AB 123", "Kilometerstand: 48210"].map(line)), {
      matricula: "BO-AB 123",
      kilometros: "48210"
    })
    const supply = [field("cups", "string", "CUPS o punto de suministro"), field("consumo", "float", "Consumo en kWh")]
    assert.deepStrictEqual(
      extract(supply, ["Zählpunkt: DE0001234567890000000000000123456", "Verbrauch: 245 kWh"].map(line)),
      {
        cups: "DE0001234567890000000000000123456",
        consumo: "245"
      }
    )
    // A company's name and an address under the other languages' labels (`Raison sociale`, `Anschrift`).
    const form = [field("razon_social", "string", "Razón social"), field("direccion", "string", "Dirección")]
    const french = [
      "FORMULAIRE D'INSCRIPTION",
      "Raison sociale : Dupont Frères SARL",
      "Adresse : 3 rue Victor Hugo, 69002 Lyon"
    ]
    assert.deepStrictEqual(extract(form, french.map(line)), {
      razon_social: "Dupont Frères SARL",
      direccion: "3 rue Victor Hugo, 69002 Lyon"
    })
    // The longest thing named: a closing balance, not every balance (`Balance brought forward` is the opening one).
    const statement = [
      row2(40, "Balance brought forward", 400, "2,010.55"),
      row2(40, "Closing balance", 400, "4,415.45")
    ]
    assert.deepStrictEqual(extract([field("saldo_final", "float")], statement), { saldo_final: "4,415.45" })
    assert.deepStrictEqual(extract([field("saldo_inicial", "float")], statement), { saldo_inicial: "2,010.55" })
    // A document's title a label's word opens is no value (`GUEST FOLIO`): the guest's name is labelled further on.
    const guest = [field("huesped", "string", "Nombre del huésped")]
    assert.deepStrictEqual(extract(guest, [line("GUEST FOLIO"), ...folio]), { huesped: "Mr John Smith" })
  })

  it("a date of arrival or departure by its label in any language (Fecha de entrada, Arrival, Check-out, Abreise)", () => {
    const fields = [field("fecha", "date"), field("fecha_entrada", "date"), field("fecha_salida", "date")]
    const spanish = ["Fecha de entrada: 12/08/2026", "Fecha de salida: 16/08/2026", "Fecha: 16/08/2026"].map(line)
    assert.deepStrictEqual(extract(fields, spanish), {
      fecha: "16/08/2026",
      fecha_entrada: "12/08/2026",
      fecha_salida: "16/08/2026"
    })
    const english = ["Arrival: 03 Nov 2026   Departure: 06 Nov 2026"].map(line)
    assert.deepStrictEqual(extract(fields, english), {
      fecha: null,
      fecha_entrada: "03 Nov 2026",
      fecha_salida: "06 Nov 2026"
    })
    const checked = ["Date: 09.10.2026", "Check-in: 05.10.2026", "Check-out: 09.10.2026"].map(line)
    assert.deepStrictEqual(extract([field("check_in", "date"), field("check_out_date", "date")], checked), {
      check_in: "05.10.2026",
      check_out_date: "09.10.2026"
    })
    // None printed: none, not the invoice's date.
    assert.deepStrictEqual(extract([field("fecha_salida", "date")], ["Datum: 09.10.2026"].map(line)), {
      fecha_salida: null
    })
    // A word of the field's name no date's label has, in a date's label, names it (`Fecha de la consulta`).
    const visit = ["Fecha: 05/11/2026", "Fecha de la consulta: 03/11/2026"].map(line)
    assert.deepStrictEqual(extract([field("fecha_consulta", "date"), field("fecha", "date")], visit), {
      fecha_consulta: "03/11/2026",
      fecha: "05/11/2026"
    })
  })

  it("a journey's date, or a notice's: labelled so, else the document's own; where it starts and ends", () => {
    const fields = [
      field("empresa", "string", "Empresa de transporte"),
      field("fecha_viaje", "date"),
      field("origen", "string"),
      field("destino", "string")
    ]
    const ticket = [
      line("RENFE VIAJEROS S.M.E., S.A."),
      line("Avda. Pío XII 110, 28036 Madrid"),
      line("Fecha: 14/12/2026"),
      row2(40, "From: London Heathrow (LHR)", 300, "To: Madrid (MAD)")
    ]
    assert.deepStrictEqual(extract(fields, ticket), {
      empresa: "RENFE VIAJEROS S.M.E., S.A.",
      fecha_viaje: "14/12/2026",
      origen: "London Heathrow (LHR)",
      destino: "Madrid (MAD)"
    })
    // A travel agency's invoice: the journey's date is the one labelled so, not the invoice's.
    const invoice = ["Fecha: 01/12/2026", "Fecha del viaje: 20/12/2026"].map(line)
    assert.deepStrictEqual(extract([field("fecha_viaje", "date")], invoice), { fecha_viaje: "20/12/2026" })
    const notice = ["Date of contravention: 14/09/2026", "Date of notice: 16/09/2026"].map(line)
    assert.deepStrictEqual(extract([field("fecha_notificacion", "date"), field("fecha_infraccion", "date")], notice), {
      fecha_notificacion: "16/09/2026",
      fecha_infraccion: "14/09/2026"
    })
  })

  it("a lease's parties, property and rent in English for a Spanish skill", () => {
    const fields = [
      field("arrendador", "string", "Nombre del arrendador"),
      field("arrendatario", "string", "Nombre del inquilino"),
      field("inmueble", "string", "Dirección del inmueble"),
      field("renta", "float", "Renta mensual")
    ]
    const receipt = [
      "RENT RECEIPT",
      "Landlord: Mr Tom Baker",
      "Tenant: Ms Emma Clark",
      "Property address: 12 Elm Road, Oxford OX1 2AB",
      "Monthly rent: £1,150.00"
    ].map(line)
    assert.deepStrictEqual(extract(fields, receipt), {
      arrendador: "Mr Tom Baker",
      arrendatario: "Ms Emma Clark",
      inmueble: "12 Elm Road, Oxford OX1 2AB",
      renta: "1,150.00"
    })
  })

  it("a payslip: pay and deductions a description calls totals are no document's total; a number's label no name", () => {
    const fields = [
      field("trabajador", "string", "Nombre del trabajador"),
      field("salario_bruto", "float", "Total devengado (bruto)"),
      field("deducciones", "float", "Total a deducir"),
      field("liquido", "float", "Líquido a percibir")
    ]
    const payslip = [
      row2(40, "Employee No: 10442", 300, "Employee: John Carter"),
      [
        [40, "Gross pay"],
        [160, "3,440.00"],
        [260, "Total deductions"],
        [420, "826.04"]
      ],
      row2(40, "Net pay", 160, "2,613.96")
    ] as const
    assert.deepStrictEqual(extract(fields, payslip), {
      trabajador: "John Carter",
      salario_bruto: "3,440.00",
      deducciones: "826.04",
      liquido: "2,613.96"
    })
    const nomina = [row2(40, "TOTAL DEVENGADO", 300, "1.770,00"), row2(40, "TOTAL A DEDUCIR", 300, "295,59")]
    assert.deepStrictEqual(extract(fields.slice(1, 3), nomina), { salario_bruto: "1.770,00", deducciones: "295,59" })
  })

  it("an amount by its unit where no label names it (45,20 l; 1,789 EUR/l); a price is not its unit's quantity", () => {
    const fields = [field("litros", "float", "Litros repostados"), field("precio_litro", "float", "Precio por litro")]
    const till = ["ARAL Tankstelle Bochum", "Super E10", "45,20 l x 1,789 EUR/l   80,86 EUR", "Summe EUR 80,86"]
    assert.deepStrictEqual(extract(fields, till.map(line)), { litros: "45,20", precio_litro: "1,789" })
    // Two quantities of the unit: none (which one is the field's, no label says).
    const two = [...till, "12,00 l x 1,899 EUR/l   22,79 EUR"].map(line)
    assert.deepStrictEqual(extract(fields, two), { litros: null, precio_litro: null })
    // A price's words name what it is the price of: a volume's label is no price's.
    const pump = [row2(40, "Volume", 200, "38.12 L"), row2(40, "Price/L", 200, "1.459")]
    assert.deepStrictEqual(extract(fields, pump), { litros: "38.12", precio_litro: "1.459" })
  })

  it("a purchase order: its number, supplier and terms in other languages; its letterhead is the buyer's", () => {
    const fields = [
      field("numero_pedido", "string", "Número de pedido"),
      field("proveedor", "string", "Proveedor"),
      field("fecha_entrega", "date", "Fecha de entrega"),
      field("condiciones_pago", "string", "Condiciones de pago"),
      field("incoterm", "string")
    ]
    const order = [
      "Maschinenbau Huber GmbH",
      "Industriestr. 12, 86150 Augsburg",
      "Bestellung Nr. B-44120   Datum: 02.11.2026",
      "Lieferant: Schrauben Meier KG",
      "Liefertermin: 20.11.2026",
      "Zahlungsbedingungen: 30 Tage netto",
      "Lieferbedingungen: frei Haus"
    ].map(line)
    assert.deepStrictEqual(extract(fields, order), {
      numero_pedido: "B-44120",
      proveedor: "Schrauben Meier KG",
      fecha_entrega: "20.11.2026",
      condiciones_pago: "30 Tage netto",
      incoterm: "frei Haus"
    })
    // No supplier's label on a purchase order: none (the letterhead is the buyer); on an invoice, the letterhead.
    const letterhead = ["GLOBAL PARTS INC.", "500 Industrial Way, Dayton, OH 45402"]
    const po = [...letterhead, "PURCHASE ORDER", "PO Number: PO-2026-0912"].map(line)
    assert.deepStrictEqual(extract(fields.slice(0, 2), po), { numero_pedido: "PO-2026-0912", proveedor: null })
    // Its issuer is the buyer, whatever its supplier's label says (`Vendor:`).
    const issuer = [field("issuer", "string", "Name of the company that issued the document")]
    assert.deepStrictEqual(extract(issuer, [...po, line("Vendor: Precision Tools Ltd")]), {
      issuer: "GLOBAL PARTS INC."
    })
    const invoice = [...letterhead, "INVOICE", "Invoice No: 7781", "PO Number: PO-2026-0912"].map(line)
    assert.deepStrictEqual(extract(fields.slice(0, 2), invoice), {
      numero_pedido: "PO-2026-0912",
      proveedor: "GLOBAL PARTS INC."
    })
  })

  it("an English skill on a Spanish and a German invoice: a tax id is no name; a PO number; how it was paid", () => {
    const fields = [
      field("vendor_tax_id", "string", "Vendor tax ID"),
      field("po_number", "string", "PO number"),
      field("payment_method", "string", "Payment method")
    ]
    const spanish = [
      "Suministros Acme S.L.",
      "CIF: B12345674",
      "Su pedido: PED-7781",
      "TOTAL FACTURA 199,65 €",
      "Forma de pago: Transferencia bancaria"
    ].map(line)
    assert.deepStrictEqual(extract(fields, spanish), {
      vendor_tax_id: "B12345674",
      po_number: "PED-7781",
      payment_method: "Transferencia bancaria"
    })
    const german = ["Elektro Schmidt GmbH", "USt-IdNr.: DE123456789", "Ihre Bestellnr.: 4500123"].map(line)
    assert.deepStrictEqual(extract(fields.slice(0, 2), german), { vendor_tax_id: "DE123456789", po_number: "4500123" })
    // A party named twice in a description (`Cliente o receptor`): its block's name.
    const receptor = [field("receptor", "string", "Cliente o receptor")]
    const letter = ["Elektro Schmidt GmbH · Hauptstr. 5 · 80331 München", "Herrn", "Peter Wagner", "Gartenweg 8"]
    assert.deepStrictEqual(extract(receptor, [...letter, "81377 München", "Rechnung Nr. 2026-1188"].map(line)), {
      receptor: "Peter Wagner"
    })
    // A tax invoice's number is no tax id.
    const tax = [field("tax_invoice_no", "string")]
    assert.deepStrictEqual(extract(tax, ["TAX INVOICE NO: 2026-0042", "GST ID: 001234567890"].map(line)), {
      tax_invoice_no: "2026-0042"
    })
  })

  it("a quote's number by its noun; a description names a thing only where one phrase says all it says", () => {
    const numero = [field("numero", "string", "Número de presupuesto")]
    assert.deepStrictEqual(extract(numero, ["PRESUPUESTO Nº P-2026-118", "Fecha: 02/11/2026"].map(line)), {
      numero: "P-2026-118"
    })
    assert.deepStrictEqual(extract(numero, ["QUOTATION", "Quote No: Q-7713"].map(line)), { numero: "Q-7713" })
    // `Centro médico o clínica` asks for no doctor: `Physician:` labels nothing of it.
    const clinic = [field("centro", "string", "Centro médico o clínica"), field("medico", "string", "Médico")]
    assert.deepStrictEqual(extract(clinic, ["Patient: Mrs Helen Price", "Physician: Dr Alan Moss"].map(line)), {
      centro: null,
      medico: "Dr Alan Moss"
    })
  })

  it("a yes or a no: the field's word after another before its colon; in other languages; a box ticked", () => {
    const fields = [
      field("rectificativa", "boolean", "Es factura rectificativa"),
      field("pagado", "boolean"),
      field("firmado", "boolean")
    ]
    const spanish = ["FACTURA Nº F-2026-0042", "Factura rectificativa: NO", "Pagado: Sí"].map(line)
    assert.deepStrictEqual(extract(fields, spanish), { rectificativa: "NO", pagado: "Sí", firmado: null })
    const english = ["INVOICE No 7781", "Paid: Yes", "Signed: [X]"].map(line)
    assert.deepStrictEqual(extract(fields, english), { rectificativa: null, pagado: "Yes", firmado: "X" })
    // A value that is no yes or no answers nothing; another field's word before one of its own is no label of it.
    assert.deepStrictEqual(extract(fields.slice(1, 2), ["Pagado: 100,00 €"].map(line)), { pagado: null })
    assert.deepStrictEqual(extract([field("cliente", "string")], ["Código cliente: 4471"].map(line)), { cliente: null })
  })

  it("a kind of business the field names (banco, hotel, aseguradora) is the issuer: its name whole", () => {
    const fields = [field("banco", "string", "Nombre del banco"), field("titular", "string")]
    const statement = ["BANCO EJEMPLO, S.A.", "Extracto de cuenta", "Account holder: Mr David Brown"].map(line)
    assert.deepStrictEqual(extract(fields, statement), { banco: "BANCO EJEMPLO, S.A.", titular: "Mr David Brown" })
    // On an invoice the bank is its payment details': labelled, or none (the issuer is no bank).
    const invoice = ["Suministros Acme S.L.", "C/ Mayor 1, 28001 Madrid", "FACTURA Nº F-1", "TOTAL 100,00"].map(line)
    const iban = line("IBAN: ES76 2100 0418 4502 0005 1332")
    assert.deepStrictEqual(extract(fields.slice(0, 1), [...invoice, iban]), { banco: null })
    const named = row2(40, "Banco: Banco Sabadell", 300, "IBAN: ES76 2100 0418 4502 0005 1332")
    assert.deepStrictEqual(extract(fields.slice(0, 1), [...invoice, named]), { banco: "Banco Sabadell" })
    // A word of another field's opening a business's name labels nothing in it: the name whole, not its rest.
    const school = [field("autoescuela", "string")]
    assert.deepStrictEqual(extract(school, ["AUTOESCUELA LOS PINOS S.L.", "Matrícula: 120 €"].map(line)), {
      autoescuela: "AUTOESCUELA LOS PINOS S.L."
    })
    // A letterhead of another kind is none of the kind a field names (an expense skill's `hotel` on a fuel receipt).
    const expense = [field("hotel", "string"), field("restaurante", "string"), field("gasolinera", "string")]
    const fuel = ["STAZIONE DI SERVIZIO ROSSI S.R.L.", "Via Emilia 120, 40100 Bologna", "Litri 40,12"].map(line)
    assert.deepStrictEqual(extract(expense, fuel), {
      hotel: null,
      restaurante: null,
      gasolinera: "STAZIONE DI SERVIZIO ROSSI S.R.L."
    })
    // The insurer is not the insured (`Asegurado:`, a word two letters short, no OCR slip of it).
    const policy = ["SEGUROS ATLANTICO, S.A.", "Tomador: Pedro Martín", "Asegurado: Pedro Martín"].map(line)
    assert.deepStrictEqual(extract([field("aseguradora", "string", "Compañía aseguradora")], policy), {
      aseguradora: "SEGUROS ATLANTICO, S.A."
    })
  })
})

describe("Local: typed candidates", () => {
  it("dates: numeric, ISO and in words (Spanish and English), with no label to go by", () => {
    const date = [field("fecha", "date")]
    assert.deepStrictEqual(extract(date, [[[40, "Madrid, 3 de febrero de 2026"]]]), { fecha: "3 de febrero de 2026" })
    assert.deepStrictEqual(extract(date, [[[40, "Issued March 12, 2026"]]]), { fecha: "March 12, 2026" })
    assert.deepStrictEqual(extract(date, [[[40, "Ref 2026-03-12 / 14:02"]]]), { fecha: "2026-03-12" })
    assert.deepStrictEqual(extract(date, [[[40, "Tel 07-5547360"]]]), { fecha: null })
  })

  it("the total: the largest amount by a total label, not subtotals, counts, codes or later notes", () => {
    const total = [field("total", "float")]
    const rows = [
      [[40, "TOTAL QTY: 3"]],
      row2(40, "SUB TOTAL", 300, "100,00"),
      row2(40, "TOTAL", 300, "RM121,00"),
      [[40, "CAE N: 73064284586911"]],
      row2(40, "CASH", 300, "200,00")
    ] as const
    assert.deepStrictEqual(extract(total, rows), { total: "121,00" })
  })

  it("the total after rounding: a later total a few cents below the largest", () => {
    const rows = [
      row2(40, "TOTAL AMOUNT (INCL. GST)", 300, "31.47"),
      row2(40, "ROUNDING", 300, "-0.02"),
      row2(40, "TOTAL", 300, "31.45")
    ] as const
    assert.deepStrictEqual(extract([field("total", "float")], rows), { total: "31.45" })
  })

  it("tax ids: CUIT (check digit verified), NIF/CIF, RFC; by label first, else the first one printed", () => {
    const cuit = [field("cuit_emisor", "string", "CUIT del emisor")]
    assert.deepStrictEqual(extract(cuit, [row2(40, "CUIT:", 200, "23100588994"), [[40, "CUIT: 30500017704"]]]), {
      cuit_emisor: "23100588994"
    })
    assert.deepStrictEqual(extract(cuit, [[[40, "Responsable inscripto 20-13046568-5"]]]), {
      cuit_emisor: "20-13046568-5"
    })
    // 20-13046568-4 fails the check digit: not a CUIT.
    assert.deepStrictEqual(extract(cuit, [[[40, "Cliente 20-13046568-4"]]]), { cuit_emisor: null })
    const nif = [field("nif", "string", "NIF del cliente")]
    assert.deepStrictEqual(extract(nif, [[[40, "Cliente: Ana García, 12345678Z"]]]), { nif: "12345678Z" })
    assert.deepStrictEqual(extract(nif, [[[40, "Cliente: Ana García, 12345678A"]]]), { nif: null })
    const rfc = [field("rfc", "string", "RFC del emisor")]
    assert.deepStrictEqual(extract(rfc, [[[40, "R.F.C. GODE561231GR8"]]]), { rfc: "GODE561231GR8" })
  })

  it("a field named for the currency: its ISO code, from the amounts' sign; the amounts stay amounts", () => {
    const fields = [field("moneda", "string", "Moneda (código ISO)"), field("total", "float")]
    const rows: ReadonlyArray<ReadonlyArray<readonly [number, string]>> = [
      [[40, "Suministros Acme S.L."]],
      [
        [40, "Papel A4"],
        [330, "45,00 €"]
      ],
      [
        [40, "Total"],
        [330, "54,45 €"]
      ]
    ]
    assert.deepStrictEqual(extract(fields, rows), { moneda: "EUR", total: "54,45" })
  })

  it("a party's tax id: the recipient's in its block, the issuer's out of it; never the other's", () => {
    const fields = [
      field("nif_emisor", "string", "NIF/CIF del emisor"),
      field("nif_cliente", "string", "NIF/CIF del cliente"),
      field("customer_vat", "string", "Customer VAT number")
    ]
    const head = [
      [[40, "Imprenta Valle S.L."]],
      [[40, "Calle Real 4, 46001 Valencia"]],
      [[40, "CIF: B46123451"]],
      []
    ] as const
    assert.deepStrictEqual(
      extract(fields, [...head, [[40, "Cliente:"]], [[40, "Papelería Globex S.A."]], [[40, "NIF: A28123453"]]]),
      { nif_emisor: "B46123451", nif_cliente: "A28123453", customer_vat: "A28123453" }
    )
    // No recipient's block: the issuer's tax id is not the customer's.
    assert.deepStrictEqual(extract(fields, [...head, [[40, "FACTURA 2024-12"]]]), {
      nif_emisor: "B46123451",
      nif_cliente: null,
      customer_vat: null
    })
  })

  it("a skill's other fields: tax and net amounts, e-mail, phone, PO number, the customer's name", () => {
    const fields = [
      field("vat_amount", "float", "VAT amount"),
      field("cuota_iva", "float", "Cuota de IVA"),
      field("net_amount", "float", "Net amount before tax"),
      field("base_imponible", "float", "Base imponible"),
      field("total_con_iva", "float", "Total con IVA"),
      field("email", "string", "Supplier email"),
      field("phone", "string", "Supplier phone number"),
      field("po_number", "string", "Purchase order number"),
      field("customer_name", "string", "Customer name")
    ]
    const rows = [
      [[40, "Bright Signs Ltd"]],
      [[40, "12 High Street, Leeds LS1 4AB"]],
      [[40, "Tel: 0113 496 0000  accounts@brightsigns.co.uk"]],
      [],
      row2(330, "Invoice No:", 450, "BS-1042"),
      row2(330, "PO Number:", 450, "PO-7781"),
      [[40, "Bill To:"]],
      [[40, "Contoso Ltd"]],
      [[40, "9 Dock Rd, Hull HU1 1AA"]],
      [],
      [
        [40, "Description"],
        [300, "Qty"],
        [380, "Price"],
        [480, "Amount"]
      ],
      [
        [40, "Banner"],
        [300, "1"],
        [380, "120.00"],
        [480, "120.00"]
      ],
      row2(330, "Subtotal", 480, "120.00"),
      row2(330, "VAT 20%", 480, "24.00"),
      row2(330, "Total", 480, "144.00")
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      vat_amount: "24.00",
      cuota_iva: "24.00",
      net_amount: "120.00",
      base_imponible: "120.00",
      total_con_iva: "144.00",
      email: "accounts@brightsigns.co.uk",
      phone: "0113 496 0000",
      po_number: "PO-7781",
      customer_name: "Contoso Ltd"
    })
    // Two rates print two taxes: no single tax amount to give; the e-mail of a customer is not the supplier's.
    const twoRates = [
      row2(330, "IVA 21%", 480, "21,00"),
      row2(330, "IVA 10%", 480, "5,00"),
      row2(330, "Total", 480, "126,00")
    ] as const
    assert.deepStrictEqual(extract([field("cuota_iva", "float", "Cuota de IVA")], twoRates), { cuota_iva: null })
    // A total described with its taxes included is the total; `total_iva` the tax.
    const totals = [
      field("total", "float", "Importe total de la factura, impuestos incluidos"),
      field("total_iva", "float", "")
    ]
    const oneRate = [twoRates[0], twoRates[2]]
    assert.deepStrictEqual(extract(totals, oneRate), { total: "126,00", total_iva: "21,00" })
    const customerMail = [[[40, "Cliente:"]], [[40, "Globex S.A."]], [[40, "compras@globex.es"]]] as const
    assert.deepStrictEqual(extract([field("email", "string", "Supplier email")], customerMail), { email: null })
  })

  it("a German invoice's other fields: its window's addressee, VAT ids by party, the footer's parts", () => {
    const fields = [
      field("faelligkeit", "date", "Fälligkeitsdatum"),
      field("ust_id_lieferant", "string", "USt-IdNr. des Lieferanten"),
      field("ust_id_kunde", "string", "USt-IdNr. des Kunden"),
      field("bruttobetrag", "float", "Bruttobetrag"),
      field("kunde", "string", "Name des Kunden"),
      field("telefon", "string", "Telefon des Lieferanten")
    ]
    const rows = [
      [[40, "Druckerei Berger GmbH · Hauptstraße 5 · 80331 München"]],
      [[40, "Firma"]],
      [[40, "Beispiel AG"]],
      [[40, "Hafenstr. 1"]],
      [[40, "20457 Hamburg"]],
      [[40, "USt-IdNr.: DE987654321"]],
      [],
      row2(330, "Rechnungsdatum:", 450, "03.06.2024"),
      row2(330, "Nettobetrag", 480, "80,00 €"),
      row2(330, "zzgl. 19 % MwSt.", 480, "15,20 €"),
      row2(330, "Rechnungsbetrag", 480, "95,20 €"),
      [[40, "Zahlbar bis 17.06.2024 ohne Abzug."]],
      [[40, "Druckerei Berger GmbH · Tel. 089 123456 · USt-IdNr. DE123456789 · BIC COBADEFFXXX"]]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      faelligkeit: "17.06.2024",
      ust_id_lieferant: "DE123456789",
      ust_id_kunde: "DE987654321",
      bruttobetrag: "95,20",
      kunde: "Beispiel AG",
      telefon: "089 123456"
    })
  })

  it("each party's address and name: the letterhead's, the bill-to's and the ship-to's blocks", () => {
    const fields = [
      field("supplier_address", "string", "Supplier address"),
      field("customer_address", "string", "Customer address"),
      field("delivery_address", "string", "Delivery address"),
      field("ship_to_name", "string", "Name of the delivery's recipient"),
      field("customer", "string", "Customer name")
    ]
    const rows = [
      [[40, "Bright Signs Ltd"]],
      [[40, "12 High Street, Leeds LS1 4AB"]],
      [[40, "Tel: 0113 496 0000"]],
      [],
      row2(40, "Bill To:", 330, "Ship To:"),
      row2(40, "Contoso Ltd", 330, "Contoso Warehouse"),
      row2(40, "9 Dock Rd, Hull HU1 1AA", 330, "Unit 4, Marsh Lane, Hull HU2 8BB")
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      supplier_address: "12 High Street, Leeds LS1 4AB",
      customer_address: "9 Dock Rd, Hull HU1 1AA",
      delivery_address: "Unit 4, Marsh Lane, Hull HU2 8BB",
      ship_to_name: "Contoso Warehouse",
      customer: "Contoso Ltd"
    })
    // No ship-to block: no delivery address, never the letterhead's.
    assert.deepStrictEqual(extract([fields[2] as Skill.SkillField], rows.slice(0, 3)), { delivery_address: null })
  })

  it("another party's label that a party's label word opens (Dirección de envío:) labels no issuer's value", () => {
    const fields = [field("address", "string", "Address of the company"), field("emisor", "string", "Emisor")]
    const rows = [
      [[40, "TIENDA ONLINE BÁSICOS"]],
      [[40, "www.tiendabasicos.es"]],
      [[40, "FACTURA Nº TB-2024-5531"]],
      [[40, "Dirección de envío:"]],
      [[40, "Ana Gómez, Calle Río 2, 18001 Granada"]],
      [[40, "Razón social del cliente:"]],
      [[40, "Gómez Hogar S.L."]]
    ] as const
    assert.deepStrictEqual(extract(fields, rows), { address: null, emisor: "TIENDA ONLINE BÁSICOS" })
    // The field that asks for the delivery's address has its label.
    const delivery = field("direccion_envio", "string", "Dirección de envío")
    assert.deepStrictEqual(extract([delivery], rows), { direccion_envio: "Ana Gómez, Calle Río 2, 18001 Granada" })
    // A label of the field's own that goes on to a colon: the value beside it, not its words.
    const fiscal = [row2(40, "Domicilio fiscal:", 200, "Calle Mayor 3, 28001 Madrid")]
    assert.deepStrictEqual(extract([field("domicilio", "string", "Domicilio del emisor")], fiscal), {
      domicilio: "Calle Mayor 3, 28001 Madrid"
    })
  })

  it("a store's label giving its number and address (Tienda 1234 - C/ Alcalá 300) names no store", () => {
    const tienda = field("tienda", "string", "Nombre de la tienda o empresa", { aliases: ["Tienda"] })
    const rows = [
      [[40, "DIA RETAIL ESPAÑA S.A.U."]],
      [[40, "C.I.F. A-80782519"]],
      [[40, "Tienda 1234 - C/ Alcalá 300 Madrid"]],
      [[40, "FACTURA SIMPLIFICADA Nº: 1234-0005-123456"]]
    ] as const
    assert.deepStrictEqual(extract([tienda], rows), { tienda: "DIA RETAIL ESPAÑA S.A.U." })
    // A name beside the label is the store's, its legal form with it whatever its words.
    assert.deepStrictEqual(extract([tienda], [[[40, "Tienda: Plaza Mayor Alimentación S.L."]]]), {
      tienda: "Plaza Mayor Alimentación S.L."
    })
  })

  it("field names in Italian, French and Dutch: number, total, the customer alone, national tax ids", () => {
    const fields = [
      field("numero_fattura", "string"),
      field("partita_iva_cliente", "string"),
      field("partita_iva_fornitore", "string"),
      field("totale", "float"),
      field("cliente", "string")
    ]
    const rows = [
      [[40, "Tipografia Rossi S.r.l."]],
      [[40, "Via Roma 10, 00184 Roma"]],
      [[40, "P.IVA 00743110157"]],
      [],
      row2(330, "Fattura n.", 430, "123/2024"),
      [[40, "Spett.le"]],
      [[40, "Cartoleria Bianchi S.n.c."]],
      [[40, "Corso Italia 5, 20122 Milano"]],
      [[40, "P.IVA 01234567897"]],
      [],
      row2(330, "Totale documento", 480, "122,00")
    ] as const
    assert.deepStrictEqual(extract(fields, rows), {
      numero_fattura: "123/2024",
      partita_iva_cliente: "01234567897",
      partita_iva_fornitore: "00743110157",
      totale: "122,00",
      cliente: "Cartoleria Bianchi S.n.c."
    })
    const french = [
      field("numero_facture", "string"),
      field("montant_ttc", "float"),
      field("siret_fournisseur", "string")
    ]
    const facture = [
      [[40, "Imprimerie Martin SARL"]],
      [[40, "SIRET 732 829 320 00074"]],
      row2(330, "Facture N°", 450, "F2024-051"),
      row2(330, "Total HT", 480, "200,00 €"),
      row2(330, "Total TTC", 480, "240,00 €")
    ] as const
    assert.deepStrictEqual(extract(french, facture), {
      numero_facture: "F2024-051",
      montant_ttc: "240,00",
      siret_fournisseur: "732 829 320 00074"
    })
    const dutch = [field("totaal_incl_btw", "float"), field("btw_bedrag", "float")]
    const factuur = [row2(330, "BTW 21%", 480, "21,00"), row2(330, "Totaal te betalen", 480, "€ 121,00")] as const
    assert.deepStrictEqual(extract(dutch, factuur), { totaal_incl_btw: "121,00", btw_bedrag: "21,00" })
  })

  it("a line item's sub-fields by their names (nombre, rate, sku); a tax's rate is its percentage", () => {
    const list = (name: string, fields: ReadonlyArray<Skill.SkillField>): Skill.SkillField => ({
      ...field(name, "object"),
      isList: true,
      fields: [...fields]
    })
    const rows = [
      [[40, "Suministros Acme S.L."]],
      [],
      [
        [40, "Ref."],
        [100, "Descripción"],
        [300, "Cant."],
        [360, "Precio"],
        [480, "Importe"]
      ],
      [
        [40, "A-100"],
        [100, "Papel A4 80 g"],
        [300, "10"],
        [360, "4,50"],
        [480, "45,00"]
      ],
      row2(330, "TOTAL", 480, "45,00")
    ] as const
    const spanish = list("productos", [
      field("nombre", "string"),
      field("unidades", "float"),
      field("total_linea", "float")
    ])
    assert.deepStrictEqual(extract([spanish], rows), {
      productos: [{ nombre: "Papel A4 80 g", unidades: "10", total_linea: "45,00" }]
    })
    const english = list("lines", [
      field("sku", "string", "Product code"),
      field("name", "string"),
      field("qty", "float"),
      field("rate", "float"),
      field("amount", "float")
    ])
    assert.deepStrictEqual(extract([english], rows), {
      lines: [{ sku: null, name: "Papel A4 80 g", qty: "10", rate: "4,50", amount: "45,00" }]
    })
    // A tax's rate is its percentage, not its amount; two rates give none.
    const taxes = [row2(330, "IVA 21%", 480, "21,00"), row2(330, "Total", 480, "121,00")]
    const rated = [field("tipo_iva", "float"), field("vat_rate", "float"), field("cuota_iva", "float")]
    assert.deepStrictEqual(extract(rated, taxes), { tipo_iva: "21", vat_rate: "21", cuota_iva: "21,00" })
    const twoRates = [row2(330, "IVA 21%", 480, "21,00"), row2(330, "IVA 10%", 480, "5,00")]
    assert.deepStrictEqual(extract([field("tipo_iva", "float")], twoRates), { tipo_iva: null })
  })

  it("a name label that opens a name with its legal form is the name's word: EMPRESA EJEMPLO S.A. DE C.V.", () => {
    const issuer = field("issuer", "string", "Name of the company that issued the invoice")
    const rows = (name: string) => [
      [[40, name]] as const,
      [[40, "RFC: EEJ010101AB1"]] as const,
      [[40, "FACTURA"]] as const
    ]
    assert.deepStrictEqual(extract([issuer], rows("EMPRESA EJEMPLO S.A. DE C.V.")), {
      issuer: "EMPRESA EJEMPLO S.A. DE C.V."
    })
    // With its colon the word labels the name after it.
    assert.deepStrictEqual(extract([issuer], rows("Empresa: Ejemplo S.A. de C.V.")), { issuer: "Ejemplo S.A. de C.V." })
    // The legal form on the line under the name.
    const twoLines = [[[40, "EMPRESA EJEMPLO"]] as const, [[40, "S.A. DE C.V."]] as const, ...rows("FACTURA").slice(1)]
    assert.deepStrictEqual(extract([issuer], twoLines), { issuer: "EMPRESA EJEMPLO S.A. DE C.V." })
  })

  it("a company's registration label is no name, with a letter OCR added before it: Company I Reg. No.:", () => {
    const issuer = field("issuer", "string", "Name of the issuing company")
    const rows = (reg: string) => [
      row2(16, "BAKERY LOGISTICS", 118, "LLC"),
      [[16, "239 SYSTEMS HIGH STREET"]] as const,
      [
        [15, reg],
        [78, "No.:"],
        [102, "GB606 5248"]
      ] as const,
      [[15, "CASH RECEIPT"]] as const
    ]
    for (const reg of ["Company Reg.", "Company I Reg."])
      assert.deepStrictEqual(extract([issuer], rows(reg)), { issuer: "BAKERY LOGISTICS LLC" }, reg)
  })

  it("document numbers: point of sale and number, codes with letters", () => {
    const numero = [field("numero", "string", "Número de factura")]
    assert.deepStrictEqual(extract(numero, [row2(40, "FACTURA A", 200, "Nº 0003 - 00003435")]), {
      numero: "0003 - 00003435"
    })
    assert.deepStrictEqual(extract(numero, [[[40, "Invoice No: INV-2026-118"]]]), { numero: "INV-2026-118" })
  })
})

describe("Local: the issuer of invoices from billing software other than AFIP's", () => {
  const emisor = [field("emisor", "string", "Razón social de quien emite la factura", { aliases: ["Emisor"] })]

  it("never a name labelled on a row of another party's tax id", () => {
    const rows = (cuit: string): Rows => [
      [[40, "C.U.I.T.: 20-12345678-6"]],
      row2(40, "Razón Social: GOMEZ MARIA", 340, `C.U.I.T.: ${cuit}`)
    ]
    assert.deepStrictEqual(extract(emisor, rows("27-22333444-5")), { emisor: null })
    // The issuer's own tax id beside it: the issuer's name.
    assert.deepStrictEqual(extract(emisor, rows("20-12345678-6")), { emisor: "GOMEZ MARIA" })
  })

  it("a name label's value under it when the next cell is across the page (another column's)", () => {
    const rows: Rows = [
      row2(40, "Razón Social:", 340, "Nº 0005-00011643"),
      row2(40, "PEREZ JUAN CARLOS", 340, "Fecha: 08/02/2023")
    ]
    assert.deepStrictEqual(extract(emisor, rows), { emisor: "PEREZ JUAN CARLOS" })
  })

  it("the letterhead's first line, when its block declares its VAT condition", () => {
    const rows = (name: string, status: string): Rows => [
      row2(40, name, 340, "FACTURA Nº 0005-00011643"),
      row2(40, "Av. San Martín 1234", 340, "Fecha: 08/02/2023"),
      row2(40, "2000 - Rosario - Santa Fe", 340, "C.U.I.T.: 20-12345678-6"),
      [[40, status]],
      [[40, "Señor(es): GOMEZ MARIA"]]
    ]
    assert.deepStrictEqual(extract(emisor, rows("PEREZ JUAN CARLOS", "IVA RESPONSABLE INSCRIPTO")), {
      emisor: "PEREZ JUAN CARLOS"
    })
    assert.deepStrictEqual(extract(emisor, rows("PEREZ JUAN CARLOS", "Responsable Monotributo")), {
      emisor: "PEREZ JUAN CARLOS"
    })
    // Nothing declared: position alone gives no name; `DE …` is an owner's or a surname's, nothing says which.
    assert.deepStrictEqual(extract(emisor, rows("PEREZ JUAN CARLOS", "Tel. 0341 456-7890")), { emisor: null })
    assert.deepStrictEqual(extract(emisor, rows("DE JUAN CARLOS PEREZ", "IVA RESPONSABLE INSCRIPTO")), {
      emisor: null
    })
    // A slogan over the name is a sentence, no name.
    assert.deepStrictEqual(extract(emisor, rows("Todo para el hogar", "IVA RESPONSABLE INSCRIPTO")), { emisor: null })
  })

  it("AFIP's layout with the issuer's label misread: the letterhead's name, never the buyer's row", () => {
    const rows = (label: string): Rows => [
      { y: 56, cells: row2(41, "ESCOBAR LUIS RAMON", 341, "FACTURA") },
      { y: 93, cells: row2(341, "Punto de Venta: 00003", 461, "Comp. Nro: 00000128") },
      { y: 108, cells: row2(21, `${label} ESCOBAR LUIS RAMON`, 341, "Fecha de Emisión: 18/02/2023") },
      {
        y: 132,
        cells: row2(21, "Domicilio Comercial: Nogues 576 - Villa Gobernador Galvez,", 341, "CUIT: 23100588994")
      },
      { y: 156, cells: row2(21, "Condición frente al IVA:", 131, "Responsable Monotributo") },
      {
        y: 198,
        cells: row2(21, "CUIT: 30500017704", 222, "Apellido y Nombre / Razón Social: LA SEGUNDA COOPERATIVA LTDA")
      },
      { y: 215, cells: row2(21, "Condición frente al IVA:", 131, "IVA Responsable Inscripto") }
    ]
    for (const label of ["Razón Social:", "Raz6n Social:", "RazónSocial:", "R4z0n S0c:"])
      assert.deepStrictEqual(extract(emisor, rows(label)), { emisor: "ESCOBAR LUIS RAMON" }, label)
  })

  it("a trading name's owner on the line under it (`de Pérez Juan Carlos`, `di Rossi Mario & C.`)", () => {
    const rows = (name: string, owner: string): Rows => [
      row2(40, name, 340, "FACTURA"),
      row2(40, owner, 340, "Nº 0005-00011643"),
      [[40, "Av. San Martín 1234 - Rosario"]],
      [[40, "IVA RESPONSABLE INSCRIPTO"]]
    ]
    assert.deepStrictEqual(extract(emisor, rows("EL TALLER DEL AUTO", "de Pérez Juan Carlos")), {
      emisor: "Pérez Juan Carlos"
    })
    assert.deepStrictEqual(extract(emisor, rows("FERRETERÍA CENTRAL", "di Rossi Mario & C.")), {
      emisor: "Rossi Mario & C."
    })
    // A place or a slogan is no owner.
    assert.deepStrictEqual(extract(emisor, rows("FERRETERÍA CENTRAL", "de calidad desde 1950")), {
      emisor: "FERRETERÍA CENTRAL"
    })
    // A name with its own legal form is the company's: the line under it names its partners.
    assert.deepStrictEqual(extract(emisor, rows("PANIFICIO F.LLI ESPOSITO S.N.C.", "di Esposito Mario & C.")), {
      emisor: "PANIFICIO F.LLI ESPOSITO S.N.C."
    })
    // An owner with a legal form of its own, under a sign it names or not: the owner's name, without its `di`.
    assert.deepStrictEqual(extract(emisor, rows("TRATTORIA DA MARIO", "di Mario Rossi & C. s.a.s.")), {
      emisor: "Mario Rossi & C. s.a.s."
    })
    assert.deepStrictEqual(extract(emisor, rows("EL TALLER DEL AUTO", "de Pérez Juan Carlos S.R.L.")), {
      emisor: "Pérez Juan Carlos S.R.L."
    })
  })
})

describe("Local: structure", () => {
  it("an object field: each sub-field found by its own labels", () => {
    const cliente = field("cliente", "object", "", {
      fields: [field("nombre", "string", "Razón social"), field("nif", "string", "NIF")]
    })
    const rows = [[[40, "Razón social: Papelería Globex S.A."]], [[40, "NIF: A87654323"]]] as const
    assert.deepStrictEqual(extract([cliente], rows), { cliente: { nombre: "Papelería Globex S.A.", nif: "A87654323" } })
  })

  it("an object's sub-fields name the party the object does: emisor's nif is the issuer's, cliente's nombre its", () => {
    const party = (name: string) =>
      field(name, "object", "", { fields: [field("nombre", "string", "Nombre"), field("nif", "string", "NIF")] })
    const rows = [
      [[40, "Talleres Gómez, S.L."]],
      [[40, "C/ Industria 4, 46001 Valencia"]],
      [[40, "CIF: B46123451"]],
      [[40, "FACTURA Nº: T-2024-0312"]],
      [[40, "Cliente: Pedro Sánchez Gil"]],
      [[40, "NIF: 87654321X"]]
    ] as const
    assert.deepStrictEqual(extract([party("emisor"), party("cliente")], rows), {
      emisor: { nombre: "Talleres Gómez, S.L.", nif: "B46123451" },
      cliente: { nombre: "Pedro Sánchez Gil", nif: "87654321X" }
    })
  })

  it("a catalog field with several key columns: each column by its label; none found is null", () => {
    const catalog = {
      catalogId: "c",
      keyColumns: ["codigo", "marca"] as const,
      outputColumns: [],
      method: "exacta" as const,
      threshold: 1
    }
    const producto = field("producto", "catalog", "", { catalog: { ...catalog, keyColumns: ["codigo", "marca"] } })
    assert.deepStrictEqual(extract([producto], [[[40, "Código: SKU-991"]], [[40, "Marca: Acme"]]]), {
      producto: { codigo: "SKU-991", marca: "Acme" }
    })
    assert.deepStrictEqual(extract([producto], [[[40, "Nada que ver"]]]), { producto: null })
  })

  it("a German table's quantity column under its abbreviation Anz.", () => {
    const rows = [
      [
        [40, "Artikel"],
        [250, "Anz."],
        [330, "Einzelpreis"],
        [450, "Gesamtpreis"]
      ],
      [
        [40, "Reparatur"],
        [250, "1"],
        [330, "754,46"],
        [450, "754,46"]
      ],
      [
        [40, "Webhosting"],
        [250, "2"],
        [330, "654,87"],
        [450, "1.309,74"]
      ]
    ] as const
    const got = extract([ITEMS], rows).items as ReadonlyArray<Record<string, string>>
    assert.deepStrictEqual(
      got.map((i) => i.quantity),
      ["1", "2"]
    )
  })

  it("a header cell holding two columns' labels is two columns: QTA PREZZO UNITARIO; PRIX TOTAL stays one", () => {
    const table = (header: string) =>
      [
        [
          [40, "ARTICOLO"],
          [250, header],
          [450, "PREZZO"]
        ],
        [
          [40, "Manutenzione mensile"],
          [250, "24"],
          [330, "6,86"],
          [450, "164,64"]
        ]
      ] as const
    for (const header of ["QTA PREZZO UNITARIO", "Q.TÀ PREZZO UNITARIO"]) {
      const got = extract([ITEMS], table(header)).items as ReadonlyArray<Record<string, string | null>>
      assert.deepStrictEqual(
        got.map((i) => [i.quantity, i.unit_price, i.line_total]),
        [["24", "6,86", "164,64"]],
        header
      )
    }
    const prix = extract(
      [ITEMS],
      [
        [
          [40, "Désignation"],
          [250, "Qté"],
          [330, "P.U."],
          [450, "PRIX TOTAL"]
        ],
        [
          [40, "Conseil"],
          [250, "2"],
          [330, "677,41"],
          [450, "1 354,82"]
        ]
      ]
    ).items as ReadonlyArray<Record<string, string | null>>
    assert.deepStrictEqual(
      prix.map((i) => [i.quantity, i.unit_price, i.line_total]),
      [["2", "677,41", "1 354,82"]]
    )
  })

  it("a till's lines with the tax class after each amount (1,99 A)", () => {
    const rows = [
      [[40, "BÄCKEREI WEBER"]],
      row2(40, "ROGGENBROT", 300, "2,49 A"),
      [[40, "  3 x 0,99"]],
      row2(40, "BUTTER", 300, "2,97 B"),
      row2(40, "SUMME", 300, "5,46")
    ] as const
    const got = extract([ITEMS], rows).items as ReadonlyArray<Record<string, string | null>>
    assert.deepStrictEqual(
      got.map((i) => [i.description, i.quantity, i.line_total]),
      [
        ["ROGGENBROT", null, "2,49"],
        ["BUTTER", "3", "2,97"]
      ]
    )
  })

  it("a list of simple values from the column under its header", () => {
    const productos = field("productos", "string", "", { isList: true, aliases: ["Artículo"] })
    const rows = [
      row2(40, "Artículo", 300, "Importe"),
      row2(40, "Grapadora", 300, "12,00"),
      row2(40, "Clips", 300, "1,50"),
      row2(40, "Total", 300, "13,50")
    ] as const
    assert.deepStrictEqual(extract([productos], rows), { productos: ["Grapadora", "Clips"] })
  })
})
