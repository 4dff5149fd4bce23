import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import fc from "fast-check"
import { Codes } from "../src/index.js"

const sample: Codes.FacturXFields = {
  number: "FX-2024-0042",
  issueDate: "2024-03-01",
  dueDate: "2024-03-31",
  currency: "EUR",
  seller: { name: "Atelier Dupont & Fils SARL", vat: "FR32123456789", fiscal: "123/456/78901" },
  buyer: { name: "Müller GmbH", vat: "DE123456789" },
  lines: [
    { name: "Réparation <urgent>", quantity: 3, unitPrice: 12.5, taxRate: 20 },
    { name: "Livre", quantity: 2, unitCode: "H87", unitPrice: 14.99, taxRate: 5.5 },
    { name: "Pièces", quantity: 1.5, unitCode: "KGM", unitPrice: 8, taxRate: 20 }
  ],
  iban: "FR7630006000011234567890189",
  prepaid: 10
}

function invoice(read: Codes.InvoiceRead): Codes.Invoice {
  assert.strictEqual(read._tag, "Invoice", JSON.stringify(read.problems))
  return read as Codes.Invoice
}
function refused(read: Codes.InvoiceRead): Array<string> {
  assert.strictEqual(read._tag, "Unknown")
  return read.problems.map((problem) => problem.kind)
}

describe("Factur-X / ZUGFeRD CII", () => {
  it("reads every field the builder wrote", () => {
    const read = invoice(Codes.readInvoiceXml(Codes.encodeFacturX(sample)))
    assert.deepStrictEqual(read.problems, [])
    assert.strictEqual(read.syntax, "CII")
    assert.strictEqual(read.profile, "urn:cen.eu:en16931:2017")
    assert.strictEqual(read.documentNumber, "FX-2024-0042")
    assert.strictEqual(read.documentType, "380")
    assert.strictEqual(read.issueDate, "2024-03-01")
    assert.strictEqual(read.dueDate, "2024-03-31")
    assert.strictEqual(read.currency, "EUR")
    assert.deepStrictEqual(read.seller, {
      name: "Atelier Dupont & Fils SARL",
      taxId: "FR32123456789",
      taxIds: [
        { scheme: "FC", value: "123/456/78901" },
        { scheme: "VA", value: "FR32123456789" }
      ]
    })
    assert.strictEqual(read.buyer.name, "Müller GmbH")
    assert.strictEqual(read.buyer.taxId, "DE123456789")
    // 37.50 + 29.98 + 12.00 = 79.48; VAT 5.5 % of 29.98 = 1.65, 20 % of 49.50 = 9.90.
    assert.deepStrictEqual(read.totals, {
      lineTotal: 79.48,
      taxBasis: 79.48,
      tax: 11.55,
      grandTotal: 91.03,
      duePayable: 81.03
    })
    assert.deepStrictEqual(read.taxes, [
      { category: "S", rate: 5.5, basis: 29.98, amount: 1.65 },
      { category: "S", rate: 20, basis: 49.5, amount: 9.9 }
    ])
    assert.deepStrictEqual(
      read.lines.map((line) => [
        line.id,
        line.name,
        line.quantity,
        line.unitCode,
        line.unitPrice,
        line.lineTotal,
        line.taxRate
      ]),
      [
        ["1", "Réparation <urgent>", 3, "C62", 12.5, 37.5, 20],
        ["2", "Livre", 2, "H87", 14.99, 29.98, 5.5],
        ["3", "Pièces", 1.5, "KGM", 8, 12, 20]
      ]
    )
    assert.strictEqual(read.iban, "FR7630006000011234567890189")
    assert.deepStrictEqual(Codes.facts(read), {
      issuerTaxId: "FR32123456789",
      buyerTaxId: "DE123456789",
      documentNumber: "FX-2024-0042",
      issueDate: "2024-03-01",
      total: 91.03,
      currency: "EUR",
      iban: "FR7630006000011234567890189"
    })
  })

  it("reads bytes: UTF-8 with a BOM, ISO-8859-1 as declared, and other namespace prefixes", () => {
    const xml = Codes.encodeFacturX(sample)
    const expected = invoice(Codes.readInvoiceXml(xml))
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from(xml, "utf8")])
    assert.deepStrictEqual(Codes.readInvoiceXml(bom), expected)
    const latin1 = Buffer.from(xml.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'), "latin1")
    assert.deepStrictEqual(Codes.readInvoiceXml(new Uint8Array(latin1)), expected)
    const renamed = xml
      .replace(/\brsm:/g, "inv:")
      .replace(/xmlns:rsm=/, "xmlns:inv=")
      .replace(/\bram:/g, "r:")
      .replace(/xmlns:ram=/, "xmlns:r=")
    assert.deepStrictEqual(Codes.readInvoiceXml(renamed), expected)
  })

  it("reports a damaged amount and a missing number, and keeps the rest", () => {
    const xml = Codes.encodeFacturX(sample)
      .replace("<ram:GrandTotalAmount>91.03<", "<ram:GrandTotalAmount>91,03<")
      .replace("<ram:ID>FX-2024-0042</ram:ID>", "")
    const read = invoice(Codes.readInvoiceXml(xml))
    assert.strictEqual(read.totals.grandTotal, null)
    assert.strictEqual(read.totals.duePayable, 81.03)
    assert.deepStrictEqual(
      read.problems.map((p) => `${p.kind}:${p.member}`),
      ["missing_member:ExchangedDocument/ID", "wrong_type:GrandTotalAmount"]
    )
  })
})

