// A Factur-X (EN 16931 profile) CII document built from a few fields, for tests: totals and VAT groups are computed
// as EN 16931's rules BR-CO-10 to BR-CO-16 state them (sums of lines, VAT per rate rounded to cents).

export interface FacturXParty {
  readonly name: string
  /** A VAT number (`schemeID="VA"`). */
  readonly vat?: string
  /** A local fiscal number (`schemeID="FC"`). */
  readonly fiscal?: string
}

export interface FacturXLine {
  readonly name: string
  readonly quantity: number
  /** UN/ECE Rec 20 unit code; `C62` (one) by default. */
  readonly unitCode?: string
  readonly unitPrice: number
  /** VAT rate in percent. */
  readonly taxRate: number
}

export interface FacturXFields {
  readonly number: string
  /** `YYYY-MM-DD`. */
  readonly issueDate: string
  readonly dueDate?: string
  readonly currency: string
  readonly seller: FacturXParty
  readonly buyer: FacturXParty
  readonly lines: ReadonlyArray<FacturXLine>
  readonly iban?: string
  /** Already paid (BT-113), subtracted from the amount due. */
  readonly prepaid?: number
}

const xmlText = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const cents = (value: number): number => Math.round(value * 100) / 100
const money = (value: number): string => cents(value).toFixed(2)
const date102 = (iso: string): string =>
  `<udt:DateTimeString format="102">${iso.replace(/-/g, "")}</udt:DateTimeString>`

const partyXml = (tag: string, party: FacturXParty): string =>
  [
    `<ram:${tag}>`,
    `<ram:Name>${xmlText(party.name)}</ram:Name>`,
    ...(party.fiscal
      ? [
          `<ram:SpecifiedTaxRegistration><ram:ID schemeID="FC">${xmlText(party.fiscal)}</ram:ID></ram:SpecifiedTaxRegistration>`
        ]
      : []),
    ...(party.vat
      ? [
          `<ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">${xmlText(party.vat)}</ram:ID></ram:SpecifiedTaxRegistration>`
        ]
      : []),
    `</ram:${tag}>`
  ].join("")

/** The totals a Factur-X built from these fields states. */
export const facturXTotals = (fields: FacturXFields) => {
  const lineTotals = fields.lines.map((line) => cents(line.quantity * line.unitPrice))
  const rates = [...new Set(fields.lines.map((line) => line.taxRate))].sort((a, b) => a - b)
  const taxes = rates.map((rate) => {
    const basis = cents(
      fields.lines.reduce((sum, line, index) => (line.taxRate === rate ? sum + (lineTotals[index] ?? 0) : sum), 0)
    )
    return { rate, basis, amount: cents((basis * rate) / 100) }
  })
  const lineTotal = cents(lineTotals.reduce((sum, value) => sum + value, 0))
  const tax = cents(taxes.reduce((sum, group) => sum + group.amount, 0))
  const grandTotal = cents(lineTotal + tax)
  return {
    lineTotals,
    taxes,
    lineTotal,
    taxBasis: lineTotal,
    tax,
    grandTotal,
    duePayable: cents(grandTotal - (fields.prepaid ?? 0))
  }
}

/** A Factur-X EN 16931 CII XML document. */
export const encodeFacturX = (fields: FacturXFields): string => {
  const totals = facturXTotals(fields)
  const lines = fields.lines.map((line, index) =>
    [
      "<ram:IncludedSupplyChainTradeLineItem>",
      `<ram:AssociatedDocumentLineDocument><ram:LineID>${index + 1}</ram:LineID></ram:AssociatedDocumentLineDocument>`,
      `<ram:SpecifiedTradeProduct><ram:Name>${xmlText(line.name)}</ram:Name></ram:SpecifiedTradeProduct>`,
      `<ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${line.unitPrice}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>`,
      `<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${line.unitCode ?? "C62"}">${line.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>`,
      "<ram:SpecifiedLineTradeSettlement>",
      `<ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>${line.taxRate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`,
      `<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${money(totals.lineTotals[index] ?? 0)}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation>`,
      "</ram:SpecifiedLineTradeSettlement>",
      "</ram:IncludedSupplyChainTradeLineItem>"
    ].join("")
  )
  const taxes = totals.taxes.map(
    (group) =>
      `<ram:ApplicableTradeTax><ram:CalculatedAmount>${money(group.amount)}</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount>${money(group.basis)}</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>${group.rate}</ram:RateApplicablePercent></ram:ApplicableTradeTax>`
  )
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100" xmlns:qdt="urn:un:unece:uncefact:data:standard:QualifiedDataType:100">`,
    "<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>",
    `<rsm:ExchangedDocument><ram:ID>${xmlText(fields.number)}</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime>${date102(fields.issueDate)}</ram:IssueDateTime></rsm:ExchangedDocument>`,
    "<rsm:SupplyChainTradeTransaction>",
    ...lines,
    "<ram:ApplicableHeaderTradeAgreement>",
    partyXml("SellerTradeParty", fields.seller),
    partyXml("BuyerTradeParty", fields.buyer),
    "</ram:ApplicableHeaderTradeAgreement>",
    "<ram:ApplicableHeaderTradeDelivery/>",
    "<ram:ApplicableHeaderTradeSettlement>",
    `<ram:InvoiceCurrencyCode>${xmlText(fields.currency)}</ram:InvoiceCurrencyCode>`,
    ...(fields.iban
      ? [
          `<ram:SpecifiedTradeSettlementPaymentMeans><ram:TypeCode>58</ram:TypeCode><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>${xmlText(fields.iban)}</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>`
        ]
      : []),
    ...taxes,
    ...(fields.dueDate
      ? [
          `<ram:SpecifiedTradePaymentTerms><ram:DueDateDateTime>${date102(fields.dueDate)}</ram:DueDateDateTime></ram:SpecifiedTradePaymentTerms>`
        ]
      : []),
    "<ram:SpecifiedTradeSettlementHeaderMonetarySummation>",
    `<ram:LineTotalAmount>${money(totals.lineTotal)}</ram:LineTotalAmount>`,
    `<ram:TaxBasisTotalAmount>${money(totals.taxBasis)}</ram:TaxBasisTotalAmount>`,
    `<ram:TaxTotalAmount currencyID="${xmlText(fields.currency)}">${money(totals.tax)}</ram:TaxTotalAmount>`,
    `<ram:GrandTotalAmount>${money(totals.grandTotal)}</ram:GrandTotalAmount>`,
    ...(fields.prepaid ? [`<ram:TotalPrepaidAmount>${money(fields.prepaid)}</ram:TotalPrepaidAmount>`] : []),
    `<ram:DuePayableAmount>${money(totals.duePayable)}</ram:DuePayableAmount>`,
    "</ram:SpecifiedTradeSettlementHeaderMonetarySummation>",
    "</ram:ApplicableHeaderTradeSettlement>",
    "</rsm:SupplyChainTradeTransaction>",
    "</rsm:CrossIndustryInvoice>"
  ].join("\n")
}
