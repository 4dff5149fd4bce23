import { assert, describe, it } from "@effect/vitest"
import { company } from "../../../src/internal/local/issuer.js"
import { layout } from "../../../src/internal/local/layout.js"
import { type Cell, document, page } from "../../support/documents.js"

const row = (text: string): ReadonlyArray<Cell> => [[40, text]]

const issuerOf = (...texts: ReadonlyArray<string>) => company(layout(document([page(1, texts.map(row))])))?.text ?? null

const issuerOfRows = (rows: ReadonlyArray<ReadonlyArray<Cell>>) =>
  company(layout(document([page(1, rows)])))?.text ?? null

describe("issuer", () => {
  it("never a tax-status line: IVA:Responsable Inscripto", () => {
    assert.strictEqual(
      issuerOf("IVA:Responsable Inscripto", "Distribuidora del Sur S.R.L.", "CUIT: 30-71234567-8"),
      "Distribuidora del Sur S.R.L."
    )
    assert.isNull(issuerOf("IVA:Responsable Inscripto", "Ingresos Brutos: 901-123456-7"))
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
      [
        [40, "Facture"],
        [300, "Provence Atelier S.A."]
      ],
      [[300, "175 Moreau avenue"]],
      [
        [40, "Date d'émission: 16 novembre 2024"],
        [300, "98899 Toulouse"]
      ]
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
    assert.strictEqual(
      issuerOf("HIPER CONSTRUCCIONES S.Coop.", "PLAZA DISTRIBUCIONES 148"),
      "HIPER CONSTRUCCIONES S.Coop."
    )
  })

  it("a name printed after its label is the name alone", () => {
    assert.strictEqual(issuerOf("Sold By : WS Retail Services Pvt. Ltd.,"), "WS Retail Services Pvt. Ltd.")
  })

  it("the letterhead ends at a receipt's first line: an item is never the issuer", () => {
    assert.isNull(issuerOf("Nº ticket: 56/400516", "DETERGENTE 12,16", "CAFÉ MOLIDO 9,90"))
  })
})