// An XRechnung UBL invoice in the shape of the EN 16931 UBL examples (values ours).
const ubl = `<?xml version="1.0" encoding="UTF-8"?>
<ubl:Invoice xmlns:ubl="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"
  xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2"
  xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0</cbc:CustomizationID>
  <cbc:ID>RE-2024-117</cbc:ID>
  <cbc:IssueDate>2024-05-06</cbc:IssueDate>
  <cbc:DueDate>2024-06-05</cbc:DueDate>
  <cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>
  <cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party>
    <cac:PartyName><cbc:Name>Beispiel Handel</cbc:Name></cac:PartyName>
    <cac:PartyTaxScheme><cbc:CompanyID>DE987654321</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
    <cac:PartyLegalEntity><cbc:RegistrationName>Beispiel Handel GmbH</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingSupplierParty>
  <cac:AccountingCustomerParty><cac:Party>
    <cac:PartyLegalEntity><cbc:RegistrationName>Stadt Musterhausen</cbc:RegistrationName></cac:PartyLegalEntity>
  </cac:Party></cac:AccountingCustomerParty>
  <cac:PaymentMeans><cbc:PaymentMeansCode>58</cbc:PaymentMeansCode><cac:PayeeFinancialAccount><cbc:ID>DE89370400440532013000</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="EUR">26.60</cbc:TaxAmount>
    <cac:TaxSubtotal><cbc:TaxableAmount currencyID="EUR">140.00</cbc:TaxableAmount><cbc:TaxAmount currencyID="EUR">26.60</cbc:TaxAmount>
      <cac:TaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal>
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:LineExtensionAmount currencyID="EUR">140.00</cbc:LineExtensionAmount>
    <cbc:TaxExclusiveAmount currencyID="EUR">140.00</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="EUR">166.60</cbc:TaxInclusiveAmount>
    <cbc:PayableAmount currencyID="EUR">166.60</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
  <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="HUR">4</cbc:InvoicedQuantity>
    <cbc:LineExtensionAmount currencyID="EUR">140.00</cbc:LineExtensionAmount>
    <cac:Item><cbc:Name>Beratung</cbc:Name><cac:ClassifiedTaxCategory><cbc:ID>S</cbc:ID><cbc:Percent>19</cbc:Percent><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:ClassifiedTaxCategory></cac:Item>
    <cac:Price><cbc:PriceAmount currencyID="EUR">35.00</cbc:PriceAmount></cac:Price></cac:InvoiceLine>
</ubl:Invoice>`

