import { assert, describe, it } from "@effect/vitest"
import { company } from "../../../src/internal/local/issuer.js"
import { layout } from "../../../src/internal/local/layout.js"
import { type Cell, document, page } from "../../support/documents.js"

const row = (text: string): ReadonlyArray<Cell> => [[40, text]]

const issuerOf = (...texts: ReadonlyArray<string>) => company(layout(document([page(1, texts.map(row))])))

describe("issuer", () => {
  it("never a tax-status line: IVA:Responsable Inscripto", () => {
    assert.strictEqual(
      issuerOf("IVA:Responsable Inscripto", "Distribuidora del Sur S.R.L.", "CUIT: 30-71234567-8"),
      "Distribuidora del Sur S.R.L."
    )
    assert.isNull(issuerOf("IVA:Responsable Inscripto", "Ingresos Brutos: 901-123456-7"))
  })

  it("never an address line: the name, not the street above or below it", () => {
    assert.strictEqual(issuerOf("C/ Praga S/N, Calle 4", "11405 Jerez de la Frontera", "Juan Pérez"), "Juan Pérez")
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
})