describe("XRechnung UBL", () => {
  it("reads an invoice", () => {
    const read = invoice(Codes.readInvoiceXml(ubl))
    assert.deepStrictEqual(read.problems, [])
    assert.strictEqual(read.syntax, "UBL")
    assert.match(read.profile ?? "", /xrechnung_3\.0$/)
    assert.strictEqual(read.documentNumber, "RE-2024-117")
    assert.strictEqual(read.issueDate, "2024-05-06")
    assert.strictEqual(read.dueDate, "2024-06-05")
    assert.deepStrictEqual(read.seller, {
      name: "Beispiel Handel GmbH",
      taxId: "DE987654321",
      taxIds: [{ scheme: "VAT", value: "DE987654321" }]
    })
    assert.strictEqual(read.buyer.name, "Stadt Musterhausen")
    assert.deepStrictEqual(read.totals, {
      lineTotal: 140,
      taxBasis: 140,
      tax: 26.6,
      grandTotal: 166.6,
      duePayable: 166.6
    })
    assert.deepStrictEqual(read.taxes, [{ category: "S", rate: 19, basis: 140, amount: 26.6 }])
    assert.deepStrictEqual(read.lines, [
      { id: "1", name: "Beratung", quantity: 4, unitCode: "HUR", unitPrice: 35, lineTotal: 140, taxRate: 19 }
    ])
    assert.strictEqual(read.iban, "DE89370400440532013000")
  })

  it("reads a credit note", () => {
    const credit = ubl
      .replace(/Invoice-2/, "CreditNote-2")
      .replace(/ubl:Invoice\b/g, "ubl:CreditNote")
      .replace(/InvoiceTypeCode>380</g, "CreditNoteTypeCode>381<")
      .replace(/InvoiceTypeCode>/g, "CreditNoteTypeCode>")
      .replace(/InvoiceLine>/g, "CreditNoteLine>")
      .replace(/InvoicedQuantity/g, "CreditedQuantity")
    const read = invoice(Codes.readInvoiceXml(credit))
    assert.strictEqual(read.documentType, "381")
    assert.strictEqual(read.lines[0]?.quantity, 4)
  })
})

// A CFDI 4.0 in the shape of SAT's Anexo 20 (values ours).
const cfdi = `<?xml version="1.0" encoding="UTF-8"?>
<cfdi:Comprobante xmlns:cfdi="http://www.sat.gob.mx/cfd/4" xmlns:tfd="http://www.sat.gob.mx/TimbreFiscalDigital"
  Version="4.0" Serie="F" Folio="1042" Fecha="2024-02-14T10:22:31" SubTotal="1000.00" Moneda="MXN" Total="1160.00" TipoDeComprobante="I">
  <cfdi:Emisor Rfc="EKU9003173C9" Nombre="ESCUELA KEMPER URGATE" RegimenFiscal="601"/>
  <cfdi:Receptor Rfc="XAXX010101000" Nombre="PUBLICO EN GENERAL" UsoCFDI="S01"/>
  <cfdi:Conceptos>
    <cfdi:Concepto ClaveProdServ="01010101" Cantidad="2" ClaveUnidad="H87" Descripcion="Servicio de prueba" ValorUnitario="500.00" Importe="1000.00"/>
  </cfdi:Conceptos>
  <cfdi:Impuestos TotalImpuestosTrasladados="160.00">
    <cfdi:Traslados><cfdi:Traslado Base="1000.00" Impuesto="002" TipoFactor="Tasa" TasaOCuota="0.160000" Importe="160.00"/></cfdi:Traslados>
  </cfdi:Impuestos>
  <cfdi:Complemento><tfd:TimbreFiscalDigital Version="1.1" UUID="ad662d33-6934-459c-a128-bdf0393f0f44"/></cfdi:Complemento>
</cfdi:Comprobante>`

describe("CFDI XML", () => {
  it("reads the comprobante's attributes", () => {
    const read = invoice(Codes.readInvoiceXml(cfdi))
    assert.deepStrictEqual(read.problems, [])
    assert.strictEqual(read.syntax, "CFDI")
    assert.strictEqual(read.profile, "4.0")
    assert.strictEqual(read.documentNumber, "F1042")
    assert.strictEqual(read.issueDate, "2024-02-14")
    assert.strictEqual(read.currency, "MXN")
    assert.strictEqual(read.seller.taxId, "EKU9003173C9")
    assert.strictEqual(read.buyer.name, "PUBLICO EN GENERAL")
    assert.strictEqual(read.totals.grandTotal, 1160)
    assert.strictEqual(read.totals.tax, 160)
    assert.deepStrictEqual(read.taxes, [{ category: "002", rate: 16, basis: 1000, amount: 160 }])
    assert.strictEqual(read.lines[0]?.name, "Servicio de prueba")
    assert.strictEqual(read.lines[0]?.quantity, 2)
  })
})

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 ${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? "" : i};`.repeat(10)}">`).join("\n ")}
]>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100">&lol9;</rsm:CrossIndustryInvoice>`

describe("hostile and foreign XML", () => {
  it("refuses a document type declaration: billion laughs and external entities", () => {
    assert.deepStrictEqual(refused(Codes.readInvoiceXml(billionLaughs)), ["doctype"])
    const xxe = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>`
    assert.deepStrictEqual(refused(Codes.readInvoiceXml(xxe)), ["doctype"])
  })

  it("never expands an entity that no DTD declares", () => {
    const xml = Codes.encodeFacturX(sample).replace("Livre", "&lol9;")
    assert.deepStrictEqual(refused(Codes.readInvoiceXml(xml)), ["malformed_xml"])
  })

  it("refuses a 50 MB document before parsing, and keeps only its first characters", () => {
    const head = Codes.encodeFacturX(sample).replace("</rsm:CrossIndustryInvoice>", "")
    const huge = head + "<!-- padding -->".repeat(Math.ceil((50 * 1024 * 1024) / 16))
    const read = Codes.readInvoiceXml(huge)
    assert.deepStrictEqual(refused(read), ["too_large"])
    assert.strictEqual(read._tag === "Unknown" && read.raw.length, Codes.RAW_LIMIT)
    assert.deepStrictEqual(refused(Codes.readInvoiceXml(new Uint8Array(50 * 1024 * 1024))), ["too_large"])
    assert.deepStrictEqual(refused(Codes.readInvoiceXml(Codes.encodeFacturX(sample), { maxBytes: 1000 })), [
      "too_large"
    ])
  })

  it("reports a document truncated anywhere as malformed", () => {
    const xml = Codes.encodeFacturX(sample)
    for (let cut = 1; cut < xml.length - 1; cut += 97)
      assert.deepStrictEqual(refused(Codes.readInvoiceXml(xml.slice(0, cut))), ["malformed_xml"], `cut at ${cut}`)
  })

  it("refuses nesting deeper than the limit", () => {
    const deep = `${"<a>".repeat(100_000)}${"</a>".repeat(100_000)}`
    assert.deepStrictEqual(refused(Codes.readInvoiceXml(deep)), ["too_deep"])
  })

  it("names foreign, non-XML and undecodable input", () => {
    assert.deepStrictEqual(refused(Codes.readInvoiceXml("<html><body>Factura</body></html>")), ["unrecognised"])
    assert.deepStrictEqual(refused(Codes.readInvoiceXml("%PDF-1.7 not xml")), ["malformed_xml"])
    assert.deepStrictEqual(refused(Codes.readInvoiceXml("")), ["malformed_xml"])
    assert.deepStrictEqual(refused(Codes.readInvoiceXml(new Uint8Array([0x3c, 0x61, 0x3e, 0xff, 0xfe, 0x3c]))), [
      "bad_encoding"
    ])
  })

  const isRead = Schema.is(Codes.InvoiceRead)
  const xml = Codes.encodeFacturX(sample)
  const mutated = fc.oneof(
    fc.string({ unit: "binary", maxLength: 500 }),
    fc.nat({ max: xml.length }).map((cut) => xml.slice(0, cut)),
    fc
      .tuple(fc.nat({ max: xml.length }), fc.nat({ max: 40 }), fc.string({ unit: "binary", maxLength: 20 }))
      .map(([at, length, insert]) => xml.slice(0, at) + insert + xml.slice(at + length)),
    fc.uint8Array({ maxLength: 500 })
  )

  it("any input gives a well-formed result and never throws (property)", () => {
    fc.assert(
      fc.property(mutated, (input) => {
        assert.isTrue(isRead(Codes.readInvoiceXml(input)))
      }),
      { seed: 1919, numRuns: 1500 }
    )
  })
})
